//! Health and readiness, and the request id.

use crate::support::*;
use actix_web::http::StatusCode;

#[actix_web::test]
async fn health_and_readiness() {
    let app = spawn().await;
    let r = app.get(paths::HEALTH, None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body["status"], "ok");
    let r = app.get(paths::READY, None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.header("x-request-id").is_some());
}

#[actix_web::test]
async fn request_id_is_echoed() {
    let app = spawn().await;
    let r = app
        .send(
            actix_web::test::TestRequest::get()
                .uri(paths::HEALTH)
                .insert_header(("X-Request-Id", "abc-123")),
        )
        .await;
    assert_eq!(r.header("x-request-id").as_deref(), Some("abc-123"));
}
