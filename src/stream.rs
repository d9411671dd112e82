//! The hub of the live event stream (`GET /api/v1/stream`,
//! [decision 0221](../docs/decisions/0221-event-stream.md)): one per process. A single reader
//! thread follows the event log after the highest id it has seen and passes each new event to
//! every open stream through one bounded broadcast channel. It reads when woken: by this
//! process's own commits, by `NOTIFY clubcomp_events` on Postgres (a dedicated `LISTEN`
//! connection, so writes of other instances arrive too; the driver offers no wait on its
//! socket, so the reader asks it every [`LISTEN_POLL`], which costs no query), and by a poll as
//! a safety net (every 250 ms on SQLite, every 5 s on Postgres). The log is the truth: the hub
//! holds no state of its own but the id it read up to, and a stream that falls behind the
//! channel is cut off and resumes from the log by id.
//!
//! The reader starts with the first stream (most processes of the test suite and the command
//! line never open one) and ends when the hub is dropped or closed. [`Hub::close`] (the
//! service's shutdown, [decision 0386](../docs/decisions/0386-shutdown-ends-the-streams.md))
//! ends every open stream at once and refuses new ones.

use crate::database::{Backend, DbConn, DbTarget, Pool};
use crate::error::{ApiError, ApiResult};
use crate::services::events::{self as svc, EventView, Filter, Listener, Visibility};
use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// How often the reader looks for news without being woken on SQLite.
pub const TICK: Duration = Duration::from_millis(250);
/// How often the reader asks its `LISTEN` connection for notifications on Postgres (a
/// look at the connection's input, no query).
pub const LISTEN_POLL: Duration = Duration::from_millis(10);
/// How often the reader reads the log on Postgres without a notification (a safety net for a
/// lost `LISTEN` connection).
pub const PG_POLL: Duration = Duration::from_secs(5);
/// The most events the reader (and a stream replaying the log) reads in one query.
pub const PAGE: i64 = 500;

/// The per-process hub: the broadcast channel, its reader and the count of open streams.
#[derive(Clone)]
pub struct Hub {
    inner: Arc<Inner>,
}

struct Inner {
    tx: broadcast::Sender<Arc<EventView>>,
    /// The highest event id the reader has read and broadcast (0 before it started).
    seen: AtomicI64,
    clients: Mutex<Clients>,
    max_clients: usize,
    shares: Shares,
    /// Wakes the reader; `None` until it started and after the hub closed.
    wake: Mutex<Option<SyncSender<()>>>,
    /// `true` once the hub closed: every stream ends.
    closing: tokio::sync::watch::Sender<bool>,
    pool: Pool,
    backend: Backend,
    conn_str: String,
}

impl std::fmt::Debug for Hub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hub")
            .field("seen", &self.seen())
            .field("clients", &self.clients())
            .field("max_clients", &self.inner.max_clients)
            .finish()
    }
}

/// How the hub shares its `STREAM_MAX_CLIENTS` places
/// ([decision 0258](../docs/decisions/0258-fair-shares-per-address.md)).
#[derive(Debug, Clone, Copy)]
pub struct Shares {
    /// `STREAM_MAX_ANON_PER_ADDRESS`: anonymous streams per client address.
    pub anon_per_address: usize,
    /// `STREAM_SIGNED_IN_SLOTS`: places only a caller with a valid token may take.
    pub signed_in_slots: usize,
}

/// Who opens a stream.
#[derive(Debug, Clone)]
pub enum Caller {
    /// A caller with a valid token.
    SignedIn,
    /// A caller without one, from this address (as `throttle::address_key` names it).
    Anonymous(String),
}

/// The open streams: all of them, the anonymous ones, and those per address.
#[derive(Debug, Default)]
struct Clients {
    total: usize,
    anonymous: usize,
    by_address: HashMap<String, usize>,
}

/// One open stream's place among the [`Hub`]'s clients; frees it when dropped.
#[derive(Debug)]
pub struct ClientSlot {
    hub: Hub,
    /// The address of an anonymous stream.
    address: Option<String>,
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        let mut c = self.hub.counts();
        c.total = c.total.saturating_sub(1);
        if let Some(a) = self.address.take() {
            c.anonymous = c.anonymous.saturating_sub(1);
            if let Some(n) = c.by_address.get_mut(&a) {
                *n -= 1;
                if *n == 0 {
                    c.by_address.remove(&a);
                }
            }
        }
    }
}

impl Hub {
    /// A hub over `pool` (the database at `database_url`) whose channel holds `capacity`
    /// events and which admits `max_clients` open streams, shared as `shares` says.
    pub fn new(
        pool: Pool,
        database_url: &str,
        capacity: usize,
        max_clients: usize,
        shares: Shares,
    ) -> Result<Hub, String> {
        let target = DbTarget::parse(database_url)?;
        let (tx, _) = broadcast::channel(capacity.max(1));
        Ok(Hub {
            inner: Arc::new(Inner {
                tx,
                seen: AtomicI64::new(0),
                clients: Mutex::new(Clients::default()),
                max_clients,
                shares,
                wake: Mutex::new(None),
                closing: tokio::sync::watch::Sender::new(false),
                pool,
                backend: target.backend,
                conn_str: target.conn_str,
            }),
        })
    }

    /// The highest event id broadcast so far.
    pub fn seen(&self) -> i64 {
        self.inner.seen.load(Ordering::Acquire)
    }

    /// The streams open now.
    pub fn clients(&self) -> usize {
        self.counts().total
    }

    fn counts(&self) -> std::sync::MutexGuard<'_, Clients> {
        // the counts are whole after every step, so a panic elsewhere leaves them usable
        self.inner.clients.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A place for one more stream of `caller`: 503 with `Retry-After` when
    /// `STREAM_MAX_CLIENTS` are open, or when only the `STREAM_SIGNED_IN_SLOTS` are left and
    /// the caller has no token; 429 when the caller's address has
    /// `STREAM_MAX_ANON_PER_ADDRESS` anonymous streams open.
    pub fn admit(&self, caller: Caller) -> ApiResult<ClientSlot> {
        let max = self.inner.max_clients;
        let shares = self.inner.shares;
        if self.is_closed() {
            return Err(ApiError::Busy {
                detail: "the service is shutting down; try again on another instance or later"
                    .into(),
                retry_after: 10,
            });
        }
        let mut c = self.counts();
        if c.total >= max {
            return Err(ApiError::Busy {
                detail: format!(
                    "the event stream serves at most {max} clients at once \
                     (STREAM_MAX_CLIENTS); try again later"
                ),
                retry_after: 10,
            });
        }
        let address = match caller {
            Caller::SignedIn => None,
            Caller::Anonymous(address) => {
                let anon_max = max.saturating_sub(shares.signed_in_slots);
                if c.anonymous >= anon_max {
                    return Err(ApiError::Busy {
                        detail: format!(
                            "the event stream's places without a token are taken: the last \
                             {} of its {max} are kept for signed-in callers \
                             (STREAM_SIGNED_IN_SLOTS); try again later or send a token",
                            shares.signed_in_slots
                        ),
                        retry_after: 10,
                    });
                }
                let open = c.by_address.get(&address).copied().unwrap_or(0);
                if open >= shares.anon_per_address {
                    return Err(ApiError::TooManyRequests {
                        detail: format!(
                            "at most {} event streams without a token are open at once from \
                             one address (STREAM_MAX_ANON_PER_ADDRESS); close one first",
                            shares.anon_per_address
                        ),
                        retry_after: 10,
                    });
                }
                c.anonymous += 1;
                *c.by_address.entry(address.clone()).or_insert(0) += 1;
                Some(address)
            }
        };
        c.total += 1;
        drop(c);
        Ok(ClientSlot {
            hub: self.clone(),
            address,
        })
    }

    /// Closes the hub: every open stream ends at once (its last chunk says why), new ones are
    /// refused with 503, and the reader stops.
    pub fn close(&self) {
        self.inner.closing.send_replace(true);
        let taken = match self.inner.wake.lock() {
            Ok(mut w) => w.take(),
            Err(p) => p.into_inner().take(),
        };
        // the reader ends when its wake-up channel is gone
        drop(taken);
    }

    /// Whether the hub is closed.
    pub fn is_closed(&self) -> bool {
        *self.inner.closing.borrow()
    }

    /// A receiver that changes when the hub closes.
    pub fn closing(&self) -> tokio::sync::watch::Receiver<bool> {
        self.inner.closing.subscribe()
    }

    /// A receiver of every event broadcast from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<EventView>> {
        self.inner.tx.subscribe()
    }

    /// Starts the reader unless it runs: it follows the log after its newest event, read now
    /// on `c`. Called after [`Hub::subscribe`], so that every event after the receiver's
    /// start is either in the log when the stream reads it or broadcast to the receiver.
    pub fn ensure_started(&self, c: &mut DbConn) -> ApiResult<()> {
        let mut wake = self
            .inner
            .wake
            .lock()
            .map_err(|_| ApiError::Internal("the stream hub's lock is poisoned".into()))?;
        if wake.is_some() || self.is_closed() {
            return Ok(());
        }
        let from = svc::newest(c)?;
        self.inner.seen.store(from, Ordering::Release);
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        let weak = Arc::downgrade(&self.inner);
        std::thread::Builder::new()
            .name("event-stream-reader".into())
            .spawn(move || read_loop(weak, rx))
            .map_err(|e| ApiError::Internal(format!("cannot start the stream reader: {e}")))?;
        *wake = Some(tx);
        Ok(())
    }

    /// Tells the reader that this process committed a write (it reads the log at once).
    pub fn wake(&self) {
        if let Ok(w) = self.inner.wake.lock()
            && let Some(tx) = w.as_ref()
        {
            match tx.try_send(()) {
                Ok(()) | Err(TrySendError::Full(())) | Err(TrySendError::Disconnected(())) => {}
            }
        }
    }
}

/// The reader: waits for a wake-up, a notification or its poll, then reads and broadcasts
/// every event after the last one it read. Ends when the hub is gone.
fn read_loop(hub: Weak<Inner>, wake: Receiver<()>) {
    let (backend, conn_str) = match hub.upgrade() {
        Some(h) => (h.backend, h.conn_str.clone()),
        None => return,
    };
    let mut listener: Option<Listener> = None;
    let mut last_listen_try: Option<Instant> = None;
    let mut last_read = Instant::now();
    let tick = match backend {
        Backend::Sqlite => TICK,
        Backend::Postgres => LISTEN_POLL,
    };
    loop {
        let mut news = match wake.recv_timeout(tick) {
            Ok(()) => true,
            Err(RecvTimeoutError::Timeout) => false,
            Err(RecvTimeoutError::Disconnected) => return,
        };
        let Some(inner) = hub.upgrade() else { return };
        match backend {
            Backend::Sqlite => news = true,
            Backend::Postgres => {
                if listener.is_none() && last_listen_try.is_none_or(|t| t.elapsed() >= PG_POLL) {
                    last_listen_try = Some(Instant::now());
                    listener = listen(&conn_str);
                    // notifications sent before LISTEN took effect are read by this poll
                    news = true;
                }
                let mut failed = false;
                if let Some(c) = listener.as_mut() {
                    match c.news() {
                        Ok(heard) => news |= heard,
                        Err(e) => {
                            tracing::warn!(error = %e, "the event stream's LISTEN connection failed; polling until it is back");
                            failed = true;
                        }
                    }
                }
                if failed {
                    listener = None;
                    news = true;
                }
                news |= last_read.elapsed() >= PG_POLL;
            }
        }
        if news {
            last_read = Instant::now();
            if let Err(e) = read_news(&inner) {
                tracing::warn!(error = %e, "the event stream could not read the log; trying again");
            }
        }
    }
}

/// A connection listening on the event channel, or `None` (logged) when it cannot be made.
fn listen(conn_str: &str) -> Option<Listener> {
    let made = Listener::open(conn_str);
    match made {
        Ok(c) => Some(c),
        Err(e) => {
            tracing::warn!(error = %e, "the event stream cannot LISTEN; polling instead");
            None
        }
    }
}

/// Reads every event after the hub's mark, page by page, and broadcasts each one.
fn read_news(inner: &Inner) -> ApiResult<()> {
    let everything = Filter {
        clearance: Some(Visibility::Admin),
        ..Filter::default()
    };
    let mut c = inner.pool.get()?;
    loop {
        let after = inner.seen.load(Ordering::Acquire);
        let rows = svc::read_after(&mut c, after, &everything, PAGE)?;
        let full = rows.len() as i64 == PAGE;
        for row in rows {
            let id = row.id;
            // no receiver is no error: the events are in the log
            let _ = inner.tx.send(Arc::new(row));
            inner.seen.store(id, Ordering::Release);
        }
        if !full {
            return Ok(());
        }
    }
}

/// Whether `filter` lets `e` through (the same rules as the log's query, for events the hub
/// broadcast).
pub fn admits(filter: &Filter, e: &EventView) -> bool {
    let kind_ok = filter.kinds.is_empty() || filter.kinds.contains(&e.kind);
    let clearance = filter.clearance.unwrap_or(Visibility::Public);
    let visible = e.visibility <= clearance;
    kind_ok
        && visible
        && filter
            .competition
            .is_none_or(|c| e.competition_id == Some(c.get()))
        && filter.evening.is_none_or(|v| e.evening_id == Some(v.get()))
}

/// One event as a Server-Sent Events message: its id, its type and its JSON (the changes
/// feed's item) on one `data` line.
pub fn message(e: &EventView) -> String {
    let data = serde_json::to_string(e).unwrap_or_else(|_| "{}".into());
    format!("id: {}\nevent: {}\ndata: {data}\n\n", e.id, e.kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::services::events::EventKind;

    fn view(id: i64, kind: &str, vis: &str, comp: Option<i64>) -> EventView {
        EventView {
            id,
            kind: kind.parse().unwrap(),
            occurred_at: chrono::DateTime::from_timestamp(1_800_000_000, 0).unwrap(),
            competition_id: comp,
            evening_id: None,
            game_id: None,
            payload: serde_json::json!({"round": 1}),
            visibility: vis.parse().unwrap(),
        }
    }

    #[test]
    fn a_message_is_id_type_and_one_data_line() {
        let m = message(&view(7, "pairing.published", "public", Some(3)));
        assert_eq!(
            m,
            "id: 7\nevent: pairing.published\ndata: {\"id\":7,\"type\":\"pairing.published\",\
             \"occurred_at\":\"2027-01-15T08:00:00.000000Z\",\"competition_id\":3,\"evening_id\":null,\
             \"game_id\":null,\"payload\":{\"round\":1},\"visibility\":\"public\"}\n\n"
        );
    }

    #[test]
    fn the_filter_admits_what_the_log_query_would() {
        let public = Filter::default();
        let leader = Filter {
            clearance: Some(Visibility::Leader),
            ..Filter::default()
        };
        let secret = view(1, "pairing.generated", "leader", Some(3));
        assert!(!admits(&public, &secret));
        assert!(admits(&leader, &secret));
        assert!(!admits(
            &Filter {
                clearance: Some(Visibility::Arbiter),
                ..Filter::default()
            },
            &secret
        ));
        let only = Filter {
            kinds: vec![EventKind::ResultEntered],
            competition: Some(crate::ids::CompetitionId(3)),
            ..Filter::default()
        };
        assert!(admits(&only, &view(2, "result.entered", "public", Some(3))));
        assert!(!admits(
            &only,
            &view(3, "result.entered", "public", Some(4))
        ));
        assert!(!admits(
            &only,
            &view(4, "round.completed", "public", Some(3))
        ));
    }
}
