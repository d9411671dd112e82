//! Arbiter tools (docs/rules/arbiter.md#appeals, docs/rules/arbiter.md#draughts-claims, docs/rules/arbiter.md#game-events): the per-game event log, the recorded moves, claims
//! checked from the moves, and appeals to the board. Every rule is the arbiter engines'
//! (`clubcomp_engine::arbiter`); this module loads, calls them, stores — in the caller's one
//! transaction. Writes to one game are serialised by taking the game's lock row first
//! ([`lock_game`]), so concurrent appends to a log never lose an event.

use crate::error::{ApiError, ApiResult, FieldError};
use crate::ids::GameId;
use crate::services::competitions::default_rules;
use crate::store::DbConn;
use crate::store::models::competition::{Competition, Game, NewAuditEntry, audit};
use crate::store::schema::{appeals, claims, competitions, game_events, game_moves, games, rounds};
use crate::store::stamps::Scope;
use crate::vocab::MoveFormat;
use chrono::{DateTime, NaiveDateTime, Utc};
use clubcomp_engine::Colour;
use clubcomp_engine::arbiter::draughts::{
    self, DraughtsClaim, DraughtsClaimRequest, DraughtsVerdict,
};
use clubcomp_engine::arbiter::quickplay;
use clubcomp_engine::arbiter::quickplay::{QuickplayClaim, QuickplayDecision, QuickplayState};
use clubcomp_engine::arbiter::record_moves;
use clubcomp_engine::arbiter::{
    self as engine, ChessMoves, ClaimKind, EventLog, FiftyMovesClaim, GameEnding, GameEvent,
    GameKind, GameState, RepetitionClaim, RuleViolation, Ruling,
};
use clubcomp_engine::arbiter::{ClaimRecord, ClaimStatus};
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

mod appeal;
mod claim;
mod decided;
mod dispute;
mod illegal;
mod one_record;
mod protest;
mod quickplay_claim;
mod rows;
pub use appeal::*;
pub use claim::*;
use decided::enter_decided_result;
pub use dispute::Appellant;
use dispute::{Disputed, disputed_claim, disputed_event, lodging_game, lodging_refused};
use one_record::{claim_record, move_agrees_with_record, record_agrees_with_log};
pub use protest::*;
use quickplay_claim::check_quickplay;
pub use rows::*;

// ---------------------------------------------------------------------------------------
// inputs

/// The OpenAPI schemas of the shared vocabulary used by the arbiter's inputs.
pub mod doc {
    crate::schemas::string_enum_schema!(
        pub Colour,
        "A player's colour.",
        clubcomp_engine::Colour::NAMES
    );
}

/// The moves of a game: `pgn` or `san` for chess, `pdn` for draughts; exactly one.
#[derive(Debug, Clone, Default, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"san": ["Nf3", "Nf6", "Ng1", "Ng8"]}))]
pub struct MovesInput {
    /// Chess: PGN movetext (tag pairs, comments, variations and the result are skipped); at
    /// most 131072 bytes and 2000 half-moves.
    #[serde(default)]
    #[schema(max_length = 131072)]
    pub pgn: Option<String>,
    /// Chess: the moves as a list of SAN strings; at most 2000 half-moves of at most 16
    /// characters each.
    #[serde(default)]
    #[schema(max_items = 2000)]
    pub san: Option<Vec<String>>,
    /// Draughts: PDN movetext (`32-28 19-23 28x19 ...`); at most 131072 bytes and 2000
    /// half-moves.
    #[serde(default)]
    #[schema(max_length = 131072)]
    pub pdn: Option<String>,
    /// Start position (FEN for chess, PDN FEN for draughts; at most 200 characters); the
    /// initial position if absent.
    #[serde(default)]
    #[schema(max_length = 200)]
    pub start_fen: Option<String>,
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
pub fn load_game(c: &mut DbConn, id: GameId) -> ApiResult<GameCtx> {
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
    let kind = match competition.discipline {
        clubcomp_engine::Discipline::Draughts => GameKind::Draughts,
        clubcomp_engine::Discipline::Chess => GameKind::Chess,
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
///
/// The game's own row is locked before (as a result entry and a change of tempo lock it):
/// an upheld claim enters the game's result in the same transaction
/// (decision 0284), and every writer takes the two locks in the same order.
pub fn lock_game(c: &mut DbConn, id: GameId) -> ApiResult<()> {
    crate::services::results::lock_game(c, id)?;
    crate::store::stamps::touch_now(c, Scope::GameArbiter(id))?;
    Ok(())
}

fn internal(what: &str, e: impl std::fmt::Display) -> ApiError {
    ApiError::Internal(format!("{what}: {e}"))
}

/// The stored log of a game, in order.
pub fn event_rows(c: &mut DbConn, game: GameId) -> ApiResult<Vec<EventRow>> {
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
pub fn events(c: &mut DbConn, game: GameId) -> ApiResult<(Vec<EventRow>, GameState)> {
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

/// The most events a game's log may hold: every half-move of the longest record
/// ([`engine::MAX_PLIES`]) with one offer, claim, decision or time added beside each.
pub const MAX_EVENTS: usize = 2 * engine::MAX_PLIES;

/// A game's log being extended inside one transaction: opened by one replay of the stored
/// events, then every event appended is checked against the state after the log (never by
/// replaying it again).
struct Log {
    game: GameId,
    log: EventLog,
    actor: String,
    at: NaiveDateTime,
}

impl Log {
    fn open(c: &mut DbConn, ctx: &GameCtx, actor: &str) -> ApiResult<Log> {
        let rows = event_rows(c, ctx.game.id)?;
        let log = EventLog::open(ctx.kind, parse_log(&rows)?).map_err(violation)?;
        Ok(Log {
            game: ctx.game.id,
            log,
            actor: actor.to_string(),
            at: crate::store::now_utc(),
        })
    }

    /// The state after the log.
    fn state(&self) -> &GameState {
        self.log.state()
    }

    /// Validates `event` with the events engine and stores it; its log index.
    fn append(
        &mut self,
        c: &mut DbConn,
        event: GameEvent,
        note: Option<String>,
    ) -> ApiResult<EventRow> {
        let seq = self.log.events().len();
        if seq >= MAX_EVENTS {
            return Err(ApiError::invalid(
                "event",
                format!("a game's event log holds at most {MAX_EVENTS} events"),
            ));
        }
        let text = serde_json::to_string(&event).map_err(|e| internal("event", e))?;
        self.log.push(event).map_err(violation)?;
        let row = diesel::insert_into(game_events::table)
            .values((
                game_events::game_id.eq(self.game),
                game_events::seq.eq(seq as i32),
                game_events::event.eq(text),
                game_events::note.eq(note),
                game_events::actor.eq(&self.actor),
                game_events::at.eq(self.at),
            ))
            .returning(game_events::all_columns)
            .get_result::<EventRow>(c)?;
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
        let have = (self.state().moves[0] + self.state().moves[1]) as usize;
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
            let by = self.state().to_move;
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
        self.state().claims.iter().find(|r| r.event as i32 == seq)
    }
}

fn audit_game(
    c: &mut DbConn,
    game: GameId,
    action: &str,
    actor: &str,
    value: &impl Serialize,
) -> ApiResult<()> {
    audit(
        c,
        &NewAuditEntry {
            entity: crate::vocab::AuditEntity::Game,
            entity_id: game.get(),
            action: action.into(),
            actor: actor.into(),
            at: crate::store::now_utc(),
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
    let status = crate::vocab::ClaimStatus::from(rec.status);
    let outcome = match rec.status {
        ClaimStatus::Upheld => log.state().result.map(|o| json(&o)).transpose()?,
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
    kind: crate::vocab::ClaimKind,
    claimant: Colour,
    valid: Option<bool>,
    check: Option<String>,
) -> ApiResult<()> {
    diesel::insert_into(claims::table)
        .values((
            claims::game_id.eq(log.game),
            claims::event_seq.eq(seq),
            claims::kind.eq(kind),
            claims::claimant.eq(claimant.as_str()),
            claims::status.eq(crate::vocab::ClaimStatus::Pending),
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
    game: GameId,
    event: GameEvent,
    note: Option<String>,
    actor: &str,
) -> ApiResult<(EventRow, GameState)> {
    check_note("note", note.as_deref())?;
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
    move_agrees_with_record(c, &log, &event)?;
    let row = log.append(c, event.clone(), note)?;
    match event {
        GameEvent::Claim { by, kind, .. } => {
            insert_claim(c, &log, row.seq, kind.into(), by, None, None)?
        }
        GameEvent::Decision { claim, .. } => sync_claim_row(c, &log, claim as i32)?,
        _ => {}
    }
    audit_game(c, game, "event_added", actor, &event)?;
    if let GameEvent::Decision { claim, .. } = event {
        enter_decided_result(c, &log, claim as i32)?;
    }
    Ok((row, log.state().clone()))
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

/// The longest PGN or PDN movetext accepted, in bytes: a record of [`engine::MAX_PLIES`]
/// half-moves with move numbers and a clock comment on every move stays under 64 KiB.
pub const MAX_MOVETEXT_BYTES: usize = 128 * 1024;

/// The longest SAN move of a list, in characters (`exd8=Q#` is 7; `Nb1xd2+` with both
/// disambiguations 7 as well).
const MAX_SAN_CHARS: usize = 16;

/// The longest start FEN, in characters (a chess FEN is at most 90, a draughts FEN with
/// every square listed about 150).
const MAX_FEN_CHARS: usize = 200;

/// The longest note kept with an event or claim, in characters.
pub const MAX_NOTE_CHARS: usize = 500;

/// A note of at most [`MAX_NOTE_CHARS`] characters, or 422 naming `field`.
pub fn check_note(field: &str, note: Option<&str>) -> ApiResult<()> {
    if note.is_some_and(|n| n.chars().count() > MAX_NOTE_CHARS) {
        return Err(ApiError::invalid(
            field,
            format!("must be at most {MAX_NOTE_CHARS} characters"),
        ));
    }
    if let Some(n) = note {
        crate::services::input::checked_multi_line(field, n)?;
    }
    Ok(())
}

/// The size limits of a move record, checked before anything is read from it: 422 naming
/// the field and the limit.
pub fn check_record_size(m: &MovesInput) -> ApiResult<()> {
    for (field, text) in [("pgn", &m.pgn), ("pdn", &m.pdn)] {
        if text.as_ref().is_some_and(|t| t.len() > MAX_MOVETEXT_BYTES) {
            return Err(ApiError::invalid(
                field,
                format!("a movetext holds at most {MAX_MOVETEXT_BYTES} bytes"),
            ));
        }
    }
    if let Some(san) = &m.san {
        if san.len() > engine::MAX_PLIES {
            return Err(ApiError::invalid(
                "san",
                format!(
                    "a record holds at most {} half-moves (1,000 moves each)",
                    engine::MAX_PLIES
                ),
            ));
        }
        if let Some(i) = san.iter().position(|s| s.chars().count() > MAX_SAN_CHARS) {
            return Err(ApiError::invalid(
                &format!("san[{i}]"),
                format!("a SAN move has at most {MAX_SAN_CHARS} characters"),
            ));
        }
    }
    if m.start_fen
        .as_ref()
        .is_some_and(|f| f.chars().count() > MAX_FEN_CHARS)
    {
        return Err(ApiError::invalid(
            "start_fen",
            format!("at most {MAX_FEN_CHARS} characters"),
        ));
    }
    Ok(())
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
        Record::Chess { moves, start_fen } => record_moves(moves, start_fen.as_deref())
            .map(|refs| refs.into_iter().map(|m| m.notation).collect())
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
    Ok(match row.format {
        MoveFormat::Pgn => Record::Chess {
            moves: ChessMoves::Pgn(row.movetext.clone()),
            start_fen,
        },
        MoveFormat::San => Record::Chess {
            moves: ChessMoves::San(
                serde_json::from_str(&row.movetext).map_err(|e| internal("stored moves", e))?,
            ),
            start_fen,
        },
        MoveFormat::Pdn => Record::Draughts {
            movetext: row.movetext.clone(),
            start_fen,
        },
    })
}

/// The stored moves of a game, if any.
pub fn moves_of(c: &mut DbConn, game: GameId) -> ApiResult<Option<MovesRow>> {
    Ok(game_moves::table
        .find(game)
        .select(MovesRow::as_select())
        .first(c)
        .optional()?)
}

/// The stored moves of game `id`: 404 when there is no such game, or when it has no moves
/// recorded.
pub fn recorded_moves(c: &mut DbConn, id: GameId) -> ApiResult<MovesRow> {
    load_game(c, id)?;
    moves_of(c, id)?.ok_or_else(|| ApiError::NotFound(format!("game {id} has no moves recorded")))
}

/// The ETag of a game's stored moves.
pub fn moves_etag(row: &MovesRow) -> String {
    crate::services::version::etag("moves", row.game_id, row.version)
}

/// FIDE 9.5.3: when the log holds a claim (a) whose declared move is not played yet, the
/// record's next half-move must be that move (checked by the events engine, 422 naming it).
fn check_declared_move(c: &mut DbConn, ctx: &GameCtx, plies: &[String]) -> ApiResult<()> {
    let rows = event_rows(c, ctx.game.id)?;
    let log = parse_log(&rows)?;
    let state = engine::replay(ctx.kind, &log).map_err(violation)?;
    if state.declared.is_none() {
        return Ok(());
    }
    let have = (state.moves[0] + state.moves[1]) as usize;
    if let Some(next) = plies.get(have) {
        let played = GameEvent::Move {
            by: state.to_move,
            notation: Some(next.clone()),
        };
        state.apply(&played).map_err(violation)?;
    }
    Ok(())
}

/// Stores (replaces) a game's moves after reading them through the engines.
pub fn set_moves(
    c: &mut DbConn,
    game: GameId,
    input: &MovesInput,
    expected: &crate::services::version::ExpectedVersion,
    actor: &str,
) -> ApiResult<MovesRow> {
    check_record_size(input)?;
    lock_game(c, game)?;
    let ctx = load_game(c, game)?;
    let record = record_of(ctx.kind, input)?;
    let notation = read_plies(&record)?;
    record_agrees_with_log(c, game, &notation)?;
    check_declared_move(c, &ctx, &notation)?;
    let plies = notation.len() as i32;
    let (format, text) = match (&input.pgn, &input.san, &input.pdn) {
        (Some(p), _, _) => (MoveFormat::Pgn, p.clone()),
        (_, Some(s), _) => (MoveFormat::San, json(s)?),
        (_, _, Some(p)) => (MoveFormat::Pdn, p.clone()),
        _ => return Err(ApiError::invalid("moves", "no moves given")),
    };
    let start_fen = input.start_fen.clone().filter(|f| !f.trim().is_empty());
    let now = crate::store::now_utc();
    let old = moves_of(c, game)?;
    let row = match &old {
        Some(o) => {
            expected.check(&moves_etag(o))?;
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
            if expected.is_conditional() {
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
            entity: crate::vocab::AuditEntity::Game,
            entity_id: game.get(),
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
