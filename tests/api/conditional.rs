//! Conditional reads of the versioned resources: a player, a competition and a game's moves
//! answer `304 Not Modified` to an `If-None-Match` naming their version, compared weakly
//! (RFC 9110 13.1.2: `W/"…"` matches), and `*` matches any version.

use crate::support::*;
use actix_web::http::{Method, StatusCode};
use serde_json::json;

/// `GET path` with `If-None-Match` and a bearer token.
async fn conditional_get(app: &TestApp, path: &str, token: &str, inm: &str) -> Resp {
    app.send(
        actix_web::test::TestRequest::get()
            .uri(path)
            .insert_header(("Authorization", format!("Bearer {token}")))
            .insert_header(("If-None-Match", inm)),
    )
    .await
}

/// Reads `path` plain, then with the weak form of its version, `*`, a list holding it, and a
/// version that is not current; `kind`, `id` and `version` spell the tag the guide documents,
/// which the body names and the officer's `ETag` carries with their mark (`~o`).
async fn answers_304_to_its_own_version(
    app: &TestApp,
    path: &str,
    token: &str,
    kind: &str,
    id: i64,
    version: i64,
) {
    let version_tag = format!("\"{kind}-{id}-v{version}\"");
    let tag = format!("\"{kind}-{id}-v{version}~o\"");
    let r = app.get(path, Some(token)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.header("etag").as_deref(), Some(tag.as_str()));
    assert_eq!(r.body["etag"], version_tag.as_str(), "{}", r.text);
    // the public's tag revalidates nothing for an officer
    let r = conditional_get(app, path, token, &version_tag).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["version"], version, "{}", r.text);
    for inm in [
        format!("W/{tag}"),
        tag.clone(),
        "*".to_string(),
        format!("\"{kind}-{id}-v{}~o\", W/{tag}", version + 7),
    ] {
        let r = conditional_get(app, path, token, &inm).await;
        assert_eq!(r.status, StatusCode::NOT_MODIFIED, "{inm}: {}", r.text);
        assert_eq!(r.header("etag").as_deref(), Some(tag.as_str()), "{inm}");
        assert!(r.text.is_empty(), "{inm}: {}", r.text);
    }
    let stale = format!("W/\"{kind}-{id}-v{}~o\"", version + 1);
    let r = conditional_get(app, path, token, &stale).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

#[actix_web::test]
async fn a_player_answers_304_to_its_version_until_it_changes() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let r = app
        .create_player(&leader, json!({"name": "Anna de Vries"}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.body["id"].as_i64().unwrap();
    let path = paths::player(id);
    answers_304_to_its_own_version(&app, &path, &leader, "player", id, 1).await;
    let r = app
        .req(
            Method::PATCH,
            &path,
            Some(&leader),
            Some(json!({"name": "Anna Bakker"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // the first version no longer matches; the second does
    let r = conditional_get(&app, &path, &leader, &format!("W/\"player-{id}-v1~o\"")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["name"], "Anna Bakker");
    answers_304_to_its_own_version(&app, &path, &leader, "player", id, 2).await;
}

#[actix_web::test]
async fn a_competition_answers_304_to_its_version_until_it_changes() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let fx = CompetitionBuilder::keizer().create(&app, &leader).await;
    let path = paths::competition(fx.comp);
    answers_304_to_its_own_version(&app, &path, &leader, "competition", fx.comp, 1).await;
    let r = app
        .update_competition_if_match(
            &leader,
            fx.comp,
            &format!("\"competition-{}-v1\"", fx.comp),
            json!({"name": "Winter"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    answers_304_to_its_own_version(&app, &path, &leader, "competition", fx.comp, 2).await;
}

#[actix_web::test]
async fn a_games_moves_answer_304_to_their_version_until_they_change() {
    let app = spawn().await;
    let pq = p_beat_q(&app).await;
    let r = app
        .record_moves(&pq.arbiter, pq.game, json!({"san": ["e4", "e5"]}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let path = paths::moves(pq.game);
    answers_304_to_its_own_version(&app, &path, &pq.arbiter, "moves", pq.game, 1).await;
    let r = app
        .record_moves(&pq.arbiter, pq.game, json!({"san": ["e4", "e5", "Nf3"]}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    answers_304_to_its_own_version(&app, &path, &pq.arbiter, "moves", pq.game, 2).await;
}

/// With `REQUIRE_IF_MATCH` on, a write to a versioned resource without `If-Match` is a 428
/// `version-required` problem and changes nothing; with the current ETag it is applied.
#[actix_web::test]
async fn with_require_if_match_a_write_without_if_match_is_428() {
    let app = spawn_with(|c| c.require_if_match = true).await;
    let leader = app.token(&["leader"]).await;
    let r = app
        .create_player(&leader, json!({"name": "Anna de Vries"}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.body["id"].as_i64().unwrap();
    let path = paths::player(id);
    let patch = |if_match: Option<&'static str>| {
        let mut req = actix_web::test::TestRequest::patch()
            .uri(&path)
            .insert_header(("Authorization", format!("Bearer {leader}")))
            .set_json(json!({"name": "Anna Bakker"}));
        if let Some(tag) = if_match {
            req = req.insert_header(("If-Match", tag));
        }
        app.send(req)
    };
    let r = patch(None).await;
    assert_eq!(r.status, StatusCode::PRECONDITION_REQUIRED, "{}", r.text);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/problem+json")
    );
    assert_eq!(
        r.body["type"],
        "https://clubcomp.dev/problems/version-required"
    );
    assert_eq!(app.get(&path, None).await.body["name"], "Anna de Vries");
    let tag: &'static str = Box::leak(format!("\"player-{id}-v1\"").into_boxed_str());
    let r = patch(Some(tag)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["name"], "Anna Bakker");
}
