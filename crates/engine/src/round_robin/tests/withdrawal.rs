//! The withdrawal rule (docs/rules/draughts-championship.md#withdrawal), worked by hand.

use super::*;

fn run(v: serde_json::Value) -> Result<RoundRobinOutput, RoundRobinError> {
    compute_round_robin(&serde_json::from_value::<Scenario>(v).unwrap())
}

fn row<'a>(out: &'a RoundRobinOutput, id: &str) -> &'a Row {
    out.standings.iter().find(|r| r.id == id).unwrap()
}

fn points(out: &RoundRobinOutput) -> Vec<(String, serde_json::Number)> {
    out.standings
        .iter()
        .map(|r| (r.id.clone(), r.points.clone()))
        .collect()
}

fn n(x: i64) -> serde_json::Number {
    serde_json::Number::from(x)
}

/// Four players, single round robin: each is due 3 games, half is 1½.
fn four(withdrawn_from: u32, games: serde_json::Value) -> serde_json::Value {
    serde_json::json!({
        "discipline": "draughts",
        "players": [{"id": "a"}, {"id": "b"}, {"id": "c"}, {"id": "d"}],
        "games": games,
        "tiebreaks": ["wins"],
        "withdrawn": [{"id": "d", "from_round": withdrawn_from}]
    })
}

#[test]
fn one_game_of_three_played_annuls_every_result() {
    // d beat a in round 1 and withdraws from round 2: 1 of 3 games played, not more than
    // half, so d's results go (a's loss to d with them). Left: b–c 2-0, a–b 1-1, c–a 2-0.
    // b 2 + 1 = 3, c 0 + 2 = 2, a 1 + 0 = 1; d has no row.
    let out = run(four(
        2,
        serde_json::json!([
            {"round": 1, "white": "a", "black": "d", "result": "0-2"},
            {"round": 1, "white": "b", "black": "c", "result": "2-0"},
            {"round": 2, "white": "a", "black": "b", "result": "1-1"},
            {"round": 3, "white": "c", "black": "a", "result": "2-0"}
        ]),
    ))
    .unwrap();
    assert_eq!(
        points(&out),
        [("b".into(), n(3)), ("c".into(), n(2)), ("a".into(), n(1))]
    );
    assert_eq!(row(&out, "a").games, 2);
    assert_eq!(row(&out, "a").losses, 1);
    assert_eq!(
        out.withdrawals,
        [WithdrawalOutcome {
            id: "d".into(),
            from_round: 2,
            played: 1,
            due: 3,
            rule: WithdrawalRule::ResultsAnnulled,
            forfeits: 0,
        }]
    );
    // the cross table keeps the pairing numbers; d's line and column are empty
    assert_eq!(out.cross_table.len(), 4);
    assert_eq!(out.cross_table[3], ["", "", "", ""]);
    assert_eq!(out.cross_table[0][3], "");
    assert_eq!(out.cross_table[0][1], "1");
}

#[test]
fn two_games_of_three_played_stand_and_the_rest_is_forfeited() {
    // d withdraws from round 3 having played 2 of 3 (more than half): a–d 0-2 and d–c 1-1
    // stand, and d's game against b still due is a forfeit win for b.
    // a 0 + 1 + 0 = 1; b 2 + 1 + 2 = 5 (wins: c and the forfeit = 2); c 0 + 1 + 2 = 3;
    // d 2 + 1 + 0 = 3 (3 games, 1 loss).
    let out = run(four(
        3,
        serde_json::json!([
            {"round": 1, "white": "a", "black": "d", "result": "0-2"},
            {"round": 1, "white": "b", "black": "c", "result": "2-0"},
            {"round": 2, "white": "d", "black": "c", "result": "1-1"},
            {"round": 2, "white": "a", "black": "b", "result": "1-1"},
            {"round": 3, "white": "c", "black": "a", "result": "2-0"}
        ]),
    ))
    .unwrap();
    assert_eq!(row(&out, "b").points, n(5));
    assert_eq!(row(&out, "b").wins, 2);
    assert_eq!(row(&out, "b").games, 3);
    assert_eq!(row(&out, "c").points, n(3));
    assert_eq!(row(&out, "a").points, n(1));
    let d = row(&out, "d");
    assert_eq!((d.points.clone(), d.games, d.losses), (n(3), 3, 1));
    assert_eq!(d.withdrawn_from, Some(3));
    assert_eq!(row(&out, "b").withdrawn_from, None);
    assert_eq!(out.standings[0].id, "b");
    assert_eq!(out.withdrawals[0].rule, WithdrawalRule::RemainingForfeited);
    assert_eq!(
        (out.withdrawals[0].played, out.withdrawals[0].forfeits),
        (2, 1)
    );
    assert_eq!(out.cross_table[1][3], "+");
    assert_eq!(out.cross_table[3][1], "-");
    assert_eq!(out.cross_table[3][0], "2");
}

#[test]
fn exactly_half_is_annulled_and_forfeits_do_not_count_as_played() {
    // Five players: each is due 4. e beat a and b over the board and had a forfeit win
    // against c, then withdrew from round 4: 2 games played of 4 — exactly half, so every
    // result of e is annulled (the forfeit too). c–d 1-1 stays: c 1, d 1, a 0, b 0.
    let out = run(serde_json::json!({
        "discipline": "draughts",
        "players": [{"id": "a"}, {"id": "b"}, {"id": "c"}, {"id": "d"}, {"id": "e"}],
        "games": [
            {"round": 1, "white": "e", "black": "a", "result": "2-0"},
            {"round": 1, "white": "c", "black": "d", "result": "1-1"},
            {"round": 2, "white": "b", "black": "e", "result": "0-2"},
            {"round": 3, "white": "e", "black": "c", "result": "+/-"}
        ],
        "tiebreaks": ["wins"],
        "withdrawn": [{"id": "e", "from_round": 4}]
    }))
    .unwrap();
    assert_eq!(out.withdrawals[0].played, 2);
    assert_eq!(out.withdrawals[0].due, 4);
    assert_eq!(out.withdrawals[0].rule, WithdrawalRule::ResultsAnnulled);
    assert!(out.standings.iter().all(|r| r.id != "e"));
    assert_eq!(row(&out, "a").games, 0);
    assert_eq!(row(&out, "c").points, n(1));
}

#[test]
fn a_double_round_robin_forfeits_every_meeting_still_due() {
    // Three players, two cycles: each is due 4. c played a twice (2-0, 1-1) and b once
    // (0-2) and withdraws: 3 of 4 played, so the second c–b game is a forfeit win for b.
    // a 0 + 1 = 1; b 2 + 2 = 4; c 2 + 1 + 0 + 0 = 3.
    let out = run(serde_json::json!({
        "discipline": "draughts",
        "players": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
        "cycles": 2,
        "games": [
            {"round": 1, "white": "c", "black": "a", "result": "2-0"},
            {"round": 2, "white": "b", "black": "c", "result": "2-0"},
            {"round": 4, "white": "a", "black": "c", "result": "1-1"}
        ],
        "withdrawn": [{"id": "c", "from_round": 5}]
    }))
    .unwrap();
    assert_eq!(
        points(&out),
        [("b".into(), n(4)), ("c".into(), n(3)), ("a".into(), n(1))]
    );
    assert_eq!(out.withdrawals[0].forfeits, 1);
    assert_eq!(out.cross_table[1][2], "2 +");
}

#[test]
fn nobody_withdrawn_leaves_the_output_as_it_was() {
    let v = serde_json::json!({
        "discipline": "chess",
        "players": [{"id": "a"}, {"id": "b"}],
        "games": [{"round": 1, "white": "a", "black": "b", "result": "1-0"}]
    });
    let out = run(v).unwrap();
    let json = serde_json::to_value(&out).unwrap();
    assert!(json.get("withdrawals").is_none());
    assert!(json["standings"][0].get("withdrawn_from").is_none());
}

#[test]
fn bad_withdrawals_are_named() {
    let games = serde_json::json!([
        {"round": 1, "white": "a", "black": "d", "result": "0-2"},
        {"round": 2, "white": "d", "black": "c", "result": "1-1"}
    ]);
    assert_eq!(
        run(four(2, games.clone())).unwrap_err().to_string(),
        "withdrawn: player `d` has a result in round 2 but withdrew from round 2"
    );
    let mut v = four(3, games.clone());
    v["withdrawn"][0]["id"] = "x".into();
    assert_eq!(
        run(v).unwrap_err().to_string(),
        "withdrawn: unknown player `x`"
    );
    let mut v = four(3, games.clone());
    v["withdrawn"] =
        serde_json::json!([{"id": "d", "from_round": 3}, {"id": "d", "from_round": 4}]);
    assert_eq!(
        run(v).unwrap_err().to_string(),
        "withdrawn: player `d` is listed twice"
    );
    let v = four(0, games.clone());
    assert_eq!(
        run(v).unwrap_err().to_string(),
        "withdrawn: player `d` from_round must be at least 1"
    );
    let mut v = four(3, games);
    v["cycles"] = 0.into();
    assert_eq!(
        run(v).unwrap_err().to_string(),
        "cycles: must be from 1 to 10, not 0"
    );
}
