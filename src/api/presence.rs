//! Self check-in on a club night (docs/rules/rapid-blitz.md#self-check-in): the staff open an
//! evening's self check-in, the venue shows its rotating code, and a member who sends the code
//! is checked in for the evening's competitions that take check-in.

use crate::api::Body;
use crate::api::attendance::Account;
use crate::auth::{Arbiter, Auth};
use crate::error::{ApiError, ApiResult, Problem};
use crate::ids::EveningId;
use crate::services::presence::{self as svc, CheckInCode, CheckInState, SelfCheckIn};
use crate::state::AppState;
use actix_web::{HttpResponse, get, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

/// The code shown at the venue.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"code": "4QGQ0A"}))]
pub struct SelfCheckInRequest {
    /// The six characters shown at the venue (blanks and hyphens are ignored, lower case is
    /// read as upper case, O as 0 and I or L as 1; at most 16 characters as sent).
    #[schema(min_length = 1, max_length = 16)]
    pub code: String,
}

/// Opens the evening's self check-in (arbiter or leader): from now on the venue shows a
/// rotating code and members check themselves in with it. Opening an open one changes nothing.
#[utoipa::path(tag = "attendance", params(("id" = i64, Path, description = "Evening id")),
    responses((status = 200, description = "Open", body = CheckInState),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Neither an arbiter nor a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such evening", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[post("/evenings/{id}/check-in/open")]
pub async fn open_evening_check_in(
    auth: Auth<Arbiter>,
    state: web::Data<AppState>,
    path: web::Path<EveningId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let actor = auth.principal.label.clone();
    let out = state.tx(move |c| svc::open(c, id, &actor)).await?;
    Ok(HttpResponse::Ok().json(out))
}

/// Closes the evening's self check-in (arbiter or leader): codes are refused from then on; the
/// staff still check players in.
#[utoipa::path(tag = "attendance", params(("id" = i64, Path, description = "Evening id")),
    responses((status = 200, description = "Closed", body = CheckInState),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Neither an arbiter nor a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such evening", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The self check-in is not open", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[post("/evenings/{id}/check-in/close")]
pub async fn close_evening_check_in(
    auth: Auth<Arbiter>,
    state: web::Data<AppState>,
    path: web::Path<EveningId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let actor = auth.principal.label.clone();
    let out = state.tx(move |c| svc::close(c, id, &actor)).await?;
    Ok(HttpResponse::Ok().json(out))
}

/// The code the venue shows now (arbiter or leader, for the staff's apps and screens): it
/// changes every minute and is accepted during its own minute and the next.
#[utoipa::path(tag = "attendance", params(("id" = i64, Path, description = "Evening id")),
    responses((status = 200, description = "The current code", body = CheckInCode),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Neither an arbiter nor a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such evening", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The self check-in is not open", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[get("/evenings/{id}/check-in-code")]
pub async fn get_evening_check_in_code(
    _auth: Auth<Arbiter>,
    state: web::Data<AppState>,
    path: web::Path<EveningId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let now = chrono::Utc::now();
    let st = state.clone();
    let out = state
        .db(move |c| svc::current_code(c, &st.night.code_key, id, now))
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(out))
}

/// Checks the caller (the player linked to the account) in for the evening's competitions
/// that take check-in, with the code shown at the venue: a blitz championship on the
/// evening's date (until its closing minute), and the evening's rounds of a rapid or other
/// Swiss the player is an entrant of (until 15 minutes before the round, that minute
/// included). The answer names what happened per competition.
#[utoipa::path(tag = "attendance", request_body = SelfCheckInRequest,
    params(("id" = i64, Path, description = "Evening id")),
    responses((status = 200, description = "Checked in: the outcome per competition", body = SelfCheckIn),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a club account", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such evening", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The self check-in is not open, the player plays in none of the evening's competitions with check-in, or every one refused (the reasons named)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A malformed code, or one the evening does not accept now: expired, replayed long after it rotated, another evening's (the reason named); or an account not linked to a player", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "More than 10 check-ins a minute from the account", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["member", "leader", "arbiter", "admin"])))]
#[post("/evenings/{id}/check-in")]
pub async fn create_self_check_in(
    auth: Auth<Account>,
    state: web::Data<AppState>,
    path: web::Path<EveningId>,
    body: Body<SelfCheckInRequest>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let account = auth.principal.label.clone();
    state.night.take_check_in(&account)?;
    let player = auth.principal.player_id.ok_or_else(|| {
        ApiError::invalid(
            "account",
            "your account is not linked to a player; ask the arbiter to check you in",
        )
    })?;
    let tz = state.config.club_timezone.name().to_string();
    let now = chrono::Utc::now();
    let st = state.clone();
    let out = state
        .tx(move |c| {
            let arrival = svc::Arrival {
                player,
                account: &account,
                code: &b.code,
                now,
                time_zone: &tz,
                limits: &st.config.limits,
            };
            svc::check_in_self(c, &st.night.code_key, id, &arrival)
        })
        .await?;
    Ok(HttpResponse::Ok().json(out))
}
