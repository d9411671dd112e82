//! A forgotten password (docs/decisions/0321-account-links.md): the same answer for every
//! address, a mailed single-use link valid for an hour, every session ended by the new
//! password, and at most three mails an hour to one account however many requests come.

use crate::support::*;
use actix_web::http::StatusCode;
use serde_json::json;

const RESET: &str = "/api/v1/auth/password-reset";
const CONFIRM: &str = "/api/v1/auth/password-reset/confirm";

async fn account(app: &TestApp, admin: &str, email: &str, active: bool) -> i64 {
    let r = app
        .create_user(
            admin,
            json!({"email": email, "password": "old-password-1", "roles": ["member"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.body["id"].as_i64().unwrap();
    if !active {
        let r = app
            .req(
                actix_web::http::Method::PATCH,
                &format!("/api/v1/users/{id}"),
                Some(admin),
                Some(json!({"active": false})),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    id
}

/// The reset links in the queued mails, oldest first, as (recipient, token).
async fn reset_links(app: &TestApp) -> Vec<(String, String)> {
    mailed_links(app, "password_reset", "/account/password-reset").await
}

async fn ask(app: &TestApp, email: &str) -> Resp {
    app.post(RESET, None, json!({ "email": email })).await
}

async fn confirm(app: &TestApp, token: &str, password: &str) -> Resp {
    app.post(CONFIRM, None, json!({"token": token, "password": password}))
        .await
}

/// The mailed link sets the new password; the access and refresh tokens of the sessions from
/// before are refused, the old password no longer logs in, and the link works once.
#[actix_web::test]
async fn a_reset_link_sets_the_password_and_ends_every_session() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    account(&app, &admin, "anna@club.example", true).await;
    let login = app
        .login(json!({"email": "anna@club.example", "password": "old-password-1"}))
        .await;
    assert_eq!(login.status, StatusCode::OK);
    let access = login.body["token"].as_str().unwrap().to_string();
    let refresh = login.body["refresh_token"].as_str().unwrap().to_string();
    let r = ask(&app, "Anna@Club.example").await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.text);
    let links = reset_links(&app).await;
    assert_eq!(links.len(), 1);
    assert_eq!(links[0].0, "anna@club.example");
    let r = confirm(&app, &links[0].1, "a quiet rook on the e-file").await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.text);
    assert_eq!(app.me(&access).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.refresh(&refresh).await.status, StatusCode::UNAUTHORIZED);
    let old = app
        .login(json!({"email": "anna@club.example", "password": "old-password-1"}))
        .await;
    assert_eq!(old.status, StatusCode::UNAUTHORIZED);
    let new = app
        .login(json!({"email": "anna@club.example", "password": "a quiet rook on the e-file"}))
        .await;
    assert_eq!(new.status, StatusCode::OK);
    confirm(&app, &links[0].1, "another quiet rook move")
        .await
        .assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "used already");
}

/// The reset link's page names its account for password managers (the address in the form's
/// hidden login field) while the link works, and no account once it is used.
#[actix_web::test]
async fn the_reset_page_names_the_account_while_its_link_works() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    account(&app, &admin, "bert@club.example", true).await;
    let r = ask(&app, "bert@club.example").await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.text);
    let token = reset_links(&app).await.remove(0).1;
    let path = format!("/account/password-reset?token={token}");
    let page = app.get(&path, None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(
        page.text.contains(
            r#"<input type="text" name="username" value="bert@club.example" autocomplete="username" readonly hidden>"#
        ),
        "{}",
        page.text
    );
    let r = confirm(&app, &token, "a quiet rook on the e-file").await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.text);
    let page = app.get(&path, None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(
        page.text
            .contains(r#"name="username" value="" autocomplete="username""#),
        "{}",
        page.text
    );
    assert!(!page.text.contains("bert@club.example"), "{}", page.text);
}

/// An unknown address and that of a disabled account are answered as a known one is, and
/// mail nothing.
#[actix_web::test]
async fn unknown_and_disabled_addresses_are_answered_alike_and_mail_nothing() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    account(&app, &admin, "gone@club.example", false).await;
    for email in ["nobody@club.example", "gone@club.example"] {
        let r = ask(&app, email).await;
        assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.text);
        assert!(r.text.is_empty());
    }
    assert!(reset_links(&app).await.is_empty());
}

/// Ten requests for one address in a row mail it three times; each newer link ends the one
/// before, so only the last works.
#[actix_web::test]
async fn a_flood_of_requests_mails_one_account_at_most_three_times_an_hour() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    account(&app, &admin, "anna@club.example", true).await;
    for _ in 0..10 {
        assert_eq!(
            ask(&app, "anna@club.example").await.status,
            StatusCode::ACCEPTED
        );
    }
    let links = reset_links(&app).await;
    assert_eq!(links.len(), 3);
    confirm(&app, &links[0].1, "a quiet rook on the e-file")
        .await
        .assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "used already");
    assert_eq!(
        confirm(&app, &links[2].1, "a quiet rook on the e-file")
            .await
            .status,
        StatusCode::NO_CONTENT
    );
}

/// A link older than an hour, a weak password, an unknown token and an overlong address are
/// refused, each naming its field.
#[actix_web::test]
async fn expired_links_weak_passwords_and_bad_input_are_refused() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    account(&app, &admin, "anna@club.example", true).await;
    ask(&app, "anna@club.example").await;
    let token = reset_links(&app).await.remove(0).1;
    let r = confirm(&app, &token, "short").await;
    assert_eq!(r.errors("field"), ["password"]);
    let r = confirm(&app, &token, "qwertyuiop").await;
    assert_eq!(r.errors("field"), ["password"]);
    app.with_conn(|c| {
        use clubcomp_core::test_store::schema::account_tokens as at;
        use diesel::prelude::*;
        diesel::update(at::table)
            .set(at::expires_at.eq(chrono::Utc::now().naive_utc() - chrono::Duration::seconds(1)))
            .execute(c)
            .unwrap();
    })
    .await;
    confirm(&app, &token, "a quiet rook on the e-file")
        .await
        .assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "expired");
    confirm(
        &app,
        &format!("cca_{}", "B".repeat(43)),
        "a quiet rook on the e-file",
    )
    .await
    .assert_detail(
        StatusCode::UNPROCESSABLE_ENTITY,
        "not a valid password-reset link",
    );
    let r = ask(&app, &format!("{}@club.example", "a".repeat(250))).await;
    assert_eq!(r.errors("field"), ["email"]);
    let r = app
        .post(RESET, None, json!({"email": "a@b.example", "x": 1}))
        .await;
    assert!(r.status.is_client_error(), "{}", r.text);
}
