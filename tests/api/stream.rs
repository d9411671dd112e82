//! The live event stream (`GET /stream`, docs/decisions/0221-event-stream.md): the event log
//! pushed as Server-Sent Events, by role, filtered, resumed by id without gap or duplicate,
//! bounded in clients and in how far a client may fall behind.

use crate::support::*;
use actix_web::http::StatusCode;
use clubcomp_core::test_store::models::events::{self, EventRow, Filter, Visibility};
use serde_json::json;

/// The application with streams that stay open longer than any test takes.
async fn spawn() -> TestApp {
    spawn_with(|_| {}).await
}

/// [`spawn`] with the configuration changed by `edit`.
async fn spawn_with(edit: impl FnOnce(&mut clubcomp::config::Config)) -> TestApp {
    crate::support::spawn_with(|c| {
        c.stream_max_duration = std::time::Duration::from_secs(600);
        edit(c);
    })
    .await
}

/// The stored events after `after` that a reader of `clearance` may see, oldest first.
async fn log_after(app: &TestApp, after: i64, clearance: Visibility) -> Vec<EventRow> {
    app.with_conn(move |c| {
        let f = Filter {
            clearance: Some(clearance),
            ..Filter::default()
        };
        events::after(c, after, &f, 10_000).unwrap()
    })
    .await
}

/// The newest event id stored (0 when none).
async fn newest(app: &TestApp) -> i64 {
    app.with_conn(|c| events::last_id(c).unwrap()).await
}

/// A Keizer winter of four fixed members with one round added (not yet paired):
/// `(club, competition)`.
async fn winter(app: &TestApp, name: &str) -> (Club, i64) {
    let club = ClubBuilder::new().build(app).await;
    let cid = CompetitionBuilder::new(json!({"name": name, "kind": "keizer", "half": "winter"}))
        .members_of("fixed", &["Anna", "Bert", "Cor", "Dirk"])
        .create(app, &club.leader)
        .await
        .comp;
    add_round(app, &club.leader, cid, FUTURE).await;
    (club, cid)
}

/// Pairs and publishes round 1 of `cid`; returns its game ids.
async fn pair_and_publish(app: &TestApp, leader: &str, cid: i64) -> Vec<i64> {
    let r = app.generate_pairing(leader, cid, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let r = app.publish_round(leader, cid, 1).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    ints(&r.body["games"], "id")
}

async fn result(app: &TestApp, arbiter: &str, game: i64, result: &str) {
    let r = app
        .enter_result(arbiter, game, json!({"result": result}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

fn kinds(events: &[(i64, String, serde_json::Value)]) -> Vec<&str> {
    events
        .iter()
        .map(|e| e.1.as_str())
        .filter(|k| *k != "standings.changed")
        .collect()
}

/// A client without a token receives the publication and a result as they happen, each with
/// its log id, its type and the event as the changes feed lists it.
#[actix_web::test]
async fn a_public_client_receives_a_published_pairing_and_a_result() {
    let app = spawn().await;
    let (club, cid) = winter(&app, "Keizer").await;
    let start = newest(&app).await;
    let mut s = app.open_stream("", None, None).await.stream();
    assert_eq!(
        s.headers.get("content-type").unwrap().to_str().unwrap(),
        "text/event-stream"
    );
    assert_eq!(s.next().await, Some(Sse::Retry(3000)));
    let games = pair_and_publish(&app, &club.leader, cid).await;
    result(&app, &club.arbiter, games[0], "1-0").await;
    let log = log_after(&app, 0, Visibility::Public).await;
    let entered = log
        .iter()
        .find(|e| e.kind.as_str() == "result.entered")
        .unwrap();
    let got = s.events_through(entered.id).await;
    assert_eq!(kinds(&got), ["pairing.published", "result.entered"]);
    let published = log
        .iter()
        .find(|e| e.kind.as_str() == "pairing.published")
        .unwrap();
    let sent_published = got.iter().find(|e| e.1 == "pairing.published").unwrap();
    assert_eq!(sent_published.0, published.id);
    assert_eq!(sent_published.2["id"], published.id);
    assert_eq!(sent_published.2["type"], "pairing.published");
    assert_eq!(sent_published.2["competition_id"], cid);
    assert_eq!(sent_published.2["payload"]["round"], 1);
    assert_eq!(sent_published.2["visibility"], "public");
    let sent_result = got.last().unwrap();
    assert_eq!(sent_result.0, entered.id);
    assert_eq!(sent_result.1, "result.entered");
    assert_eq!(sent_result.2["game_id"], games[0]);
    assert_eq!(sent_result.2["payload"]["result"], "1-0");
    // every id sent is the log's, in its order: the public events after the stream opened
    // (the pairing's new standings version among them, not the pairing itself)
    let ids: Vec<i64> = got.iter().map(|e| e.0).collect();
    let expected: Vec<i64> = log
        .iter()
        .filter(|e| e.id > start && e.id <= entered.id)
        .map(|e| e.id)
        .collect();
    // pairing's standings, publication, its standings, result
    assert_eq!(expected.len(), 4, "{log:?}");
    assert_eq!(ids, expected);
}

/// The pairing before publication is the leader's: a client without a token does not
/// receive it, a leader's token does; an invalid token is refused.
#[actix_web::test]
async fn leader_events_need_a_leader_token() {
    let app = spawn().await;
    let (club, cid) = winter(&app, "Keizer").await;
    let mut public = app.open_stream("", None, None).await.stream();
    let mut leader = app.open_stream("", Some(&club.leader), None).await.stream();
    let mut arbiter = app
        .open_stream("", Some(&club.arbiter), None)
        .await
        .stream();
    pair_and_publish(&app, &club.leader, cid).await;
    let log = log_after(&app, 0, Visibility::Admin).await;
    let published = log
        .iter()
        .find(|e| e.kind.as_str() == "pairing.published")
        .unwrap()
        .id;
    let generated = log
        .iter()
        .find(|e| e.kind.as_str() == "pairing.generated")
        .unwrap();
    assert_eq!(generated.visibility.as_str(), "leader");
    assert_eq!(
        kinds(&public.events_through(published).await),
        ["pairing.published"]
    );
    assert_eq!(
        kinds(&arbiter.events_through(published).await),
        ["pairing.published"]
    );
    let got = leader.events_through(published).await;
    assert_eq!(kinds(&got), ["pairing.generated", "pairing.published"]);
    assert_eq!(got[0].0, generated.id);
    let r = app
        .open_stream("", Some("not-a-token"), None)
        .await
        .refused();
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
}

/// A client that reconnects with `Last-Event-ID` gets every event after it — those recorded
/// while it was away from the log, then the new ones live — each once, in the log's order.
#[actix_web::test]
async fn last_event_id_resumes_without_gap_or_duplicate() {
    let app = spawn().await;
    let (club, cid) = winter(&app, "Keizer").await;
    let start = newest(&app).await;
    let mut s = app
        .open_stream(&format!("after={start}"), None, None)
        .await
        .stream();
    let games = pair_and_publish(&app, &club.leader, cid).await;
    for r in ["1-0", "0-1", "1/2-1/2"] {
        result(&app, &club.arbiter, games[0], r).await;
    }
    // the client reads up to the first correction and goes away
    let first_correction = log_after(&app, start, Visibility::Public)
        .await
        .into_iter()
        .find(|e| e.kind.as_str() == "result.corrected")
        .unwrap()
        .id;
    let mut got = s.events_through(first_correction).await;
    drop(s);
    // a burst while it is away
    for r in ["1-0", "0-1", "1-0"] {
        result(&app, &club.arbiter, games[1], r).await;
    }
    let last_seen = got.last().unwrap().0.to_string();
    let mut s = app
        .open_stream("after=0", None, Some(&last_seen))
        .await
        .stream();
    // and a burst after it came back
    for r in ["0-1", "1/2-1/2"] {
        result(&app, &club.arbiter, games[0], r).await;
    }
    let end = newest(&app).await;
    got.extend(s.events_through(end).await);
    let ids: Vec<i64> = got.iter().map(|e| e.0).collect();
    let expected: Vec<i64> = log_after(&app, start, Visibility::Public)
        .await
        .iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(ids, expected);
    // 1 publication, 8 results (2 first results, 6 corrections), each with its standings
    assert_eq!(
        kinds(&got),
        [
            "pairing.published",
            "result.entered",
            "result.corrected",
            "result.corrected",
            "result.entered",
            "result.corrected",
            "result.corrected",
            "result.corrected",
            "result.corrected",
        ]
    );
}

/// A stream of one competition and one type receives that competition's events of that type
/// only.
#[actix_web::test]
async fn filters_by_competition_and_type() {
    let app = spawn().await;
    let (club, a) = winter(&app, "Keizer A").await;
    let b =
        CompetitionBuilder::new(json!({"name": "Keizer B", "kind": "keizer", "half": "winter"}))
            .members_of("fixed", &["Eva", "Fred", "Gijs", "Hans"])
            .create(&app, &club.leader)
            .await
            .comp;
    add_round(&app, &club.leader, b, FUTURE).await;
    let mut s = app
        .open_stream(
            &format!("competition={a}&types=result.entered,round.completed"),
            None,
            None,
        )
        .await
        .stream();
    let games_b = pair_and_publish(&app, &club.leader, b).await;
    let games_a = pair_and_publish(&app, &club.leader, a).await;
    result(&app, &club.arbiter, games_b[0], "1-0").await;
    result(&app, &club.arbiter, games_a[1], "0-1").await;
    result(&app, &club.arbiter, games_a[0], "1-0").await;
    result(&app, &club.arbiter, games_b[1], "1-0").await;
    let r = app.complete_round(&club.leader, a, 1).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let completed = newest(&app).await;
    let got = s.events_through(completed - 1).await;
    let seen: Vec<(&str, i64, Option<i64>)> = got
        .iter()
        .map(|e| {
            (
                e.1.as_str(),
                e.2["competition_id"].as_i64().unwrap(),
                e.2["game_id"].as_i64(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("result.entered", a, Some(games_a[1])),
            ("result.entered", a, Some(games_a[0])),
            ("round.completed", a, None),
        ]
    );
}

/// Filters and cursors are checked before the stream opens, each refusal naming its field.
#[actix_web::test]
async fn a_bad_filter_or_cursor_is_refused_naming_it() {
    let app = spawn().await;
    let (club, cid) = winter(&app, "Keizer").await;
    pair_and_publish(&app, &club.leader, cid).await;
    let last = newest(&app).await;
    let long_types = vec!["result.entered"; 40].join(",");
    for (query, header, field) in [
        ("types=result.entered,results", None, "types"),
        ("types=result.entered&types=results", None, "types"),
        (long_types.as_str(), None, "types"),
        ("competition=abc", None, "competition"),
        ("competition=0", None, "competition"),
        ("evening=-3", None, "evening"),
        ("after=x1", None, "after"),
        ("", Some("1e3"), "Last-Event-ID"),
        ("after=1", Some("999999"), "Last-Event-ID"),
        ("after=null", Some("0"), "after"),
        ("after=999999", None, "after"),
        ("max_events=0", None, "max_events"),
        ("max_events=1001", None, "max_events"),
        ("max_events=2.5", None, "max_events"),
        ("max_seconds=0", None, "max_seconds"),
        // above this application's STREAM_MAX_SECONDS (600)
        ("max_seconds=601", None, "max_seconds"),
    ] {
        let query = if field == "types" && query == long_types {
            format!("types={long_types}")
        } else {
            query.to_string()
        };
        let r = app.open_stream(&query, None, header).await.refused();
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{query} {header:?}: {}",
            r.text
        );
        assert_eq!(
            r.header("content-type").as_deref(),
            Some("application/problem+json")
        );
        assert_eq!(r.errors("field"), vec![field], "{query}");
    }
    let r = app.open_stream("competiton=1", None, None).await.refused();
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    assert!(r.text.contains("competiton"), "{}", r.text);
    // a cursor below the purged events: the same refusal as the changes feed's
    app.with_conn(|c| {
        clubcomp::services::events::purge_expired(c, chrono::Duration::days(-1)).unwrap()
    })
    .await;
    let r = app.open_stream("after=0", None, None).await.refused();
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), vec!["after"]);
    assert!(r.text.contains("expired"), "{}", r.text);
    let ok = app.open_stream(&format!("after={last}"), None, None).await;
    ok.stream();
}

/// Beyond `STREAM_MAX_CLIENTS` open streams a client is answered 503 with `Retry-After`; a
/// closed stream frees its place.
#[actix_web::test]
async fn beyond_the_most_clients_the_answer_is_503() {
    let app = spawn_with(|c| c.stream_max_clients = 2).await;
    let first = app.open_stream("", None, None).await.stream();
    let _second = app.open_stream("", None, None).await.stream();
    let r = app.open_stream("", None, None).await.refused();
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.text);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/problem+json")
    );
    assert!(r.header("retry-after").is_some());
    assert!(r.text.contains("STREAM_MAX_CLIENTS"), "{}", r.text);
    drop(first);
    app.open_stream("", None, None).await.stream();
}

/// A client that falls further behind than the hub holds is cut off (with a comment saying
/// so) and resumes by id from the log, missing nothing.
#[actix_web::test]
async fn a_lagging_client_is_cut_off_and_resumes_by_id() {
    let app = spawn_with(|c| c.stream_buffer = 4).await;
    let (club, cid) = winter(&app, "Keizer").await;
    let start = newest(&app).await;
    let mut s = app.open_stream("", None, None).await.stream();
    assert_eq!(s.next().await, Some(Sse::Retry(3000)));
    // 1 publication and 3 results with their standings: 8 events, twice what the hub holds,
    // broadcast while the client reads nothing
    let games = pair_and_publish(&app, &club.leader, cid).await;
    for r in ["1-0", "0-1", "1-0"] {
        result(&app, &club.arbiter, games[0], r).await;
    }
    let end = newest(&app).await;
    for _ in 0..400 {
        if app.state.hub.seen() >= end {
            break;
        }
        actix_web::rt::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(app.state.hub.seen(), end, "the hub read the log");
    let rest = s.rest().await;
    let events: Vec<i64> = rest
        .iter()
        .filter_map(|m| match m {
            Sse::Event { id, .. } => Some(*id),
            _ => None,
        })
        .collect();
    assert!(events.is_empty(), "{rest:?}");
    assert!(
        matches!(rest.last(), Some(Sse::Comment(c)) if c.contains("fell behind")),
        "{rest:?}"
    );
    // it resumes from where it was: every public event since
    let mut s = app
        .open_stream("", None, Some(&start.to_string()))
        .await
        .stream();
    let got = s.events_through(end).await;
    let expected: Vec<i64> = log_after(&app, start, Visibility::Public)
        .await
        .iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(got.iter().map(|e| e.0).collect::<Vec<_>>(), expected);
}

/// A quiet stream sends heartbeats, and ends after `STREAM_MAX_SECONDS` saying why.
#[actix_web::test]
async fn a_quiet_stream_beats_and_ends_at_its_time() {
    let app = spawn_with(|c| {
        c.stream_heartbeat = std::time::Duration::from_secs(1);
        c.stream_max_duration = std::time::Duration::from_secs(3);
    })
    .await;
    let mut s = app.open_stream("", None, None).await.stream();
    let rest = s.rest().await;
    assert_eq!(rest.first(), Some(&Sse::Retry(3000)));
    assert!(
        rest.contains(&Sse::Comment("keep-alive".into())),
        "{rest:?}"
    );
    assert!(
        matches!(rest.last(), Some(Sse::Comment(c)) if c.contains("time is up")),
        "{rest:?}"
    );
}

/// `max_events` ends the stream once that many events were sent, from the log and as they
/// happen, so a client that reads the answer whole gets the next events in one call;
/// `max_seconds` ends it after that time.
#[actix_web::test]
async fn a_stream_ends_after_the_events_or_the_seconds_asked_for() {
    let app = spawn().await;
    let (club, cid) = winter(&app, "Keizer").await;
    let start = newest(&app).await;
    let games = pair_and_publish(&app, &club.leader, cid).await;
    let log = log_after(&app, start, Visibility::Public).await;
    // the pairing's standings version, then the publication and its standings version
    assert_eq!(log.len(), 3, "{log:?}");
    let mut s = app
        .open_stream(&format!("after={start}&max_events=2"), None, None)
        .await
        .stream();
    let rest = s.rest().await;
    let ids: Vec<i64> = rest
        .iter()
        .filter_map(|m| match m {
            Sse::Event { id, .. } => Some(*id),
            _ => None,
        })
        .collect();
    assert_eq!(ids, [log[0].id, log[1].id], "{rest:?}");
    assert!(
        matches!(rest.last(), Some(Sse::Comment(c)) if c.contains("max_events")),
        "{rest:?}"
    );
    // from now on: one result gives its event and a standings version; the first is taken
    let mut s = app
        .open_stream("max_events=1&types=result.entered", None, None)
        .await
        .stream();
    assert_eq!(s.next().await, Some(Sse::Retry(3000)));
    result(&app, &club.arbiter, games[0], "1-0").await;
    result(&app, &club.arbiter, games[1], "0-1").await;
    let rest = s.rest().await;
    assert_eq!(rest.len(), 2, "{rest:?}");
    assert!(
        matches!(&rest[0], Sse::Event { kind, data, .. } if kind == "result.entered" && data["game_id"] == games[0]),
        "{rest:?}"
    );
    assert!(
        matches!(&rest[1], Sse::Comment(c) if c.contains("max_events")),
        "{rest:?}"
    );
    // nothing comes: the stream ends after its second
    let mut s = app
        .open_stream("max_seconds=1&types=prizes.finalized", None, None)
        .await
        .stream();
    let rest = s.rest().await;
    assert!(
        matches!(rest.last(), Some(Sse::Comment(c)) if c.contains("time is up")),
        "{rest:?}"
    );
}

/// A write made through another instance on the same database reaches a stream of this one
/// (Postgres: its notification; SQLite: the poll).
#[actix_web::test]
async fn a_write_through_another_instance_reaches_the_stream() {
    let app = spawn().await;
    let other = spawn_beside(&app).await;
    let (club, cid) = winter(&app, "Keizer").await;
    let mut s = app.open_stream("", None, None).await.stream();
    let r = other
        .generate_pairing(&club.leader, cid, 1, json!({}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let r = other.publish_round(&club.leader, cid, 1).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let published = log_after(&other, 0, Visibility::Public)
        .await
        .into_iter()
        .find(|e| e.kind.as_str() == "pairing.published")
        .unwrap()
        .id;
    let got = s.events_through(published).await;
    assert_eq!(kinds(&got), ["pairing.published"]);
    assert_eq!(got.last().unwrap().0, published);
}
