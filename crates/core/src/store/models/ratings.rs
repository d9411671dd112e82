//! `ratings`: rating history per player and source (docs/rules/README.md#players-and-ratings): one value per list date.

use crate::ids::{PlayerId, RatingId};
use crate::store::schema::ratings;
use crate::store::{DbConn, MultiBackend};
use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

/// A stored rating.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = ratings, check_for_backend(MultiBackend))]
pub struct Rating {
    /// The rating's id.
    pub id: RatingId,
    /// The player it belongs to.
    pub player_id: PlayerId,
    /// The list it comes from.
    pub source: crate::vocab::RatingSource,
    /// The rating.
    pub value: i32,
    /// The date of the list.
    pub list_date: NaiveDate,
    /// When it was stored (UTC).
    pub created_at: NaiveDateTime,
    /// When it was changed last (UTC).
    pub updated_at: NaiveDateTime,
}

/// Insert form.
#[derive(Debug, Insertable)]
#[diesel(table_name = ratings)]
pub struct NewRating {
    pub player_id: PlayerId,
    pub source: crate::vocab::RatingSource,
    pub value: i32,
    pub list_date: NaiveDate,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// What writing one rating did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RatingWrite {
    /// A new row.
    Inserted,
    /// The value of an existing row changed.
    Updated,
    /// The same value was already stored.
    Unchanged,
}

/// Writes one rating for (player, source, list date); idempotent.
pub fn put(conn: &mut DbConn, new: &NewRating) -> QueryResult<RatingWrite> {
    let existing: Option<Rating> = ratings::table
        .filter(ratings::player_id.eq(new.player_id))
        .filter(ratings::source.eq(new.source))
        .filter(ratings::list_date.eq(new.list_date))
        .select(Rating::as_select())
        .first(conn)
        .optional()?;
    match existing {
        Some(r) if r.value == new.value => Ok(RatingWrite::Unchanged),
        Some(r) => {
            diesel::update(ratings::table.find(r.id))
                .set((
                    ratings::value.eq(new.value),
                    ratings::updated_at.eq(new.updated_at),
                ))
                .execute(conn)?;
            Ok(RatingWrite::Updated)
        }
        None => {
            diesel::insert_into(ratings::table)
                .values(new)
                .execute(conn)?;
            Ok(RatingWrite::Inserted)
        }
    }
}

/// A player's rating history, newest list first, optionally of one source.
pub fn history(
    conn: &mut DbConn,
    player: PlayerId,
    source: Option<crate::vocab::RatingSource>,
) -> QueryResult<Vec<Rating>> {
    let mut q = ratings::table
        .filter(ratings::player_id.eq(player))
        .into_boxed::<MultiBackend>();
    if let Some(s) = source {
        q = q.filter(ratings::source.eq(s));
    }
    q.order((ratings::list_date.desc(), ratings::source))
        .select(Rating::as_select())
        .load(conn)
}

/// A page of a player's rating history (newest list first, then source, then id), optionally
/// of one source, and how many entries it has in all.
pub fn history_page(
    conn: &mut DbConn,
    player: PlayerId,
    source: Option<crate::vocab::RatingSource>,
    limit: i64,
    offset: i64,
) -> QueryResult<(Vec<Rating>, i64)> {
    let build = || {
        let mut q = ratings::table
            .filter(ratings::player_id.eq(player))
            .into_boxed::<MultiBackend>();
        if let Some(s) = source {
            q = q.filter(ratings::source.eq(s));
        }
        q
    };
    let total = build().count().get_result(conn)?;
    let rows = build()
        .order((ratings::list_date.desc(), ratings::source, ratings::id))
        .limit(limit)
        .offset(offset)
        .select(Rating::as_select())
        .load(conn)?;
    Ok((rows, total))
}

/// The rating on date `d`: the newest list with list date ≤ `d` (docs/rules/README.md#players-and-ratings).
pub fn on_date(
    conn: &mut DbConn,
    player: PlayerId,
    source: crate::vocab::RatingSource,
    d: NaiveDate,
) -> QueryResult<Option<Rating>> {
    ratings::table
        .filter(ratings::player_id.eq(player))
        .filter(ratings::source.eq(source))
        .filter(ratings::list_date.le(d))
        .order(ratings::list_date.desc())
        .select(Rating::as_select())
        .first(conn)
        .optional()
}

/// The newest rating per source for each of `players` (for list views).
pub fn latest_for(conn: &mut DbConn, players: &[PlayerId]) -> QueryResult<Vec<Rating>> {
    let mut out: Vec<Rating> = Vec::new();
    for chunk in players.chunks(500) {
        let rows: Vec<Rating> = ratings::table
            .filter(ratings::player_id.eq_any(chunk))
            .order((
                ratings::player_id,
                ratings::source,
                ratings::list_date.desc(),
            ))
            .select(Rating::as_select())
            .load(conn)?;
        for r in rows {
            if out
                .last()
                .is_none_or(|l| l.player_id != r.player_id || l.source != r.source)
            {
                out.push(r);
            }
        }
    }
    Ok(out)
}
