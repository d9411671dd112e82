//! Bounded waits on the database ([decision 0250](../../../../docs/decisions/0250-bounded-database-waits.md)).
//!
//! Two halves. The connection settings ([`ConnSettings`]) make each connection give up by
//! itself where the driver can: libpq's connect timeout, TCP keepalives and TCP user timeout
//! (a dead network path is noticed by the kernel), and server-side statement, lock and
//! idle-in-transaction timeouts; SQLite's busy timeout and `synchronous` level. A silent peer
//! that still acknowledges every packet (a proxy whose far side is gone) defeats all of them,
//! so the wait of a request for its blocking database work is bounded as well
//! ([`block_until`]): at its [`Deadline`] the request is answered 503 and the work, still
//! running on its blocking thread, may no longer commit ([`may_commit`], which the write
//! transaction calls just before its commit).

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::{Duration, Instant};

/// SQLite's `synchronous` level (<https://www.sqlite.org/pragma.html#pragma_synchronous>).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Synchronous {
    /// `NORMAL`: in WAL mode a commit is durable once the WAL is synced at a checkpoint; a
    /// power loss (not a crash of the process) may undo the last commits.
    Normal,
    /// `FULL`: every commit syncs the WAL before it returns.
    Full,
}

impl Synchronous {
    /// The pragma's value.
    pub fn as_str(self) -> &'static str {
        match self {
            Synchronous::Normal => "NORMAL",
            Synchronous::Full => "FULL",
        }
    }
}

impl std::str::FromStr for Synchronous {
    type Err = String;
    fn from_str(s: &str) -> Result<Synchronous, String> {
        match s.trim().to_ascii_uppercase().as_str() {
            "NORMAL" => Ok(Synchronous::Normal),
            "FULL" => Ok(Synchronous::Full),
            _ => Err(format!("{s:?} is not NORMAL or FULL")),
        }
    }
}

/// How each new connection bounds its own waits (`DB_*` settings, `docs/operations.md`).
/// A zero duration turns a server-side timeout off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnSettings {
    /// `DB_CONNECT_TIMEOUT_SECS`: libpq's `connect_timeout` (whole seconds, at least 2).
    pub connect_timeout_secs: u32,
    /// `DB_KEEPALIVES_IDLE_SECS`: idle seconds before the first TCP keepalive probe.
    pub keepalives_idle_secs: u32,
    /// `DB_KEEPALIVES_INTERVAL_SECS`: seconds between unanswered keepalive probes.
    pub keepalives_interval_secs: u32,
    /// `DB_KEEPALIVES_COUNT`: unanswered probes before the connection is dead.
    pub keepalives_count: u32,
    /// `DB_TCP_USER_TIMEOUT_MS`: how long sent data may stay unacknowledged.
    pub tcp_user_timeout: Duration,
    /// `DB_STATEMENT_TIMEOUT_MS`: the server cancels a statement running longer.
    pub statement_timeout: Duration,
    /// `DB_LOCK_TIMEOUT_MS`: the server cancels a statement waiting longer for a lock.
    pub lock_timeout: Duration,
    /// `DB_IDLE_IN_TRANSACTION_TIMEOUT_MS`: the server ends a session whose transaction
    /// stays idle longer (its locks are released).
    pub idle_in_transaction_timeout: Duration,
    /// `DB_BUSY_TIMEOUT_MS`: how long a SQLite connection waits for another's write lock.
    pub busy_timeout: Duration,
    /// `SQLITE_SYNCHRONOUS`.
    pub synchronous: Synchronous,
}

impl Default for ConnSettings {
    fn default() -> ConnSettings {
        ConnSettings {
            connect_timeout_secs: 5,
            keepalives_idle_secs: 10,
            keepalives_interval_secs: 5,
            keepalives_count: 3,
            tcp_user_timeout: Duration::from_secs(10),
            statement_timeout: Duration::from_secs(4),
            lock_timeout: Duration::ZERO,
            idle_in_transaction_timeout: Duration::from_secs(60),
            busy_timeout: Duration::from_secs(4),
            synchronous: Synchronous::Normal,
        }
    }
}

impl ConnSettings {
    /// The libpq connection parameters these settings add to a `postgres://` URL, each only
    /// when the URL does not set it already (the URL wins). The server-side timeouts travel
    /// in `options`, so they are set in the start-up packet, within the connect timeout; a
    /// URL with `options` of its own keeps those and gets none of these.
    pub fn pg_params(&self, url: &str) -> Vec<(&'static str, String)> {
        let query = url.split_once('?').map_or("", |(_, q)| q);
        let given: Vec<&str> = query
            .split('&')
            .filter_map(|kv| kv.split('=').next())
            .collect();
        let ms = |d: Duration| d.as_millis().to_string();
        let options = format!(
            "-c statement_timeout={} -c lock_timeout={} -c idle_in_transaction_session_timeout={}",
            ms(self.statement_timeout),
            ms(self.lock_timeout),
            ms(self.idle_in_transaction_timeout)
        );
        [
            ("connect_timeout", self.connect_timeout_secs.to_string()),
            ("keepalives", "1".to_string()),
            ("keepalives_idle", self.keepalives_idle_secs.to_string()),
            (
                "keepalives_interval",
                self.keepalives_interval_secs.to_string(),
            ),
            ("keepalives_count", self.keepalives_count.to_string()),
            ("tcp_user_timeout", ms(self.tcp_user_timeout)),
            ("options", options),
        ]
        .into_iter()
        .filter(|(k, _)| !given.contains(k))
        .collect()
    }

    /// `url` with [`ConnSettings::pg_params`] added (percent-encoded).
    pub fn pg_url(&self, url: &str) -> String {
        let mut out = url.to_string();
        let mut sep = if url.contains('?') { '&' } else { '?' };
        for (k, v) in self.pg_params(url) {
            out.push(sep);
            out.push_str(k);
            out.push('=');
            for b in v.bytes() {
                match b {
                    b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => {
                        out.push(char::from(b))
                    }
                    _ => out.push_str(&format!("%{b:02X}")),
                }
            }
            sep = '&';
        }
        out
    }

    /// The pragmas of a new SQLite connection.
    pub fn sqlite_pragmas(&self) -> String {
        format!(
            "PRAGMA foreign_keys = ON; PRAGMA busy_timeout = {}; \
             PRAGMA journal_mode = WAL; PRAGMA synchronous = {};",
            self.busy_timeout.as_millis(),
            self.synchronous.as_str()
        )
    }
}

const RUNNING: u8 = 0;
const COMMITTING: u8 = 1;
const ABANDONED: u8 = 2;

/// When one request's database work must be done by, shared by the request (which stops
/// waiting then) and the blocking thread doing the work (which may then no longer commit).
/// Exactly one of the two wins: the work claims its commit before the deadline, or the
/// request abandons it.
#[derive(Debug)]
pub struct Deadline {
    at: Instant,
    state: AtomicU8,
}

impl Deadline {
    /// A deadline `wait` from now.
    pub fn after(wait: Duration) -> Arc<Deadline> {
        Arc::new(Deadline {
            at: Instant::now() + wait,
            state: AtomicU8::new(RUNNING),
        })
    }

    /// The instant.
    pub fn at(&self) -> Instant {
        self.at
    }

    /// The work: whether it may commit now (before the deadline, not abandoned); once it
    /// may, the request waits for the commit's outcome.
    fn claim_commit(&self) -> bool {
        if Instant::now() >= self.at {
            self.abandon();
        }
        match self
            .state
            .compare_exchange(RUNNING, COMMITTING, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => true,
            Err(s) => s == COMMITTING,
        }
    }

    /// The request: gives the work up unless it claimed its commit; whether it is given up.
    fn abandon(&self) -> bool {
        match self
            .state
            .compare_exchange(RUNNING, ABANDONED, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => true,
            Err(s) => s == ABANDONED,
        }
    }

    /// Whether the request gave the work up.
    pub fn abandoned(&self) -> bool {
        self.state.load(Ordering::Acquire) == ABANDONED
    }
}

thread_local! {
    /// The deadline of the work running on this thread ([`block_until`]).
    static CURRENT: RefCell<Option<Arc<Deadline>>> = const { RefCell::new(None) };
}

/// The write transaction asks just before its commit: `Ok` when no request waits on this
/// thread's work or its request still does (from then on the request waits for the
/// commit's outcome); otherwise an error, which rolls the transaction back.
pub fn may_commit() -> diesel::QueryResult<()> {
    let ok = CURRENT.with(|c| c.borrow().as_ref().is_none_or(|d| d.claim_commit()));
    if ok {
        Ok(())
    } else {
        tracing::warn!("a write finished after its request was answered 503; rolled back");
        Err(diesel::result::Error::RollbackTransaction)
    }
}

/// Sets the thread's deadline for as long as it lives (also through a panic).
struct OnThread;

impl OnThread {
    fn set(d: Arc<Deadline>) -> OnThread {
        CURRENT.with(|c| *c.borrow_mut() = Some(d));
        OnThread
    }
}

impl Drop for OnThread {
    fn drop(&mut self) {
        CURRENT.with(|c| *c.borrow_mut() = None);
    }
}

/// How long a request still waits, past its deadline, for a commit its work claimed before
/// the deadline.
pub const COMMIT_GRACE: Duration = Duration::from_millis(500);

/// Why blocking database work gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum Late {
    /// The deadline passed; the work may not commit any more.
    #[error("the database did not answer in time")]
    TimedOut,
    /// The work claimed its commit before the deadline, and the commit's outcome did not
    /// arrive within [`COMMIT_GRACE`] after it.
    #[error("the commit's outcome is unknown")]
    CommitUnknown,
    /// The blocking thread failed (a panic).
    #[error("{0}")]
    Failed(#[from] actix_web::error::BlockingError),
}

/// The detail of the 503 of a write whose commit's outcome is unknown.
pub const COMMIT_UNKNOWN: &str = "the database did not confirm the change in time; it may have \
     been stored: read it back before repeating it";

impl From<Late> for crate::error::ApiError {
    fn from(e: Late) -> crate::error::ApiError {
        use crate::error::ApiError;
        match e {
            Late::TimedOut => ApiError::Unavailable(crate::error::UNAVAILABLE.into()),
            Late::CommitUnknown => ApiError::Unavailable(COMMIT_UNKNOWN.into()),
            Late::Failed(e) => e.into(),
        }
    }
}

/// Runs `f` on the blocking pool and waits for it until `deadline` (then [`Late::TimedOut`],
/// and the work may no longer commit), or, when the work claimed its commit before the
/// deadline, at most [`COMMIT_GRACE`] longer for the commit's outcome. The work goes on
/// after a time-out until its database call returns (a connection it holds goes back to the
/// pool then, or is dropped when broken).
pub async fn block_until<T, F>(deadline: Arc<Deadline>, f: F) -> Result<T, Late>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let d = deadline.clone();
    let job = actix_web::web::block(move || {
        let _on = OnThread::set(d);
        f()
    });
    let mut job = std::pin::pin!(job);
    let at = tokio::time::Instant::from_std(deadline.at());
    match tokio::time::timeout_at(at, &mut job).await {
        Ok(r) => Ok(r?),
        Err(_) if deadline.abandon() => Err(Late::TimedOut),
        Err(_) => match actix_web::rt::time::timeout(COMMIT_GRACE, job).await {
            Ok(r) => Ok(r?),
            Err(_) => Err(Late::CommitUnknown),
        },
    }
}

/// Waits for `fut` until `deadline` ([`Late::TimedOut`] then), for the waits of a request
/// before its blocking work starts (a place in the write queue).
pub async fn until<T>(deadline: &Deadline, fut: impl Future<Output = T>) -> Result<T, Late> {
    let at = tokio::time::Instant::from_std(deadline.at());
    tokio::time::timeout_at(at, fut)
        .await
        .map_err(|_| Late::TimedOut)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_wins_and_the_rest_is_added_encoded() {
        let s = ConnSettings::default();
        let url = s.pg_url("postgres://u@h:5432/db?connect_timeout=9");
        assert_eq!(
            url,
            "postgres://u@h:5432/db?connect_timeout=9&keepalives=1&keepalives_idle=10\
             &keepalives_interval=5&keepalives_count=3&tcp_user_timeout=10000\
             &options=-c%20statement_timeout%3D4000%20-c%20lock_timeout%3D0\
             %20-c%20idle_in_transaction_session_timeout%3D60000"
        );
        let own = s.pg_url("postgres://h/db?options=-c%20search_path%3Dx");
        assert!(!own.contains("statement_timeout"), "{own}");
        assert!(own.starts_with("postgres://h/db?options=-c%20search_path%3Dx&connect_timeout=5"));
    }

    #[test]
    fn synchronous_is_normal_or_full() {
        assert_eq!("full".parse(), Ok(Synchronous::Full));
        assert_eq!(" NORMAL ".parse(), Ok(Synchronous::Normal));
        assert!("OFF".parse::<Synchronous>().is_err());
    }

    /// The commit and the abandonment exclude each other, whichever comes first; past the
    /// deadline the work may not commit even when the request has not abandoned it yet.
    #[test]
    fn a_deadline_lets_either_the_commit_or_the_time_out_win() {
        let d = Deadline::after(Duration::from_secs(60));
        assert!(d.claim_commit());
        assert!(!d.abandon(), "a claimed commit is waited for");
        let d = Deadline::after(Duration::from_secs(60));
        assert!(d.abandon());
        assert!(!d.claim_commit(), "an abandoned work may not commit");
        let d = Deadline::after(Duration::ZERO);
        assert!(!d.claim_commit(), "past the deadline");
        assert!(d.abandoned());
    }

    #[actix_web::test]
    async fn a_late_job_is_answered_at_the_deadline_and_may_not_commit() {
        let d = Deadline::after(Duration::from_millis(50));
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        let r = block_until(d.clone(), move || {
            // the job stays stuck until the test lets it go, like a query on a silent network
            let _ = rx.recv_timeout(Duration::from_secs(30));
            let _ = done_tx.send(may_commit().is_ok());
        })
        .await;
        assert!(matches!(r, Err(Late::TimedOut)), "{r:?}");
        tx.send(()).unwrap();
        let committed = done_rx.recv_timeout(Duration::from_secs(30)).unwrap();
        assert!(
            !committed,
            "the job may not commit after its request was answered"
        );
        // a job in time commits, and no deadline is left on its thread afterwards
        let ok = block_until(Deadline::after(Duration::from_secs(30)), || {
            may_commit().is_ok()
        })
        .await
        .unwrap();
        assert!(ok);
        assert!(may_commit().is_ok(), "no deadline outside a job");
    }
}
