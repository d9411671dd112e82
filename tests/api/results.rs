//! Results: codes per discipline, the 40-move rule, round-status rule, If-Match/412,
//! corrections with a reason, audit trail. Also the fixtures shared by the standings and
//! prizes tests (games inserted directly, rounds moved with `services::rounds::transition`).

use crate::helpers::*;
use actix_web::http::{Method, StatusCode};
use actix_web::test::TestRequest;
use clubcomp::db::models::competition::{NewAttendance, NewGame};
use clubcomp::db::schema::{audit_log, games};
use diesel::prelude::*;
use serde_json::{Value, json};

/// A season, a competition and its entrants (in order of entry).
pub struct Fx {
    pub comp: i64,
    pub players: Vec<i64>,
}

pub async fn season<S, B>(app: &TestApp<S>, leader: &str) -> i64
where
    S: AppService<B>,
    B: actix_web::body::MessageBody,
{
    let r = app
        .post(
            "/api/v1/seasons",
            Some(leader),
            json!({"name": format!("S{}", uuid::Uuid::new_v4().simple()), "opening_date": "2026-09-04"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    r.body["id"].as_i64().unwrap()
}

pub async fn competition<S, B>(
    app: &TestApp<S>,
    leader: &str,
    season: i64,
    body: Value,
    players: &[i64],
) -> i64
where
    S: AppService<B>,
    B: actix_web::body::MessageBody,
{
    let r = app
        .post(
            &format!("/api/v1/seasons/{season}/competitions"),
            Some(leader),
            body,
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let comp = r.body["id"].as_i64().unwrap();
    if !players.is_empty() {
        let entries: Vec<Value> = players.iter().map(|p| json!({"player_id": p})).collect();
        let r = app
            .post(
                &format!("/api/v1/competitions/{comp}/entrants"),
                Some(leader),
                json!({"entrants": entries}),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    comp
}

pub async fn players<S, B>(app: &TestApp<S>, leader: &str, names: &[&str]) -> Vec<i64>
where
    S: AppService<B>,
    B: actix_web::body::MessageBody,
{
    let mut out = Vec::new();
    for n in names {
        let r = app
            .post("/api/v1/players", Some(leader), json!({"name": n}))
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        out.push(r.body["id"].as_i64().unwrap());
    }
    out
}

pub async fn setup<S, B>(app: &TestApp<S>, leader: &str, body: Value, names: &[&str]) -> Fx
where
    S: AppService<B>,
    B: actix_web::body::MessageBody,
{
    let season = season(app, leader).await;
    let players = players(app, leader, names).await;
    let comp = competition(app, leader, season, body, &players).await;
    Fx { comp, players }
}

/// A leader's and an arbiter's token and a Keizer winter competition of `names`.
pub async fn keizer_winter<S, B>(app: &TestApp<S>, names: &[&str]) -> (String, String, Fx)
where
    S: AppService<B>,
    B: actix_web::body::MessageBody,
{
    let leader = app.token(&["leader"]).await;
    let arbiter = app.token(&["arbiter"]).await;
    let body = json!({"name": "K", "kind": "keizer", "half": "winter"});
    let fx = setup(app, &leader, body, names).await;
    (leader, arbiter, fx)
}

/// Adds the next round with `games` (white, black, result) on boards 1, 2, … and moves it to
/// `status`. Returns the game ids.
pub async fn round<S, B>(
    app: &TestApp<S>,
    leader: &str,
    comp: i64,
    games_: Vec<(i64, Option<i64>, Option<&str>)>,
    status: &str,
) -> Vec<i64>
where
    S: AppService<B>,
    B: actix_web::body::MessageBody,
{
    let games_ = games_
        .into_iter()
        .enumerate()
        .map(|(i, (w, b, r))| (i as i32 + 1, 1, w, b, r))
        .collect();
    round_games(app, leader, comp, games_, status).await
}

/// A game to insert: board, game number, white, black (none: a bye), result.
pub type GameSpec<'a> = (i32, i32, i64, Option<i64>, Option<&'a str>);
type OwnedSpec = (i32, i32, i64, Option<i64>, Option<String>);

/// Adds the next round with `games` (board, game number, white, black, result) and moves it
/// to `status`. Returns the game ids.
pub async fn round_games<S, B>(
    app: &TestApp<S>,
    leader: &str,
    comp: i64,
    games_: Vec<GameSpec<'_>>,
    status: &str,
) -> Vec<i64>
where
    S: AppService<B>,
    B: actix_web::body::MessageBody,
{
    let r = app
        .post(
            &format!("/api/v1/competitions/{comp}/rounds"),
            Some(leader),
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let number = r.body["number"].as_i64().unwrap() as i32;
    let games_: Vec<OwnedSpec> = games_
        .into_iter()
        .map(|(bd, n, w, b, r)| (bd, n, w, b, r.map(str::to_string)))
        .collect();
    let status = status.to_string();
    app.with_conn(move |c| {
        use clubcomp::services::rounds;
        let round = rounds::load(c, comp, number).unwrap();
        let mut ids = Vec::new();
        for (board, game_no, w, b, res) in games_ {
            let id: i64 = diesel::insert_into(games::table)
                .values(&NewGame {
                    round_id: round.id,
                    board,
                    game_no,
                    white_id: Some(w),
                    black_id: b,
                    result: if b.is_none() { Some("bye".into()) } else { res },
                    termination: None,
                    move_count: None,
                    version: 1,
                    updated_at: clubcomp::db::now_utc(),
                })
                .returning(games::id)
                .get_result(c)
                .unwrap();
            ids.push(id);
        }
        let order = ["planned", "paired", "published", "completed"];
        let target = order.iter().position(|s| *s == status).unwrap();
        for k in 0..target {
            rounds::transition(c, &round, order[k], order[k + 1]).unwrap();
        }
        ids
    })
    .await
}

/// Records an attendance action for a player in round `number`.
pub async fn attendance<S, B>(app: &TestApp<S>, comp: i64, number: i32, player: i64, action: &str)
where
    S: AppService<B>,
    B: actix_web::body::MessageBody,
{
    let action = action.to_string();
    app.with_conn(move |c| {
        let round = clubcomp::services::rounds::load(c, comp, number).unwrap();
        diesel::insert_into(clubcomp::db::schema::attendance::table)
            .values(&NewAttendance {
                round_id: round.id,
                player_id: player,
                action,
                channel: "email".into(),
                recorded_by: "test".into(),
                at: clubcomp::db::now_utc(),
                note: None,
            })
            .execute(c)
            .unwrap();
    })
    .await
}

/// Moves round `number` from `from` to `to`.
pub async fn advance<S, B>(app: &TestApp<S>, comp: i64, number: i32, from: &str, to: &str)
where
    S: AppService<B>,
    B: actix_web::body::MessageBody,
{
    let (from, to) = (from.to_string(), to.to_string());
    app.with_conn(move |c| {
        let round = clubcomp::services::rounds::load(c, comp, number).unwrap();
        clubcomp::services::rounds::transition(c, &round, &from, &to).unwrap();
    })
    .await
}

/// (result, version, audit entries) of a game: what a rejected write must leave alone.
async fn game_state<S, B>(app: &TestApp<S>, id: i64) -> (Option<String>, i64, i64)
where
    S: AppService<B>,
    B: actix_web::body::MessageBody,
{
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

async fn put_result<S, B>(
    app: &TestApp<S>,
    token: &str,
    game: i64,
    body: Value,
    if_match: Option<&str>,
) -> Resp
where
    S: AppService<B>,
    B: actix_web::body::MessageBody,
{
    let mut r = TestRequest::default()
        .method(Method::PUT)
        .uri(&format!("/api/v1/games/{game}/result"))
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
    let leader = app.token(&["leader"]).await;
    let arbiter = app.token(&["arbiter"]).await;
    let member = app.token(&["member"]).await;
    let fx = setup(
        &app,
        &leader,
        json!({"name": "K", "kind": "keizer", "half": "winter"}),
        &["A", "B", "C"],
    )
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
                .uri(&format!("/api/v1/games/{g}/result"))
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
    assert_eq!(r.header("etag").unwrap(), format!("\"game-{g}-v2\""));

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
    let r = app
        .get(&format!("/api/v1/games/{g}/audit"), Some(&arbiter))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let e = r.body.as_array().unwrap();
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
        .get(
            &format!("/api/v1/competitions/{}/audit", fx.comp),
            Some(&leader),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body.as_array().unwrap().len(), 3);
    assert_eq!(
        app.get(&format!("/api/v1/games/{g}/audit"), Some(&member))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        app.get(&format!("/api/v1/games/{g}/audit"), None)
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.get("/api/v1/games/999999/audit", Some(&leader))
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
    let fx = setup(
        &app,
        &leader,
        json!({"name": "NK", "kind": "round_robin", "discipline": "draughts"}),
        &["A", "B"],
    )
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
