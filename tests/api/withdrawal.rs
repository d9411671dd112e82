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

/// Anna, Wim, Bram, Cor and Dirk: fixed members, unrated, entered in this order.
const WINTER: [&str; 5] = ["Anna", "Wim", "Bram", "Cor", "Dirk"];
const ANNA: usize = 0;
const WIM: usize = 1;
const BRAM: usize = 2;
const COR: usize = 3;
const DIRK: usize = 4;

/// One evening: its games (white, black, result, by index into [`WINTER`]) and the bye.
type Evening = (&'static [(usize, usize, &'static str)], Option<usize>);

/// The four evenings of the winter; Wim withdraws after the third.
const EVENINGS: [Evening; 4] = [
    (&[(WIM, COR, "1-0"), (BRAM, DIRK, "1-0")], Some(ANNA)),
    (&[(BRAM, WIM, "0-1"), (ANNA, COR, "1/2-1/2")], Some(DIRK)),
    (&[(WIM, ANNA, "1-0"), (COR, DIRK, "1/2-1/2")], Some(BRAM)),
    (&[(ANNA, DIRK, "1/2-1/2"), (BRAM, COR, "0-1")], None),
];

// The winter worked by hand (docs/rules/keizer.md#scoring, #recalculation): the club's
// settings (place 1 worth 60, a step of 1: 60, 59, 58, 57, 56; a win the opponent's value, a
// draw half of it, a loss 5, a bye the player's own value). Unrated, the players start in the
// order they entered: Anna 60, Wim 59, Bram 58, Cor 57, Dirk 56.
//
// Evening 1: Wim–Cor 1-0, Bram–Dirk 1-0, Anna has the bye. Anna 60 (own), Wim 57 (Cor), Bram
//   56 (Dirk), Cor 5, Dirk 5: the order stands.
// Evening 2: Bram–Wim 0-1, Anna–Cor ½-½, Dirk has the bye. With 60, 59, 58, 57, 56: Anna
//   60 + ½·57 = 88.5, Wim 57 + 58 = 115, Bram 56 + 5 = 61, Cor 5 + ½·60 = 35, Dirk 5 + 56 =
//   61 → Wim, Anna, Bram, Dirk, Cor (Bram and Dirk level: Bram keeps his place). Valued
//   again (Wim 60, Anna 59, Bram 58, Dirk 57, Cor 56): Anna 59 + ½·56 = 87, Wim 56 + 58 = 114,
//   Bram 57 + 5 = 62, Dirk 5 + 57 = 62, Cor 5 + ½·59 = 34.5: the order stands.
// Evening 3: Wim–Anna 1-0, Cor–Dirk ½-½, Bram has the bye. With Wim 60, Anna 59, Bram 58,
//   Dirk 57, Cor 56: Wim 56 + 58 + 59 = 173, Anna 59 + 28 + 5 = 92, Bram 57 + 5 + 58 = 120,
//   Dirk 5 + 57 + 28 = 90, Cor 5 + 29.5 + 28.5 = 63 → Wim, Bram, Anna, Dirk, Cor. Again (Wim
//   60, Bram 59, Anna 58, Dirk 57, Cor 56): Wim 56 + 59 + 58 = 173, Bram 57 + 5 + 59 = 121,
//   Anna 58 + 28 + 5 = 91, Dirk 5 + 57 + 28 = 90, Cor 5 + 29 + 28.5 = 62.5: the order stands.
// Wim withdraws from evening 4: not paired, not booked absent (docs/rules/keizer.md#withdrawal).
// Evening 4: Anna–Dirk ½-½, Bram–Cor 0-1. With Wim 60, Bram 59, Anna 58, Dirk 57, Cor 56: Wim
//   56 + 59 + 58 = 173, Bram 57 + 5 + 59 + 5 = 126, Anna 58 + 28 + 5 + 28.5 = 119.5, Dirk 5 +
//   57 + 28 + 29 = 119, Cor 5 + 29 + 28.5 + 59 = 121.5 → Wim, Bram, Cor, Anna, Dirk. Again
//   (Wim 60, Bram 59, Cor 58, Anna 57, Dirk 56): Wim 58 + 59 + 57 = 174, Bram 56 + 5 + 59 + 5 =
//   125, Cor 5 + 28.5 + 28 + 59 = 120.5, Anna 57 + 29 + 5 + 28 = 119, Dirk 5 + 56 + 29 + 28.5 =
//   118.5: the order stands.
// Final table: Wim 174, Bram 125, Cor 120.5, Anna 119, Dirk 118.5.
//
// Prizes (docs/rules/keizer.md#prizes): nobody was absent without notice (0 of 4 evenings).
// Game scores: Wim 3 of 3, Cor 2 of 4, Bram, Anna and Dirk 1 of 3. By default (`eligible`)
// everyone is eligible: winter champion Wim, silver Bram, bronze Cor, best of the rest Anna
// (Anna and Dirk 1 of 3 each, the same percentage: the better Keizer place). With
// `withdrawn_prizes: excluded` Wim is not eligible: champion Bram, silver Cor, bronze Anna,
// best of the rest Dirk.
const TABLE: [(usize, f64); 5] = [
    (WIM, 174.0),
    (BRAM, 125.0),
    (COR, 120.5),
    (ANNA, 119.0),
    (DIRK, 118.5),
];
const PRIZES_BY_DEFAULT: [(&str, usize); 4] = [
    ("winter_champion", WIM),
    ("silver", BRAM),
    ("bronze", COR),
    ("best_of_the_rest", ANNA),
];
const PRIZES_EXCLUDED: [(&str, usize); 4] = [
    ("winter_champion", BRAM),
    ("silver", COR),
    ("bronze", ANNA),
    ("best_of_the_rest", DIRK),
];

/// The games of evening `n` (0-based) as boards of `players`, the bye last.
fn boards_of(n: usize, players: &[i64]) -> Boards<'static> {
    let (games, bye) = EVENINGS[n];
    let mut boards: Boards<'static> = games
        .iter()
        .map(|&(w, b, r)| (players[w], Some(players[b]), Some(r)))
        .collect();
    boards.extend(bye.map(|p| (players[p], None, None)));
    boards
}

/// The winter with `params`: three evenings completed, Wim withdrawn (from evening 4, the
/// first not yet paired), the fourth completed without him. Returns the competition and the
/// players in the order of [`WINTER`].
async fn winter_with_a_withdrawal(app: &TestApp, leader: &str, params: Value) -> (i64, Vec<i64>) {
    let members: Vec<(&str, &str)> = WINTER.iter().map(|n| (*n, "fixed")).collect();
    let (cid, p) = CompetitionBuilder::new(
        json!({"name": "Winter", "kind": "keizer", "half": "winter", "params": params}),
    )
    .members(&members)
    .create(app, leader)
    .await
    .parts();
    for n in 0..3 {
        round(app, leader, cid, boards_of(n, &p), "completed").await;
    }
    let r = app
        .post(
            &paths::withdraw(cid, p[WIM]),
            Some(leader),
            json!({"reason": "moved"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let wim = r
        .body
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["player_id"] == p[WIM]);
    assert_eq!(wim.unwrap()["withdrawn_from"], 4, "{}", r.text);
    round(app, leader, cid, boards_of(3, &p), "completed").await;
    (cid, p)
}

/// The final table: the players in order with their scores, as the hand-worked [`TABLE`];
/// Wim's row marked withdrawn, with no absence booked, and eligible as `wim_eligible`.
async fn assert_final_table(app: &TestApp, cid: i64, p: &[i64], wim_eligible: bool) {
    let s = app.standings(cid).await;
    assert_eq!(s.status, StatusCode::OK, "{}", s.text);
    let rows = s.body["keizer"]["rows"].as_array().unwrap();
    let got: Vec<(i64, f64)> = rows
        .iter()
        .map(|r| {
            (
                r["player_id"].as_i64().unwrap(),
                r["score"].as_f64().unwrap(),
            )
        })
        .collect();
    let want: Vec<(i64, f64)> = TABLE.iter().map(|&(i, score)| (p[i], score)).collect();
    assert_eq!(got, want, "{}", s.text);
    assert_eq!(rows[0]["rank"], 1);
    assert_eq!(rows[0]["withdrawn_from"], 4, "{}", s.text);
    assert_eq!(rows[0]["unexcused"], 0);
    assert_eq!(rows[0]["played"], 3);
    assert_eq!(rows[0]["game_points"], 3.0);
    assert_eq!(rows[0]["eligible"], wim_eligible, "{}", s.text);
    assert!(
        rows[1..].iter().all(|r| r["eligible"] == true),
        "{}",
        s.text
    );
    assert!(rows[1..].iter().all(|r| r["withdrawn_from"].is_null()));
}

/// The prize list's awards as (prize, player).
fn awards(list: &Value) -> Vec<(String, i64)> {
    list["keizer"]["awards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let prize = a["prize"].as_str().unwrap().to_string();
            (prize, a["player_id"].as_i64().unwrap())
        })
        .collect()
}

/// The prize list computed from the standings, then finalized: the same `expected` awards
/// both times. Returns the finalized list.
async fn finalized_prizes(
    app: &TestApp,
    leader: &str,
    cid: i64,
    p: &[i64],
    expected: [(&str, usize); 4],
) -> Value {
    let want: Vec<(String, i64)> = expected
        .iter()
        .map(|&(prize, i)| (prize.to_string(), p[i]))
        .collect();
    let url = paths::prizes(cid);
    let r = app.get(&url, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["finalized"], false);
    assert_eq!(awards(&r.body), want, "{}", r.text);
    let r = app
        .post(&format!("{url}/finalize"), Some(leader), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let r = app.get(&url, None).await;
    assert_eq!(r.body["finalized"], true, "{}", r.text);
    assert_eq!(awards(&r.body), want, "{}", r.text);
    r.body
}

/// The club's prize page of `cid`, as text.
async fn prize_page(app: &TestApp, cid: i64) -> String {
    let page = app.get(&paths::club::prizes(cid), None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    club_pages::text(&page.text)
}

/// The club's season page of competition `cid`, as text.
async fn season_page(app: &TestApp, cid: i64) -> String {
    let season = app.get(&paths::competition(cid), None).await.body["season_id"].clone();
    let page = app.get(&paths::club::season(season), None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    club_pages::text(&page.text)
}

/// By default (`withdrawn_prizes: eligible`, docs/decisions/0281-withdrawn-keizer-prizes.md)
/// Wim, who won his three games and then withdrew, keeps first place and takes the winter
/// title: in the standings, the prize list (computed and finalized), the club's prize page
/// and the season page. The numbers are worked by hand above [`TABLE`].
#[actix_web::test]
async fn a_withdrawn_keizer_player_first_at_the_end_of_the_winter_is_winter_champion() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (cid, p) = winter_with_a_withdrawal(&app, &leader, json!({})).await;
    assert_final_table(&app, cid, &p, true).await;
    let list = finalized_prizes(&app, &leader, cid, &p, PRIZES_BY_DEFAULT).await;
    assert_eq!(list["keizer"]["not_eligible"], json!([]), "{list}");

    let text = prize_page(&app, cid).await;
    for line in [
        "Winterkampioen Wim",
        "Zilver (2e) Bram",
        "Brons (3e) Cor",
        "Beste van de rest Anna",
    ] {
        assert!(text.contains(line), "{line:?} not in {text}");
    }
    assert!(!text.contains("Niet in aanmerking"), "{text}");
    // the season page's first three are the table's, the champion first; no other champion
    assert_eq!(season_podium(&app, cid).await, ["Wim", "Bram", "Cor"]);
    let text = season_page(&app, cid).await;
    assert!(!text.contains("Kampioen:"), "{text}");
}

/// With `withdrawn_prizes: excluded` the same winter gives Wim the same place and score but no
/// prize: Bram, second, is winter champion, and every prize moves up one player. The season
/// page keeps the table's first three and names Bram champion once the list is finalized.
#[actix_web::test]
async fn with_withdrawn_players_excluded_the_second_is_winter_champion() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (cid, p) =
        winter_with_a_withdrawal(&app, &leader, json!({"withdrawn_prizes": "excluded"})).await;
    assert_final_table(&app, cid, &p, false).await;
    // a provisional list names no champion on the season page
    assert!(!season_page(&app, cid).await.contains("Kampioen:"));
    let list = finalized_prizes(&app, &leader, cid, &p, PRIZES_EXCLUDED).await;
    assert_eq!(ids(&list["keizer"]["not_eligible"]), [p[WIM]], "{list}");

    let text = prize_page(&app, cid).await;
    for line in [
        "Winterkampioen Bram",
        "Zilver (2e) Cor",
        "Brons (3e) Anna",
        "Beste van de rest Dirk",
        "Niet in aanmerking (te vaak zonder afmelding afwezig, of teruggetrokken) Wim",
    ] {
        assert!(text.contains(line), "{line:?} not in {text}");
    }
    assert_eq!(season_podium(&app, cid).await, ["Wim", "Bram", "Cor"]);
    let text = season_page(&app, cid).await;
    assert!(text.contains("Kampioen: Bram"), "{text}");
}

/// The same winter as a Keizer scenario for `clubcomp calc keizer-prizes`
/// (docs/formats/keizer-prizes.md), with the Keizer parameters `params`.
fn winter_scenario(params: Value) -> Value {
    let id = |i: usize| WINTER[i].to_lowercase();
    let players: Vec<Value> = WINTER
        .iter()
        .enumerate()
        .map(|(i, _)| match i {
            WIM => json!({"id": id(i), "rating": null, "withdrawn_from": 4}),
            _ => json!({"id": id(i), "rating": null}),
        })
        .collect();
    let evenings: Vec<Value> = EVENINGS
        .iter()
        .map(|(games, bye)| {
            let games: Vec<Value> = games
                .iter()
                .map(|&(w, b, r)| json!({"white": id(w), "black": id(b), "result": r}))
                .collect();
            json!({"games": games, "byes": bye.map(id).into_iter().collect::<Vec<_>>()})
        })
        .collect();
    json!({"half": "winter", "params": params, "players": players, "evenings": evenings})
}

/// The command line works the same winter from a file to the same numbers: the final table
/// of [`TABLE`], Wim winter champion by default and Bram with `withdrawn_prizes: excluded`.
#[test]
fn the_command_line_gives_the_withdrawn_player_the_title_unless_excluded() {
    let id = |i: usize| WINTER[i].to_lowercase();
    for (params, expected, wim_eligible) in [
        (json!({}), PRIZES_BY_DEFAULT, true),
        (
            json!({"withdrawn_prizes": "excluded"}),
            PRIZES_EXCLUDED,
            false,
        ),
    ] {
        let out = calc_cli("keizer-prizes", &winter_scenario(params));
        let table: Vec<(String, f64)> = out["standings"]["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["id"].as_str().unwrap().to_string(),
                    r["score"].as_f64().unwrap(),
                )
            })
            .collect();
        let want: Vec<(String, f64)> = TABLE.iter().map(|&(i, s)| (id(i), s)).collect();
        assert_eq!(table, want, "{out}");
        let got = award_pairs(&out);
        let want: Vec<(String, String)> = expected
            .iter()
            .map(|&(prize, i)| (prize.into(), id(i)))
            .collect();
        assert_eq!(got, want, "{out}");
        let eligible = out["eligible"].as_array().unwrap();
        assert_eq!(eligible.contains(&json!("wim")), wim_eligible, "{out}");
    }
}
