//! The real binary as separate OS processes: two service processes on one database (a
//! result written through one is in the other's standings at once, with a new ETag), a
//! process killed (SIGKILL) in the middle of concurrent writes and restarted on the same
//! database (nothing half-written, every acknowledged write kept), and the captured logs of a
//! process holding no secrets. Fixtures are made in-process on the same database; the
//! children get the tests' JWT secret, so the fixtures' tokens are valid for them.

use crate::support::*;
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A stream client on a child process: a thread reading `GET /api/v1/stream` (with
/// `Last-Event-ID` when given) over a plain socket, chunk by chunk, and noting every event id
/// it receives, until the connection ends or `stop` is set. `open` is set once the stream's
/// first message (`retry:`) arrived, so the caller knows the stream is subscribed.
struct Follower {
    ids: Arc<std::sync::Mutex<Vec<i64>>>,
    open: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
    /// Why the reader stopped, when it stopped on an error.
    error: Arc<std::sync::Mutex<String>>,
    thread: std::thread::JoinHandle<()>,
}

impl Follower {
    fn start(port: u16, query: &str, last_event_id: Option<i64>) -> Follower {
        let ids = Arc::new(std::sync::Mutex::new(Vec::new()));
        let open = Arc::new(AtomicBool::new(false));
        let stop = Arc::new(AtomicBool::new(false));
        let error = Arc::new(std::sync::Mutex::new(String::new()));
        let (i, o, st, e) = (ids.clone(), open.clone(), stop.clone(), error.clone());
        let path = paths::stream(query);
        let thread = std::thread::spawn(move || {
            if let Err(err) = follow_stream(port, &path, last_event_id, &i, &o, &st) {
                *e.lock().unwrap() = err.to_string();
            }
        });
        Follower {
            ids,
            open,
            stop,
            error,
            thread,
        }
    }

    fn ids(&self) -> Vec<i64> {
        self.ids.lock().unwrap().clone()
    }

    /// Waits (at most 60 s) until the stream has received every id of `want`.
    fn wait_for(&self, want: &[i64]) {
        let end = Instant::now() + Duration::from_secs(60);
        loop {
            let got = self.ids();
            if want.iter().all(|id| got.contains(id)) {
                return;
            }
            assert!(
                !self.thread.is_finished(),
                "the stream ended after {} of {} events: {}",
                want.iter().filter(|id| got.contains(id)).count(),
                want.len(),
                self.error.lock().unwrap()
            );
            assert!(
                Instant::now() < end,
                "the resumed stream received {} of {} events",
                want.iter().filter(|id| got.contains(id)).count(),
                want.len()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Stops reading and returns every id received, in order.
    fn finish(self) -> Vec<i64> {
        self.stop.store(true, Ordering::SeqCst);
        self.thread.join().expect("the stream reader");
        self.ids.lock().unwrap().clone()
    }
}

fn follow_stream(
    port: u16,
    path: &str,
    last_event_id: Option<i64>,
    ids: &std::sync::Mutex<Vec<i64>>,
    open: &AtomicBool,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    let mut s = TcpStream::connect(("127.0.0.1", port))?;
    s.set_read_timeout(Some(Duration::from_millis(200)))?;
    let mut head = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n");
    if let Some(id) = last_event_id {
        head.push_str(&format!("Last-Event-ID: {id}\r\n"));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes())?;
    // the raw bytes as they arrive; the chunk framing and the lines are cut from them
    let mut raw: Vec<u8> = Vec::new();
    let mut body: Vec<u8> = Vec::new();
    let mut in_body = false;
    let mut chunked = false;
    let mut buf = [0u8; 8192];
    while !stop.load(Ordering::SeqCst) {
        match s.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => raw.extend_from_slice(&buf[..n]),
            Err(e)
                if e.kind() == std::io::ErrorKind::WouldBlock
                    || e.kind() == std::io::ErrorKind::TimedOut =>
            {
                continue;
            }
            Err(e) => return Err(e),
        }
        if !in_body {
            let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
                continue;
            };
            let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
            if !head.starts_with("http/1.1 200") {
                let text = String::from_utf8_lossy(&raw).to_string();
                return Err(std::io::Error::other(format!("refused: {text}")));
            }
            chunked = head.contains("transfer-encoding: chunked");
            raw.drain(..split + 4);
            in_body = true;
        }
        if chunked {
            // take every complete chunk
            while let Some(eol) = raw.windows(2).position(|w| w == b"\r\n") {
                let size = usize::from_str_radix(String::from_utf8_lossy(&raw[..eol]).trim(), 16)
                    .map_err(std::io::Error::other)?;
                if size == 0 {
                    return Ok(());
                }
                if raw.len() < eol + 2 + size + 2 {
                    break;
                }
                body.extend_from_slice(&raw[eol + 2..eol + 2 + size]);
                raw.drain(..eol + 2 + size + 2);
            }
        } else {
            body.append(&mut raw);
        }
        // take every complete line
        while let Some(eol) = body.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = body.drain(..=eol).collect();
            let line = String::from_utf8_lossy(&line);
            let line = line.trim_end();
            if line.starts_with("retry:") {
                open.store(true, Ordering::SeqCst);
            } else if let Some(id) = line.strip_prefix("id:") {
                let id: i64 = id.trim().parse().map_err(std::io::Error::other)?;
                ids.lock().unwrap().push(id);
            }
        }
    }
    Ok(())
}

/// A second handle on the test's database that outlives the in-process app (so only the child
/// processes hold it open, and a killed process's SQLite WAL is really recovered on restart).
fn keep_db(db: &TestDb) -> TestDb {
    TestDb {
        url: db.url.clone(),
        _dir: None,
        pg_admin: None,
    }
}

/// Two processes on one database: every result written through A is in B's standings at
/// once (with a new ETag; the old one no longer gives 304), while other clients keep reading
/// B's standings concurrently (so B's version lookups are coalesced the whole time).
#[actix_web::test]
async fn two_processes_one_database_a_write_through_one_is_seen_by_the_other_at_once() {
    let app = spawn().await;
    let pq = p_beat_q(&app).await;
    let (arbiter, [p, q], game) = (pq.arbiter, pq.players, pq.game);
    let url = paths::standings(pq.comp);
    let a = Server::start(&app._db.url, &[]);
    let b = Server::start(&app._db.url, &[]);

    // readers on B all the time
    let stop = Arc::new(AtomicBool::new(false));
    let reads = Arc::new(AtomicUsize::new(0));
    let readers: Vec<_> = (0..4)
        .map(|_| {
            let (stop, reads, url, port) = (stop.clone(), reads.clone(), url.clone(), b.port);
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let r = http(port, "GET", &url, None, &[], None);
                    assert_eq!(r.status, 200, "{}", r.text);
                    reads.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();

    let first = b.req("GET", &url, None, None);
    assert_eq!(first.status, 200, "{}", first.text);
    assert_eq!(first.json()["keizer"]["rows"][0]["player_id"], p);
    let mut etag = first.header("etag").expect("an ETag").to_string();
    for i in 0..12 {
        let (code, winner) = if i % 2 == 0 { ("0-1", q) } else { ("1-0", p) };
        let w = a.req(
            "PUT",
            &paths::result(game),
            Some(&arbiter),
            Some(&json!({"result": code, "reason": format!("correction {i}")})),
        );
        assert_eq!(w.status, 200, "{}", w.text);
        // at once, through the other process
        let r = b.req("GET", &url, None, None);
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(
            r.json()["keizer"]["rows"][0]["player_id"],
            winner,
            "write {i} ({code}) not seen by the other process: {}",
            r.text
        );
        let new_etag = r.header("etag").expect("an ETag").to_string();
        assert_ne!(new_etag, etag, "write {i} left the version unchanged");
        let old = http(b.port, "GET", &url, None, &[("If-None-Match", &etag)], None);
        assert_eq!(old.status, 200, "the old version is not current any more");
        assert_eq!(old.header("etag"), Some(new_etag.as_str()));
        let same = http(
            b.port,
            "GET",
            &url,
            None,
            &[("If-None-Match", &new_etag)],
            None,
        );
        assert_eq!(same.status, 304, "{}", same.text);
        // the compressed representation: the same table, its own ETag, 304 on it
        let z = http(
            b.port,
            "GET",
            &url,
            None,
            &[("Accept-Encoding", "gzip")],
            None,
        );
        assert_eq!(z.status, 200);
        assert_eq!(z.header("content-encoding"), Some("gzip"));
        let gz_etag = z.header("etag").expect("an ETag").to_string();
        assert_eq!(gz_etag, format!("{}-gz\"", new_etag.trim_end_matches('"')));
        assert_eq!(gunzip(&z.raw), r.text.as_bytes());
        let z304 = http(
            b.port,
            "GET",
            &url,
            None,
            &[("Accept-Encoding", "gzip"), ("If-None-Match", &gz_etag)],
            None,
        );
        assert_eq!(z304.status, 304);
        // the published pairing read through B shows the new result as well
        let pairing = b.req("GET", &paths::round(pq.comp, 1), None, None);
        assert_eq!(pairing.status, 200, "{}", pairing.text);
        assert_eq!(
            pairing.json()["games"][0]["result"],
            code,
            "{}",
            pairing.text
        );
        // and A agrees
        let ra = a.req("GET", &url, None, None);
        assert_eq!(ra.header("etag"), Some(new_etag.as_str()));
        assert_eq!(ra.text, r.text);
        etag = new_etag;
    }
    stop.store(true, Ordering::Relaxed);
    for r in readers {
        r.join().expect("a reader failed");
    }
    assert!(reads.load(Ordering::Relaxed) > 0);
}

/// Counts and versions read straight from the database.
struct Tally {
    /// (game id, version, result) per game.
    games: Vec<(i64, i64, Option<String>)>,
    /// Audit entries per game.
    audits: std::collections::HashMap<i64, Vec<String>>,
    /// Result events in the log per game, in id order: (kind, result in the payload).
    events: std::collections::HashMap<i64, Vec<(String, Option<String>)>>,
    stamp: i64,
}

fn tally(url: &str, comp: i64, game_ids: &[i64]) -> Tally {
    use clubcomp_core::test_store::schema::{audit_log, games};
    use diesel::prelude::*;
    let pool = clubcomp_core::test_store::build_pool(url, 1, std::time::Duration::from_secs(10))
        .expect("pool");
    let mut c = pool.get().expect("connection");
    let gs: Vec<(i64, i64, Option<String>)> = games::table
        .filter(games::id.eq_any(game_ids))
        .order(games::id)
        .select((games::id, games::version, games::result))
        .load(&mut c)
        .expect("games");
    let rows: Vec<(i64, Option<String>)> = audit_log::table
        .filter(audit_log::entity.eq("game"))
        .filter(audit_log::entity_id.eq_any(game_ids))
        .order(audit_log::id)
        .select((audit_log::entity_id, audit_log::new_value))
        .load(&mut c)
        .expect("audit");
    let mut audits = std::collections::HashMap::<i64, Vec<String>>::new();
    for (g, v) in rows {
        audits.entry(g).or_default().push(v.unwrap_or_default());
    }
    let logged: Vec<(i64, String, String)> = clubcomp_core::test_store::schema::events::table
        .filter(clubcomp_core::test_store::schema::events::game_id.eq_any(game_ids))
        .filter(clubcomp_core::test_store::schema::events::kind.like("result.%"))
        .order(clubcomp_core::test_store::schema::events::id)
        .select((
            clubcomp_core::test_store::schema::events::game_id.assume_not_null(),
            clubcomp_core::test_store::schema::events::kind,
            clubcomp_core::test_store::schema::events::payload,
        ))
        .load(&mut c)
        .expect("events");
    let mut events = std::collections::HashMap::<i64, Vec<(String, Option<String>)>>::new();
    for (g, kind, payload) in logged {
        let payload: Value = serde_json::from_str(&payload).expect("payload JSON");
        let result = payload["result"].as_str().map(str::to_string);
        events.entry(g).or_default().push((kind, result));
    }
    let stamp = clubcomp_core::test_store::models::competition::stamp(
        &mut c,
        &format!("competition:{comp}"),
    )
    .expect("stamp");
    Tally {
        games: gs,
        audits,
        events,
        stamp,
    }
}

/// A process killed (SIGKILL) while concurrent result writes are in flight, restarted on the
/// same database: it starts and answers; every game's version, result and audit trail agree
/// (no write half-applied); the cache stamp moved once per stored write; every stored write has
/// exactly one event in the log, with its result; every write that was acknowledged before the
/// kill is kept; and the standings show the stored results. A stream client attached during
/// the writes and resumed by its last id on the restarted process receives every result event
/// of the log exactly once, and a webhook receiver receives every one at least once, signed.
#[actix_web::test]
async fn a_process_killed_during_writes_leaves_a_consistent_database() {
    let app = spawn_with(|c| c.webhook_allow_private = true).await;
    let names: Vec<String> = (0..24).map(|i| format!("Player {i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let (leader, arbiter, fx) = keizer_winter(&app, &names).await;
    let p = &fx.players;
    let boards = (0..12)
        .map(|i| (p[2 * i], Some(p[2 * i + 1]), None))
        .collect();
    let game_ids = round(&app, &leader, fx.comp, boards, "published").await;
    let admin = app.token(&["admin"]).await;
    let hook = Receiver::start(Reply::Status(204));
    let r = app
        .create_webhook(
            &admin,
            json!({"url": hook.url, "event_types": ["result.entered", "result.corrected"]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let secret = r.body["secret"].as_str().expect("secret").to_string();
    let db = keep_db(&app._db);
    let url = db.url.clone();
    let before = tally(&url, fx.comp, &game_ids);
    let start_id: i64 = {
        use clubcomp_core::test_store::schema::events;
        use diesel::dsl::max;
        use diesel::prelude::*;
        let pool =
            clubcomp_core::test_store::build_pool(&url, 1, Duration::from_secs(10)).expect("pool");
        let mut c = pool.get().expect("connection");
        events::table
            .select(max(events::id))
            .first::<Option<i64>>(&mut c)
            .expect("events")
            .unwrap_or(0)
    };
    // only the child holds the database from here on
    let TestApp { svc, state, _db } = app;
    drop(svc);
    drop(state);

    let quick_hooks = [
        ("WEBHOOK_ALLOW_PRIVATE", "true"),
        ("WEBHOOK_POLL_MS", "20"),
        ("WEBHOOK_BACKOFF_BASE_MS", "50"),
    ];
    let mut server = Server::start(&url, &quick_hooks);
    let port = server.port;
    let results = "types=result.entered,result.corrected";
    let first = Follower::start(port, results, Some(start_id));
    let t = Instant::now();
    while !first.open.load(Ordering::SeqCst) {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "the stream did not open"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let acked = Arc::new(std::sync::Mutex::new(Vec::<(i64, String)>::new()));
    let writers: Vec<_> = game_ids
        .iter()
        .enumerate()
        .map(|(i, &game)| {
            let (acked, arbiter) = (acked.clone(), arbiter.clone());
            std::thread::spawn(move || {
                let codes = ["1-0", "0-1", "1/2-1/2"];
                for n in (i..).take(10_000) {
                    let code = codes[n % 3];
                    let body = json!({"result": code});
                    match try_http(
                        port,
                        "PUT",
                        &paths::result(game),
                        Some(&arbiter),
                        &[],
                        Some(&body),
                    ) {
                        Ok(r) if r.status == 200 => {
                            acked.lock().unwrap().push((game, code.to_string()))
                        }
                        Ok(r) => panic!("write refused: {} {}", r.status, r.text),
                        Err(_) => return, // the server is gone
                    }
                }
            })
        })
        .collect();
    // let writes pile up, then kill in the middle of them
    let t = Instant::now();
    while acked.lock().unwrap().len() < 150 && t.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(5));
    }
    server.kill();
    for w in writers {
        w.join().expect("a writer failed");
    }
    let acked = acked.lock().unwrap().clone();
    assert!(
        acked.len() >= 150,
        "only {} writes before the kill",
        acked.len()
    );

    let seen_before_kill = first.finish();

    // restart on the same database
    let server = Server::start(&url, &quick_hooks);
    let after = tally(&url, fx.comp, &game_ids);
    let mut stored = 0;
    for ((id, v0, r0), (id1, v1, r1)) in before.games.iter().zip(&after.games) {
        assert_eq!(id, id1);
        assert!(r0.is_none());
        let audits = after.audits.get(id).cloned().unwrap_or_default();
        let writes = (v1 - v0) as usize;
        assert_eq!(
            audits.len(),
            writes,
            "game {id}: {writes} version steps but {} audit entries",
            audits.len()
        );
        let acked_here: Vec<&String> = acked
            .iter()
            .filter(|(g, _)| g == id)
            .map(|(_, c)| c)
            .collect();
        assert!(
            writes >= acked_here.len(),
            "game {id}: {} acknowledged writes but only {writes} stored",
            acked_here.len()
        );
        let events = after.events.get(id).cloned().unwrap_or_default();
        let audited: Vec<(String, Option<String>)> = audits
            .iter()
            .enumerate()
            .map(|(n, a)| {
                let a: Value = serde_json::from_str(a).expect("audit JSON");
                let kind = if n == 0 {
                    "result.entered"
                } else {
                    "result.corrected"
                };
                (kind.to_string(), a["result"].as_str().map(str::to_string))
            })
            .collect();
        assert_eq!(
            events, audited,
            "game {id}: one event per stored write, entered first, then corrections"
        );
        if let Some(last) = audits.last() {
            let last: Value = serde_json::from_str(last).expect("audit JSON");
            assert_eq!(
                last["result"].as_str(),
                r1.as_deref(),
                "game {id}: the stored result is the last audited one"
            );
        } else {
            assert!(r1.is_none(), "game {id}: a result without an audit entry");
        }
        stored += writes;
    }
    assert_eq!(
        after.stamp - before.stamp,
        stored as i64,
        "the cache stamp moved once per stored write"
    );
    // and the restarted server answers with the stored results
    let r = server.req("GET", &paths::round(fx.comp, 1), Some(&leader), None);
    assert_eq!(r.status, 200, "{}", r.text);
    let shown: Vec<Option<String>> = r.json()["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| g["result"].as_str().map(str::to_string))
        .collect();
    let stored_results: Vec<Option<String>> =
        after.games.iter().map(|(_, _, r)| r.clone()).collect();
    assert_eq!(shown, stored_results);

    // the log's result events, in id order
    let logged: Vec<i64> = {
        use clubcomp_core::test_store::schema::events;
        use diesel::prelude::*;
        let pool =
            clubcomp_core::test_store::build_pool(&url, 1, Duration::from_secs(10)).expect("pool");
        let mut c = pool.get().expect("connection");
        events::table
            .filter(events::game_id.eq_any(&game_ids))
            .filter(events::kind.like("result.%"))
            .order(events::id)
            .select(events::id)
            .load(&mut c)
            .expect("events")
    };
    assert_eq!(logged.len(), stored, "one result event per stored write");
    // the stream client resumes after the last id it received, and gets each event once
    let cursor = seen_before_kill.last().copied().unwrap_or(start_id);
    let resumed = Follower::start(server.port, results, Some(cursor));
    let missed: Vec<i64> = logged.iter().copied().filter(|id| *id > cursor).collect();
    resumed.wait_for(&missed);
    let mut streamed = seen_before_kill.clone();
    streamed.extend(resumed.finish());
    assert_eq!(
        streamed, logged,
        "the stream, before the kill and resumed after it, delivered each event once in order"
    );
    // the webhook receiver gets every event at least once, signed; it deduplicates by id
    let end = Instant::now() + Duration::from_secs(60);
    let delivered = loop {
        let got = hook.received();
        let ids: std::collections::BTreeSet<i64> = got
            .iter()
            .map(|r| {
                r.header("webhook-id")
                    .parse()
                    .expect("a numeric webhook-id")
            })
            .collect();
        if logged.iter().all(|id| ids.contains(id)) {
            break got;
        }
        assert!(
            Instant::now() < end,
            "{} of {} events delivered to the webhook",
            logged.iter().filter(|id| ids.contains(id)).count(),
            logged.len()
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    for r in &delivered {
        assert!(r.signed_with(&secret), "a delivery with a bad signature");
        assert_eq!(
            r.json()["id"].to_string(),
            r.header("webhook-id"),
            "the body is the event the id names"
        );
    }
    drop(server);
    drop(_db);
    drop(db);
}

/// A process run with JSON debug logs captured: login (good and failed), user creation, a
/// password reset, refresh tokens (a refresh, a reuse, a logout), a service token; the log
/// shows the requests but none of the passwords, password hashes, the JWT secret or the
/// issued tokens (access and refresh), and no response shows a hash.
#[actix_web::test]
async fn logs_and_responses_hold_no_secrets() {
    let db = fresh_db();
    let admin_pw = "AdminPw4Log7Test";
    let server = Server::start(
        &db.url,
        &[
            ("LOG_FORMAT", "json"),
            ("RUST_LOG", "debug"),
            ("BOOTSTRAP_ADMIN_EMAIL", "admin@club.example"),
            ("BOOTSTRAP_ADMIN_PASSWORD", admin_pw),
            // no grace for a retried refresh: the reuse below ends the login and is logged
            ("REFRESH_GRACE_SECONDS", "0"),
        ],
    );
    let login = |email: &str, pw: &str| {
        server.req(
            "POST",
            paths::LOGIN,
            None,
            Some(&json!({"email": email, "password": pw})),
        )
    };
    let mut responses = Vec::new();
    let mut secrets: Vec<String> = vec![admin_pw.into(), SECRET.into()];
    let r = login("admin@club.example", admin_pw);
    assert_eq!(r.status, 200, "{}", r.text);
    let admin = r.json()["token"].as_str().expect("token").to_string();
    secrets.push(admin.clone());
    responses.push(r);
    // failed logins: a wrong password, an unknown account
    let (wrong1, wrong2) = ("WrongPw1ForAdmin", "NobodysPw2Here");
    secrets.extend([wrong1.to_string(), wrong2.to_string()]);
    let r = login("admin@club.example", wrong1);
    assert_eq!(r.status, 401, "{}", r.text);
    responses.push(r);
    let r = login("nobody@club.example", wrong2);
    assert_eq!(r.status, 401, "{}", r.text);
    responses.push(r);
    // a user created with a password, who logs in
    let member_pw = "MemberPw5Secret";
    secrets.push(member_pw.into());
    let r = server.req(
        "POST",
        paths::USERS,
        Some(&admin),
        Some(&json!({"email": "member@club.example", "password": member_pw, "roles": ["member"]})),
    );
    assert_eq!(r.status, 201, "{}", r.text);
    let member_id = r.json()["id"].as_i64().expect("id");
    responses.push(r);
    let r = login("member@club.example", member_pw);
    assert_eq!(r.status, 200, "{}", r.text);
    secrets.push(r.json()["token"].as_str().expect("token").to_string());
    responses.push(r);
    // the password is reset; the new one works, the old one not
    let new_pw = "ResetPw6Secret";
    secrets.push(new_pw.into());
    let r = server.req(
        "POST",
        &paths::user_password(member_id),
        Some(&admin),
        Some(&json!({"password": new_pw})),
    );
    assert_eq!(r.status, 204, "{}", r.text);
    responses.push(r);
    let r = login("member@club.example", new_pw);
    assert_eq!(r.status, 200, "{}", r.text);
    let member = r.json()["token"].as_str().expect("token").to_string();
    secrets.push(member.clone());
    let first = r.json()["refresh_token"]
        .as_str()
        .expect("refresh")
        .to_string();
    secrets.push(first.clone());
    responses.push(r);
    // the member stays signed in: a refresh, a reuse of the spent token, a logout
    let refresh = |token: &str| {
        let body = json!({"refresh_token": token});
        server.req("POST", paths::REFRESH, None, Some(&body))
    };
    let r = refresh(&first);
    assert_eq!(r.status, 200, "{}", r.text);
    let second = r.json()["refresh_token"]
        .as_str()
        .expect("refresh")
        .to_string();
    secrets.push(second.clone());
    secrets.push(r.json()["token"].as_str().expect("token").to_string());
    let r = refresh(&first);
    assert_eq!(r.status, 401, "{}", r.text);
    responses.push(r);
    let r = server.req(
        "POST",
        paths::LOGOUT,
        None,
        Some(&json!({"refresh_token": second})),
    );
    assert_eq!(r.status, 204, "{}", r.text);
    let r = login("member@club.example", member_pw);
    assert_eq!(r.status, 401, "{}", r.text);
    responses.push(r);
    // a service token, used once
    let r = server.req(
        "POST",
        paths::SERVICE_TOKENS,
        Some(&admin),
        Some(&json!({"name": "rating sync"})),
    );
    assert_eq!(r.status, 201, "{}", r.text);
    let service = r.json()["token"].as_str().expect("token").to_string();
    secrets.push(service.clone());
    let r = server.req("GET", paths::ME, Some(&service), None);
    assert_eq!(r.status, 200, "{}", r.text);
    responses.push(r);
    // everything that shows users
    for (path, token) in [
        (paths::USERS, &admin),
        (paths::ME, &admin),
        (paths::ME, &member),
        (paths::SERVICE_TOKENS, &admin),
    ] {
        let r = server.req("GET", path, Some(token), None);
        assert_eq!(r.status, 200, "{path}: {}", r.text);
        responses.push(r);
    }
    let r = server.req(
        "PATCH",
        &paths::user(member_id),
        Some(&admin),
        Some(&json!({"roles": ["member", "leader"]})),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    responses.push(r);
    for r in &responses {
        for bad in ["$argon2", "password_hash", admin_pw, member_pw, new_pw] {
            assert!(!r.text.contains(bad), "a response shows {bad}: {}", r.text);
        }
    }

    let log = server.log_text();
    assert!(
        log.contains(paths::LOGIN) && log.contains(paths::REFRESH) && log.contains(paths::USERS),
        "the requests are logged: {log}"
    );
    assert!(
        log.lines()
            .all(|l| serde_json::from_str::<Value>(l).is_ok())
    );
    // a token's signature alone is a leak too
    let signatures: Vec<String> = secrets
        .iter()
        .filter(|s| s.matches('.').count() == 2)
        .filter_map(|s| s.rsplit('.').next().map(str::to_string))
        .collect();
    secrets.extend(signatures);
    secrets.push("$argon2".into());
    for s in &secrets {
        assert!(
            !log.contains(s.as_str()),
            "the log holds a secret ({s}): {log}"
        );
    }
}
