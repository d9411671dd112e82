//! The play-off for first of a Swiss competition (docs/rules/rapid-blitz.md#the-play-off-for-first):
//! the leader creates it from the final standings, results are entered with
//! `PUT /games/{id}/result`, and the arbiter decides a play-off still tied.

use crate::api::{Body, nul_refused};
use crate::auth::{Arbiter, Auth, Leader};
use crate::error::{ApiError, ApiResult, Problem};
use crate::ids::{CompetitionId, PlayerId};
use crate::services::playoff::{self as svc, FirstPlacePlayoff};
use crate::state::AppState;
use actix_web::{HttpResponse, get, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

/// The arbiter's decision of a play-off still tied.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"player_id": 12, "reason": "drawing of lots in the presence of both players"}))]
pub struct FirstPlaceDecisionInput {
    /// The player placed first: one of the candidates still tied after the play-off.
    pub player_id: i64,
    /// How the arbiter decided (1–500 characters), recorded with the decision.
    #[schema(min_length = 1, max_length = 500)]
    pub reason: String,
}

/// Creates the play-off for first (leader) when the final standings of a finished Swiss
/// competition share first place after the whole tie-break list: every candidate plays every
/// other with both colours, in Berger order, as a round numbered after the last. Results are
/// entered with `PUT /games/{id}/result`; the standings show the outcome.
#[utoipa::path(tag = "playoff", params(("id" = i64, Path, description = "Competition id")),
    responses((status = 201, description = "Created", body = FirstPlacePlayoff),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not a finished Swiss, first place not shared, or the play-off exists (the rule and the players named)", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[post("/competitions/{id}/playoff")]
pub async fn create_playoff(
    a: Auth<Leader>,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let actor = a.principal.label.clone();
    let view = state.tx(move |c| svc::create(c, id, &actor)).await?;
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/api/v1/competitions/{id}/playoff")))
        .json(view))
}

/// The play-off for first of a competition (public): candidates, games in Berger order with
/// their results, play-off points, and the outcome.
#[utoipa::path(tag = "playoff", params(("id" = i64, Path, description = "Competition id")),
    responses((status = 200, description = "The play-off", body = FirstPlacePlayoff),
        (status = 404, description = "No such competition, or it has no play-off", body = Problem, content_type = "application/problem+json")))]
#[get("/competitions/{id}/playoff")]
pub async fn get_playoff(
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let view = state.db(move |c| svc::of_competition(c, id)).await?;
    Ok(HttpResponse::Ok().json(view))
}

/// Records who is first when the play-off is still tied after all its games (arbiter): one of
/// the candidates still tied, with the reason; audited, made once.
#[utoipa::path(tag = "playoff", request_body = FirstPlaceDecisionInput,
    params(("id" = i64, Path, description = "Competition id")),
    responses((status = 200, description = "Decided", body = FirstPlacePlayoff),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter, leader or admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No play-off, games without a result, decided on points, or decided already (the rule and the players named)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The player is not among those still tied, or a bad reason", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[post("/competitions/{id}/playoff/decision")]
pub async fn create_playoff_decision(
    a: Auth<Arbiter>,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
    body: Body<FirstPlaceDecisionInput>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let reason = b.reason.trim().to_string();
    if reason.contains('\0') {
        return Err(nul_refused("reason"));
    }
    if reason.is_empty() || reason.chars().count() > 500 {
        return Err(ApiError::invalid("reason", "must be 1 to 500 characters"));
    }
    crate::services::input::checked_multi_line("reason", &reason)?;
    let actor = a.principal.label.clone();
    let view = state
        .tx(move |c| svc::decide(c, id, PlayerId(b.player_id), &reason, &actor))
        .await?;
    Ok(HttpResponse::Ok().json(view))
}
