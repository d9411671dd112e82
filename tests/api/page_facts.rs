//! The evening page from the read cache: its ETag is the evening JSON's version with the
//! page variant added, a reader holding it is answered 304 before anything is rendered, and
//! a result entered changes both the tag and what the page shows.

use crate::support::club_pages::seed;
use crate::support::*;
use actix_web::http::StatusCode;
use actix_web::test::TestRequest;

/// The tag of the evening page variant `doc` for the evening whose JSON tag is `json_tag`:
/// the JSON's tag with `-{doc}` before its closing quote.
fn page_tag(json_tag: &str, doc: &str) -> String {
    format!("{}-{doc}\"", json_tag.strip_suffix('"').unwrap())
}

async fn get_with(app: &TestApp, path: &str, headers: &[(&str, &str)]) -> Resp {
    let mut req = TestRequest::get().uri(path);
    for (k, v) in headers {
        req = req.insert_header((*k, *v));
    }
    app.send(req).await
}

#[actix_web::test]
async fn evening_page_answers_304_with_the_json_version_before_rendering() {
    let app = spawn().await;
    let d = seed(&app).await;
    let round = app.get(&paths::round(d.keizer, 6), None).await;
    let evening = round.body["evening_id"].as_i64().unwrap();
    let json = app.evening(None, evening).await;
    let json_tag = json.header("etag").unwrap();
    let path = paths::club::evening(evening);
    // the first read of the page (nothing cached for it yet) with the tag worked out from the
    // JSON's: 304, with the headers a 200 carries
    let dutch = page_tag(&json_tag, "page-evening-nl");
    let r = get_with(&app, &path, &[("If-None-Match", &dutch)]).await;
    assert_eq!(r.status, StatusCode::NOT_MODIFIED, "{}", r.text);
    assert_eq!(r.header("etag"), Some(dutch.clone()));
    assert!(r.text.is_empty());
    for h in ["content-security-policy", "x-content-type-options"] {
        assert!(r.header(h).is_some(), "304 without {h}");
    }
    assert_eq!(r.header("cache-control").as_deref(), Some("no-cache"));
    // the page itself carries that tag; the English, embedded and slips pages their own
    let first = get_with(&app, &path, &[]).await;
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(first.header("etag"), Some(dutch.clone()));
    let en = get_with(&app, &format!("{path}?lang=en&embed=1"), &[]).await;
    assert_eq!(
        en.header("etag"),
        Some(page_tag(&json_tag, "page-evening-en-embed-lang"))
    );
    let slips = get_with(&app, &paths::club::slips(evening), &[]).await;
    assert_eq!(
        slips.header("etag"),
        Some(page_tag(&json_tag, "page-slips-nl"))
    );
    // gzip has a tag of its own, and either tag is answered 304
    let gz = get_with(&app, &path, &[("Accept-Encoding", "gzip")]).await;
    assert_eq!(gz.header("content-encoding").as_deref(), Some("gzip"));
    let gz_tag = page_tag(&dutch, "gz");
    assert_eq!(gz.header("etag"), Some(gz_tag.clone()));
    let r = get_with(
        &app,
        &path,
        &[("If-None-Match", &gz_tag), ("Accept-Encoding", "gzip")],
    )
    .await;
    assert_eq!(r.status, StatusCode::NOT_MODIFIED);
    // a result entered on a board of the evening: a new version, and the page shows it
    let pending = first.text.matches("nog niet binnen").count();
    assert!(pending > 0, "round 6 has boards without a result");
    let game = round.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| !g["black"].is_null())
        .unwrap();
    let arbiter = app.token(&["arbiter"]).await;
    let put = app
        .send(
            TestRequest::put()
                .uri(&paths::result(&game["id"]))
                .insert_header(("Authorization", format!("Bearer {arbiter}")))
                .insert_header((
                    "If-Match",
                    format!("\"game-{}-v{}\"", game["id"], game["version"]),
                ))
                .set_json(serde_json::json!({"result": "1-0"})),
        )
        .await;
    assert!(put.status.is_success(), "{}", put.text);
    let after = get_with(&app, &path, &[("If-None-Match", &dutch)]).await;
    assert_eq!(after.status, StatusCode::OK);
    let new_json_tag = app.evening(None, evening).await.header("etag").unwrap();
    assert_ne!(new_json_tag, json_tag);
    assert_eq!(
        after.header("etag"),
        Some(page_tag(&new_json_tag, "page-evening-nl"))
    );
    assert_eq!(after.text.matches("nog niet binnen").count(), pending - 1);
}

#[actix_web::test]
async fn player_page_is_cached_under_the_cards_version() {
    let app = spawn().await;
    let d = seed(&app).await;
    let json = app.standings(d.keizer).await;
    let id = json.body["keizer"]["rows"][0]["player_id"]
        .as_i64()
        .unwrap();
    let path = paths::club::player(id);
    let first = get_with(&app, &path, &[]).await;
    assert_eq!(first.status, StatusCode::OK);
    let tag = first.header("etag").unwrap();
    assert!(tag.starts_with(&format!("\"player-card-{id}-s")), "{tag}");
    assert!(tag.ends_with("-page-player-nl\""), "{tag}");
    let again = get_with(&app, &path, &[("If-None-Match", &tag)]).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert_eq!(again.header("etag"), Some(tag.clone()));
    let en = get_with(&app, &format!("{path}?lang=en"), &[]).await;
    assert!(
        en.header("etag")
            .unwrap()
            .ends_with("-page-player-en-lang\""),
        "{:?}",
        en.header("etag")
    );
    // a new name changes the card, so the page's tag, and the page shows it
    let admin = app.token(&["admin"]).await;
    let r = app
        .send(
            TestRequest::patch()
                .uri(&paths::player(id))
                .insert_header(("Authorization", format!("Bearer {admin}")))
                .set_json(serde_json::json!({"name": "Anna Nieuwenhuis"})),
        )
        .await;
    assert!(r.status.is_success(), "{}", r.text);
    let after = get_with(&app, &path, &[("If-None-Match", &tag)]).await;
    assert_eq!(after.status, StatusCode::OK);
    assert_ne!(after.header("etag"), Some(tag));
    assert!(after.text.contains("<h1>Anna Nieuwenhuis</h1>"));
}

#[actix_web::test]
async fn front_page_is_cached_until_what_it_shows_changes() {
    let app = spawn().await;
    seed(&app).await;
    let first = get_with(&app, "/club/", &[]).await;
    assert_eq!(first.status, StatusCode::OK);
    let tag = first.header("etag").unwrap();
    assert!(tag.starts_with("\"front-"), "{tag}");
    assert!(tag.ends_with("-page-front-nl\""), "{tag}");
    let again = get_with(&app, "/club/", &[("If-None-Match", &tag)]).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.header("content-security-policy").is_some());
    // a new season, opening after the demo's: the front page shows it instead
    let leader = app.token(&["leader"]).await;
    let r = app
        .create_season(
            &leader,
            serde_json::json!({"name": "2099-2100", "opening_date": "2099-09-04"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let after = get_with(&app, "/club/", &[("If-None-Match", &tag)]).await;
    assert_eq!(after.status, StatusCode::OK);
    assert_ne!(after.header("etag"), Some(tag));
    assert!(after.text.contains("2099-2100"));
    assert!(!first.text.contains("2099-2100"));
}

#[actix_web::test]
async fn front_page_changes_when_an_evening_of_its_calendar_is_edited() {
    let app = spawn().await;
    seed(&app).await;
    let next = app.next_evening(None).await;
    assert_eq!(next.status, StatusCode::OK, "{}", next.text);
    let next_date = next.body["date"].as_str().unwrap().to_string();
    // the evening after the next one: on the front page's calendar, not its next evening
    let list = app
        .get(
            &format!("/api/v1/evenings?from={next_date}&per_page=5"),
            None,
        )
        .await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    let later = list.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["date"].as_str() > Some(next_date.as_str()))
        .expect("an evening after the next one")["id"]
        .as_i64()
        .unwrap();
    let first = get_with(&app, "/club/", &[]).await;
    assert_eq!(first.status, StatusCode::OK);
    let tag = first.header("etag").unwrap();
    assert!(!first.text.contains("Bordenwissel in de grote zaal"));
    let leader = app.token(&["leader"]).await;
    let r = app
        .update_evening(
            &leader,
            later,
            serde_json::json!({"note": "Bordenwissel in de grote zaal"}),
        )
        .await;
    assert!(r.status.is_success(), "{}", r.text);
    let after = get_with(&app, "/club/", &[("If-None-Match", &tag)]).await;
    assert_eq!(after.status, StatusCode::OK);
    assert_ne!(after.header("etag"), Some(tag));
    assert!(after.text.contains("Bordenwissel in de grote zaal"));
}
