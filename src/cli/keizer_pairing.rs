//! `clubcomp calc keizer-pairing [FILE]`: the Keizer pairing of one evening (docs/rules/keizer.md#pairing), the
//! validation of a hand-made pairing, the proposed season calendar (docs/rules/keizer.md#calendar) and the
//! attendance of one evening (docs/rules/keizer.md#attendance-and-deadlines), as JSON in and JSON out. The format is documented in `docs/formats/keizer-pairing.md`.
//!
//! Exit codes: 0 success (pairing made, hand pairing valid, calendar made); 1 a rule answer
//! (no pairing possible, violations found, calendar impossible), still with JSON on standard
//! output; 2 unreadable or malformed input (message on standard error).

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::Value;

use crate::limits::WorkLimits;
use crate::services::calc::{self, KeizerPairingInputError};

/// Arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Input JSON file; standard input when omitted.
    pub file: Option<PathBuf>,
}

/// Runs one request given as JSON text; returns the JSON answer and whether it is a success.
/// The work limits come from the environment (`LIMIT_*`), as the service reads them.
pub fn answer(text: &str) -> Result<(Value, bool), String> {
    answer_within(text, &super::limits()?)
}

/// [`answer`] within the given work limits.
pub fn answer_within(text: &str, limits: &WorkLimits) -> Result<(Value, bool), String> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| KeizerPairingInputError::Json(e).to_string())?;
    calc::keizer_pairing(v, limits).map_err(|e| e.to_string())
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    let text = match super::read_input(args.file.as_deref()) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read input: {e}");
            return ExitCode::from(2);
        }
    };
    match answer(&text) {
        Ok((out, success)) => {
            match serde_json::to_string_pretty(&out) {
                Ok(s) => println!("{s}"),
                Err(e) => {
                    eprintln!("cannot write output: {e}");
                    return ExitCode::from(2);
                }
            }
            if success {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(msg) => {
            eprintln!("{msg}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_mode_round_trip() {
        // a–b met on evening 1; on evening 3: a–c, b–d (cost 4 + 4 = 8, see the engine tests)
        let (out, ok) = answer(
            r#"{"evening": 3, "half": "winter", "bye_seed": 1,
                "ranking": [{"id": "a", "present": true}, {"id": "b", "present": true},
                            {"id": "c", "present": true}, {"id": "d", "present": true}],
                "history": [{"a": "a", "b": "b", "evening": 1, "half": "winter"}]}"#,
        )
        .unwrap();
        assert!(ok);
        assert_eq!(out["pairing"]["boards"][0]["white"], "a");
        assert_eq!(out["pairing"]["boards"][0]["black"], "c");
        assert_eq!(out["pairing"]["cost"], 8);
    }

    #[test]
    fn validate_mode_names_the_rule() {
        let (out, ok) = answer(
            r#"{"mode": "validate", "evening": 3, "half": "winter",
                "ranking": [{"id": "a", "present": true}, {"id": "b", "present": true}],
                "history": [{"a": "a", "b": "b", "evening": 1, "half": "winter"}],
                "pairing": {"boards": [{"white": "a", "black": "b"}]}}"#,
        )
        .unwrap();
        assert!(!ok);
        assert_eq!(out["violations"][0]["violation"], "constraint");
        assert_eq!(out["violations"][0]["rule"], "half_limit");
        assert_eq!(out["violations"][1]["rule"], "too_soon");
    }

    #[test]
    fn attendance_mode() {
        // Friday 30 Oct 2026: deadline Thu 29 Oct 18:00 CET = 17:00 UTC; sign-off at 17:30 UTC
        // is late → unexcused.
        let (out, ok) = answer(
            r#"{"mode": "attendance", "date": "2026-10-30", "start_time": "20:15:00",
                "kind": "keizer", "players": [{"id": "a", "membership": "fixed"}],
                "changes": [{"player": "a", "at": "2026-10-29T17:30:00Z", "action": "sign_off",
                             "recorded_by": "member", "channel": "account",
                             "evenings": ["2026-10-30"]}]}"#,
        )
        .unwrap();
        assert!(ok);
        assert_eq!(out["attendance"]["deadline"], "2026-10-29T17:00:00Z");
        assert_eq!(out["attendance"]["players"][0]["status"], "unexcused");
    }

    #[test]
    fn malformed_input_is_an_input_error() {
        assert!(answer("[]").is_err());
        assert!(answer(r#"{"mode": "dance"}"#).is_err());
        assert!(answer(r#"{"evening": 1}"#).is_err());
        assert!(
            answer(r#"{"mode": "validate", "evening": 1, "half": "winter", "ranking": []}"#)
                .is_err()
        );
    }
}
