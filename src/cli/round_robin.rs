//! `clubcomp calc round-robin [FILE]`: a round-robin scenario (JSON, from FILE or standard
//! input; format in `shared/formats/round-robin-scenario.md`) in, standings, shares, rights and
//! cross table (JSON) out on standard output. Bad input: a message on standard error and exit
//! code 1 (2 when the input cannot be read).

use crate::domain::round_robin::{Scenario, compute};
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
    let scenario: Scenario =
        serde_json::from_str(text).map_err(|e| format!("not a round-robin scenario: {e}"))?;
    let out = compute(&scenario).map_err(|e| e.to_string())?;
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
}
