//! Bad input is refused with an error naming the offending item.

use super::*;

fn base() -> serde_json::Value {
    serde_json::json!({
        "discipline": "draughts",
        "players": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
        "games": [
            {"round": 1, "white": "b", "black": "c", "result": "2-0"},
            {"round": 2, "white": "a", "black": "b", "result": "1-1"}
        ],
        "tiebreaks": ["wins"]
    })
}

fn run(v: serde_json::Value) -> Result<RoundRobinOutput, RoundRobinError> {
    compute_round_robin(&serde_json::from_value::<Scenario>(v).unwrap())
}

#[test]
fn players_and_games() {
    let mut v = base();
    v["players"][2]["id"] = "a".into();
    assert_eq!(run(v), Err(RoundRobinError::DuplicatePlayer("a".into())));

    let mut v = base();
    v["games"][1]["black"] = "a".into();
    let e = run(v).unwrap_err();
    assert_eq!(
        e.to_string(),
        "game round 2 (a - a): a player cannot play himself"
    );

    let mut v = base();
    v["games"][1]["round"] = 1.into();
    assert_eq!(
        run(v),
        Err(RoundRobinError::PlaysTwice {
            player: "b".into(),
            round: 1
        })
    );

    let mut v = base();
    v["games"][0]["result"] = "1-0".into();
    let e = run(v).unwrap_err().to_string();
    assert!(e.contains("round 1 (b - c)") && e.contains("`1-0`"), "{e}");

    let mut v = base();
    v["games"][1]["termination"] = "agreed".into();
    let e = run(v).unwrap_err().to_string();
    assert!(
        e.contains("round 2 (a - b)") && e.contains("number of moves"),
        "{e}"
    );
}

#[test]
fn lists_and_amounts() {
    let mut v = base();
    v["tiebreaks"] = serde_json::json!(["wins", "mutual", "wins"]);
    assert_eq!(
        run(v),
        Err(RoundRobinError::DuplicateTiebreak("wins".into()))
    );

    let mut v = base();
    v["excluded_from_points"] = serde_json::json!(["z"]);
    assert_eq!(
        run(v).unwrap_err().to_string(),
        "excluded_from_points: unknown player `z`"
    );

    let mut v = base();
    v["prize_money"] = serde_json::json!([100, -5]);
    assert_eq!(
        run(v).unwrap_err().to_string(),
        "prize_money: `-5` is not a non-negative amount with at most 4 decimals"
    );

    let mut v = base();
    v["rights"] = serde_json::json!([
        {"name": "wc", "kind": "qualification", "slots": 1, "prequalified": ["q"]}
    ]);
    assert_eq!(
        run(v).unwrap_err().to_string(),
        "rights.wc.prequalified: unknown player `q`"
    );

    let mut v = base();
    v["points_tables"] = serde_json::json!([
        {"name": "gm", "by_place": [3]}, {"name": "gm", "by_place": [1]}
    ]);
    assert_eq!(run(v), Err(RoundRobinError::DuplicateTable("gm".into())));
}

#[test]
fn unplayed_games_count_nowhere() {
    let mut v = base();
    v["games"][0]["result"] = "*".into();
    let out = run(v).unwrap();
    // a 1, b 1, c 0; b-c unplayed: empty cells
    assert_eq!(out.cross_table[1][2], "");
    assert_eq!(out.standings[2].id, "c");
    assert_eq!(out.standings[2].games, 0);
    // a and b: 1 point, 0 wins: tied, both place 1, listed by id
    assert_eq!((out.standings[0].place, out.standings[1].place), (1, 1));
    assert_eq!(out.standings[0].shared_with, ["b"]);
    assert_eq!(
        out.standings[1].decided_by.map(|d| d.name()),
        Some("points")
    );
    assert_eq!(out.standings[2].place, 3);
}
