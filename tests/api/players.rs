//! Players: public reads without contact data, leader writes, search, pagination, If-Match.

use crate::support::*;
use actix_web::http::{Method, StatusCode};
use actix_web::test::TestRequest;
use serde_json::json;

#[actix_web::test]
async fn create_read_search_and_paginate() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    for (i, name) in [
        "Anna de Vries",
        "Bram Jansen",
        "Carla Bakker",
        "Daan de Vries",
    ]
    .iter()
    .enumerate()
    {
        let r = app
            .create_player(&leader, json!({"name": name, "knsb_number": format!("84{i:05}"), "email": format!("p{i}@x.org"), "phone": "0612345678"}))
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        assert_eq!(r.body["membership"], "fixed");
    }
    // public: no contact data
    let r = app.get("/api/v1/players?q=DE%20VRIES", None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body["total"], 2);
    let names: Vec<&str> = texts(&r.body["items"], "name");
    assert_eq!(names, ["Anna de Vries", "Daan de Vries"]);
    assert!(!r.text.contains("@x.org") && !r.text.contains("0612345678"));
    // member: still no contact data
    let member = app.token(&["member"]).await;
    let r = app.get(paths::PLAYERS, Some(&member)).await;
    assert!(!r.text.contains("@x.org"));
    // leader sees contact data
    let r = app.get(paths::PLAYERS, Some(&leader)).await;
    assert!(r.text.contains("p0@x.org"));
    // pagination
    let r = app.get("/api/v1/players?per_page=3&page=2", None).await;
    assert_eq!(r.body["total"], 4);
    assert_eq!(r.body["items"].as_array().unwrap().len(), 1);
    assert_eq!(r.body["items"][0]["name"], "Daan de Vries");
    assert_eq!(
        app.get("/api/v1/players?per_page=0", None).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    // the page number has a maximum, stated in the document
    let r = app.get("/api/v1/players?page=100001", None).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(r.body["errors"][0]["field"], "page");
    assert_eq!(
        app.get("/api/v1/players?page=100000", None).await.status,
        StatusCode::OK
    );
    // a search term with LIKE wildcards is taken literally
    let r = app.get("/api/v1/players?q=%25", None).await;
    assert_eq!(r.body["total"], 0);
}

#[actix_web::test]
async fn duplicate_knsb_number_is_409_and_changes_nothing() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    app.create_player(&leader, json!({"name": "A", "knsb_number": "123"}))
        .await;
    let before = app.counts().await;
    let r = app
        .create_player(&leader, json!({"name": "B", "knsb_number": "123"}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(app.counts().await, before);
}

#[actix_web::test]
async fn update_with_if_match_and_deactivate() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let r = app
        .create_player(&leader, json!({"name": "Eva", "email": "eva@x.org"}))
        .await;
    let id = r.body["id"].as_i64().unwrap();
    // the officer's header is the body's version tag with their mark (decision 0326)
    let marked = |t: &str| format!("{}~o\"", t.trim_end_matches('"'));
    let etag = r.header("etag").unwrap();
    let version_tag = r.body["etag"].as_str().unwrap().to_string();
    assert_eq!(
        etag,
        marked(&version_tag),
        "the body's etag is the header's"
    );
    let r = app.get(&paths::player(id), None).await;
    assert_eq!(r.header("etag").as_deref(), Some(version_tag.as_str()));
    assert_eq!(r.body["etag"], version_tag.as_str());

    let patch = |tag: &str, body: serde_json::Value| {
        TestRequest::patch()
            .uri(&paths::player(id))
            .insert_header(("Authorization", format!("Bearer {leader}")))
            .insert_header(("If-Match", tag.to_string()))
            .set_json(body)
    };
    let r = app
        .send(patch(
            &etag,
            json!({"name": "Eva Smit", "email": null, "membership": "flexible"}),
        ))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["name"], "Eva Smit");
    assert_eq!(r.body["membership"], "flexible");
    assert!(r.body.get("email").is_none(), "email cleared");
    assert_eq!(r.body["version"], 2);
    assert_eq!(r.body["etag"].as_str().map(marked), r.header("etag"));
    assert_ne!(r.body["etag"], version_tag.as_str());
    // the old ETag is stale now
    let r = app.send(patch(&etag, json!({"name": "Lost update"}))).await;
    assert_eq!(r.status, StatusCode::PRECONDITION_FAILED);
    let r = app.get(&paths::player(id), None).await;
    assert_eq!(r.body["name"], "Eva Smit");

    let r = app
        .req(Method::DELETE, &paths::player(id), Some(&leader), None)
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body["active"], false);
    let r = app.get("/api/v1/players?active=true", None).await;
    assert_eq!(r.body["total"], 0);
    assert_eq!(
        app.get(&paths::player(999), None).await.status,
        StatusCode::NOT_FOUND
    );
}

#[actix_web::test]
async fn pages_link_to_first_prev_next_and_last_keeping_the_filter() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    for name in ["Anna", "Annet", "Bram", "Dianne", "Hanna", "Johan"] {
        let r = app.create_player(&leader, json!({"name": name})).await;
        assert_eq!(r.status, StatusCode::CREATED);
    }
    // five names hold "an": Anna, Annet, Dianne, Hanna, Johan; two per page make three pages
    let r = app
        .get(&format!("{}?q=an&per_page=2&page=2", paths::PLAYERS), None)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["total"], 5);
    let names: Vec<&str> = texts(&r.body["items"], "name");
    assert_eq!(names, ["Dianne", "Hanna"]);
    assert_eq!(
        r.header("link").unwrap(),
        "</api/v1/players?q=an&per_page=2&page=1>; rel=\"first\", \
         </api/v1/players?q=an&per_page=2&page=1>; rel=\"prev\", \
         </api/v1/players?q=an&per_page=2&page=3>; rel=\"next\", \
         </api/v1/players?q=an&per_page=2&page=3>; rel=\"last\""
    );
    // past the end: an empty page, still linked to the first and the last
    let r = app
        .get(&format!("{}?q=an&per_page=2&page=9", paths::PLAYERS), None)
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body["items"].as_array().unwrap().len(), 0);
    assert_eq!(
        r.header("link").unwrap(),
        "</api/v1/players?q=an&per_page=2&page=1>; rel=\"first\", \
         </api/v1/players?q=an&per_page=2&page=3>; rel=\"last\""
    );
    // no player matches: one empty page
    let r = app.get(&format!("{}?q=zz", paths::PLAYERS), None).await;
    assert_eq!(
        r.header("link").unwrap(),
        "</api/v1/players?q=zz&page=1>; rel=\"first\", </api/v1/players?q=zz&page=1>; rel=\"last\""
    );
}
