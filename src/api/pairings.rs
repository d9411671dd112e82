//! Pairings of a round (docs/rules/keizer.md#pairing, docs/rules/rapid-blitz.md#the-dutch-system, docs/rules/draughts-championship.md#schedule-and-tempo): generate with the competition's engine, enter or
//! change by hand (validated; a leader may override, recorded), take back before publishing.
//! Publishing is `POST …/publish` in `rounds`; the public sees pairings only once published.

use crate::api::if_match;
use crate::auth::{Auth, Leader};
use crate::error::{ApiResult, Problem};
use crate::ids::CompetitionId;
use crate::services::pairing::{self, HandPairing};
use crate::services::round_views::RoundView;
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, delete, post, put, web};

/// Query of a pairing generation.
#[derive(Debug, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GenerateQuery {
    /// Keizer only: the seed of the bye draw (0 … 2^64−1), for a draw made in public and
    /// reproducible by anyone with `clubcomp calc keizer-pairing`; without it the seed comes
    /// from the operating system. Either way it is stored in the pairing details.
    pub bye_seed: Option<u64>,
}

/// Generates the pairing of a planned round with the competition's engine (Keizer, Swiss
/// Dutch, Double-Swiss, round robin) and moves it to `paired`. A Keizer bye is drawn with a
/// seed from the OS, or with the leader's `bye_seed` (a public draw), stored with the
/// candidates in the round's pairing details. With `Prefer: return=minimal` the answer is 204
/// with the round's `Location` and `ETag`.
#[utoipa::path(tag = "pairings",
    params(("id" = i64, Path, description = "Competition id"), ("number" = i32, Path, description = "Round number"),
           ("If-Match" = Option<String>, Header, description = "The round's ETag"),
           ("Prefer" = Option<String>, Header, description = "`return=minimal`: answer 204 without the round"), GenerateQuery),
    responses((status = 201, description = "Paired", body = RoundView),
        (status = 204, description = "Paired (`Prefer: return=minimal`)",
            headers(("Location" = String, description = "The round's URL"),
                ("ETag" = String, description = "The round's ETag (`\"round-<id>-v<version>\"`)"),
                ("Preference-Applied" = String, description = "`return=minimal`"))),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such round", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not planned (already paired), or earlier rounds not completed", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "Stale If-Match", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "No pairing exists (the players are named), or nothing to pair", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[post("/competitions/{id}/rounds/{number}/pairing")]
pub async fn create_pairing(
    auth: Auth<Leader>,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(CompetitionId, i32)>,
    q: crate::api::Params<GenerateQuery>,
) -> ApiResult<HttpResponse> {
    let (id, number) = path.into_inner();
    let bye_seed = q.into_inner()?.bye_seed;
    let im = if_match(&req)?;
    let tz = state.config.club_timezone.name().to_string();
    let actor = auth.principal.label.clone();
    let view = state
        .tx(move |c| pairing::generate_and_view(c, id, number, &tz, &actor, &im, bye_seed))
        .await?;
    Ok(crate::api::rounds::round_answer(
        &req,
        HttpResponse::Created(),
        &view,
    ))
}

/// Enters a pairing by hand (planned or paired round, not after publishing). Every broken
/// rule is named (422); with `"override": true` the leader stores it anyway, and the override
/// with the broken rules is recorded in the pairing details and the audit log.
#[utoipa::path(tag = "pairings", request_body = HandPairing,
    params(("id" = i64, Path, description = "Competition id"), ("number" = i32, Path, description = "Round number"),
           ("If-Match" = Option<String>, Header, description = "The round's ETag")),
    responses((status = 200, description = "Stored", body = RoundView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such round", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Already published", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "Stale If-Match", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Broken rules, each named", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[put("/competitions/{id}/rounds/{number}/pairing")]
pub async fn replace_pairing(
    auth: Auth<Leader>,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(CompetitionId, i32)>,
    body: crate::api::Body<HandPairing>,
) -> ApiResult<HttpResponse> {
    let (id, number) = path.into_inner();
    let hand = body.into_inner()?;
    let im = if_match(&req)?;
    let tz = state.config.club_timezone.name().to_string();
    let actor = auth.principal.label.clone();
    let view = state
        .tx(move |c| pairing::replace_and_view(c, id, number, &hand, &tz, &actor, &im))
        .await?;
    Ok(HttpResponse::Ok().json(view))
}

/// Takes back the pairing of a paired (unpublished) round: its games go and the round is
/// planned again.
#[utoipa::path(tag = "pairings",
    params(("id" = i64, Path, description = "Competition id"), ("number" = i32, Path, description = "Round number"),
           ("If-Match" = Option<String>, Header, description = "The round's ETag")),
    responses((status = 200, description = "Planned again", body = RoundView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such round", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not paired, or already published", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "Stale If-Match", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[delete("/competitions/{id}/rounds/{number}/pairing")]
pub async fn delete_pairing(
    auth: Auth<Leader>,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(CompetitionId, i32)>,
) -> ApiResult<HttpResponse> {
    let (id, number) = path.into_inner();
    let im = if_match(&req)?;
    let actor = auth.principal.label.clone();
    let view = state
        .tx(move |c| pairing::remove_and_view(c, id, number, &actor, &im))
        .await?;
    Ok(HttpResponse::Ok().json(view))
}
