//! Login, tokens and the role matrix of every protected operation (derived from the OpenAPI
//! security annotations, so a new endpoint is covered as soon as it is documented).

use crate::support::*;
use actix_web::http::{Method, StatusCode};
use base64::Engine;
use serde_json::{Value, json};

const ALL_ROLES: [&str; 5] = ["admin", "leader", "arbiter", "member", "rating_sync"];

#[actix_web::test]
async fn login_me_and_wrong_password() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    let r = app
        .create_user(&admin, json!({"email": "Leader@Club.example", "password": "longenough", "roles": ["leader", "arbiter"]}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert!(r.body.get("password_hash").is_none());
    let r = app
        .login(json!({"email": "leader@club.example", "password": "longenough"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let token = r.body["token"].as_str().unwrap().to_string();
    let me = app.me(&token).await;
    assert_eq!(me.body["name"], "leader@club.example");
    assert_eq!(me.body["roles"], json!(["leader", "arbiter"]));
    let r = app
        .login(json!({"email": "leader@club.example", "password": "wrong-one"}))
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert!(!r.text.contains("argon2"));
}

/// Creates an account with password `longenough` through the API (as an admin); its id.
async fn account(app: &TestApp, email: &str, role: &str) -> i64 {
    let admin = app.token(&["admin"]).await;
    let r = app
        .create_user(
            &admin,
            json!({"email": email, "password": "longenough", "roles": [role]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    r.body["id"].as_i64().unwrap()
}

#[actix_web::test]
async fn failed_logins_are_throttled_per_account() {
    let app = spawn().await;
    account(&app, "m@club.example", "member").await;
    // test config allows 3 failures per account
    for _ in 0..3 {
        let r = app
            .login(json!({"email": "m@club.example", "password": "nope-nope"}))
            .await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    }
    let r = app
        .login(json!({"email": "m@club.example", "password": "longenough"}))
        .await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.text);
    assert!(r.header("retry-after").is_some());
}

/// Concurrent guesses cannot outrun the limit: an attempt counts as a failure from its start,
/// so of a burst of guesses at once only the allowed number (3 in the test configuration) are
/// checked at all, and the account is then blocked even for its right password.
#[actix_web::test]
async fn a_burst_of_concurrent_guesses_is_throttled_too() {
    let app = spawn().await;
    account(&app, "burst@club.example", "member").await;
    let guesses = (0..12).map(|i| {
        app.login(json!({"email": "burst@club.example", "password": format!("guess-{i}")}))
    });
    let codes: Vec<StatusCode> = futures_util::future::join_all(guesses)
        .await
        .iter()
        .map(|r| r.status)
        .collect();
    let checked = codes
        .iter()
        .filter(|c| **c == StatusCode::UNAUTHORIZED)
        .count();
    let refused = codes
        .iter()
        .filter(|c| **c == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert_eq!((checked, refused), (3, 9), "{codes:?}");
    let r = app
        .login(json!({"email": "burst@club.example", "password": "longenough"}))
        .await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.text);
}

/// Two instances on one database count the same failed logins (the counter is in the
/// database): failures through one block the account in the other as well.
#[actix_web::test]
async fn failed_logins_count_across_instances() {
    let a = spawn().await;
    let b = spawn_beside(&a).await;
    account(&a, "two@club.example", "member").await;
    let wrong = json!({"email": "two@club.example", "password": "wrong-wrong"});
    for app_status in [
        a.login(wrong.clone()).await.status,
        b.login(wrong.clone()).await.status,
        a.login(wrong.clone()).await.status,
    ] {
        assert_eq!(app_status, StatusCode::UNAUTHORIZED);
    }
    let right = json!({"email": "two@club.example", "password": "longenough"});
    let r = b.login(right).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.text);
}

/// Behind a trusted proxy the per-address limit (4 × 3 failures in the test configuration)
/// counts the client address the proxy forwards, so one client's failures do not lock out the
/// others; without `TRUSTED_PROXIES` the header is ignored, so a client cannot dodge the limit
/// by writing one.
#[actix_web::test]
async fn failed_logins_are_throttled_per_client_behind_a_trusted_proxy() {
    async fn attempts(app: &TestApp, from: &str, n: usize) -> Vec<StatusCode> {
        let mut out = Vec::new();
        for i in 0..n {
            let r = app
                .send(
                    actix_web::test::TestRequest::post()
                        .uri(paths::LOGIN)
                        .peer_addr("127.0.0.1:40000".parse().unwrap())
                        .insert_header(("X-Forwarded-For", from))
                        .set_json(json!({"email": format!("nobody{i}@club.example"),
                                         "password": "wrong-wrong"})),
                )
                .await;
            out.push(r.status);
        }
        out
    }
    let behind = spawn_with(|c| c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()]).await;
    // 12 failures (different accounts) from one client use up that client's address...
    assert!(
        attempts(&behind, "203.0.113.9", 12)
            .await
            .iter()
            .all(|s| *s == StatusCode::UNAUTHORIZED)
    );
    assert_eq!(
        attempts(&behind, "203.0.113.9", 1).await,
        [StatusCode::TOO_MANY_REQUESTS]
    );
    // ...and not another's
    assert_eq!(
        attempts(&behind, "198.51.100.7", 1).await,
        [StatusCode::UNAUTHORIZED]
    );
    // a forged header from a client that is not a trusted proxy changes nothing
    let direct = spawn().await;
    assert!(
        attempts(&direct, "203.0.113.9", 12)
            .await
            .iter()
            .all(|s| *s == StatusCode::UNAUTHORIZED)
    );
    assert_eq!(
        attempts(&direct, "198.51.100.7", 1).await,
        [StatusCode::TOO_MANY_REQUESTS]
    );
}

fn b64(v: &Value) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(serde_json::to_vec(v).unwrap())
}

#[actix_web::test]
async fn forged_expired_and_foreign_tokens_are_401() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    assert_eq!(
        app.get(paths::USERS, Some(&admin)).await.status,
        StatusCode::OK
    );
    let now = chrono::Utc::now().timestamp();
    let claims = json!({"sub": "user:1", "iss": "clubcomp", "iat": now, "exp": now + 600, "roles": ["admin"]});
    let none = format!(
        "{}.{}.",
        b64(&json!({"alg": "none", "typ": "JWT"})),
        b64(&claims)
    );
    assert_eq!(
        app.get(paths::USERS, Some(&none)).await.status,
        StatusCode::UNAUTHORIZED
    );
    let foreign =
        clubcomp::auth::JwtKeys::new(b"another-key-another-key-another-key!", "clubcomp").unwrap();
    let (t, _) = foreign
        .issue("user:1".into(), vec![], chrono::Duration::minutes(5))
        .unwrap();
    assert_eq!(
        app.get(paths::USERS, Some(&t)).await.status,
        StatusCode::UNAUTHORIZED
    );
    let (expired, _) = app
        .state
        .jwt
        .issue("user:1".into(), vec![], chrono::Duration::seconds(-5))
        .unwrap();
    assert_eq!(
        app.get(paths::USERS, Some(&expired)).await.status,
        StatusCode::UNAUTHORIZED
    );
    let r = app.get(paths::USERS, Some("garbage")).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert_eq!(r.header("www-authenticate").as_deref(), Some("Bearer"));
}

#[actix_web::test]
async fn other_algorithms_issuers_missing_claims_and_tampering_are_401() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    let payload = |t: &str| -> Value {
        let part = t.split('.').nth(1).unwrap();
        let raw = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(part)
            .unwrap();
        serde_json::from_slice(&raw).unwrap()
    };
    let claims = payload(&admin);
    let sign = |alg: jsonwebtoken::Algorithm, claims: &Value| {
        jsonwebtoken::encode(
            &jsonwebtoken::Header::new(alg),
            claims,
            &jsonwebtoken::EncodingKey::from_secret(SECRET.as_bytes()).unwrap(),
        )
        .unwrap()
    };
    let users = |t: String| {
        let app = &app;
        async move { app.get(paths::USERS, Some(&t)).await.status }
    };
    // the control: the same claims signed again with the service's key and algorithm pass, so
    // every refusal below is for the one thing changed
    assert_eq!(
        users(sign(jsonwebtoken::Algorithm::HS256, &claims)).await,
        StatusCode::OK
    );
    // the right key, another HMAC algorithm
    for alg in [
        jsonwebtoken::Algorithm::HS384,
        jsonwebtoken::Algorithm::HS512,
    ] {
        assert_eq!(
            users(sign(alg, &claims)).await,
            StatusCode::UNAUTHORIZED,
            "{alg:?}"
        );
    }
    // another issuer; no expiry; no subject; expired by one second (no leeway)
    let mut other = claims.clone();
    other["iss"] = json!("someone-else");
    assert_eq!(
        users(sign(jsonwebtoken::Algorithm::HS256, &other)).await,
        StatusCode::UNAUTHORIZED
    );
    for drop in ["exp", "sub", "iss"] {
        let mut c = claims.clone();
        c.as_object_mut().unwrap().remove(drop);
        assert_eq!(
            users(sign(jsonwebtoken::Algorithm::HS256, &c)).await,
            StatusCode::UNAUTHORIZED,
            "without {drop}"
        );
    }
    let mut expired = claims.clone();
    expired["exp"] = json!(chrono::Utc::now().timestamp() - 1);
    assert_eq!(
        users(sign(jsonwebtoken::Algorithm::HS256, &expired)).await,
        StatusCode::UNAUTHORIZED
    );
    // a member's token whose payload is edited to claim admin, signature kept
    let member = app.token(&["member"]).await;
    assert_eq!(users(member.clone()).await, StatusCode::FORBIDDEN);
    let mut forged = payload(&member);
    forged["roles"] = json!(["admin"]);
    let parts: Vec<&str> = member.split('.').collect();
    let tampered = format!("{}.{}.{}", parts[0], b64(&forged), parts[2]);
    assert_eq!(users(tampered).await, StatusCode::UNAUTHORIZED);
    // and the signature stripped
    assert_eq!(
        users(format!("{}.{}.", parts[0], parts[1])).await,
        StatusCode::UNAUTHORIZED
    );
}

#[actix_web::test]
async fn disabled_user_and_revoked_service_token_stop_at_once() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    let r = app
        .create_user(
            &admin,
            json!({"email": "l@club.example", "password": "longenough", "roles": ["leader"]}),
        )
        .await;
    let id = r.body["id"].as_i64().unwrap();
    let login = app
        .login(json!({"email": "l@club.example", "password": "longenough"}))
        .await;
    let lt = login.body["token"].as_str().unwrap().to_string();
    assert_eq!(app.me(&lt).await.status, StatusCode::OK);
    let r = app
        .req(
            Method::PATCH,
            &paths::user(id),
            Some(&admin),
            Some(json!({"active": false})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(app.me(&lt).await.status, StatusCode::UNAUTHORIZED);
    let r = app
        .login(json!({"email": "l@club.example", "password": "longenough"}))
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);

    let r = app
        .post(
            paths::SERVICE_TOKENS,
            Some(&admin),
            json!({"name": "knsb sync"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let st = r.body["token"].as_str().unwrap().to_string();
    let sid = r.body["id"].as_i64().unwrap();
    let list = json!({"source": "KNSB", "list_date": "2026-09-01", "ratings": [{"knsb_number": "1", "value": 1500}]});
    let r = app.push_ratings(&st, list.clone()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // a service token is not a leader
    assert_eq!(
        app.create_player(&st, json!({"name": "X"})).await.status,
        StatusCode::FORBIDDEN
    );
    let r = app
        .req(
            Method::DELETE,
            &paths::service_token(sid),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT);
    let r = app.push_ratings(&st, list).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
}

#[actix_web::test]
async fn service_tokens_are_listed_newest_first_a_page_at_a_time() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    for name in ["first sync", "second sync", "third sync"] {
        app.service_token(&admin, name).await;
    }
    let r = app.service_tokens(&admin, "per_page=2").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["total"], 3);
    assert_eq!(
        (r.body["page"].clone(), r.body["per_page"].clone()),
        (json!(1), json!(2))
    );
    let names = |r: &Resp| -> Vec<String> {
        r.body["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(names(&r), ["third sync", "second sync"]);
    let link = r.header("link").unwrap();
    assert!(
        link.contains("</api/v1/service-tokens?per_page=2&page=2>; rel=\"next\""),
        "{link}"
    );
    // a revoked token stays in the list, with its revocation time
    let oldest = app.service_tokens(&admin, "per_page=2&page=2").await;
    assert_eq!(names(&oldest), ["first sync"]);
    let id = oldest.body["items"][0]["id"].as_i64().unwrap();
    let r = app
        .req(
            Method::DELETE,
            &paths::service_token(id),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.text);
    let r = app.service_tokens(&admin, "per_page=2&page=2").await;
    assert_eq!(r.body["items"][0]["id"], id);
    assert!(r.body["items"][0]["revoked_at"].is_string(), "{}", r.text);
    // past the end: an empty page; unknown parameters and sizes out of range are refused
    let r = app.service_tokens(&admin, "per_page=2&page=3").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["items"], json!([]));
    assert_eq!(r.body["total"], 3);
    let r = app.service_tokens(&admin, "revoked_only=1").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    assert!(r.text.contains("revoked_only"), "{}", r.text);
    let r = app.service_tokens(&admin, "per_page=0").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), ["per_page"]);
}

#[actix_web::test]
async fn role_changes_apply_to_existing_tokens() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    let r = app
        .create_user(
            &admin,
            json!({"email": "x@club.example", "password": "longenough", "roles": ["member"]}),
        )
        .await;
    let id = r.body["id"].as_i64().unwrap();
    let login = app
        .login(json!({"email": "x@club.example", "password": "longenough"}))
        .await;
    let t = login.body["token"].as_str().unwrap().to_string();
    assert_eq!(
        app.create_player(&t, json!({"name": "P"})).await.status,
        StatusCode::FORBIDDEN
    );
    app.req(
        Method::PATCH,
        &paths::user(id),
        Some(&admin),
        Some(json!({"roles": ["leader"]})),
    )
    .await;
    assert_eq!(
        app.create_player(&t, json!({"name": "P"})).await.status,
        StatusCode::CREATED
    );
}

/// Every protected operation: no token → 401, a role outside its list → 403, a role in its
/// list → neither.
#[actix_web::test]
async fn auth_matrix_of_every_protected_operation() {
    let app = spawn().await;
    let spec = serde_json::to_value(clubcomp::app::openapi()).unwrap();
    let mut tokens = std::collections::HashMap::new();
    for r in ALL_ROLES {
        tokens.insert(r, app.token(&[r]).await);
    }
    let mut checked = 0;
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let Some(sec) = op.get("security") else {
                continue;
            };
            let allowed: Vec<String> = sec[0]["bearer"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect();
            let url: String = path
                .split('/')
                .map(|seg| if seg.starts_with('{') { "1" } else { seg })
                .collect::<Vec<_>>()
                .join("/");
            let m = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let body = Some(json!({}));
            let r = app.req(m.clone(), &url, None, body.clone()).await;
            assert_eq!(
                r.status,
                StatusCode::UNAUTHORIZED,
                "{method} {path} without token: {}",
                r.text
            );
            for role in ALL_ROLES {
                let r = app
                    .req(m.clone(), &url, Some(&tokens[role]), body.clone())
                    .await;
                if allowed.iter().any(|a| a == role) {
                    assert!(
                        r.status != StatusCode::UNAUTHORIZED && r.status != StatusCode::FORBIDDEN,
                        "{method} {path} as {role}: {} {}",
                        r.status,
                        r.text
                    );
                } else {
                    assert_eq!(
                        r.status,
                        StatusCode::FORBIDDEN,
                        "{method} {path} as {role}: {}",
                        r.text
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 12, "only {checked} protected operations found");
}

/// Logs in to `email` with `password` from `peer`; the response.
async fn login_from(app: &TestApp, peer: &str, email: &str, password: &str) -> Resp {
    app.send(
        actix_web::test::TestRequest::post()
            .uri(paths::LOGIN)
            .peer_addr(format!("{peer}:40000").parse().unwrap())
            .set_json(json!({"email": email, "password": password})),
    )
    .await
}

/// Failures from one address block that address for the account, never the owner elsewhere:
/// the lock-out is per (account, address) (3 in the test configuration), per address (12),
/// and per account from every address only at 20 × 3 = 60, and then not for the address the
/// owner signed in from.
#[actix_web::test]
async fn failures_from_one_address_do_not_lock_out_the_owner() {
    let app = spawn().await;
    account(&app, "owner@club.example", "member").await;
    for _ in 0..3 {
        let r = login_from(&app, "203.0.113.66", "owner@club.example", "guess-guess").await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    }
    let r = login_from(&app, "203.0.113.66", "owner@club.example", "longenough").await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.text);
    // the owner, from home
    let r = login_from(&app, "198.51.100.7", "owner@club.example", "longenough").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // a campaign from many addresses locks the account for all only at 60 failures
    for i in 0..57 {
        let peer = format!("10.1.{}.{}", i / 200, i % 200);
        let r = login_from(&app, &peer, "owner@club.example", "guess-guess").await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "failure {i}");
    }
    let r = login_from(&app, "192.0.2.70", "owner@club.example", "longenough").await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.text);
    // ...except where the owner signed in before (docs/decisions/0257-no-lock-out-from-a-known-device.md)
    let r = login_from(&app, "198.51.100.7", "owner@club.example", "longenough").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

/// Every login runs exactly one argon2 verification, whatever the account's state, so the
/// answer's timing does not tell the states apart.
#[actix_web::test]
async fn every_login_runs_one_password_verification() {
    let app = spawn().await;
    account(&app, "ok@club.example", "member").await;
    let off = account(&app, "off@club.example", "member").await;
    account(&app, "locked@club.example", "member").await;
    let admin = app.token(&["admin"]).await;
    let r = app
        .req(
            Method::PATCH,
            &paths::user(off),
            Some(&admin),
            Some(json!({"active": false})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    for _ in 0..3 {
        login_from(&app, "192.0.2.1", "locked@club.example", "guess-guess").await;
    }
    let runs = || {
        app.state
            .password_checks
            .load(std::sync::atomic::Ordering::Relaxed)
    };
    for (email, password, status) in [
        (
            "nobody@club.example",
            "longenough",
            StatusCode::UNAUTHORIZED,
        ),
        ("off@club.example", "longenough", StatusCode::UNAUTHORIZED),
        (
            "locked@club.example",
            "longenough",
            StatusCode::TOO_MANY_REQUESTS,
        ),
        ("ok@club.example", "wrong-wrong", StatusCode::UNAUTHORIZED),
        ("ok@club.example", "longenough", StatusCode::OK),
    ] {
        let before = runs();
        let r = login_from(&app, "192.0.2.1", email, password).await;
        assert_eq!(r.status, status, "{email}: {}", r.text);
        assert_eq!(runs() - before, 1, "{email}: one verification");
    }
}

/// A password reset, disabling and re-enabling each end every token issued before; a token
/// issued after keeps working.
#[actix_web::test]
async fn password_reset_disabling_and_re_enabling_end_earlier_tokens() {
    let app = spawn().await;
    let id = account(&app, "t@club.example", "member").await;
    let admin = &app.token(&["admin"]).await;
    let app = &app;
    let login = |password: &'static str| async move {
        let r = login_from(app, "192.0.2.9", "t@club.example", password).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        r.body["token"].as_str().unwrap().to_string()
    };
    let me = |t: String| async move { app.me(&t).await.status };
    let patch = |active: bool| async move {
        let path = paths::user(id);
        let body = json!({"active": active});
        app.req(Method::PATCH, &path, Some(admin), Some(body)).await
    };
    // reset
    let before = login("longenough").await;
    assert_eq!(me(before.clone()).await, StatusCode::OK);
    let r = app
        .post(
            &paths::user_password(id),
            Some(admin),
            json!({"password": "brand-new-secret"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.text);
    assert_eq!(me(before).await, StatusCode::UNAUTHORIZED);
    let after = login("brand-new-secret").await;
    assert_eq!(me(after.clone()).await, StatusCode::OK);
    // disable, then enable: the token from before the disabling stays dead
    assert_eq!(patch(false).await.status, StatusCode::OK);
    assert_eq!(me(after.clone()).await, StatusCode::UNAUTHORIZED);
    assert_eq!(patch(true).await.status, StatusCode::OK);
    assert_eq!(me(after).await, StatusCode::UNAUTHORIZED);
    let again = login("brand-new-secret").await;
    assert_eq!(me(again.clone()).await, StatusCode::OK);
    // a change that leaves `active` as it is ends nothing
    assert_eq!(patch(true).await.status, StatusCode::OK);
    assert_eq!(me(again).await, StatusCode::OK);
}

/// Logs in to an account made by [`account`]; the whole answer.
async fn sign_in(app: &TestApp, email: &str) -> Resp {
    let r = app
        .login(json!({"email": email, "password": "longenough"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r
}

/// The refresh token of a login or refresh answer.
fn refresh_of(r: &Resp) -> String {
    r.body["refresh_token"].as_str().unwrap().to_string()
}

/// The `type` of a problem answer, after `https://clubcomp.dev/problems/`.
fn problem(r: &Resp) -> &str {
    r.body["type"]
        .as_str()
        .and_then(|t| t.strip_prefix("https://clubcomp.dev/problems/"))
        .unwrap_or("")
}

/// Seconds from now until an RFC 3339 time.
fn secs_until(r: &Resp, field: &str) -> i64 {
    let at = chrono::DateTime::parse_from_rfc3339(r.body[field].as_str().unwrap()).unwrap();
    (at.with_timezone(&chrono::Utc) - chrono::Utc::now()).num_seconds()
}

/// A login answers a 15-minute access token and a 30-day refresh token: `ccr_` and 32 random
/// bytes in unpadded base64url (43 characters), stored only as its SHA-256.
#[actix_web::test]
async fn login_answers_an_access_token_and_a_refresh_token() {
    let app = spawn().await;
    let id = account(&app, "s@club.example", "member").await;
    let r = sign_in(&app, "s@club.example").await;
    assert_eq!(r.header("cache-control").as_deref(), Some("no-store"));
    let access = r.body["token"].as_str().unwrap().to_string();
    let refresh = refresh_of(&r);
    assert!(refresh.starts_with("ccr_"), "{refresh}");
    assert_eq!(refresh.len(), 4 + 43);
    // 15 minutes = 900 s, 30 days = 2 592 000 s (a few seconds pass in between)
    let access_left = secs_until(&r, "expires_at");
    assert!((890..=900).contains(&access_left), "{access_left}");
    let refresh_left = secs_until(&r, "refresh_expires_at");
    assert!(
        (2_591_990..=2_592_000).contains(&refresh_left),
        "{refresh_left}"
    );
    assert_eq!(app.me(&access).await.status, StatusCode::OK);
    // the refresh token is no bearer token
    assert_eq!(app.me(&refresh).await.status, StatusCode::UNAUTHORIZED);
    // two logins: two different tokens
    assert_ne!(refresh_of(&sign_in(&app, "s@club.example").await), refresh);
    // what is stored: the hex SHA-256 of the token, never the token
    let stored = app
        .with_conn(move |c| {
            use clubcomp_core::test_store::schema::refresh_tokens as rt;
            use diesel::prelude::*;
            rt::table
                .filter(rt::user_id.eq(id))
                .order(rt::id)
                .select(rt::token_hash)
                .load::<String>(c)
                .unwrap()
        })
        .await;
    use sha2::Digest;
    let digest = sha2::Sha256::digest(refresh.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(stored.len(), 2);
    assert_eq!(stored[0], hex);
    assert!(stored.iter().all(|h| !h.contains(&refresh[4..])));
}

/// A refresh answers a new access token and a new refresh token; the one sent is spent.
#[actix_web::test]
async fn a_refresh_rotates_the_refresh_token_and_the_old_one_is_refused() {
    let app = spawn().await;
    account(&app, "r@club.example", "leader").await;
    let first = refresh_of(&sign_in(&app, "r@club.example").await);
    let r = app.refresh(&first).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["roles"], json!(["leader"]));
    let second = refresh_of(&r);
    assert_ne!(second, first);
    let access = r.body["token"].as_str().unwrap();
    assert_eq!(app.me(access).await.body["name"], "r@club.example");
    // the successor works once in its turn
    let r = app.refresh(&second).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // the spent first token is refused
    let r = app.refresh(&first).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/problem+json")
    );
    assert_eq!(problem(&r), "refresh-token-reused");
    // an unknown token
    let r = app.refresh("ccr_not-a-token-of-this-service").await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert_eq!(problem(&r), "refresh-token-invalid");
}

/// A spent refresh token sent again after the grace period (none here, so that no test
/// waits) ends its whole family: the newest token of that login is refused too; another login
/// of the same account goes on.
#[actix_web::test]
async fn reuse_of_a_spent_refresh_token_ends_its_family() {
    let app = spawn_with(|c| c.refresh_grace = chrono::Duration::zero()).await;
    account(&app, "f@club.example", "member").await;
    let stolen = refresh_of(&sign_in(&app, "f@club.example").await);
    let other_device = refresh_of(&sign_in(&app, "f@club.example").await);
    // the thief refreshes first and gets the next token of the family
    let r = app.refresh(&stolen).await;
    assert_eq!(r.status, StatusCode::OK);
    let thiefs = refresh_of(&r);
    // the owner's app sends the same (now spent) token: the family ends
    let r = app.refresh(&stolen).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert_eq!(problem(&r), "refresh-token-reused");
    let r = app.refresh(&thiefs).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
    assert_eq!(problem(&r), "refresh-token-invalid");
    // another login is another family
    assert_eq!(app.refresh(&other_device).await.status, StatusCode::OK);
}

/// Logout ends the session of its refresh token (204, known token or not); logout-all ends
/// every session of the account.
#[actix_web::test]
async fn logout_ends_a_session_and_logout_all_every_session() {
    let app = spawn().await;
    account(&app, "o@club.example", "member").await;
    let phone = refresh_of(&sign_in(&app, "o@club.example").await);
    let tablet = refresh_of(&sign_in(&app, "o@club.example").await);
    // the phone refreshed once; logging out with its spent token ends its family too
    let r = app.refresh(&phone).await;
    let phone_next = refresh_of(&r);
    assert_eq!(app.logout(&phone).await.status, StatusCode::NO_CONTENT);
    let r = app.refresh(&phone_next).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert_eq!(problem(&r), "refresh-token-invalid");
    assert_eq!(app.logout(&phone_next).await.status, StatusCode::NO_CONTENT);
    assert_eq!(
        app.logout("ccr_unknown").await.status,
        StatusCode::NO_CONTENT
    );
    // the tablet is signed in still
    let r = app.refresh(&tablet).await;
    assert_eq!(r.status, StatusCode::OK);
    let tablet = refresh_of(&r);
    // logout-all, from a third login
    let third = sign_in(&app, "o@club.example").await;
    let access = third.body["token"].as_str().unwrap();
    assert_eq!(app.logout_all(access).await.status, StatusCode::NO_CONTENT);
    assert_eq!(app.refresh(&tablet).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        app.refresh(&refresh_of(&third)).await.status,
        StatusCode::UNAUTHORIZED
    );
    // a service token has no sessions
    let admin = app.token(&["admin"]).await;
    let r = app
        .post(paths::SERVICE_TOKENS, Some(&admin), json!({"name": "sync"}))
        .await;
    let service = r.body["token"].as_str().unwrap();
    assert_eq!(app.logout_all(service).await.status, StatusCode::FORBIDDEN);
}

/// A refresh token past its expiry is refused (a configuration whose tokens expire as they are
/// issued: no waiting).
#[actix_web::test]
async fn an_expired_refresh_token_is_refused() {
    let app = spawn_with(|c| c.refresh_ttl = chrono::Duration::zero()).await;
    account(&app, "e@club.example", "member").await;
    let r = sign_in(&app, "e@club.example").await;
    assert!(secs_until(&r, "refresh_expires_at") <= 0);
    let r = app.refresh(&refresh_of(&r)).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
    assert_eq!(problem(&r), "refresh-token-invalid");
    assert!(r.body["detail"].as_str().unwrap().contains("expired"));
    // the next login deletes the expired row: one row left, the new login's
    let id = app
        .with_conn(|c| clubcomp_core::test_store::models::users::by_email(c, "e@club.example"))
        .await
        .unwrap()
        .unwrap()
        .id;
    sign_in(&app, "e@club.example").await;
    let rows = app
        .with_conn(move |c| {
            use clubcomp_core::test_store::schema::refresh_tokens as rt;
            use diesel::prelude::*;
            rt::table
                .filter(rt::user_id.eq(id))
                .count()
                .get_result::<i64>(c)
                .unwrap()
        })
        .await;
    assert_eq!(rows, 1);
}

/// A session keeps its 16 newest spent tokens: after 17 refreshes the first token is
/// forgotten (refused as unknown, the session goes on); one still kept is known as spent and
/// its reuse ends the session.
#[actix_web::test]
async fn a_session_remembers_its_sixteen_newest_spent_tokens() {
    let app = spawn().await;
    account(&app, "k@club.example", "member").await;
    let mut chain = vec![refresh_of(&sign_in(&app, "k@club.example").await)];
    for i in 0..17 {
        let r = app.refresh(&chain[i]).await;
        assert_eq!(r.status, StatusCode::OK, "refresh {i}: {}", r.text);
        chain.push(refresh_of(&r));
    }
    // spent: chain[0..17], 17 tokens; kept: chain[1..17]
    let r = app.refresh(&chain[0]).await;
    assert_eq!(problem(&r), "refresh-token-invalid", "{}", r.text);
    let r = app.refresh(&chain[17]).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let newest = refresh_of(&r);
    // spent now: chain[0..18], 18 tokens; kept: chain[2..18]
    let r = app.refresh(&chain[2]).await;
    assert_eq!(problem(&r), "refresh-token-reused", "{}", r.text);
    let r = app.refresh(&newest).await;
    assert_eq!(problem(&r), "refresh-token-invalid", "{}", r.text);
}

/// A disabled account, or one whose password was reset, cannot refresh (re-enabling does not
/// bring the old sessions back); a role change ends nothing and the next access token carries
/// the new roles.
#[actix_web::test]
async fn refresh_follows_the_account_disabling_password_reset_and_roles() {
    let app = spawn().await;
    let id = account(&app, "d@club.example", "member").await;
    let admin = app.token(&["admin"]).await;
    let patch = |body: Value| {
        let (app, admin) = (&app, &admin);
        async move {
            let r = app
                .req(Method::PATCH, &paths::user(id), Some(admin), Some(body))
                .await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        }
    };
    // roles
    let token = refresh_of(&sign_in(&app, "d@club.example").await);
    patch(json!({"roles": ["member", "arbiter"]})).await;
    let r = app.refresh(&token).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["roles"], json!(["arbiter", "member"]));
    let token = refresh_of(&r);
    // disabled, then enabled again
    patch(json!({"active": false})).await;
    let r = app.refresh(&token).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
    assert_eq!(problem(&r), "refresh-token-invalid");
    patch(json!({"active": true})).await;
    assert_eq!(app.refresh(&token).await.status, StatusCode::UNAUTHORIZED);
    // a password reset
    let token = refresh_of(&sign_in(&app, "d@club.example").await);
    let r = app
        .post(
            &paths::user_password(id),
            Some(&admin),
            json!({"password": "another-secret"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.text);
    let r = app.refresh(&token).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
    assert_eq!(problem(&r), "refresh-token-invalid");
}

/// A refresh retried within the grace period with the token it spent answers the same new
/// tokens, access and refresh, and ends nothing; once the new refresh token was used, the old
/// one sent again is a reuse and ends the session.
#[actix_web::test]
async fn a_retried_refresh_within_the_grace_period_answers_the_same_tokens() {
    let app = spawn().await;
    account(&app, "g@club.example", "member").await;
    let first = refresh_of(&sign_in(&app, "g@club.example").await);
    let a = app.refresh(&first).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    // the answer was lost: the app sends the same request again
    let b = app.refresh(&first).await;
    assert_eq!(b.status, StatusCode::OK, "{}", b.text);
    for field in ["token", "expires_at", "refresh_token", "refresh_expires_at"] {
        assert_eq!(a.body[field], b.body[field], "{field}");
    }
    assert_ne!(refresh_of(&a), first);
    assert_eq!(
        app.me(a.body["token"].as_str().unwrap()).await.status,
        StatusCode::OK
    );
    // the new refresh token is used: the old one is spent for good
    let c = app.refresh(&refresh_of(&a)).await;
    assert_eq!(c.status, StatusCode::OK, "{}", c.text);
    let r = app.refresh(&first).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
    assert_eq!(problem(&r), "refresh-token-reused");
    let r = app.refresh(&refresh_of(&c)).await;
    assert_eq!(problem(&r), "refresh-token-invalid", "{}", r.text);
}

/// Ten refreshes of one token at once all succeed and answer one and the same pair of new
/// tokens, of which the refresh token works once in its turn.
#[actix_web::test]
async fn ten_concurrent_refreshes_of_one_token_answer_the_same_new_tokens() {
    let app = spawn().await;
    account(&app, "c@club.example", "member").await;
    let token = refresh_of(&sign_in(&app, "c@club.example").await);
    let answers = futures_util::future::join_all((0..10).map(|_| app.refresh(&token))).await;
    for r in &answers {
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(r.body["token"], answers[0].body["token"]);
        assert_eq!(r.body["refresh_token"], answers[0].body["refresh_token"]);
    }
    let next = refresh_of(&answers[0]);
    assert_ne!(next, token);
    assert_eq!(app.refresh(&next).await.status, StatusCode::OK);
}

/// With the grace period off, of two refreshes of one token at once exactly one gets new
/// tokens; the other is a second use of a spent token, which ends the family, so the winner's
/// new refresh token is refused too.
#[actix_web::test]
async fn without_a_grace_period_of_two_concurrent_refreshes_one_succeeds() {
    let app = spawn_with(|c| c.refresh_grace = chrono::Duration::zero()).await;
    account(&app, "c@club.example", "member").await;
    let token = refresh_of(&sign_in(&app, "c@club.example").await);
    let (a, b) = futures_util::join!(app.refresh(&token), app.refresh(&token));
    let mut statuses = [a.status.as_u16(), b.status.as_u16()];
    statuses.sort();
    assert_eq!(statuses, [200, 401], "{} / {}", a.text, b.text);
    let (won, lost) = if a.status == StatusCode::OK {
        (a, b)
    } else {
        (b, a)
    };
    assert_eq!(problem(&lost), "refresh-token-reused");
    assert_eq!(
        app.refresh(&refresh_of(&won)).await.status,
        StatusCode::UNAUTHORIZED
    );
}

/// `refresh_token` holds at most 128 characters (422 naming it, on refresh and on logout); 128
/// is read (and is unknown here).
#[actix_web::test]
async fn an_oversized_refresh_token_is_refused_naming_the_field() {
    let app = spawn().await;
    let long = "x".repeat(129);
    for r in [app.refresh(&long).await, app.logout(&long).await] {
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
        assert_eq!(r.body["errors"][0]["field"], "refresh_token");
        assert!(r.text.contains("128"), "{}", r.text);
    }
    let r = app.refresh(&"x".repeat(128)).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    let r = app
        .req(Method::POST, paths::REFRESH, None, Some(json!({})))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
}

/// An account holds at most `REFRESH_MAX_SESSIONS` sessions (2 here): a third login ends the
/// least recently used one.
#[actix_web::test]
async fn a_login_beyond_the_session_limit_ends_the_least_recently_used_session() {
    let app = spawn_with(|c| c.refresh_max_sessions = 2).await;
    account(&app, "m@club.example", "member").await;
    let one = refresh_of(&sign_in(&app, "m@club.example").await);
    let two = refresh_of(&sign_in(&app, "m@club.example").await);
    // the first is used: now the second is the least recently used
    let r = app.refresh(&one).await;
    assert_eq!(r.status, StatusCode::OK);
    let one = refresh_of(&r);
    let three = refresh_of(&sign_in(&app, "m@club.example").await);
    let r = app.refresh(&two).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert_eq!(problem(&r), "refresh-token-invalid");
    assert_eq!(app.refresh(&one).await.status, StatusCode::OK);
    assert_eq!(app.refresh(&three).await.status, StatusCode::OK);
}
