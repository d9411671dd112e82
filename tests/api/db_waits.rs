//! Bounded database waits (docs/operations.md#bounded-database-waits): a request whose
//! database does not answer is answered 503 (problem+json, `Retry-After`) within
//! `DB_QUERY_TIMEOUT_MS` and a margin; a write answered so does not commit afterwards; a busy
//! SQLite database answers 503 within its busy timeout; and after a silent network comes back,
//! the next request succeeds without a restart. The margins below are generous bounds on a
//! busy machine, not speed measurements.

use crate::support::*;
use actix_web::http::StatusCode;
use diesel::{Connection, RunQueryDsl};
use serde_json::json;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What a request may take beyond its deadline on a busy test machine.
const MARGIN: Duration = Duration::from_secs(2);

/// A lock that blocks every new player, held by a connection of its own outside the
/// application (Postgres: the players table in share mode; SQLite: the write lock), until
/// released or dropped.
struct Blocker {
    release: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Blocker {
    fn take(url: &str) -> Blocker {
        let (taken_tx, taken) = mpsc::channel();
        let (release, released) = mpsc::channel::<()>();
        let url = url.to_string();
        let thread = std::thread::spawn(move || {
            let hold = |c: &mut dyn FnMut(&str)| {
                c("BEGIN");
                taken_tx.send(()).unwrap();
                let _ = released.recv_timeout(Duration::from_secs(60));
                c("COMMIT");
            };
            if let Some(path) = url.strip_prefix("sqlite://") {
                let mut c = diesel::SqliteConnection::establish(path).unwrap();
                hold(&mut |sql: &str| {
                    let sql = if sql == "BEGIN" {
                        "BEGIN IMMEDIATE"
                    } else {
                        sql
                    };
                    diesel::sql_query(sql).execute(&mut c).unwrap();
                });
            } else {
                let mut c = diesel::PgConnection::establish(&url).unwrap();
                hold(&mut |sql: &str| {
                    diesel::sql_query(sql).execute(&mut c).unwrap();
                    if sql == "BEGIN" {
                        diesel::sql_query("LOCK TABLE players IN SHARE MODE")
                            .execute(&mut c)
                            .unwrap();
                    }
                });
            }
        });
        taken
            .recv_timeout(Duration::from_secs(30))
            .expect("the lock is taken");
        Blocker {
            release: Some(release),
            thread: Some(thread),
        }
    }

    fn release(&mut self) {
        self.release.take();
        if let Some(t) = self.thread.take() {
            t.join().expect("the lock holder");
        }
    }
}

impl Drop for Blocker {
    fn drop(&mut self) {
        self.release();
    }
}

/// Waits (at most 30 s) until no work holds a connection of the application's pool: the work
/// a request stopped waiting for has ended.
async fn until_pool_idle(app: &TestApp) {
    let end = Instant::now() + Duration::from_secs(30);
    loop {
        let (made, idle) = app.state.pool.connections();
        if made == idle {
            return;
        }
        assert!(Instant::now() < end, "{made} connections, {idle} idle");
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Whether a player named `name` is stored.
async fn stored(app: &TestApp, name: &'static str) -> bool {
    app.with_conn(move |c| {
        use clubcomp_core::test_store::schema::players;
        use diesel::prelude::*;
        players::table
            .filter(players::name.eq(name))
            .count()
            .get_result::<i64>(c)
            .unwrap()
            > 0
    })
    .await
}

/// A write held up by a lock past its deadline: 503 at the deadline, and when the lock goes
/// away and the work goes on, it rolls back instead of committing.
#[actix_web::test]
async fn a_write_that_outlives_its_request_is_answered_503_and_not_stored() {
    let deadline = Duration::from_millis(600);
    let app = spawn_with(|c| {
        c.db_query_timeout = deadline;
        // SQLite: the write waits for the lock longer than its request does
        c.db_conn.busy_timeout = Duration::from_secs(30);
    })
    .await;
    let leader = app.token(&["leader"]).await;
    let mut lock = Blocker::take(&app._db.url);
    let t = Instant::now();
    let r = app
        .create_player(&leader, json!({"name": "Late Write"}))
        .await;
    let took = t.elapsed();
    assert_unavailable(&r, "the late write");
    assert!(took >= deadline, "answered before its deadline: {took:?}");
    assert!(took < deadline + MARGIN, "answered after {took:?}");
    lock.release();
    until_pool_idle(&app).await;
    assert!(!stored(&app, "Late Write").await, "stored after its 503");
    let r = app.create_player(&leader, json!({"name": "In Time"})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert!(stored(&app, "In Time").await);
}

/// SQLite: another connection holds the write lock; a write waits the busy timeout, not the
/// (much longer) request deadline, and is answered 503 "busy".
#[actix_web::test]
async fn a_busy_sqlite_database_answers_503_within_the_busy_timeout() {
    let busy = Duration::from_millis(300);
    let app = spawn_with(|c| {
        c.db_conn.busy_timeout = busy;
        c.db_query_timeout = Duration::from_secs(60);
    })
    .await;
    if app._db.pg_admin.is_some() {
        return;
    }
    let leader = app.token(&["leader"]).await;
    let mut lock = Blocker::take(&app._db.url);
    let t = Instant::now();
    let r = app
        .create_player(&leader, json!({"name": "Busy Write"}))
        .await;
    let took = t.elapsed();
    assert_unavailable(&r, "busy");
    r.assert_detail(StatusCode::SERVICE_UNAVAILABLE, "busy");
    assert!(took >= busy, "{took:?}");
    assert!(took < busy + MARGIN, "answered after {took:?}");
    lock.release();
    let r = app
        .create_player(&leader, json!({"name": "Busy Write"}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
}

#[derive(diesel::QueryableByName)]
struct Count {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    n: i64,
}

/// Waits (at most 30 s) until a statement of database `url` waits for a lock on players.
async fn until_waiting_for_players(url: &str) {
    let url = url.to_string();
    actix_web::web::block(move || {
        let mut c = diesel::PgConnection::establish(&url).unwrap();
        let end = Instant::now() + Duration::from_secs(30);
        loop {
            let w: Count = diesel::sql_query(
                "SELECT count(*) AS n FROM pg_locks l JOIN pg_class r ON r.oid = l.relation \
                 WHERE NOT l.granted AND r.relname = 'players'",
            )
            .get_result(&mut c)
            .unwrap();
            if w.n > 0 {
                return;
            }
            assert!(Instant::now() < end, "no write waits for the players lock");
            std::thread::sleep(Duration::from_millis(10));
        }
    })
    .await
    .unwrap();
}

/// Postgres behind a proxy whose network goes silent (connections accepted, bytes
/// acknowledged, nothing forwarded): a write in flight (its insert done by the server, the
/// answer held), a readiness check and a read are each answered 503 within the deadline and a
/// margin; when the network comes back, the next request succeeds at once, and the write,
/// whose answer now arrives, rolls back instead of committing.
#[actix_web::test]
async fn requests_on_a_silent_network_answer_503_in_time_and_the_pool_recovers() {
    let Some(admin) = std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|u| u.starts_with("postgres"))
    else {
        return;
    };
    let deadline = Duration::from_millis(1000);
    let proxy = Proxy::start(&upstream_of(&admin));
    let app = spawn_with(|c| {
        c.database_url = proxy.url_of(&c.database_url);
        c.db_query_timeout = deadline;
    })
    .await;
    let direct = app._db.url.clone();
    let leader = app.token(&["leader"]).await;
    assert_eq!(app.get(paths::READY, None).await.status, StatusCode::OK);

    let mut lock = Blocker::take(&direct);
    let write = async {
        let t = Instant::now();
        let r = app
            .create_player(&leader, json!({"name": "Silent Write"}))
            .await;
        (r, t.elapsed())
    };
    let silence = async {
        until_waiting_for_players(&direct).await;
        proxy.silence(true);
        // the server inserts now; its answer stays in the proxy
        lock.release();
        let t = Instant::now();
        let (ready, read) =
            futures_util::join!(app.get(paths::READY, None), app.get(paths::PLAYERS, None));
        (ready, read, t.elapsed())
    };
    let ((w, w_took), (ready, read, took)) = futures_util::join!(write, silence);
    assert_unavailable(&w, "the write in flight");
    assert_unavailable(&ready, "readyz");
    assert_unavailable(&read, "a read");
    assert!(
        w_took < deadline + MARGIN,
        "the write answered after {w_took:?}"
    );
    assert!(took < deadline + MARGIN, "answered after {took:?}");

    proxy.silence(false);
    let t = Instant::now();
    let r = app.get(paths::READY, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app.get(paths::PLAYERS, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let back = t.elapsed();
    assert!(back < deadline + MARGIN, "recovered after {back:?}");
    until_pool_idle(&app).await;
    assert!(!stored(&app, "Silent Write").await, "stored after its 503");
}
