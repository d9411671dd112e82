//! The stateless calculators' shared entry points: the command line (`clubcomp calc …`) and the
//! HTTP calculators (`POST /calc/…`) call these with parsed JSON, so both answer the same.

use serde_json::{Value, json};

use crate::limits::WorkLimits;

use clubcomp_engine::attendance::{AttendanceInput, attendance};
use clubcomp_engine::calendar::{CalendarInput, propose_calendar};
use clubcomp_engine::keizer::{HandPairing, PairingInput, pair_evening, validate_pairing};

/// What is wrong with a Keizer pairing request itself (as opposed to a rule answer such as "no
/// pairing possible", which is part of the JSON answer).
#[derive(Debug, thiserror::Error)]
pub enum KeizerPairingInputError {
    /// A field does not have the documented shape.
    #[error("input is not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// The request is not a JSON object.
    #[error("input must be a JSON object")]
    NotAnObject,
    /// The `mode` is not one of the four.
    #[error("unknown mode {0:?} (expected \"pair\", \"validate\", \"calendar\" or \"attendance\")")]
    Mode(String),
    /// Validate mode without the hand-made pairing.
    #[error("\"pairing\" (the hand-made pairing) is required in validate mode")]
    MissingPairing,
    /// Over a work limit.
    #[error("{0}")]
    Limit(String),
}

/// One Keizer pairing request (`docs/formats/keizer-pairing.md`): the pairing of one evening, the
/// validation of a hand-made pairing, the proposed season calendar or the attendance of one
/// evening. Returns the JSON answer and whether it is a success (pairing made, hand pairing
/// valid, calendar made).
pub fn keizer_pairing(
    mut v: Value,
    limits: &WorkLimits,
) -> Result<(Value, bool), KeizerPairingInputError> {
    use KeizerPairingInputError as InputError;
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
