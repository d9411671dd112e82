//! Reading the event log ([decision 0220](../../../../docs/decisions/0220-event-log.md)): the changes
//! feed's pages, the event stream's reads after a cursor, the reader's clearance from its
//! roles, and the bounded purge of expired events. Events are written by the write transaction
//! (`db::stamps::record`), never here.

use crate::error::{ApiError, ApiResult, FieldError};
use crate::services::credentials::Role;
use crate::store::DbConn;
pub use crate::store::models::events::EventKind;
/// Which events a read selects (the changes feed's and the stream's filter).
pub use crate::store::models::events::Filter;
/// Who may read an event (a reader's clearance).
pub use crate::store::models::events::Visibility;
use crate::store::models::events::{self, EventRow};
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

/// The most events one page of the changes feed holds.
pub const MAX_LIMIT: i64 = 1000;
/// The events one page holds when the reader names no limit.
pub const DEFAULT_LIMIT: i64 = 100;
/// The most expired events one purge deletes.
pub const PURGE_BATCH: i64 = 1000;
/// The longest cursor accepted (digits of an event id).
const MAX_CURSOR_DIGITS: usize = 18;
/// The longest list of event types a filter takes, in characters (the `types` parameter of
/// the changes feed and of the stream, repeated parameters joined by commas).
pub const MAX_TYPES_CHARS: usize = 400;

/// One event as readers see it.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[schema(as = LoggedEvent)]
pub struct EventView {
    /// The event's id: the cursor to resume after it.
    pub id: i64,
    /// What happened (`pairing.published`, `result.entered`, …).
    #[serde(rename = "type")]
    pub kind: crate::vocab::EventType,
    /// When it was recorded (UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    #[schema(value_type = String, format = DateTime)]
    pub occurred_at: DateTime<Utc>,
    /// The competition it concerns.
    #[schema(required = true)]
    pub competition_id: Option<i64>,
    /// The club evening it concerns.
    #[schema(required = true)]
    pub evening_id: Option<i64>,
    /// The game it concerns.
    #[schema(required = true)]
    pub game_id: Option<i64>,
    /// Details (ids and small values; at most 2048 bytes of JSON).
    #[schema(value_type = Object)]
    pub payload: serde_json::Value,
    /// Who may see it: `public`, `arbiter`, `leader` or `admin`.
    pub visibility: crate::vocab::EventVisibility,
}

impl EventView {
    /// The view of a stored event (its payload was stored as a JSON object).
    pub fn of(row: EventRow) -> EventView {
        EventView {
            id: row.id,
            occurred_at: row.occurred_at.and_utc(),
            payload: serde_json::from_str(&row.payload)
                .unwrap_or_else(|_| serde_json::json!({"truncated": true})),
            kind: row.kind,
            competition_id: row.competition_id.map(crate::ids::CompetitionId::get),
            evening_id: row.evening_id.map(crate::ids::EveningId::get),
            game_id: row.game_id.map(crate::ids::GameId::get),
            visibility: row.visibility,
        }
    }
}

/// The highest visibility a caller with `roles` may see (anonymous callers: public).
pub fn clearance(roles: &[Role]) -> Visibility {
    if roles.contains(&Role::Admin) {
        Visibility::Admin
    } else if roles.contains(&Role::Leader) {
        Visibility::Leader
    } else if roles.contains(&Role::Arbiter) {
        Visibility::Arbiter
    } else {
        Visibility::Public
    }
}

/// Reads a cursor (`after`, `Last-Event-ID`): an event id in decimal digits, 0 for the start.
pub fn parse_cursor(field: &str, text: &str) -> ApiResult<i64> {
    let t = text.trim();
    if t.is_empty() || t.len() > MAX_CURSOR_DIGITS || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ApiError::invalid(
            field,
            "must be an event id (decimal digits, 0 for the start of the log)",
        ));
    }
    t.parse()
        .map_err(|_| ApiError::invalid(field, "must be an event id"))
}

/// Reads a comma-separated list of event types (each known, at most one of each), of at most
/// [`MAX_TYPES_CHARS`] characters.
pub fn parse_kinds(field: &str, text: &str) -> ApiResult<Vec<EventKind>> {
    if text.chars().count() > MAX_TYPES_CHARS {
        return Err(ApiError::invalid(
            field,
            format!("at most {MAX_TYPES_CHARS} characters"),
        ));
    }
    let mut out = Vec::new();
    let mut errs = Vec::new();
    for part in text.split(',').map(str::trim) {
        match part.parse::<EventKind>() {
            Ok(k) if !out.contains(&k) => out.push(k),
            Ok(_) => {}
            Err(_) => errs.push(FieldError::new(
                field,
                format!(
                    "unknown event type {:?}; known: {}",
                    part.chars().take(40).collect::<String>(),
                    EventKind::ALL
                        .iter()
                        .map(|k| k.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
        if errs.len() >= 3 {
            break;
        }
    }
    if !errs.is_empty() {
        return Err(ApiError::validation(errs));
    }
    Ok(out)
}

/// Reads a page size: 1 to [`MAX_LIMIT`].
pub fn parse_limit(text: Option<&str>) -> ApiResult<i64> {
    let Some(t) = text else {
        return Ok(DEFAULT_LIMIT);
    };
    match t.trim().parse::<i64>() {
        Ok(n) if (1..=MAX_LIMIT).contains(&n) => Ok(n),
        _ => Err(ApiError::invalid(
            "limit",
            format!("must be a whole number from 1 to {MAX_LIMIT}"),
        )),
    }
}

/// Checks that a reader's cursor names a point of the log: not past its newest event (422
/// naming `field`), and not below events already purged (422: the reader may have missed
/// events and must read the resources again).
pub fn check_cursor(c: &mut DbConn, field: &str, after: i64) -> ApiResult<()> {
    let purged = events::purged_through(c)?;
    let last = events::last_id(c)?.max(purged);
    if after > last {
        return Err(ApiError::invalid(
            field,
            format!("event {after} is ahead of the log (its newest event is {last})"),
        ));
    }
    if after < purged {
        return Err(ApiError::invalid(
            field,
            format!(
                "the events up to {purged} have expired and were removed, so some after \
                 {after} are gone; read the resources again and follow from {purged}"
            ),
        ));
    }
    Ok(())
}

/// One page of the changes feed: the events after `after` that `filter` lets through (at most
/// `limit`), and the cursor to ask with next.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChangesPage {
    /// The events, oldest first.
    pub items: Vec<EventView>,
    /// The cursor of the next page: the last event's id (or `after` when none).
    pub next: String,
}

/// The changes feed after cursor `after` (checked against the log), in one snapshot.
pub fn changes(c: &mut DbConn, after: i64, filter: &Filter, limit: i64) -> ApiResult<ChangesPage> {
    crate::store::snapshot(c, |c| {
        check_cursor(c, "after", after)?;
        let rows = events::after(c, after, filter, limit.clamp(1, MAX_LIMIT))?;
        let next = rows.last().map_or(after, |r| r.id);
        Ok(ChangesPage {
            items: rows.into_iter().map(EventView::of).collect(),
            next: next.to_string(),
        })
    })
}

/// The events after `after` that `filter` lets through, at most `limit` (the stream's read;
/// the cursor was checked when the stream opened).
pub fn read_after(
    c: &mut DbConn,
    after: i64,
    filter: &Filter,
    limit: i64,
) -> ApiResult<Vec<EventView>> {
    Ok(events::after(c, after, filter, limit)?
        .into_iter()
        .map(EventView::of)
        .collect())
}

/// The newest event id (0 when none): where a stream without a cursor starts.
pub fn newest(c: &mut DbConn) -> ApiResult<i64> {
    Ok(events::last_id(c)?.max(events::purged_through(c)?))
}

/// Where a stream starts in the log: after `cursor` (the field that named it, and the event
/// id) when there is one, checked first ([`check_cursor`]); else after the newest event.
/// `start_reader` starts the process's reader of the log on the same connection, after the
/// check and before the newest event is read.
pub fn stream_start(
    c: &mut DbConn,
    cursor: Option<(&str, i64)>,
    start_reader: impl FnOnce(&mut DbConn) -> ApiResult<()>,
) -> ApiResult<i64> {
    if let Some((field, after)) = cursor {
        check_cursor(c, field, after)?;
    }
    start_reader(c)?;
    match cursor {
        Some((_, after)) => Ok(after),
        None => newest(c),
    }
}

/// Deletes at most [`PURGE_BATCH`] events older than `retention` (its own transaction);
/// returns how many.
pub fn purge_expired(c: &mut DbConn, retention: chrono::Duration) -> ApiResult<usize> {
    let before = crate::store::now_utc() - retention;
    Ok(events::purge(c, before, PURGE_BATCH)?)
}

/// A Postgres connection listening on the event channel (`LISTEN`): it hears that any
/// instance recorded events, so the stream's reader reads the log without waiting for its poll.
pub struct Listener(diesel::PgConnection);

impl std::fmt::Debug for Listener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Listener")
    }
}

impl Listener {
    /// Connects to the Postgres database at `conn_str` and listens on the event channel; the
    /// driver's message when it cannot.
    pub fn open(conn_str: &str) -> Result<Listener, String> {
        use diesel::{Connection, RunQueryDsl};
        let mut c = diesel::PgConnection::establish(conn_str).map_err(|e| e.to_string())?;
        diesel::sql_query(format!("LISTEN {}", events::CHANNEL))
            .execute(&mut c)
            .map_err(|e| e.to_string())?;
        Ok(Listener(c))
    }

    /// Whether a notification arrived since the last call (all that arrived are taken); the
    /// driver's message when the connection failed (it is of no further use then).
    pub fn news(&mut self) -> Result<bool, String> {
        let mut heard = false;
        for n in self.0.notifications_iter() {
            match n {
                Ok(_) => heard = true,
                Err(e) => return Err(e.to_string()),
            }
        }
        Ok(heard)
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_are_event_ids() {
        assert_eq!(parse_cursor("after", "0").unwrap(), 0);
        assert_eq!(parse_cursor("after", " 42 ").unwrap(), 42);
        for bad in ["", "-1", "4x", "1e3", "9999999999999999999"] {
            let e = parse_cursor("after", bad).unwrap_err();
            assert!(e.to_string().starts_with("after:"), "{bad}: {e}");
        }
    }

    #[test]
    fn types_are_known_kinds_once_each() {
        assert_eq!(
            parse_kinds("types", "result.entered, result.corrected,result.entered").unwrap(),
            vec![EventKind::ResultEntered, EventKind::ResultCorrected]
        );
        let e = parse_kinds("types", "result.entered,results").unwrap_err();
        assert!(
            e.to_string()
                .contains("types: unknown event type \"results\""),
            "{e}"
        );
    }

    #[test]
    fn a_page_holds_one_to_a_thousand_events() {
        assert_eq!(parse_limit(None).unwrap(), 100);
        assert_eq!(parse_limit(Some("1")).unwrap(), 1);
        assert_eq!(parse_limit(Some("1000")).unwrap(), 1000);
        for bad in ["0", "1001", "ten", "-5"] {
            assert!(parse_limit(Some(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_highest_role_sets_the_clearance() {
        assert_eq!(clearance(&[]), Visibility::Public);
        assert_eq!(clearance(&[Role::Member]), Visibility::Public);
        assert_eq!(clearance(&[Role::RatingSync]), Visibility::Public);
        assert_eq!(clearance(&[Role::Arbiter]), Visibility::Arbiter);
        assert_eq!(
            clearance(&[Role::Arbiter, Role::Leader]),
            Visibility::Leader
        );
        assert_eq!(clearance(&[Role::Admin]), Visibility::Admin);
    }
}
