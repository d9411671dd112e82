//! The standings read cache: two instances on one database (as two processes behind a load
//! balancer) — a result written through one is visible in the other's standings at once.

use crate::helpers::*;
use crate::results::{round, setup};
use actix_web::http::{Method, StatusCode};
use serde_json::json;

#[actix_web::test]
async fn a_write_through_one_instance_is_seen_by_the_other_at_once() {
    let a = spawn().await;
    let b = spawn_beside(&a).await;
    let leader = a.token(&["leader"]).await;
    let arbiter = a.token(&["arbiter"]).await;
    let fx = setup(
        &a,
        &leader,
        json!({"name": "K", "kind": "keizer", "half": "winter"}),
        &["P", "Q"],
    )
    .await;
    let (p, q) = (fx.players[0], fx.players[1]);
    let games = round(
        &a,
        &leader,
        fx.comp,
        vec![(p, Some(q), Some("1-0"))],
        "completed",
    )
    .await;
    let url = format!("/api/v1/competitions/{}/standings", fx.comp);
    // both instances compute and cache the standings: P won (1 × Q's value 59 = 59)
    let before_b = b.get(&url, None).await;
    assert_eq!(before_b.status, StatusCode::OK, "{}", before_b.text);
    let before_a = a.get(&url, None).await;
    assert_eq!(before_a.header("etag"), before_b.header("etag"));
    assert_eq!(before_b.body["keizer"]["rows"][0]["player_id"], p);
    assert_eq!(before_b.body["keizer"]["rows"][0]["score"], "59.0000");
    // served again from B's cache: same body and version
    let again = b.get(&url, None).await;
    assert_eq!(again.text, before_b.text);

    // the arbiter corrects the result through A: Q won
    let game = games[0];
    let r = a
        .req(
            Method::PUT,
            &format!("/api/v1/games/{game}/result"),
            Some(&arbiter),
            Some(json!({"result": "0-1", "reason": "scoresheet checked"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // B sees it at once: a new version and Q on top. Recalculation: from P 60, Q 59 the win
    // is worth P's value 60 → Q 60, P 5 → re-sorted Q, P with values 60, 59 → Q scores P's
    // value 59, P the fixed 5 for a loss → settled.
    let after_b = b.get(&url, None).await;
    assert_ne!(after_b.header("etag"), before_b.header("etag"));
    assert_eq!(after_b.body["keizer"]["rows"][0]["player_id"], q);
    assert_eq!(after_b.body["keizer"]["rows"][0]["score"], "59.0000");
    assert_eq!(after_b.body["keizer"]["rows"][1]["score"], "5.0000");
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

#[actix_web::test]
async fn renaming_an_entrant_gives_the_standings_a_new_version() {
    let a = spawn().await;
    let b = spawn_beside(&a).await;
    let leader = a.token(&["leader"]).await;
    let fx = setup(
        &a,
        &leader,
        json!({"name": "K", "kind": "keizer", "half": "winter"}),
        &["P", "Q"],
    )
    .await;
    let p = fx.players[0];
    round(
        &a,
        &leader,
        fx.comp,
        vec![(p, Some(fx.players[1]), Some("1-0"))],
        "completed",
    )
    .await;
    let url = format!("/api/v1/competitions/{}/standings", fx.comp);
    let before = b.get(&url, None).await;
    assert_eq!(before.status, StatusCode::OK, "{}", before.text);
    assert!(!before.text.contains("Petra Renamed"));
    let r = a
        .req(
            Method::PATCH,
            &format!("/api/v1/players/{p}"),
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
