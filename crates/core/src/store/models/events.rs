//! The event log (`events`): what changed, in commit order, for the changes feed and the event
//! stream ([decision 0220](../../../../../docs/decisions/0220-event-log.md)).
//!
//! Services record events with [`crate::store::stamps::record`]; the write transaction
//! ([`crate::store::stamps::write`]) inserts them with [`insert_in_order`] as its last work, so an
//! event commits with its change or not at all.

use crate::ids::{CompetitionId, EveningId, GameId};
use crate::store::DbConn;
use crate::store::schema::{cache_stamps, competitions, events};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde_json::Value;

/// The largest payload stored, in bytes of JSON: a larger one is replaced by
/// `{"truncated": true}` (payloads name ids and small values; the resource holds the rest).
pub const MAX_PAYLOAD_BYTES: usize = 2048;

/// The key of the transaction-scoped advisory lock under which Postgres transactions insert
/// their events (so ids commit in the order they were taken).
pub const EVENT_LOCK_KEY: i64 = 0x636c_7562_6576_7473; // "clubevts"

/// The Postgres channel a commit with events notifies.
pub const CHANNEL: &str = "clubcomp_events";

/// The cache-stamp scope holding the highest event id purged (0: none).
const PURGED_SCOPE: &str = "events:purged";

pub use crate::vocab::{EventType as EventKind, EventVisibility as Visibility};

/// An event to record (its id and time are given when it is stored).
#[derive(Debug, Clone, PartialEq)]
pub struct NewEvent {
    /// What happened.
    pub kind: EventKind,
    /// The competition it concerns.
    pub competition_id: Option<CompetitionId>,
    /// The club evening it concerns.
    pub evening_id: Option<EveningId>,
    /// The game it concerns.
    pub game_id: Option<GameId>,
    /// A small JSON object (at most [`MAX_PAYLOAD_BYTES`]).
    pub payload: Value,
    /// Who may see it.
    pub visibility: Visibility,
}

impl NewEvent {
    /// An event of `kind` seen by `visibility`, with an empty payload and no ids.
    pub fn new(kind: EventKind, visibility: Visibility) -> NewEvent {
        NewEvent {
            kind,
            competition_id: None,
            evening_id: None,
            game_id: None,
            payload: Value::Object(Default::default()),
            visibility,
        }
    }

    /// With the competition it concerns.
    pub fn competition(mut self, id: CompetitionId) -> NewEvent {
        self.competition_id = Some(id);
        self
    }

    /// With the evening it concerns (when there is one).
    pub fn evening(mut self, id: Option<EveningId>) -> NewEvent {
        self.evening_id = id;
        self
    }

    /// With the game it concerns.
    pub fn game(mut self, id: GameId) -> NewEvent {
        self.game_id = Some(id);
        self
    }

    /// With its payload.
    pub fn payload(mut self, payload: Value) -> NewEvent {
        self.payload = payload;
        self
    }
}

/// A stored event.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = events)]
pub struct EventRow {
    /// Its id: the cursor of readers (ids commit in increasing order).
    pub id: i64,
    /// What happened.
    pub kind: EventKind,
    /// When it was stored (UTC).
    pub occurred_at: NaiveDateTime,
    /// The competition it concerns.
    pub competition_id: Option<CompetitionId>,
    /// The evening it concerns.
    pub evening_id: Option<EveningId>,
    /// The game it concerns.
    pub game_id: Option<GameId>,
    /// JSON object text.
    pub payload: String,
    /// Who may see it.
    pub visibility: Visibility,
}

#[derive(Insertable)]
#[diesel(table_name = events)]
struct Insert {
    kind: EventKind,
    occurred_at: NaiveDateTime,
    competition_id: Option<CompetitionId>,
    evening_id: Option<EveningId>,
    game_id: Option<GameId>,
    payload: String,
    visibility: Visibility,
}

/// The ETag of a competition's standings (`GET .../standings`) when its stamp is `stamp` and
/// the stamp of the winter half it is seeded from is `winter`.
pub fn standings_etag(id: CompetitionId, stamp: i64, winter: i64) -> String {
    format!("\"standings-{id}-s{stamp}-w{winter}-alast\"")
}

/// The "standings changed" events of the competitions a write changed: each one's, with its
/// new standings ETag, and those of the summer halves seeded from it (their ETag names the
/// winter's stamp). Read inside the writing transaction, after its stamps were raised.
pub fn standings_events(
    conn: &mut DbConn,
    changed: &[CompetitionId],
) -> QueryResult<Vec<NewEvent>> {
    let mut ids: Vec<CompetitionId> = changed.to_vec();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut summers: Vec<CompetitionId> = competitions::table
        .filter(competitions::seeded_from.eq_any(&ids))
        .select(competitions::id)
        .load(conn)?;
    ids.append(&mut summers);
    ids.sort_unstable();
    ids.dedup();
    let rows: Vec<(CompetitionId, Option<CompetitionId>)> = competitions::table
        .filter(competitions::id.eq_any(&ids))
        .order(competitions::id)
        .select((competitions::id, competitions::seeded_from))
        .load(conn)?;
    let mut out = Vec::with_capacity(rows.len());
    for (id, seeded_from) in rows {
        let stamp = super::competition::stamp(conn, &format!("competition:{id}"))?;
        let winter = match seeded_from {
            Some(w) => super::competition::stamp(conn, &format!("competition:{w}"))?,
            None => 0,
        };
        out.push(
            NewEvent::new(EventKind::StandingsChanged, Visibility::Public)
                .competition(id)
                .payload(serde_json::json!({"etag": standings_etag(id, stamp, winter)})),
        );
    }
    Ok(out)
}

/// Inserts `list` as the last work of the running transaction. On Postgres it first takes the
/// transaction-scoped advisory lock [`EVENT_LOCK_KEY`], held until the commit: two
/// transactions insert their events one after the other and the first commits before the
/// second takes its ids, so ids become visible in increasing order (a reader at cursor `n`
/// never later finds a new event below `n`); then it notifies [`CHANNEL`] (delivered at the
/// commit). SQLite has one writer at a time, which orders them already. Returns the highest id
/// inserted.
pub fn insert_in_order(conn: &mut DbConn, list: &[NewEvent]) -> QueryResult<Option<i64>> {
    if list.is_empty() {
        return Ok(None);
    }
    if let DbConn::Pg(c) = conn {
        diesel::sql_query(format!("SELECT pg_advisory_xact_lock({EVENT_LOCK_KEY})")).execute(c)?;
    }
    let now = crate::store::now_utc();
    let rows: Vec<Insert> = list
        .iter()
        .map(|e| {
            let mut payload = e.payload.to_string();
            if payload.len() > MAX_PAYLOAD_BYTES {
                payload = r#"{"truncated":true}"#.to_string();
            }
            Insert {
                kind: e.kind,
                occurred_at: now,
                competition_id: e.competition_id,
                evening_id: e.evening_id,
                game_id: e.game_id,
                payload,
                visibility: e.visibility,
            }
        })
        .collect();
    let mut last = None;
    for r in rows {
        let id: i64 = diesel::insert_into(events::table)
            .values(&r)
            .returning(events::id)
            .get_result(conn)?;
        last = Some(id);
    }
    if let DbConn::Pg(c) = conn {
        diesel::sql_query(format!("NOTIFY {CHANNEL}")).execute(c)?;
    }
    Ok(last)
}

/// What a reader asks for.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Only these kinds (all when empty).
    pub kinds: Vec<EventKind>,
    /// Only events of this competition.
    pub competition: Option<CompetitionId>,
    /// Only events of this evening.
    pub evening: Option<EveningId>,
    /// The reader's clearance: events up to this visibility.
    pub clearance: Option<Visibility>,
}

/// The events after id `after` that `filter` lets through, oldest first, at most `limit`.
pub fn after(
    conn: &mut DbConn,
    after: i64,
    filter: &Filter,
    limit: i64,
) -> QueryResult<Vec<EventRow>> {
    let mut q = events::table
        .filter(events::id.gt(after))
        .select(EventRow::as_select())
        .order(events::id)
        .limit(limit)
        .into_boxed();
    if !filter.kinds.is_empty() {
        q = q.filter(events::kind.eq_any(filter.kinds.clone()));
    }
    if let Some(c) = filter.competition {
        q = q.filter(events::competition_id.eq(c));
    }
    if let Some(e) = filter.evening {
        q = q.filter(events::evening_id.eq(e));
    }
    let seen = filter.clearance.unwrap_or(Visibility::Public).seen_by();
    q = q.filter(events::visibility.eq_any(seen));
    q.load(conn)
}

/// The highest event id stored (0 when none).
pub fn last_id(conn: &mut DbConn) -> QueryResult<i64> {
    Ok(events::table
        .select(diesel::dsl::max(events::id))
        .first::<Option<i64>>(conn)?
        .unwrap_or(0))
}

/// The highest event id purged (0 when none was): a cursor below it may have missed events.
pub fn purged_through(conn: &mut DbConn) -> QueryResult<i64> {
    super::competition::stamp(conn, PURGED_SCOPE)
}

/// Deletes at most `batch` of the oldest events stored before `before`, in one transaction,
/// and records the highest id deleted; returns how many were deleted.
pub fn purge(conn: &mut DbConn, before: NaiveDateTime, batch: i64) -> QueryResult<usize> {
    conn.transaction(|c| {
        crate::store::take_write_lock(c)?;
        let ids: Vec<i64> = events::table
            .filter(events::occurred_at.lt(before))
            .order(events::id)
            .limit(batch)
            .select(events::id)
            .load(c)?;
        let Some(&top) = ids.last() else {
            return Ok(0);
        };
        let n = diesel::delete(events::table.filter(events::id.le(top))).execute(c)?;
        let updated = diesel::update(cache_stamps::table.find(PURGED_SCOPE))
            .set(cache_stamps::stamp.eq(top))
            .execute(c)?;
        if updated == 0 {
            diesel::insert_into(cache_stamps::table)
                .values((
                    cache_stamps::scope.eq(PURGED_SCOPE),
                    cache_stamps::stamp.eq(top),
                ))
                .execute(c)?;
        }
        Ok(n)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_strings_read_back() {
        for k in EventKind::ALL {
            assert_eq!(k.as_str().parse::<EventKind>(), Ok(*k));
        }
        for v in Visibility::ALL {
            assert_eq!(v.as_str().parse::<Visibility>(), Ok(*v));
        }
        assert_eq!(EventKind::ALL.len(), 14);
        assert!("result".parse::<EventKind>().is_err());
    }

    #[test]
    fn each_role_sees_what_those_below_it_see() {
        use Visibility::{Admin, Arbiter, Leader, Public};
        assert_eq!(Public.seen_by(), vec![Public]);
        assert_eq!(Arbiter.seen_by(), vec![Public, Arbiter]);
        assert_eq!(Leader.seen_by(), vec![Public, Arbiter, Leader]);
        assert_eq!(Admin.seen_by(), vec![Public, Arbiter, Leader, Admin]);
    }

    #[test]
    fn the_standings_etag_is_spelled_as_the_standings_answer() {
        assert_eq!(
            standings_etag(CompetitionId(4), 7, 0),
            "\"standings-4-s7-w0-alast\""
        );
    }
}
