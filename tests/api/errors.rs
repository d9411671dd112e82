//! Every error is application/problem+json with the right status.

use crate::support::*;
use actix_web::http::{Method, StatusCode};
use actix_web::test::TestRequest;
use serde_json::json;

fn assert_problem(r: &Resp, status: StatusCode) {
    assert_eq!(r.status, status, "{}", r.text);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/problem+json")
    );
    assert_eq!(r.body["status"], status.as_u16());
    assert!(r.body["title"].is_string());
}

#[actix_web::test]
async fn unknown_route_is_404() {
    let app = spawn().await;
    assert_problem(
        &app.get("/api/v1/nowhere", None).await,
        StatusCode::NOT_FOUND,
    );
    assert_problem(
        &app.get("/api/v1/players/notanumber", None).await,
        StatusCode::NOT_FOUND,
    );
}

#[actix_web::test]
async fn wrong_method_is_405() {
    let app = spawn().await;
    let r = app.req(Method::DELETE, paths::PLAYERS, None, None).await;
    assert_problem(&r, StatusCode::METHOD_NOT_ALLOWED);
    assert!(r.body["detail"].as_str().unwrap().contains("GET"));
    assert_eq!(r.header("allow").as_deref(), Some("GET, POST"));
}

#[actix_web::test]
async fn malformed_json_is_400_and_wrong_shape_is_422() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let r = app
        .send(
            TestRequest::post()
                .uri(paths::PLAYERS)
                .insert_header(("Authorization", format!("Bearer {leader}")))
                .insert_header(("Content-Type", "application/json"))
                .set_payload("{\"name\": "),
        )
        .await;
    assert_problem(&r, StatusCode::BAD_REQUEST);
    let r = app.create_player(&leader, json!({"name": 5})).await;
    assert_problem(&r, StatusCode::UNPROCESSABLE_ENTITY);
}

#[actix_web::test]
async fn oversized_body_is_413() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let big = "x".repeat(100 * 1024);
    let r = app.create_player(&leader, json!({"name": big})).await;
    assert_problem(&r, StatusCode::PAYLOAD_TOO_LARGE);
}

#[actix_web::test]
async fn validation_names_each_field() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let before = app.counts().await;
    let r = app
        .create_player(
            &leader,
            json!({"name": "", "knsb_number": "12a", "membership": "vip"}),
        )
        .await;
    assert_problem(&r, StatusCode::UNPROCESSABLE_ENTITY);
    let fields = r.errors("field");
    assert_eq!(fields, ["name", "knsb_number", "membership"]);
    assert_eq!(app.counts().await, before);
}
