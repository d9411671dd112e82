//! A draughts championship's disputes as the tests stage them: the championship, a claim
//! decided by the arbiter, and a protest lodged against that decision with the KNDB protest
//! committee (docs/rules/draughts-championship.md#protests).

use super::app::{Resp, TestApp};
use super::builders::{CompetitionBuilder, round};
use super::paths;
use actix_web::http::StatusCode;
use serde_json::{Value, json};

/// A draughts round robin A–D with `params`, round 1 published with A–B and C–D unplayed;
/// returns (competition, players, games).
pub async fn championship(app: &TestApp, leader: &str, params: Value) -> (i64, Vec<i64>, Vec<i64>) {
    let fx = CompetitionBuilder::round_robin()
        .set("name", "NK")
        .set("discipline", "draughts")
        .set("params", params)
        .players(&["A", "B", "C", "D"])
        .create(app, leader)
        .await;
    let p = fx.players.clone();
    let g = round(
        app,
        leader,
        fx.comp,
        vec![(p[0], Some(p[1]), None), (p[2], Some(p[3]), None)],
        "published",
    )
    .await;
    (fx.comp, p, g)
}

/// A lasting three-men advantage claimed for White (men 46, 47, 48 and a king against a king:
/// 5 against 2) and, with `accept`, upheld by the arbiter: the game's result is 1+-1-.
pub async fn plusremise_claim(app: &TestApp, arb: &str, game: i64, accept: bool) -> i64 {
    let body = json!({"kind": "draughts_lasting_advantage",
        "moves": {"pdn": "50-45 1-6", "start_fen": "W:W46,47,48,K50:BK1"}});
    let r = app.claim(arb, game, body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let claim = r.body["id"].as_i64().unwrap();
    if accept {
        let r = app
            .decide_claim(arb, claim, json!({"decision": "accept"}))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    claim
}

/// The grounds of the protest against [`plusremise_claim`]'s decision.
pub const PROTEST_GROUNDS: &str = "the black king reaches the long diagonal in time";

/// `token` lodges an oral protest ([`PROTEST_GROUNDS`], nothing else) against the decision on
/// `claim`: 201. Returns the protest's id and the answer.
pub async fn lodge_protest(app: &TestApp, token: &str, claim: i64) -> (i64, Resp) {
    let r = app
        .post(
            &paths::claim_protest(claim),
            Some(token),
            json!({ "grounds": PROTEST_GROUNDS }),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    (r.body["id"].as_i64().unwrap(), r)
}
