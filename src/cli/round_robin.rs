//! `clubcomp calc round-robin [FILE]`: a round-robin scenario (JSON, from FILE or standard
//! input; format in `docs/formats/round-robin-scenario.md`) in, standings, shares, rights and
//! cross table (JSON) out on standard output. Bad input: a message on standard error and exit
//! code 1 (2 when the input cannot be read).

use clubcomp_engine::round_robin::{Scenario, compute_round_robin};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Input JSON file; standard input when omitted (or `-`).
    pub file: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    let name = args
        .file
        .as_ref()
        .map_or_else(|| "standard input".to_string(), |p| p.display().to_string());
    let text = match super::read_input(args.file.as_deref()) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read {name}: {e}");
            return ExitCode::from(2);
        }
    };
    match calc(&text) {
        Ok(json) => {
            println!("{json}");
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("error: {name}: {msg}");
            ExitCode::from(1)
        }
    }
}

/// The whole calculation on text: the output JSON, or a message saying what is wrong.
pub fn calc(text: &str) -> Result<String, String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not a round-robin scenario: {e}"))?;
    crate::calc_input::round_robin_scenario(&v, &super::limits()?).map_err(|e| e.to_string())?;
    let scenario: Scenario =
        serde_json::from_value(v).map_err(|e| format!("not a round-robin scenario: {e}"))?;
    let out = compute_round_robin(&scenario).map_err(|e| e.to_string())?;
    serde_json::to_string_pretty(&out).map_err(|e| format!("cannot write the output: {e}"))
}

#[cfg(test)]
mod tests {
    use super::calc;

    #[test]
    fn bad_input_says_what_is_wrong() {
        let e = calc("{").unwrap_err();
        assert!(e.contains("not a round-robin scenario"), "{e}");
        let e = calc(r#"{"discipline":"go","players":[]}"#).unwrap_err();
        assert!(e.contains("unknown variant"), "{e}");
        let e = calc(
            r#"{"discipline":"draughts","players":[{"id":"a"},{"id":"b"}],
                "games":[{"round":1,"white":"a","black":"b","result":"1-0"}]}"#,
        )
        .unwrap_err();
        assert!(e.contains("round 1 (a - b)") && e.contains("1-0"), "{e}");
        let e = calc(
            r#"{"discipline":"draughts","players":[{"id":"a"},{"id":"b"}],
                "games":[{"round":1,"white":"a","black":"x","result":"2-0"}]}"#,
        )
        .unwrap_err();
        assert!(e.contains("unknown player `x`"), "{e}");
    }

    #[test]
    fn small_chess_field() {
        let out = calc(
            r#"{"discipline":"chess","players":[{"id":"a"},{"id":"b"},{"id":"c"}],
                "games":[{"round":1,"white":"b","black":"c","result":"½-½"},
                         {"round":2,"white":"c","black":"a","result":"0-1"},
                         {"round":3,"white":"a","black":"b","result":"1/2-1/2"}],
                "tiebreaks":["direct_encounter"]}"#,
        )
        .unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        // a: 1 + ½ = 1.5; b: ½ + ½ = 1; c: ½ + 0 = 0.5
        assert_eq!(v["standings"][0]["id"], "a");
        assert_eq!(v["standings"][0]["points"], 1.5);
        assert_eq!(v["standings"][1]["points"], 1);
        assert_eq!(v["standings"][2]["points"], 0.5);
        assert_eq!(v["cross_table"][0][1], "½");
        assert_eq!(v["cross_table"][0][2], "1");
        assert_eq!(v["cross_table"][2][0], "0");
        assert_eq!(v["cross_table"][1][1], "");
    }

    #[test]
    fn a_withdrawal_at_half_annuls_the_results() {
        // chess, three players each due 2: c drew with a and withdrew from round 3 having
        // played 1 of 2 — not more than half, so the draw is annulled; b beat a: b 1, a 0
        let out = calc(
            r#"{"discipline":"chess","players":[{"id":"a"},{"id":"b"},{"id":"c"}],
                "games":[{"round":1,"white":"a","black":"c","result":"½-½"},
                         {"round":2,"white":"b","black":"a","result":"1-0"}],
                "tiebreaks":["wins"],
                "withdrawn":[{"id":"c","from_round":3}]}"#,
        )
        .unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["standings"].as_array().unwrap().len(), 2);
        assert_eq!(v["standings"][0]["id"], "b");
        assert_eq!(v["standings"][1]["points"], 0);
        assert_eq!(v["withdrawals"][0]["rule"], "results_annulled");
        assert_eq!(v["cross_table"][0][2], "");
    }

    /// The format's field names and a small draughts field worked by hand.
    #[test]
    fn scenario_format_end_to_end() {
        let out = calc(
            r#"{
  "discipline": "draughts",
  "players": [{"id": "a", "name": "A"}, {"id": "b"}, {"id": "c"}, {"id": "g"}],
  "games": [
    {"round": 1, "white": "a", "black": "g", "result": "1+-1-"},
    {"round": 1, "white": "b", "black": "c", "result": "2-0"},
    {"round": 2, "white": "g", "black": "c", "result": "1-1"},
    {"round": 2, "white": "a", "black": "b", "result": "1-1", "termination": "agreed", "moves": 22},
    {"round": 3, "white": "b", "black": "g", "result": "-/+"},
    {"round": 3, "white": "c", "black": "a"}
  ],
  "tiebreaks": ["wins", "plusremise_balance", "plusremises", "mutual", "ranking_order", "lots"],
  "lots_seed": 2007,
  "points_tables": [{"name": "grandmaster", "by_place": [3, 2, 1]}],
  "excluded_from_points": ["g"],
  "prize_money": [1500, 1000, 750],
  "rights": [
    {"name": "champion", "kind": "title", "places": 1},
    {"name": "world_championship", "kind": "qualification", "slots": 2, "prequalified": ["b"]},
    {"name": "next_final", "kind": "cut", "places": 2, "others": "semi_final"}
  ]
}"#,
        )
        .unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let rows = v["standings"].as_array().unwrap();
        let keys: Vec<&String> = rows[0].as_object().unwrap().keys().collect();
        let mut expected = vec![
            "place",
            "shared_with",
            "id",
            "points",
            "games",
            "wins",
            "draws",
            "losses",
            "plusremises",
            "minremises",
            "tiebreaks",
            "decided_by",
            "points_tables",
            "prize_money",
            "rights",
        ];
        expected.sort();
        assert_eq!(keys, expected);
        // a-b agreed after 22 moves → 0-0; c-a unplayed.
        // a: 1+ (1) + 0 = 1; b: 0 + 2 + forfeit loss 0 = 2; c: 0 + 1 = 1; g: 1- + 1 + 2 = 4
        let ids: Vec<&str> = rows.iter().map(|r| r["id"].as_str().unwrap()).collect();
        // a and c: 1 point, 0 wins, balance +1 against 0
        assert_eq!(ids, ["g", "b", "a", "c"]);
        assert_eq!(rows[2]["decided_by"], "plusremise_balance");
        assert_eq!(rows[3]["decided_by"], serde_json::Value::Null);
        assert_eq!(rows[0]["wins"], 1); // the forfeit win
        assert_eq!(rows[1]["losses"], 2); // 0-0 and the forfeit
        // grandmaster without g: b 1st → 3; a, c share places 2-3 → (2 + 1) / 2
        let gm: Vec<&str> = rows
            .iter()
            .map(|r| r["points_tables"]["grandmaster"].as_str().unwrap())
            .collect();
        assert_eq!(gm, ["0", "3", "1.5", "1.5"]);
        // money counts g: 1500, 1000, then a and c share place 3-4: 750 / 2
        let money: Vec<&str> = rows
            .iter()
            .map(|r| r["prize_money"].as_str().unwrap())
            .collect();
        assert_eq!(money, ["1500", "1000", "375", "375"]);
        assert_eq!(
            rows[0]["rights"],
            serde_json::json!(["champion", "world_championship", "next_final"])
        );
        assert_eq!(rows[1]["rights"], serde_json::json!(["next_final"]));
        assert_eq!(
            rows[2]["rights"],
            serde_json::json!(["world_championship", "semi_final"])
        );
        assert_eq!(
            v["cross_table"],
            serde_json::json!([
                ["", "0", "", "1+"],
                ["0", "", "2", "-"],
                ["", "0", "", "1"],
                ["1-", "+", "1", ""]
            ])
        );
    }
}
