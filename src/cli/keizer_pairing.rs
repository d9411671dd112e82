//! `clubcomp calc keizer-pairing [FILE]`: the Keizer pairing of one evening (docs/rules/keizer.md#pairing), the
//! validation of a hand-made pairing, the proposed season calendar (docs/rules/keizer.md#calendar) and the
//! attendance of one evening (docs/rules/keizer.md#attendance-and-deadlines), as JSON in and JSON out. The format is documented in `docs/formats/keizer-pairing.md`.
//!
//! Exit codes: 0 success (pairing made, hand pairing valid, calendar made); 1 a rule answer
//! (no pairing possible, violations found, calendar impossible), still with JSON on standard
//! output; 2 unreadable or malformed input (message on standard error).

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::{Value, json};

use crate::limits::WorkLimits;

use clubcomp_engine::attendance::{AttendanceInput, attendance};
use clubcomp_engine::calendar::{CalendarInput, propose_calendar};
use clubcomp_engine::keizer::pairing::{HandPairing, PairingInput, pair_evening, validate_pairing};

/// Arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Input JSON file; standard input when omitted.
    pub file: Option<PathBuf>,
}

/// What went wrong with the input itself.
#[derive(Debug, thiserror::Error)]
enum InputError {
    #[error("cannot read input: {0}")]
    Read(#[from] std::io::Error),
    #[error("input is not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("input must be a JSON object")]
    NotAnObject,
    #[error("unknown mode {0:?} (expected \"pair\", \"validate\", \"calendar\" or \"attendance\")")]
    Mode(String),
    #[error("\"pairing\" (the hand-made pairing) is required in validate mode")]
    MissingPairing,
    #[error("{0}")]
    Limit(String),
}

/// Runs one request given as JSON text; returns the JSON answer and whether it is a success.
/// The work limits come from the environment (`LIMIT_*`), as the service reads them.
pub fn answer(text: &str) -> Result<(Value, bool), String> {
    answer_within(text, &super::limits()?)
}

/// [`answer`] within the given work limits.
pub fn answer_within(text: &str, limits: &WorkLimits) -> Result<(Value, bool), String> {
    answer_inner(text, limits).map_err(|e| e.to_string())
}

fn answer_inner(text: &str, limits: &WorkLimits) -> Result<(Value, bool), InputError> {
    let mut v: Value = serde_json::from_str(text)?;
    crate::calc_input::keizer_pairing(&v, limits).map_err(|e| InputError::Limit(e.to_string()))?;
    let obj = v.as_object_mut().ok_or(InputError::NotAnObject)?;
    let mode = match obj.remove("mode") {
        None => "pair".to_string(),
        Some(Value::String(s)) => s,
        Some(other) => return Err(InputError::Mode(other.to_string())),
    };
    match mode.as_str() {
        "pair" => {
            let input: PairingInput = serde_json::from_value(v)?;
            Ok(match pair_evening(&input) {
                Ok(p) => (json!({ "ok": true, "pairing": p }), true),
                Err(e) => (
                    json!({ "ok": false, "error": e, "message": e.to_string() }),
                    false,
                ),
            })
        }
        "validate" => {
            let hand = obj.remove("pairing").ok_or(InputError::MissingPairing)?;
            let hand: HandPairing = serde_json::from_value(hand)?;
            let input: PairingInput = serde_json::from_value(v)?;
            let violations = validate_pairing(&input, &hand);
            let list: Vec<Value> = violations
                .iter()
                .map(|x| {
                    let mut j = serde_json::to_value(x).unwrap_or(Value::Null);
                    if let Some(o) = j.as_object_mut() {
                        o.insert("message".into(), Value::String(x.to_string()));
                    }
                    j
                })
                .collect();
            let valid = list.is_empty();
            Ok((json!({ "valid": valid, "violations": list }), valid))
        }
        "calendar" => {
            let input: CalendarInput = serde_json::from_value(v)?;
            Ok(match propose_calendar(&input) {
                Ok(evenings) => (json!({ "ok": true, "evenings": evenings }), true),
                Err(e) => (
                    json!({ "ok": false, "error": e, "message": e.to_string() }),
                    false,
                ),
            })
        }
        "attendance" => {
            let input: AttendanceInput = serde_json::from_value(v)?;
            Ok(match attendance(&input) {
                Ok(a) => (json!({ "ok": true, "attendance": a }), true),
                Err(e) => (
                    json!({ "ok": false, "error": e, "message": e.to_string() }),
                    false,
                ),
            })
        }
        other => Err(InputError::Mode(other.to_string())),
    }
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    let text = match super::read_input(args.file.as_deref()) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{}", InputError::Read(e));
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
