//! Check-in of the blitz championship (docs/rules/rapid-blitz.md#the-blitz-championship): the
//! arbiter or leader checks in members and walk-in guests until check-in closes, then closes
//! it, which fixes the number of rounds from the participants.

use crate::api::Body;
use crate::auth::{Arbiter, Auth, MaybeAuth, Role};
use crate::error::{ApiError, ApiResult, FieldError, Problem};
use crate::ids::{CompetitionId, PlayerId};
use crate::services::check_in::{self as svc, Arrival, CheckInView};
use crate::state::AppState;
use actix_web::{HttpResponse, get, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

/// A player to check in: a registered player by `player_id`, or a walk-in guest by `name`
/// (with an optional `rating`), who becomes a player without membership.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Walk-in guest", "rating": 1650}))]
pub struct CheckInRequest {
    /// A registered player (a member, or a guest of an earlier year); not with `name`.
    pub player_id: Option<i64>,
    /// A walk-in guest's name (1–200 characters, not only blanks; leading and trailing blanks
    /// are dropped); not with `player_id`.
    #[schema(min_length = 1, max_length = 200, pattern = r"\S")]
    pub name: Option<String>,
    /// The guest's rating for seeding, 0–3500 (only with `name`).
    #[schema(minimum = 0, maximum = 3500)]
    pub rating: Option<i32>,
}

fn insider(auth: &MaybeAuth) -> bool {
    auth.0
        .as_ref()
        .is_some_and(|p| p.has_any(&[Role::Leader, Role::Arbiter, Role::Admin]))
}

/// Checks a player in (arbiter or leader): a member by `player_id`, or a walk-in guest by
/// `name`, who is created as a player without membership. The player becomes an entrant.
/// Refused once check-in is closed (by the clock: the evening's closing time in the club's
/// time zone; or by the arbiter), for a player checked in already, for an inactive player, and
/// beyond the work limit on entrants.
#[utoipa::path(tag = "competitions", request_body = CheckInRequest,
    params(("id" = i64, Path, description = "Competition id")),
    responses((status = 201, description = "Checked in: the check-in with everyone checked in so far", body = CheckInView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Neither an arbiter nor a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not a blitz championship, check-in closed (the time or the closure named), or checked in already (the player named)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Neither or both of player_id and name, an unknown or inactive player, a bad name or rating, or more entrants than LIMIT_SWISS_PLAYERS (500 by default; the field or limit named)", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[post("/competitions/{id}/check-in")]
pub async fn check_in(
    auth: Auth<Arbiter>,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
    body: Body<CheckInRequest>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let arrival = match (b.player_id, b.name) {
        (Some(p), None) => {
            if b.rating.is_some() {
                return Err(ApiError::invalid(
                    "rating",
                    "a rating is given only with a guest's name; a registered player is seeded \
                     with their own rating",
                ));
            }
            Arrival::Player(PlayerId(p))
        }
        (None, Some(name)) => Arrival::Guest {
            name,
            rating: b.rating,
        },
        (Some(_), Some(_)) => {
            return Err(ApiError::validation(vec![
                FieldError::new("player_id", "give either player_id or name, not both"),
                FieldError::new("name", "give either player_id or name, not both"),
            ]));
        }
        (None, None) => {
            return Err(ApiError::validation(vec![FieldError::new(
                "player_id",
                "give a registered player's player_id, or a guest's name",
            )]));
        }
    };
    let tz = state.config.club_timezone.name().to_string();
    let limits = state.config.limits;
    let actor = auth.principal.label.clone();
    let now = chrono::Utc::now();
    let view = state
        .tx(move |c| svc::check_in_and_view(c, id, &arrival, now, &tz, &limits, &actor))
        .await?;
    Ok(HttpResponse::Created().json(view))
}

/// Who is checked in (public: names only; leaders and arbiters also see ids, guests, ratings
/// and times), when check-in closes, and once closed the number of rounds.
#[utoipa::path(tag = "competitions", params(("id" = i64, Path, description = "Competition id")),
    responses((status = 200, description = "The check-in", body = CheckInView),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not a blitz championship", body = Problem, content_type = "application/problem+json")))]
#[get("/competitions/{id}/check-in")]
pub async fn get_check_in(
    auth: MaybeAuth,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let ins = insider(&auth);
    let tz = state.config.club_timezone.name().to_string();
    let view = state.db(move |c| svc::view(c, id, &tz, ins)).await?;
    Ok(HttpResponse::Ok().json(view))
}

/// Closes the check-in (arbiter or leader): the number of rounds follows from the participants
/// by the competition's rounds rule (⌈log2 n⌉ + 2 by default, at most the evening's maximum
/// and n − 1) and becomes its planned rounds; audited. The rounds are then paired as in any
/// Swiss.
#[utoipa::path(tag = "competitions", params(("id" = i64, Path, description = "Competition id")),
    responses((status = 200, description = "Closed: the check-in with the number of rounds", body = CheckInView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Neither an arbiter nor a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not a blitz championship, closed already, or fewer than 2 participants", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[post("/competitions/{id}/check-in/close")]
pub async fn close_check_in(
    auth: Auth<Arbiter>,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let tz = state.config.club_timezone.name().to_string();
    let actor = auth.principal.label.clone();
    let view = state
        .tx(move |c| svc::close_and_view(c, id, &actor, &tz))
        .await?;
    Ok(HttpResponse::Ok().json(view))
}
