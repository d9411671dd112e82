//! The standings read cache: two instances on one database (as two processes behind a load
//! balancer) — a result written through one is visible in the other's standings at once.

use crate::support::*;
use actix_web::http::{Method, StatusCode};
use serde_json::json;

/// The arbiter corrects the result of `game` through `app`: Q won.
async fn q_won(app: &TestApp, arbiter: &str, game: i64) {
    let r = app
        .enter_result(
            arbiter,
            game,
            json!({"result": "0-1", "reason": "scoresheet checked"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

#[actix_web::test]
async fn a_write_through_one_instance_is_seen_by_the_other_at_once() {
    let a = spawn().await;
    let b = spawn_beside(&a).await;
    let pq = p_beat_q(&a).await;
    let (arbiter, [p, q], game) = (pq.arbiter, pq.players, pq.game);
    let url = paths::standings(pq.comp);
    // both instances compute and cache the standings: P won (1 × Q's value 59 = 59)
    let before_b = b.get(&url, None).await;
    assert_eq!(before_b.status, StatusCode::OK, "{}", before_b.text);
    let before_a = a.get(&url, None).await;
    assert_eq!(before_a.header("etag"), before_b.header("etag"));
    assert_eq!(before_b.body["keizer"]["rows"][0]["player_id"], p);
    assert_eq!(before_b.body["keizer"]["rows"][0]["score"], 59.0);
    // served again from B's cache: same body and version
    let again = b.get(&url, None).await;
    assert_eq!(again.text, before_b.text);

    // the arbiter corrects the result through A: Q won
    q_won(&a, &arbiter, game).await;
    // B sees it at once: a new version and Q on top. Recalculation: from P 60, Q 59 the win
    // is worth P's value 60 → Q 60, P 5 → re-sorted Q, P with values 60, 59 → Q scores P's
    // value 59, P the fixed 5 for a loss → settled.
    let after_b = b.get(&url, None).await;
    assert_ne!(after_b.header("etag"), before_b.header("etag"));
    assert_eq!(after_b.body["keizer"]["rows"][0]["player_id"], q);
    assert_eq!(after_b.body["keizer"]["rows"][0]["score"], 59.0);
    assert_eq!(after_b.body["keizer"]["rows"][1]["score"], 5.0);
    // and a conditional read with the old version is not a 304
    let r = b
        .send(
            actix_web::test::TestRequest::get()
                .uri(&url)
                .insert_header(("If-None-Match", before_b.header("etag").unwrap())),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
}

/// On Postgres an instance serves a looked-up version for `READ_VERSION_REUSE_US` without a
/// query; a write that changes the standings waits as long before it answers, so the other
/// instance's next read (which would reuse a version looked up before the write) is fresh.
/// With a reuse time long enough that the reads below fall inside it, this fails if the write
/// answers without waiting.
#[actix_web::test]
async fn a_reused_version_never_hides_an_answered_write() {
    let reuse = std::time::Duration::from_millis(300);
    let a = spawn_with(|c| c.read_version_reuse = reuse).await;
    let b = spawn_beside_with(&a, |c| c.read_version_reuse = reuse).await;
    let pq = p_beat_q(&a).await;
    let (arbiter, [p, q], game) = (pq.arbiter, pq.players, pq.game);
    let url = paths::standings(pq.comp);
    let before = b.get(&url, None).await;
    assert_eq!(before.body["keizer"]["rows"][0]["player_id"], p);
    let again = b.get(&url, None).await;
    assert_eq!(again.header("etag"), before.header("etag"));
    let started = std::time::Instant::now();
    q_won(&a, &arbiter, game).await;
    if let Some(wait) = a.state.versions.db.write_wait() {
        // Postgres: the answer came only after the reuse time
        assert!(wait > reuse);
        assert!(
            started.elapsed() >= wait,
            "answered after {:?}",
            started.elapsed()
        );
    }
    let after = b.get(&url, None).await;
    assert_ne!(after.header("etag"), before.header("etag"));
    assert_eq!(after.body["keizer"]["rows"][0]["player_id"], q);
}

#[actix_web::test]
async fn renaming_an_entrant_gives_the_standings_a_new_version() {
    let a = spawn().await;
    let b = spawn_beside(&a).await;
    let (leader, _, fx) = keizer_winter(&a, &["P", "Q"]).await;
    let p = fx.players[0];
    round(
        &a,
        &leader,
        fx.comp,
        vec![(p, Some(fx.players[1]), Some("1-0"))],
        "completed",
    )
    .await;
    let url = paths::standings(fx.comp);
    let before = b.get(&url, None).await;
    assert_eq!(before.status, StatusCode::OK, "{}", before.text);
    assert!(!before.text.contains("Petra Renamed"));
    let r = a
        .req(
            Method::PATCH,
            &paths::player(p),
            Some(&leader),
            Some(json!({"name": "Petra Renamed"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let after = b.get(&url, None).await;
    assert_ne!(after.header("etag"), before.header("etag"));
    assert_eq!(after.body["keizer"]["rows"][0]["player_id"], p);
    assert!(after.text.contains("Petra Renamed"), "{}", after.text);
}

#[actix_web::test]
async fn published_pairings_are_cached_and_follow_every_write() {
    let a = spawn().await;
    let b = spawn_beside(&a).await;
    let (leader, arbiter, fx) = keizer_winter(&a, &["P", "Q", "R", "S"]).await;
    let [p, q, r, s] = [fx.players[0], fx.players[1], fx.players[2], fx.players[3]];
    let games = round(
        &a,
        &leader,
        fx.comp,
        vec![(p, Some(q), None), (r, Some(s), None)],
        "published",
    )
    .await;
    let one = paths::round(fx.comp, 1);
    let list = paths::rounds(fx.comp);
    // the public reads the published pairing through B (computed and cached there)
    let before = b.get(&one, None).await;
    assert_eq!(before.status, StatusCode::OK, "{}", before.text);
    assert_eq!(before.body["games"][0]["result"], json!(null));
    let tag = before.header("etag").expect("an ETag");
    assert!(tag.starts_with("\"round-"), "{tag}");
    let again = b.get(&one, None).await;
    assert_eq!(again.text, before.text);
    assert_eq!(again.header("etag").as_deref(), Some(tag.as_str()));
    let before_list = b.get(&list, None).await;
    assert_eq!(before_list.body.as_array().map(Vec::len), Some(1));
    // a conditional read of the current version: 304
    let r304 = b
        .send(
            actix_web::test::TestRequest::get()
                .uri(&one)
                .insert_header(("If-None-Match", tag.as_str())),
        )
        .await;
    assert_eq!(r304.status, StatusCode::NOT_MODIFIED);

    // a result entered through A is in B's pairing at once, with the game's new version
    let res = a
        .enter_result(&arbiter, games[0], json!({"result": "1-0"}))
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    let after = b.get(&one, None).await;
    assert_ne!(after.header("etag"), Some(tag.clone()));
    assert_eq!(after.body["games"][0]["result"], "1-0");
    assert_eq!(
        after.body["games"][0]["version"],
        res.body["game"]["version"]
    );
    let after_list = b.get(&list, None).await;
    assert_eq!(after_list.body[0]["games"][0]["result"], "1-0");
    let stale = b
        .send(
            actix_web::test::TestRequest::get()
                .uri(&one)
                .insert_header(("If-None-Match", tag.as_str())),
        )
        .await;
    assert_eq!(stale.status, StatusCode::OK, "the old version is no 304");
    // the second result, and the round completed through A: B shows it at once
    let res = a
        .enter_result(&arbiter, games[1], json!({"result": "1/2-1/2"}))
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    let done = a
        .post(&format!("{one}/complete"), Some(&leader), json!({}))
        .await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    assert_eq!(b.get(&one, None).await.body["status"], "completed");

    // a round added through A is in B's list at once; the public does not see its games yet,
    // the leader does
    let cached = b.get(&list, None).await;
    assert_eq!(cached.body.as_array().map(Vec::len), Some(1));
    let created = a.create_round(&leader, fx.comp, json!({})).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    let listed = b.get(&list, None).await;
    assert_eq!(
        listed.body.as_array().map(Vec::len),
        Some(2),
        "{}",
        listed.text
    );
    assert_eq!(listed.body[1]["status"], "planned");

    // the round's ETag read through the cache is the If-Match of the pairing writes: the
    // leader pairs round 2 with it, and the same tag is stale afterwards
    let r2 = paths::round(fx.comp, 2);
    let planned = b.get(&r2, Some(&leader)).await;
    assert_eq!(planned.status, StatusCode::OK, "{}", planned.text);
    let r2_tag = planned.header("etag").unwrap();
    let pair = |tag: String| {
        actix_web::test::TestRequest::post()
            .uri(&format!("{r2}/pairing?bye_seed=7"))
            .insert_header(("Authorization", format!("Bearer {leader}")))
            .insert_header(("If-Match", tag))
    };
    let paired = a.send(pair(r2_tag.clone())).await;
    assert_eq!(paired.status, StatusCode::CREATED, "{}", paired.text);
    let public = b.get(&r2, None).await;
    assert_eq!(public.body["status"], "paired");
    assert_eq!(public.body["games"], json!([]), "not published yet");
    let insider = b.get(&r2, Some(&leader)).await;
    assert!(!insider.body["games"].as_array().unwrap().is_empty());
    let a_del = a
        .send(
            actix_web::test::TestRequest::delete()
                .uri(&format!("{r2}/pairing"))
                .insert_header(("Authorization", format!("Bearer {leader}")))
                .insert_header(("If-Match", r2_tag)),
        )
        .await;
    assert_eq!(
        a_del.status,
        StatusCode::PRECONDITION_FAILED,
        "{}",
        a_del.text
    );
}
