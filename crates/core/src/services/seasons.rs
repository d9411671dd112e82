//! Seasons (docs/rules/keizer.md#calendar): created by the leader, read by everyone. The
//! calendar of a season is `calendar.rs`.

use crate::error::{ApiError, ApiResult};
use crate::ids::SeasonId;
use crate::store::DbConn;
use crate::store::models::competition::NewSeason;
/// A stored season: the row is the record.
pub use crate::store::models::competition::Season;
use crate::store::now_utc;
use crate::store::schema::seasons as s;
use chrono::NaiveDate;
use diesel::prelude::*;

/// Loads a season or 404.
pub fn load(c: &mut DbConn, id: SeasonId) -> ApiResult<Season> {
    s::table
        .find(id)
        .select(Season::as_select())
        .first(c)
        .optional()?
        .ok_or_else(|| ApiError::NotFound(format!("no season {id}")))
}

/// Creates a season (the name already checked).
pub fn create(c: &mut DbConn, name: String, opening_date: NaiveDate) -> ApiResult<Season> {
    Ok(diesel::insert_into(s::table)
        .values(&NewSeason {
            name,
            opening_date,
            created_at: now_utc(),
        })
        .returning(s::all_columns)
        .get_result::<Season>(c)?)
}

/// A page of the seasons, newest first (opening date descending, then id descending), and how
/// many there are in all, read in one transaction.
pub fn page(c: &mut DbConn, limit: i64, offset: i64) -> ApiResult<(Vec<Season>, i64)> {
    crate::store::snapshot(c, |c| {
        let total: i64 = s::table.count().get_result(c)?;
        let rows = s::table
            .order((s::opening_date.desc(), s::id.desc()))
            .limit(limit)
            .offset(offset)
            .select(Season::as_select())
            .load(c)?;
        Ok((rows, total))
    })
}
