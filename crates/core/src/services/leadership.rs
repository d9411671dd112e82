//! What the background workers (webhook deliveries, mail) share: one instance at a time does
//! the work — on Postgres the one holding a session advisory lock on a connection of its own,
//! on SQLite the single process — and a pause that ends early when the worker is stopped.

use crate::store::{Backend, DbConn, DbTarget};
use diesel::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Sleeps `d` in short steps; false when asked to stop meanwhile.
pub(crate) fn pause(stop: &AtomicBool, d: Duration) -> bool {
    let step = Duration::from_millis(20);
    let mut left = d;
    while !left.is_zero() {
        if stop.load(Ordering::SeqCst) {
            return false;
        }
        let s = left.min(step);
        std::thread::sleep(s);
        left -= s;
    }
    !stop.load(Ordering::SeqCst)
}

#[derive(QueryableByName)]
struct Locked {
    #[diesel(sql_type = diesel::sql_types::Bool)]
    locked: bool,
}

/// Whether this instance does a worker's work now. On Postgres: the connection holding the
/// worker's advisory lock (none while another instance holds it); on SQLite one process runs
/// the service and always leads.
pub(crate) struct Leadership {
    key: i64,
    work: &'static str,
    held: Option<Option<DbConn>>,
}

impl Leadership {
    /// For the database at `url`, the lock `key`, and the `work` named in the log ("the mail").
    pub(crate) fn new(url: &str, key: i64, work: &'static str) -> Leadership {
        let postgres = matches!(DbTarget::parse(url), Ok(t) if t.backend == Backend::Postgres);
        Leadership {
            key,
            work,
            held: postgres.then_some(None),
        }
    }

    /// Whether this worker leads now: keeps or tries to take the lock.
    pub(crate) fn lead(&mut self, url: &str) -> bool {
        let Some(held) = self.held.as_mut() else {
            return true;
        };
        if let Some(c) = held.as_mut() {
            // the lock lives as long as its connection
            if diesel::sql_query("SELECT 1").execute(c).is_ok() {
                return true;
            }
            tracing::warn!(
                "the worker for {} lost its database connection and its lock",
                self.work
            );
            *held = None;
        }
        let Ok(mut c) = DbTarget::parse(url).and_then(|t| t.connect().map_err(|e| e.to_string()))
        else {
            return false;
        };
        let got = diesel::sql_query(format!(
            "SELECT pg_try_advisory_lock({}) AS locked",
            self.key
        ))
        .get_result::<Locked>(&mut c)
        .map(|l| l.locked)
        .unwrap_or(false);
        if got {
            tracing::info!("this instance runs {}", self.work);
            *held = Some(c);
        }
        got
    }
}
