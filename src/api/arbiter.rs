//! Arbiter tools (docs/rules/arbiter.md#appeals, docs/rules/arbiter.md#draughts-claims, docs/rules/arbiter.md#game-events): a game's event log (offers, proposals, claims,
//! decisions, time added), its recorded moves, claims checked from the moves, and appeals to
//! the board. The rules are the arbiter engines'; see `services::arbiter`.

use crate::api::{Body, Page, PageParams, Params, if_match};
use crate::auth::{Admin, AnyRole, Arbiter, Auth, Role};
use crate::error::{ApiResult, Problem};
use crate::ids::{AppealId, ClaimId, GameEventId, GameId};
use crate::services::arbiter::{
    self as svc, AppealDecisionInput, AppealInput, AppealRow, Appellant, ClaimInput, ClaimRow,
    DecisionInput, EventRow, MovesInput, MovesRow,
};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, get, post, put, web};
use chrono::{DateTime, NaiveDate, Utc};
use clubcomp_core::vocab::MoveFormat;
use clubcomp_engine::arbiter::GameEvent;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One event of a game's log.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventView {
    /// Event id (to appeal an arbiter's decision: `POST /events/{id}/appeal`).
    pub id: i64,
    /// Index in the game's log, from 0 (a decision cites its claim by this index).
    pub seq: i32,
    /// The event, e.g. `{"type": "proposal", "by": "white", "kind": "plusremise"}`.
    #[schema(value_type = Object)]
    pub event: serde_json::Value,
    /// A note by the arbiter.
    #[schema(required = true)]
    pub note: Option<String>,
    /// Who recorded it.
    pub actor: String,
    /// When it was recorded (UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    pub at: DateTime<Utc>,
}

impl From<EventRow> for EventView {
    fn from(r: EventRow) -> EventView {
        EventView {
            id: r.id.get(),
            seq: r.seq,
            event: serde_json::from_str(&r.event).unwrap_or_default(),
            note: r.note,
            actor: r.actor,
            at: r.at.and_utc(),
        }
    }
}

/// A game's log and the state it leads to.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventLogView {
    /// The events in order.
    pub events: Vec<EventView>,
    /// The state after them: player to move, moves made, the pending offer or proposal,
    /// barred proposals, claims, seconds added per side (`added_seconds`: White, Black), result.
    #[schema(value_type = Object)]
    pub state: serde_json::Value,
}

/// One event appended, and the state after it.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventAdded {
    /// The stored event.
    pub event: EventView,
    /// The state after it.
    #[schema(value_type = Object)]
    pub state: serde_json::Value,
}

/// A new event at the board.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"event": {"type": "proposal", "by": "white", "kind": "plusremise"}}))]
pub struct AddEvent {
    /// The event, by `type`: `move` {by, notation?}; `draw_offer` {by} (chess); `proposal`
    /// {by, kind: draw|plusremise|minremise} (draughts, from the proposer's standpoint);
    /// `accept` {by}; `reject` {by}; `withdraw` {by} (always refused); `claim` {by, kind:
    /// threefold_repetition|fifty_moves|draughts_repetition|draughts_twenty_five_moves|
    /// draughts_endgame_limit|illegal_move} (an illegal-move claim by the opponent of the
    /// player who moved); `decision` {claim: log index, ruling: {ruling: upheld,
    /// outcome: {outcome: draw|plusremise (side)|both_lost|win (side)}} | {ruling: rejected} |
    /// {ruling: postponed, opponent_two_minutes} | {ruling: extra_time, seconds} (an
    /// illegal-move claim: the claimant's time)}; `time_added` {to, seconds: 1–3600}.
    /// `by`/`to`/`side` are `white` or `black`.
    #[schema(value_type = Object)]
    pub event: GameEvent,
    /// A note by the arbiter (at most 500 characters).
    #[serde(default)]
    #[schema(max_length = 500)]
    pub note: Option<String>,
}

/// A game's recorded moves.
#[derive(Debug, Serialize, ToSchema)]
pub struct MovesView {
    /// The game.
    pub game_id: i64,
    /// Chess: PGN movetext, when stored as PGN.
    #[schema(required = true)]
    pub pgn: Option<String>,
    /// Chess: SAN list, when stored as a list.
    #[schema(required = true)]
    pub san: Option<Vec<String>>,
    /// Draughts: PDN movetext.
    #[schema(required = true)]
    pub pdn: Option<String>,
    /// Start position, when not the initial one.
    #[schema(required = true)]
    pub start_fen: Option<String>,
    /// Half-moves in the record.
    pub plies: i32,
    /// Version (send as `If-Match` to replace the moves).
    pub version: i64,
    /// The version as the `ETag` a write sends back in `If-Match` (the same as the header).
    pub etag: String,
    /// Who stored them last.
    pub updated_by: String,
    /// When (UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    pub updated_at: DateTime<Utc>,
}

impl From<MovesRow> for MovesView {
    fn from(r: MovesRow) -> MovesView {
        let (mut pgn, mut san, mut pdn) = (None, None, None);
        match r.format {
            MoveFormat::Pgn => pgn = Some(r.movetext),
            MoveFormat::San => san = serde_json::from_str(&r.movetext).ok(),
            MoveFormat::Pdn => pdn = Some(r.movetext),
        }
        MovesView {
            game_id: r.game_id.get(),
            pgn,
            san,
            pdn,
            start_fen: r.start_fen,
            plies: r.plies,
            version: r.version,
            etag: crate::services::version::etag("moves", r.game_id, r.version),
            updated_by: r.updated_by,
            updated_at: r.updated_at.and_utc(),
        }
    }
}

/// A claim and its verdict.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClaimView {
    /// Claim id.
    pub id: i64,
    /// The game.
    pub game_id: i64,
    /// Index of the claim event in the game's log.
    pub event_seq: i32,
    /// What was claimed (`threefold_repetition`, `quickplay_finish`, `draughts_third_time`,
    /// ...; claims recorded as plain events carry the event's claim kind).
    pub kind: clubcomp_core::vocab::ClaimKind,
    /// The claimant (`white` or `black`): the player to move; for an illegal-move claim the
    /// opponent of the player who made the move.
    #[schema(value_type = crate::services::arbiter::doc::Colour)]
    pub claimant: String,
    /// `pending`, `postponed`, `upheld` or `rejected` (the last two are final).
    pub status: clubcomp_core::vocab::ClaimStatus,
    /// Whether the service found the claim valid from the moves (absent when not checked,
    /// e.g. a quickplay-finish claim, which the arbiter judges).
    #[schema(required = true)]
    pub valid: Option<bool>,
    /// The engine's check: repetition (occurrences, `earlier` occurrences with move number,
    /// side and move, the claimed one, FEN), fifty moves, draughts claim (occurrences, quiet
    /// half-moves, material, verdict, endgame counter), or the quickplay claim as judged.
    #[schema(value_type = Option<Object>)]
    #[schema(required = true)]
    pub check: Option<serde_json::Value>,
    /// The result once upheld, e.g. `{"outcome": "draw"}` or
    /// `{"outcome": "plusremise", "side": "white"}`.
    #[schema(value_type = Option<Object>)]
    #[schema(required = true)]
    pub outcome: Option<serde_json::Value>,
    /// Seconds given to the claimant's opponent because of this claim (FIDE: 120 on a
    /// rejected chess claim, or on a postponement when the arbiter gives them).
    pub opponent_extra_seconds: i32,
    /// Who recorded the claim.
    pub created_by: String,
    /// When (UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    pub created_at: DateTime<Utc>,
    /// Who decided it last.
    #[schema(required = true)]
    pub decided_by: Option<String>,
    /// When it was decided last (the appeal window runs from a final decision).
    #[serde(serialize_with = "crate::wire::utc_opt")]
    #[schema(required = true)]
    pub decided_at: Option<DateTime<Utc>>,
}

impl From<ClaimRow> for ClaimView {
    fn from(r: ClaimRow) -> ClaimView {
        ClaimView {
            id: r.id.get(),
            game_id: r.game_id.get(),
            event_seq: r.event_seq,
            kind: r.kind,
            claimant: r.claimant,
            status: r.status,
            valid: r.valid,
            check: r.check_result.and_then(|s| serde_json::from_str(&s).ok()),
            outcome: r.outcome.and_then(|s| serde_json::from_str(&s).ok()),
            opponent_extra_seconds: r.opponent_extra_seconds,
            created_by: r.created_by,
            created_at: r.created_at.and_utc(),
            decided_by: r.decided_by,
            decided_at: r.decided_at.map(|t| t.and_utc()),
        }
    }
}

/// An appeal to the board.
#[derive(Debug, Serialize, ToSchema)]
pub struct AppealView {
    /// Appeal id.
    pub id: i64,
    /// The game.
    pub game_id: i64,
    /// The claim whose decision is appealed, if any.
    #[schema(required = true)]
    pub claim_id: Option<i64>,
    /// The decision event appealed, if any.
    #[schema(required = true)]
    pub event_id: Option<i64>,
    /// When the appealed decision was taken (UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    pub decided_at: DateTime<Utc>,
    /// The grounds.
    pub grounds: String,
    /// Who lodged it.
    pub lodged_by: String,
    /// When (UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    pub lodged_at: DateTime<Utc>,
    /// The last day (Europe/Amsterdam) on which it could be lodged.
    pub last_day: NaiveDate,
    /// The board's ruling (`upheld` or `dismissed`), once given; final.
    #[schema(required = true)]
    pub ruling: Option<clubcomp_core::vocab::AppealRuling>,
    /// The board's reasons.
    #[schema(required = true)]
    pub ruling_reason: Option<String>,
    /// Who recorded the board's ruling.
    #[schema(required = true)]
    pub ruled_by: Option<String>,
    /// When (UTC).
    #[serde(serialize_with = "crate::wire::utc_opt")]
    #[schema(required = true)]
    pub ruled_at: Option<DateTime<Utc>>,
}

impl From<AppealRow> for AppealView {
    fn from(r: AppealRow) -> AppealView {
        AppealView {
            id: r.id.get(),
            game_id: r.game_id.get(),
            claim_id: r.claim_id.map(ClaimId::get),
            event_id: r.event_id.map(GameEventId::get),
            decided_at: r.decided_at.and_utc(),
            grounds: r.grounds,
            lodged_by: r.lodged_by,
            lodged_at: r.lodged_at.and_utc(),
            last_day: r.last_day,
            ruling: r.ruling,
            ruling_reason: r.ruling_reason,
            ruled_by: r.ruled_by,
            ruled_at: r.ruled_at.map(|t| t.and_utc()),
        }
    }
}

fn state_json(s: &impl Serialize) -> serde_json::Value {
    serde_json::to_value(s).unwrap_or_default()
}

/// Records an event at the board, validated against the game's log by the events engine: a
/// broken rule is a 422 naming it, a conflict with a final state (a decided claim, a finished
/// game) a 409. Concurrent appends queue; none is lost. A game's log holds at most 4000
/// events (every half-move of the longest record with one other event beside each; 422
/// beyond); a note at most 500 characters.
#[utoipa::path(tag = "arbiter", request_body = AddEvent,
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 201, description = "Recorded", body = EventAdded),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter, leader or admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The claim is decided or the game is over", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The event breaks a rule (named)", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[post("/games/{id}/events")]
pub async fn create_game_event(
    a: Auth<Arbiter>,
    state: web::Data<AppState>,
    path: web::Path<GameId>,
    body: Body<AddEvent>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let actor = a.principal.label;
    let (row, st) = state
        .tx(move |c| svc::add_event(c, id, b.event, b.note, &actor))
        .await?;
    Ok(HttpResponse::Created().json(EventAdded {
        event: row.into(),
        state: state_json(&st),
    }))
}

/// A game's event log and the state it leads to.
#[utoipa::path(tag = "arbiter", params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "The log", body = EventLogView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter, leader or admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[get("/games/{id}/events")]
pub async fn list_game_events(
    _a: Auth<Arbiter>,
    state: web::Data<AppState>,
    path: web::Path<GameId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let (rows, st) = state.db(move |c| svc::events(c, id)).await?;
    Ok(HttpResponse::Ok().json(EventLogView {
        events: rows.into_iter().map(EventView::from).collect(),
        state: state_json(&st),
    }))
}

/// Stores (replaces) a game's moves: PGN movetext or a SAN list for chess, PDN for draughts,
/// optionally from a start FEN. Every move is checked for legality; `If-Match` guards a
/// replacement. Work limits, checked before any move is read (422 naming the field and the
/// limit): at most 2000 half-moves (1000 moves each; the longest games played have fewer than
/// 300 each), a PGN or PDN movetext of at most 131072 bytes, SAN moves of at most 16 and a
/// start FEN of at most 200 characters. How long the longest record and a claim on it hold
/// the write transaction is measured in `docs/operations.md`, "Work limits".
#[utoipa::path(tag = "arbiter", request_body = MovesInput,
    params(("id" = i64, Path, description = "Game id"),
        ("If-Match" = Option<String>, Header, description = "The moves' current ETag")),
    responses((status = 200, description = "Stored", body = MovesView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter, leader or admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "Stale If-Match", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Unreadable or illegal moves", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[put("/games/{id}/moves")]
pub async fn update_game_moves(
    a: Auth<Arbiter>,
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<GameId>,
    body: Body<MovesInput>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let im = if_match(&req)?;
    let actor = a.principal.label;
    let row = state
        .tx(move |c| svc::set_moves(c, id, &b, &im, &actor))
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header(("ETag", svc::moves_etag(&row)))
        .json(MovesView::from(row)))
}

/// A game's recorded moves.
#[utoipa::path(tag = "arbiter", params(("id" = i64, Path, description = "Game id"),
           ("If-None-Match" = Option<String>, Header, description = "ETag of a previous read")),
    responses((status = 200, description = "The moves", body = MovesView),
        (status = 304, description = "Not modified"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter, leader or admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game, or no moves recorded", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[get("/games/{id}/moves")]
pub async fn get_game_moves(
    _a: Auth<Arbiter>,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<GameId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let row = state.db(move |c| svc::recorded_moves(c, id)).await?;
    let tag = svc::moves_etag(&row);
    Ok(crate::api::versioned(&req, tag, &MovesView::from(row)))
}

/// Brings a claim to the arbiter. Repetition (FIDE 9.2; (a) with `declared_move`, (b)
/// without), fifty moves and the draughts claims (docs/rules/arbiter.md#draughts-claims) are checked from the stored moves
/// (or `moves`) and decided at once: the answer says valid or not and cites the earlier
/// occurrences. A quickplay-finish claim (FIDE 10.2) is refused (422, reason named) when the
/// claimant has 2 minutes or more, the competition does not apply the rule or the final
/// period of the game's tempo (its own, else the competition's) has an increment; otherwise
/// it waits for the arbiter's `decision` (here or later). An illegal-move claim (rapid and
/// blitz games, FIDE Laws A.4.2 and B.3; docs/rules/arbiter.md#illegal-moves-in-rapid-and-blitz)
/// names the move as made in `illegal_move` and is checked against the position after the
/// recorded moves: upheld, the claimant gets one minute for the player's first illegal move
/// and the game for the second (a draw when the claimant cannot checkmate); without moves or
/// without `illegal_move` it waits for the arbiter. At a standard tempo it is refused (422).
/// The moves sent or stored obey the limits of `PUT /games/{id}/moves` (at most 2000
/// half-moves); the claim brings the event log up to them, each move applied once, so its
/// work is linear in the record and bounded (`docs/operations.md`, "Work limits").
#[utoipa::path(tag = "arbiter", request_body = ClaimInput,
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 201, description = "Recorded with its verdict", body = ClaimView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter, leader or admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game is over", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Refused, no or illegal moves, or a rule broken (named)", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[post("/games/{id}/claims")]
pub async fn create_claim(
    a: Auth<Arbiter>,
    state: web::Data<AppState>,
    path: web::Path<GameId>,
    body: Body<ClaimInput>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let actor = a.principal.label;
    let row = state
        .tx(move |c| svc::make_claim(c, id, &b, &actor))
        .await?;
    Ok(HttpResponse::Created().json(ClaimView::from(row)))
}

/// The claims of a game with their verdicts, oldest first (by id), a page at a time
/// (docs/api-guide.md#paging).
#[utoipa::path(tag = "arbiter", params(("id" = i64, Path, description = "Game id"), PageParams),
    responses((status = 200, description = "One page of claims, oldest first", body = Page<ClaimView>,
            headers(("Link" = String, description = "RFC 8288 links to the first, previous, next and last pages"))),
        (status = 400, description = "A query parameter the list does not know (named)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter, leader or admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "page or per_page out of range", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[get("/games/{id}/claims")]
pub async fn list_claims(
    _a: Auth<Arbiter>,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<GameId>,
    q: Params<PageParams>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let paging = q.into_inner()?.paging()?;
    let (rows, total) = state
        .db(move |c| svc::claims_of(c, id, paging.limit, paging.offset))
        .await?;
    let items: Vec<ClaimView> = rows.into_iter().map(ClaimView::from).collect();
    Ok(paging.answer(&req, total, items))
}

/// The arbiter decides a pending or postponed claim: accept, postpone (quickplay finish
/// only, once; the opponent may get two minutes) or reject (chess: the opponent gets two
/// minutes, once per claim; not for an illegal-move claim). An accepted illegal-move claim
/// gives the claimant a minute for the player's first illegal move and the game for the
/// second (`outcome: draw` when the claimant cannot checkmate). A decided claim is final: 409.
#[utoipa::path(tag = "arbiter", request_body = DecisionInput,
    params(("id" = i64, Path, description = "Claim id")),
    responses((status = 200, description = "Decided", body = ClaimView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter, leader or admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such claim", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Already decided (final) or already postponed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The decision breaks a rule (named)", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[post("/claims/{id}/decision")]
pub async fn create_claim_decision(
    a: Auth<Arbiter>,
    state: web::Data<AppState>,
    path: web::Path<ClaimId>,
    body: Body<DecisionInput>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let actor = a.principal.label;
    let mail = state.config.mail.clone();
    let key = state.unsubscribe.clone();
    let row = state
        .tx(move |c| svc::decide_claim(c, (&mail, &key), id, &b, &actor))
        .await?;
    Ok(HttpResponse::Ok().json(ClaimView::from(row)))
}

pub(crate) fn appellant(a: &Auth<AnyRole>) -> Appellant {
    Appellant {
        label: a.principal.label.clone(),
        official: a
            .principal
            .has_any(&[Role::Arbiter, Role::Leader, Role::Admin]),
        player_id: a.principal.player_id,
    }
}

/// Lodges an appeal to the board against the decision on a claim (docs/rules/arbiter.md#appeals): in writing,
/// within 8 days (Europe/Amsterdam calendar days after the decision). Officials record it for
/// a player; a member may appeal a decision in their own game.
#[utoipa::path(tag = "arbiter", request_body = AppealInput,
    params(("id" = i64, Path, description = "Claim id")),
    responses((status = 201, description = "Lodged", body = AppealView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "A member appealing another game's decision", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such claim", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The claim is not decided", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Too late, not in writing, or no grounds", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin", "leader", "arbiter", "member", "rating_sync"])))]
#[post("/claims/{id}/appeal")]
pub async fn create_claim_appeal(
    a: Auth<AnyRole>,
    state: web::Data<AppState>,
    path: web::Path<ClaimId>,
    body: Body<AppealInput>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let who = appellant(&a);
    let row = state
        .tx(move |c| svc::appeal_claim(c, id, &b, &who))
        .await?;
    Ok(HttpResponse::Created().json(AppealView::from(row)))
}

/// Lodges an appeal to the board against an arbiter's decision event (a decision on a claim,
/// or time added), on the same terms as an appeal against a claim's decision.
#[utoipa::path(tag = "arbiter", request_body = AppealInput,
    params(("id" = i64, Path, description = "Event id")),
    responses((status = 201, description = "Lodged", body = AppealView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "A member appealing another game's decision", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such event", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Not a decision, too late, not in writing, or no grounds", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin", "leader", "arbiter", "member", "rating_sync"])))]
#[post("/events/{id}/appeal")]
pub async fn create_event_appeal(
    a: Auth<AnyRole>,
    state: web::Data<AppState>,
    path: web::Path<GameEventId>,
    body: Body<AppealInput>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let who = appellant(&a);
    let row = state
        .tx(move |c| svc::appeal_event(c, id, &b, &who))
        .await?;
    Ok(HttpResponse::Created().json(AppealView::from(row)))
}

/// The appeals about a game, oldest first (by id), a page at a time
/// (docs/api-guide.md#paging).
#[utoipa::path(tag = "arbiter", params(("id" = i64, Path, description = "Game id"), PageParams),
    responses((status = 200, description = "One page of appeals, oldest first", body = Page<AppealView>,
            headers(("Link" = String, description = "RFC 8288 links to the first, previous, next and last pages"))),
        (status = 400, description = "A query parameter the list does not know (named)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter, leader or admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "page or per_page out of range", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[get("/games/{id}/appeals")]
pub async fn list_appeals(
    _a: Auth<Arbiter>,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<GameId>,
    q: Params<PageParams>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let paging = q.into_inner()?.paging()?;
    let (rows, total) = state
        .db(move |c| svc::appeals_of(c, id, paging.limit, paging.offset))
        .await?;
    let items: Vec<AppealView> = rows.into_iter().map(AppealView::from).collect();
    Ok(paging.answer(&req, total, items))
}

/// The board (admin) decides an appeal: upheld or dismissed. The board decides once; its
/// decision is final (409 afterwards).
#[utoipa::path(tag = "arbiter", request_body = AppealDecisionInput,
    params(("id" = i64, Path, description = "Appeal id")),
    responses((status = 200, description = "Decided", body = AppealView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin (the board)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such appeal", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Already decided (final)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid fields", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin"])))]
#[post("/appeals/{id}/decision")]
pub async fn create_appeal_decision(
    a: Auth<Admin>,
    state: web::Data<AppState>,
    path: web::Path<AppealId>,
    body: Body<AppealDecisionInput>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let actor = a.principal.label;
    let mail = state.config.mail.clone();
    let key = state.unsubscribe.clone();
    let row = state
        .tx(move |c| svc::decide_appeal(c, (&mail, &key), id, &b, &actor))
        .await?;
    Ok(HttpResponse::Ok().json(AppealView::from(row)))
}
