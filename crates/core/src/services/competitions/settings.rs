//! A competition's settings as requested and as stored: time controls, tie-break lists, rule
//! flags, their defaults, and the seed order of entrants.

use crate::error::{ApiError, ApiResult, FieldError};
/// A stored competition: the row is the record.
pub use crate::store::models::competition::Competition;
use crate::store::models::competition::Entrant;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::*;
use crate::vocab::CompetitionTiebreak;
use clubcomp_engine::arbiter::quickplay;
use clubcomp_engine::round_robin::RoundRobinTiebreak;
use clubcomp_engine::tiebreaks::{Cut, Tiebreak};
use clubcomp_engine::{CompetitionKind, Discipline, PairingSystem};

/// One period of a time control.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Period {
    /// Moves in the period, 1–200 (absent for the final period).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 200)]
    pub moves: Option<u32>,
    /// Minutes per player, 0–600.
    #[schema(minimum = 0, maximum = 600)]
    pub minutes: u32,
}

/// A time control (docs/rules/README.md#time-controls), e.g. 40 moves in 90 minutes, then 30 minutes, +30 s from move 1.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"periods": [{"moves": 40, "minutes": 90}, {"minutes": 30}], "increment_seconds": 30, "increment_from_move": 1}))]
pub struct TimeControl {
    /// The periods (one to five), the last one without a move count.
    #[schema(min_items = 1, max_items = 5)]
    pub periods: Vec<Period>,
    /// Increment per move in seconds, 0–600 (0: none).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 600)]
    pub increment_seconds: u32,
    /// The move from which the increment applies, 1–200 (default 1).
    #[serde(default = "one")]
    #[schema(minimum = 1, maximum = 200)]
    pub increment_from_move: u32,
}

pub(super) fn one() -> u32 {
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

    /// The time control in the engines' terms (an increment of 0 seconds is none).
    pub fn to_engine(&self) -> quickplay::TimeControl {
        quickplay::TimeControl {
            periods: self
                .periods
                .iter()
                .map(|p| quickplay::Period {
                    moves: p.moves,
                    minutes: p.minutes,
                })
                .collect(),
            increment: (self.increment_seconds > 0).then_some(quickplay::Increment {
                seconds: self.increment_seconds,
                from_move: self.increment_from_move,
            }),
        }
    }

    /// Checks the structure: at least one period, only the last one open-ended.
    pub fn check(&self, errs: &mut Vec<FieldError>) {
        if self.periods.is_empty() {
            errs.push(FieldError::new("time_control.periods", "must not be empty"));
        }
        if self.periods.len() > 5 {
            errs.push(FieldError::new("time_control.periods", "at most 5 periods"));
        }
        if self.increment_seconds > 600 {
            errs.push(FieldError::new(
                "time_control.increment_seconds",
                "must be from 0 to 600",
            ));
        }
        if !(1..=200).contains(&self.increment_from_move) {
            errs.push(FieldError::new(
                "time_control.increment_from_move",
                "must be from 1 to 200",
            ));
        }
        for (i, p) in self.periods.iter().enumerate() {
            let last = i + 1 == self.periods.len();
            if p.minutes > 600 {
                errs.push(FieldError::new(
                    format!("time_control.periods[{i}].minutes"),
                    "must be from 0 to 600",
                ));
            }
            if p.moves.is_some_and(|m| !(1..=200).contains(&m)) {
                errs.push(FieldError::new(
                    format!("time_control.periods[{i}].moves"),
                    "must be from 1 to 200",
                ));
            }
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

/// The settings of a competition as a request names them (kind, discipline and system as
/// text), checked by [`validate`].
#[derive(Debug, Clone)]
pub struct SettingsInput {
    /// `keizer`, `swiss`, `round_robin`, `knockout`.
    pub kind: String,
    /// `chess` or `draughts`.
    pub discipline: String,
    /// Pairing system: `dutch` / `burstein` / `double_swiss` (swiss), `single` / `double`
    /// (round robin).
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

/// Why turning one of this module's own typed values (string lists, time controls, blitz
/// blocks: plain structs with string keys) into JSON cannot fail.
pub(super) const SERIALIZES: &str = "a typed value with string keys always serializes to JSON";

/// Validated settings of a competition.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The kind.
    pub kind: CompetitionKind,
    /// The discipline.
    pub discipline: Discipline,
    /// Pairing system (a swiss or a round robin).
    pub system: Option<PairingSystem>,
    /// Engine parameters (JSON object).
    pub params: Value,
    /// The tie-break list, in its order.
    pub tiebreaks: Vec<CompetitionTiebreak>,
    /// Time control.
    pub time_control: TimeControl,
    /// Rule flags, e.g. `{"quickplay_finish": false}`.
    pub rules: Value,
}

impl Settings {
    /// The settings in their request form (to check them again after a change).
    pub fn input(&self) -> SettingsInput {
        SettingsInput {
            kind: self.kind.as_str().to_string(),
            discipline: self.discipline.as_str().to_string(),
            system: self.system.map(String::from),
            params: self.params.clone(),
            tiebreaks: self.tiebreaks.iter().map(|t| t.name()).collect(),
            time_control: self.time_control.clone(),
            rules: self.rules.clone(),
        }
    }
}

/// Validates kind-specific settings, naming each bad field, and gives them typed.
pub fn validate(s: &SettingsInput) -> ApiResult<Settings> {
    use CompetitionKind as K;
    let mut errs = Vec::new();
    let kind = s.kind.parse::<CompetitionKind>().ok();
    if kind.is_none() {
        errs.push(FieldError::new(
            "kind",
            format!("must be one of {}", CompetitionKind::NAMES.join(", ")),
        ));
    }
    let discipline = s.discipline.parse::<Discipline>().ok();
    if discipline.is_none() {
        errs.push(FieldError::new("discipline", "must be chess or draughts"));
    }
    let systems = kind.map(CompetitionKind::systems).unwrap_or_default();
    let system = s.system.as_deref().map(str::parse::<PairingSystem>);
    match (&system, systems.is_empty()) {
        (Some(sys), false) if !sys.as_ref().is_ok_and(|sys| systems.contains(sys)) => {
            let names: Vec<&str> = systems.iter().map(|s| s.as_str()).collect();
            errs.push(FieldError::new(
                "system",
                format!("for {} must be one of {}", s.kind, names.join(", ")),
            ))
        }
        (None, false) if kind == Some(K::Swiss) => errs.push(FieldError::new(
            "system",
            "a swiss needs dutch, burstein or double_swiss",
        )),
        (Some(_), true) => errs.push(FieldError::new(
            "system",
            format!("a {} competition has no system", s.kind),
        )),
        _ => {}
    }
    if kind == Some(K::Swiss) && discipline == Some(Discipline::Draughts) {
        errs.push(FieldError::new(
            "discipline",
            "swiss competitions are chess only",
        ));
    }
    if !s.params.is_object() {
        errs.push(FieldError::new("params", "must be an object"));
    } else if let (Some(K::Keizer), Some(o)) = (kind, s.params.as_object()) {
        let probe =
            serde_json::json!({"params": keizer_scoring_params(o), "players": [], "evenings": []});
        if let Err(e) = clubcomp_engine::keizer::parse_scenario(&probe) {
            errs.push(FieldError::new("params", e.to_string()));
        }
        read_forbidden_pairs(o, &mut errs);
    }
    match (kind, s.params.as_object()) {
        (Some(K::RoundRobin), Some(o)) => {
            RoundRobinParams::read(o, &mut errs);
        }
        (Some(K::Knockout), Some(o)) => {
            KnockoutParams::read(o, &mut errs);
        }
        (Some(K::Swiss), Some(o)) => {
            // acceleration and forbidden pairs are TRF lines both single-game systems read
            if matches!(
                &system,
                Some(Ok(PairingSystem::Dutch | PairingSystem::Burstein))
            ) {
                DutchPairingParams::read(o, &mut errs);
            } else if DutchPairingParams::named(o) {
                for k in ["acceleration", "forbidden_pairs"] {
                    if o.get(k).is_some_and(|v| !v.is_null()) {
                        errs.push(FieldError::new(
                            format!("params.{k}"),
                            "only a Swiss of the Dutch or Burstein system takes it",
                        ));
                    }
                }
            }
        }
        _ => {}
    }
    let mut params = s.params.clone();
    if let Some(b) = s.params.get("blitz") {
        let dutch = matches!(&system, Some(Ok(PairingSystem::Dutch)));
        if kind == Some(K::Swiss) && dutch {
            // stored with every default filled in
            if let (Some(read), Some(o)) = (BlitzParams::read(b, &mut errs), params.as_object_mut())
            {
                o.insert("blitz".into(), read.to_json());
            }
        } else {
            errs.push(FieldError::new(
                "params.blitz",
                "only a Swiss of the Dutch system is a blitz championship",
            ));
        }
    }
    // a Swiss list is stored in the acronyms of the document's enum (`bh/c1` → `BH-C1`)
    let mut tiebreaks = Vec::with_capacity(s.tiebreaks.len());
    match kind {
        Some(kind @ (K::RoundRobin | K::Swiss)) => {
            for (i, t) in s.tiebreaks.iter().enumerate() {
                match CompetitionTiebreak::parse_for(kind, t) {
                    Ok(t) => tiebreaks.push(t),
                    Err(why) => errs.push(FieldError::new(format!("tiebreaks[{i}]"), why)),
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
    match (kind, discipline, system) {
        (Some(kind), Some(discipline), None) if errs.is_empty() => Ok(Settings {
            kind,
            discipline,
            system: None,
            params,
            tiebreaks: tiebreaks.clone(),
            time_control: s.time_control.clone(),
            rules: s.rules.clone(),
        }),
        (Some(kind), Some(discipline), Some(Ok(system))) if errs.is_empty() => Ok(Settings {
            kind,
            discipline,
            system: Some(system),
            params,
            tiebreaks: tiebreaks.clone(),
            time_control: s.time_control.clone(),
            rules: s.rules.clone(),
        }),
        _ if errs.is_empty() => Err(ApiError::Internal(
            "competition settings passed the checks unparsed".into(),
        )),
        _ => Err(ApiError::validation(errs)),
    }
}

/// The default tie-break list of a kind (docs/rules/rapid-blitz.md#tie-breaks, docs/rules/draughts-championship.md#final-order-and-the-tie-break-chain).
/// An unknown kind (a request about to be refused) has none.
pub fn default_tiebreaks(
    kind: Option<CompetitionKind>,
    discipline: Option<Discipline>,
) -> Vec<CompetitionTiebreak> {
    use CompetitionKind as K;
    use CompetitionTiebreak::{Fide, RoundRobin};
    use RoundRobinTiebreak as R;
    match (kind, discipline) {
        (Some(K::RoundRobin), Some(Discipline::Draughts)) => vec![
            RoundRobin(R::Wins),
            RoundRobin(R::PlusremiseBalance),
            RoundRobin(R::Plusremises),
            RoundRobin(R::Mutual),
            RoundRobin(R::RankingOrder),
            RoundRobin(R::Lots),
        ],
        (Some(K::RoundRobin), _) => vec![
            RoundRobin(R::DirectEncounter),
            RoundRobin(R::SonnebornBerger),
            RoundRobin(R::Wins),
        ],
        // docs/rules/rapid-blitz.md#tie-breaks: rapid (double swiss) and blitz: direct encounter, median Buchholz, SB
        (Some(K::Swiss), _) => vec![
            Fide(Tiebreak::De),
            Fide(Tiebreak::BH_M1),
            Fide(Tiebreak::Sb(Cut::NONE)),
        ],
        _ => Vec::new(),
    }
}

/// Default rule flags (docs/rules/rapid-blitz.md#double-swiss, docs/rules/arbiter.md#quickplay-finish-fide-102):
/// the quickplay-finish rule (a rule of the FIDE Laws of Chess) applies to chess except in the
/// rapid; never to draughts.
pub fn default_rules(
    kind: Option<CompetitionKind>,
    system: Option<PairingSystem>,
    discipline: Option<Discipline>,
) -> Value {
    let quickplay = discipline != Some(Discipline::Draughts)
        && !(kind == Some(CompetitionKind::Swiss) && system == Some(PairingSystem::DoubleSwiss));
    serde_json::json!({"quickplay_finish": quickplay})
}

/// The rapid's tempo (club rules, *Rapid*): 25 minutes per player for the whole game.
pub fn rapid_time_control() -> TimeControl {
    TimeControl {
        periods: vec![Period {
            moves: None,
            minutes: 25,
        }],
        increment_seconds: 0,
        increment_from_move: 1,
    }
}

/// The draughts championship's tempo (KNDB rules): 2 hours for 50 moves, 1 hour for 25 moves,
/// then 20 seconds per move from move 76.
pub fn draughts_time_control() -> TimeControl {
    TimeControl {
        periods: vec![
            Period {
                moves: Some(50),
                minutes: 120,
            },
            Period {
                moves: Some(25),
                minutes: 60,
            },
            Period {
                moves: None,
                minutes: 0,
            },
        ],
        increment_seconds: 20,
        increment_from_move: 76,
    }
}

/// The default time control of a new competition (docs/rules/README.md#time-controls): a
/// draughts competition plays the championship's tempo, a blitz championship (`blitz`: its
/// parameters have a `blitz` block) 10 minutes, the rapid (a Double-Swiss) 25 minutes, and
/// every other chess competition the club's Keizer tempo.
pub fn default_time_control(
    kind: Option<CompetitionKind>,
    system: Option<PairingSystem>,
    discipline: Option<Discipline>,
    blitz: bool,
) -> TimeControl {
    if discipline == Some(Discipline::Draughts) {
        draughts_time_control()
    } else if blitz {
        blitz_time_control()
    } else if kind == Some(CompetitionKind::Swiss) && system == Some(PairingSystem::DoubleSwiss) {
        rapid_time_control()
    } else {
        TimeControl::club_default()
    }
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
) -> (crate::vocab::RatingSource, chrono::NaiveDate) {
    use crate::vocab::RatingSource;
    use chrono::Datelike;
    let source = match (c.discipline, c.system) {
        (Discipline::Draughts, _) => RatingSource::Kndb,
        (_, Some(PairingSystem::DoubleSwiss)) => RatingSource::KnsbRapid,
        _ => RatingSource::Knsb,
    };
    let year = if season_opening.month() >= 7 {
        season_opening.year()
    } else {
        season_opening.year() - 1
    };
    let date = chrono::NaiveDate::from_ymd_opt(year, 9, 1).unwrap_or(season_opening);
    (source, date)
}
