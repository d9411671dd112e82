//! Live club pages (docs/decisions/0343-live-pages.md): the evening, standings and front pages
//! load the service's one script and name the event stream they follow; the script is served
//! under a versioned address like the stylesheet; and what the script does on an event holds
//! in the service: the stream announces a result of the evening with an id and a retry hint,
//! and the page asked again with its ETag answers the new result in the region that changed.
//! The browser itself is checked by `scripts/browser-test.sh`.

use crate::support::club_pages::{Demo, seed};
use crate::support::*;
use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use serde_json::json;

async fn get(app: &TestApp, path: &str, etag: Option<&str>) -> Resp {
    let mut r = TestRequest::get().uri(path);
    if let Some(t) = etag {
        r = r.insert_header(("If-None-Match", t));
    }
    app.send(r).await
}

async fn keizer_evening(app: &TestApp, d: &Demo) -> i64 {
    app.get(&paths::round(d.keizer, 6), None).await.body["evening_id"]
        .as_i64()
        .unwrap()
}

/// The `<script` tags of a page.
fn scripts(html: &str) -> Vec<&str> {
    html.match_indices("<script")
        .map(|(at, _)| &html[at..at + html[at..].find("</script>").unwrap() + 9])
        .collect()
}

#[actix_web::test]
async fn the_evening_standings_and_front_pages_load_the_one_script_and_name_their_stream() {
    let app = spawn().await;
    let d = seed(&app).await;
    let e = keizer_evening(&app, &d).await;
    let follows = [
        (
            paths::club::evening(e),
            format!(
                "/api/v1/stream?evening={e}&amp;types=pairing.published,pairing.withdrawn,\
                 result.entered,result.corrected,result.disputed,round.completed"
            ),
        ),
        (
            paths::club::standings(d.keizer),
            format!(
                "/api/v1/stream?competition={}&amp;types=standings.changed",
                d.keizer
            ),
        ),
        (
            paths::CLUB.to_string(),
            "/api/v1/stream?types=pairing.published,pairing.withdrawn,round.completed,\
             result.entered"
                .to_string(),
        ),
    ];
    let mut src = String::new();
    for (page, stream) in &follows {
        for q in ["", "?embed=1&lang=en"] {
            let r = get(&app, &format!("{page}{q}"), None).await;
            assert_eq!(r.status, StatusCode::OK, "{page}{q}");
            let tags = scripts(&r.text);
            assert_eq!(tags.len(), 1, "{page}{q}: {tags:?}");
            // loaded from the service, deferred, with nothing inline
            let tag = tags[0];
            assert!(
                tag.starts_with("<script src=\"/club/live.")
                    && tag.ends_with(".js\" defer></script>"),
                "{tag}"
            );
            src = tag[13..tag.find("\" defer").unwrap()].to_string();
            assert!(
                r.text.contains(&format!("data-live-stream=\"{stream}\"")),
                "{page}{q} does not follow {stream}"
            );
            assert!(r.text.contains("data-live=\""), "{page}{q} has no region");
            let csp = r.header("content-security-policy").unwrap();
            assert!(
                csp.contains("script-src 'self';") && csp.contains("connect-src 'self';"),
                "{csp}"
            );
            assert!(!csp.contains("unsafe"), "{csp}");
        }
    }
    // the regions of the evening page: its heading line and each round
    let r = get(&app, &paths::club::evening(e), None).await;
    assert!(r.text.contains("data-live=\"evening\""));
    assert!(
        r.text
            .contains(&format!("data-live=\"round-{}-6\"", d.keizer))
    );
    // the pages that change only with the season have no script
    for page in [
        paths::club::season(d.season),
        format!("/club/evenings/{e}/slips"),
    ] {
        let r = get(&app, &page, None).await;
        assert_eq!(r.status, StatusCode::OK, "{page}");
        assert!(scripts(&r.text).is_empty(), "{page}");
        assert!(!r.text.contains("data-live-stream"), "{page}");
    }

    // the script: kept for a year under its address, as JavaScript; another version's address
    // answers it revalidated
    let js = get(&app, &src, None).await;
    assert_eq!(js.status, StatusCode::OK);
    assert_eq!(
        js.header("cache-control").as_deref(),
        Some("public, max-age=31536000, immutable")
    );
    assert_eq!(
        js.header("content-type").as_deref(),
        Some("text/javascript; charset=utf-8")
    );
    assert_eq!(
        js.header("x-content-type-options").as_deref(),
        Some("nosniff")
    );
    assert!(js.text.contains("new EventSource(stream)"));
    assert!(
        !js.text.contains("console."),
        "the script writes nothing to the console"
    );
    let old = get(&app, "/club/live.000000000000.js", None).await;
    assert_eq!(old.status, StatusCode::OK);
    assert_eq!(old.header("cache-control").as_deref(), Some("no-cache"));
    assert_eq!(old.text, js.text);
}

#[actix_web::test]
async fn a_result_reaches_the_evenings_stream_and_the_page_asked_again_with_its_etag() {
    let app = spawn().await;
    let d = seed(&app).await;
    let e = keizer_evening(&app, &d).await;
    let round = app.get(&paths::round(d.keizer, 6), None).await;
    let game = round.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["result"].is_null() && !g["black"].is_null())
        .unwrap()
        .clone();
    let page = paths::club::evening(e);
    let before = get(&app, &page, None).await;
    let tag = before.header("etag").unwrap();
    let again = get(&app, &page, Some(&tag)).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);

    // the stream the page names, anonymous as a visitor's browser opens it
    let mut s = app
        .open_stream(
            &format!("evening={e}&types=result.entered,result.corrected"),
            None,
            None,
        )
        .await
        .stream();
    assert_eq!(s.next().await, Some(Sse::Retry(3000)));
    let arbiter = app.token(&["arbiter"]).await;
    let r = app
        .enter_result(
            &arbiter,
            game["id"].as_i64().unwrap(),
            json!({"result": "0-1"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let (id, kind, data) = s.next_event().await.unwrap();
    assert!(id > 0);
    assert_eq!(kind, "result.entered");
    assert_eq!(data["evening_id"], e);
    assert_eq!(data["game_id"], game["id"]);

    // the page asked again with its old ETag: the new page, the board's cell now 0-1
    let after = get(&app, &page, Some(&tag)).await;
    assert_eq!(after.status, StatusCode::OK);
    assert_ne!(after.header("etag").unwrap(), tag);
    let board = game["board"].as_i64().unwrap();
    let row = |html: &str| {
        let region = &html[html
            .find(&format!("data-live=\"round-{}-6\"", d.keizer))
            .unwrap()..];
        let at = region
            .find(&format!("<th scope=\"row\" class=\"num\">{board}<"))
            .unwrap();
        let rest = &region[at..];
        crate::support::club_pages::text(&rest[..rest.find("<tr").unwrap_or(rest.len())])
    };
    assert!(
        row(&before.text).ends_with("nog niet binnen"),
        "{}",
        row(&before.text)
    );
    assert!(row(&after.text).ends_with("0-1"), "{}", row(&after.text));
}
