//! Results and their audit trail (docs/rules/README.md#results, docs/rules/draughts-championship.md#scoring-2-1-0-plusremise-and-minremise, docs/rules/arbiter.md#results-and-corrections): entering and correcting a game's result
//! with `If-Match`, and reading who changed what, when and why.

use crate::api::{Body, Page, PageParams, etag, if_match};
use crate::auth::{Arbiter, Auth};
use crate::error::{ApiResult, Problem};
use crate::ids::{CompetitionId, GameId};
use crate::services::results::AuditEntry;
use crate::services::results::{self, ResultInput};
use crate::services::round_views::{self, ResultView};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, get, put, web};
use serde::Serialize;
use utoipa::ToSchema;

/// One audit entry.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditView {
    /// Entry id.
    pub id: i64,
    /// What was changed (`game`, `round`, `entrant`, `competition`, `evening`, `appeal` or
    /// `player`).
    pub entity: clubcomp_core::vocab::AuditEntity,
    /// Its id.
    pub entity_id: i64,
    /// `result_entered`, `result_corrected`, `time_control_set` (a game's own tempo), or an
    /// arbiter's action (`moves_set`, `claim`, …).
    pub action: String,
    /// Who (e-mail or service label).
    pub actor: String,
    /// When (UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    pub at: chrono::DateTime<chrono::Utc>,
    /// The value before (absent for a first entry). Always an object: a stored value that is
    /// not one (e.g. an arbiter's move list) is shown as `{"value": …}`.
    #[schema(value_type = Option<Object>)]
    #[schema(required = true)]
    pub old_value: Option<serde_json::Value>,
    /// The value after (an object, as `old_value`).
    #[schema(value_type = Option<Object>)]
    #[schema(required = true)]
    pub new_value: Option<serde_json::Value>,
    /// The reason given.
    #[schema(required = true)]
    pub reason: Option<String>,
}

fn audit_view(a: AuditEntry) -> AuditView {
    let parse = |s: Option<String>| {
        s.and_then(|s| serde_json::from_str::<serde_json::Value>(&s).ok())
            .map(|v| match v {
                serde_json::Value::Object(_) => v,
                other => serde_json::json!({ "value": other }),
            })
    };
    AuditView {
        id: a.id,
        entity: a.entity,
        entity_id: a.entity_id,
        action: a.action,
        actor: a.actor,
        at: a.at.and_utc(),
        old_value: parse(a.old_value),
        new_value: parse(a.new_value),
        reason: a.reason,
    }
}

/// Enters or corrects a game's result. Allowed while the round is paired, published or
/// completed; a correction of a completed round needs a `reason`, and the standings replay.
/// `If-Match` (the game's ETag `"game-{id}-v{version}"`) is checked when sent; without it the
/// write goes through (last writer wins). Every change is audited.
#[utoipa::path(tag = "results", request_body = ResultInput,
    params(("id" = i64, Path, description = "Game id"),
           ("If-Match" = Option<String>, Header, description = "The game's ETag; optional, 412 when stale")),
    responses((status = 200, description = "Stored", body = ResultView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter or leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The round is not paired yet, or a playoff correction conflicts with later games", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "Stale If-Match", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Unknown result code, missing move count or reason", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[put("/games/{id}/result")]
pub async fn put_game_result(
    a: Auth<Arbiter>,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<GameId>,
    body: Body<ResultInput>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let im = if_match(&req)?;
    let actor = a.principal.label.clone();
    let mail = state.config.mail.clone();
    let key = state.unsubscribe.clone();
    let view = state
        .tx(move |c| round_views::enter_result_and_view(c, (&mail, &key), id, &im, &b, &actor))
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header(("ETag", etag("game", view.game.id, view.game.version)))
        .json(view))
}

/// The audit trail of one game's result, oldest first (by id), a page at a time (leaders and
/// arbiters).
#[utoipa::path(tag = "results", params(("id" = i64, Path, description = "Game id"), PageParams),
    responses((status = 200, description = "Audit entries, by id", body = Page<AuditView>,
            headers(("Link" = String, description = "RFC 8288 links to the first, previous, next and last pages"))),
        (status = 400, description = "Bad query", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter or leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Bad paging", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[get("/games/{id}/audit")]
pub async fn get_game_audit(
    _a: Auth<Arbiter>,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<GameId>,
    q: crate::api::Params<PageParams>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let paging = q.into_inner()?.paging()?;
    let (rows, total) = state
        .db(move |c| results::game_audit(c, id, paging.limit, paging.offset))
        .await?;
    let items: Vec<AuditView> = rows.into_iter().map(audit_view).collect();
    Ok(paging.answer(&req, total, items))
}

/// The audit trail of every result, setting and withdrawal of a competition, oldest first (by
/// id), a page at a time (leaders and arbiters).
#[utoipa::path(tag = "results", params(("id" = i64, Path, description = "Competition id"), PageParams),
    responses((status = 200, description = "Audit entries, by id", body = Page<AuditView>,
            headers(("Link" = String, description = "RFC 8288 links to the first, previous, next and last pages"))),
        (status = 400, description = "Bad query", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter or leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Bad paging", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[get("/competitions/{id}/audit")]
pub async fn get_competition_audit(
    _a: Auth<Arbiter>,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
    q: crate::api::Params<PageParams>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let paging = q.into_inner()?.paging()?;
    let (rows, total) = state
        .db(move |c| results::competition_audit(c, id, paging.limit, paging.offset))
        .await?;
    let items: Vec<AuditView> = rows.into_iter().map(audit_view).collect();
    Ok(paging.answer(&req, total, items))
}
