//! Withdrawal (docs/rules/README.md#withdrawal): the withdrawn player is left out of the next
//! pairing, the standings apply the rule of the kind, the withdrawal is audited, and every
//! refusal names the rule and stores nothing.

use crate::support::*;

use actix_web::http::StatusCode;
use serde_json::{Value, json};

fn players_of(round: &Value) -> Vec<i64> {
    round["games"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| [g["white"]["id"].as_i64(), g["black"]["id"].as_i64()])
        .flatten()
        .collect()
}

/// A Keizer winter of A, B, C and D (fixed members) with two evenings, the first paired and
/// played (white wins on both boards); returns the competition and the players.
async fn keizer_of_four_after_one_evening(app: &TestApp, leader: &str) -> (i64, Vec<i64>) {
    keizer_of_four_with(app, leader, json!({})).await
}

/// [`keizer_of_four_after_one_evening`] with the Keizer parameters `params`.
async fn keizer_of_four_with(app: &TestApp, leader: &str, params: Value) -> (i64, Vec<i64>) {
    let (cid, p) = CompetitionBuilder::new(
        json!({"name": "Keizer", "kind": "keizer", "half": "winter", "params": params}),
    )
    .members(&[
        ("A", "fixed"),
        ("B", "fixed"),
        ("C", "fixed"),
        ("D", "fixed"),
    ])
    .create(app, leader)
    .await
    .parts();
    add_round(app, leader, cid, FUTURE).await;
    add_round(app, leader, cid, FUTURE).await;
    let r = app.generate_pairing(leader, cid, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    finish_round(app, leader, cid, 1, &["1-0", "1-0"]).await;
    (cid, p)
}

#[actix_web::test]
async fn keizer_withdrawal_is_never_paired_keeps_the_score_and_is_audited() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (cid, p) = keizer_of_four_after_one_evening(&app, &leader).await;
    let pair = |n: i64| paths::pairing(cid, n);

    let url = |player: i64| paths::withdraw(cid, player);
    let r = app
        .post(&url(p[3]), Some(&leader), json!({"reason": "moved abroad"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let d = r
        .body
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["player_id"] == p[3])
        .unwrap();
    // the first round not yet paired is round 2
    assert_eq!(d["withdrawn_from"], 2);
    let a = r
        .body
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["player_id"] == p[0])
        .unwrap();
    assert_eq!(a["withdrawn_from"], Value::Null);

    let audit = app.get(&paths::competition_audit(cid), Some(&leader)).await;
    assert_eq!(audit.status, StatusCode::OK, "{}", audit.text);
    let w: Vec<&Value> = audit.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == "withdrawn")
        .collect();
    assert_eq!(w.len(), 1, "{}", audit.text);
    assert_eq!(w[0]["reason"], "moved abroad");

    // round 2: three left, D nowhere (one board and a bye)
    let r = app.post(&pair(2), Some(&leader), json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let paired = players_of(&r.body);
    assert_eq!(paired.len(), 3, "{}", r.text);
    assert!(!paired.contains(&p[3]), "{}", r.text);
    let boards: Vec<i64> = r.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| !g["black"].is_null())
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    assert_eq!(boards.len(), 1);
    finish_round(&app, &leader, cid, 2, &["1-0"]).await;

    // D stays in the table with the score of round 1, marked, no absence booked; absent
    // without notice on 0 of 2 evenings, D meets the rules' only condition for a prize
    let s = app.get(&paths::standings(cid), None).await;
    assert_eq!(s.status, StatusCode::OK, "{}", s.text);
    let rows = s.body["keizer"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    let d = rows.iter().find(|r| r["player_id"] == p[3]).unwrap();
    assert_eq!(d["withdrawn_from"], 2);
    assert_eq!(d["eligible"], true);
    assert_eq!(d["unexcused"], 0);
    assert_eq!(d["played"], 1);
    let a = rows.iter().find(|r| r["player_id"] == p[0]).unwrap();
    assert_eq!(a["withdrawn_from"], Value::Null);
}

/// The setting `withdrawn_prizes: excluded` (docs/rules/keizer.md#withdrawal): the withdrawn
/// player stays in the table but is not eligible, and the prize list leaves them out; an
/// unknown value of the setting is refused, naming it.
#[actix_web::test]
async fn a_withdrawn_keizer_player_wins_no_prize_when_the_competition_excludes_them() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (cid, p) =
        keizer_of_four_with(&app, &leader, json!({"withdrawn_prizes": "excluded"})).await;
    let r = app
        .post(&paths::withdraw(cid, p[3]), Some(&leader), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app
        .post(&paths::pairing(cid, 2), Some(&leader), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    finish_round(&app, &leader, cid, 2, &["1-0"]).await;
    let s = app.get(&paths::standings(cid), None).await;
    let rows = s.body["keizer"]["rows"].as_array().unwrap();
    let d = rows.iter().find(|r| r["player_id"] == p[3]).unwrap();
    assert_eq!(d["withdrawn_from"], 2);
    assert_eq!(d["unexcused"], 0);
    assert_eq!(d["eligible"], false, "{}", s.text);
    let others = rows.iter().filter(|r| r["player_id"] != p[3]);
    assert!(others.clone().all(|r| r["eligible"] == true), "{}", s.text);

    let season = app.get(&paths::competition(cid), None).await.body["season_id"].clone();
    let r = app
        .create_competition(
            &leader,
            season,
            json!({"name": "Keizer 2", "kind": "keizer", "half": "winter",
                   "params": {"withdrawn_prizes": "never"}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(r.text.contains("params.withdrawn_prizes"), "{}", r.text);
}

#[actix_web::test]
async fn refused_withdrawals_name_the_rule_and_change_nothing() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (cid, p) = keizer_of_four_after_one_evening(&app, &leader).await;
    let pair = |n: i64| paths::pairing(cid, n);
    let r = app.post(&pair(2), Some(&leader), json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let outsider = app
        .post(
            paths::PLAYERS,
            Some(&leader),
            json!({"name": "Outsider", "membership": "fixed"}),
        )
        .await;
    let outsider = outsider.body["id"].as_i64().unwrap();
    let url = |player: i64| paths::withdraw(cid, player);
    let before = state_of(&app).await;
    let entrants_before = app.get(&paths::entrants(cid), None).await.body;

    // round 1 is played: 422 naming from_round and the player
    let r = app
        .post(&url(p[0]), Some(&leader), json!({"from_round": 1}))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "from_round", "{}", r.text);
    assert!(
        r.text.contains("A (#") && r.text.contains("not yet paired"),
        "{}",
        r.text
    );
    // round 2 is paired: 409 naming the round and the board
    let r = app
        .post(&url(p[0]), Some(&leader), json!({"from_round": 2}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert!(
        r.text.contains("round 2") && r.text.contains("board"),
        "{}",
        r.text
    );
    // the default (first round not yet paired: 3) has no round yet: fine later, but a date
    // without a round on or after it is refused
    let r = app
        .post(&url(p[0]), Some(&leader), json!({"date": "2100-01-01"}))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "date", "{}", r.text);
    // both a round and a date
    let r = app
        .post(
            &url(p[0]),
            Some(&leader),
            json!({"from_round": 3, "date": "2099-01-02"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "date", "{}", r.text);
    let r = app
        .post(&url(p[0]), Some(&leader), json!({"from_round": 0}))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "from_round", "{}", r.text);
    // not an entrant
    let r = app.post(&url(outsider), Some(&leader), json!({})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "player_id", "{}", r.text);
    assert!(r.text.contains("Outsider"), "{}", r.text);
    // not a leader
    let member = app.token(&["member"]).await;
    let r = app.post(&url(p[0]), Some(&member), json!({})).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text);
    assert_eq!(state_of(&app).await, before);
    assert_eq!(
        app.get(&paths::entrants(cid), None).await.body,
        entrants_before
    );

    // withdrawn from round 3, then a second time: 409 naming the first withdrawal
    let r = app
        .post(&url(p[1]), Some(&leader), json!({"from_round": 3}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let before = state_of(&app).await;
    let r = app
        .post(&url(p[1]), Some(&leader), json!({"from_round": 4}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert!(
        r.text.contains("B (#") && r.text.contains("round 3"),
        "{}",
        r.text
    );
    assert_eq!(state_of(&app).await, before);
}

#[actix_web::test]
async fn round_robin_withdrawal_before_half_annuls_the_results() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (cid, p) = draughts_round_robin_of_four(&app, &leader, "single", 3).await;
    let pair = |n: i64| paths::pairing(cid, n);
    // Berger round 1: 1–4, 2–3. D4 beats D1, D2 beats D3.
    let r = app.post(&pair(1), Some(&leader), json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    finish_round(&app, &leader, cid, 1, &["0-2", "2-0"]).await;
    let url = paths::withdraw(cid, p[3]);
    let r = app
        .post(&url, Some(&leader), json!({"from_round": 2}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // beyond the schedule of 3 rounds
    let other = paths::withdraw(cid, p[0]);
    let r = app
        .post(&other, Some(&leader), json!({"from_round": 4}))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "from_round", "{}", r.text);

    // round 2: 4–3, 1–2: D4's board is left out, D3 is free
    let r = app.post(&pair(2), Some(&leader), json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(players_of(&r.body), vec![p[0], p[1]], "{}", r.text);
    // a hand-made pairing naming D4 is refused even with override
    let r = app
        .req(
            actix_web::http::Method::PUT,
            &pair(2),
            Some(&leader),
            Some(json!({"boards": [{"white": p[3], "black": p[2]}, {"white": p[0], "black": p[1]}], "override": true})),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(
        r.text.contains("D4 (#") && r.text.contains("withdrew from round 2"),
        "{}",
        r.text
    );

    // one game of three played: every result of D4 is annulled (D1's loss with it):
    // D2 2, D1 0, D3 0; D4 has no row
    let s = app.get(&paths::standings(cid), None).await;
    assert_eq!(s.status, StatusCode::OK, "{}", s.text);
    let rr = &s.body["round_robin"];
    let rows = rr["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "{}", s.text);
    assert!(rows.iter().all(|r| r["player_id"] != p[3]));
    assert_eq!(rows[0]["player_id"], p[1]);
    assert_eq!(rows[0]["points"], 2);
    let d1 = rows.iter().find(|r| r["player_id"] == p[0]).unwrap();
    assert_eq!(
        (d1["points"].clone(), d1["games"].clone()),
        (json!(0), json!(0))
    );
    assert_eq!(rr["withdrawals"][0]["player_id"], p[3]);
    assert_eq!(rr["withdrawals"][0]["rule"], "results_annulled");
    assert_eq!(rr["withdrawals"][0]["played"], 1);
    assert_eq!(rr["withdrawals"][0]["due"], 3);
}
