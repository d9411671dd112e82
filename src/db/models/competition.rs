//! Seasons, calendar evenings, competitions, entrants, rounds, games, attendance and the audit
//! log. JSON-shaped settings (parameters, tie-break lists, time controls, rule flags) are
//! stored as text and owned by the services that read them.

use crate::db::schema::{
    attendance, audit_log, cache_stamps, competitions, entrants, evenings, games, rounds, seasons,
};
use crate::db::{DbConn, MultiBackend};
use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

/// A season.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = seasons, check_for_backend(MultiBackend))]
pub struct Season {
    pub id: i64,
    pub name: String,
    pub opening_date: NaiveDate,
    pub created_at: NaiveDateTime,
}

/// Insert form.
#[derive(Debug, Insertable)]
#[diesel(table_name = seasons)]
pub struct NewSeason {
    pub name: String,
    pub opening_date: NaiveDate,
    pub created_at: NaiveDateTime,
}

/// An evening of the season calendar.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = evenings, check_for_backend(MultiBackend))]
pub struct Evening {
    pub id: i64,
    pub season_id: i64,
    pub date: NaiveDate,
    pub start_time: String,
    pub kind: String,
    pub half: Option<String>,
    pub number: Option<i32>,
    pub note: Option<String>,
    pub version: i64,
}

/// Insert form.
#[derive(Debug, Insertable)]
#[diesel(table_name = evenings)]
pub struct NewEvening {
    pub season_id: i64,
    pub date: NaiveDate,
    pub start_time: String,
    pub kind: String,
    pub half: Option<String>,
    pub number: Option<i32>,
    pub note: Option<String>,
    pub version: i64,
}

/// A competition.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = competitions, check_for_backend(MultiBackend))]
pub struct Competition {
    pub id: i64,
    pub season_id: i64,
    pub name: String,
    pub kind: String,
    pub discipline: String,
    pub system: Option<String>,
    pub half: Option<String>,
    pub seeded_from: Option<i64>,
    pub params: String,
    pub tiebreaks: String,
    pub time_control: String,
    pub rules: String,
    pub rounds_planned: Option<i32>,
    pub version: i64,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// Insert form.
#[derive(Debug, Insertable)]
#[diesel(table_name = competitions)]
pub struct NewCompetition {
    pub season_id: i64,
    pub name: String,
    pub kind: String,
    pub discipline: String,
    pub system: Option<String>,
    pub half: Option<String>,
    pub seeded_from: Option<i64>,
    pub params: String,
    pub tiebreaks: String,
    pub time_control: String,
    pub rules: String,
    pub rounds_planned: Option<i32>,
    pub version: i64,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// An entrant of a competition.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = entrants, check_for_backend(MultiBackend))]
pub struct Entrant {
    pub id: i64,
    pub competition_id: i64,
    pub player_id: i64,
    pub seed: i32,
    pub rating: Option<i32>,
    pub joins_at: i32,
    pub excused_before: i32,
    pub created_at: NaiveDateTime,
    /// The first round the entrant no longer plays after withdrawing (`None`: not withdrawn).
    pub withdrawn_from: Option<i32>,
}

/// Insert form.
#[derive(Debug, Insertable)]
#[diesel(table_name = entrants)]
pub struct NewEntrant {
    pub competition_id: i64,
    pub player_id: i64,
    pub seed: i32,
    pub rating: Option<i32>,
    pub joins_at: i32,
    pub excused_before: i32,
    pub created_at: NaiveDateTime,
}

/// A round (an evening of a competition).
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = rounds, check_for_backend(MultiBackend))]
pub struct Round {
    pub id: i64,
    pub competition_id: i64,
    pub number: i32,
    pub evening_id: Option<i64>,
    pub date: Option<NaiveDate>,
    pub status: String,
    pub pairing_meta: Option<String>,
    pub version: i64,
    pub updated_at: NaiveDateTime,
}

/// Insert form.
#[derive(Debug, Insertable)]
#[diesel(table_name = rounds)]
pub struct NewRound {
    pub competition_id: i64,
    pub number: i32,
    pub evening_id: Option<i64>,
    pub date: Option<NaiveDate>,
    pub status: String,
    pub pairing_meta: Option<String>,
    pub version: i64,
    pub updated_at: NaiveDateTime,
}

/// A game (or a bye: `black_id` empty and result `bye`).
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = games, check_for_backend(MultiBackend))]
pub struct Game {
    pub id: i64,
    pub round_id: i64,
    pub board: i32,
    pub game_no: i32,
    pub white_id: Option<i64>,
    pub black_id: Option<i64>,
    pub result: Option<String>,
    pub termination: Option<String>,
    pub move_count: Option<i32>,
    pub version: i64,
    pub updated_at: NaiveDateTime,
}

/// Insert form.
#[derive(Debug, Insertable)]
#[diesel(table_name = games)]
pub struct NewGame {
    pub round_id: i64,
    pub board: i32,
    pub game_no: i32,
    pub white_id: Option<i64>,
    pub black_id: Option<i64>,
    pub result: Option<String>,
    pub termination: Option<String>,
    pub move_count: Option<i32>,
    pub version: i64,
    pub updated_at: NaiveDateTime,
}

/// One attendance record (history is kept: the newest record per player counts).
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = attendance, check_for_backend(MultiBackend))]
pub struct Attendance {
    pub id: i64,
    pub round_id: i64,
    pub player_id: i64,
    pub action: String,
    pub channel: String,
    pub recorded_by: String,
    pub at: NaiveDateTime,
    pub note: Option<String>,
}

/// Insert form.
#[derive(Debug, Insertable)]
#[diesel(table_name = attendance)]
pub struct NewAttendance {
    pub round_id: i64,
    pub player_id: i64,
    pub action: String,
    pub channel: String,
    pub recorded_by: String,
    pub at: NaiveDateTime,
    pub note: Option<String>,
}

/// An audit entry.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = audit_log, check_for_backend(MultiBackend))]
pub struct AuditEntry {
    pub id: i64,
    pub entity: String,
    pub entity_id: i64,
    pub action: String,
    pub actor: String,
    pub at: NaiveDateTime,
    pub old_value: Option<String>,
    pub new_value: Option<String>,
    pub reason: Option<String>,
}

/// Insert form.
#[derive(Debug, Insertable)]
#[diesel(table_name = audit_log)]
pub struct NewAuditEntry {
    pub entity: String,
    pub entity_id: i64,
    pub action: String,
    pub actor: String,
    pub at: NaiveDateTime,
    pub old_value: Option<String>,
    pub new_value: Option<String>,
    pub reason: Option<String>,
}

/// Writes an audit entry.
pub fn audit(conn: &mut DbConn, e: &NewAuditEntry) -> QueryResult<()> {
    diesel::insert_into(audit_log::table)
        .values(e)
        .execute(conn)
        .map(|_| ())
}

/// Audit entries of an entity, oldest first.
pub fn audit_of(conn: &mut DbConn, entity: &str, ids: &[i64]) -> QueryResult<Vec<AuditEntry>> {
    audit_log::table
        .filter(audit_log::entity.eq(entity))
        .filter(audit_log::entity_id.eq_any(ids))
        .order(audit_log::id)
        .select(AuditEntry::as_select())
        .load(conn)
}

/// The withdrawn entrants of a competition: player id → the first round they no longer play.
pub fn withdrawals(
    conn: &mut DbConn,
    competition: i64,
) -> QueryResult<std::collections::HashMap<i64, i32>> {
    Ok(entrants::table
        .filter(entrants::competition_id.eq(competition))
        .filter(entrants::withdrawn_from.is_not_null())
        .select((entrants::player_id, entrants::withdrawn_from))
        .load::<(i64, Option<i32>)>(conn)?
        .into_iter()
        .filter_map(|(p, w)| w.map(|w| (p, w)))
        .collect())
}

/// The current cache stamp of a scope (0 when never written). Run on the concrete backend
/// connection, so the prepared statement is cached (every read of the standings asks).
pub fn stamp(conn: &mut DbConn, scope: &str) -> QueryResult<i64> {
    Ok(crate::per_backend!(conn, |c| cache_stamps::table
        .find(scope)
        .select(cache_stamps::stamp)
        .first::<i64>(c)
        .optional())?
    .unwrap_or(0))
}
