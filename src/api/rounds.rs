//! Rounds (evenings) of a competition: create, read, publish, complete (docs/rules/README.md, docs/api-guide.md).
//! Pairings are public only once published.

use crate::api::Body;
use crate::auth::{Arbiter, Auth, Leader, MaybeAuth, Role};
use crate::error::{ApiError, ApiResult, Problem};
use crate::ids::{CompetitionId, EveningId};
use crate::services::round_views;
pub use crate::services::round_views::{GameView, PlayerRef, RoundView};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

/// A new round.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct CreateRound {
    /// Round number, 1–99 (default: the next one).
    #[schema(minimum = 1, maximum = 99)]
    pub number: Option<i32>,
    /// The calendar evening it is played on.
    pub evening_id: Option<i64>,
    /// Date, YYYY-MM-DD in the years 1900–2200 (default: the evening's date).
    #[schema(value_type = Option<crate::api::date::ApiDate>)]
    pub date: Option<String>,
}

fn insider(auth: &MaybeAuth) -> bool {
    auth.0
        .as_ref()
        .is_some_and(|p| p.has_any(&[Role::Leader, Role::Arbiter, Role::Admin]))
}

/// Adds a round (status `planned`). A Keizer half whose season calendar has Keizer evenings of
/// its half takes its rounds from them instead (409; docs/rules/keizer.md#rounds-from-the-calendar).
#[utoipa::path(tag = "rounds", request_body = CreateRound,
    params(("id" = i64, Path, description = "Competition id")),
    responses((status = 201, description = "Created", body = RoundView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Round number taken, or a Keizer half that takes its rounds from the calendar", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid fields", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[post("/competitions/{id}/rounds")]
pub async fn create_round(
    _a: Auth<Leader>,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
    body: Body<CreateRound>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let date = match &b.date {
        Some(d) => Some(crate::api::date::parse("date", d)?),
        None => None,
    };
    if b.number.is_some_and(|n| !(1..=99).contains(&n)) {
        return Err(ApiError::invalid("number", "must be from 1 to 99"));
    }
    let view = state
        .tx(move |c| {
            round_views::create_round_and_view(c, id, b.number, b.evening_id.map(EveningId), date)
        })
        .await?;
    Ok(HttpResponse::Created().json(view))
}

/// The rounds of a competition (public; games only once published). Served from the read
/// cache; `ETag` from the competition's cache stamp, `If-None-Match` → 304.
#[utoipa::path(tag = "rounds", params(("id" = i64, Path, description = "Competition id"),
           ("If-None-Match" = Option<String>, Header, description = "ETag of a previous read")),
    responses((status = 200, description = "Rounds", body = Vec<RoundView>),
        (status = 304, description = "Not modified"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json")))]
#[get("/competitions/{id}/rounds")]
pub async fn list_rounds(
    auth: MaybeAuth,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let ins = insider(&auth);
    // from the read cache while the competition's version is unchanged (every write to its
    // rounds, games and players bumps it); leaders and arbiters see unpublished pairings too
    let key = crate::cache::Key {
        competition: id.get(),
        doc: if ins {
            "rounds-insider"
        } else {
            "rounds-public"
        },
        arg: None,
    };
    crate::cached::serve_cached(&state, &req, key, move |c, _, _| {
        let out = round_views::of_competition(c, id, ins)?;
        let body = serde_json::to_vec(&out).map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok((body, None))
    })
    .await
}

/// One round with its games (public once published; leaders and arbiters always). Served
/// from the read cache; its `ETag` (`"round-<id>-v<version>…"`) is also the `If-Match` of the
/// pairing writes; `If-None-Match` → 304.
#[utoipa::path(tag = "rounds",
    params(("id" = i64, Path, description = "Competition id"), ("number" = i32, Path, description = "Round number"),
           ("If-None-Match" = Option<String>, Header, description = "ETag of a previous read")),
    responses((status = 200, description = "The round", body = RoundView),
        (status = 304, description = "Not modified"),
        (status = 404, description = "No such round", body = Problem, content_type = "application/problem+json")))]
#[get("/competitions/{id}/rounds/{number}")]
pub async fn get_round(
    auth: MaybeAuth,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(CompetitionId, i32)>,
) -> ApiResult<HttpResponse> {
    let (id, number) = path.into_inner();
    let ins = insider(&auth);
    // the published pairing from the read cache (see `list_rounds`)
    let key = crate::cache::Key {
        competition: id.get(),
        doc: if ins { "round-insider" } else { "round-public" },
        arg: Some(i64::from(number)),
    };
    crate::cached::serve_cached(&state, &req, key, move |c, _, v| {
        let view = round_views::one(c, id, number, ins)?;
        // `"round-<id>-v<version>…"`: the If-Match of the pairing writes names the round's
        // version; the competition's stamp makes it change with every write that shows
        let tag = format!(
            "\"round-{}-v{}-s{}-{}\"",
            view.id,
            view.version,
            v.stamp,
            u8::from(ins)
        );
        let body = serde_json::to_vec(&view).map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok((body, Some(tag)))
    })
    .await
}

/// Publishes a paired round: its pairings become public.
#[utoipa::path(tag = "rounds",
    params(("id" = i64, Path, description = "Competition id"), ("number" = i32, Path, description = "Round number")),
    responses((status = 200, description = "Published", body = RoundView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such round", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not paired", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[post("/competitions/{id}/rounds/{number}/publish")]
pub async fn publish_round(
    _a: Auth<Leader>,
    state: web::Data<AppState>,
    path: web::Path<(CompetitionId, i32)>,
) -> ApiResult<HttpResponse> {
    let (id, number) = path.into_inner();
    let mail = state.config.mail.clone();
    let key = state.unsubscribe.clone();
    let view = state
        .tx(move |c| round_views::publish_round_and_view(c, (&mail, &key), id, number))
        .await?;
    Ok(HttpResponse::Ok().json(view))
}

/// Completes a published round once every game has a result.
#[utoipa::path(tag = "rounds",
    params(("id" = i64, Path, description = "Competition id"), ("number" = i32, Path, description = "Round number")),
    responses((status = 200, description = "Completed", body = RoundView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter or leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such round", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not published, or results missing", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[post("/competitions/{id}/rounds/{number}/complete")]
pub async fn complete_round(
    _a: Auth<Arbiter>,
    state: web::Data<AppState>,
    path: web::Path<(CompetitionId, i32)>,
) -> ApiResult<HttpResponse> {
    let (id, number) = path.into_inner();
    let view = state
        .tx(move |c| round_views::complete_round_and_view(c, id, number))
        .await?;
    Ok(HttpResponse::Ok().json(view))
}
