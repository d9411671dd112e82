//! Webhooks (docs/decisions/0222-webhooks.md, 0223-webhook-outbound-guard.md): subscriptions,
//! signed deliveries to a receiver on loopback, retries with backoff, time-outs, the outbound
//! guard, redirects, redelivery and a restarted worker.

use crate::support::*;
use actix_web::http::StatusCode;
use clubcomp::config::Config;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Quick retries and polls for tests, deliveries to loopback allowed.
fn quick(c: &mut Config) {
    c.webhook_allow_private = true;
    c.webhook_poll = Duration::from_millis(20);
    c.webhook_backoff_base = Duration::from_millis(200);
    c.webhook_timeout = Duration::from_secs(1);
    c.webhook_max_attempts = 3;
}

/// An application configured by [`quick`] and then by `edit`, its admin's token and a
/// published evening of four: (app, admin, the arbiter's token, the competition, its two
/// games).
async fn hooked(edit: impl FnOnce(&mut Config)) -> (TestApp, String, String, i64, Vec<i64>) {
    let app = spawn_with(|c| {
        quick(c);
        edit(c);
    })
    .await;
    let admin = app.token(&["admin"]).await;
    let (_leader, arbiter, cid, games) = published_evening(&app).await;
    (app, admin, arbiter, cid, games)
}

/// Subscribes `url` to `types` and returns (id, secret).
async fn subscribe(app: &TestApp, admin: &str, url: &str, types: &[&str]) -> (i64, String) {
    let r = app
        .create_webhook(admin, json!({"url": url, "event_types": types}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    (
        r.body["id"].as_i64().unwrap(),
        r.body["secret"].as_str().unwrap().to_string(),
    )
}

/// Waits (at most 30 s) until the delivery log of `id` satisfies `done`; returns it, oldest
/// first.
async fn log_until(
    app: &TestApp,
    admin: &str,
    id: i64,
    done: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    let end = Instant::now() + Duration::from_secs(30);
    loop {
        let r = app.webhook_deliveries(admin, id, "per_page=200").await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let mut items = r.body["items"].as_array().unwrap().clone();
        items.reverse();
        if done(&items) {
            return items;
        }
        assert!(
            Instant::now() < end,
            "the log of webhook {id} stayed {items:?}"
        );
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A subscription of a receiver to results, with the worker running, once one result has
/// been delivered to it (or given up on).
struct OneDelivery {
    id: i64,
    secret: String,
    /// Delivers until dropped.
    _worker: clubcomp::services::webhooks::worker::Worker,
    /// The subscription's delivery log, oldest first: the one delivery, settled.
    log: Vec<Value>,
}

/// Subscribes `url` to `result.entered`, starts the worker, enters `result` in `game` as
/// `arbiter` and waits until the delivery is no longer pending.
async fn deliver_one(
    app: &TestApp,
    admin: &str,
    arbiter: &str,
    url: &str,
    game: i64,
    result: &str,
) -> OneDelivery {
    let (id, secret) = subscribe(app, admin, url, &["result.entered"]).await;
    let worker = app.start_webhooks();
    let r = app
        .enter_result(arbiter, game, json!({ "result": result }))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let log = log_until(app, admin, id, |l| settled(l, 1)).await;
    OneDelivery {
        id,
        secret,
        _worker: worker,
        log,
    }
}

fn settled(items: &[Value], n: usize) -> bool {
    items.len() >= n && items.iter().all(|d| d["status"] != "pending")
}

/// A result is delivered once, as the changes feed shows it, signed with the subscription's
/// secret: the signature checks with an HMAC computed here, `webhook-id` is the event id, and
/// the timestamp is the time of sending.
#[actix_web::test]
async fn a_result_is_delivered_signed_as_standard_webhooks() {
    let (app, admin, arbiter, cid, games) = hooked(|_| {}).await;
    let hook = Receiver::start(Reply::Status(204));
    let (id, secret) = subscribe(&app, &admin, &hook.url, &["result.entered"]).await;
    assert!(secret.starts_with("whsec_"), "{secret}");
    let _worker = app.start_webhooks();
    let before = chrono::Utc::now().timestamp();
    let r = app
        .enter_result(&arbiter, games[0], json!({"result": "1-0"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let got = hook.wait_for(1).await;
    let after = chrono::Utc::now().timestamp();
    let d = &got[0];
    let body = d.json();
    assert_eq!(body["type"], "result.entered");
    assert_eq!(body["competition_id"], cid);
    assert_eq!(body["game_id"], games[0]);
    assert_eq!(body["payload"]["result"], "1-0");
    assert_eq!(
        d.header("webhook-id"),
        body["id"].as_i64().unwrap().to_string()
    );
    let ts: i64 = d.header("webhook-timestamp").parse().unwrap();
    assert!(
        (before..=after).contains(&ts),
        "{ts} not in {before}..={after}"
    );
    assert!(
        d.signed_with(&secret),
        "signature {}",
        d.header("webhook-signature")
    );
    assert!(!d.signed_with("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
    assert_eq!(d.header("content-type"), "application/json");
    // the same event as the changes feed shows it
    let feed = app
        .changes(
            &admin,
            &format!("after={}&limit=1", body["id"].as_i64().unwrap() - 1),
        )
        .await;
    assert_eq!(feed.body["items"][0], body);
    let log = log_until(&app, &admin, id, |l| settled(l, 1)).await;
    assert_eq!(log.len(), 1, "only the result event: {log:?}");
    assert_eq!(log[0]["status"], "delivered");
    assert_eq!(log[0]["attempts"], 1);
    assert_eq!(log[0]["last_status_code"], 204);
    assert_eq!(log[0]["event_id"], body["id"]);
    assert_eq!(log[0]["next_attempt_at"], Value::Null);
    // the secret is shown once
    let r = app.get_webhook(&admin, id).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.get("secret").is_none() && !r.text.contains(&secret));
    let r = app.list_webhooks(&admin, "").await;
    assert!(!r.text.contains(&secret));
}

/// A receiver answering 500 is tried again after the base wait, then after twice it, and
/// after the last attempt its delivery is failed; its deliveries stay in order, and another
/// subscription receives every event meanwhile.
#[actix_web::test]
async fn a_failing_receiver_is_retried_with_backoff_while_another_keeps_receiving() {
    let (app, admin, arbiter, _cid, games) = hooked(|_| {}).await;
    let failing = Receiver::start(Reply::Status(500));
    let fine = Receiver::start(Reply::Status(200));
    let (bad, _) = subscribe(&app, &admin, &failing.url, &["result.entered"]).await;
    let (good, secret) = subscribe(&app, &admin, &fine.url, &["result.entered"]).await;
    let _worker = app.start_webhooks();
    for (g, result) in games.iter().zip(["1-0", "0-1"]) {
        let r = app
            .enter_result(&arbiter, *g, json!({"result": result}))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let ok = fine.wait_for(2).await;
    assert!(ok.iter().all(|d| d.signed_with(&secret)));
    let results: Vec<Value> = ok
        .iter()
        .map(|d| d.json()["payload"]["result"].clone())
        .collect();
    assert_eq!(results, vec![json!("1-0"), json!("0-1")]);
    let tries = failing.wait_for(6).await;
    let ids: Vec<&str> = tries.iter().map(|d| d.header("webhook-id")).collect();
    let (first, second) = (ok[0].header("webhook-id"), ok[1].header("webhook-id"));
    assert_eq!(ids, vec![first, first, first, second, second, second]);
    // the waits: at least 200 ms, then at least 400 ms
    for k in [0, 3] {
        assert!(tries[k + 1].at - tries[k].at >= Duration::from_millis(200));
        assert!(tries[k + 2].at - tries[k + 1].at >= Duration::from_millis(400));
    }
    let log = log_until(&app, &admin, bad, |l| settled(l, 2)).await;
    for d in &log {
        assert_eq!(d["status"], "failed", "{d}");
        assert_eq!(d["attempts"], 3);
        assert_eq!(d["last_status_code"], 500);
    }
    let r = app.webhook_deliveries(&admin, bad, "status=failed").await;
    assert_eq!(r.body["total"], 2);
    let r = app.webhook_deliveries(&admin, good, "status=failed").await;
    assert_eq!(r.body["total"], 0);
    let r = app
        .webhook_deliveries(&admin, good, "status=delivered")
        .await;
    assert_eq!(r.body["total"], 2);
}

/// A receiver that never answers is given up on at the time-out, and another subscription's
/// delivery of the same event is not held up by it.
#[actix_web::test]
async fn a_hanging_receiver_times_out_and_holds_up_no_other() {
    let (app, admin, arbiter, _cid, games) = hooked(|c| c.webhook_max_attempts = 1).await;
    let hanging = Receiver::start(Reply::Hang(Duration::from_secs(20)));
    let fine = Receiver::start(Reply::Status(204));
    let (slow, _) = subscribe(&app, &admin, &hanging.url, &["result.entered"]).await;
    let (quickly, _) = subscribe(&app, &admin, &fine.url, &["result.entered"]).await;
    let _worker = app.start_webhooks();
    app.enter_result(&arbiter, games[0], json!({"result": "1-0"}))
        .await;
    fine.wait_for(1).await;
    let log = log_until(&app, &admin, quickly, |l| settled(l, 1)).await;
    assert_eq!(log[0]["status"], "delivered");
    let log = log_until(&app, &admin, slow, |l| settled(l, 1)).await;
    assert_eq!(log[0]["status"], "failed");
    assert_eq!(log[0]["last_error"], "timed out");
    assert_eq!(log[0]["last_status_code"], Value::Null);
    assert_eq!(hanging.received().len(), 1);
}

/// A redirect is an answer like any other: not followed, and not a delivery.
#[actix_web::test]
async fn a_redirect_is_not_followed() {
    let (app, admin, arbiter, _cid, games) = hooked(|c| c.webhook_max_attempts = 1).await;
    let target = Receiver::start(Reply::Status(204));
    let redirecting = Receiver::start(Reply::Redirect(target.url.clone()));
    let OneDelivery { log, _worker, .. } =
        deliver_one(&app, &admin, &arbiter, &redirecting.url, games[0], "1-0").await;
    assert_eq!(log[0]["status"], "failed");
    assert_eq!(log[0]["last_status_code"], 302);
    assert_eq!(redirecting.received().len(), 1);
    assert!(target.received().is_empty(), "the redirect was followed");
}

/// Without `WEBHOOK_ALLOW_PRIVATE`, a loopback address is refused when subscribing, and a name
/// that resolves to one is refused when delivering: nothing reaches the receiver.
#[actix_web::test]
async fn a_private_address_is_refused_without_the_allow_flag() {
    let (app, admin, arbiter, _cid, games) = hooked(|c| {
        c.webhook_allow_private = false;
        c.webhook_max_attempts = 1;
    })
    .await;
    let hook = Receiver::start(Reply::Status(204));
    for url in [
        hook.url.clone(),
        "http://10.0.0.8/hook".into(),
        "http://192.168.1.1/hook".into(),
        "http://169.254.169.254/latest".into(),
        "http://[::1]:8080/hook".into(),
        "http://[fd00::1]/hook".into(),
        "http://[fe80::1]/hook".into(),
        "http://[::ffff:127.0.0.1]/hook".into(),
    ] {
        let r = app.create_webhook(&admin, json!({"url": url})).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{url}: {}",
            r.text
        );
        assert_eq!(r.errors("field"), vec!["url"], "{url}");
    }
    let by_name = hook.url.replace("127.0.0.1", "localhost");
    let OneDelivery { log, _worker, .. } =
        deliver_one(&app, &admin, &arbiter, &by_name, games[0], "1-0").await;
    assert_eq!(log[0]["status"], "failed");
    let error = log[0]["last_error"].as_str().unwrap();
    assert!(
        error.starts_with("refused: ") && error.contains("is not a public address"),
        "{error}"
    );
    assert!(hook.received().is_empty());
}

/// Subscriptions are checked field by field, kept to a hundred, and only admins manage them.
#[actix_web::test]
async fn bad_subscriptions_are_refused_naming_the_field() {
    let app = spawn_with(quick).await;
    let admin = app.token(&["admin"]).await;
    let leader = app.token(&["leader"]).await;
    let r = app
        .create_webhook(&leader, json!({"url": "https://hooks.example/in"}))
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    for (body, field) in [
        (json!({"url": "ftp://hooks.example/in"}), "url"),
        (json!({"url": "not a url"}), "url"),
        (json!({"url": "https://user:pw@hooks.example/"}), "url"),
        (
            json!({"url": format!("https://hooks.example/{}", "a".repeat(2000))}),
            "url",
        ),
        (
            json!({"url": "https://hooks.example/", "event_types": ["result.entered", "results"]}),
            "event_types[1]",
        ),
        (
            json!({"url": "https://hooks.example/", "secret": "hunter2"}),
            "secret",
        ),
        (
            json!({"url": "https://hooks.example/", "secret": "whsec_c2hvcnQ="}),
            "secret",
        ),
        (
            json!({"url": "https://hooks.example/", "description": "x".repeat(501)}),
            "description",
        ),
    ] {
        let r = app.create_webhook(&admin, body.clone()).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}: {}",
            r.text
        );
        assert_eq!(
            r.header("content-type").as_deref(),
            Some("application/problem+json")
        );
        assert_eq!(r.errors("field"), vec![field], "{body}");
    }
    let r = app
        .create_webhook(
            &admin,
            json!({"url": "https://hooks.example/", "colour": "red"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(r.text.contains("colour"), "{}", r.text);
    // a secret of one's own is kept (and not shown back on reads)
    let own = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    let r = app
        .create_webhook(
            &admin,
            json!({"url": "https://hooks.example/a", "secret": own, "description": " league ",
                   "event_types": ["result.corrected", "result.entered", "result.entered"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["secret"], own);
    assert_eq!(r.body["description"], "league");
    assert_eq!(
        r.body["event_types"],
        json!(["result.entered", "result.corrected"])
    );
    assert_eq!(r.body["enabled"], true);
    let id = r.body["id"].as_i64().unwrap();
    assert_eq!(r.header("location"), Some(format!("/api/v1/webhooks/{id}")));
    let r = app
        .update_webhook(&admin, id, json!({"enabled": false, "event_types": []}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["enabled"], false);
    assert_eq!(r.body["event_types"], json!([]));
    assert_eq!(r.body["url"], "https://hooks.example/a");
    let r = app
        .update_webhook(&admin, id, json!({"url": "gopher://x"}))
        .await;
    assert_eq!(r.errors("field"), vec!["url"]);
    // at most a hundred
    for n in 1..100 {
        let r = app
            .create_webhook(&admin, json!({"url": format!("https://hooks.example/{n}")}))
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{n}: {}", r.text);
    }
    let r = app
        .create_webhook(&admin, json!({"url": "https://hooks.example/101"}))
        .await;
    r.assert_detail(StatusCode::CONFLICT, "100");
    let r = app.list_webhooks(&admin, "per_page=30&page=4").await;
    assert_eq!(r.body["total"], 100);
    assert_eq!(r.body["items"].as_array().unwrap().len(), 10);
    let r = app.list_webhooks(&admin, "colour=red").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    let r = app.webhook_deliveries(&admin, id, "status=lost").await;
    assert_eq!(r.errors("field"), vec!["status"]);
    let r = app.delete_webhook(&admin, id).await;
    assert_eq!(r.status, StatusCode::NO_CONTENT);
    let r = app.get_webhook(&admin, id).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = app.webhook_deliveries(&admin, id, "").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}

/// A redelivery sends the same event again, with the same `webhook-id` and body.
#[actix_web::test]
async fn redeliver_sends_the_same_event_again() {
    let (app, admin, arbiter, _cid, games) = hooked(|_| {}).await;
    let hook = Receiver::start(Reply::Status(204));
    let OneDelivery {
        id,
        secret,
        log,
        _worker,
    } = deliver_one(&app, &admin, &arbiter, &hook.url, games[0], "½-½").await;
    let first = log[0]["id"].as_i64().unwrap();
    let r = app.redeliver(&admin, id, first).await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.text);
    assert_ne!(r.body["id"], first);
    assert_eq!(r.body["event_id"], log[0]["event_id"]);
    let got = hook.wait_for(2).await;
    assert_eq!(got[0].header("webhook-id"), got[1].header("webhook-id"));
    assert_eq!(got[0].body, got[1].body);
    assert!(got[1].signed_with(&secret));
    let log = log_until(&app, &admin, id, |l| settled(l, 2)).await;
    assert!(log.iter().all(|d| d["status"] == "delivered"));
    let r = app.redeliver(&admin, id, 999_999).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}

/// The worker keeps its state in the database: a delivery that failed once before the worker
/// stopped, and an event recorded while none ran, are both delivered once it runs again.
#[actix_web::test]
async fn pending_deliveries_are_sent_after_a_restart() {
    let (app, admin, arbiter, _cid, games) = hooked(|c| c.webhook_max_attempts = 5).await;
    let hook = Receiver::start(Reply::Status(503));
    let (id, _) = subscribe(&app, &admin, &hook.url, &["result.entered"]).await;
    let worker = app.start_webhooks();
    app.enter_result(&arbiter, games[0], json!({"result": "1-0"}))
        .await;
    let log = log_until(&app, &admin, id, |l| {
        l.first().is_some_and(|d| d["attempts"].as_i64() >= Some(1))
    })
    .await;
    worker.stop();
    assert_eq!(log[0]["status"], "pending");
    let tried = hook.received().len();
    hook.answer(Reply::Status(204));
    app.enter_result(&arbiter, games[1], json!({"result": "0-1"}))
        .await;
    let again = app.start_webhooks();
    let log = log_until(&app, &admin, id, |l| {
        l.len() == 2 && l.iter().all(|d| d["status"] == "delivered")
    })
    .await;
    drop(again);
    let got = hook.received();
    let last_two: Vec<Value> = got[got.len() - 2..]
        .iter()
        .map(|d| d.json()["payload"]["result"].clone())
        .collect();
    assert_eq!(last_two, vec![json!("1-0"), json!("0-1")]);
    assert!(got.len() >= tried + 2);
    assert_eq!(
        log[1]["event_id"].as_i64(),
        got.last().unwrap().header("webhook-id").parse().ok()
    );
}

/// On Postgres, of two instances running the worker on one database only the one holding the
/// lock delivers, so each event arrives once; when it stops, the other takes over. (On SQLite
/// the service runs as one process, so there is nothing to share.)
#[actix_web::test]
async fn one_instance_delivers_at_a_time() {
    let app = spawn_with(quick).await;
    if !app.state.config.database_url.starts_with("postgres") {
        return;
    }
    let other = spawn_beside_with(&app, quick).await;
    let admin = app.token(&["admin"]).await;
    let (_leader, arbiter, _cid, games) = published_evening(&app).await;
    let hook = Receiver::start(Reply::Status(204));
    let (id, _) = subscribe(&app, &admin, &hook.url, &["result.entered"]).await;
    let first = app.start_webhooks();
    let second = other.start_webhooks();
    app.enter_result(&arbiter, games[0], json!({"result": "1-0"}))
        .await;
    log_until(&app, &admin, id, |l| settled(l, 1)).await;
    first.stop();
    app.enter_result(&arbiter, games[1], json!({"result": "0-1"}))
        .await;
    let log = log_until(&app, &admin, id, |l| settled(l, 2)).await;
    drop(second);
    assert!(log.iter().all(|d| d["attempts"] == 1), "{log:?}");
    let ids: Vec<String> = hook
        .received()
        .iter()
        .map(|d| d.header("webhook-id").to_string())
        .collect();
    assert_eq!(ids.len(), 2, "each event once: {ids:?}");
    assert_ne!(ids[0], ids[1]);
}
