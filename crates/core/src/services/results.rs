//! Entering and correcting game results (docs/rules/README.md#results, docs/rules/draughts-championship.md#the-40-move-rule, docs/rules/arbiter.md#results-and-corrections): result codes per discipline, the
//! draughts 40-move rule (through `clubcomp_engine::round_robin::convert_result`), the round-status
//! rule, optimistic concurrency on the game's version, and an audit entry for every change.

use crate::error::{ApiError, ApiResult, FieldError};
use crate::ids::{ClaimId, CompetitionId, GameId, RoundId};
use crate::store::DbConn;
/// A stored entry of the audit log: the row is the record.
pub use crate::store::models::competition::AuditEntry;
use crate::store::models::competition::{Competition, Game, NewAuditEntry, Round, audit};
use crate::store::models::events::{EventKind, NewEvent, Visibility};
use crate::store::now_utc;
use crate::store::schema::{
    appeals, claims, competitions, game_events, game_moves, games, protests, rounds,
};
use crate::store::stamps::Scope;
use crate::vocab::RoundStatus;
use clubcomp_engine::arbiter::{ClaimStatus, GameEnding, GameEvent, GameKind, GameState, replay};
use clubcomp_engine::round_robin::{ResultError, Termination, convert_result};
use clubcomp_engine::{Colour, CompetitionKind, Discipline};
use diesel::prelude::*;
use serde::{Deserialize, Serialize};

pub use crate::services::competitions::discipline;
pub use crate::services::rounds::ARBITER_DECISION;

pub use crate::vocab::ResultCode;

/// What a caller reports for a game.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"result": "1-0", "termination": "resignation", "move_count": 41}))]
pub struct ResultInput {
    /// Result code of the competition's discipline (chess `1-0 0-1 ½-½ 1/2-1/2 +/- -/+ -/-`;
    /// draughts `2-0 0-2 1-1 1+-1- 1--1+ 0-0 +/- -/+ -/-`).
    #[schema(value_type = ResultCode)]
    pub result: String,
    /// How the game ended: `agreed` (draughts: subject to the 40-move rule),
    /// `arbiter_decision` (Keizer: the loser lost by an arbiter's decision, with `1-0`/`0-1`),
    /// or any other word (`resignation`, `time`, `claim`, …) of at most 40 letters, digits,
    /// `_` or `-`, stored as given.
    #[serde(default)]
    #[schema(pattern = "^[A-Za-z0-9_-]{0,40}$")]
    pub termination: Option<String>,
    /// Moves completed by both players, 0–10000 (needed for an agreed draughts draw).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 10000)]
    pub move_count: Option<i32>,
    /// Why the result is entered or changed (at most 500 characters); required once the
    /// round is completed.
    #[serde(default)]
    #[schema(max_length = 500)]
    pub reason: Option<String>,
}

/// The stored state of a game result (for the audit entry).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Snapshot {
    /// Result code.
    pub result: Option<ResultCode>,
    /// Termination.
    pub termination: Option<String>,
    /// Moves.
    pub move_count: Option<i32>,
}

/// The outcome of entering a result.
#[derive(Debug, Clone)]
pub struct Entered {
    /// The game after the change.
    pub game: Game,
    /// Set when the reported result was converted (the 40-move rule).
    pub note: Option<String>,
    /// The competition the game belongs to.
    pub competition: Competition,
    /// Whether the game had a result before (a correction).
    pub corrected: bool,
}

/// Loads a game with its round and competition, or 404.
pub fn load_game(c: &mut DbConn, id: GameId) -> ApiResult<(Game, Round, Competition)> {
    let g: Game = games::table
        .find(id)
        .select(Game::as_select())
        .first(c)
        .optional()?
        .ok_or_else(|| ApiError::NotFound(format!("no game {id}")))?;
    let r: Round = rounds::table
        .find(g.round_id)
        .select(Round::as_select())
        .first(c)?;
    let comp: Competition = competitions::table
        .find(r.competition_id)
        .select(Competition::as_select())
        .first(c)?;
    Ok((g, r, comp))
}

/// Validates and converts a reported result for a game of `comp` (422 naming the field).
pub fn check(
    comp: &Competition,
    game: &Game,
    input: &ResultInput,
) -> ApiResult<(Snapshot, Option<String>)> {
    let code = input.result.trim();
    if let Some(m) = input.move_count
        && !(0..=10_000).contains(&m)
    {
        return Err(ApiError::invalid("move_count", "must be from 0 to 10000"));
    }
    let term = input
        .termination
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string);
    if let Some(t) = &term
        && (t.chars().count() > 40
            || !t
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '-'))
    {
        return Err(ApiError::invalid(
            "termination",
            "must be a word of at most 40 letters, digits, '_' or '-'",
        ));
    }
    if game.black_id.is_none() {
        // a pairing bye: its result is set by the pairing, never entered
        if code.parse::<ResultCode>() != Ok(ResultCode::Bye) {
            return Err(ApiError::invalid(
                "result",
                "this game is a bye; its result is `bye`",
            ));
        }
        return Ok((
            Snapshot {
                result: Some(ResultCode::Bye),
                termination: None,
                move_count: input.move_count,
            },
            None,
        ));
    }
    let d = discipline(comp);
    let rr_term = term.as_deref().map(|t| {
        if t == "agreed" {
            Termination::Agreed
        } else {
            Termination::Other
        }
    });
    let conv = convert_result(d, code, rr_term, input.move_count.map(|m| m as u32)).map_err(
        |e| match e {
            ResultError::UnknownCode { .. } => ApiError::invalid(
                "result",
                format!(
                    "`{code}` is not a {} result code ({})",
                    comp.discipline,
                    match d {
                        Discipline::Chess => "1-0, 0-1, ½-½, 1/2-1/2, +/-, -/+, -/-",
                        Discipline::Draughts => "2-0, 0-2, 1-1, 1+-1-, 1--1+, 0-0, +/-, -/+, -/-",
                    }
                ),
            ),
            ResultError::MovesRequired { .. } => ApiError::invalid(
                "move_count",
                "an agreed draughts draw needs the number of moves (40-move rule, docs/rules/draughts-championship.md#the-40-move-rule)",
            ),
        },
    )?;
    let stored = ResultCode::from_result(d, conv.result)
        .ok_or_else(|| ApiError::Internal(format!("no {d:?} code for {:?}", conv.result)))?;
    if term.as_deref() == Some(ARBITER_DECISION) {
        // docs/rules/keizer.md#scoring: a game lost by an arbiter's decision is a Keizer rule; it needs a decisive
        // over-the-board code naming the winner.
        if comp.kind != CompetitionKind::Keizer {
            return Err(ApiError::invalid(
                "termination",
                "arbiter_decision losses are a Keizer rule (docs/rules/keizer.md#scoring)",
            ));
        }
        if !matches!(stored, ResultCode::WhiteWins | ResultCode::BlackWins) {
            return Err(ApiError::invalid(
                "result",
                "an arbiter's decision is entered as 1-0 (black lost) or 0-1 (white lost)",
            ));
        }
    }
    if comp.kind == CompetitionKind::Knockout && stored == ResultCode::DoubleForfeit {
        // docs/rules/keizer.md#playoffs: a playoff game always has a winner
        return Err(ApiError::invalid(
            "result",
            "a playoff game needs a winner or a draw; -/- is not possible",
        ));
    }
    Ok((
        Snapshot {
            result: Some(stored),
            termination: term,
            move_count: input.move_count,
        },
        conv.note,
    ))
}

/// The result code of a game ending recorded in the game's event log.
fn ending_code(d: Discipline, ending: GameEnding) -> ResultCode {
    match (d, ending) {
        (
            Discipline::Chess,
            GameEnding::Win {
                side: Colour::White,
            },
        ) => ResultCode::WhiteWins,
        (
            Discipline::Chess,
            GameEnding::Win {
                side: Colour::Black,
            },
        ) => ResultCode::BlackWins,
        (Discipline::Chess, _) => ResultCode::Draw,
        (
            Discipline::Draughts,
            GameEnding::Win {
                side: Colour::White,
            },
        ) => ResultCode::DraughtsWhiteWins,
        (
            Discipline::Draughts,
            GameEnding::Win {
                side: Colour::Black,
            },
        ) => ResultCode::DraughtsBlackWins,
        (Discipline::Draughts, GameEnding::Draw) => ResultCode::DraughtsDraw,
        (
            Discipline::Draughts,
            GameEnding::Plusremise {
                side: Colour::White,
            },
        ) => ResultCode::WhitePlusremise,
        (
            Discipline::Draughts,
            GameEnding::Plusremise {
                side: Colour::Black,
            },
        ) => ResultCode::BlackPlusremise,
        (Discipline::Draughts, GameEnding::BothLost) => ResultCode::BothLost,
    }
}

/// What ended a game in its event log, named for an answer, and whether the board has set
/// that decision aside.
struct EndedBy {
    what: String,
    set_aside: bool,
}

/// The event that ended the game (its state after the log): an upheld claim, named with its
/// id and kind, or an agreement. An upheld claim is set aside when the board upheld an appeal
/// against it (docs/rules/arbiter.md#appeals; decision 0284) or the KNDB protest committee a
/// protest (docs/rules/draughts-championship.md#protests; decision 0274).
fn ended_by(c: &mut DbConn, game: GameId, state: &GameState) -> ApiResult<EndedBy> {
    let Some(upheld) = state
        .claims
        .iter()
        .find(|r| r.status == ClaimStatus::Upheld)
    else {
        return Ok(EndedBy {
            what: "an agreement in its event log".into(),
            set_aside: false,
        });
    };
    let claim: Option<(ClaimId, crate::vocab::ClaimKind)> = claims::table
        .filter(claims::game_id.eq(game))
        .filter(claims::event_seq.eq(upheld.event as i32))
        .select((claims::id, claims::kind))
        .first(c)
        .optional()?;
    let Some((id, kind)) = claim else {
        return Ok(EndedBy {
            what: format!(
                "the arbiter's decision on the claim at event {}",
                upheld.event
            ),
            set_aside: false,
        });
    };
    let set_aside = appeals::table
        .filter(appeals::claim_id.eq(id))
        .filter(appeals::ruling.eq(crate::vocab::AppealRuling::Upheld))
        .count()
        .get_result::<i64>(c)?
        > 0
        || protests::table
            .filter(protests::claim_id.eq(id))
            .filter(protests::ruling.eq(crate::vocab::ProtestRuling::Upheld))
            .count()
            .get_result::<i64>(c)?
            > 0;
    Ok(EndedBy {
        what: format!("the arbiter's decision upholding claim {id} ({kind})"),
        set_aside,
    })
}

/// Enters the result an arbiter's decision gave game `id` (an upheld claim,
/// docs/rules/arbiter.md#results-and-corrections; decision 0284) through [`enter`], so every
/// rule of a result entry holds and the entry is audited with `reason`. Nothing is written
/// when the game already has that result; a bye has no claims to decide.
pub fn enter_decided(
    c: &mut DbConn,
    id: GameId,
    ending: GameEnding,
    move_count: Option<i32>,
    reason: &str,
    actor: &str,
) -> ApiResult<()> {
    let (game, _, comp) = load_game(c, id)?;
    let d = discipline(&comp);
    let code = ending_code(d, ending);
    if game.black_id.is_none() || game.result.is_some_and(|r| r.same_as(code)) {
        return Ok(());
    }
    let input = ResultInput {
        result: code.to_string(),
        termination: Some("claim".into()),
        move_count,
        reason: Some(reason.to_string()),
    };
    enter(
        c,
        id,
        &crate::services::version::ExpectedVersion::any(),
        &input,
        actor,
    )?;
    Ok(())
}

/// 409 when a result contradicts what the game's own record says
/// (docs/rules/arbiter.md#results-and-corrections): the result the event log ended the game
/// with (an agreed draw, the arbiter's decision on a claim), or a move count other than the
/// moves recorded (the game's one record: the stored record continued by the log's moves; the
/// moves completed by both players).
fn agrees_with_the_record(
    c: &mut DbConn,
    comp: &Competition,
    game: &Game,
    new: &Snapshot,
) -> ApiResult<()> {
    if game.black_id.is_none() {
        return Ok(());
    }
    let d = discipline(comp);
    // the stored log replayed (as the arbiter's service keeps it: one JSON event a row)
    let stored: Vec<String> = game_events::table
        .filter(game_events::game_id.eq(game.id))
        .order(game_events::seq)
        .select(game_events::event)
        .load(c)?;
    let log = stored
        .iter()
        .map(|e| serde_json::from_str::<GameEvent>(e))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| ApiError::Internal(format!("game {}: stored event: {e}", game.id)))?;
    let kind = match d {
        Discipline::Chess => GameKind::Chess,
        Discipline::Draughts => GameKind::Draughts,
    };
    let state = replay(kind, &log)
        .map_err(|e| ApiError::Internal(format!("game {}: stored log: {e}", game.id)))?;
    if let Some(ending) = state.result {
        let code = ending_code(d, ending);
        let ended_by = ended_by(c, game.id, &state)?;
        if !new.result.is_some_and(|r| r.same_as(code)) && !ended_by.set_aside {
            return Err(ApiError::Conflict(format!(
                "game {} ended as {code} by {}; its result is {code}, not {}: a result \
                 against an arbiter's decision needs the board to uphold an appeal against it \
                 first (docs/rules/arbiter.md#appeals)",
                game.id,
                ended_by.what,
                new.result.map(ResultCode::as_str).unwrap_or_default()
            )));
        }
    }
    let Some(count) = new.move_count else {
        return Ok(());
    };
    // one record of the moves (docs/rules/arbiter.md#the-moves-of-a-game): the stored record
    // continued by the log's moves, which agree where both hold a move
    let logged = i64::from(state.moves[0]) + i64::from(state.moves[1]);
    let recorded = game_moves::table
        .find(game.id)
        .select(game_moves::plies)
        .first::<i32>(c)
        .optional()?
        .map(i64::from);
    let plies = match recorded {
        Some(r) => Some(r.max(logged)),
        None => (logged > 0).then_some(logged),
    };
    if let Some(plies) = plies
        && i64::from(count) != plies / 2
    {
        return Err(ApiError::Conflict(format!(
            "move_count {count} contradicts the game's recorded moves: {plies} half-moves, {} \
             moves completed by both players",
            plies / 2
        )));
    }
    Ok(())
}

pub use crate::services::round_rows::{bump_game_version, lock_game};

/// Enters (or corrects) the result of game `id` in one transaction: round-status rule (409),
/// `If-Match` against the game's version (412), validation (422), audit entry, cache stamp.
pub fn enter(
    c: &mut DbConn,
    id: GameId,
    expected: &crate::services::version::ExpectedVersion,
    input: &ResultInput,
    actor: &str,
) -> ApiResult<Entered> {
    // Take the game's write lock before reading it (a no-op update: a row lock on Postgres,
    // the write lock on SQLite): concurrent writers of one game queue, and each reads the game
    // as the previous one left it. So a write without If-Match is applied after the other
    // (each one audited) instead of being refused; with If-Match, the stale one gets 412.
    lock_game(c, id)?;
    let (game, mut round, comp) = load_game(c, id)?;
    // the content first (RFC 9110 13.2.1: a request that would fail without its If-Match fails
    // the same way with a wrong one), then the precondition, then the state of the round
    let reason = input
        .reason
        .as_deref()
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(str::to_string);
    let has_reason = reason.is_some();
    let mut errs = Vec::new();
    if reason.as_ref().is_some_and(|r| r.chars().count() > 500) {
        errs.push(FieldError::new("reason", "must be at most 500 characters"));
    } else if let Some(Err(e)) = reason
        .as_deref()
        .map(|r| crate::services::input::multi_line("reason", r))
    {
        errs.push(e);
    }
    let checked = match check(&comp, &game, input) {
        Err(ApiError::Validation { errors, .. }) => {
            errs.extend(errors);
            None
        }
        Err(e) => return Err(e),
        Ok(v) => Some(v),
    };
    if !errs.is_empty() {
        return Err(ApiError::validation(errs));
    }
    expected.check(&crate::services::version::etag(
        "game",
        game.id,
        game.version,
    ))?;
    // a playoff result decides which games are due from all the group's results: take the
    // competition's stamp (its row lock on Postgres) before reading them, so results of two
    // games entered at once are synced one after the other and the later sees the earlier
    // (else both semi-finals decided at once could leave the final uncreated)
    let knockout = comp.kind == CompetitionKind::Knockout;
    if knockout {
        crate::store::stamps::touch_now(c, Scope::Competition(comp.id))?;
        round.status = round_status(c, round.id)?;
    }
    if round.status == RoundStatus::Planned {
        return Err(ApiError::Conflict(format!(
            "round {} is {}; results are entered once it is paired",
            round.number, round.status
        )));
    }
    // docs/rules/arbiter.md#results-and-corrections: a correction after the evening is completed is allowed, with a reason
    if round.status == RoundStatus::Completed && reason.is_none() {
        return Err(ApiError::validation(vec![FieldError::new(
            "reason",
            "required: the round is completed, so this is a correction (docs/rules/arbiter.md#results-and-corrections)",
        )]));
    }
    let (new, note) = checked.ok_or_else(|| ApiError::Internal("unchecked result".into()))?;
    agrees_with_the_record(c, &comp, &game, &new)?;
    let old = Snapshot {
        result: game.result,
        termination: game.termination.clone(),
        move_count: game.move_count,
    };
    // conditional on the version read, so a concurrent writer cannot be overwritten
    bump_game_version(c, game.id, game.version)?;
    crate::services::round_rows::set_game_result(
        c,
        game.id,
        new.result,
        new.termination.as_deref(),
        new.move_count,
    )?;
    let mut new_value = serde_json::to_value(&new).unwrap_or_default();
    if let Some(n) = &note {
        new_value["note"] = serde_json::Value::String(n.clone());
    }
    audit(
        c,
        &NewAuditEntry {
            entity: crate::vocab::AuditEntity::Game,
            entity_id: game.id.get(),
            action: if old.result.is_none() {
                "result_entered".into()
            } else {
                "result_corrected".into()
            },
            actor: actor.to_string(),
            at: now_utc(),
            old_value: old
                .result
                .is_some()
                .then(|| serde_json::to_string(&old).unwrap_or_default()),
            new_value: Some(new_value.to_string()),
            reason,
        },
    )?;
    if knockout {
        crate::services::prizes::sync_playoff_games(c, &comp)?;
    } else {
        crate::store::stamps::touch_now(c, Scope::Competition(comp.id))?;
        // Completing a round bumps the same stamp, whose lock (Postgres) this write holds
        // from here on: a completion that committed after the round was read above made this
        // write a correction, which needs a reason (docs/rules/arbiter.md#results-and-corrections). SQLite holds its write lock
        // from the start, so the status read above is current there (no second read).
        if matches!(c, DbConn::Pg(_))
            && round.status != RoundStatus::Completed
            && !has_reason
            && round_status(c, round.id)? == RoundStatus::Completed
        {
            return Err(ApiError::Conflict(format!(
                "round {} was completed while this result was entered; send it again with a \
                 reason: it is now a correction (docs/rules/arbiter.md#results-and-corrections)",
                round.number
            )));
        }
    }
    let game = games::table.find(id).select(Game::as_select()).first(c)?;
    // a result of a round the public cannot see yet stays the leader's until it is published
    let visibility = if crate::services::rounds::is_public(round.status) {
        Visibility::Public
    } else {
        Visibility::Leader
    };
    let kind = if old.result.is_none() {
        EventKind::ResultEntered
    } else {
        EventKind::ResultCorrected
    };
    crate::store::stamps::record(
        c,
        NewEvent::new(kind, visibility)
            .competition(comp.id)
            .evening(round.evening_id)
            .game(game.id)
            .payload(serde_json::json!({
                "round": round.number,
                "board": game.board,
                "game_no": game.game_no,
                "result": game.result,
                "termination": game.termination,
            })),
    )?;
    Ok(Entered {
        game,
        note,
        competition: comp,
        corrected: old.result.is_some(),
    })
}

/// The current status of a round.
fn round_status(c: &mut DbConn, round: RoundId) -> ApiResult<RoundStatus> {
    Ok(rounds::table.find(round).select(rounds::status).first(c)?)
}

/// One page of the audit trail of a game's result, oldest first (by id): `limit` entries from
/// `offset`, and how many there are in all, read in one transaction (404 when there is no
/// such game).
pub fn game_audit(
    c: &mut DbConn,
    game: GameId,
    limit: i64,
    offset: i64,
) -> ApiResult<(Vec<crate::store::models::competition::AuditEntry>, i64)> {
    use crate::store::models::competition::AuditEntry;
    use crate::store::schema::audit_log as al;
    use crate::vocab::AuditEntity;
    c.transaction(|c| {
        load_game(c, game)?;
        let of_game = || {
            al::table
                .filter(al::entity.eq(AuditEntity::Game))
                .filter(al::entity_id.eq(game.get()))
        };
        Ok(crate::page_of!(c, of_game(), order: al::id, rows: AuditEntry, limit, offset))
    })
}

/// One page of the audit trail of a competition, oldest first (by id): its games' results, its
/// own settings and its entrants' withdrawals; `limit` entries from `offset`, and how many
/// there are in all, read in one transaction (404 when there is no such competition).
pub fn competition_audit(
    c: &mut DbConn,
    competition: CompetitionId,
    limit: i64,
    offset: i64,
) -> ApiResult<(Vec<crate::store::models::competition::AuditEntry>, i64)> {
    use crate::store::models::competition::AuditEntry;
    use crate::store::schema::{audit_log as al, entrants};
    use crate::vocab::AuditEntity;
    c.transaction(|c| {
        crate::services::competitions::load(c, competition)?;
        let competition = competition.get();
        let of_competition = || {
            let games_of = games::table
                .inner_join(rounds::table)
                .filter(rounds::competition_id.eq(competition))
                .select(games::id);
            let entrants_of = entrants::table
                .filter(entrants::competition_id.eq(competition))
                .select(entrants::id);
            al::table.filter(
                (al::entity
                    .eq(AuditEntity::Game)
                    .and(al::entity_id.eq_any(games_of)))
                .or(al::entity
                    .eq(AuditEntity::Competition)
                    .and(al::entity_id.eq(competition)))
                .or(al::entity
                    .eq(AuditEntity::Entrant)
                    .and(al::entity_id.eq_any(entrants_of))),
            )
        };
        Ok(crate::page_of!(c, of_competition(), order: al::id, rows: AuditEntry, limit, offset))
    })
}
