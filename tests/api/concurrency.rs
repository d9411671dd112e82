//! Concurrent writers lose nothing and never see a 5xx (SQLite queues writers on its busy
//! timeout; Postgres runs them in parallel).

use crate::helpers::*;
use actix_web::http::{Method, StatusCode};
use futures_util::future::join_all;
use serde_json::json;

#[actix_web::test]
async fn concurrent_player_creation_loses_nothing() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let before = app.counts().await[1];
    let reqs = (0..24).map(|i| {
        app.post(
            "/api/v1/players",
            Some(&leader),
            json!({"name": format!("Player {i}"), "knsb_number": format!("77{i:04}")}),
        )
    });
    let results = join_all(reqs).await;
    for r in &results {
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    }
    assert_eq!(app.counts().await[1], before + 24);
}

#[actix_web::test]
async fn same_rating_list_pushed_concurrently_is_idempotent() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let sync = app.token(&["rating_sync"]).await;
    let mut rows = vec![];
    for i in 0..20 {
        app.post(
            "/api/v1/players",
            Some(&leader),
            json!({"name": format!("P{i}"), "knsb_number": format!("66{i:04}")}),
        )
        .await;
        rows.push(json!({"knsb_number": format!("66{i:04}"), "value": 1500 + i}));
    }
    let list = json!({"source": "KNSB", "list_date": "2026-09-01", "ratings": rows});
    let results = join_all((0..6).map(|_| {
        app.req(
            Method::PUT,
            "/api/v1/ratings",
            Some(&sync),
            Some(list.clone()),
        )
    }))
    .await;
    let mut inserted = 0;
    for r in &results {
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        inserted += r.body["inserted"].as_i64().unwrap();
        assert_eq!(
            r.body["inserted"].as_i64().unwrap() + r.body["unchanged"].as_i64().unwrap(),
            20
        );
    }
    assert_eq!(
        inserted, 20,
        "each rating inserted exactly once over all pushes"
    );
    assert_eq!(app.counts().await[2], 20);
}
