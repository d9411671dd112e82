//! Invitations (docs/decisions/0321-account-links.md): an officer invites an account, the
//! mail's single-use link sets the password and signs in; used, expired, unknown and
//! disabled-account links are refused; bulk invitations are all or nothing.

use crate::mail::mail_to;
use crate::support::*;
use actix_web::http::StatusCode;
use serde_json::{Value, json};

/// Creates a member account for `email` (with a throwaway password) and returns its id.
async fn account(app: &TestApp, admin: &str, email: &str) -> i64 {
    let r = app
        .create_user(
            admin,
            json!({"email": email, "password": "throwaway-1", "roles": ["member"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    r.body["id"].as_i64().unwrap()
}

/// The plain-text bodies of the pending mails, oldest first, as (recipient, body).
async fn pending_bodies(app: &TestApp) -> Vec<(String, String)> {
    app.with_conn(|c| {
        use clubcomp_core::test_store::schema::mail_outbox as mo;
        use diesel::prelude::*;
        mo::table
            .filter(mo::status.eq("pending"))
            .order(mo::id)
            .select((mo::recipient, mo::body_text))
            .load(c)
            .unwrap()
    })
    .await
}

/// The token of the invitation link in a mail's text.
fn token_in(text: &str) -> String {
    link_token(text, "/account/invitation")
}

async fn invite(app: &TestApp, token: &str, id: i64) -> crate::support::Resp {
    app.req(
        actix_web::http::Method::POST,
        &format!("/api/v1/users/{id}/invite"),
        Some(token),
        None,
    )
    .await
}

async fn accept(app: &TestApp, token: &str, password: &str) -> crate::support::Resp {
    app.post(
        "/api/v1/auth/invitations/accept",
        None,
        json!({"token": token, "password": password}),
    )
    .await
}

/// An invitation mailed over SMTP holds a link to `PUBLIC_URL`; accepting its token sets the
/// password and answers tokens as a login does; the password then logs in, and the address
/// is marked verified.
#[actix_web::test]
async fn an_invitation_link_sets_the_password_and_signs_in() {
    let smtp = SmtpServer::start(SmtpReply::Accept);
    let app = spawn_with(mail_to(&smtp.url)).await;
    let leader = app.token(&["leader"]).await;
    let admin = app.token(&["admin"]).await;
    let id = account(&app, &admin, "anna@club.example").await;
    let r = invite(&app, &leader, id).await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.text);
    assert_eq!(r.body["email"], "anna@club.example");
    let _worker = app.start_mail();
    let got = smtp.wait_for(1);
    assert_eq!(got[0].rcpt_to, ["anna@club.example"]);
    assert!(
        got[0].header("Subject").unwrap().contains("SV De Toren"),
        "{:?}",
        got[0].header("Subject")
    );
    let text = got[0].decoded();
    assert!(
        text.contains("https://toren.example/account/invitation?token=cca_"),
        "{text}"
    );
    let token = token_in(&text);
    let r = accept(&app, &token, "a quiet rook on the e-file").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["token_type"], "Bearer");
    assert!(
        r.body["refresh_token"]
            .as_str()
            .unwrap()
            .starts_with("ccr_")
    );
    let me = app.me(r.body["token"].as_str().unwrap()).await;
    assert_eq!(me.body["user_id"], id);
    let login = app
        .login(json!({"email": "anna@club.example", "password": "a quiet rook on the e-file"}))
        .await;
    assert_eq!(login.status, StatusCode::OK, "{}", login.text);
    let old = app
        .login(json!({"email": "anna@club.example", "password": "throwaway-1"}))
        .await;
    assert_eq!(old.status, StatusCode::UNAUTHORIZED);
    let verified: Option<chrono::NaiveDateTime> = app
        .with_conn(move |c| {
            use clubcomp_core::test_store::schema::users;
            use diesel::prelude::*;
            users::table
                .find(id)
                .select(users::email_verified_at)
                .first(c)
                .unwrap()
        })
        .await;
    assert!(verified.is_some());
}

/// A link works once; a second use, an expired link, an unknown token, and the link of an
/// account disabled since are refused, each naming why (the disabled one as unknown).
#[actix_web::test]
async fn used_expired_unknown_and_disabled_links_are_refused() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    let a = account(&app, &admin, "anna@club.example").await;
    let b = account(&app, &admin, "bert@club.example").await;
    let c = account(&app, &admin, "cor@club.example").await;
    for id in [a, b, c] {
        assert_eq!(invite(&app, &admin, id).await.status, StatusCode::ACCEPTED);
    }
    let bodies = pending_bodies(&app).await;
    let tokens: Vec<String> = bodies.iter().map(|(_, t)| token_in(t)).collect();
    let pw = "a quiet rook on the e-file";
    assert_eq!(accept(&app, &tokens[0], pw).await.status, StatusCode::OK);
    accept(&app, &tokens[0], pw)
        .await
        .assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "used already");
    app.with_conn(move |conn| {
        use clubcomp_core::test_store::schema::account_tokens as at;
        use diesel::prelude::*;
        diesel::update(at::table.filter(at::user_id.eq(b)))
            .set(at::expires_at.eq(chrono::Utc::now().naive_utc() - chrono::Duration::minutes(1)))
            .execute(conn)
            .unwrap();
    })
    .await;
    accept(&app, &tokens[1], pw)
        .await
        .assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "expired");
    let r = app
        .req(
            actix_web::http::Method::PATCH,
            &format!("/api/v1/users/{c}"),
            Some(&admin),
            Some(json!({"active": false})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    accept(&app, &tokens[2], pw).await.assert_detail(
        StatusCode::UNPROCESSABLE_ENTITY,
        "is not a valid invitation",
    );
    let forged = format!("cca_{}", "A".repeat(43));
    accept(&app, &forged, pw).await.assert_detail(
        StatusCode::UNPROCESSABLE_ENTITY,
        "is not a valid invitation",
    );
    let r = accept(&app, &"x".repeat(129), pw).await;
    assert_eq!(r.errors("field"), ["token"]);
}

/// A new invitation ends the link sent before; a weak password is refused and leaves the
/// link usable.
#[actix_web::test]
async fn a_new_invitation_ends_the_old_link_and_weak_passwords_are_refused() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    let id = account(&app, &admin, "anna@club.example").await;
    invite(&app, &admin, id).await;
    invite(&app, &admin, id).await;
    let bodies = pending_bodies(&app).await;
    assert_eq!(bodies.len(), 2, "each invitation is its own mail");
    let (old, new) = (token_in(&bodies[0].1), token_in(&bodies[1].1));
    assert_ne!(old, new);
    for (pw, why) in [
        ("short-pw", "at least 10 characters"),
        ("Wachtwoord123", "most common passwords"),
    ] {
        let r = accept(&app, &new, pw).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
        assert_eq!(r.errors("field"), ["password"]);
        assert!(r.errors("message")[0].contains(why), "{}", r.text);
    }
    accept(&app, &old, "a quiet rook on the e-file")
        .await
        .assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "used already");
    assert_eq!(
        accept(&app, &new, "a quiet rook on the e-file")
            .await
            .status,
        StatusCode::OK
    );
}

/// Inviting is for admins and leaders; an unknown account is 404, a disabled one 409.
#[actix_web::test]
async fn inviting_needs_an_officer_and_an_enabled_account() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    let arbiter = app.token(&["arbiter"]).await;
    let id = account(&app, &admin, "anna@club.example").await;
    assert_eq!(
        invite(&app, &arbiter, id).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        app.req(
            actix_web::http::Method::POST,
            &format!("/api/v1/users/{id}/invite"),
            None,
            None
        )
        .await
        .status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        invite(&app, &admin, 999_999).await.status,
        StatusCode::NOT_FOUND
    );
    app.req(
        actix_web::http::Method::PATCH,
        &format!("/api/v1/users/{id}"),
        Some(&admin),
        Some(json!({"active": false})),
    )
    .await;
    assert_eq!(invite(&app, &admin, id).await.status, StatusCode::CONFLICT);
    assert!(pending_bodies(&app).await.is_empty());
}

/// A bulk invitation mails every account named, or none when one of them cannot be
/// invited; the list is bounded and names each account once.
#[actix_web::test]
async fn a_bulk_invitation_is_all_or_nothing() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let admin = app.token(&["admin"]).await;
    let mut ids = Vec::new();
    for e in ["anna", "bert", "cor"] {
        ids.push(account(&app, &admin, &format!("{e}@club.example")).await);
    }
    let bulk = |body: Value| {
        let (app, leader) = (&app, leader.clone());
        async move { app.post("/api/v1/users/invite", Some(&leader), body).await }
    };
    let r = bulk(json!({"user_ids": [ids[0], ids[1], 999_999]})).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text);
    assert!(pending_bodies(&app).await.is_empty());
    let r = bulk(json!({"user_ids": [ids[0], ids[0]]})).await;
    assert_eq!(r.errors("field"), ["user_ids[1]"]);
    let r = bulk(json!({"user_ids": []})).await;
    assert_eq!(r.errors("field"), ["user_ids"]);
    let many: Vec<i64> = (1..=201).collect();
    let r = bulk(json!({ "user_ids": many })).await;
    assert_eq!(r.errors("field"), ["user_ids"]);
    let r = bulk(json!({"user_ids": ids})).await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.text);
    assert_eq!(r.body["items"].as_array().unwrap().len(), 3);
    let to: Vec<String> = pending_bodies(&app)
        .await
        .into_iter()
        .map(|(r, _)| r)
        .collect();
    assert_eq!(
        to,
        ["anna@club.example", "bert@club.example", "cor@club.example"]
    );
}

/// The invitation's link opens a page with a form (no script, forms to its own origin only,
/// never cached, no referrer, the account's address in a hidden login field while the link
/// works); sending it sets the password, a weak one shows the form again.
#[actix_web::test]
async fn the_invitation_page_sets_the_password_with_a_form() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    let id = account(&app, &admin, "anna@club.example").await;
    invite(&app, &admin, id).await;
    let token = token_in(&pending_bodies(&app).await[0].1);
    let page = app
        .get(&format!("/account/invitation?token={token}"), None)
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(
        page.text
            .contains("<form method=\"post\" action=\"/account/invitation\">")
    );
    assert!(page.text.contains(&format!("value=\"{token}\"")));
    // the account's address in a hidden login field, for password managers
    assert!(
        page.text.contains(
            r#"<input type="text" name="username" value="anna@club.example" autocomplete="username" readonly hidden>"#
        ),
        "{}",
        page.text
    );
    assert!(!page.text.contains("<script"));
    let csp = page.header("content-security-policy").unwrap();
    assert!(csp.contains("form-action 'self'"), "{csp}");
    assert_eq!(page.header("cache-control").as_deref(), Some("no-store"));
    assert_eq!(
        page.header("referrer-policy").as_deref(),
        Some("no-referrer")
    );
    let post = |password: &str| {
        let body = serde_urlencoded::to_string([("token", token.as_str()), ("password", password)])
            .unwrap();
        actix_web::test::TestRequest::post()
            .uri("/account/invitation")
            .insert_header(("content-type", "application/x-www-form-urlencoded"))
            .set_payload(body)
    };
    let weak = app.send(post("1234567890")).await;
    assert_eq!(weak.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(weak.text.contains("<form"), "{}", weak.text);
    let done = app.send(post("a quiet rook on the e-file")).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    assert!(
        done.text.contains("Je wachtwoord is ingesteld"),
        "{}",
        done.text
    );
    let login = app
        .login(json!({"email": "anna@club.example", "password": "a quiet rook on the e-file"}))
        .await;
    assert_eq!(login.status, StatusCode::OK);
    let used = app
        .get(&format!("/account/invitation?token={token}"), None)
        .await;
    assert!(
        used.text
            .contains(r#"name="username" value="" autocomplete="username""#),
        "a used link's page names no account: {}",
        used.text
    );
    let again = app.send(post("another quiet rook move")).await;
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(again.text.contains("used already"), "{}", again.text);
    let bad = app.get("/account/invitation?token=nonsense", None).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}

#[actix_web::test]
async fn the_password_pages_carry_the_clubs_name_from_the_settings() {
    let app = spawn_with(|c| {
        c.club_site = clubcomp_core::club_site::ClubSite {
            name: Some("SV De Toren".into()),
            url: None,
            logo_url: None,
        };
    })
    .await;
    for path in [
        "/account/invitation?token=x",
        "/account/password-reset?token=x",
        "/account/email?token=x",
    ] {
        let page = app.get(path, None).await;
        let title =
            &page.text[page.text.find("<title>").unwrap() + 7..page.text.find("</title>").unwrap()];
        assert!(title.ends_with("SV De Toren"), "{path}: {title}");
    }
}
