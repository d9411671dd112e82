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

fn problem_type(r: &Resp) -> &str {
    r.body["type"].as_str().unwrap_or_default()
}

#[actix_web::test]
async fn each_kind_of_problem_has_its_own_type() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let r = app.get("/api/v1/nowhere", None).await;
    assert_eq!(problem_type(&r), "https://clubcomp.dev/problems/not-found");
    let r = app.req(Method::DELETE, paths::PLAYERS, None, None).await;
    assert_eq!(
        problem_type(&r),
        "https://clubcomp.dev/problems/method-not-allowed"
    );
    let r = app.create_player(&leader, json!({"name": ""})).await;
    assert_eq!(
        problem_type(&r),
        "https://clubcomp.dev/problems/invalid-input"
    );
    let r = app.create_player("not-a-token", json!({"name": "A"})).await;
    assert_eq!(
        problem_type(&r),
        "https://clubcomp.dev/problems/unauthenticated"
    );
    let member = app.token(&["member"]).await;
    let r = app.create_player(&member, json!({"name": "A"})).await;
    assert_eq!(problem_type(&r), "https://clubcomp.dev/problems/forbidden");
}

/// Words a database or the Rust parsers use, which must never reach a client.
const FOREIGN_WORDS: [&str; 8] = [
    "UNIQUE",
    "constraint",
    "duplicate key",
    "i64",
    "u32",
    "invalid digit",
    "line 1",
    "column",
];

fn assert_no_foreign_words(r: &Resp) {
    for word in FOREIGN_WORDS {
        assert!(!r.text.contains(word), "{word:?} in {}", r.text);
    }
}

#[actix_web::test]
async fn a_taken_unique_value_is_a_409_naming_the_field() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    let leader = app.token(&["leader"]).await;
    let season = json!({"name": "2026-2027", "opening_date": "2026-09-04"});
    assert_eq!(
        app.create_season(&leader, season.clone()).await.status,
        StatusCode::CREATED
    );
    let before = app.counts().await;
    let r = app.create_season(&leader, season).await;
    assert_problem(&r, StatusCode::CONFLICT);
    assert_eq!(
        problem_type(&r),
        "https://clubcomp.dev/problems/already-exists"
    );
    assert_eq!(r.errors("field"), ["name"]);
    assert_no_foreign_words(&r);

    let p = json!({"name": "Anna", "knsb_number": "8001234"});
    assert_eq!(
        app.create_player(&leader, p).await.status,
        StatusCode::CREATED
    );
    let r = app
        .create_player(&leader, json!({"name": "Bram", "knsb_number": "8001234"}))
        .await;
    assert_problem(&r, StatusCode::CONFLICT);
    assert_eq!(r.errors("field"), ["knsb_number"]);
    assert_no_foreign_words(&r);

    let user =
        json!({"email": "someone@club.example", "password": "long-enough-pw", "roles": ["member"]});
    assert_eq!(
        app.create_user(&admin, user.clone()).await.status,
        StatusCode::CREATED
    );
    let r = app.create_user(&admin, user).await;
    assert_problem(&r, StatusCode::CONFLICT);
    assert_eq!(r.errors("field"), ["email"]);
    assert_no_foreign_words(&r);
    let after = app.counts().await;
    assert_eq!((after[0], after[1]), (before[0] + 1, before[1] + 1));
}

#[actix_web::test]
async fn path_query_and_body_errors_name_the_field_in_plain_words() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let r = app.get(&paths::player("abc"), None).await;
    assert_problem(&r, StatusCode::NOT_FOUND);
    assert!(
        r.body["detail"].as_str().unwrap().contains("`id`"),
        "{}",
        r.text
    );
    assert_no_foreign_words(&r);

    let r = app.get(&format!("{}?page=abc", paths::PLAYERS), None).await;
    assert_problem(&r, StatusCode::BAD_REQUEST);
    assert!(
        r.body["detail"].as_str().unwrap().contains("`page`"),
        "{}",
        r.text
    );
    assert_no_foreign_words(&r);

    let r = app
        .create_player(&leader, json!({"name": "Anna", "knsb_number": 8001234}))
        .await;
    assert_problem(&r, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(r.errors("field"), ["knsb_number"]);
    assert_no_foreign_words(&r);

    let r = app
        .create_player(&leader, json!({"name": "Anna", "nmae": "x"}))
        .await;
    assert_problem(&r, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.text.contains("nmae"), "{}", r.text);
    assert_no_foreign_words(&r);
}

#[actix_web::test]
async fn a_competition_or_round_path_that_is_no_id_is_404_naming_the_segment() {
    let app = spawn().await;
    let r = app.get(&paths::competition("abc"), None).await;
    assert_problem(&r, StatusCode::NOT_FOUND);
    assert_eq!(
        r.body["detail"],
        "no such resource: path parameter `id` is \"abc\", which is not an id"
    );
    let r = app.get(&paths::round(1, "first"), None).await;
    assert_problem(&r, StatusCode::NOT_FOUND);
    assert_eq!(
        r.body["detail"],
        "no such resource: path parameter `number` is \"first\", which is not an id"
    );
    assert_no_foreign_words(&r);
}

#[actix_web::test]
async fn a_trailing_slash_leads_to_the_route() {
    let app = spawn().await;
    let r = app.get(&format!("{}/?page=2", paths::PLAYERS), None).await;
    assert_eq!(r.status, StatusCode::PERMANENT_REDIRECT, "{}", r.text);
    assert_eq!(
        r.header("location").as_deref(),
        Some(format!("{}?page=2", paths::PLAYERS).as_str())
    );
    let r = app.get(&format!("{}/", paths::player(1)), None).await;
    assert_eq!(r.status, StatusCode::PERMANENT_REDIRECT);
    assert_eq!(r.header("location"), Some(paths::player(1)));
    assert_problem(
        &app.get("/api/v1/nowhere/", None).await,
        StatusCode::NOT_FOUND,
    );
}

#[actix_web::test]
async fn head_is_answered_wherever_get_is() {
    let app = spawn().await;
    for path in [paths::PLAYERS, paths::SEASONS, paths::HEALTH] {
        let get = app.get(path, None).await;
        let head = app.req(Method::HEAD, path, None, None).await;
        assert_eq!(head.status, get.status, "{path}");
        assert_eq!(
            head.header("content-type"),
            get.header("content-type"),
            "{path}"
        );
    }
    let r = app.req(Method::HEAD, "/api/v1/nowhere", None, None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}

/// Every GET of the API document with its path parameters filled in (`1`; `first` for a
/// round number, to reach the parameter check too).
fn every_documented_get() -> Vec<String> {
    let doc = serde_json::to_value(clubcomp::app::openapi()).unwrap();
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        if item.get("get").is_none() {
            continue;
        }
        let filled: Vec<String> = path
            .split('/')
            .map(|s| {
                if s.starts_with('{') {
                    "1".to_string()
                } else {
                    s.to_string()
                }
            })
            .collect();
        out.push(filled.join("/"));
    }
    out
}

#[actix_web::test]
async fn every_documented_get_answers_head_and_a_trailing_slash_never_with_405() {
    let app = spawn().await;
    app.with_conn(|c| seed_demo(c).unwrap()).await;
    let gets = every_documented_get();
    assert!(gets.len() >= 40, "{gets:?}");
    for path in gets {
        let get = app.get(&path, None).await;
        let head = app.req(Method::HEAD, &path, None, None).await;
        assert_ne!(get.status, StatusCode::METHOD_NOT_ALLOWED, "GET {path}");
        assert_eq!(head.status, get.status, "HEAD {path}");
        assert_eq!(
            head.header("content-type"),
            get.header("content-type"),
            "HEAD {path}"
        );
        let slash = format!("{path}/");
        for method in [Method::GET, Method::HEAD] {
            let r = app.req(method.clone(), &slash, None, None).await;
            assert_eq!(
                r.status,
                StatusCode::PERMANENT_REDIRECT,
                "{method} {slash}: {}",
                r.text
            );
            assert_eq!(
                r.header("location").as_deref(),
                Some(path.as_str()),
                "{slash}"
            );
        }
    }
}

/// A CORS preflight `OPTIONS` from `origin` asking for `method`.
fn preflight(origin: &str, method: &str) -> TestRequest {
    TestRequest::default()
        .method(Method::OPTIONS)
        .uri(paths::PLAYERS)
        .insert_header(("Origin", origin))
        .insert_header(("Access-Control-Request-Method", method))
}

/// A preflight from an origin that is not allowed (with `CORS_ORIGINS` unset, or not listing
/// it) is a 403 problem naming the origin and the setting; an allowed one gets its CORS
/// headers, and a method not allowed is a 400 problem in our words.
#[actix_web::test]
async fn a_preflight_from_an_origin_not_allowed_is_a_403_problem() {
    let app = spawn().await;
    let r = app
        .send(preflight("https://elsewhere.example", "GET"))
        .await;
    assert_problem(&r, StatusCode::FORBIDDEN);
    let detail = r.body["detail"].as_str().unwrap();
    assert!(detail.contains("\"https://elsewhere.example\""), "{detail}");
    assert!(detail.contains("CORS_ORIGINS"), "{detail}");
    let app = spawn_with(|c| c.cors_origins = vec!["https://club.example".into()]).await;
    let r = app
        .send(preflight("https://elsewhere.example", "POST"))
        .await;
    assert_problem(&r, StatusCode::FORBIDDEN);
    let r = app.send(preflight("https://club.example", "POST")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        r.header("access-control-allow-origin").as_deref(),
        Some("https://club.example")
    );
    let r = app.send(preflight("https://club.example", "TRACE")).await;
    assert_problem(&r, StatusCode::BAD_REQUEST);
    assert!(
        r.body["detail"].as_str().unwrap().contains("\"TRACE\""),
        "{}",
        r.text
    );
    assert!(!r.text.contains("Requested method"), "{}", r.text);
}

/// A body or query string that does not fit is refused in our words, naming the field: no
/// deserializer's sentence (`invalid type: …`, `` expected u32 ``) reaches the client.
#[actix_web::test]
async fn a_value_of_the_wrong_kind_is_refused_in_our_words_naming_the_field() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let r = app.create_player(&leader, json!({"name": 5})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), ["name"]);
    assert_eq!(r.errors("message"), ["must be a string, not a number"]);
    let r = app
        .create_player(&leader, json!({"name": "Anna", "nmae": "x"}))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(
        r.text
            .contains("unknown field \\\"nmae\\\"; the fields are"),
        "{}",
        r.text
    );
    let r = app
        .get(&format!("{}?per_page=many", paths::PLAYERS), None)
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    assert_eq!(
        r.body["detail"],
        "query parameter `per_page`: not a valid number"
    );
    let r = app.get(&paths::stream("colour=red"), None).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    let detail = r.body["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("query parameter `colour`: unknown field \"colour\"; the fields are"),
        "{detail}"
    );
}
