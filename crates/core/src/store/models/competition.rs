//! Seasons, calendar evenings, competitions, entrants, rounds, games, attendance and the audit
//! log. JSON-shaped settings (parameters, tie-break lists, time controls, rule flags) are
//! stored as text and owned by the services that read them.

use crate::ids::{
    AttendanceId, CompetitionId, EntrantId, EveningId, GameId, PlayerId, RoundId, SeasonId,
};
use crate::store::schema::{
    attendance, audit_log, cache_stamps, competitions, entrants, evenings, games, rounds, seasons,
};
use crate::store::{DbConn, MultiBackend};
use crate::vocab::RoundStatus;
use chrono::{NaiveDate, NaiveDateTime};
use clubcomp_engine::{
    CompetitionKind, Discipline, EveningKind, Half, PairingSystem, UnknownValue,
};
use diesel::backend::Backend;
use diesel::prelude::*;

/// Reads `$typed` as `$row` is read (same columns, same select), then converts it with
/// `TryFrom`: a value that does not convert fails the query with the conversion's error.
macro_rules! typed_row {
    ($typed:ident, $row:ident) => {
        impl<DB: Backend> Selectable<DB> for $typed
        where
            $row: Selectable<DB>,
        {
            type SelectExpression = <$row as Selectable<DB>>::SelectExpression;

            fn construct_selection() -> Self::SelectExpression {
                $row::construct_selection()
            }
        }

        impl<ST, DB: Backend> Queryable<ST, DB> for $typed
        where
            $row: Queryable<ST, DB>,
        {
            type Row = <$row as Queryable<ST, DB>>::Row;

            fn build(row: Self::Row) -> diesel::deserialize::Result<$typed> {
                Ok($typed::try_from($row::build(row)?)?)
            }
        }
    };
}

/// A season.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = seasons, check_for_backend(MultiBackend))]
pub struct Season {
    /// The season's id.
    pub id: SeasonId,
    /// Its name (`2026-2027`).
    pub name: String,
    /// The opening evening's date.
    pub opening_date: NaiveDate,
    /// When it was created (UTC).
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

/// An evening of the season calendar as stored: kind and half as text.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = evenings, check_for_backend(MultiBackend))]
pub struct EveningRow {
    pub id: EveningId,
    pub season_id: SeasonId,
    pub date: NaiveDate,
    pub start_time: String,
    pub kind: String,
    pub half: Option<String>,
    pub number: Option<i32>,
    pub note: Option<String>,
    pub version: i64,
}

/// An evening of the season calendar, its kind and half parsed once when the row is read (a
/// stored value that names no known one fails the query).
#[derive(Debug, Clone, Identifiable)]
#[diesel(table_name = evenings)]
pub struct Evening {
    /// The evening's id.
    pub id: EveningId,
    /// The season it belongs to.
    pub season_id: SeasonId,
    /// Its date (club time).
    pub date: NaiveDate,
    /// Its start time, `HH:MM` in club time.
    pub start_time: String,
    /// What is played (Keizer, rapid, blitz, a holiday, …).
    pub kind: EveningKind,
    /// The Keizer half it counts for, if any.
    pub half: Option<Half>,
    /// Its number within its kind, if numbered.
    pub number: Option<i32>,
    /// A note shown with it.
    pub note: Option<String>,
    /// Raised by every change (the `ETag`).
    pub version: i64,
}

impl TryFrom<EveningRow> for Evening {
    type Error = UnknownValue;

    fn try_from(r: EveningRow) -> Result<Evening, UnknownValue> {
        Ok(Evening {
            id: r.id,
            season_id: r.season_id,
            date: r.date,
            start_time: r.start_time,
            kind: r.kind.parse()?,
            half: r.half.as_deref().map(str::parse).transpose()?,
            number: r.number,
            note: r.note,
            version: r.version,
        })
    }
}

typed_row!(Evening, EveningRow);

/// Insert form.
#[derive(Debug, Insertable)]
#[diesel(table_name = evenings)]
pub struct NewEvening {
    pub season_id: SeasonId,
    pub date: NaiveDate,
    pub start_time: String,
    pub kind: String,
    pub half: Option<String>,
    pub number: Option<i32>,
    pub note: Option<String>,
    pub version: i64,
}

/// A competition as stored: kind, discipline, system and half as text.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = competitions, check_for_backend(MultiBackend))]
pub struct CompetitionRow {
    pub id: CompetitionId,
    pub season_id: SeasonId,
    pub name: String,
    pub kind: String,
    pub discipline: String,
    pub system: Option<String>,
    pub half: Option<String>,
    pub seeded_from: Option<CompetitionId>,
    pub params: String,
    pub tiebreaks: String,
    pub time_control: String,
    pub rules: String,
    pub rounds_planned: Option<i32>,
    pub version: i64,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// A competition, its vocabulary parsed once when the row is read: a stored kind,
/// discipline, system or half that names no known value fails the query (an internal
/// error naming the value), never a default.
#[derive(Debug, Clone, Identifiable)]
#[diesel(table_name = competitions)]
pub struct Competition {
    /// The competition's id.
    pub id: CompetitionId,
    /// The season it belongs to.
    pub season_id: SeasonId,
    /// Its name.
    pub name: String,
    /// Keizer, Swiss, round robin, knockout or blitz.
    pub kind: CompetitionKind,
    /// Chess or draughts.
    pub discipline: Discipline,
    /// The pairing system of a Swiss.
    pub system: Option<PairingSystem>,
    /// The Keizer half, for a Keizer competition.
    pub half: Option<Half>,
    /// The competition whose final order seeds this one (the summer half from the winter).
    pub seeded_from: Option<CompetitionId>,
    /// The kind's parameters as JSON text, decoded by `services::competitions::CompetitionParams`.
    pub params: String,
    /// The tie-break names in order, as JSON text.
    pub tiebreaks: String,
    /// The tempo as JSON text.
    pub time_control: String,
    /// The rule flags as JSON text (`{"quickplay_finish": false}`).
    pub rules: String,
    /// The number of rounds, once known.
    pub rounds_planned: Option<i32>,
    /// Raised by every change (the `ETag`).
    pub version: i64,
    /// When it was created (UTC).
    pub created_at: NaiveDateTime,
    /// When it was changed last (UTC).
    pub updated_at: NaiveDateTime,
}

impl TryFrom<CompetitionRow> for Competition {
    type Error = UnknownValue;

    fn try_from(r: CompetitionRow) -> Result<Competition, UnknownValue> {
        Ok(Competition {
            id: r.id,
            season_id: r.season_id,
            name: r.name,
            kind: r.kind.parse()?,
            discipline: r.discipline.parse()?,
            system: r.system.as_deref().map(str::parse).transpose()?,
            half: r.half.as_deref().map(str::parse).transpose()?,
            seeded_from: r.seeded_from,
            params: r.params,
            tiebreaks: r.tiebreaks,
            time_control: r.time_control,
            rules: r.rules,
            rounds_planned: r.rounds_planned,
            version: r.version,
            created_at: r.created_at,
            updated_at: r.updated_at,
        })
    }
}

impl Competition {
    /// The pairing system's name, or the kind's for a competition without a system.
    pub fn system_or_kind(&self) -> &'static str {
        self.system
            .map_or(self.kind.as_str(), PairingSystem::as_str)
    }
}

typed_row!(Competition, CompetitionRow);

/// Insert form.
#[derive(Debug, Insertable)]
#[diesel(table_name = competitions)]
pub struct NewCompetition {
    pub season_id: SeasonId,
    pub name: String,
    pub kind: String,
    pub discipline: String,
    pub system: Option<String>,
    pub half: Option<String>,
    pub seeded_from: Option<CompetitionId>,
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
    pub id: EntrantId,
    pub competition_id: CompetitionId,
    pub player_id: PlayerId,
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
    pub competition_id: CompetitionId,
    pub player_id: PlayerId,
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
    pub id: RoundId,
    pub competition_id: CompetitionId,
    pub number: i32,
    pub evening_id: Option<EveningId>,
    pub date: Option<NaiveDate>,
    pub status: RoundStatus,
    pub pairing_meta: Option<String>,
    pub version: i64,
    pub updated_at: NaiveDateTime,
}

/// Insert form.
#[derive(Debug, Insertable)]
#[diesel(table_name = rounds)]
pub struct NewRound {
    pub competition_id: CompetitionId,
    pub number: i32,
    pub evening_id: Option<EveningId>,
    pub date: Option<NaiveDate>,
    pub status: RoundStatus,
    pub pairing_meta: Option<String>,
    pub version: i64,
    pub updated_at: NaiveDateTime,
}

/// A game (or a bye: `black_id` empty and result `bye`).
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = games, check_for_backend(MultiBackend))]
pub struct Game {
    pub id: GameId,
    pub round_id: RoundId,
    pub board: i32,
    pub game_no: i32,
    pub white_id: Option<PlayerId>,
    pub black_id: Option<PlayerId>,
    pub result: Option<crate::vocab::ResultCode>,
    pub termination: Option<String>,
    pub move_count: Option<i32>,
    pub version: i64,
    pub updated_at: NaiveDateTime,
    /// The game's own time control (JSON, the competition's shape), agreed for this game;
    /// `None`: the competition's.
    pub time_control: Option<String>,
}

/// Insert form (a new game plays the competition's tempo).
#[derive(Debug, Insertable)]
#[diesel(table_name = games)]
pub struct NewGame {
    pub round_id: RoundId,
    pub board: i32,
    pub game_no: i32,
    pub white_id: Option<PlayerId>,
    pub black_id: Option<PlayerId>,
    pub result: Option<crate::vocab::ResultCode>,
    pub termination: Option<String>,
    pub move_count: Option<i32>,
    pub version: i64,
    pub updated_at: NaiveDateTime,
}

/// One attendance record (history is kept: the newest record per player counts).
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = attendance, check_for_backend(MultiBackend))]
pub struct Attendance {
    pub id: AttendanceId,
    pub round_id: RoundId,
    pub player_id: PlayerId,
    pub action: crate::vocab::ChangeAction,
    pub channel: crate::vocab::ChangeChannel,
    pub recorded_by: String,
    pub at: NaiveDateTime,
    pub note: Option<String>,
}

/// Insert form.
#[derive(Debug, Insertable)]
#[diesel(table_name = attendance)]
pub struct NewAttendance {
    pub round_id: RoundId,
    pub player_id: PlayerId,
    pub action: crate::vocab::ChangeAction,
    pub channel: crate::vocab::ChangeChannel,
    pub recorded_by: String,
    pub at: NaiveDateTime,
    pub note: Option<String>,
}

/// An audit entry.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = audit_log, check_for_backend(MultiBackend))]
pub struct AuditEntry {
    /// The entry's id.
    pub id: i64,
    /// The kind of thing changed (`game`, `round`, `competition`, …).
    pub entity: crate::vocab::AuditEntity,
    /// The id of the thing changed.
    pub entity_id: i64,
    /// What was done (`result_entered`, `pairing_deleted`, …).
    pub action: String,
    /// Who did it (the token's subject).
    pub actor: String,
    /// When (UTC).
    pub at: NaiveDateTime,
    /// The value before, as JSON text.
    pub old_value: Option<String>,
    /// The value after, as JSON text.
    pub new_value: Option<String>,
    /// The reason given, where one is required.
    pub reason: Option<String>,
}

/// Insert form.
#[derive(Debug, Insertable)]
#[diesel(table_name = audit_log)]
pub struct NewAuditEntry {
    pub entity: crate::vocab::AuditEntity,
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
#[cfg_attr(
    not(feature = "test-support"),
    allow(dead_code, reason = "no caller in this crate")
)]
pub fn audit_of(
    conn: &mut DbConn,
    entity: crate::vocab::AuditEntity,
    ids: &[i64],
) -> QueryResult<Vec<AuditEntry>> {
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
    competition: CompetitionId,
) -> QueryResult<std::collections::HashMap<PlayerId, i32>> {
    Ok(entrants::table
        .filter(entrants::competition_id.eq(competition))
        .filter(entrants::withdrawn_from.is_not_null())
        .select((entrants::player_id, entrants::withdrawn_from))
        .load::<(PlayerId, Option<i32>)>(conn)?
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
