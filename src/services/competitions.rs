//! Competitions: validation of kinds, systems, parameters, tie-break lists, time controls and
//! rule flags (docs/rules/README.md#time-controls, docs/rules/rapid-blitz.md#tie-breaks, docs/rules/draughts-championship.md#final-order-and-the-tie-break-chain), and the seed order of entrants.

use crate::db::models::competition::{Competition, Entrant};
use crate::error::{ApiError, ApiResult, FieldError};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

/// Competition kinds.
pub const KINDS: [&str; 4] = ["keizer", "swiss", "round_robin", "knockout"];
/// Disciplines.
pub const DISCIPLINES: [&str; 2] = ["chess", "draughts"];

/// One period of a time control.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Period {
    /// Moves in the period (absent for the final period).
    #[serde(default)]
    pub moves: Option<u32>,
    /// Minutes per player.
    pub minutes: u32,
}

/// A time control (docs/rules/README.md#time-controls), e.g. 40 moves in 90 minutes, then 30 minutes, +30 s from move 1.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"periods": [{"moves": 40, "minutes": 90}, {"minutes": 30}], "increment_seconds": 30, "increment_from_move": 1}))]
pub struct TimeControl {
    /// The periods (at least one), the last one without a move count.
    #[schema(min_items = 1)]
    pub periods: Vec<Period>,
    /// Increment per move in seconds (0: none).
    #[serde(default)]
    pub increment_seconds: u32,
    /// The move from which the increment applies (default 1).
    #[serde(default = "one")]
    pub increment_from_move: u32,
}

fn one() -> u32 {
    1
}

impl TimeControl {
    /// The club's Keizer tempo: 40/90, then 30 min, +30 s from move 1.
    pub fn club_default() -> TimeControl {
        TimeControl {
            periods: vec![
                Period {
                    moves: Some(40),
                    minutes: 90,
                },
                Period {
                    moves: None,
                    minutes: 30,
                },
            ],
            increment_seconds: 30,
            increment_from_move: 1,
        }
    }

    /// Checks the structure: at least one period, only the last one open-ended.
    pub fn check(&self, errs: &mut Vec<FieldError>) {
        if self.periods.is_empty() {
            errs.push(FieldError::new("time_control.periods", "must not be empty"));
        }
        for (i, p) in self.periods.iter().enumerate() {
            let last = i + 1 == self.periods.len();
            if p.minutes == 0 && !(last && self.increment_seconds > 0) {
                errs.push(FieldError::new(
                    format!("time_control.periods[{i}].minutes"),
                    "must be more than 0",
                ));
            }
            if !last && p.moves.is_none() {
                errs.push(FieldError::new(
                    format!("time_control.periods[{i}].moves"),
                    "only the last period may be open-ended",
                ));
            }
        }
    }
}

/// Validated settings of a competition.
#[derive(Debug, Clone)]
pub struct Settings {
    /// `keizer`, `swiss`, `round_robin`, `knockout`.
    pub kind: String,
    /// `chess` or `draughts`.
    pub discipline: String,
    /// Pairing system: `dutch` / `double_swiss` (swiss), `single` / `double` (round robin).
    pub system: Option<String>,
    /// Engine parameters (JSON object).
    pub params: Value,
    /// Tie-break names.
    pub tiebreaks: Vec<String>,
    /// Time control.
    pub time_control: TimeControl,
    /// Rule flags, e.g. `{"quickplay_finish": false}`.
    pub rules: Value,
}

/// Validates kind-specific settings, naming each bad field.
pub fn validate(s: &Settings) -> ApiResult<()> {
    let mut errs = Vec::new();
    if !KINDS.contains(&s.kind.as_str()) {
        errs.push(FieldError::new(
            "kind",
            format!("must be one of {}", KINDS.join(", ")),
        ));
    }
    if !DISCIPLINES.contains(&s.discipline.as_str()) {
        errs.push(FieldError::new("discipline", "must be chess or draughts"));
    }
    let systems: &[&str] = match s.kind.as_str() {
        "swiss" => &["dutch", "double_swiss"],
        "round_robin" => &["single", "double"],
        _ => &[],
    };
    match (&s.system, systems.is_empty()) {
        (Some(sys), false) if !systems.contains(&sys.as_str()) => errs.push(FieldError::new(
            "system",
            format!("for {} must be one of {}", s.kind, systems.join(", ")),
        )),
        (None, false) if s.kind == "swiss" => errs.push(FieldError::new(
            "system",
            "a swiss needs dutch or double_swiss",
        )),
        (Some(_), true) => errs.push(FieldError::new(
            "system",
            format!("a {} competition has no system", s.kind),
        )),
        _ => {}
    }
    if s.kind == "swiss" && s.discipline == "draughts" {
        errs.push(FieldError::new(
            "discipline",
            "swiss competitions are chess only",
        ));
    }
    if !s.params.is_object() {
        errs.push(FieldError::new("params", "must be an object"));
    } else if s.kind == "keizer" {
        let probe = serde_json::json!({"params": s.params, "players": [], "evenings": []});
        if let Err(e) = clubcomp_engine::keizer::scenario::parse_scenario(&probe) {
            errs.push(FieldError::new("params", e.to_string()));
        }
    }
    match s.kind.as_str() {
        "round_robin" => {
            for (i, t) in s.tiebreaks.iter().enumerate() {
                if serde_json::from_value::<clubcomp_engine::round_robin::scenario::Tiebreak>(
                    Value::String(t.clone()),
                )
                .is_err()
                {
                    errs.push(FieldError::new(
                        format!("tiebreaks[{i}]"),
                        format!("unknown round-robin tie-break {t:?}"),
                    ));
                }
            }
        }
        "swiss" => {
            for (i, t) in s.tiebreaks.iter().enumerate() {
                if clubcomp_engine::tiebreaks::parse_tiebreaks(t).is_err() {
                    errs.push(FieldError::new(
                        format!("tiebreaks[{i}]"),
                        format!("unknown FIDE tie-break {t:?}"),
                    ));
                }
            }
        }
        _ => {
            if !s.tiebreaks.is_empty() {
                errs.push(FieldError::new(
                    "tiebreaks",
                    format!("a {} competition has no tie-break list", s.kind),
                ));
            }
        }
    }
    s.time_control.check(&mut errs);
    if !s.rules.is_object()
        || s.rules
            .as_object()
            .is_some_and(|o| o.values().any(|v| !v.is_boolean()))
    {
        errs.push(FieldError::new(
            "rules",
            "must be an object of true/false flags",
        ));
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(ApiError::validation(errs))
    }
}

/// The default tie-break list of a kind (docs/rules/rapid-blitz.md#tie-breaks, docs/rules/draughts-championship.md#final-order-and-the-tie-break-chain).
pub fn default_tiebreaks(kind: &str, discipline: &str, system: Option<&str>) -> Vec<String> {
    let v: &[&str] = match (kind, discipline, system) {
        ("round_robin", "draughts", _) => &[
            "wins",
            "plusremise_balance",
            "plusremises",
            "mutual",
            "ranking_order",
            "lots",
        ],
        ("round_robin", _, _) => &["direct_encounter", "sonneborn_berger", "wins"],
        // docs/rules/rapid-blitz.md#tie-breaks: rapid (double swiss) and blitz: direct encounter, median Buchholz, SB
        ("swiss", _, _) => &["DE", "BH-M1", "SB"],
        _ => &[],
    };
    v.iter().map(|s| s.to_string()).collect()
}

/// Default rule flags (docs/rules/rapid-blitz.md#double-swiss, docs/rules/arbiter.md#quickplay-finish-fide-102): the quickplay-finish rule applies except in the rapid.
pub fn default_rules(kind: &str, system: Option<&str>) -> Value {
    let quickplay = !(kind == "swiss" && system == Some("double_swiss"));
    serde_json::json!({"quickplay_finish": quickplay})
}

/// Entrants in seed order: by rating (higher first), unrated below rated, then order of entry
/// (docs/rules/keizer.md#entrants).
pub fn seed_order(entrants: &mut [Entrant]) {
    entrants.sort_by(|a, b| match (a.rating, b.rating) {
        (Some(x), Some(y)) => y.cmp(&x).then(a.seed.cmp(&b.seed)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.seed.cmp(&b.seed),
    });
}

/// The rating source and date that seed a competition: KNSB (KNSB-rapid for a Double-Swiss,
/// KNDB for draughts) on 1 September of the season's first year (docs/rules/keizer.md#entrants).
pub fn seed_rating(
    c: &Competition,
    season_opening: chrono::NaiveDate,
) -> (&'static str, chrono::NaiveDate) {
    use chrono::Datelike;
    let source = match (c.discipline.as_str(), c.system.as_deref()) {
        ("draughts", _) => "KNDB",
        (_, Some("double_swiss")) => "KNSB-rapid",
        _ => "KNSB",
    };
    let year = if season_opening.month() >= 7 {
        season_opening.year()
    } else {
        season_opening.year() - 1
    };
    let date = chrono::NaiveDate::from_ymd_opt(year, 9, 1).unwrap_or(season_opening);
    (source, date)
}
