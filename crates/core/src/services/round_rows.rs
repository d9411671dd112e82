//! The one writer of the `rounds` and `games` tables. Every service that makes, moves, pairs,
//! scores or removes a round or a game calls these functions in its own transaction; the rules
//! stay with the callers (`rounds`, `pairing`, `results`, `schedule`, `playoff`, …), the rows are
//! written here. The versioned update of a game ([`bump_game_version`]) and a round's status move
//! ([`move_round_status`]) exist once.

use crate::error::{ApiError, ApiResult};
use crate::ids::{CompetitionId, EveningId, GameId, RoundId};
use crate::store::DbConn;
use crate::store::models::competition::{NewGame, NewRound, Round};
use crate::store::now_utc;
use crate::store::schema::{games, rounds};
use crate::vocab::RoundStatus;
use chrono::NaiveDate;
use diesel::prelude::*;

/// Stores a new round and answers it as stored.
pub fn insert_round(c: &mut DbConn, new: &NewRound) -> ApiResult<Round> {
    Ok(diesel::insert_into(rounds::table)
        .values(new)
        .returning(rounds::all_columns)
        .get_result::<Round>(c)?)
}

/// Moves round `id` from status `from` to `to` (raising its version) when it is still in
/// `from`; the number of rows moved (0 when another writer moved it first).
pub fn move_round_status(
    c: &mut DbConn,
    id: RoundId,
    from: RoundStatus,
    to: RoundStatus,
) -> ApiResult<usize> {
    Ok(diesel::update(
        rounds::table
            .filter(rounds::id.eq(id))
            .filter(rounds::status.eq(from)),
    )
    .set((
        rounds::status.eq(to),
        rounds::version.eq(rounds::version + 1),
        rounds::updated_at.eq(now_utc()),
    ))
    .execute(c)?)
}

/// Takes round `number`'s write lock before anything is read (a no-op update of the row): on
/// Postgres a row lock, on SQLite the database write lock, so concurrent writes on one round run
/// one after the other and the later one sees the earlier one's result.
pub fn lock_round(c: &mut DbConn, competition: CompetitionId, number: i32) -> ApiResult<()> {
    diesel::update(
        rounds::table
            .filter(rounds::competition_id.eq(competition))
            .filter(rounds::number.eq(number)),
    )
    .set(rounds::version.eq(rounds::version))
    .execute(c)?;
    Ok(())
}

/// Sets round `id`'s pairing data (`None` removes it), raising its version.
pub fn set_pairing_meta(c: &mut DbConn, id: RoundId, meta: Option<String>) -> ApiResult<()> {
    diesel::update(rounds::table.find(id))
        .set((
            rounds::pairing_meta.eq(meta),
            rounds::version.eq(rounds::version + 1),
            rounds::updated_at.eq(now_utc()),
        ))
        .execute(c)?;
    Ok(())
}

/// Replaces round `id`'s pairing data `old` by `new` only when it still reads `old` (`None` as
/// the empty text); the number of rows changed (0 when another writer changed it meanwhile).
pub fn replace_pairing_meta(
    c: &mut DbConn,
    id: RoundId,
    old: Option<&str>,
    new: &str,
) -> ApiResult<usize> {
    Ok(diesel::update(
        rounds::table
            .filter(rounds::id.eq(id))
            .filter(rounds::pairing_meta.eq(old.unwrap_or_default())),
    )
    .set((
        rounds::pairing_meta.eq(Some(new)),
        rounds::version.eq(rounds::version + 1),
        rounds::updated_at.eq(now_utc()),
    ))
    .execute(c)?)
}

/// Gives round `id` the number `number`. A final number raises the round's version; a number
/// held only on the way to the final one (`final_number == false`) does not.
pub fn renumber_round(
    c: &mut DbConn,
    id: RoundId,
    number: i32,
    final_number: bool,
) -> ApiResult<()> {
    if final_number {
        diesel::update(rounds::table.find(id))
            .set((
                rounds::number.eq(number),
                rounds::version.eq(rounds::version + 1),
                rounds::updated_at.eq(now_utc()),
            ))
            .execute(c)?;
    } else {
        diesel::update(rounds::table.find(id))
            .set(rounds::number.eq(number))
            .execute(c)?;
    }
    Ok(())
}

/// Moves every round on evening `evening` to `date`, raising their versions.
pub fn move_rounds_of_evening(
    c: &mut DbConn,
    evening: EveningId,
    date: NaiveDate,
) -> ApiResult<()> {
    diesel::update(rounds::table.filter(rounds::evening_id.eq(evening)))
        .set((
            rounds::date.eq(date),
            rounds::version.eq(rounds::version + 1),
            rounds::updated_at.eq(now_utc()),
        ))
        .execute(c)?;
    Ok(())
}

/// Removes the rounds `ids` (planned rounds without games).
pub fn delete_rounds(c: &mut DbConn, ids: &[RoundId]) -> ApiResult<()> {
    diesel::delete(rounds::table.filter(rounds::id.eq_any(ids))).execute(c)?;
    Ok(())
}

/// Removes every round on the evenings `evenings` (a calendar being replaced).
pub fn delete_rounds_of_evenings(c: &mut DbConn, evenings: &[EveningId]) -> ApiResult<()> {
    diesel::delete(rounds::table.filter(rounds::evening_id.eq_any(evenings))).execute(c)?;
    Ok(())
}

/// Stores a new game.
pub fn insert_game(c: &mut DbConn, new: &NewGame) -> ApiResult<()> {
    diesel::insert_into(games::table).values(new).execute(c)?;
    Ok(())
}

/// Removes game `id` (an unplayed game a changed play-off no longer holds).
pub fn delete_game(c: &mut DbConn, id: GameId) -> ApiResult<()> {
    diesel::delete(games::table.find(id)).execute(c)?;
    Ok(())
}

/// Removes every game of round `round` (a pairing taken back or replaced).
pub fn delete_games_of_round(c: &mut DbConn, round: RoundId) -> ApiResult<()> {
    diesel::delete(games::table.filter(games::round_id.eq(round))).execute(c)?;
    Ok(())
}

/// Gives every game of round `round` the time control `tempo` (JSON text).
pub fn set_round_games_time_control(c: &mut DbConn, round: RoundId, tempo: &str) -> ApiResult<()> {
    diesel::update(games::table.filter(games::round_id.eq(round)))
        .set(games::time_control.eq(tempo))
        .execute(c)?;
    Ok(())
}

/// Takes game `id`'s write lock before it is read (a no-op update: a row lock on Postgres, the
/// write lock on SQLite): concurrent writers of one game queue, and each reads the game as the
/// previous one left it.
pub fn lock_game(c: &mut DbConn, id: GameId) -> ApiResult<()> {
    diesel::update(games::table.find(id))
        .set(games::version.eq(games::version))
        .execute(c)?;
    Ok(())
}

/// The versioned update of a game, the one place its version moves: raises the version of game
/// `id` from `read` (the version its writer read), or answers 412 when another writer changed
/// the game since. The writer sets its own columns after it, in the same transaction.
pub fn bump_game_version(c: &mut DbConn, id: GameId, read: i64) -> ApiResult<()> {
    let n = diesel::update(
        games::table
            .filter(games::id.eq(id))
            .filter(games::version.eq(read)),
    )
    .set((
        games::version.eq(games::version + 1),
        games::updated_at.eq(now_utc()),
    ))
    .execute(c)?;
    if n == 0 {
        return Err(ApiError::PreconditionFailed(format!(
            "game {id} was changed concurrently; read it again"
        )));
    }
    Ok(())
}

/// Sets game `id`'s result, termination and move count (after [`bump_game_version`]).
pub fn set_game_result(
    c: &mut DbConn,
    id: GameId,
    result: Option<crate::vocab::ResultCode>,
    termination: Option<&str>,
    move_count: Option<i32>,
) -> ApiResult<()> {
    diesel::update(games::table.find(id))
        .set((
            games::result.eq(result),
            games::termination.eq(termination),
            games::move_count.eq(move_count),
        ))
        .execute(c)?;
    Ok(())
}

/// Sets game `id`'s own time control (JSON text; `None`: the competition's), after
/// [`bump_game_version`].
pub fn set_game_time_control(c: &mut DbConn, id: GameId, tempo: Option<&str>) -> ApiResult<()> {
    diesel::update(games::table.find(id))
        .set(games::time_control.eq(tempo))
        .execute(c)?;
    Ok(())
}
