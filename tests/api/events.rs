//! The event log: what a write records, in its transaction, and the order in which readers
//! following the log by id see concurrent writers' events (docs/decisions/0220-event-log.md).

use crate::support::*;
use actix_web::http::StatusCode;
use clubcomp::ids::{CompetitionId, GameId};
use clubcomp_core::test_store::DbConn;
use clubcomp_core::test_store::models::events::{
    self, EventKind, EventRow, Filter, NewEvent, Visibility,
};
use serde_json::{Value, json};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Every stored event, oldest first.
async fn all_events(app: &TestApp) -> Vec<EventRow> {
    app.with_conn(|c| {
        let admin = Filter {
            clearance: Some(Visibility::Admin),
            ..Filter::default()
        };
        events::after(c, 0, &admin, 10_000).unwrap()
    })
    .await
}

fn payload(e: &EventRow) -> Value {
    serde_json::from_str(&e.payload).unwrap()
}

/// Pairing, publication, two results and the completion are recorded in that order, each with
/// its competition and visibility, and every write's new standings version beside it.
#[actix_web::test]
async fn playing_an_evening_records_its_events_in_order() {
    let app = spawn().await;
    let (leader, arbiter, cid, games) = published_evening(&app).await;
    for (g, result) in games.iter().zip(["1-0", "½-½"]) {
        let r = app
            .enter_result(&arbiter, g, json!({"result": result}))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let r = app.complete_round(&leader, cid, 1).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);

    let log = all_events(&app).await;
    let ids: Vec<i64> = log.iter().map(|e| e.id).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
    let told: Vec<(&str, &str)> = log
        .iter()
        .filter(|e| e.kind.as_str() != "standings.changed")
        .map(|e| (e.kind.as_str(), e.visibility.as_str()))
        .collect();
    assert_eq!(
        told,
        [
            ("pairing.generated", "leader"),
            ("pairing.published", "public"),
            ("result.entered", "public"),
            ("result.entered", "public"),
            ("round.completed", "public"),
        ]
    );
    let results: Vec<&EventRow> = log
        .iter()
        .filter(|e| e.kind.as_str() == "result.entered")
        .collect();
    assert_eq!(results[0].game_id, Some(GameId(games[0])));
    assert_eq!(results[1].game_id, Some(GameId(games[1])));
    assert_eq!(payload(results[0])["result"], "1-0");
    assert_eq!(payload(results[0])["round"], 1);
    assert!(
        log.iter()
            .filter(|e| e.kind.as_str() != "standings.changed")
            .all(|e| e.competition_id == Some(CompetitionId(cid)))
    );
    // each of these writes changed the competition: a standings event follows each one
    for e in log
        .iter()
        .filter(|e| e.kind.as_str() != "standings.changed")
    {
        let next = log.iter().find(|x| x.id > e.id).expect("an event after it");
        assert_eq!(next.kind.as_str(), "standings.changed", "after {}", e.kind);
        assert_eq!(next.competition_id, Some(CompetitionId(cid)));
    }
    // the last one names the ETag the standings are served with now
    let last = log.last().unwrap();
    assert_eq!(last.kind.as_str(), "standings.changed");
    let standings = app.standings(cid).await;
    assert_eq!(standings.status, StatusCode::OK, "{}", standings.text);
    assert_eq!(
        payload(last)["etag"].as_str(),
        standings.header("etag").as_deref()
    );
}

/// A refused request writes no event: an invalid result, and a completion with results
/// missing.
#[actix_web::test]
async fn a_refused_request_records_no_event() {
    let app = spawn().await;
    let (leader, arbiter, cid, games) = published_evening(&app).await;
    let before = all_events(&app).await;
    let r = app
        .enter_result(&arbiter, games[0], json!({"result": "7-3"}))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let r = app.complete_round(&leader, cid, 1).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(all_events(&app).await, before);
}

/// A correction is a `result.corrected` event naming the new result.
#[actix_web::test]
async fn a_changed_result_is_a_correction() {
    let app = spawn().await;
    let (_leader, arbiter, _cid, games) = published_evening(&app).await;
    for result in ["1-0", "0-1"] {
        let r = app
            .enter_result(&arbiter, games[0], json!({"result": result}))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let log = all_events(&app).await;
    let kinds: Vec<(&str, Option<String>)> = log
        .iter()
        .filter(|e| e.kind.as_str().starts_with("result."))
        .map(|e| {
            (
                e.kind.as_str(),
                payload(e)["result"].as_str().map(str::to_string),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("result.entered", Some("1-0".to_string())),
            ("result.corrected", Some("0-1".to_string()))
        ]
    );
}

fn connect(app: &TestApp) -> DbConn {
    clubcomp_core::test_store::DbTarget::parse(&app._db.url)
        .unwrap()
        .connect()
        .unwrap()
}

fn one_event(n: i64) -> Vec<NewEvent> {
    vec![NewEvent::new(EventKind::PlayerChanged, Visibility::Leader).payload(json!({"n": n}))]
}

/// Follows the log by cursor until `want` events were seen (or a generous bound passed, so a
/// missed event fails the test instead of hanging it); every id seen, in order.
fn follow(c: &mut DbConn, want: usize) -> Vec<i64> {
    let everything = Filter {
        clearance: Some(Visibility::Admin),
        ..Filter::default()
    };
    let mut cursor = 0;
    let mut seen = Vec::new();
    let bound = Instant::now() + Duration::from_secs(20);
    while seen.len() < want && Instant::now() < bound {
        for e in events::after(c, cursor, &everything, 100).unwrap() {
            assert!(e.id > cursor);
            cursor = e.id;
            seen.push(e.id);
        }
    }
    seen
}

/// The ordering trap: writer A takes its event id and is slow to commit; writer B starts
/// after A took its id and commits. A reader that follows the log by cursor must still see
/// both, A's first: B's id is taken only once A committed (on Postgres the advisory lock; on
/// SQLite the one writer).
#[actix_web::test]
async fn a_later_writer_never_commits_an_event_before_an_earlier_one() {
    let app = spawn().await;
    let (mut a, mut b, mut reader) = (connect(&app), connect(&app), connect(&app));
    let (took, taken) = mpsc::channel::<i64>();
    let (b_done, b_finished) = mpsc::channel::<i64>();
    let writer_a = std::thread::spawn(move || {
        use diesel::Connection;
        a.transaction(|c| {
            let id = events::insert_in_order(c, &one_event(1))?.unwrap();
            took.send(id).unwrap();
            // B starts its write meanwhile
            std::thread::sleep(Duration::from_millis(300));
            diesel::QueryResult::Ok(id)
        })
        .unwrap()
    });
    let first = taken.recv().unwrap();
    let writer_b = std::thread::spawn(move || {
        use diesel::Connection;
        let id = b
            .transaction(|c| events::insert_in_order(c, &one_event(2)))
            .unwrap()
            .unwrap();
        b_done.send(id).unwrap();
        id
    });
    let seen = follow(&mut reader, 2);
    let id_a = writer_a.join().unwrap();
    let id_b = writer_b.join().unwrap();
    assert_eq!(b_finished.recv().unwrap(), id_b);
    assert_eq!(id_a, first);
    assert!(id_a < id_b, "A took its id first: {id_a} {id_b}");
    assert_eq!(seen, vec![id_a, id_b], "every event exactly once, in order");
}

/// Two writers recording through the write transaction at once, and a reader following by
/// cursor meanwhile: the reader sees each of the 2 × 40 events exactly once.
#[actix_web::test]
async fn a_reader_following_concurrent_writers_sees_every_event_once() {
    let app = spawn().await;
    let writers: Vec<_> = (0..2)
        .map(|w| {
            let mut c = connect(&app);
            std::thread::spawn(move || {
                for i in 0..40 {
                    clubcomp_core::test_store::stamps::write(&mut c, |c| {
                        for e in one_event(w * 100 + i) {
                            clubcomp_core::test_store::stamps::record(c, e)?;
                        }
                        diesel::QueryResult::Ok(())
                    })
                    .unwrap();
                }
            })
        })
        .collect();
    let mut reader = connect(&app);
    let seen = follow(&mut reader, 80);
    for w in writers {
        w.join().unwrap();
    }
    assert_eq!(seen.len(), 80, "{seen:?}");
    assert!(seen.windows(2).all(|w| w[0] < w[1]));
    let stored: Vec<i64> = all_events(&app).await.iter().map(|e| e.id).collect();
    assert_eq!(seen, stored);
}

/// Follows the changes feed from the start with `query`, `limit` events a page, until a page
/// comes back empty; every event, in order.
async fn follow_feed(app: &TestApp, token: &str, query: &str, limit: u32) -> Vec<Value> {
    let mut after = "0".to_string();
    let mut out = Vec::new();
    loop {
        let r = app
            .changes(token, &format!("after={after}&limit={limit}{query}"))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let items = r.body["items"].as_array().unwrap().clone();
        assert!(items.len() <= limit as usize);
        let next = r.body["next"].as_str().unwrap().to_string();
        if items.is_empty() {
            assert_eq!(next, after, "an empty page keeps the cursor");
            return out;
        }
        assert_eq!(next, items.last().unwrap()["id"].to_string());
        after = next;
        out.extend(items);
    }
}

/// A sync job that only follows the feed (results, two a page) rebuilds every game result of
/// a played competition, a correction included: the same results as the rounds API shows.
#[actix_web::test]
async fn a_sync_job_following_the_feed_rebuilds_every_result() {
    let app = spawn().await;
    let (leader, arbiter, cid, games) = published_evening(&app).await;
    for (g, result) in [(games[0], "1-0"), (games[1], "0-1"), (games[0], "½-½")] {
        let r = app
            .enter_result(
                &arbiter,
                g,
                json!({"result": result, "reason": "scoresheet"}),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let r = app.complete_round(&leader, cid, 1).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    add_round(&app, &leader, cid, "2099-01-09").await;
    let r = app.generate_pairing(&leader, cid, 2, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let r = app.publish_round(&leader, cid, 2).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    for g in r.body["games"].as_array().unwrap() {
        let r = app
            .enter_result(
                &arbiter,
                g["id"].as_i64().unwrap(),
                json!({"result": "1-0"}),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }

    let admin = app.token(&["admin"]).await;
    let sync = app.service_token(&admin, "results sync").await;
    let feed = follow_feed(&app, &sync, "&types=result.entered,result.corrected", 2).await;
    assert_eq!(
        feed.len(),
        5,
        "three results and a correction of round 1, two of round 2"
    );
    // the parameter repeated reads as the comma list
    let repeated = follow_feed(
        &app,
        &sync,
        "&types=result.entered&types=result.corrected",
        2,
    )
    .await;
    assert_eq!(repeated, feed);
    let mut rebuilt = std::collections::BTreeMap::new();
    for e in &feed {
        assert!(e["type"] == "result.entered" || e["type"] == "result.corrected");
        assert_eq!(e["competition_id"], cid);
        rebuilt.insert(
            e["game_id"].as_i64().unwrap(),
            e["payload"]["result"].clone(),
        );
    }
    let mut shown = std::collections::BTreeMap::new();
    for n in [1, 2] {
        let r = app.public_round(cid, n).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        for g in r.body["games"].as_array().unwrap() {
            shown.insert(g["id"].as_i64().unwrap(), g["result"].clone());
        }
    }
    assert_eq!(rebuilt, shown);
    assert_eq!(
        rebuilt[&games[0]], "1/2-1/2",
        "the correction is the last word"
    );

    // a service token sees only the public events; an admin sees the leader's too
    let all_public = follow_feed(&app, &sync, "", 1000).await;
    assert!(all_public.iter().all(|e| e["visibility"] == "public"));
    assert!(!all_public.iter().any(|e| e["type"] == "pairing.generated"));
    let everything = follow_feed(&app, &admin, "", 1000).await;
    let generated = everything
        .iter()
        .filter(|e| e["type"] == "pairing.generated")
        .count();
    assert_eq!(generated, 2, "one per round");
}

/// The feed's bounds: a cursor that is no event id or lies ahead of the log names `after`,
/// an unknown type or a type list over 400 characters names `types`, a page outside 1–1000
/// names `limit`.
#[actix_web::test]
async fn the_feed_refuses_bad_cursors_types_and_limits() {
    let app = spawn().await;
    let (_leader, _arbiter, _cid, _games) = published_evening(&app).await;
    let admin = app.token(&["admin"]).await;
    let newest = all_events(&app).await.last().unwrap().id;
    // "result.entered" is 14 characters: 26 of them with their commas make 389, 27 make 404
    let types = |n: usize, sep: &str| vec!["result.entered"; n].join(sep);
    let r = app
        .changes(&admin, &format!("types={}", types(26, ",")))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    for query in [
        format!("types={}", types(27, ",")),
        format!("types={}", types(27, "&types=")),
    ] {
        let r = app.changes(&admin, &query).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
        assert_eq!(r.errors("field"), vec!["types"], "{}", r.text);
        assert!(r.text.contains("at most 400 characters"), "{}", r.text);
    }
    for (query, field) in [
        ("after=abc".to_string(), "after"),
        ("after=-1".to_string(), "after"),
        (format!("after={}", newest + 1), "after"),
        ("types=result.entered,results".to_string(), "types"),
        ("types=result.entered&types=results".to_string(), "types"),
        ("limit=0".to_string(), "limit"),
        ("limit=1001".to_string(), "limit"),
    ] {
        let r = app.changes(&admin, &query).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{query}: {}",
            r.text
        );
        assert_eq!(r.errors("field"), vec![field], "{query}: {}", r.text);
    }
    let r = app.changes(&admin, &format!("after={newest}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["items"], json!([]));
    // a member's token is not a sync job's
    let member = app.token(&["member"]).await;
    assert_eq!(app.changes(&member, "").await.status, StatusCode::FORBIDDEN);
}

/// Expired events are purged oldest first, a batch at a time, and a cursor below what was
/// purged is refused naming `after` instead of being answered with a gap.
#[actix_web::test]
async fn a_cursor_below_the_purged_events_is_refused() {
    let app = spawn().await;
    published_evening(&app).await;
    let before = all_events(&app).await;
    assert!(before.len() > 3);
    let purged = app
        .with_conn(|c| {
            // everything stored so far counts as expired: retention of -1 day
            clubcomp::services::events::purge_expired(c, chrono::Duration::days(-1)).unwrap()
        })
        .await;
    assert_eq!(purged, before.len());
    let admin = app.token(&["admin"]).await;
    let r = app.changes(&admin, "after=0").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), vec!["after"]);
    let last = before.last().unwrap().id;
    let r = app.changes(&admin, &format!("after={last}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}
