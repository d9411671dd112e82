//! Results: codes per discipline, the 40-move rule, round-status rule, If-Match/412,
//! corrections with a reason, audit trail.

use crate::support::*;
use actix_web::http::{Method, StatusCode};
use actix_web::test::TestRequest;
use clubcomp_core::test_store::schema::{audit_log, games};
use diesel::prelude::*;
use serde_json::{Value, json};

/// (result, version, audit entries) of a game: what a rejected write must leave alone.
async fn game_state(app: &TestApp, id: i64) -> (Option<String>, i64, i64) {
    app.with_conn(move |c| {
        let (r, v): (Option<String>, i64) = games::table
            .find(id)
            .select((games::result, games::version))
            .first(c)
            .unwrap();
        let n: i64 = audit_log::table.count().get_result(c).unwrap();
        (r, v, n)
    })
    .await
}

async fn put_result(
    app: &TestApp,
    token: &str,
    game: i64,
    body: Value,
    if_match: Option<&str>,
) -> Resp {
    let mut r = TestRequest::default()
        .method(Method::PUT)
        .uri(&paths::result(game))
        .insert_header(("Authorization", format!("Bearer {token}")))
        .set_json(body);
    if let Some(m) = if_match {
        r = r.insert_header(("If-Match", m.to_string()));
    }
    app.send(r).await
}

#[actix_web::test]
async fn chess_results_status_if_match_corrections_and_audit() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let member = app.token(&["member"]).await;
    let fx = CompetitionBuilder::keizer()
        .players(&["A", "B", "C"])
        .create(&app, &leader)
        .await;
    let (a, b, c) = (fx.players[0], fx.players[1], fx.players[2]);
    let ids = round(
        &app,
        &leader,
        fx.comp,
        vec![(a, Some(b), None), (c, None, None)],
        "planned",
    )
    .await;
    let g = ids[0];

    // a malformed result is refused for its content even with a stale If-Match (422, not
    // 412): the precondition is looked at only for a request that could succeed
    let before = game_state(&app, g).await;
    let stale = Some("\"game-0-v0\"");
    let r = put_result(&app, &arbiter, g, json!({"result": "9-9"}), stale).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "result");
    let r = put_result(&app, &arbiter, g, json!({"result": "1-0"}), stale).await;
    assert_eq!(r.status, StatusCode::PRECONDITION_FAILED, "{}", r.text);
    // planned round: no results yet (409), nothing changed
    let r = put_result(&app, &arbiter, g, json!({"result": "1-0"}), None).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(game_state(&app, g).await, before);
    // a member may not enter results
    let r = put_result(&app, &member, g, json!({"result": "1-0"}), None).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);

    advance(&app, fx.comp, 1, "planned", "paired").await;
    // a draughts code in a chess competition: 422 naming the field, nothing changed
    let r = put_result(&app, &arbiter, g, json!({"result": "2-0"}), None).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "result");
    assert_eq!(game_state(&app, g).await, before);
    // malformed JSON: 400, unknown field: 422
    let r = app
        .send(
            TestRequest::default()
                .method(Method::PUT)
                .uri(&paths::result(g))
                .insert_header(("Authorization", format!("Bearer {arbiter}")))
                .insert_header(("Content-Type", "application/json"))
                .set_payload("{\"result\": "),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let r = put_result(
        &app,
        &arbiter,
        g,
        json!({"result": "1-0", "colour": "w"}),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    // arbiter_decision needs a decisive code
    let r = put_result(
        &app,
        &arbiter,
        g,
        json!({"result": "½-½", "termination": "arbiter_decision"}),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    // a bye has no result to enter
    let r = put_result(&app, &arbiter, ids[1], json!({"result": "1-0"}), None).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(game_state(&app, g).await, before);

    // ½-½ is stored as 1/2-1/2 (absent If-Match is allowed)
    let r = put_result(&app, &arbiter, g, json!({"result": "½-½"}), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["game"]["result"], "1/2-1/2");
    assert_eq!(r.body["game"]["version"], 2);
    assert_eq!(r.header("etag").unwrap(), format!("\"game-{g}-v2~o\""));
    assert_eq!(r.body["game"]["etag"], format!("\"game-{g}-v2\""));

    // stale If-Match: 412, nothing changed
    let before = game_state(&app, g).await;
    let r = put_result(
        &app,
        &leader,
        g,
        json!({"result": "1-0"}),
        Some(&format!("\"game-{g}-v1\"")),
    )
    .await;
    assert_eq!(r.status, StatusCode::PRECONDITION_FAILED, "{}", r.text);
    assert_eq!(game_state(&app, g).await, before);
    let r = put_result(
        &app,
        &leader,
        g,
        json!({"result": "1-0", "reason": "score sheet"}),
        Some(&format!("\"game-{g}-v2\"")),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);

    // completed: a correction needs a reason
    advance(&app, fx.comp, 1, "paired", "published").await;
    advance(&app, fx.comp, 1, "published", "completed").await;
    let before = game_state(&app, g).await;
    let r = put_result(&app, &arbiter, g, json!({"result": "0-1"}), None).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "reason");
    assert_eq!(game_state(&app, g).await, before);
    let r = put_result(
        &app,
        &arbiter,
        g,
        json!({"result": "0-1", "termination": "arbiter_decision", "reason": "phone rang"}),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["game"]["termination"], "arbiter_decision");

    // the audit trail: who, when, old, new, reason
    let r = app.get(&paths::game_audit(g), Some(&arbiter)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["total"], 3);
    let e = r.body["items"].as_array().unwrap();
    assert_eq!(e.len(), 3);
    assert_eq!(e[0]["action"], "result_entered");
    assert_eq!(e[0]["old_value"], Value::Null);
    assert_eq!(e[0]["new_value"]["result"], "1/2-1/2");
    assert_eq!(e[1]["old_value"]["result"], "1/2-1/2");
    assert_eq!(e[1]["new_value"]["result"], "1-0");
    assert_eq!(e[1]["reason"], "score sheet");
    assert_eq!(e[2]["action"], "result_corrected");
    assert_eq!(e[2]["reason"], "phone rang");
    assert!(e[2]["actor"].as_str().unwrap().starts_with("arbiter"));
    assert!(e[2]["at"].as_str().unwrap().ends_with('Z'));
    let r = app
        .get(&paths::competition_audit(fx.comp), Some(&leader))
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body["items"].as_array().unwrap().len(), 3);
    // a page at a time, by id: two entries, then the third, then an empty page past the end
    let page = |n: u32| format!("{}?per_page=2&page={n}", paths::competition_audit(fx.comp));
    let r = app.get(&page(1), Some(&leader)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let actions: Vec<&str> = texts(&r.body["items"], "action");
    assert_eq!(actions, ["result_entered", "result_corrected"]);
    assert_eq!(
        (&r.body["total"], &r.body["page"], &r.body["per_page"]),
        (&json!(3), &json!(1), &json!(2))
    );
    let link = r.headers.get("link").unwrap().to_str().unwrap().to_string();
    assert!(link.contains("per_page=2&page=2>; rel=\"next\""), "{link}");
    assert!(link.contains("per_page=2&page=2>; rel=\"last\""), "{link}");
    let r = app.get(&page(2), Some(&leader)).await;
    assert_eq!(r.body["items"].as_array().unwrap().len(), 1);
    assert_eq!(r.body["items"][0]["reason"], "phone rang");
    let r = app.get(&page(3), Some(&leader)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["items"], json!([]));
    assert_eq!(r.body["total"], 3);
    let link = r.headers.get("link").unwrap().to_str().unwrap().to_string();
    assert!(
        link.contains("rel=\"first\"") && link.contains("rel=\"last\""),
        "{link}"
    );
    assert!(!link.contains("rel=\"next\""), "{link}");
    // an unknown query parameter is refused, naming it
    let r = app
        .get(
            &format!("{}?pgae=2", paths::competition_audit(fx.comp)),
            Some(&leader),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    assert!(r.text.contains("pgae"), "{}", r.text);
    assert_eq!(
        app.get(&paths::game_audit(g), Some(&member)).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        app.get(&paths::game_audit(g), None).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.get(&paths::game_audit(999999), Some(&leader))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        put_result(&app, &leader, 999_999, json!({"result": "1-0"}), None)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

#[actix_web::test]
async fn draughts_codes_and_the_forty_move_rule() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let fx = CompetitionBuilder::round_robin()
        .set("name", "NK")
        .set("discipline", "draughts")
        .players(&["A", "B"])
        .create(&app, &leader)
        .await;
    let ids = round(
        &app,
        &leader,
        fx.comp,
        vec![(fx.players[0], Some(fx.players[1]), None)],
        "paired",
    )
    .await;
    let g = ids[0];
    // chess code in draughts: 422
    let r = put_result(&app, &leader, g, json!({"result": "1-0"}), None).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    // an agreed draw needs the move count
    let r = put_result(
        &app,
        &leader,
        g,
        json!({"result": "1-1", "termination": "agreed"}),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(r.body["errors"][0]["field"], "move_count");
    // docs/rules/draughts-championship.md#the-40-move-rule: agreed before both made 40 moves → lost for both, and the answer says so
    let r = put_result(
        &app,
        &leader,
        g,
        json!({"result": "1-1", "termination": "agreed", "move_count": 25}),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["game"]["result"], "0-0");
    assert!(r.body["note"].as_str().unwrap().contains("0-0"));
    // after 40 moves the plusremise stands
    let r = put_result(
        &app,
        &leader,
        g,
        json!({"result": "1+ - 1-", "termination": "agreed", "move_count": 40}),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["game"]["result"], "1+-1-");
    assert_eq!(r.body["note"], Value::Null);
    // arbiter_decision is a Keizer rule
    let r = put_result(
        &app,
        &leader,
        g,
        json!({"result": "2-0", "termination": "arbiter_decision"}),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
}
