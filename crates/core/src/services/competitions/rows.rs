//! The writes of the `competitions` and `entrants` tables that other services ask for: the rules
//! stay with the caller (closing the blitz sign-up, seeding lots, a withdrawal, the playoffs
//! created from a season's final standings), the rows are written here, by the service that
//! owns the two tables.

use crate::error::ApiResult;
use crate::ids::{CompetitionId, EntrantId, PlayerId};
use crate::store::DbConn;
use crate::store::models::competition::{Competition, NewCompetition, NewEntrant};
use crate::store::now_utc;
use crate::store::schema::{competitions as cm, entrants as en};
use diesel::prelude::*;

/// Stores a new competition and answers it as stored.
pub fn insert_competition(c: &mut DbConn, new: &NewCompetition) -> ApiResult<Competition> {
    Ok(diesel::insert_into(cm::table)
        .values(new)
        .returning(cm::all_columns)
        .get_result::<Competition>(c)?)
}

/// Sets competition `id`'s number of planned rounds, raising its version.
pub fn set_rounds_planned(c: &mut DbConn, id: CompetitionId, rounds: i32) -> ApiResult<()> {
    diesel::update(cm::table.find(id))
        .set((
            cm::rounds_planned.eq(Some(rounds)),
            cm::version.eq(cm::version + 1),
            cm::updated_at.eq(now_utc()),
        ))
        .execute(c)?;
    Ok(())
}

/// Replaces competition `id`'s stored parameters `old` by `new` only when they still read
/// `old`, so that of two first readers one stores its value; the number of rows changed.
pub fn replace_params(c: &mut DbConn, id: CompetitionId, old: &str, new: &str) -> ApiResult<usize> {
    Ok(
        diesel::update(cm::table.filter(cm::id.eq(id)).filter(cm::params.eq(old)))
            .set(cm::params.eq(new))
            .execute(c)?,
    )
}

/// Stores a new entrant.
pub fn insert_entrant(c: &mut DbConn, new: &NewEntrant) -> ApiResult<()> {
    diesel::insert_into(en::table).values(new).execute(c)?;
    Ok(())
}

/// Sets the rating player `player` enters competition `competition` with.
pub fn set_entrant_rating(
    c: &mut DbConn,
    competition: CompetitionId,
    player: PlayerId,
    rating: i32,
) -> ApiResult<()> {
    diesel::update(
        en::table
            .filter(en::competition_id.eq(competition))
            .filter(en::player_id.eq(player)),
    )
    .set(en::rating.eq(Some(rating)))
    .execute(c)?;
    Ok(())
}

/// Records that entrant `id` plays no more from round `from` on.
pub fn set_withdrawn_from(c: &mut DbConn, id: EntrantId, from: i32) -> ApiResult<()> {
    diesel::update(en::table.find(id))
        .set(en::withdrawn_from.eq(Some(from)))
        .execute(c)?;
    Ok(())
}
