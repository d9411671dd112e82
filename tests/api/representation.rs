//! Every answer's representation: a JSON, CSV, iCalendar or TRF answer over 1 KB is
//! gzip-compressed for a client that accepts it, every successful GET carries an `ETag` and
//! answers 304 to it, and every GET answers `HEAD` with the same headers and no body (the
//! event stream at once, without taking a place among the open streams).

use crate::support::*;
use actix_web::http::{Method, StatusCode};
use actix_web::test;

/// An answer with its body as sent (not decompressed).
struct Raw {
    status: StatusCode,
    headers: actix_web::http::header::HeaderMap,
    bytes: Vec<u8>,
}

impl Raw {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

async fn raw(app: &TestApp, method: Method, url: &str, headers: &[(&str, &str)]) -> Raw {
    let mut r = test::TestRequest::default().method(method).uri(url);
    for h in headers {
        r = r.insert_header(*h);
    }
    let res = test::call_service(&app.svc, r.to_request()).await;
    Raw {
        status: res.status(),
        headers: res.headers().clone(),
        bytes: test::read_body(res).await.to_vec(),
    }
}

/// Every GET path of the document: the demo club's public GETs with their ids, and the
/// others with `1` for each path parameter (asked with an admin's token, which the demo's
/// first objects answer).
async fn every_get(app: &TestApp) -> Vec<String> {
    let mut urls: Vec<String> = demo_club_public_gets(app)
        .await
        .into_iter()
        .map(|g| g.url)
        .collect();
    let doc = serde_json::to_value(clubcomp::app::openapi()).unwrap();
    for (path, item) in doc["paths"].as_object().unwrap() {
        if item.get("get").is_some() && !urls.iter().any(|u| u.split('?').next() == Some(path)) {
            let filled: Vec<&str> = path
                .split('/')
                .map(|s| if s.starts_with('{') { "1" } else { s })
                .collect();
            urls.push(filled.join("/"));
        }
    }
    urls.push(format!("{}?per_page=200", paths::PLAYERS));
    urls
}

#[actix_web::test]
async fn every_get_is_compressed_over_1_kb_tagged_answers_304_and_head() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    let bearer = format!("Bearer {admin}");
    let auth = ("Authorization", bearer.as_str());
    let gzip = ("Accept-Encoding", "gzip");
    let (mut ok, mut compressed) = (0, Vec::new());
    for url in every_get(&app).await {
        if url.starts_with("/api/v1/stream") {
            continue; // a stream: its own test below
        }
        let get = raw(&app, Method::GET, &url, &[auth, gzip]).await;
        let head = raw(&app, Method::HEAD, &url, &[auth, gzip]).await;
        assert_eq!(head.status, get.status, "HEAD {url}");
        assert_eq!(head.header("etag"), get.header("etag"), "HEAD {url}");
        assert_eq!(
            head.header("content-type"),
            get.header("content-type"),
            "HEAD {url}"
        );
        if get.status != StatusCode::OK {
            continue;
        }
        ok += 1;
        let kind = get.header("content-type").unwrap_or_default().to_string();
        let body = match get.header("content-encoding") {
            Some("gzip") => {
                compressed.push(url.clone());
                gunzip(&get.bytes)
            }
            Some(other) => panic!("{url}: content-encoding {other}"),
            None => get.bytes.clone(),
        };
        let text_kind = [
            "application/json",
            "text/csv",
            "text/calendar",
            "text/plain",
        ]
        .iter()
        .any(|t| kind.starts_with(t));
        if text_kind && body.len() > 1024 {
            assert_eq!(
                get.header("content-encoding"),
                Some("gzip"),
                "{url}: {} bytes of {kind} sent uncompressed",
                body.len()
            );
            assert!(
                get.header("vary")
                    .is_some_and(|v| v.to_ascii_lowercase().contains("accept-encoding")),
                "{url}: no Vary: Accept-Encoding"
            );
        }
        if !text_kind {
            continue; // the club pages' documents and the docs' files are not API answers
        }
        let tag = get
            .header("etag")
            .unwrap_or_else(|| panic!("{url}: no ETag"))
            .to_string();
        let again = raw(
            &app,
            Method::GET,
            &url,
            &[auth, gzip, ("If-None-Match", &tag)],
        )
        .await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{url} with {tag}");
        assert!(again.bytes.is_empty(), "{url}: a 304 with a body");
        assert_eq!(again.header("etag"), Some(tag.as_str()), "{url}");
    }
    assert!(ok > 200, "only {ok} GETs answered 200");
    for must in [
        format!("{}?per_page=200", paths::PLAYERS),
        "/api/v1/changes".to_string(),
        paths::calendar_ics(1),
    ] {
        assert!(compressed.contains(&must), "{must} not compressed");
    }
}

#[actix_web::test]
async fn a_small_answer_is_sent_plain_and_a_client_without_gzip_gets_no_gzip() {
    let app = spawn().await;
    app.with_conn(|c| seed_demo(c).map(|_| ())).await.unwrap();
    let url = format!("{}?per_page=200", paths::PLAYERS);
    let plain = raw(&app, Method::GET, &url, &[]).await;
    assert_eq!(plain.status, StatusCode::OK);
    assert_eq!(plain.header("content-encoding"), None);
    assert!(plain.bytes.len() > 1024, "{}", plain.bytes.len());
    // the document as a whole, from one weak tag whichever coding is sent
    let tag = plain.header("etag").unwrap().to_string();
    assert!(tag.starts_with("W/\""), "{tag}");
    let zipped = raw(&app, Method::GET, &url, &[("Accept-Encoding", "gzip")]).await;
    assert_eq!(zipped.header("etag"), Some(tag.as_str()));
    assert_eq!(gunzip(&zipped.bytes), plain.bytes);
    let refused = raw(&app, Method::GET, &url, &[("Accept-Encoding", "gzip;q=0")]).await;
    assert_eq!(refused.header("content-encoding"), None);
    let small = raw(
        &app,
        Method::GET,
        paths::HEALTH,
        &[("Accept-Encoding", "gzip")],
    )
    .await;
    assert_eq!(small.status, StatusCode::OK);
    assert_eq!(small.header("content-encoding"), None);
    assert!(small.bytes.len() <= 1024);
}

#[actix_web::test]
async fn head_of_the_stream_answers_its_headers_without_taking_a_place() {
    let app = spawn_with(|c| c.stream_max_clients = 1).await;
    // the one place taken by a stream that stays open (its body is never read)
    let open = test::call_service(
        &app.svc,
        test::TestRequest::get().uri("/api/v1/stream").to_request(),
    )
    .await;
    assert_eq!(open.status(), StatusCode::OK);
    assert_eq!(app.state.hub.clients(), 1);
    let head = raw(&app, Method::HEAD, "/api/v1/stream", &[]).await;
    assert_eq!(head.status, StatusCode::OK);
    assert_eq!(head.header("content-type"), Some("text/event-stream"));
    assert!(head.bytes.is_empty());
    assert_eq!(app.state.hub.clients(), 1);
    let full = raw(&app, Method::GET, "/api/v1/stream", &[]).await;
    assert_eq!(full.status, StatusCode::SERVICE_UNAVAILABLE);
    drop(open);
}
