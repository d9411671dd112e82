//! The Keizer scenario format (`docs/formats/keizer-scenario.md`): one season half as JSON in,
//! the standings after every evening as JSON out. Used by `clubcomp calc keizer` and, with the
//! very same types, by the service's stateless calculator endpoint.
//!
//! The input is read from a [`serde_json::Value`] by hand so that factors are read exactly
//! (at most 4 decimals) and every error names the evening and the player (or the field).
//! The whole input is checked before anything is computed.

use crate::fixed::Fixed;
use crate::keizer::standings::{
    Competition, Entrant, EveningStandings, KeizerEvening, KeizerGame, KeizerResult, Params,
    StandingsError, WithdrawnPrizes, compute_until,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The calculator's output: the standings after every evening.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeizerOutput {
    /// One entry per input evening, in order.
    pub evenings: Vec<EveningStandings>,
}

/// Why a scenario was rejected (nothing is computed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScenarioError {
    /// Not JSON at all.
    #[error("not valid JSON: {0}")]
    Json(String),
    /// A field has the wrong shape or value; `at` says where (e.g. `evening 3, game 2`).
    #[error("{at}: {reason}")]
    Field {
        /// Where: the evening and player, or the field path.
        at: String,
        /// What is wrong.
        reason: String,
    },
    /// A result code that is not in the format.
    #[error("evening {evening}, game {white} – {black}: unknown result code \"{code}\"")]
    UnknownResult {
        /// Evening number, 1-based.
        evening: u32,
        /// White player's id.
        white: String,
        /// Black player's id.
        black: String,
        /// The code given.
        code: String,
    },
    /// A rule of the engine (unknown player, a player twice on one evening, …).
    #[error(transparent)]
    Rule(#[from] StandingsError),
}

fn field(at: impl Into<String>, reason: impl Into<String>) -> ScenarioError {
    ScenarioError::Field {
        at: at.into(),
        reason: reason.into(),
    }
}

/// Runs a scenario given as JSON text.
pub fn run_scenario_str(text: &str) -> Result<KeizerOutput, ScenarioError> {
    let v: Value = serde_json::from_str(text).map_err(|e| ScenarioError::Json(e.to_string()))?;
    run_scenario(&v)
}

/// Runs a scenario given as a parsed JSON value (the service's `POST /api/v1/calc/keizer`).
pub fn run_scenario(input: &Value) -> Result<KeizerOutput, ScenarioError> {
    run_scenario_until(input, &crate::stop::Never)
}

/// [`run_scenario`] that gives up once `stop` is raised (looked at before every evening).
pub fn run_scenario_until(
    input: &Value,
    stop: &dyn crate::stop::Stop,
) -> Result<KeizerOutput, ScenarioError> {
    let c = parse_scenario(input)?;
    Ok(KeizerOutput {
        evenings: compute_until(&c, stop)?,
    })
}

/// Reads a scenario into the engine's [`Competition`] without computing anything.
pub fn parse_scenario(input: &Value) -> Result<Competition, ScenarioError> {
    let top = input
        .as_object()
        .ok_or_else(|| field("input", "must be a JSON object"))?;
    let params = match top.get("params") {
        None | Some(Value::Null) => Params::default(),
        Some(v) => parse_params(v)?,
    };
    let players = match top.get("players") {
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, p)| parse_player(i, p))
            .collect::<Result<Vec<_>, _>>()?,
        None | Some(Value::Null) => Vec::new(),
        Some(_) => return Err(field("players", "must be an array")),
    };
    let mut excused_before = BTreeMap::new();
    match top.get("excused_before") {
        None | Some(Value::Null) => {}
        Some(Value::Object(m)) => {
            for (id, n) in m {
                let at = format!("excused_before, player \"{id}\"");
                excused_before.insert(id.clone(), count(n, &at)?);
            }
        }
        Some(_) => return Err(field("excused_before", "must be an object")),
    }
    let evenings = match top.get("evenings") {
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(k, e)| parse_evening(k as u32 + 1, e))
            .collect::<Result<Vec<_>, _>>()?,
        None | Some(Value::Null) => Vec::new(),
        Some(_) => return Err(field("evenings", "must be an array")),
    };
    Ok(Competition {
        params,
        players,
        excused_before,
        evenings,
    })
}

fn count(v: &Value, at: &str) -> Result<u32, ScenarioError> {
    v.as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| field(at, format!("must be a whole number ≥ 0, not {v}")))
}

fn decimal(v: &Value, at: &str) -> Result<Fixed, ScenarioError> {
    let Value::Number(n) = v else {
        return Err(field(at, format!("must be a number, not {v}")));
    };
    let f = Fixed::from_json_number(n).map_err(|e| field(at, format!("{n} {e}")))?;
    if f < Fixed::ZERO {
        return Err(field(at, format!("must not be negative, not {n}")));
    }
    Ok(f)
}

fn whole(v: &Value, at: &str) -> Result<i64, ScenarioError> {
    let f = decimal(v, at)?;
    if f.units() % crate::fixed::SCALE != 0 {
        return Err(field(at, format!("must be a whole number, not {v}")));
    }
    Ok(f.units() / crate::fixed::SCALE)
}

fn parse_params(v: &Value) -> Result<Params, ScenarioError> {
    let m = v
        .as_object()
        .ok_or_else(|| field("params", "must be an object"))?;
    let mut p = Params::default();
    for (key, val) in m {
        let at = format!("params.{key}");
        match key.as_str() {
            "top_value" => p.top_value = whole(val, &at)?,
            "step" => p.step = whole(val, &at)?,
            "excused_cap" => p.excused_cap = count(val, &at)?,
            "win" => p.win = decimal(val, &at)?,
            "draw" => p.draw = decimal(val, &at)?,
            "loss" => p.loss = decimal(val, &at)?,
            "bye" => p.bye = decimal(val, &at)?,
            "excused" => p.excused = decimal(val, &at)?,
            "forfeit_win" => p.forfeit_win = decimal(val, &at)?,
            "withdrawn_prizes" => {
                p.withdrawn_prizes = serde_json::from_value::<WithdrawnPrizes>(val.clone())
                    .map_err(|_| field(at, "must be \"eligible\" or \"excluded\""))?
            }
            _ => return Err(field(at, "is not a Keizer parameter")),
        }
    }
    Ok(p)
}

fn parse_player(i: usize, v: &Value) -> Result<Entrant, ScenarioError> {
    let at = format!("players[{i}]");
    let m = v
        .as_object()
        .ok_or_else(|| field(&at, "must be an object"))?;
    let id = match m.get("id") {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        _ => return Err(field(&at, "needs a non-empty string \"id\"")),
    };
    let at = format!("player \"{id}\"");
    let rating = match m.get("rating") {
        None | Some(Value::Null) => None,
        Some(r) => Some(
            r.as_i64()
                .and_then(|x| i32::try_from(x).ok())
                .ok_or_else(|| field(&at, format!("rating must be a whole number, not {r}")))?,
        ),
    };
    let joins_at = match m.get("joins_at") {
        None | Some(Value::Null) => 1,
        Some(j) => match count(j, &format!("{at}, joins_at"))? {
            0 => return Err(field(&at, "joins_at must be at least 1")),
            n => n,
        },
    };
    let withdrawn_from = match m.get("withdrawn_from") {
        None | Some(Value::Null) => None,
        Some(w) => match count(w, &format!("{at}, withdrawn_from"))? {
            n if n <= joins_at => {
                return Err(field(&at, "withdrawn_from must be after joins_at"));
            }
            n => Some(n),
        },
    };
    Ok(Entrant {
        id,
        rating,
        joins_at,
        withdrawn_from,
    })
}

fn ids(m: &Map<String, Value>, key: &str, evening: u32) -> Result<Vec<String>, ScenarioError> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| match x {
                Value::String(s) => Ok(s.clone()),
                _ => Err(field(
                    format!("evening {evening}, {key}"),
                    format!("player {x} must be a string id"),
                )),
            })
            .collect(),
        Some(_) => Err(field(
            format!("evening {evening}, {key}"),
            "must be an array",
        )),
    }
}

/// The result codes of the format.
pub fn parse_result(code: &str) -> Option<KeizerResult> {
    Some(match code {
        "1-0" => KeizerResult::WhiteWins,
        "0-1" => KeizerResult::BlackWins,
        "1/2-1/2" | "½-½" => KeizerResult::Draw,
        "+/-" => KeizerResult::WhiteForfeitWin,
        "-/+" => KeizerResult::BlackForfeitWin,
        "-/-" => KeizerResult::DoubleForfeit,
        _ => return None,
    })
}

fn parse_evening(evening: u32, v: &Value) -> Result<KeizerEvening, ScenarioError> {
    let at = format!("evening {evening}");
    let m = v
        .as_object()
        .ok_or_else(|| field(&at, "must be an object"))?;
    let mut games = Vec::new();
    match m.get("games") {
        None | Some(Value::Null) => {}
        Some(Value::Array(a)) => {
            for (g, gv) in a.iter().enumerate() {
                let gat = format!("evening {evening}, game {}", g + 1);
                let gm = gv
                    .as_object()
                    .ok_or_else(|| field(&gat, "must be an object"))?;
                let side = |k: &str| match gm.get(k) {
                    Some(Value::String(s)) => Ok(s.clone()),
                    _ => Err(field(&gat, format!("needs a string \"{k}\" player id"))),
                };
                let (white, black) = (side("white")?, side("black")?);
                if white == black {
                    return Err(StandingsError::Twice {
                        evening,
                        player: white,
                    }
                    .into());
                }
                let code = match gm.get("result") {
                    Some(Value::String(s)) => s.clone(),
                    other => other.map(|x| x.to_string()).unwrap_or_default(),
                };
                let Some(result) = parse_result(code.trim()) else {
                    return Err(ScenarioError::UnknownResult {
                        evening,
                        white,
                        black,
                        code,
                    });
                };
                games.push(KeizerGame {
                    white,
                    black,
                    result,
                });
            }
        }
        Some(_) => return Err(field(format!("{at}, games"), "must be an array")),
    }
    Ok(KeizerEvening {
        games,
        byes: ids(m, "byes", evening)?,
        excused: ids(m, "excused", evening)?,
        unexcused: ids(m, "unexcused", evening)?,
    })
}

#[cfg(test)]
mod tests;
