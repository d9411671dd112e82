//! Rounds and their games: the status machine `planned → paired → published → completed`
//! (docs/rules/README.md) with atomic transitions, so two concurrent writers cannot both move a round.

use crate::error::{ApiError, ApiResult};
use crate::ids::{CompetitionId, EveningId, RoundId};
use crate::store::DbConn;
use crate::store::models::competition::{Game, Round};
use crate::store::models::events::{EventKind, NewEvent, Visibility};
use crate::store::now_utc;
use crate::store::schema::{games, rounds};
use crate::store::stamps::Scope;
use diesel::prelude::*;

/// Termination word for a game lost by an arbiter's decision (Keizer, docs/rules/keizer.md#scoring).
pub const ARBITER_DECISION: &str = "arbiter_decision";

pub use crate::vocab::RoundStatus;

/// Loads round `number` of a competition or 404.
pub fn load(c: &mut DbConn, competition: CompetitionId, number: i32) -> ApiResult<Round> {
    rounds::table
        .filter(rounds::competition_id.eq(competition))
        .filter(rounds::number.eq(number))
        .select(Round::as_select())
        .first(c)
        .optional()?
        .ok_or_else(|| {
            ApiError::NotFound(format!("competition {competition} has no round {number}"))
        })
}

/// All rounds of a competition by number.
pub fn list(c: &mut DbConn, competition: CompetitionId) -> ApiResult<Vec<Round>> {
    Ok(rounds::table
        .filter(rounds::competition_id.eq(competition))
        .order(rounds::number)
        .select(Round::as_select())
        .load(c)?)
}

/// The rounds of a competition by number whose status is one of `statuses` (every round
/// when it is empty).
pub fn list_in(
    c: &mut DbConn,
    competition: CompetitionId,
    statuses: &[RoundStatus],
) -> ApiResult<Vec<Round>> {
    if statuses.is_empty() {
        return list(c, competition);
    }
    Ok(rounds::table
        .filter(rounds::competition_id.eq(competition))
        .filter(rounds::status.eq_any(statuses.to_vec()))
        .order(rounds::number)
        .select(Round::as_select())
        .load(c)?)
}

/// How many games a round has, on how many boards, and how many of them have a result.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GameCounts {
    /// Boards (a two-game pairing is one board).
    pub boards: i64,
    /// Games, byes included.
    pub games: i64,
    /// Games with a result entered.
    pub results: i64,
}

/// The [`GameCounts`] of rounds `ids`, by round, in one query (rounds without games absent).
pub fn game_counts(
    c: &mut DbConn,
    ids: &[RoundId],
) -> ApiResult<std::collections::HashMap<RoundId, GameCounts>> {
    use diesel::dsl::{count, count_star};
    let rows: Vec<(RoundId, i64, i64, i64)> = games::table
        .filter(games::round_id.eq_any(ids.to_vec()))
        .group_by(games::round_id)
        .select((
            games::round_id,
            count(games::board).aggregate_distinct(),
            count_star(),
            count(games::result),
        ))
        .load(c)?;
    Ok(rows
        .into_iter()
        .map(|(id, boards, games, results)| {
            (
                id,
                GameCounts {
                    boards,
                    games,
                    results,
                },
            )
        })
        .collect())
}

/// The games of a round by board and game number.
pub fn games_of(c: &mut DbConn, round: RoundId) -> ApiResult<Vec<Game>> {
    Ok(games::table
        .filter(games::round_id.eq(round))
        .order((games::board, games::game_no))
        .select(Game::as_select())
        .load(c)?)
}

/// Moves a round from `from` to `to` atomically (a conditional update): when another request
/// moved it first, or it is in another state, the answer is 409 naming the current status.
pub fn transition(
    c: &mut DbConn,
    round: &Round,
    from: RoundStatus,
    to: RoundStatus,
) -> ApiResult<()> {
    let n = crate::services::round_rows::move_round_status(c, round.id, from, to)?;
    if n == 0 {
        let current: RoundStatus = rounds::table
            .find(round.id)
            .select(rounds::status)
            .first(c)?;
        return Err(ApiError::Conflict(format!(
            "round {} is {current}; it must be {from} to become {to}",
            round.number
        )));
    }
    crate::store::stamps::touch(c, Scope::Competition(round.competition_id))?;
    let event = match (from, to) {
        (RoundStatus::Paired, RoundStatus::Published) => {
            Some((EventKind::PairingPublished, Visibility::Public))
        }
        (RoundStatus::Published, RoundStatus::Completed) => {
            Some((EventKind::RoundCompleted, Visibility::Public))
        }
        // only an unpublished pairing is taken back: the public never saw it
        (RoundStatus::Paired, RoundStatus::Planned) => {
            Some((EventKind::PairingWithdrawn, Visibility::Leader))
        }
        _ => None,
    };
    if let Some((kind, visibility)) = event {
        crate::store::stamps::record(c, round_event(round, kind, visibility))?;
    }
    Ok(())
}

/// An event about round `round` (its competition, evening and number).
pub fn round_event(round: &Round, kind: EventKind, visibility: Visibility) -> NewEvent {
    NewEvent::new(kind, visibility)
        .competition(round.competition_id)
        .evening(round.evening_id)
        .payload(serde_json::json!({"round": round.number}))
}

/// Whether a round holds the play-off for first of a Swiss (`pairing_meta` with
/// `"playoff": "first"`, see `services::playoff`): it follows the final standings and is not
/// one of their rounds.
pub fn is_playoff_round(r: &Round) -> bool {
    r.pairing_meta
        .as_deref()
        .and_then(|m| serde_json::from_str::<serde_json::Value>(m).ok())
        .is_some_and(|m| m.get("playoff").and_then(|p| p.as_str()) == Some("first"))
}

/// Whether the public may see a round's games (published or completed).
pub fn is_public(status: RoundStatus) -> bool {
    status.is_public()
}

/// Creates a round of competition `id` in the caller's transaction, numbered after the last one
/// unless `number` is given (409 when taken); an evening of another season is refused (422).
/// A Keizer half whose season calendar has evenings of its half takes its rounds from them
/// (409, `services::schedule`).
pub fn create(
    c: &mut DbConn,
    id: CompetitionId,
    number: Option<i32>,
    evening_id: Option<EveningId>,
    mut date: Option<chrono::NaiveDate>,
) -> ApiResult<Round> {
    use crate::store::models::competition::NewRound;
    let comp = crate::services::competitions::load(c, id)?;
    if crate::services::schedule::from_calendar(c, &comp)? {
        return Err(ApiError::Conflict(format!(
            "competition {id} takes its rounds from the keizer evenings of its half in the season calendar; give an evening the kind keizer to add a round"
        )));
    }
    if let Some(e) = evening_id {
        let ev = crate::services::calendar::load_evening(c, e)
            .map_err(|_| ApiError::invalid("evening_id", format!("no evening {e}")))?;
        if ev.season_id != comp.season_id {
            return Err(ApiError::invalid(
                "evening_id",
                "the evening belongs to another season",
            ));
        }
        date = date.or(Some(ev.date));
    }
    // the competition's stamp first: its row lock (Postgres; SQLite holds the write
    // lock already) queues concurrent creations, so each numbers its round after the
    // ones created before it instead of failing on a number taken meanwhile
    crate::store::stamps::touch_now(c, Scope::Competition(id))?;
    let next: i32 = rounds::table
        .filter(rounds::competition_id.eq(id))
        .select(diesel::dsl::max(rounds::number))
        .first::<Option<i32>>(c)?
        .unwrap_or(0)
        + 1;
    let round = crate::services::round_rows::insert_round(
        c,
        &NewRound {
            competition_id: id,
            number: number.unwrap_or(next),
            evening_id,
            date,
            status: RoundStatus::Planned,
            pairing_meta: None,
            version: 1,
            updated_at: now_utc(),
        },
    )
    .map_err(|e| match e {
        ApiError::AlreadyExists { field, .. } => ApiError::AlreadyExists {
            field,
            detail: "number: that round number exists".into(),
        },
        other => other,
    })?;
    Ok(round)
}

/// Publishes paired round `number`: its pairings become public. The round as stored after.
pub fn publish(c: &mut DbConn, competition: CompetitionId, number: i32) -> ApiResult<Round> {
    let round = load(c, competition, number)?;
    transition(c, &round, RoundStatus::Paired, RoundStatus::Published)?;
    load(c, competition, number)
}

/// Completes published round `number` once every game has a result (409 naming the boards
/// still without one). The round as stored after.
pub fn complete(c: &mut DbConn, competition: CompetitionId, number: i32) -> ApiResult<Round> {
    let round = load(c, competition, number)?;
    let missing: Vec<i32> = games_of(c, round.id)?
        .into_iter()
        .filter(|g| g.result.is_none())
        .map(|g| g.board)
        .collect();
    if !missing.is_empty() && round.status == RoundStatus::Published {
        return Err(ApiError::Conflict(format!(
            "results missing on boards {missing:?}"
        )));
    }
    transition(c, &round, RoundStatus::Published, RoundStatus::Completed)?;
    load(c, competition, number)
}
