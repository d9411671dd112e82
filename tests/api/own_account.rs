//! A member's own account (docs/decisions/0322-own-account.md): a new password given with the
//! current one ends every other session and signs this device in again; a new address holds
//! only once the link mailed to it is opened, and the old address is told.

use crate::support::*;
use actix_web::http::{Method, StatusCode};
use serde_json::json;

const PASSWORD: &str = "/api/v1/me/password";
const EMAIL: &str = "/api/v1/me/email";
const CONFIRM: &str = "/api/v1/auth/email/confirm";

/// A member account for `email` with password `old-password-1`, signed in: (id, access token,
/// refresh token).
async fn member(app: &TestApp, admin: &str, email: &str) -> (i64, String, String) {
    let r = app
        .create_user(
            admin,
            json!({"email": email, "password": "old-password-1", "roles": ["member"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let login = app
        .login(json!({"email": email, "password": "old-password-1"}))
        .await;
    assert_eq!(login.status, StatusCode::OK, "{}", login.text);
    (
        r.body["id"].as_i64().unwrap(),
        login.body["token"].as_str().unwrap().to_string(),
        login.body["refresh_token"].as_str().unwrap().to_string(),
    )
}

async fn put(app: &TestApp, path: &str, token: &str, body: serde_json::Value) -> Resp {
    app.req(Method::PUT, path, Some(token), Some(body)).await
}

async fn logs_in(app: &TestApp, email: &str, password: &str) -> bool {
    app.login(json!({"email": email, "password": password}))
        .await
        .status
        == StatusCode::OK
}

/// The new password works and the old does not; the sessions from before end (their access
/// and refresh tokens are refused), the answer's new tokens work.
#[actix_web::test]
async fn a_new_password_ends_the_other_sessions_and_signs_this_one_in() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    let (_, access, refresh) = member(&app, &admin, "anna@club.example").await;
    let r = put(
        &app,
        PASSWORD,
        &access,
        json!({"current": "old-password-1", "new": "a quiet rook on the e-file"}),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let new_access = r.body["token"].as_str().unwrap().to_string();
    let new_refresh = r.body["refresh_token"].as_str().unwrap().to_string();
    assert_eq!(app.me(&access).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.refresh(&refresh).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.me(&new_access).await.status, StatusCode::OK);
    assert_eq!(app.refresh(&new_refresh).await.status, StatusCode::OK);
    assert!(!logs_in(&app, "anna@club.example", "old-password-1").await);
    assert!(logs_in(&app, "anna@club.example", "a quiet rook on the e-file").await);
}

/// A wrong current password, a short, a common or an overlong new one are refused naming the
/// field, and change nothing.
#[actix_web::test]
async fn a_wrong_current_or_a_weak_new_password_changes_nothing() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    let (_, access, _) = member(&app, &admin, "anna@club.example").await;
    let long = "x".repeat(201);
    let cases = [
        (
            json!({"current": "not-my-password", "new": "a quiet rook on the e-file"}),
            "current",
        ),
        (
            json!({"current": "old-password-1", "new": "short-1"}),
            "new",
        ),
        (
            json!({"current": "old-password-1", "new": "password123"}),
            "new",
        ),
        (json!({"current": "old-password-1", "new": long}), "new"),
        (
            json!({"current": long, "new": "a quiet rook on the e-file"}),
            "current",
        ),
    ];
    for (body, field) in cases {
        let r = put(&app, PASSWORD, &access, body).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
        assert_eq!(r.body["errors"][0]["field"], field, "{}", r.text);
    }
    assert_eq!(app.me(&access).await.status, StatusCode::OK);
    assert!(logs_in(&app, "anna@club.example", "old-password-1").await);
}

/// Guessing the current password is held back as guessing at login is: after the failures a
/// login allows, even the right one is refused with 429 and `Retry-After`.
#[actix_web::test]
async fn guessing_the_current_password_is_throttled() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    let (_, access, _) = member(&app, &admin, "anna@club.example").await;
    let mut refused = None;
    for i in 0..30 {
        let r = put(
            &app,
            PASSWORD,
            &access,
            json!({"current": format!("guess-number-{i}"), "new": "a quiet rook on the e-file"}),
        )
        .await;
        if r.status == StatusCode::TOO_MANY_REQUESTS {
            refused = Some(r);
            break;
        }
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    }
    let r = refused.expect("30 wrong current passwords were never throttled");
    assert!(r.headers.get("retry-after").is_some());
    let r = put(
        &app,
        PASSWORD,
        &access,
        json!({"current": "old-password-1", "new": "a quiet rook on the e-file"}),
    )
    .await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.text);
}

/// A new address: a link to the new address and a notice to the old one; until the link is
/// opened the old address logs in, after it the new one does (verified), and the link works
/// once.
#[actix_web::test]
async fn a_new_address_holds_once_its_link_is_opened() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    let (id, access, _) = member(&app, &admin, "anna@club.example").await;
    let r = put(
        &app,
        EMAIL,
        &access,
        json!({"email": " Anna.deVries@Club.example "}),
    )
    .await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.text);
    assert_eq!(r.body["email"], "anna.devries@club.example");
    let notices = queued_mails(&app, "email_change_notice").await;
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0].0, "anna@club.example");
    assert!(notices[0].1.contains("anna.devries@club.example"));
    let links = mailed_links(&app, "email_change", "/account/email").await;
    assert_eq!(links.len(), 1);
    assert_eq!(links[0].0, "anna.devries@club.example");
    assert!(logs_in(&app, "anna@club.example", "old-password-1").await);
    let r = app.post(CONFIRM, None, json!({"token": links[0].1})).await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.text);
    assert!(!logs_in(&app, "anna@club.example", "old-password-1").await);
    assert!(logs_in(&app, "anna.devries@club.example", "old-password-1").await);
    let (email, verified) = app
        .with_conn(move |c| {
            use clubcomp_core::test_store::schema::users as u;
            use diesel::prelude::*;
            u::table
                .find(id)
                .select((u::email, u::email_verified_at.is_not_null()))
                .first::<(String, bool)>(c)
                .unwrap()
        })
        .await;
    assert_eq!(email, "anna.devries@club.example");
    assert!(verified, "the confirmed address is verified");
    app.post(CONFIRM, None, json!({"token": links[0].1}))
        .await
        .assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "used already");
}

/// Another account's address is a 409, the account's own or a malformed one a 422 naming
/// `email` (CR or LF included), and none of them mails anything; a second request ends the
/// first request's link.
#[actix_web::test]
async fn taken_own_and_malformed_addresses_are_refused_and_a_newer_request_wins() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    let (_, access, _) = member(&app, &admin, "anna@club.example").await;
    member(&app, &admin, "bert@club.example").await;
    let r = put(&app, EMAIL, &access, json!({"email": "Bert@club.example"})).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    for bad in [
        "anna@club.example",
        "not an address",
        "a@b.example\r\nBcc: x@y.example",
        "",
    ] {
        let r = put(&app, EMAIL, &access, json!({ "email": bad })).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{bad:?}: {}",
            r.text
        );
        assert_eq!(r.body["errors"][0]["field"], "email", "{}", r.text);
    }
    assert!(queued_mails(&app, "email_change").await.is_empty());
    for email in ["first@club.example", "second@club.example"] {
        let r = put(&app, EMAIL, &access, json!({ "email": email })).await;
        assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.text);
    }
    let links = mailed_links(&app, "email_change", "/account/email").await;
    app.post(CONFIRM, None, json!({"token": links[0].1}))
        .await
        .assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "newer change");
    let r = app.post(CONFIRM, None, json!({"token": links[1].1})).await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.text);
    assert!(logs_in(&app, "second@club.example", "old-password-1").await);
}

/// An address another account took between the request and the link is a 409 at the link,
/// and the account keeps its address; an unknown token is a 422 naming `token`.
#[actix_web::test]
async fn an_address_taken_meanwhile_is_refused_at_the_link() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    let (_, access, _) = member(&app, &admin, "anna@club.example").await;
    let r = put(&app, EMAIL, &access, json!({"email": "new@club.example"})).await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.text);
    member(&app, &admin, "new@club.example").await;
    let links = mailed_links(&app, "email_change", "/account/email").await;
    let r = app.post(CONFIRM, None, json!({"token": links[0].1})).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert!(logs_in(&app, "anna@club.example", "old-password-1").await);
    let r = app
        .post(
            CONFIRM,
            None,
            json!({"token": "cca_not-a-token-that-was-ever-issued"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "token", "{}", r.text);
}

/// The address link opens a page with one button (opening the link alone changes nothing);
/// sending it changes the address, and sending it again says the link was used.
#[actix_web::test]
async fn the_address_page_confirms_with_a_button() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    let (_, access, _) = member(&app, &admin, "anna@club.example").await;
    let r = put(
        &app,
        EMAIL,
        &access,
        json!({"email": "anna.devries@club.example"}),
    )
    .await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.text);
    let token = mailed_links(&app, "email_change", "/account/email").await[0]
        .1
        .clone();
    let page = app
        .get(&format!("/account/email?token={token}"), None)
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(
        page.text
            .contains("<form method=\"post\" action=\"/account/email\">")
    );
    assert!(page.text.contains(&format!("value=\"{token}\"")));
    assert!(!page.text.contains("<script"));
    assert_eq!(page.header("cache-control").as_deref(), Some("no-store"));
    assert!(logs_in(&app, "anna@club.example", "old-password-1").await);
    let post = || {
        let body = serde_urlencoded::to_string([("token", token.as_str())]).unwrap();
        actix_web::test::TestRequest::post()
            .uri("/account/email")
            .insert_header(("content-type", "application/x-www-form-urlencoded"))
            .set_payload(body)
    };
    let done = app.send(post()).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    assert!(
        done.text.contains("anna.devries@club.example"),
        "{}",
        done.text
    );
    assert!(logs_in(&app, "anna.devries@club.example", "old-password-1").await);
    let again = app.send(post()).await;
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(again.text.contains("used already"), "{}", again.text);
}
