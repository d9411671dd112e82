//! Cache stamps: counters in the database (`cache_stamps`) that a write raises for every
//! competition (or other scope) whose computed reads it changes, so every process sharing the
//! database knows its cached answers are stale.
//!
//! A service states what it changed with [`touch`]; the write transaction ([`write()`]) raises
//! those stamps itself just before it commits, in the same transaction, so the change and the
//! new stamp become visible together and no write can commit its rows without them. Where a
//! write must queue behind concurrent writers of the same scope (the stamp's row lock on
//! Postgres), [`touch_now`] raises the stamp at once instead. Every stamp raised is noted for
//! the thread that ran the work ([`take_raised`]): its caller waits out the read cache's reuse
//! time before it answers. This module knows nothing of the cache itself.
//!
//! The same transaction writes the event log ([decision 0220](../../../../docs/decisions/0220-event-log.md)):
//! services state what happened with [`record`], and [`write()`] inserts those events, and one
//! "standings changed" event per competition whose stamp it raised, as its last work before
//! the commit ([`crate::store::models::events::insert_in_order`]). A refused write records none.

use crate::ids::{CompetitionId, GameId, SeasonId};
use crate::store::DbConn;
use crate::store::models::events::{self, NewEvent};
use crate::store::schema::cache_stamps;
use diesel::prelude::*;
use std::cell::RefCell;

/// What a stamp versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// A competition: its standings, rounds and pairings as cached.
    Competition(CompetitionId),
    /// A season's calendar (also queues concurrent calendar generations).
    Season(SeasonId),
    /// A game's arbiter log (a lock only: concurrent writers of one log queue).
    GameArbiter(GameId),
    /// The arbiter decisions on claims (a lock only, taken before any game's).
    ArbiterDecisions,
}

impl std::fmt::Display for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Scope::Competition(id) => write!(f, "competition:{id}"),
            Scope::Season(id) => write!(f, "season:{id}"),
            Scope::GameArbiter(id) => write!(f, "game-arbiter:{id}"),
            Scope::ArbiterDecisions => f.write_str("arbiter-decisions"),
        }
    }
}

#[derive(Default)]
struct Work {
    /// Open write transactions on this thread, each with what it touched and recorded.
    open: Vec<Pending>,
    /// Whether a stamp was raised since [`take_raised`] was last called.
    raised: bool,
    /// The highest event id this thread inserted since [`take_written`] was last called.
    written: Option<i64>,
}

/// What one open write transaction will do before it commits.
#[derive(Default)]
struct Pending {
    /// The scopes touched (one entry per touch: each touch raises the stamp by one).
    touched: Vec<Scope>,
    /// The competitions whose stamp was raised or will be (at once or at the commit).
    changed: Vec<CompetitionId>,
    /// The events recorded.
    events: Vec<NewEvent>,
}

thread_local! {
    static WORK: RefCell<Work> = RefCell::new(Work::default());
}

/// Records that the running write changed what `scope` versions: its stamp is raised when the
/// write transaction commits. Outside a write transaction the stamp is raised at once.
pub fn touch(conn: &mut DbConn, scope: Scope) -> QueryResult<()> {
    let deferred = WORK.with(|w| match w.borrow_mut().open.last_mut() {
        Some(p) => {
            p.touched.push(scope);
            if let Scope::Competition(id) = scope {
                p.changed.push(id);
            }
            true
        }
        None => false,
    });
    if !deferred {
        raise(conn, scope)?;
        standings_changed_now(conn, scope)?;
    }
    Ok(())
}

/// Raises the stamp of `scope` at once: on Postgres its row stays locked until the transaction
/// ends, so concurrent writers of the same scope queue here and each sees what the one before
/// it stored.
pub fn touch_now(conn: &mut DbConn, scope: Scope) -> QueryResult<()> {
    raise(conn, scope)?;
    let noted = WORK.with(|w| match (w.borrow_mut().open.last_mut(), scope) {
        (Some(p), Scope::Competition(id)) => {
            p.changed.push(id);
            true
        }
        (Some(_), _) => true,
        (None, _) => false,
    });
    if !noted {
        standings_changed_now(conn, scope)?;
    }
    Ok(())
}

/// Records that `event` happened in the running write: it is inserted into the event log just
/// before the write transaction commits, and not at all when it fails. Outside a write
/// transaction it is inserted at once (in a transaction of its own).
pub fn record(conn: &mut DbConn, event: NewEvent) -> QueryResult<()> {
    let pending = WORK.with(|w| match w.borrow_mut().open.last_mut() {
        Some(p) => {
            p.events.push(event.clone());
            true
        }
        None => false,
    });
    if !pending {
        insert_events(conn, vec![event])?;
    }
    Ok(())
}

/// The highest event id this thread inserted since the last call (and forgets it): its
/// caller wakes the readers of the log once the transaction has ended.
#[cfg_attr(
    not(feature = "test-support"),
    allow(dead_code, reason = "no caller in this crate")
)]
pub fn take_written() -> Option<i64> {
    WORK.with(|w| w.borrow_mut().written.take())
}

/// A competition's stamp was raised outside a write transaction: its event, at once.
fn standings_changed_now(conn: &mut DbConn, scope: Scope) -> QueryResult<()> {
    if let Scope::Competition(id) = scope {
        conn.transaction(|c| {
            let list = events::standings_events(c, &[id])?;
            insert_events(c, list)
        })?;
    }
    Ok(())
}

/// Inserts events in order (in a transaction of their own when none is open).
fn insert_events(conn: &mut DbConn, list: Vec<NewEvent>) -> QueryResult<()> {
    let last = conn.transaction(|c| events::insert_in_order(c, &list))?;
    if let Some(id) = last {
        WORK.with(|w| {
            let mut w = w.borrow_mut();
            w.written = Some(w.written.map_or(id, |v| v.max(id)));
        });
    }
    Ok(())
}

/// Runs `f` in one write transaction: on SQLite the write lock is taken first (see
/// `take_write_lock`); before the commit, the stamp of every scope `f` touched is
/// raised in the same transaction, in the order of the scopes; then the events `f` recorded,
/// and a "standings changed" event for each competition whose stamp was raised, are inserted
/// into the event log as the transaction's last work. Nothing is raised or recorded when `f`
/// fails (all is rolled back), nor when the request waiting for the work stopped waiting
/// before the commit ([`crate::store::waits::may_commit`]). A write inside another hands its
/// events to the outer one.
pub fn write<T, E>(conn: &mut DbConn, f: impl FnOnce(&mut DbConn) -> Result<T, E>) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    let open = Open::new();
    let mut inserted = None;
    let out = conn.transaction(|c| {
        crate::store::take_write_lock(c)?;
        let out = f(c);
        let pending = open.take();
        let out = out?;
        let mut touched = pending.touched;
        // in one order in every transaction, so two writes never wait for each other's rows
        touched.sort();
        for scope in touched {
            raise(c, scope)?;
        }
        if open.depth > 1 {
            WORK.with(|w| {
                if let Some(outer) = w.borrow_mut().open.get_mut(open.depth - 2) {
                    outer.changed.extend(pending.changed);
                    outer.events.extend(pending.events);
                }
            });
            return Ok(out);
        }
        let mut list = pending.events;
        list.extend(events::standings_events(c, &pending.changed)?);
        inserted = events::insert_in_order(c, &list)?;
        // no commit once the request was answered 503 (docs/decisions/0251-no-commit-after-503.md)
        crate::store::waits::may_commit()?;
        Ok(out)
    });
    if out.is_ok()
        && let Some(id) = inserted
    {
        WORK.with(|w| {
            let mut w = w.borrow_mut();
            w.written = Some(w.written.map_or(id, |v| v.max(id)));
        });
    }
    out
}

/// The entry of one open write transaction; dropped (also on a panic) when it ends.
struct Open {
    depth: usize,
}

impl Open {
    fn new() -> Open {
        let depth = WORK.with(|w| {
            let mut w = w.borrow_mut();
            w.open.push(Pending::default());
            w.open.len()
        });
        Open { depth }
    }

    /// What this transaction touched and recorded so far (and forgets it).
    fn take(&self) -> Pending {
        WORK.with(|w| {
            w.borrow_mut()
                .open
                .get_mut(self.depth - 1)
                .map(std::mem::take)
                .unwrap_or_default()
        })
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        WORK.with(|w| w.borrow_mut().open.truncate(self.depth - 1));
    }
}

/// Whether this thread raised a stamp since the last call (and forgets it). A raised stamp may
/// belong to a transaction that rolled back later; the caller treats it as raised.
pub fn take_raised() -> bool {
    WORK.with(|w| std::mem::replace(&mut w.borrow_mut().raised, false))
}

/// Raises the stamp of a scope by one (creating it at 1) and returns the new value.
fn raise(conn: &mut DbConn, scope: Scope) -> QueryResult<i64> {
    WORK.with(|w| w.borrow_mut().raised = true);
    let scope = scope.to_string();
    let n = diesel::update(cache_stamps::table.find(&scope))
        .set(cache_stamps::stamp.eq(cache_stamps::stamp + 1))
        .execute(conn)?;
    if n == 0 {
        // first write of this scope; a concurrent first insert loses to the unique key and
        // then updates, inside a savepoint
        let inserted = conn.transaction(|c| {
            diesel::insert_into(cache_stamps::table)
                .values((
                    cache_stamps::scope.eq(&scope),
                    cache_stamps::stamp.eq(1_i64),
                ))
                .execute(c)
        });
        if inserted.is_err() {
            diesel::update(cache_stamps::table.find(&scope))
                .set(cache_stamps::stamp.eq(cache_stamps::stamp + 1))
                .execute(conn)?;
        }
    }
    crate::store::models::competition::stamp(conn, &scope)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn database() -> (tempfile::TempDir, DbConn) {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("stamps.sqlite3").display());
        let mut conn = crate::store::DbTarget::parse(&url)
            .unwrap()
            .connect()
            .unwrap();
        crate::store::run_migrations(&mut conn).unwrap();
        (dir, conn)
    }

    fn stamp(c: &mut DbConn, scope: Scope) -> i64 {
        crate::store::models::competition::stamp(c, &scope.to_string()).unwrap()
    }

    #[test]
    fn scopes_are_named_as_stored() {
        assert_eq!(
            Scope::Competition(CompetitionId(7)).to_string(),
            "competition:7"
        );
        assert_eq!(Scope::Season(SeasonId(2)).to_string(), "season:2");
        assert_eq!(Scope::GameArbiter(GameId(9)).to_string(), "game-arbiter:9");
        assert_eq!(Scope::ArbiterDecisions.to_string(), "arbiter-decisions");
    }

    #[test]
    fn a_write_raises_what_it_touched_when_it_commits() {
        let (_dir, mut c) = database();
        let seven = Scope::Competition(CompetitionId(7));
        take_raised();
        let r: QueryResult<()> = write(&mut c, |c| {
            touch(c, seven)?;
            touch(c, seven)?;
            assert_eq!(stamp(c, seven), 0, "not before the commit");
            assert!(!take_raised(), "nothing raised yet");
            Ok(())
        });
        r.unwrap();
        assert_eq!(stamp(&mut c, seven), 2, "one step per touch");
        assert!(take_raised());
        assert!(!take_raised(), "forgotten once taken");
        // touch_now raises inside the transaction
        write(&mut c, |c| {
            touch_now(c, seven)?;
            assert_eq!(stamp(c, seven), 3);
            QueryResult::Ok(())
        })
        .unwrap();
        assert_eq!(stamp(&mut c, seven), 3, "raised once");
    }

    #[test]
    fn a_failed_write_raises_nothing() {
        let (_dir, mut c) = database();
        let one = Scope::Competition(CompetitionId(1));
        take_raised();
        let r: QueryResult<()> = write(&mut c, |c| {
            touch(c, one)?;
            Err(diesel::result::Error::RollbackTransaction)
        });
        assert!(r.is_err());
        assert_eq!(stamp(&mut c, one), 0);
        assert!(!take_raised());
        // a touch after the failed write, outside any write transaction, raises at once
        touch(&mut c, one).unwrap();
        assert_eq!(stamp(&mut c, one), 1);
        assert!(take_raised());
    }

    #[test]
    fn a_stamp_raised_is_noted_per_thread() {
        let (_dir, mut c) = database();
        take_raised();
        touch(&mut c, Scope::Season(SeasonId(1))).unwrap();
        std::thread::spawn(|| assert!(!take_raised(), "another thread's work"))
            .join()
            .unwrap();
        assert!(take_raised());
    }
}
