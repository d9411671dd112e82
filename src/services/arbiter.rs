//! Arbiter tools (SPEC §8, §10, §11): the per-game event log, the recorded moves, claims
//! checked from the moves, and appeals to the board. Every rule is the arbiter engines'
//! (`crate::domain::arbiter`); this module loads, calls them, stores — in the caller's one
//! transaction. Writes to one game are serialised by taking the game's lock row first
//! ([`lock_game`]), so concurrent appends to a log never lose an event.

use crate::db::DbConn;
use crate::db::models::competition::{Competition, Game, NewAuditEntry, audit, bump_stamp};
use crate::db::schema::{appeals, claims, competitions, game_events, game_moves, games, rounds};
use crate::domain::arbiter::draughts::{
    self, DraughtsClaim, DraughtsClaimRequest, DraughtsVerdict,
};
use crate::domain::arbiter::events::{ClaimRecord, ClaimStatus};
use crate::domain::arbiter::quickplay::{self, Increment, Period};
use crate::domain::arbiter::repetition::read_record;
use crate::domain::arbiter::{
    self as engine, ChessMoves, ClaimKind, FiftyMovesClaim, GameEvent, GameKind, GameState,
    Outcome, QuickplayClaim, QuickplayDecision, QuickplayState, RepetitionClaim, RuleViolation,
    Ruling, Side,
};
use crate::error::{ApiError, ApiResult, FieldError};
use crate::services::competitions::{TimeControl, default_rules};
use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

// ---------------------------------------------------------------------------------------
// rows

/// One stored event of a game's log.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = game_events, check_for_backend(crate::db::MultiBackend))]
pub struct EventRow {
    pub id: i64,
    pub game_id: i64,
    pub seq: i32,
    pub event: String,
    pub note: Option<String>,
    pub actor: String,
    pub at: NaiveDateTime,
}

/// The recorded moves of a game.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = game_moves, check_for_backend(crate::db::MultiBackend))]
pub struct MovesRow {
    pub game_id: i64,
    pub format: String,
    pub movetext: String,
    pub start_fen: Option<String>,
    pub plies: i32,
    pub version: i64,
    pub updated_by: String,
    pub updated_at: NaiveDateTime,
}

/// A claim with its checked verdict and where it stands.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = claims, check_for_backend(crate::db::MultiBackend))]
pub struct ClaimRow {
    pub id: i64,
    pub game_id: i64,
    pub event_seq: i32,
    pub kind: String,
    pub claimant: String,
    pub status: String,
    pub valid: Option<bool>,
    pub check_result: Option<String>,
    pub outcome: Option<String>,
    pub opponent_extra_seconds: i32,
    pub created_by: String,
    pub created_at: NaiveDateTime,
    pub decided_by: Option<String>,
    pub decided_at: Option<NaiveDateTime>,
}

/// An appeal to the board.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = appeals, check_for_backend(crate::db::MultiBackend))]
pub struct AppealRow {
    pub id: i64,
    pub game_id: i64,
    pub claim_id: Option<i64>,
    pub event_id: Option<i64>,
    pub decided_at: NaiveDateTime,
    pub grounds: String,
    pub lodged_by: String,
    pub lodged_at: NaiveDateTime,
    pub last_day: NaiveDate,
    pub ruling: Option<String>,
    pub ruling_reason: Option<String>,
    pub ruled_by: Option<String>,
    pub ruled_at: Option<NaiveDateTime>,
}

// ---------------------------------------------------------------------------------------
// inputs

/// A player's colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    /// White.
    White,
    /// Black.
    Black,
}

impl From<Colour> for Side {
    fn from(c: Colour) -> Side {
        match c {
            Colour::White => Side::White,
            Colour::Black => Side::Black,
        }
    }
}

/// The moves of a game: `pgn` or `san` for chess, `pdn` for draughts; exactly one.
#[derive(Debug, Clone, Default, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"san": ["Nf3", "Nf6", "Ng1", "Ng8"]}))]
pub struct MovesInput {
    /// Chess: PGN movetext (tag pairs, comments, variations and the result are skipped).
    #[serde(default)]
    pub pgn: Option<String>,
    /// Chess: the moves as a list of SAN strings.
    #[serde(default)]
    pub san: Option<Vec<String>>,
    /// Draughts: PDN movetext (`32-28 19-23 28x19 ...`).
    #[serde(default)]
    pub pdn: Option<String>,
    /// Start position (FEN for chess, PDN FEN for draughts); the initial position if absent.
    #[serde(default)]
    pub start_fen: Option<String>,
}

/// What is claimed (SPEC §10, §11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ClaimType {
    /// Chess, FIDE 9.2: threefold repetition; (a) with `declared_move`, (b) without.
    ThreefoldRepetition,
    /// Chess, FIDE 9.3: fifty moves without pawn move or capture.
    FiftyMoves,
    /// Chess, FIDE 10.2: quickplay finish (needs `claimant` and `remaining_ms`).
    QuickplayFinish,
    /// Draughts: the same position with the claimant to move for the third time.
    DraughtsThirdTime,
    /// Draughts: the claimant can make, by a legal move, a position that arose twice before
    /// by his own moves (`declared_move` optional).
    DraughtsCanRepeat,
    /// Draughts: 25 moves each without a capture or a man's move.
    DraughtsTwentyFiveMoves,
    /// Draughts: the 16-move or 5-move endgame limit reached.
    DraughtsEndgameLimit,
}

impl ClaimType {
    fn event_kind(self) -> ClaimKind {
        match self {
            ClaimType::ThreefoldRepetition => ClaimKind::ThreefoldRepetition,
            ClaimType::FiftyMoves => ClaimKind::FiftyMoves,
            ClaimType::QuickplayFinish => ClaimKind::QuickplayFinish,
            ClaimType::DraughtsThirdTime | ClaimType::DraughtsCanRepeat => {
                ClaimKind::DraughtsRepetition
            }
            ClaimType::DraughtsTwentyFiveMoves => ClaimKind::DraughtsTwentyFiveMoves,
            ClaimType::DraughtsEndgameLimit => ClaimKind::DraughtsEndgameLimit,
        }
    }

    fn game(self) -> GameKind {
        match self {
            ClaimType::ThreefoldRepetition | ClaimType::FiftyMoves | ClaimType::QuickplayFinish => {
                GameKind::Chess
            }
            _ => GameKind::Draughts,
        }
    }
}

/// The arbiter's decision on a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DecisionKind {
    /// The claim is upheld (chess: a draw).
    Accept,
    /// Quickplay finish only: decided later in the game or after a flag fall.
    Postpone,
    /// The claim is rejected (chess: the opponent gets two extra minutes).
    Reject,
}

/// A result an upheld claim gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeInput {
    /// A draw (chess ½-½, draughts 1-1).
    Draw,
    /// Draughts: plusremise for White, minremise for Black.
    PlusremiseWhite,
    /// Draughts: plusremise for Black, minremise for White.
    PlusremiseBlack,
}

impl From<OutcomeInput> for Outcome {
    fn from(o: OutcomeInput) -> Outcome {
        match o {
            OutcomeInput::Draw => Outcome::Draw,
            OutcomeInput::PlusremiseWhite => Outcome::Plusremise { side: Side::White },
            OutcomeInput::PlusremiseBlack => Outcome::Plusremise { side: Side::Black },
        }
    }
}

/// A decision on a claim.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"decision": "postpone", "opponent_two_minutes": true}))]
pub struct DecisionInput {
    /// Accept, postpone (quickplay finish only) or reject.
    pub decision: DecisionKind,
    /// Postpone: whether the opponent gets two extra minutes now (default false).
    #[serde(default)]
    pub opponent_two_minutes: bool,
    /// Accept: the result (default: the checked verdict, else a draw).
    #[serde(default)]
    pub outcome: Option<OutcomeInput>,
    /// A note kept with the decision event.
    #[serde(default)]
    pub note: Option<String>,
}

/// A claim brought to the arbiter.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"kind": "threefold_repetition", "declared_move": "Ng8"}))]
pub struct ClaimInput {
    /// What is claimed.
    pub kind: ClaimType,
    /// Claim (a): the move the claimant writes down and declares (SAN or PDN); absent for
    /// claim (b), the position now on the board with the claimant to move.
    #[serde(default)]
    pub declared_move: Option<String>,
    /// The moves up to the claim; the game's stored moves when absent.
    #[serde(default)]
    pub moves: Option<MovesInput>,
    /// Quickplay finish: the claimant (default: the player to move in the stored moves).
    #[serde(default)]
    pub claimant: Option<Colour>,
    /// Quickplay finish: the claimant's time left in milliseconds.
    #[serde(default)]
    pub remaining_ms: Option<u64>,
    /// Quickplay finish: the claimant's current move number (default: from the stored moves
    /// or the event log).
    #[serde(default)]
    pub move_number: Option<u32>,
    /// Quickplay finish: the arbiter's decision, when taken at once.
    #[serde(default)]
    pub decision: Option<DecisionInput>,
    /// A note kept with the claim event.
    #[serde(default)]
    pub note: Option<String>,
}

/// An appeal to the board (SPEC §8).
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AppealInput {
    /// The grounds, as written by the appellant.
    pub grounds: String,
    /// Whether the appeal was made in writing (SPEC §8: required; default true).
    #[serde(default = "yes")]
    pub in_writing: bool,
}

fn yes() -> bool {
    true
}

/// The board's ruling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RulingInput {
    /// Upheld: the arbiter's decision is set aside.
    Upheld,
    /// Dismissed: the arbiter's decision stands.
    Dismissed,
}

/// The board's decision on an appeal.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AppealDecisionInput {
    /// Upheld or dismissed.
    pub ruling: RulingInput,
    /// The board's reasons.
    #[serde(default)]
    pub reason: Option<String>,
}

// ---------------------------------------------------------------------------------------
// loading and locking

/// A game with its competition and the game kind of its discipline.
#[derive(Debug, Clone)]
pub struct GameCtx {
    /// The game.
    pub game: Game,
    /// Its competition.
    pub competition: Competition,
    /// Chess or draughts (from the competition's discipline).
    pub kind: GameKind,
}

/// Loads a game and its competition, or 404.
pub fn load_game(c: &mut DbConn, id: i64) -> ApiResult<GameCtx> {
    let game: Game = games::table
        .find(id)
        .select(Game::as_select())
        .first(c)
        .optional()?
        .ok_or_else(|| ApiError::NotFound(format!("no game {id}")))?;
    let competition: Competition = rounds::table
        .inner_join(competitions::table)
        .filter(rounds::id.eq(game.round_id))
        .select(Competition::as_select())
        .first(c)?;
    let kind = match competition.discipline.as_str() {
        "draughts" => GameKind::Draughts,
        _ => GameKind::Chess,
    };
    Ok(GameCtx {
        game,
        competition,
        kind,
    })
}

/// Takes the game's write lock: the first statement of every write to a game's arbiter data,
/// so concurrent writers queue (a row lock on Postgres, the write lock on SQLite) and each
/// sees the log as the previous one left it.
pub fn lock_game(c: &mut DbConn, id: i64) -> ApiResult<()> {
    bump_stamp(c, &format!("game-arbiter:{id}"))?;
    Ok(())
}

fn internal(what: &str, e: impl std::fmt::Display) -> ApiError {
    ApiError::Internal(format!("{what}: {e}"))
}

/// The stored log of a game, in order.
pub fn event_rows(c: &mut DbConn, game: i64) -> ApiResult<Vec<EventRow>> {
    Ok(game_events::table
        .filter(game_events::game_id.eq(game))
        .order(game_events::seq)
        .select(EventRow::as_select())
        .load(c)?)
}

fn parse_log(rows: &[EventRow]) -> ApiResult<Vec<GameEvent>> {
    rows.iter()
        .map(|r| serde_json::from_str(&r.event).map_err(|e| internal("stored event", e)))
        .collect()
}

/// The stored log replayed: rows and the game state after them.
pub fn events(c: &mut DbConn, game: i64) -> ApiResult<(Vec<EventRow>, GameState)> {
    let ctx = load_game(c, game)?;
    let rows = event_rows(c, game)?;
    let log = parse_log(&rows)?;
    let state = engine::replay(ctx.kind, &log).map_err(violation)?;
    Ok((rows, state))
}

/// An event that breaks a rule of play → 422 naming the rule; a conflict with a state that
/// can no longer change (a final decision, a finished game) → 409.
pub fn violation(v: RuleViolation) -> ApiError {
    let name = variant_name(&v.rule);
    let msg = format!("rule {name}: {}", v.rule);
    if v.rule.is_conflict() {
        ApiError::Conflict(format!("event {} breaks {msg}", v.event))
    } else {
        ApiError::Validation {
            detail: format!("event {} breaks {msg}", v.event),
            errors: vec![FieldError::new("event", msg)],
        }
    }
}

/// A game's log being extended inside one transaction.
struct Log {
    kind: GameKind,
    game: i64,
    events: Vec<GameEvent>,
    state: GameState,
    actor: String,
    at: NaiveDateTime,
}

impl Log {
    fn open(c: &mut DbConn, ctx: &GameCtx, actor: &str) -> ApiResult<Log> {
        let rows = event_rows(c, ctx.game.id)?;
        let events = parse_log(&rows)?;
        let state = engine::replay(ctx.kind, &events).map_err(violation)?;
        Ok(Log {
            kind: ctx.kind,
            game: ctx.game.id,
            events,
            state,
            actor: actor.to_string(),
            at: crate::db::now_utc(),
        })
    }

    /// Validates `event` with the events engine and stores it; its log index.
    fn append(
        &mut self,
        c: &mut DbConn,
        event: GameEvent,
        note: Option<String>,
    ) -> ApiResult<EventRow> {
        let state = engine::apply(self.kind, &self.events, &event).map_err(violation)?;
        let seq = self.events.len() as i32;
        let row = diesel::insert_into(game_events::table)
            .values((
                game_events::game_id.eq(self.game),
                game_events::seq.eq(seq),
                game_events::event
                    .eq(serde_json::to_string(&event).map_err(|e| internal("event", e))?),
                game_events::note.eq(note),
                game_events::actor.eq(&self.actor),
                game_events::at.eq(self.at),
            ))
            .returning(game_events::all_columns)
            .get_result::<EventRow>(c)?;
        self.events.push(event);
        self.state = state;
        Ok(row)
    }

    /// Brings the log's moves up to `plies` half-moves of the record (with their notation
    /// when known), so a claim is judged against the same game the record shows.
    fn sync_moves(
        &mut self,
        c: &mut DbConn,
        plies: usize,
        notation: impl Fn(usize) -> Option<String>,
    ) -> ApiResult<()> {
        let have = (self.state.moves[0] + self.state.moves[1]) as usize;
        if have > plies {
            return Err(ApiError::invalid(
                "moves",
                format!(
                    "the event log already has {have} moves, the record only {plies}: record \
                     the moves first"
                ),
            ));
        }
        for ply in have..plies {
            let by = self.state.to_move;
            self.append(
                c,
                GameEvent::Move {
                    by,
                    notation: notation(ply),
                },
                None,
            )?;
        }
        Ok(())
    }

    fn claim_record(&self, seq: i32) -> Option<&ClaimRecord> {
        self.state.claims.iter().find(|r| r.event as i32 == seq)
    }
}

fn audit_game(
    c: &mut DbConn,
    game: i64,
    action: &str,
    actor: &str,
    value: &impl Serialize,
) -> ApiResult<()> {
    audit(
        c,
        &NewAuditEntry {
            entity: "game".into(),
            entity_id: game,
            action: action.into(),
            actor: actor.into(),
            at: crate::db::now_utc(),
            old_value: None,
            new_value: serde_json::to_string(value).ok(),
            reason: None,
        },
    )?;
    Ok(())
}

fn json<T: Serialize>(v: &T) -> ApiResult<String> {
    serde_json::to_string(v).map_err(|e| internal("json", e))
}

fn side_str(s: Side) -> &'static str {
    match s {
        Side::White => "white",
        Side::Black => "black",
    }
}

fn status_str(s: ClaimStatus) -> &'static str {
    match s {
        ClaimStatus::Pending => "pending",
        ClaimStatus::Postponed => "postponed",
        ClaimStatus::Upheld => "upheld",
        ClaimStatus::Rejected => "rejected",
    }
}

/// The snake_case name of an engine error's variant (internally tagged with `rule` or
/// `refusal`, or externally tagged), to name the rule in a problem document.
fn variant_name<T: Serialize>(v: &T) -> String {
    let raw = match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(serde_json::Value::Object(m)) => ["rule", "refusal"]
            .iter()
            .find_map(|t| m.get(*t).and_then(|x| x.as_str()).map(str::to_string))
            .or_else(|| m.keys().next().cloned())
            .unwrap_or_default(),
        _ => String::new(),
    };
    let mut out = String::new();
    for (i, ch) in raw.chars().enumerate() {
        if ch.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

fn kind_str<T: Serialize>(k: &T) -> String {
    serde_json::to_value(k)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Writes the log's view of a claim (status, extra time, result) onto its row.
fn sync_claim_row(c: &mut DbConn, log: &Log, seq: i32) -> ApiResult<()> {
    let Some(rec) = log.claim_record(seq) else {
        return Ok(());
    };
    let status = status_str(rec.status);
    let outcome = match rec.status {
        ClaimStatus::Upheld => log.state.result.map(|o| json(&o)).transpose()?,
        _ => None,
    };
    let decided = rec.status != ClaimStatus::Pending;
    diesel::update(
        claims::table
            .filter(claims::game_id.eq(log.game))
            .filter(claims::event_seq.eq(seq))
            .filter(claims::status.ne(status)),
    )
    .set((
        claims::status.eq(status),
        claims::outcome.eq(outcome),
        claims::opponent_extra_seconds.eq(rec.opponent_extra_seconds as i32),
        claims::decided_by.eq(decided.then(|| log.actor.clone())),
        claims::decided_at.eq(decided.then_some(log.at)),
    ))
    .execute(c)?;
    Ok(())
}

fn insert_claim(
    c: &mut DbConn,
    log: &Log,
    seq: i32,
    kind: &str,
    claimant: Side,
    valid: Option<bool>,
    check: Option<String>,
) -> ApiResult<()> {
    diesel::insert_into(claims::table)
        .values((
            claims::game_id.eq(log.game),
            claims::event_seq.eq(seq),
            claims::kind.eq(kind),
            claims::claimant.eq(side_str(claimant)),
            claims::status.eq("pending"),
            claims::valid.eq(valid),
            claims::check_result.eq(check),
            claims::opponent_extra_seconds.eq(0),
            claims::created_by.eq(&log.actor),
            claims::created_at.eq(log.at),
        ))
        .execute(c)?;
    Ok(())
}

// ---------------------------------------------------------------------------------------
// events

/// Appends one event to a game's log (validated by the events engine against the stored
/// log). A claim event also opens a claim row (unchecked); a decision event updates it.
pub fn add_event(
    c: &mut DbConn,
    game: i64,
    event: GameEvent,
    note: Option<String>,
    actor: &str,
) -> ApiResult<(EventRow, GameState)> {
    lock_game(c, game)?;
    let ctx = load_game(c, game)?;
    if let GameEvent::Claim {
        kind: ClaimKind::QuickplayFinish,
        ..
    } = event
    {
        return Err(ApiError::invalid(
            "event",
            "a quickplay-finish claim is made through POST /games/{id}/claims: it needs the \
             claimant's time and the competition's rules",
        ));
    }
    let mut log = Log::open(c, &ctx, actor)?;
    let row = log.append(c, event.clone(), note)?;
    match event {
        GameEvent::Claim { by, kind } => {
            insert_claim(c, &log, row.seq, &kind_str(&kind), by, None, None)?
        }
        GameEvent::Decision { claim, .. } => sync_claim_row(c, &log, claim as i32)?,
        _ => {}
    }
    audit_game(c, game, "event_added", actor, &event)?;
    Ok((row, log.state))
}

// ---------------------------------------------------------------------------------------
// moves

/// A game record read from stored or given moves.
enum Record {
    Chess {
        moves: ChessMoves,
        start_fen: Option<String>,
    },
    Draughts {
        movetext: String,
        start_fen: Option<String>,
    },
}

fn record_of(kind: GameKind, m: &MovesInput) -> ApiResult<Record> {
    let given = [m.pgn.is_some(), m.san.is_some(), m.pdn.is_some()]
        .iter()
        .filter(|b| **b)
        .count();
    if given != 1 {
        return Err(ApiError::invalid(
            "moves",
            "give exactly one of pgn, san (chess) or pdn (draughts)",
        ));
    }
    let start_fen = m.start_fen.clone().filter(|f| !f.trim().is_empty());
    match (kind, m) {
        (GameKind::Chess, MovesInput { pgn: Some(p), .. }) => Ok(Record::Chess {
            moves: ChessMoves::Pgn(p.clone()),
            start_fen,
        }),
        (GameKind::Chess, MovesInput { san: Some(s), .. }) => Ok(Record::Chess {
            moves: ChessMoves::San(s.clone()),
            start_fen,
        }),
        (GameKind::Draughts, MovesInput { pdn: Some(p), .. }) => Ok(Record::Draughts {
            movetext: p.clone(),
            start_fen,
        }),
        (GameKind::Chess, _) => Err(ApiError::invalid(
            "pdn",
            "a chess game's moves are given as pgn or san",
        )),
        (GameKind::Draughts, _) => Err(ApiError::invalid(
            "pdn",
            "a draughts game's moves are given as pdn",
        )),
    }
}

/// Reads a record through the engines: its half-moves with their notation, or 422.
fn read_plies(r: &Record) -> ApiResult<Vec<String>> {
    match r {
        Record::Chess { moves, start_fen } => read_record(moves, start_fen.as_deref())
            .map(|rec| rec.refs.into_iter().map(|m| m.notation).collect())
            .map_err(|e| ApiError::invalid("moves", e.to_string())),
        Record::Draughts {
            movetext,
            start_fen,
        } => draughts::read_game(start_fen.as_deref(), movetext)
            .map(|g| g.moves.iter().map(|m| m.notation()).collect())
            .map_err(|e| ApiError::invalid("moves", e.to_string())),
    }
}

fn stored_record(row: &MovesRow) -> ApiResult<Record> {
    let start_fen = row.start_fen.clone();
    Ok(match row.format.as_str() {
        "pgn" => Record::Chess {
            moves: ChessMoves::Pgn(row.movetext.clone()),
            start_fen,
        },
        "san" => Record::Chess {
            moves: ChessMoves::San(
                serde_json::from_str(&row.movetext).map_err(|e| internal("stored moves", e))?,
            ),
            start_fen,
        },
        _ => Record::Draughts {
            movetext: row.movetext.clone(),
            start_fen,
        },
    })
}

/// The stored moves of a game, if any.
pub fn moves_of(c: &mut DbConn, game: i64) -> ApiResult<Option<MovesRow>> {
    Ok(game_moves::table
        .find(game)
        .select(MovesRow::as_select())
        .first(c)
        .optional()?)
}

/// The ETag of a game's stored moves.
pub fn moves_etag(row: &MovesRow) -> String {
    crate::api::etag("moves", row.game_id, row.version)
}

/// Stores (replaces) a game's moves after reading them through the engines.
pub fn set_moves(
    c: &mut DbConn,
    game: i64,
    input: &MovesInput,
    if_match: Option<&str>,
    actor: &str,
) -> ApiResult<MovesRow> {
    lock_game(c, game)?;
    let ctx = load_game(c, game)?;
    let record = record_of(ctx.kind, input)?;
    let plies = read_plies(&record)?.len() as i32;
    let (format, text) = match (&input.pgn, &input.san, &input.pdn) {
        (Some(p), _, _) => ("pgn", p.clone()),
        (_, Some(s), _) => ("san", json(s)?),
        (_, _, Some(p)) => ("pdn", p.clone()),
        _ => return Err(ApiError::invalid("moves", "no moves given")),
    };
    let start_fen = input.start_fen.clone().filter(|f| !f.trim().is_empty());
    let now = crate::db::now_utc();
    let old = moves_of(c, game)?;
    let row = match &old {
        Some(o) => {
            crate::api::check_if_match(if_match, &moves_etag(o))?;
            diesel::update(game_moves::table.find(game))
                .set((
                    game_moves::format.eq(format),
                    game_moves::movetext.eq(&text),
                    game_moves::start_fen.eq(&start_fen),
                    game_moves::plies.eq(plies),
                    game_moves::version.eq(o.version + 1),
                    game_moves::updated_by.eq(actor),
                    game_moves::updated_at.eq(now),
                ))
                .returning(game_moves::all_columns)
                .get_result::<MovesRow>(c)?
        }
        None => {
            if if_match.is_some_and(|v| v.trim() != "*") {
                return Err(ApiError::PreconditionFailed(
                    "If-Match given but the game has no moves recorded yet".into(),
                ));
            }
            diesel::insert_into(game_moves::table)
                .values((
                    game_moves::game_id.eq(game),
                    game_moves::format.eq(format),
                    game_moves::movetext.eq(&text),
                    game_moves::start_fen.eq(&start_fen),
                    game_moves::plies.eq(plies),
                    game_moves::version.eq(1_i64),
                    game_moves::updated_by.eq(actor),
                    game_moves::updated_at.eq(now),
                ))
                .returning(game_moves::all_columns)
                .get_result::<MovesRow>(c)?
        }
    };
    audit(
        c,
        &NewAuditEntry {
            entity: "game".into(),
            entity_id: game,
            action: "moves_set".into(),
            actor: actor.into(),
            at: now,
            old_value: old.map(|o| o.movetext),
            new_value: Some(text),
            reason: None,
        },
    )?;
    Ok(row)
}

// ---------------------------------------------------------------------------------------
// claims

/// The claims of a game, oldest first.
pub fn claims_of(c: &mut DbConn, game: i64) -> ApiResult<Vec<ClaimRow>> {
    load_game(c, game)?;
    Ok(claims::table
        .filter(claims::game_id.eq(game))
        .order(claims::id)
        .select(ClaimRow::as_select())
        .load(c)?)
}

fn claim_by_seq(c: &mut DbConn, game: i64, seq: i32) -> ApiResult<ClaimRow> {
    Ok(claims::table
        .filter(claims::game_id.eq(game))
        .filter(claims::event_seq.eq(seq))
        .select(ClaimRow::as_select())
        .first(c)?)
}

/// Loads a claim or 404.
pub fn load_claim(c: &mut DbConn, id: i64) -> ApiResult<ClaimRow> {
    claims::table
        .find(id)
        .select(ClaimRow::as_select())
        .first(c)
        .optional()?
        .ok_or_else(|| ApiError::NotFound(format!("no claim {id}")))
}

/// The competition's time control in the quickplay engine's terms.
fn engine_time_control(comp: &Competition) -> quickplay::TimeControl {
    let tc: TimeControl =
        serde_json::from_str(&comp.time_control).unwrap_or_else(|_| TimeControl::club_default());
    quickplay::TimeControl {
        periods: tc
            .periods
            .iter()
            .map(|p| Period {
                moves: p.moves,
                minutes: p.minutes,
            })
            .collect(),
        increment: (tc.increment_seconds > 0).then_some(Increment {
            seconds: tc.increment_seconds,
            from_move: tc.increment_from_move,
        }),
    }
}

/// Whether the competition applies the quickplay-finish rule: its `rules.quickplay_finish`,
/// else the default for its kind (SPEC §8: not in the rapid).
fn applies_quickplay(comp: &Competition) -> bool {
    let rules: serde_json::Value = serde_json::from_str(&comp.rules).unwrap_or_default();
    rules
        .get("quickplay_finish")
        .and_then(|v| v.as_bool())
        .unwrap_or_else(|| {
            default_rules(&comp.kind, comp.system.as_deref())["quickplay_finish"]
                .as_bool()
                .unwrap_or(true)
        })
}

fn draughts_outcome(v: DraughtsVerdict) -> Option<Outcome> {
    match v {
        DraughtsVerdict::Draw => Some(Outcome::Draw),
        DraughtsVerdict::Plusremise { side } => Some(Outcome::Plusremise { side }),
        DraughtsVerdict::ArbiterToJudgePromotion { .. } => None,
    }
}

/// What the engines found: the claimant, validity, the verdict JSON and — when the check
/// settles the claim — the ruling.
struct Checked {
    claimant: Side,
    valid: Option<bool>,
    check: Option<String>,
    ruling: Option<Ruling>,
    /// Half-moves of the record and their notation, to bring the log up to the claim.
    plies: Vec<String>,
}

fn checked_moves(c: &mut DbConn, ctx: &GameCtx, input: &ClaimInput) -> ApiResult<Option<Record>> {
    match &input.moves {
        Some(m) => record_of(ctx.kind, m).map(Some),
        None => moves_of(c, ctx.game.id)?
            .map(|r| stored_record(&r))
            .transpose(),
    }
}

fn need_record(r: Option<Record>) -> ApiResult<Record> {
    r.ok_or_else(|| {
        ApiError::invalid(
            "moves",
            "no moves are recorded for this game: store them (PUT /games/{id}/moves) or send them",
        )
    })
}

fn check_chess(kind: ClaimType, record: Record, declared: Option<String>) -> ApiResult<Checked> {
    let Record::Chess { moves, start_fen } = record else {
        return Err(ApiError::invalid("moves", "chess moves expected"));
    };
    let plies = read_plies(&Record::Chess {
        moves: moves.clone(),
        start_fen: start_fen.clone(),
    })?;
    let bad = |e: engine::RepetitionError| ApiError::invalid("moves", e.to_string());
    let (claimant, valid, check) = if kind == ClaimType::ThreefoldRepetition {
        let v = engine::check_repetition(&RepetitionClaim {
            start_fen,
            moves,
            declared_move: declared,
        })
        .map_err(bad)?;
        (v.claimant, v.valid, json(&v)?)
    } else {
        let v = engine::check_fifty_moves(&FiftyMovesClaim {
            start_fen,
            moves,
            declared_move: declared,
        })
        .map_err(bad)?;
        (v.claimant, v.valid, json(&v)?)
    };
    Ok(Checked {
        claimant,
        valid: Some(valid),
        check: Some(check),
        ruling: Some(if valid {
            Ruling::Upheld {
                outcome: Outcome::Draw,
            }
        } else {
            Ruling::Rejected
        }),
        plies,
    })
}

fn check_draughts(kind: ClaimType, record: Record, declared: Option<String>) -> ApiResult<Checked> {
    let Record::Draughts {
        movetext,
        start_fen,
    } = record
    else {
        return Err(ApiError::invalid("moves", "draughts moves expected"));
    };
    let game = draughts::read_game(start_fen.as_deref(), &movetext)
        .map_err(|e| ApiError::invalid("moves", e.to_string()))?;
    let plies: Vec<String> = game.moves.iter().map(|m| m.notation()).collect();
    if kind == ClaimType::DraughtsEndgameLimit {
        let claimant = game
            .positions()
            .last()
            .map(|p| p.turn)
            .unwrap_or(Side::White);
        let counter = draughts::claims::endgame_status(&game);
        let reached = counter.as_ref().is_some_and(|e| e.limit_reached);
        // SPEC §10: two of the three pieces still men → the arbiter judges on the board
        // whether their promotion can be permanently prevented; the claim then waits.
        let ruling = match &counter {
            Some(e) if reached => {
                draughts_outcome(e.verdict_at_limit).map(|outcome| Ruling::Upheld { outcome })
            }
            _ => Some(Ruling::Rejected),
        };
        let check = serde_json::json!({
            "valid": reached,
            "endgame": counter,
            "reason": (!reached).then_some(match &counter {
                None => "no counted endgame (16- or 5-move) is on the board".to_string(),
                Some(e) => format!(
                    "the limit of {} moves each is not reached ({} and {})",
                    e.limit, e.moves_lone_king, e.moves_other
                ),
            }),
        });
        return Ok(Checked {
            claimant,
            valid: Some(reached),
            check: Some(json(&check)?),
            ruling,
            plies,
        });
    }
    let claim = match kind {
        ClaimType::DraughtsThirdTime => DraughtsClaim::ThirdTime,
        ClaimType::DraughtsCanRepeat => DraughtsClaim::CanRepeat {
            declared_move: declared,
        },
        _ => DraughtsClaim::TwentyFiveMoves,
    };
    let v = draughts::check_claim(&DraughtsClaimRequest {
        start_fen,
        movetext,
        claim,
    })
    .map_err(|e| ApiError::invalid("moves", e.to_string()))?;
    let ruling = match (v.valid, v.verdict) {
        (true, Some(verdict)) => {
            draughts_outcome(verdict).map(|outcome| Ruling::Upheld { outcome })
        }
        (true, None) => None,
        (false, _) => Some(Ruling::Rejected),
    };
    Ok(Checked {
        claimant: v.claimant,
        valid: Some(v.valid),
        check: Some(json(&v)?),
        ruling,
        plies,
    })
}

fn quickplay_decision(d: &DecisionInput) -> QuickplayDecision {
    match d.decision {
        DecisionKind::Accept => QuickplayDecision::Accept,
        DecisionKind::Postpone => QuickplayDecision::Postpone {
            opponent_two_minutes: d.opponent_two_minutes,
        },
        DecisionKind::Reject => QuickplayDecision::Reject,
    }
}

fn ruling_of(d: &DecisionInput, default_outcome: Option<Outcome>) -> Ruling {
    match d.decision {
        DecisionKind::Accept => Ruling::Upheld {
            outcome: d
                .outcome
                .map(Outcome::from)
                .or(default_outcome)
                .unwrap_or(Outcome::Draw),
        },
        DecisionKind::Postpone => Ruling::Postponed {
            opponent_two_minutes: d.opponent_two_minutes,
        },
        DecisionKind::Reject => Ruling::Rejected,
    }
}

/// Records a claim: checked from the moves by the engines where the rules allow (repetition,
/// fifty moves, the draughts claims: decided at once), or refused/opened for the arbiter
/// (quickplay finish).
pub fn make_claim(
    c: &mut DbConn,
    game: i64,
    input: &ClaimInput,
    actor: &str,
) -> ApiResult<ClaimRow> {
    lock_game(c, game)?;
    let ctx = load_game(c, game)?;
    if input.kind.game() != ctx.kind {
        return Err(ApiError::invalid(
            "kind",
            format!(
                "a {} claim in a {} game",
                kind_str(&input.kind.game()),
                kind_str(&ctx.kind)
            ),
        ));
    }
    if input.kind != ClaimType::QuickplayFinish {
        for (set, field) in [
            (input.claimant.is_some(), "claimant"),
            (input.remaining_ms.is_some(), "remaining_ms"),
            (input.move_number.is_some(), "move_number"),
            (input.decision.is_some(), "decision"),
        ] {
            if set {
                return Err(ApiError::invalid(
                    field,
                    "only for a quickplay-finish claim (the others are checked from the moves)",
                ));
            }
        }
    }
    if input.declared_move.is_some()
        && !matches!(
            input.kind,
            ClaimType::ThreefoldRepetition | ClaimType::FiftyMoves | ClaimType::DraughtsCanRepeat
        )
    {
        return Err(ApiError::invalid(
            "declared_move",
            "only for a repetition (a), fifty-move (a) or draughts can-repeat claim",
        ));
    }
    let mut log = Log::open(c, &ctx, actor)?;
    let record = checked_moves(c, &ctx, input)?;
    let checked = match input.kind {
        ClaimType::QuickplayFinish => check_quickplay(&ctx, input, record, &log.state)?,
        ClaimType::ThreefoldRepetition | ClaimType::FiftyMoves => check_chess(
            input.kind,
            need_record(record)?,
            input.declared_move.clone(),
        )?,
        _ => check_draughts(
            input.kind,
            need_record(record)?,
            input.declared_move.clone(),
        )?,
    };
    let plies = checked.plies.clone();
    log.sync_moves(c, plies.len(), |i| {
        plies.get(i).filter(|s| !s.is_empty()).cloned()
    })?;
    let claim_row = log.append(
        c,
        GameEvent::Claim {
            by: checked.claimant,
            kind: input.kind.event_kind(),
        },
        input.note.clone(),
    )?;
    let seq = claim_row.seq;
    insert_claim(
        c,
        &log,
        seq,
        &kind_str(&input.kind),
        checked.claimant,
        checked.valid,
        checked.check.clone(),
    )?;
    let ruling = match (&input.decision, input.kind) {
        (Some(d), ClaimType::QuickplayFinish) => {
            let state = QuickplayState {
                claimant: checked.claimant,
                status: quickplay::ClaimStatus::Pending,
                opponent_extra_seconds: 0,
            };
            quickplay::decide(&state, quickplay_decision(d))
                .map_err(|e| ApiError::Conflict(e.to_string()))?;
            Some(ruling_of(d, None))
        }
        _ => checked.ruling,
    };
    if let Some(ruling) = ruling {
        let note = input.decision.as_ref().and_then(|d| d.note.clone());
        log.append(
            c,
            GameEvent::Decision {
                claim: seq as usize,
                ruling,
            },
            note,
        )?;
        sync_claim_row(c, &log, seq)?;
    }
    let row = claim_by_seq(c, game, seq)?;
    audit_game(
        c,
        game,
        "claim",
        actor,
        &serde_json::json!({
            "claim": row.id, "kind": row.kind, "claimant": row.claimant,
            "valid": row.valid, "status": row.status,
        }),
    )?;
    Ok(row)
}

fn check_quickplay(
    ctx: &GameCtx,
    input: &ClaimInput,
    record: Option<Record>,
    state: &GameState,
) -> ApiResult<Checked> {
    let remaining_ms = input
        .remaining_ms
        .ok_or_else(|| ApiError::invalid("remaining_ms", "the claimant's time left is required"))?;
    // the record (if any) gives the moves; else the claimant and move number place the claim
    let plies = record.as_ref().map(read_plies).transpose()?;
    let (claimant, move_number, plies) = match plies {
        Some(p) => {
            let n = p.len() as u32;
            let to_move = if n.is_multiple_of(2) {
                Side::White
            } else {
                Side::Black
            };
            let claimant = input.claimant.map(Side::from).unwrap_or(to_move);
            (claimant, input.move_number.unwrap_or(n / 2 + 1), p)
        }
        None => {
            let claimant = input.claimant.map(Side::from).unwrap_or(state.to_move);
            let idx = usize::from(claimant == Side::Black);
            let mn = input.move_number.unwrap_or(state.moves[idx] + 1);
            if mn == 0 {
                return Err(ApiError::invalid("move_number", "must be 1 or more"));
            }
            let before = 2 * (mn as usize - 1) + idx;
            let have = (state.moves[0] + state.moves[1]) as usize;
            // anonymous moves up to the claimant's turn at that move number
            (claimant, mn, vec![String::new(); before.max(have)])
        }
    };
    let claim = QuickplayClaim {
        claimant,
        remaining_ms,
        move_number,
        competition_applies_rule: applies_quickplay(&ctx.competition),
        time_control: engine_time_control(&ctx.competition),
    };
    if let Err(refusal) = engine::check_quickplay_claim(&claim) {
        let name = variant_name(&refusal);
        let msg = format!("refused ({name}): {refusal}");
        return Err(ApiError::Validation {
            detail: format!("quickplay-finish claim {msg}"),
            errors: vec![FieldError::new("kind", msg)],
        });
    }
    Ok(Checked {
        claimant,
        valid: None,
        check: Some(json(&claim)?),
        ruling: None,
        plies,
    })
}

/// Decides a pending or postponed claim. A final decision cannot be changed (409).
pub fn decide_claim(
    c: &mut DbConn,
    id: i64,
    input: &DecisionInput,
    actor: &str,
) -> ApiResult<ClaimRow> {
    // a write first (SQLite takes the write lock before any read; one more lock row on
    // Postgres, always taken before the game's), then the game's lock
    bump_stamp(c, "arbiter-decisions")?;
    let claim = load_claim(c, id)?;
    lock_game(c, claim.game_id)?;
    let ctx = load_game(c, claim.game_id)?;
    let mut log = Log::open(c, &ctx, actor)?;
    let rec = log
        .claim_record(claim.event_seq)
        .cloned()
        .ok_or_else(|| internal("claim", "not in the log"))?;
    if matches!(rec.status, ClaimStatus::Upheld | ClaimStatus::Rejected) {
        return Err(ApiError::Conflict(format!(
            "claim {id} was already decided ({}); the decision is final",
            status_str(rec.status)
        )));
    }
    if rec.kind == ClaimKind::QuickplayFinish {
        let state = QuickplayState {
            claimant: rec.by,
            status: match rec.status {
                ClaimStatus::Postponed => quickplay::ClaimStatus::Postponed,
                _ => quickplay::ClaimStatus::Pending,
            },
            opponent_extra_seconds: rec.opponent_extra_seconds,
        };
        quickplay::decide(&state, quickplay_decision(input))
            .map_err(|e| ApiError::Conflict(e.to_string()))?;
    }
    // the checked verdict's result is the default for an accepted draughts claim
    let verdict = claim
        .check_result
        .as_deref()
        .and_then(|s| serde_json::from_str::<serde_json::Value>(s).ok())
        .and_then(|v| {
            let verdict = match v.get("verdict") {
                Some(x) if !x.is_null() => x.clone(),
                _ => v.get("endgame")?.get("verdict_at_limit")?.clone(),
            };
            serde_json::from_value::<DraughtsVerdict>(verdict).ok()
        });
    if let Some(DraughtsVerdict::ArbiterToJudgePromotion { .. }) = verdict
        && input.decision == DecisionKind::Accept
        && input.outcome.is_none()
    {
        // SPEC §10: whether the minority can permanently prevent the promotion of the two
        // men is judged on the board; the arbiter names the result
        return Err(ApiError::invalid(
            "outcome",
            "required: judge whether the promotion of the two men can be prevented \
             (plusremise for the side with three pieces, or draw)",
        ));
    }
    let default_outcome = verdict.and_then(draughts_outcome);
    log.append(
        c,
        GameEvent::Decision {
            claim: claim.event_seq as usize,
            ruling: ruling_of(input, default_outcome),
        },
        input.note.clone(),
    )?;
    sync_claim_row(c, &log, claim.event_seq)?;
    let row = load_claim(c, id)?;
    audit_game(
        c,
        claim.game_id,
        "claim_decided",
        actor,
        &serde_json::json!({
            "claim": id, "decision": input.decision, "status": row.status,
            "opponent_extra_seconds": row.opponent_extra_seconds,
        }),
    )?;
    Ok(row)
}

// ---------------------------------------------------------------------------------------
// appeals

/// Who lodges an appeal: officials record it for a player; a member only for a game of the
/// player linked to their account.
#[derive(Debug, Clone)]
pub struct Appellant {
    /// Audit label.
    pub label: String,
    /// Whether the caller is an official (arbiter, leader, admin).
    pub official: bool,
    /// The caller's linked player.
    pub player_id: Option<i64>,
}

fn utc(t: NaiveDateTime) -> DateTime<Utc> {
    DateTime::from_naive_utc_and_offset(t, Utc)
}

/// The decision an appeal is against.
struct Appealed {
    game: i64,
    claim_id: Option<i64>,
    event_id: Option<i64>,
    decided_at: NaiveDateTime,
}

fn lodge(
    c: &mut DbConn,
    target: Appealed,
    input: &AppealInput,
    who: &Appellant,
    now: DateTime<Utc>,
) -> ApiResult<AppealRow> {
    if input.grounds.trim().is_empty() {
        return Err(ApiError::invalid("grounds", "must not be empty"));
    }
    let Appealed {
        game,
        claim_id,
        event_id,
        decided_at,
    } = target;
    let ctx = load_game(c, game)?;
    if !who.official
        && (who.player_id.is_none()
            || (who.player_id != ctx.game.white_id && who.player_id != ctx.game.black_id))
    {
        return Err(ApiError::Forbidden(
            "a member may appeal only a decision in their own game".into(),
        ));
    }
    let appeal = engine::lodge_appeal(utc(decided_at), now, input.in_writing).map_err(|e| {
        let name = variant_name(&e);
        ApiError::Validation {
            detail: format!("appeal refused ({name}): {e}"),
            errors: vec![FieldError::new("appeal", format!("{name}: {e}"))],
        }
    })?;
    let row = diesel::insert_into(appeals::table)
        .values((
            appeals::game_id.eq(game),
            appeals::claim_id.eq(claim_id),
            appeals::event_id.eq(event_id),
            appeals::decided_at.eq(decided_at),
            appeals::grounds.eq(input.grounds.trim()),
            appeals::lodged_by.eq(&who.label),
            appeals::lodged_at.eq(now.naive_utc()),
            appeals::last_day.eq(appeal.window.last_day),
        ))
        .returning(appeals::all_columns)
        .get_result::<AppealRow>(c)?;
    audit(
        c,
        &NewAuditEntry {
            entity: "appeal".into(),
            entity_id: row.id,
            action: "appeal_lodged".into(),
            actor: who.label.clone(),
            at: now.naive_utc(),
            old_value: None,
            new_value: Some(input.grounds.clone()),
            reason: None,
        },
    )?;
    Ok(row)
}

/// Lodges an appeal against the decision on a claim ("now" is read here, SPEC §8).
pub fn appeal_claim(
    c: &mut DbConn,
    claim_id: i64,
    input: &AppealInput,
    who: &Appellant,
) -> ApiResult<AppealRow> {
    let claim = load_claim(c, claim_id)?;
    let decided_at = claim.decided_at.ok_or_else(|| {
        ApiError::Conflict(format!(
            "claim {claim_id} is not decided yet: nothing to appeal"
        ))
    })?;
    lodge(
        c,
        Appealed {
            game: claim.game_id,
            claim_id: Some(claim_id),
            event_id: None,
            decided_at,
        },
        input,
        who,
        Utc::now(),
    )
}

/// Lodges an appeal against an arbiter's decision event (a decision on a claim, or time
/// added).
pub fn appeal_event(
    c: &mut DbConn,
    event_id: i64,
    input: &AppealInput,
    who: &Appellant,
) -> ApiResult<AppealRow> {
    let row: EventRow = game_events::table
        .find(event_id)
        .select(EventRow::as_select())
        .first(c)
        .optional()?
        .ok_or_else(|| ApiError::NotFound(format!("no event {event_id}")))?;
    let event: GameEvent =
        serde_json::from_str(&row.event).map_err(|e| internal("stored event", e))?;
    if !matches!(
        event,
        GameEvent::Decision { .. } | GameEvent::TimeAdded { .. }
    ) {
        return Err(ApiError::invalid(
            "event",
            "only an arbiter's decision (a decision on a claim, time added) can be appealed",
        ));
    }
    let claim_id = match event {
        GameEvent::Decision { claim, .. } => claims::table
            .filter(claims::game_id.eq(row.game_id))
            .filter(claims::event_seq.eq(claim as i32))
            .select(claims::id)
            .first::<i64>(c)
            .optional()?,
        _ => None,
    };
    lodge(
        c,
        Appealed {
            game: row.game_id,
            claim_id,
            event_id: Some(event_id),
            decided_at: row.at,
        },
        input,
        who,
        Utc::now(),
    )
}

/// Loads an appeal or 404.
pub fn load_appeal(c: &mut DbConn, id: i64) -> ApiResult<AppealRow> {
    appeals::table
        .find(id)
        .select(AppealRow::as_select())
        .first(c)
        .optional()?
        .ok_or_else(|| ApiError::NotFound(format!("no appeal {id}")))
}

/// The appeals about a game.
pub fn appeals_of(c: &mut DbConn, game: i64) -> ApiResult<Vec<AppealRow>> {
    load_game(c, game)?;
    Ok(appeals::table
        .filter(appeals::game_id.eq(game))
        .order(appeals::id)
        .select(AppealRow::as_select())
        .load(c)?)
}

/// The board decides an appeal, once (a second decision: 409).
pub fn decide_appeal(
    c: &mut DbConn,
    id: i64,
    input: &AppealDecisionInput,
    actor: &str,
) -> ApiResult<AppealRow> {
    let row = load_appeal(c, id)?;
    let ruling = match input.ruling {
        RulingInput::Upheld => engine::BoardRuling::Upheld,
        RulingInput::Dismissed => engine::BoardRuling::Dismissed,
    };
    let current = engine::Appeal {
        decided_at: utc(row.decided_at),
        lodged_at: utc(row.lodged_at),
        window: engine::appeal_window(utc(row.decided_at))
            .map_err(|e| internal("appeal window", e))?,
        ruling: row
            .ruling
            .as_deref()
            .and_then(|r| serde_json::from_value(serde_json::Value::String(r.into())).ok()),
    };
    engine::board_decides(&current, ruling).map_err(|e| ApiError::Conflict(e.to_string()))?;
    let now = crate::db::now_utc();
    let ruling_text = kind_str(&ruling);
    // conditional: of two concurrent board decisions exactly one is stored
    let n = diesel::update(
        appeals::table
            .filter(appeals::id.eq(id))
            .filter(appeals::ruling.is_null()),
    )
    .set((
        appeals::ruling.eq(&ruling_text),
        appeals::ruling_reason.eq(&input.reason),
        appeals::ruled_by.eq(actor),
        appeals::ruled_at.eq(now),
    ))
    .execute(c)?;
    if n == 0 {
        return Err(ApiError::Conflict(format!(
            "appeal {id} was already decided; the board's decision is final"
        )));
    }
    audit(
        c,
        &NewAuditEntry {
            entity: "appeal".into(),
            entity_id: id,
            action: "appeal_decided".into(),
            actor: actor.into(),
            at: now,
            old_value: None,
            new_value: Some(ruling_text),
            reason: input.reason.clone(),
        },
    )?;
    load_appeal(c, id)
}
