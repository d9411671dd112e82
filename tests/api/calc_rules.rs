//! The rapid and blitz calculators (docs/rules/rapid-blitz.md#the-calculators): who plays off
//! first place from a final standings list, and the number of blitz rounds, worked by hand
//! from the club's regulations; the command line answers the same JSON; nothing is stored.

use crate::support::*;
use actix_web::http::StatusCode;
use serde_json::{Value, json};

/// The candidates of an answer.
fn candidates(body: &Value) -> Vec<&str> {
    body["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect()
}

/// A and C both have 6 points, A ahead on the first tie-break (30 against 28); B has 5½.
/// The blitz (*Snelschaakkampioenschap* 4: level on points for first) plays A–C and C–A;
/// the rapid (8e: only a first place the whole list leaves shared) makes A champion.
#[actix_web::test]
async fn the_blitz_plays_off_a_tie_on_points_the_rapid_only_a_tie_after_every_tiebreak() {
    let app = spawn().await;
    let before = app.counts().await;
    let list = json!([
        {"id": "A", "points": 6, "tiebreaks": [30]},
        {"id": "C", "points": 6, "tiebreaks": [28]},
        {"id": "B", "points": 5.5, "tiebreaks": [31]}]);
    let blitz = json!({"rule": "blitz", "standings": list});
    let r = app.calc("swiss-playoff", blitz.clone()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(candidates(&r.body), ["A", "C"]);
    assert_eq!(r.body["playoff"], true);
    assert_eq!(r.body["champion"], Value::Null);
    assert_eq!(r.body["guest_title"], "eligible");
    assert_eq!(
        r.body["games"],
        json!([{"round": 1, "white": "A", "black": "C"},
               {"round": 2, "white": "C", "black": "A"}])
    );
    assert_eq!(calc_cli("swiss-playoff", &blitz), r.body);

    let rapid = json!({"rule": "rapid", "standings": list});
    let r = app.calc("swiss-playoff", rapid).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(candidates(&r.body), ["A"]);
    assert_eq!(r.body["playoff"], false);
    assert_eq!(r.body["champion"], "A");
    assert_eq!(r.body["games"], json!([]));
    assert_eq!(app.counts().await, before, "a calculator stores nothing");
}

/// A, C and D have 6 points; A and C are level on both tie-breaks, D is behind on the second.
/// The rapid plays off A and C; the blitz all three: six games in six rounds, every pair once
/// with each colour (Berger table of four with a free number: 2–3, 1–2, 3–1, then reversed).
#[actix_web::test]
async fn three_on_the_top_score_play_six_games_in_the_blitz() {
    let app = spawn().await;
    let list = json!([
        {"id": "A", "points": 6, "tiebreaks": [30, 20]},
        {"id": "C", "points": 6, "tiebreaks": [30, 20]},
        {"id": "D", "points": 6, "tiebreaks": [30, 19.5]},
        {"id": "B", "points": 5, "tiebreaks": [33, 25]}]);
    let r = app
        .calc("swiss-playoff", json!({"rule": "rapid", "standings": list}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(candidates(&r.body), ["A", "C"]);
    assert_eq!(r.body["games"].as_array().unwrap().len(), 2);

    let r = app
        .calc("swiss-playoff", json!({"rule": "blitz", "standings": list}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(candidates(&r.body), ["A", "C", "D"]);
    let games: Vec<(u64, &str, &str)> = r.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["round"].as_u64().unwrap(),
                g["white"].as_str().unwrap(),
                g["black"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        games,
        [
            (1, "C", "D"),
            (2, "A", "C"),
            (3, "D", "A"),
            (4, "D", "C"),
            (5, "C", "A"),
            (6, "A", "D")
        ]
    );
}

/// With `guest_title` `members_only` a guest level on the top score plays no play-off: the
/// member C is champion; with the default both play.
#[actix_web::test]
async fn a_guest_is_left_out_of_the_blitz_play_off_when_only_members_take_the_title() {
    let app = spawn().await;
    let list = json!([
        {"id": "A", "points": 6, "guest": true},
        {"id": "C", "points": 6},
        {"id": "B", "points": 5.5}]);
    let r = app
        .calc(
            "swiss-playoff",
            json!({"rule": "blitz", "guest_title": "members_only", "standings": list}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(candidates(&r.body), ["C"]);
    assert_eq!(r.body["champion"], "C");
    let r = app
        .calc("swiss-playoff", json!({"rule": "blitz", "standings": list}))
        .await;
    assert_eq!(candidates(&r.body), ["A", "C"]);
    // the rapid has no such setting
    let r = app
        .calc(
            "swiss-playoff",
            json!({"rule": "rapid", "guest_title": "members_only", "standings": list}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "guest_title");
}

#[actix_web::test]
async fn a_standings_list_out_of_order_or_out_of_bounds_is_refused_naming_the_row() {
    let app = spawn().await;
    let refused = |body: Value, field: &'static str| {
        let app = &app;
        async move {
            let r = app.calc("swiss-playoff", body).await;
            assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
            assert_eq!(
                r.header("content-type").as_deref(),
                Some("application/problem+json")
            );
            assert_eq!(r.body["errors"][0]["field"], field, "{}", r.text);
        }
    };
    let row = |id: &str, points: f64| json!({"id": id, "points": points});
    refused(
        json!({"rule": "blitz", "standings": [row("A", 5.0), row("B", 5.5)]}),
        "standings[1].points",
    )
    .await;
    refused(
        json!({"rule": "blitz", "standings": [row("A", 5.0), row("A", 4.0)]}),
        "standings[1].id",
    )
    .await;
    refused(
        json!({"rule": "blitz", "standings": [row("", 5.0)]}),
        "standings[0].id",
    )
    .await;
    refused(
        json!({"rule": "blitz", "standings": [row("A", -1.0)]}),
        "standings[0].points",
    )
    .await;
    refused(
        json!({"rule": "rapid", "standings": [
            {"id": "A", "points": 5, "tiebreaks": [3]}, {"id": "B", "points": 5}]}),
        "standings[1].tiebreaks",
    )
    .await;
    refused(
        json!({"rule": "rapid", "standings": [
            {"id": "A", "points": 5, "tiebreaks": [3]},
            {"id": "B", "points": 5, "tiebreaks": [4]}]}),
        "standings[1].tiebreaks",
    )
    .await;
    refused(json!({"rule": "blitz", "standings": []}), "standings").await;
    let many: Vec<Value> = (0..501).map(|i| row(&format!("p{i}"), 1.0)).collect();
    let r = app
        .calc("swiss-playoff", json!({"rule": "blitz", "standings": many}))
        .await;
    r.assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "LIMIT_SWISS_PLAYERS");
}

/// ⌈log2 n⌉ + 2 rounds, at most 11 and at most n − 1: 9 players play 4 + 2 = 6, 16 play 6,
/// 17 play 7, 40 play 8; 5 would play 5 but meet someone twice, so 4; 2 play 1; one plays
/// none; 300 reach the evening's 11 by the formula (9 + 2), with 3 extra rounds the 12 are
/// capped at 11.
#[actix_web::test]
async fn the_blitz_rounds_follow_from_the_field() {
    let app = spawn().await;
    let before = app.counts().await;
    for (n, extra, rounds, bound) in [
        (9, None, 6, "formula"),
        (16, None, 6, "formula"),
        (17, None, 7, "formula"),
        (40, None, 8, "formula"),
        (5, None, 4, "participants"),
        (2, None, 1, "participants"),
        (1, None, 0, "too_few"),
        (300, None, 11, "formula"),
        (300, Some(3), 11, "max_rounds"),
    ] {
        let mut body = json!({"participants": n});
        if let Some(e) = extra {
            body["extra_rounds"] = json!(e);
        }
        let r = app.calc("blitz-rounds", body.clone()).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(r.body["rounds"], rounds, "{n} players");
        assert_eq!(r.body["bound"], bound, "{n} players");
        if n == 9 {
            assert_eq!(r.body["formula"], 6);
            assert_eq!(r.body["extra_rounds"], 2);
            assert_eq!(r.body["max_rounds"], 11);
            assert_eq!(calc_cli("blitz-rounds", &body), r.body);
        }
    }
    let r = app
        .calc("blitz-rounds", json!({"participants": 20, "max_rounds": 5}))
        .await;
    assert_eq!(r.body["rounds"], 5);
    assert_eq!(r.body["bound"], "max_rounds");
    for (body, field) in [
        (json!({"participants": 9, "max_rounds": 0}), "max_rounds"),
        (
            json!({"participants": 9, "extra_rounds": 11}),
            "extra_rounds",
        ),
        (json!({"participants": 501}), "participants"),
    ] {
        let r = app.calc("blitz-rounds", body).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
        assert_eq!(r.body["errors"][0]["field"], field, "{}", r.text);
    }
    assert_eq!(app.counts().await, before);
}
