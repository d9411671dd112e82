//! No lock-out by strangers and fair shares between clients (docs/decisions/0257-no-lock-out-from-a-known-device.md,
//! docs/decisions/0258-fair-shares-per-address.md): the login throttle spares devices and
//! addresses that signed in before, counts IPv6 by /64 and covers refreshes; anonymous
//! streams, calculator requests and logins get a share per address; `/changes` refuses
//! unknown parameters; `/docs/` carries its security headers.

use crate::support::*;
use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use serde_json::{Value, json};

/// The trusted proxy every request of these tests comes through; the client address is
/// the one it forwards.
const PROXY: &str = "127.0.0.1:40000";

/// `POST path` with `body` from client `from` through the trusted proxy, with `extra`
/// headers.
async fn post_from(
    app: &TestApp,
    path: &str,
    from: &str,
    body: Value,
    extra: &[(&str, &str)],
) -> Resp {
    let mut r = TestRequest::post()
        .uri(path)
        .peer_addr(PROXY.parse().unwrap())
        .insert_header(("X-Forwarded-For", from))
        .set_json(body);
    for (k, v) in extra {
        r = r.insert_header((*k, *v));
    }
    app.send(r).await
}

async fn login_from(app: &TestApp, from: &str, email: &str, password: &str) -> Resp {
    post_from(
        app,
        paths::LOGIN,
        from,
        json!({"email": email, "password": password}),
        &[],
    )
    .await
}

/// An account with password `longenough`.
async fn owner(app: &TestApp, email: &str) {
    let admin = app.token(&["admin"]).await;
    let r = app
        .create_user(
            &admin,
            json!({"email": email, "password": "longenough", "roles": ["leader"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
}

fn behind_proxy(c: &mut clubcomp::config::Config) {
    c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
}

/// The reviewers' scenario with the production limit (5 failures per account and address,
/// 100 per account): 200 wrong passwords from 40 addresses use up the account for every
/// stranger, yet the owner signs in from the address he signed in from before (no cookie, no
/// device token), and from a new address with the device token he was given, sent in the
/// body, as `X-Device-Token` or as the cookie.
#[actix_web::test]
async fn strangers_cannot_lock_the_owner_out_of_a_known_device_or_address() {
    let app = spawn_with(|c| {
        behind_proxy(c);
        c.login_max_failures = 5;
    })
    .await;
    let email = "owner@club.example";
    owner(&app, email).await;
    let first = login_from(&app, "198.51.100.10", email, "longenough").await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let device = first.body["device_token"].as_str().unwrap().to_string();
    assert!(
        device.starts_with("ccd_") && device.len() <= 128,
        "{device}"
    );
    let cookie = first.header("set-cookie").unwrap();
    for part in [
        "clubcomp_device=",
        "HttpOnly",
        "SameSite=Strict",
        "Path=/api/v1/auth",
    ] {
        assert!(cookie.contains(part), "{part} not in {cookie}");
    }
    assert!(!cookie.contains("Secure"), "plain HTTP: {cookie}");
    // 40 addresses × 5 wrong passwords
    let mut refused = 0;
    for a in 0..40 {
        for _ in 0..5 {
            let r = login_from(&app, &format!("203.0.113.{}", a + 1), email, "guess-guess").await;
            match r.status {
                StatusCode::UNAUTHORIZED => {}
                StatusCode::TOO_MANY_REQUESTS => refused += 1,
                s => panic!("{s}: {}", r.text),
            }
        }
    }
    assert_eq!(
        refused, 100,
        "the account-wide count is 20 × 5 = 100 failures"
    );
    // a stranger's correct password from a new address finds the account used up
    let stranger = login_from(&app, "192.0.2.200", email, "longenough").await;
    assert_eq!(
        stranger.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        stranger.text
    );
    assert!(stranger.header("retry-after").is_some());
    assert_eq!(
        stranger.header("content-type").as_deref(),
        Some("application/problem+json")
    );
    // the owner's known address, without cookie or token
    let r = login_from(&app, "198.51.100.10", email, "longenough").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // new addresses with the device token: in the body, as the header, as the cookie
    let body = json!({"email": email, "password": "longenough", "device_token": device});
    let r = post_from(&app, paths::LOGIN, "192.0.2.11", body, &[]).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        r.body["device_token"],
        device.as_str(),
        "a known device keeps its token"
    );
    let plain = json!({"email": email, "password": "longenough"});
    let r = post_from(
        &app,
        paths::LOGIN,
        "192.0.2.12",
        plain.clone(),
        &[("X-Device-Token", &device)],
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let jar = format!("clubcomp_device={device}");
    let r = post_from(
        &app,
        paths::LOGIN,
        "192.0.2.13",
        plain.clone(),
        &[("Cookie", &jar)],
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // a made-up token is no proof
    let fake = "ccd_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    let r = post_from(
        &app,
        paths::LOGIN,
        "192.0.2.14",
        plain.clone(),
        &[("X-Device-Token", fake)],
    )
    .await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.text);
    // the owner's device token is no proof for another account
    owner(&app, "other@club.example").await;
    let other =
        json!({"email": "other@club.example", "password": "longenough", "device_token": device});
    for i in 0..5 {
        let r = post_from(
            &app,
            paths::LOGIN,
            &format!("203.0.113.{}", 100 + i),
            json!({"email": "other@club.example", "password": "guess-guess"}),
            &[],
        )
        .await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    }
    let r = post_from(&app, paths::LOGIN, "192.0.2.15", other, &[]).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

/// A device token longer than 128 characters is refused naming where it came from, and
/// nothing is counted or recorded.
#[actix_web::test]
async fn an_overlong_device_token_is_refused_naming_it() {
    let app = spawn_with(behind_proxy).await;
    let email = "owner@club.example";
    owner(&app, email).await;
    let long = "x".repeat(129);
    let r = post_from(
        &app,
        paths::LOGIN,
        "192.0.2.1",
        json!({"email": email, "password": "longenough", "device_token": long}),
        &[],
    )
    .await;
    r.assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "device_token");
    let r = post_from(
        &app,
        paths::LOGIN,
        "192.0.2.1",
        json!({"email": email, "password": "longenough"}),
        &[("X-Device-Token", &long)],
    )
    .await;
    r.assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "X-Device-Token");
    let kept = app
        .with_conn(|c| clubcomp::services::known_logins::count(c, "owner@club.example").unwrap())
        .await;
    assert_eq!(kept, 0, "a refused login records no device");
}

/// Every address of one IPv6 /64 is one address for the login throttle (4 × 3 failures in
/// the test configuration), the next /64 is another; an IPv4-mapped address is its IPv4.
#[actix_web::test]
async fn the_login_throttle_counts_ipv6_by_64_and_mapped_ipv4_as_ipv4() {
    let app = spawn_with(behind_proxy).await;
    for i in 0..12 {
        let from = format!("2001:db8:5:5::{:x}", i + 1);
        let r = login_from(&app, &from, &format!("n{i}@club.example"), "guess-guess").await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{i}: {}", r.text);
    }
    let r = login_from(
        &app,
        "2001:db8:5:5:abcd::1",
        "n99@club.example",
        "guess-guess",
    )
    .await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.text);
    let r = login_from(&app, "2001:db8:5:6::1", "n99@club.example", "guess-guess").await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "the next /64");
    for i in 0..12 {
        let r = login_from(
            &app,
            "::ffff:203.0.113.5",
            &format!("m{i}@club.example"),
            "guess-guess",
        )
        .await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    }
    let r = login_from(&app, "203.0.113.5", "m99@club.example", "guess-guess").await;
    assert_eq!(
        r.status,
        StatusCode::TOO_MANY_REQUESTS,
        "the same IPv4 address"
    );
}

/// Failed refreshes are counted per address (4 × 3 in the test configuration), with a wait;
/// another address and a good refresh are not held back by them.
#[actix_web::test]
async fn failed_refreshes_are_throttled_per_address() {
    let app = spawn_with(behind_proxy).await;
    let email = "owner@club.example";
    owner(&app, email).await;
    let r = login_from(&app, "198.51.100.1", email, "longenough").await;
    let good = r.body["refresh_token"].as_str().unwrap().to_string();
    let bad = json!({"refresh_token": "ccr_not-a-token"});
    for i in 0..12 {
        let r = post_from(&app, paths::REFRESH, "203.0.113.9", bad.clone(), &[]).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{i}: {}", r.text);
    }
    let r = post_from(&app, paths::REFRESH, "203.0.113.9", bad.clone(), &[]).await;
    r.assert_detail(StatusCode::TOO_MANY_REQUESTS, "failed refreshes");
    assert!(r.header("retry-after").unwrap().parse::<u64>().unwrap() > 0);
    // a good token from the throttled address is not spent by the refusal
    let r = post_from(
        &app,
        paths::REFRESH,
        "203.0.113.9",
        json!({"refresh_token": good}),
        &[],
    )
    .await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    let r = post_from(
        &app,
        paths::REFRESH,
        "198.51.100.1",
        json!({"refresh_token": good}),
        &[],
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(
        r.body.get("device_token").is_none(),
        "refreshes hand out no device token"
    );
}

/// `GET /stream` from client `from` (direct, no proxy), with a token when given.
async fn stream_from(
    app: &TestApp,
    from: &str,
    token: Option<&str>,
) -> Result<actix_web::dev::ServiceResponse, Resp> {
    let mut r = TestRequest::get()
        .uri(&paths::stream(""))
        .peer_addr(std::net::SocketAddr::new(from.parse().unwrap(), 50000));
    if let Some(t) = token {
        r = r.insert_header(("Authorization", format!("Bearer {t}")));
    }
    let res = actix_web::test::call_service(&app.svc, r.to_request()).await;
    if res.status() == StatusCode::OK {
        return Ok(res);
    }
    let status = res.status();
    let headers = res.headers().clone();
    let bytes = actix_web::test::read_body(res).await;
    Err(Resp {
        status,
        headers,
        body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        text: String::from_utf8_lossy(&bytes).to_string(),
    })
}

/// The reviewers' scenario with the production shares (1000 streams, 20 anonymous per
/// address, 100 kept for signed-in callers): 1,000 anonymous streams from one address open
/// 20; a signed-in stream and another address's stream are still answered 200.
#[actix_web::test]
async fn one_address_cannot_take_every_stream() {
    let app = spawn_with(|c| {
        c.stream_max_anon_per_address = 20;
        c.stream_signed_in_slots = 100;
        c.stream_max_duration = std::time::Duration::from_secs(600);
    })
    .await;
    let mut open = Vec::new();
    let mut refused = Vec::new();
    for _ in 0..1000 {
        match stream_from(&app, "203.0.113.50", None).await {
            Ok(s) => open.push(s),
            Err(r) => refused.push(r),
        }
    }
    assert_eq!(open.len(), 20);
    assert_eq!(refused.len(), 980);
    let r = &refused[0];
    r.assert_detail(StatusCode::TOO_MANY_REQUESTS, "STREAM_MAX_ANON_PER_ADDRESS");
    assert!(r.header("retry-after").is_some());
    let leader = app.token(&["leader"]).await;
    assert!(
        stream_from(&app, "203.0.113.50", Some(&leader))
            .await
            .is_ok(),
        "signed in"
    );
    assert!(
        stream_from(&app, "198.51.100.60", None).await.is_ok(),
        "another address"
    );
    assert!(
        stream_from(&app, "2001:db8:9:9::1", None).await.is_ok(),
        "an IPv6 client"
    );
    // a closed stream gives its address the place back
    open.pop();
    open.push(stream_from(&app, "203.0.113.50", None).await.unwrap());
    assert!(stream_from(&app, "203.0.113.50", None).await.is_err());
}

/// With the anonymous share full (10 places, 3 kept for signed-in callers), an anonymous
/// caller from a fresh address is answered 503 naming `STREAM_SIGNED_IN_SLOTS`, and the
/// signed-in callers get the 3 kept places; an IPv6 /64 is one address.
#[actix_web::test]
async fn places_are_kept_for_signed_in_streams() {
    let app = spawn_with(|c| {
        c.stream_max_clients = 10;
        c.stream_signed_in_slots = 3;
        c.stream_max_anon_per_address = 2;
        c.stream_max_duration = std::time::Duration::from_secs(600);
    })
    .await;
    let mut open = Vec::new();
    // one /64 holds two places, however many addresses of it ask
    open.push(stream_from(&app, "2001:db8:1:1::1", None).await.unwrap());
    open.push(stream_from(&app, "2001:db8:1:1::2", None).await.unwrap());
    let r = stream_from(&app, "2001:db8:1:1:ffff::3", None)
        .await
        .unwrap_err();
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    for i in 0..5 {
        open.push(
            stream_from(&app, &format!("192.0.2.{}", i + 1), None)
                .await
                .unwrap(),
        );
    }
    let r = stream_from(&app, "192.0.2.99", None).await.unwrap_err();
    r.assert_detail(StatusCode::SERVICE_UNAVAILABLE, "STREAM_SIGNED_IN_SLOTS");
    let leader = app.token(&["leader"]).await;
    for _ in 0..3 {
        open.push(
            stream_from(&app, "192.0.2.99", Some(&leader))
                .await
                .unwrap(),
        );
    }
    let r = stream_from(&app, "192.0.2.99", Some(&leader))
        .await
        .unwrap_err();
    r.assert_detail(StatusCode::SERVICE_UNAVAILABLE, "STREAM_MAX_CLIENTS");
    assert_eq!(app.state.hub.clients(), 10);
    drop(open);
    assert_eq!(app.state.hub.clients(), 0);
}

/// A small Keizer scenario, valid.
fn scenario() -> Value {
    json!({"players": [{"id": "a", "rating": 2000}, {"id": "b", "rating": 1900}],
           "evenings": [{"games": [{"white": "a", "black": "b", "result": "1-0"}]}]})
}

/// Anonymous calculator requests get 3 a minute per address (as set here), then 429 naming
/// the setting with `Retry-After`; a signed-in caller and another address are not counted
/// against it.
#[actix_web::test]
async fn anonymous_calculator_requests_are_rate_limited_per_address() {
    let app = spawn_with(|c| {
        behind_proxy(c);
        c.calc_anon_rate_per_minute = 3;
    })
    .await;
    let calc = paths::calc("keizer");
    for _ in 0..3 {
        let r = post_from(&app, &calc, "203.0.113.1", scenario(), &[]).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let r = post_from(&app, &calc, "203.0.113.1", scenario(), &[]).await;
    r.assert_detail(StatusCode::TOO_MANY_REQUESTS, "CALC_ANON_RATE_PER_MINUTE");
    assert_eq!(
        r.header("retry-after").as_deref(),
        Some("20"),
        "one every 20 s"
    );
    let leader = app.token(&["leader"]).await;
    let auth = format!("Bearer {leader}");
    let r = post_from(
        &app,
        &calc,
        "203.0.113.1",
        scenario(),
        &[("Authorization", &auth)],
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "signed in: {}", r.text);
    let r = post_from(&app, &calc, "203.0.113.2", scenario(), &[]).await;
    assert_eq!(r.status, StatusCode::OK, "another address");
    // an invalid token makes no signed-in caller
    let r = post_from(
        &app,
        &calc,
        "203.0.113.1",
        scenario(),
        &[("Authorization", "Bearer nonsense")],
    )
    .await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
}

/// An anonymous calculator request over `CALC_ANON_MAX_BODY_BYTES` (2 KiB here) is refused
/// 413 naming it; a signed-in caller keeps `MAX_BODY_BYTES`.
#[actix_web::test]
async fn anonymous_calculator_bodies_have_the_smaller_limit() {
    let app = spawn_with(|c| c.calc_anon_max_body_bytes = 2048).await;
    let mut big = scenario();
    big["note"] = json!("x".repeat(3000));
    let r = app.post(&paths::calc("keizer"), None, big.clone()).await;
    r.assert_detail(StatusCode::PAYLOAD_TOO_LARGE, "CALC_ANON_MAX_BODY_BYTES");
    // a body without a length is cut at the limit as it is read
    let req = TestRequest::post()
        .uri(&paths::calc("keizer"))
        .insert_header(("Content-Type", "application/json"))
        .set_payload(serde_json::to_vec(&big).unwrap());
    let mut req = req.to_request();
    req.headers_mut().remove("content-length");
    let res = actix_web::test::call_service(&app.svc, req).await;
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let leader = app.token(&["leader"]).await;
    let r = app.post(&paths::calc("keizer"), Some(&leader), big).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

/// Logins and refreshes from one address share `LOGIN_RATE_PER_MINUTE` (2 here).
#[actix_web::test]
async fn logins_are_rate_limited_per_address() {
    let app = spawn_with(|c| {
        behind_proxy(c);
        c.login_rate_per_minute = 2;
    })
    .await;
    let r = login_from(&app, "203.0.113.3", "a@club.example", "guess-guess").await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    let r = post_from(
        &app,
        paths::REFRESH,
        "203.0.113.3",
        json!({"refresh_token": "x"}),
        &[],
    )
    .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    let r = login_from(&app, "203.0.113.3", "a@club.example", "guess-guess").await;
    r.assert_detail(StatusCode::TOO_MANY_REQUESTS, "LOGIN_RATE_PER_MINUTE");
    assert_eq!(r.header("retry-after").as_deref(), Some("30"));
    let r = login_from(&app, "203.0.113.4", "a@club.example", "guess-guess").await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "another address");
    // the refusal came before the throttle: the address's failed logins are 1, not 2
    let checks = app
        .state
        .password_checks
        .load(std::sync::atomic::Ordering::Relaxed);
    assert_eq!(checks, 2, "one password check per login answered 401");
}

#[actix_web::test]
async fn the_changes_feed_refuses_unknown_parameters() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    let r = app
        .get(&paths::changes("limit=5&cursor=9"), Some(&admin))
        .await;
    r.assert_detail(StatusCode::BAD_REQUEST, "cursor");
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/problem+json")
    );
    let r = app.get(&paths::changes("limit=5"), Some(&admin)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

#[actix_web::test]
async fn the_docs_carry_a_content_security_policy_and_refuse_framing() {
    let app = spawn().await;
    for path in [
        "/docs/",
        "/docs/index.html",
        "/docs/swagger-initializer.js",
        "/api-docs/openapi.json",
    ] {
        let r = app.get(path, None).await;
        assert!(
            r.status.is_success() || r.status.is_redirection(),
            "{path}: {}",
            r.status
        );
        let csp = r.header("content-security-policy").unwrap_or_default();
        for part in [
            "default-src 'none'",
            "script-src 'self'",
            "frame-ancestors 'none'",
            "connect-src 'self'",
        ] {
            assert!(csp.contains(part), "{path}: {part} not in {csp:?}");
        }
        assert!(
            !csp.contains("unsafe-eval") && !csp.contains("script-src 'self' 'unsafe-inline'"),
            "{csp}"
        );
        assert_eq!(
            r.header("x-content-type-options").as_deref(),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(
            r.header("x-frame-options").as_deref(),
            Some("DENY"),
            "{path}"
        );
    }
}
