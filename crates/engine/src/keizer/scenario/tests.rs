//! Tests of the scenario format: reading, rejecting, and the exact JSON written.

use super::*;
use serde_json::json;

#[test]
fn the_documented_example_is_read() {
    let v = json!({
      "params": {
        "top_value": 60, "step": 1,
        "win": 1.0, "draw": 0.5, "loss": 5,
        "bye": 1.0, "excused": 0.3333, "excused_cap": 5, "forfeit_win": 1.0
      },
      "players": [
        {"id": "p1", "name": "A. Aalders", "rating": 2104},
        {"id": "p2", "name": "B. Bakker", "rating": 1980},
        {"id": "p9", "name": "late entrant", "rating": 1750, "joins_at": 3}
      ],
      "excused_before": {"p2": 4},
      "evenings": [
        {
          "games": [{"white": "p1", "black": "p2", "result": "1-0"}],
          "byes": [],
          "excused": [],
          "unexcused": []
        }
      ]
    });
    let c = parse_scenario(&v).unwrap();
    assert_eq!(c.params, Params::default());
    assert_eq!(c.players[2].joins_at, 3);
    assert_eq!(c.excused_before["p2"], 4);
    let out = run_scenario(&v).unwrap();
    // p1 (60) beats p2 (59): 59 and 5; p9 has not joined yet.
    assert_eq!(out.evenings[0].standings.len(), 2);
    assert_eq!(out.evenings[0].standings[0].score, Fixed::from_int(59));
}

#[test]
fn output_has_the_documented_fields_in_order() {
    // a–b draw: the two-ranking cycle, averages (29.5 + 30) / 2 = 29.75 each.
    let out = run_scenario_str(
        r#"{"players":[{"id":"a"},{"id":"b","rating":null}],
            "evenings":[{"games":[{"white":"a","black":"b","result":"½-½"}]}]}"#,
    )
    .unwrap();
    let text = serde_json::to_string(&out).unwrap();
    assert_eq!(
        text,
        concat!(
            r#"{"evenings":[{"number":1,"converged":false,"iterations":3,"cycle_length":2,"#,
            r#""warnings":[],"standings":["#,
            r#"{"rank":1,"id":"a","value":60,"score":29.75,"played":1,"game_points":0.5,"#,
            r#""byes":0,"excused":0,"unexcused":0},"#,
            r#"{"rank":2,"id":"b","value":59,"score":29.75,"played":1,"game_points":0.5,"#,
            r#""byes":0,"excused":0,"unexcused":0}]}]}"#
        )
    );
    // and it reads back into the same value (for the service's clients and tests)
    let back: KeizerOutput = serde_json::from_str(&text).unwrap();
    assert_eq!(back, out);
}

#[test]
fn whole_scores_print_as_numbers_with_a_decimal_point() {
    // R_0 = [p1 60, p2 59, p3 58]; p1 beats p2, p3 excused.
    // S_0: p1 = 59, p2 = 5, p3 = 0.3333 × 58 = 19.3314 → R_1 = [p1, p3, p2]
    // S_1: p1 = value(p2) = 58 → "58.0", p3 = 0.3333 × 59 = 19.6647, p2 = 5 → converged.
    let out = run_scenario_str(
        r#"{"players":[{"id":"p1"},{"id":"p2"},{"id":"p3"}],
            "evenings":[{"games":[{"white":"p1","black":"p2","result":"1-0"}],
                         "excused":["p3"]}]}"#,
    )
    .unwrap();
    let text = serde_json::to_string(&out).unwrap();
    assert!(
        text.contains(r#""id":"p1","value":60,"score":58.0"#),
        "{text}"
    );
    assert!(
        text.contains(r#""id":"p3","value":59,"score":19.6647"#),
        "{text}"
    );
    assert!(
        text.contains(r#""id":"p2","value":58,"score":5.0"#),
        "{text}"
    );
}

fn err(v: serde_json::Value) -> String {
    run_scenario(&v).unwrap_err().to_string()
}

#[test]
fn bad_input_is_rejected_with_the_evening_and_the_player() {
    let players = json!([{"id": "a"}, {"id": "b"}]);
    assert_eq!(
        err(json!({"players": players, "evenings": [{}, {"byes": ["x"]}]})),
        "evening 2: unknown player \"x\""
    );
    assert_eq!(
        err(json!({"players": players, "evenings": [
            {"games": [{"white": "a", "black": "b", "result": "1-0"}], "excused": ["b"]}]})),
        "evening 1: player \"b\" appears more than once"
    );
    assert_eq!(
        err(json!({"players": players, "evenings": [
            {"games": [{"white": "a", "black": "b", "result": "2-0"}]}]})),
        "evening 1, game a – b: unknown result code \"2-0\""
    );
    assert_eq!(
        err(json!({"players": players, "evenings": [
            {"games": [{"white": "a", "black": "a", "result": "1-0"}]}]})),
        "evening 1: player \"a\" appears more than once"
    );
    assert_eq!(
        err(json!({"params": {"excused": 0.33333}, "players": players})),
        "params.excused: 0.33333 has more than 4 decimals"
    );
    assert_eq!(
        err(json!({"params": {"wins": 1}, "players": players})),
        "params.wins: is not a Keizer parameter"
    );
    assert_eq!(
        err(json!({"players": [{"id": "a"}, {"id": "a"}]})),
        "player \"a\" is listed twice in players"
    );
    assert!(err(json!({"players": players, "excused_before": {"z": 1}})).contains("\"z\""));
    assert!(run_scenario_str("{").is_err());
}

#[test]
fn all_result_codes_are_read() {
    for (code, r) in [
        ("1-0", KeizerResult::WhiteWins),
        ("0-1", KeizerResult::BlackWins),
        ("1/2-1/2", KeizerResult::Draw),
        ("½-½", KeizerResult::Draw),
        ("+/-", KeizerResult::WhiteForfeitWin),
        ("-/+", KeizerResult::BlackForfeitWin),
        ("-/-", KeizerResult::DoubleForfeit),
    ] {
        assert_eq!(parse_result(code), Some(r), "{code}");
    }
    assert_eq!(parse_result("1:0"), None);
}

#[test]
fn the_scenario_gives_up_when_stopped() {
    use std::sync::atomic::AtomicBool;
    let (go, halt) = (AtomicBool::new(false), AtomicBool::new(true));
    let v = json!({"players": [{"id": "a"}, {"id": "b"}],
        "evenings": [{"games": [{"white": "a", "black": "b", "result": "1-0"}]}]});
    assert!(run_scenario_until(&v, &go).is_ok());
    assert!(matches!(
        run_scenario_until(&v, &halt),
        Err(ScenarioError::Rule(StandingsError::Stopped))
    ));
}
