//! Protests to the KNDB protest committee in a draughts championship
//! (docs/rules/draughts-championship.md#protests): lodged against a decision of the tournament
//! direction, the committee's ruling recorded by the leader, read per game and per
//! competition.

use crate::api::arbiter::appellant;
use crate::api::{Body, Page, PageParams, Params};
use crate::auth::{AnyRole, Arbiter, Auth, Leader};
use crate::error::{ApiResult, Problem};
use crate::ids::{ClaimId, CompetitionId, GameEventId, GameId, ProtestId};
use crate::services::arbiter::{self as svc, ProtestDecisionInput, ProtestInput, ProtestRow};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use utoipa::ToSchema;

/// A protest to the KNDB protest committee.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProtestView {
    /// Protest id.
    pub id: i64,
    /// The game.
    pub game_id: i64,
    /// The claim whose decision is protested, if any.
    #[schema(required = true)]
    pub claim_id: Option<i64>,
    /// The decision event protested, if any.
    #[schema(required = true)]
    pub event_id: Option<i64>,
    /// When the protested decision was taken (UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    pub decided_at: DateTime<Utc>,
    /// The grounds.
    pub grounds: String,
    /// Whether it was made in writing.
    pub in_writing: bool,
    /// Whether the deposit was paid.
    pub deposit_paid: bool,
    /// Who lodged it.
    pub lodged_by: String,
    /// When (UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    pub lodged_at: DateTime<Utc>,
    /// The last day (Europe/Amsterdam) on which it could be lodged; `null` when the
    /// competition sets no time limit.
    #[schema(required = true)]
    pub last_day: Option<NaiveDate>,
    /// The committee's ruling (`upheld`, `dismissed` or `inadmissible`), once recorded.
    #[schema(required = true)]
    pub ruling: Option<clubcomp_core::vocab::ProtestRuling>,
    /// The committee's reasons.
    #[schema(required = true)]
    pub ruling_reason: Option<String>,
    /// The result the committee set, if it set one.
    #[schema(required = true)]
    pub result: Option<String>,
    /// Who recorded the committee's ruling.
    #[schema(required = true)]
    pub ruled_by: Option<String>,
    /// When (UTC).
    #[serde(serialize_with = "crate::wire::utc_opt")]
    #[schema(required = true)]
    pub ruled_at: Option<DateTime<Utc>>,
}

impl From<ProtestRow> for ProtestView {
    fn from(r: ProtestRow) -> ProtestView {
        ProtestView {
            id: r.id.get(),
            game_id: r.game_id.get(),
            claim_id: r.claim_id.map(ClaimId::get),
            event_id: r.event_id.map(GameEventId::get),
            decided_at: r.decided_at.and_utc(),
            grounds: r.grounds,
            in_writing: r.in_writing,
            deposit_paid: r.deposit_paid,
            lodged_by: r.lodged_by,
            lodged_at: r.lodged_at.and_utc(),
            last_day: r.last_day,
            ruling: r.ruling,
            ruling_reason: r.ruling_reason,
            result: r.result,
            ruled_by: r.ruled_by,
            ruled_at: r.ruled_at.map(|t| t.and_utc()),
        }
    }
}

/// Lodges a protest to the KNDB protest committee against the decision on a claim in a
/// draughts championship, on the competition's terms (`params.protest`: by default no time
/// limit, form or deposit). Officials record it for a player; a member may protest a decision
/// in their own game.
#[utoipa::path(tag = "arbiter", request_body = ProtestInput,
    params(("id" = i64, Path, description = "Claim id")),
    responses((status = 201, description = "Lodged", body = ProtestView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "A member protesting another game's decision", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such claim", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The claim is not decided yet", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Not a draughts championship, too late, not in writing, no deposit, or no grounds (the rule named)", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin", "leader", "arbiter", "member", "rating_sync"])))]
#[post("/claims/{id}/protest")]
pub async fn create_claim_protest(
    a: Auth<AnyRole>,
    state: web::Data<AppState>,
    path: web::Path<ClaimId>,
    body: Body<ProtestInput>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let who = appellant(&a);
    let row = state
        .tx(move |c| svc::protest_claim(c, id, &b, &who))
        .await?;
    Ok(HttpResponse::Created().json(ProtestView::from(row)))
}

/// Lodges a protest against a decision event of a game's log (a decision on a claim, or time
/// added), on the same terms as a protest against a claim's decision.
#[utoipa::path(tag = "arbiter", request_body = ProtestInput,
    params(("id" = i64, Path, description = "Event id")),
    responses((status = 201, description = "Lodged", body = ProtestView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "A member protesting another game's decision", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such event", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Not a decision, not a draughts championship, too late, not in writing, no deposit, or no grounds (the rule named)", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin", "leader", "arbiter", "member", "rating_sync"])))]
#[post("/events/{id}/protest")]
pub async fn create_event_protest(
    a: Auth<AnyRole>,
    state: web::Data<AppState>,
    path: web::Path<GameEventId>,
    body: Body<ProtestInput>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let who = appellant(&a);
    let row = state
        .tx(move |c| svc::protest_event(c, id, &b, &who))
        .await?;
    Ok(HttpResponse::Created().json(ProtestView::from(row)))
}

/// The protests about a game, oldest first (by id), a page at a time
/// (docs/api-guide.md#paging).
#[utoipa::path(tag = "arbiter", params(("id" = i64, Path, description = "Game id"), PageParams),
    responses((status = 200, description = "One page of protests, oldest first", body = Page<ProtestView>,
            headers(("Link" = String, description = "RFC 8288 links to the first, previous, next and last pages"))),
        (status = 400, description = "A query parameter the list does not know (named)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter, leader or admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "page or per_page out of range", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[get("/games/{id}/protests")]
pub async fn list_game_protests(
    _a: Auth<Arbiter>,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<GameId>,
    q: Params<PageParams>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let paging = q.into_inner()?.paging()?;
    let (rows, total) = state
        .db(move |c| svc::protests_of(c, id, paging.limit, paging.offset))
        .await?;
    let items: Vec<ProtestView> = rows.into_iter().map(ProtestView::from).collect();
    Ok(paging.answer(&req, total, items))
}

/// The protests in a competition's games, oldest first (by id), a page at a time
/// (docs/api-guide.md#paging).
#[utoipa::path(tag = "arbiter", params(("id" = i64, Path, description = "Competition id"), PageParams),
    responses((status = 200, description = "One page of protests, oldest first", body = Page<ProtestView>,
            headers(("Link" = String, description = "RFC 8288 links to the first, previous, next and last pages"))),
        (status = 400, description = "A query parameter the list does not know (named)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter, leader or admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "page or per_page out of range", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[get("/competitions/{id}/protests")]
pub async fn list_competition_protests(
    _a: Auth<Arbiter>,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
    q: Params<PageParams>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let paging = q.into_inner()?.paging()?;
    let (rows, total) = state
        .db(move |c| svc::protests_of_competition(c, id, paging.limit, paging.offset))
        .await?;
    let items: Vec<ProtestView> = rows.into_iter().map(ProtestView::from).collect();
    Ok(paging.answer(&req, total, items))
}

/// Records the KNDB protest committee's ruling on a protest (leader or admin, for the
/// tournament direction): `upheld` sets the decision aside and, with a `result`, enters that
/// result; `dismissed` and `inadmissible` leave the decision standing. Recorded once (409
/// afterwards). Both players of the game are mailed the ruling (a `decision` notification).
#[utoipa::path(tag = "arbiter", request_body = ProtestDecisionInput,
    params(("id" = i64, Path, description = "Protest id")),
    responses((status = 200, description = "Recorded", body = ProtestView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader or admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such protest", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Already decided, or the result cannot be entered in the game's state", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid fields (a result without `upheld`, a result code of another discipline)", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[post("/protests/{id}/decision")]
pub async fn create_protest_decision(
    a: Auth<Leader>,
    state: web::Data<AppState>,
    path: web::Path<ProtestId>,
    body: Body<ProtestDecisionInput>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let actor = a.principal.label;
    let mail = state.config.mail.clone();
    let key = state.unsubscribe.clone();
    let row = state
        .tx(move |c| svc::decide_protest(c, (&mail, &key), id, &b, &actor))
        .await?;
    Ok(HttpResponse::Ok().json(ProtestView::from(row)))
}
