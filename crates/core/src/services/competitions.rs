//! Competitions: validation of kinds, systems, parameters, tie-break lists, time controls and
//! rule flags (docs/rules/README.md#time-controls, docs/rules/rapid-blitz.md#tie-breaks, docs/rules/draughts-championship.md#final-order-and-the-tie-break-chain), and the seed order of entrants.

use crate::error::{ApiError, ApiResult, FieldError};
use crate::ids::{CompetitionId, PlayerId, SeasonId};
use crate::store::DbConn;
/// A stored competition: the row is the record.
pub use crate::store::models::competition::Competition;
use crate::store::models::competition::Entrant;
use crate::store::schema::{competitions as cm, entrants as en};
use crate::store::stamps::Scope;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use clubcomp_engine::arbiter::quickplay;
use clubcomp_engine::{CompetitionKind, Discipline, Half, PairingSystem};

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

/// Why turning one of this module's own typed values (string lists, time controls, blitz
/// blocks: plain structs with string keys) into JSON cannot fail.
const SERIALIZES: &str = "a typed value with string keys always serializes to JSON";

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
    /// Tie-break names.
    pub tiebreaks: Vec<String>,
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
            tiebreaks: self.tiebreaks.clone(),
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
            "a swiss needs dutch or double_swiss",
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
            if matches!(&system, Some(Ok(PairingSystem::Dutch))) {
                DutchPairingParams::read(o, &mut errs);
            } else if DutchPairingParams::named(o) {
                for k in ["acceleration", "forbidden_pairs"] {
                    if o.get(k).is_some_and(|v| !v.is_null()) {
                        errs.push(FieldError::new(
                            format!("params.{k}"),
                            "only a Swiss of the Dutch system takes it",
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
    // a Swiss list is stored in the acronyms of the document's enum (`bh/1` → `BH-C1`)
    let mut tiebreaks = s.tiebreaks.clone();
    match kind {
        Some(K::RoundRobin) => {
            for (i, t) in s.tiebreaks.iter().enumerate() {
                if serde_json::from_value::<clubcomp_engine::round_robin::RoundRobinTiebreak>(
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
        Some(K::Swiss) => {
            for (i, t) in s.tiebreaks.iter().enumerate() {
                match swiss_acronym(t) {
                    Ok(a) => tiebreaks[i] = a,
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
) -> Vec<String> {
    use CompetitionKind as K;
    let v: &[&str] = match (kind, discipline) {
        (Some(K::RoundRobin), Some(Discipline::Draughts)) => &[
            "wins",
            "plusremise_balance",
            "plusremises",
            "mutual",
            "ranking_order",
            "lots",
        ],
        (Some(K::RoundRobin), _) => &["direct_encounter", "sonneborn_berger", "wins"],
        // docs/rules/rapid-blitz.md#tie-breaks: rapid (double swiss) and blitz: direct encounter, median Buchholz, SB
        (Some(K::Swiss), _) => &["DE", "BH-M1", "SB"],
        _ => &[],
    };
    v.iter().map(|s| s.to_string()).collect()
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
) -> (&'static str, chrono::NaiveDate) {
    use chrono::Datelike;
    let source = match (c.discipline, c.system) {
        (Discipline::Draughts, _) => "KNDB",
        (_, Some(PairingSystem::DoubleSwiss)) => "KNSB-rapid",
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

/// Loads a competition or 404.
pub fn load(c: &mut DbConn, id: CompetitionId) -> ApiResult<Competition> {
    cm::table
        .find(i64::from(id))
        .select(Competition::as_select())
        .first(c)
        .optional()?
        .ok_or_else(|| ApiError::NotFound(format!("no competition {id}")))
}

/// The entrants of a competition in seed order.
pub fn entrants_in_seed_order(
    c: &mut DbConn,
    competition: CompetitionId,
) -> ApiResult<Vec<Entrant>> {
    let mut rows: Vec<Entrant> = en::table
        .filter(en::competition_id.eq(competition))
        .select(Entrant::as_select())
        .load(c)?;
    seed_order(&mut rows);
    Ok(rows)
}

/// A new competition whose fields were checked (name, half, planned rounds, settings).
#[derive(Debug)]
pub struct NewCompetitionSpec {
    /// The season it belongs to.
    pub season_id: SeasonId,
    /// Its name, trimmed.
    pub name: String,
    /// Its validated settings.
    pub settings: Settings,
    /// Keizer: the half.
    pub half: Option<Half>,
    /// The winter half a summer half is seeded from.
    pub seeded_from: Option<CompetitionId>,
    /// Planned number of rounds.
    pub rounds_planned: Option<i32>,
}

/// Creates a competition in the caller's transaction, a Keizer half with a planned round on
/// every `keizer` evening of its half (`services::schedule`): 404 without the season; a summer Keizer
/// half may be seeded only from the winter Keizer half of the same season (422 naming
/// `seeded_from`).
#[allow(
    clippy::expect_used,
    reason = "a typed value with string keys always serializes to JSON"
)]
pub fn create(c: &mut DbConn, spec: NewCompetitionSpec) -> ApiResult<Competition> {
    use crate::store::models::competition::NewCompetition;
    let NewCompetitionSpec {
        season_id,
        name,
        settings,
        half,
        seeded_from,
        rounds_planned,
    } = spec;
    crate::services::seasons::load(c, season_id)?;
    // queue behind calendar edits of the season, so a Keizer half sees the evenings stored
    // before it (services::schedule)
    crate::services::schedule::lock_season(c, season_id)?;
    if let Some(w) = seeded_from {
        let winter = load(c, w).map_err(|e| match e {
            ApiError::NotFound(_) => {
                ApiError::invalid("seeded_from", format!("no competition {w}"))
            }
            other => other,
        })?;
        if winter.season_id != season_id
            || winter.kind != CompetitionKind::Keizer
            || winter.half != Some(Half::Winter)
        {
            return Err(ApiError::invalid(
                "seeded_from",
                "must be the winter Keizer half of the same season",
            ));
        }
        if settings.kind != CompetitionKind::Keizer || half != Some(Half::Summer) {
            return Err(ApiError::invalid(
                "seeded_from",
                "only a summer Keizer half is seeded from a winter half",
            ));
        }
    }
    let now = crate::store::now_utc();
    let comp = diesel::insert_into(cm::table)
        .values(&NewCompetition {
            season_id,
            name,
            kind: settings.kind.into(),
            discipline: settings.discipline.into(),
            system: settings.system.map(String::from),
            half: half.map(String::from),
            seeded_from,
            params: settings.params.to_string(),
            tiebreaks: serde_json::to_string(&settings.tiebreaks).expect(SERIALIZES),
            time_control: serde_json::to_string(&settings.time_control).expect(SERIALIZES),
            rules: settings.rules.to_string(),
            rounds_planned,
            version: 1,
            created_at: now,
            updated_at: now,
        })
        .returning(cm::all_columns)
        .get_result::<Competition>(c)?;
    // a Keizer half takes its planned rounds from the calendar's evenings of its half
    crate::services::schedule::sync(c, &comp)?;
    Ok(comp)
}

/// A page of a season's competitions by id, and how many it has in all, read in one
/// transaction (404 for no such season).
pub fn page_of_season(
    c: &mut DbConn,
    season: SeasonId,
    limit: i64,
    offset: i64,
) -> ApiResult<(Vec<Competition>, i64)> {
    crate::store::snapshot(c, |c| {
        crate::services::seasons::load(c, season)?;
        let total: i64 = cm::table
            .filter(cm::season_id.eq(season))
            .count()
            .get_result(c)?;
        let rows = cm::table
            .filter(cm::season_id.eq(season))
            .order(cm::id)
            .limit(limit)
            .offset(offset)
            .select(Competition::as_select())
            .load(c)?;
        Ok((rows, total))
    })
}

/// The competitions of a season (404 when there is no such season).
pub fn of_season(c: &mut DbConn, season: SeasonId) -> ApiResult<Vec<Competition>> {
    crate::services::seasons::load(c, season)?;
    Ok(cm::table
        .filter(cm::season_id.eq(season))
        .order(cm::id)
        .select(Competition::as_select())
        .load(c)?)
}

/// Reads one stored JSON column of a competition: text that does not decode is an internal
/// error naming the competition and the column (the column is written by this module).
fn stored_json<T: serde::de::DeserializeOwned>(
    comp: &Competition,
    column: &str,
    text: &str,
) -> ApiResult<T> {
    serde_json::from_str(text).map_err(|e| {
        ApiError::Internal(format!(
            "competition {}: stored {column} do not decode: {e}",
            comp.id
        ))
    })
}

/// A Swiss tie-break as the acronym the API document lists (`bh/1`, `BH-C1` → `BH-C1`), or why
/// a competition cannot hold it: not one FIDE tie-break, or one with a cut or median outside
/// the listed ones (n = 1 or 2).
pub fn swiss_acronym(t: &str) -> Result<String, String> {
    match clubcomp_engine::tiebreaks::parse_tiebreaks(t).as_deref() {
        Ok([one]) => {
            let a = one.acronym();
            if crate::schemas::TIEBREAK_ACRONYMS.contains(&a.as_str()) {
                Ok(a)
            } else {
                Err(format!(
                    "{t:?} ({a}) is not a tie-break a competition takes: Cut-n and Median-n \
                     only for n = 1 or 2"
                ))
            }
        }
        _ => Err(format!("unknown FIDE tie-break {t:?}")),
    }
}

/// The stored tie-break list of a competition: a Swiss's in the listed acronyms (a list stored
/// in another spelling of them reads as the acronyms), a round robin's criteria. A value that
/// is none of the listed tie-breaks is an internal error naming the competition, never dropped.
pub fn stored_tiebreaks(comp: &Competition) -> ApiResult<Vec<String>> {
    let list: Vec<String> = stored_json(comp, "tiebreaks", &comp.tiebreaks)?;
    list.into_iter()
        .map(|t| {
            let known = if comp.kind == CompetitionKind::Swiss {
                swiss_acronym(&t).ok()
            } else {
                crate::schemas::ROUND_ROBIN_TIEBREAKS
                    .contains(&t.as_str())
                    .then_some(t.clone())
            };
            known.ok_or_else(|| {
                ApiError::Internal(format!(
                    "competition {}: stored tie-break {t:?} is not a listed tie-break",
                    comp.id
                ))
            })
        })
        .collect()
}

/// The stored time control of a competition (an internal error when it does not decode).
pub fn stored_time_control(comp: &Competition) -> ApiResult<TimeControl> {
    stored_json(comp, "time control", &comp.time_control)
}

/// The settings a competition was stored with; a stored column that does not decode is an
/// internal error, never a default.
pub fn stored_settings(cur: &Competition) -> ApiResult<Settings> {
    Ok(Settings {
        kind: cur.kind,
        discipline: cur.discipline,
        system: cur.system,
        params: Value::Object(stored_params(cur)?.object),
        tiebreaks: stored_tiebreaks(cur)?,
        time_control: stored_json(cur, "time control", &cur.time_control)?,
        rules: stored_json(cur, "rules", &cur.rules)?,
    })
}

/// Playoff settings stored in the knockout competition's params.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlayoffParams {
    /// The summer half the playoffs come from.
    pub summer_competition: i64,
    /// Seed of the colour lots (decision, docs/rules/keizer.md#playoffs).
    pub colour_seed: u64,
    /// The groups and the player without a group.
    pub draw: clubcomp_engine::keizer::PlayoffDraw,
}

/// The parameters of a Swiss (Dutch or Double-Swiss): a Dutch Swiss with a `blitz` block is
/// the blitz championship; other stored keys are kept as they are.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SwissParams {
    /// The blitz championship's settings, when the competition is one.
    pub blitz: Option<BlitzParams>,
}

/// The most forbidden pairs a Dutch Swiss's params may name.
pub const MAX_FORBIDDEN_PAIRS: usize = 200;

/// How a Dutch Swiss accelerates its first rounds (docs/rules/rapid-blitz.md#acceleration).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Acceleration {
    /// No virtual points.
    #[default]
    None,
    /// FIDE's Baku method, from the field and the planned number of rounds.
    Baku,
}

/// Reads `params.forbidden_pairs` of a Dutch Swiss or a Keizer competition: absent or `null` is
/// none, else at most [`MAX_FORBIDDEN_PAIRS`] lists of two different player ids, each bad item
/// named (`params.forbidden_pairs[2]`); `None` when one is bad.
pub fn read_forbidden_pairs(
    o: &serde_json::Map<String, Value>,
    errs: &mut Vec<FieldError>,
) -> Option<Vec<(PlayerId, PlayerId)>> {
    let before = errs.len();
    let mut forbidden_pairs = Vec::new();
    match o.get("forbidden_pairs") {
        None | Some(Value::Null) => {}
        Some(Value::Array(items)) if items.len() > MAX_FORBIDDEN_PAIRS => {
            errs.push(FieldError::new(
                "params.forbidden_pairs",
                format!("at most {MAX_FORBIDDEN_PAIRS} pairs"),
            ));
        }
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                let ids: Option<Vec<i64>> = item
                    .as_array()
                    .and_then(|a| a.iter().map(|v| v.as_i64().filter(|&n| n > 0)).collect());
                match ids.as_deref() {
                    Some(&[a, b]) if a != b => {
                        forbidden_pairs.push((PlayerId(a), PlayerId(b)));
                    }
                    Some(&[_, _]) => errs.push(FieldError::new(
                        format!("params.forbidden_pairs[{i}]"),
                        "names the same player twice: a pair is two different players",
                    )),
                    _ => errs.push(FieldError::new(
                        format!("params.forbidden_pairs[{i}]"),
                        "must be a list of two player ids (whole numbers from 1)",
                    )),
                }
            }
        }
        Some(_) => errs.push(FieldError::new(
            "params.forbidden_pairs",
            "must be a list of pairs of player ids",
        )),
    }
    (errs.len() == before).then_some(forbidden_pairs)
}

/// A Keizer competition's params as the engine's scoring reads them: without
/// `forbidden_pairs`, which only the pairing reads.
pub fn keizer_scoring_params(o: &serde_json::Map<String, Value>) -> Value {
    let mut o = o.clone();
    o.remove("forbidden_pairs");
    Value::Object(o)
}

/// The pairing members of a Dutch Swiss's params: `acceleration` and `forbidden_pairs`
/// (docs/rules/rapid-blitz.md#forbidden-pairs).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DutchPairingParams {
    /// The acceleration method.
    pub acceleration: Acceleration,
    /// Pairs of players who may not meet, in the order sent.
    pub forbidden_pairs: Vec<(PlayerId, PlayerId)>,
}

impl DutchPairingParams {
    /// Reads `acceleration` (`none` or `baku`, absent or `null` is `none`) and
    /// `forbidden_pairs` (at most [`MAX_FORBIDDEN_PAIRS`] lists of two different player ids),
    /// naming each bad field (`params.forbidden_pairs[2]`); `None` when one is bad.
    pub fn read(o: &serde_json::Map<String, Value>, errs: &mut Vec<FieldError>) -> Option<Self> {
        let before = errs.len();
        let acceleration = match o.get("acceleration") {
            None | Some(Value::Null) => Acceleration::None,
            Some(Value::String(s)) if s == "none" => Acceleration::None,
            Some(Value::String(s)) if s == "baku" => Acceleration::Baku,
            Some(_) => {
                errs.push(FieldError::new(
                    "params.acceleration",
                    "must be \"none\" or \"baku\"",
                ));
                Acceleration::None
            }
        };
        let forbidden_pairs = read_forbidden_pairs(o, errs).unwrap_or_default();
        (errs.len() == before).then_some(DutchPairingParams {
            acceleration,
            forbidden_pairs,
        })
    }

    /// Whether the params name either member.
    pub fn named(o: &serde_json::Map<String, Value>) -> bool {
        ["acceleration", "forbidden_pairs"]
            .iter()
            .any(|k| o.get(*k).is_some_and(|v| !v.is_null()))
    }
}

/// The blitz championship's settings (docs/rules/rapid-blitz.md#the-blitz-championship), the
/// `blitz` block of a Dutch Swiss's `params`: the evening, when check-in closes, and the rule
/// that fixes the number of rounds from the participants when check-in is closed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[schema(example = json!({"date": "2027-06-18", "check_in_closes": "20:00", "extra_rounds": 2, "max_rounds": 11}))]
pub struct BlitzParams {
    /// The evening of the championship (`YYYY-MM-DD`).
    #[schema(value_type = crate::services::date::ApiDate)]
    pub date: chrono::NaiveDate,
    /// The club's local time at which check-in closes (`HH:MM`, default `20:00`): players
    /// present by then play.
    #[serde(serialize_with = "hh_mm")]
    #[schema(value_type = String, pattern = r"^([01][0-9]|2[0-3]):[0-5][0-9]$")]
    pub check_in_closes: chrono::NaiveTime,
    /// Rounds beyond ⌈log2 n⌉ for n participants, 0–10 (default 2).
    #[schema(minimum = 0, maximum = 10)]
    pub extra_rounds: u32,
    /// The most rounds the evening holds, 1–99 (default 11); never more than n − 1.
    #[schema(minimum = 1, maximum = 99)]
    pub max_rounds: u32,
}

fn hh_mm<S: serde::Serializer>(t: &chrono::NaiveTime, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&t.format("%H:%M").to_string())
}

/// The blitz tempo (club rules, *Snelschaakkampioenschap* 3): 10 minutes per player.
pub fn blitz_time_control() -> TimeControl {
    TimeControl {
        periods: vec![Period {
            moves: None,
            minutes: 10,
        }],
        increment_seconds: 0,
        increment_from_move: 1,
    }
}

impl BlitzParams {
    /// The engine's rounds rule.
    pub fn rounds_rule(&self) -> clubcomp_engine::blitz::RoundsRule {
        clubcomp_engine::blitz::RoundsRule {
            extra: self.extra_rounds,
            max: self.max_rounds,
        }
    }

    /// The block as stored, every default filled in.
    #[allow(
        clippy::expect_used,
        reason = "a typed value with string keys always serializes to JSON"
    )]
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).expect(SERIALIZES)
    }

    /// Reads a `blitz` block, naming each bad field under `params.blitz`: an object with the
    /// date, and optionally the closing time and the two numbers of the rounds rule.
    pub fn read(v: &Value, errs: &mut Vec<FieldError>) -> Option<BlitzParams> {
        const AT: &str = "params.blitz";
        let Some(o) = v.as_object() else {
            errs.push(FieldError::new(
                AT,
                "must be an object: date, check_in_closes, extra_rounds, max_rounds",
            ));
            return None;
        };
        let before = errs.len();
        for k in o.keys() {
            if !["date", "check_in_closes", "extra_rounds", "max_rounds"].contains(&k.as_str()) {
                errs.push(FieldError::new(
                    format!("{AT}.{k}"),
                    "unknown field (expected date, check_in_closes, extra_rounds, max_rounds)",
                ));
            }
        }
        let date = match o.get("date") {
            None => {
                errs.push(FieldError::new(
                    format!("{AT}.date"),
                    "the evening of the championship is required",
                ));
                None
            }
            Some(d) => match d
                .as_str()
                .map(|t| crate::services::date::field("params.blitz.date", t))
            {
                Some(Ok(d)) => Some(d),
                _ => {
                    errs.push(FieldError::new(
                        format!("{AT}.date"),
                        crate::services::date::RULE,
                    ));
                    None
                }
            },
        };
        let closes = match o.get("check_in_closes") {
            None => chrono::NaiveTime::from_hms_opt(20, 0, 0),
            Some(t) => {
                let parsed = t
                    .as_str()
                    .filter(|t| t.len() == 5)
                    .and_then(|t| chrono::NaiveTime::parse_from_str(t, "%H:%M").ok());
                if parsed.is_none() {
                    errs.push(FieldError::new(
                        format!("{AT}.check_in_closes"),
                        "must be a local time HH:MM, from 00:00 to 23:59",
                    ));
                }
                parsed
            }
        };
        let mut number =
            |key: &str, default: u32, range: std::ops::RangeInclusive<u32>| match o.get(key) {
                None => Some(default),
                Some(n) => {
                    let n = n
                        .as_u64()
                        .and_then(|n| u32::try_from(n).ok())
                        .filter(|n| range.contains(n));
                    if n.is_none() {
                        errs.push(FieldError::new(
                            format!("{AT}.{key}"),
                            format!(
                                "must be a whole number from {} to {}",
                                range.start(),
                                range.end()
                            ),
                        ));
                    }
                    n
                }
            };
        let extra = number("extra_rounds", 2, 0..=10);
        let max = number("max_rounds", 11, 1..=99);
        match (date, closes, extra, max) {
            (Some(date), Some(check_in_closes), Some(extra_rounds), Some(max_rounds))
                if errs.len() == before =>
            {
                Some(BlitzParams {
                    date,
                    check_in_closes,
                    extra_rounds,
                    max_rounds,
                })
            }
            _ => None,
        }
    }
}

/// The parameters of a round robin the standings read, typed as the round-robin engine takes
/// them (docs/rules/draughts-championship.md#final-order-and-the-tie-break-chain): the drawing
/// of lots, points tables, prize money and rights. Player ids may be given as numbers or
/// strings; they are kept as the engine's string ids. Whether the ids name entrants and the
/// lists fit the field is checked by the engine when the standings are computed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RoundRobinParams {
    /// Seed of the drawing of lots, stored once when first needed.
    pub lots_seed: Option<u64>,
    /// An order drawn by the arbiter (player ids), instead of a seed.
    pub lots_order: Option<Vec<String>>,
    /// Points tables (e.g. master points) by place.
    pub points_tables: Vec<clubcomp_engine::round_robin::PointsTable>,
    /// Players who take no points from the tables (player ids).
    pub excluded_from_points: Vec<String>,
    /// Prize money by place.
    pub prize_money: Vec<serde_json::Number>,
    /// Rights (titles, qualifications, cuts) by place.
    pub rights: Vec<clubcomp_engine::round_robin::Right>,
}

/// A player id in a round robin's params: a whole number or a string, as the engine's string id.
fn player_id_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => n.as_i64().map(|n| n.to_string()),
        _ => None,
    }
}

/// Decodes the list under `params.{key}` item by item with `item`, naming the first bad item
/// with `rule`; absent or `null` is `None`.
fn rr_list<T>(
    o: &serde_json::Map<String, Value>,
    key: &str,
    rule: &str,
    errs: &mut Vec<FieldError>,
    item: impl Fn(&Value) -> Option<T>,
) -> Option<Option<Vec<T>>> {
    let v = match o.get(key) {
        None | Some(Value::Null) => return Some(None),
        Some(v) => v,
    };
    let Some(items) = v.as_array() else {
        errs.push(FieldError::new(
            format!("params.{key}"),
            format!("must be a list: {rule}"),
        ));
        return None;
    };
    let mut out = Vec::with_capacity(items.len());
    for (i, x) in items.iter().enumerate() {
        match item(x) {
            Some(t) => out.push(t),
            None => {
                errs.push(FieldError::new(format!("params.{key}[{i}]"), rule));
                return None;
            }
        }
    }
    Some(Some(out))
}

impl RoundRobinParams {
    /// Reads a round robin's params, naming each bad field (`params.points_tables[1]`): the
    /// keys the engine reads must have the engine's types; other keys are kept as they are.
    pub fn read(o: &serde_json::Map<String, Value>, errs: &mut Vec<FieldError>) -> Option<Self> {
        let before = errs.len();
        let lots_seed = match o.get("lots_seed") {
            None | Some(Value::Null) => None,
            Some(v) => {
                if v.as_u64().is_none() {
                    errs.push(FieldError::new(
                        "params.lots_seed",
                        "must be a whole number from 0 to 18446744073709551615",
                    ));
                }
                v.as_u64()
            }
        };
        const ID: &str = "must be a player id (a whole number or a string)";
        let lots_order = rr_list(o, "lots_order", ID, errs, player_id_text);
        let excluded = rr_list(o, "excluded_from_points", ID, errs, player_id_text);
        let points_tables = rr_list(
            o,
            "points_tables",
            "must be a table {\"name\": text, \"by_place\": [numbers]}",
            errs,
            |v| serde_json::from_value(v.clone()).ok(),
        );
        let prize_money = rr_list(
            o,
            "prize_money",
            "must be an amount (a number) for the place",
            errs,
            |v| v.as_number().cloned(),
        );
        let rights = rr_list(
            o,
            "rights",
            "must be a right: {\"kind\": \"title\", \"name\", \"places\"}, {\"kind\": \
             \"qualification\", \"name\", \"slots\", \"prequalified\": [player ids]} or \
             {\"kind\": \"cut\", \"name\", \"places\", \"others\"}",
            errs,
            |v| {
                let mut v = v.clone();
                if let Some(p) = v.get_mut("prequalified").and_then(Value::as_array_mut) {
                    for x in p.iter_mut() {
                        *x = Value::String(player_id_text(x)?);
                    }
                }
                serde_json::from_value(v).ok()
            },
        );
        if errs.len() != before {
            return None;
        }
        // an absent or null list is an empty one
        Some(RoundRobinParams {
            lots_seed,
            lots_order: lots_order?,
            points_tables: points_tables?.unwrap_or_else(Vec::new),
            excluded_from_points: excluded?.unwrap_or_else(Vec::new),
            prize_money: prize_money?.unwrap_or_else(Vec::new),
            rights: rights?.unwrap_or_else(Vec::new),
        })
    }

    /// Hands the params to a round-robin scenario.
    pub fn apply(&self, s: &mut clubcomp_engine::round_robin::Scenario) {
        s.lots_seed = self.lots_seed;
        s.lots_order = self.lots_order.clone();
        s.points_tables = self.points_tables.clone();
        s.excluded_from_points = self.excluded_from_points.clone();
        s.prize_money = self.prize_money.clone();
        s.rights = self.rights.clone();
    }
}

/// The parameters of a knockout: the playoff draw once the prizes service made it (a
/// knockout created through the API has none).
#[derive(Debug, Clone, Default)]
pub struct KnockoutParams {
    /// The playoff settings, when the knockout holds playoffs.
    pub playoff: Option<PlayoffParams>,
}

/// The members of a knockout's params that make its playoff draw.
const PLAYOFF_KEYS: [&str; 3] = ["summer_competition", "colour_seed", "draw"];

impl KnockoutParams {
    /// Reads a knockout's params, naming each bad field (`params.draw.groups[0].seeds`): the
    /// three playoff members are all present or all absent (a `null` counts as present), each
    /// of its type, the draw's groups numbered 1, 2, … in order with two to four players
    /// each; other keys are kept as they are.
    pub fn read(o: &serde_json::Map<String, Value>, errs: &mut Vec<FieldError>) -> Option<Self> {
        if !PLAYOFF_KEYS.iter().any(|k| o.contains_key(*k)) {
            return Some(KnockoutParams { playoff: None });
        }
        let before = errs.len();
        for k in PLAYOFF_KEYS {
            if !o.contains_key(k) {
                errs.push(FieldError::new(
                    format!("params.{k}"),
                    "a playoff draw needs summer_competition, colour_seed and draw together",
                ));
            }
        }
        let summer = o.get("summer_competition").and_then(Value::as_i64);
        if o.contains_key("summer_competition") && summer.is_none_or(|n| n < 1) {
            errs.push(FieldError::new(
                "params.summer_competition",
                "must be a competition id (a whole number from 1)",
            ));
        }
        let seed = o.get("colour_seed").and_then(Value::as_u64);
        if o.contains_key("colour_seed") && seed.is_none() {
            errs.push(FieldError::new(
                "params.colour_seed",
                "must be a whole number from 0 to 18446744073709551615",
            ));
        }
        let draw = o.get("draw").and_then(|d| read_playoff_draw(d, errs));
        if errs.len() != before {
            return None;
        }
        Some(KnockoutParams {
            playoff: Some(PlayoffParams {
                summer_competition: summer?,
                colour_seed: seed?,
                draw: draw?,
            }),
        })
    }
}

/// Reads a playoff draw `{"groups": [{"number", "seeds"}], "without_group"}`, naming each bad
/// member; `None` when one is bad.
fn read_playoff_draw(
    d: &Value,
    errs: &mut Vec<FieldError>,
) -> Option<clubcomp_engine::keizer::PlayoffDraw> {
    use clubcomp_engine::keizer::{PlayoffDraw, PlayoffGroup};
    let Some(o) = d.as_object() else {
        errs.push(FieldError::new(
            "params.draw",
            "must be an object {\"groups\": [...], \"without_group\": player id or null}",
        ));
        return None;
    };
    let before = errs.len();
    if let Some(k) = o
        .keys()
        .find(|k| !["groups", "without_group"].contains(&k.as_str()))
    {
        errs.push(FieldError::new(
            format!("params.draw.{k}"),
            "unknown member (a draw has groups and without_group)",
        ));
    }
    let without_group = match o.get("without_group") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if !s.is_empty() && s.len() <= 64 => Some(s.clone()),
        Some(_) => {
            errs.push(FieldError::new(
                "params.draw.without_group",
                "must be a player id (text of 1 to 64 characters) or null",
            ));
            None
        }
    };
    let mut groups = Vec::new();
    match o.get("groups").and_then(Value::as_array) {
        None => errs.push(FieldError::new("params.draw.groups", "must be a list")),
        Some(list) if list.len() > crate::limits::MAX_PLAYOFF_GROUPS => errs.push(FieldError::new(
            "params.draw.groups",
            format!("at most {} groups", crate::limits::MAX_PLAYOFF_GROUPS),
        )),
        Some(list) => {
            for (i, g) in list.iter().enumerate() {
                let at = format!("params.draw.groups[{i}]");
                let number = g.get("number").and_then(Value::as_u64);
                if number != Some(i as u64 + 1) {
                    errs.push(FieldError::new(
                        format!("{at}.number"),
                        format!("must be {} (groups are numbered 1, 2, … in order)", i + 1),
                    ));
                }
                let seeds: Option<Vec<String>> = g
                    .get("seeds")
                    .and_then(Value::as_array)
                    .filter(|s| (2..=4).contains(&s.len()))
                    .and_then(|s| {
                        s.iter()
                            .map(|x| {
                                x.as_str()
                                    .filter(|t| !t.is_empty() && t.len() <= 64)
                                    .map(String::from)
                            })
                            .collect()
                    });
                if seeds.is_none() {
                    errs.push(FieldError::new(
                        format!("{at}.seeds"),
                        "must be a list of 2 to 4 player ids (text of 1 to 64 characters)",
                    ));
                }
                if let Some(k) = g.as_object().and_then(|m| {
                    m.keys()
                        .find(|k| !["number", "seeds"].contains(&k.as_str()))
                }) {
                    errs.push(FieldError::new(
                        format!("{at}.{k}"),
                        "unknown member (a group has number and seeds)",
                    ));
                }
                if let (Some(n), Some(seeds)) = (number, seeds) {
                    groups.push(PlayoffGroup {
                        number: n as u32,
                        seeds,
                    });
                }
            }
        }
    }
    if errs.len() != before {
        return None;
    }
    Some(PlayoffDraw {
        groups,
        without_group,
    })
}

/// The parameters stored with a competition, decoded for its kind.
#[derive(Debug, Clone)]
pub enum CompetitionParams {
    /// A Keizer half: the engine's scoring parameters.
    Keizer(Box<clubcomp_engine::keizer::Params>),
    /// A Dutch-system Swiss.
    Swiss(SwissParams),
    /// A Double-Swiss.
    DoubleSwiss(SwissParams),
    /// A round robin.
    RoundRobin(RoundRobinParams),
    /// A knockout.
    Knockout(KnockoutParams),
}

/// A competition's stored parameters: the object as stored (what the API shows) and its
/// decoded form.
#[derive(Debug, Clone)]
pub struct StoredParams {
    /// The stored JSON object.
    pub object: serde_json::Map<String, Value>,
    /// The parameters decoded for the competition's kind.
    pub typed: CompetitionParams,
}

/// Decodes the parameters stored with a competition, once: text that is not a JSON object,
/// Keizer parameters the engine does not accept, or a playoff draw that does not decode is an
/// internal error naming the competition (the parameters were checked when they were stored).
pub fn stored_params(comp: &Competition) -> ApiResult<StoredParams> {
    let object: serde_json::Map<String, Value> = stored_json(comp, "params", &comp.params)?;
    let bad = |e: &dyn std::fmt::Display| {
        ApiError::Internal(format!(
            "competition {}: stored params do not decode: {e}",
            comp.id
        ))
    };
    let typed = match (comp.kind, comp.system) {
        (CompetitionKind::Keizer, _) => {
            let probe = serde_json::json!({"params": keizer_scoring_params(&object), "players": [], "evenings": []});
            let s = clubcomp_engine::keizer::parse_scenario(&probe).map_err(|e| bad(&e))?;
            CompetitionParams::Keizer(Box::new(s.params))
        }
        (CompetitionKind::Swiss, Some(PairingSystem::DoubleSwiss)) => {
            CompetitionParams::DoubleSwiss(SwissParams::default())
        }
        (CompetitionKind::Swiss, _) => {
            let blitz = match object.get("blitz") {
                None => None,
                Some(b) => {
                    let mut errs = Vec::new();
                    let read = BlitzParams::read(b, &mut errs);
                    if read.is_none() {
                        return Err(bad(&field_errors(&errs)));
                    }
                    read
                }
            };
            CompetitionParams::Swiss(SwissParams { blitz })
        }
        (CompetitionKind::RoundRobin, _) => {
            let mut errs = Vec::new();
            match RoundRobinParams::read(&object, &mut errs) {
                Some(p) => CompetitionParams::RoundRobin(p),
                None => return Err(bad(&field_errors(&errs))),
            }
        }
        (CompetitionKind::Knockout, _) => {
            let mut errs = Vec::new();
            match KnockoutParams::read(&object, &mut errs) {
                Some(p) => CompetitionParams::Knockout(p),
                None => return Err(bad(&field_errors(&errs))),
            }
        }
    };
    Ok(StoredParams { object, typed })
}

/// Field errors as one line, for a log.
fn field_errors(errs: &[FieldError]) -> String {
    let why: Vec<String> = errs
        .iter()
        .map(|e| format!("{}: {}", e.field, e.message))
        .collect();
    why.join("; ")
}

/// Changes to a competition's settings, as requested.
#[derive(Debug, Default)]
pub struct CompetitionChanges {
    /// New name (checked here: 1–100 characters after trimming).
    pub name: Option<String>,
    /// New engine parameters.
    pub params: Option<Value>,
    /// New tie-break list.
    pub tiebreaks: Option<Vec<String>>,
    /// New time control.
    pub time_control: Option<TimeControl>,
    /// New rule flags.
    pub rules: Option<Value>,
    /// New planned number of rounds (1–99).
    pub rounds_planned: Option<i32>,
}

/// Changes a competition's settings in the caller's transaction: 412 on a stale `If-Match`,
/// 422 on invalid settings, 409 when parameters, tie-breaks or time control change after a
/// round was paired.
#[allow(
    clippy::expect_used,
    reason = "a typed value with string keys always serializes to JSON"
)]
pub fn update(
    c: &mut DbConn,
    id: CompetitionId,
    expected: &crate::services::version::ExpectedVersion,
    ch: CompetitionChanges,
) -> ApiResult<Competition> {
    use crate::store::schema::rounds;
    let cur = load(c, id)?;
    // the content is checked before the precondition (RFC 9110 13.2.1: a request that would
    // fail without its If-Match fails the same way with a wrong one), the state after it
    let stored = stored_settings(&cur)?;
    let stored_input = stored.input();
    let settings = validate(&SettingsInput {
        params: ch.params.clone().unwrap_or(stored.params),
        tiebreaks: ch.tiebreaks.clone().unwrap_or(stored.tiebreaks),
        time_control: ch.time_control.clone().unwrap_or(stored.time_control),
        rules: ch.rules.clone().unwrap_or(stored.rules),
        ..stored_input
    })?;
    let name = match ch.name {
        Some(n) => crate::services::input::checked_name("name", &n)?,
        None => cur.name.clone(),
    };
    if ch.rounds_planned.is_some_and(|n| !(1..=99).contains(&n)) {
        return Err(ApiError::invalid("rounds_planned", "must be from 1 to 99"));
    }
    expected.check(&crate::services::version::etag(
        "competition",
        cur.id,
        cur.version,
    ))?;
    let started: i64 = rounds::table
        .filter(rounds::competition_id.eq(id))
        .filter(rounds::status.ne("planned"))
        .count()
        .get_result(c)?;
    if started > 0 && (ch.params.is_some() || ch.tiebreaks.is_some() || ch.time_control.is_some()) {
        return Err(ApiError::Conflict(
            "parameters, tie-breaks and time control are fixed once a round is paired".into(),
        ));
    }
    diesel::update(cm::table.find(id))
        .set((
            cm::name.eq(name),
            cm::params.eq(settings.params.to_string()),
            cm::tiebreaks.eq(serde_json::to_string(&settings.tiebreaks).expect(SERIALIZES)),
            cm::time_control.eq(serde_json::to_string(&settings.time_control).expect(SERIALIZES)),
            cm::rules.eq(settings.rules.to_string()),
            cm::rounds_planned.eq(ch.rounds_planned.or(cur.rounds_planned)),
            cm::version.eq(cm::version + 1),
            cm::updated_at.eq(crate::store::now_utc()),
        ))
        .execute(c)?;
    crate::store::stamps::touch(c, Scope::Competition(id))?;
    load(c, id)
}

/// One entry of a player into a competition.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// The player.
    pub player_id: PlayerId,
    /// The round from which the player takes part (default 1).
    pub joins_at: Option<i32>,
    /// Excused absences already used earlier in the season (default 0).
    pub excused_before: Option<i32>,
}

/// Enters players (in order of entry) in the caller's transaction; each gets the rating on the
/// seeding date. 422 naming each bad entry, or over the work limit of the competition's kind;
/// 409 when a player is entered already.
pub fn enter(
    c: &mut DbConn,
    id: CompetitionId,
    entries: &[Entry],
    limits: &crate::limits::WorkLimits,
) -> ApiResult<()> {
    use crate::store::models::competition::NewEntrant;
    use crate::store::models::{players, ratings};
    let comp = load(c, id)?;
    refuse_after_check_in(c, &comp)?;
    let season = crate::services::seasons::load(c, comp.season_id)?;
    let (source, date) = seed_rating(&comp, season.opening_date);
    // the engines' work limits hold for stored competitions too: pairing and
    // standings on request never run on a field larger than a calculator accepts
    let (var, limit) = match comp.kind {
        CompetitionKind::Keizer => ("LIMIT_KEIZER_PLAYERS", limits.keizer_players),
        CompetitionKind::RoundRobin => ("LIMIT_ROUND_ROBIN_PLAYERS", limits.round_robin_players),
        CompetitionKind::Swiss | CompetitionKind::Knockout => {
            ("LIMIT_SWISS_PLAYERS", limits.swiss_players)
        }
    };
    let entered: i64 = en::table
        .filter(en::competition_id.eq(id))
        .count()
        .get_result(c)?;
    crate::limits::check(
        "entrants",
        "entrants",
        entered as usize + entries.len(),
        var,
        limit,
    )?;
    // the competition's stamp first (the cached standings show the entrants): its row
    // lock (Postgres; SQLite holds the write lock already) queues concurrent entries,
    // so each seeds after the entrants entered before it (no two with one seed)
    crate::store::stamps::touch_now(c, Scope::Competition(id))?;
    let mut next_seed: i32 = en::table
        .filter(en::competition_id.eq(id))
        .select(diesel::dsl::max(en::seed))
        .first::<Option<i32>>(c)?
        .unwrap_or(0);
    let mut errs = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        match players::by_id(c, e.player_id)? {
            None => errs.push(FieldError::new(
                format!("entrants[{i}].player_id"),
                format!("no player {}", e.player_id),
            )),
            Some(p) if !p.active => errs.push(FieldError::new(
                format!("entrants[{i}].player_id"),
                format!("player {} is inactive", p.id),
            )),
            Some(_) => {}
        }
        if e.joins_at.is_some_and(|j| !(1..=99).contains(&j)) {
            errs.push(FieldError::new(
                format!("entrants[{i}].joins_at"),
                "must be from 1 to 99",
            ));
        }
        if e.excused_before.is_some_and(|x| !(0..=99).contains(&x)) {
            errs.push(FieldError::new(
                format!("entrants[{i}].excused_before"),
                "must be from 0 to 99",
            ));
        }
    }
    if !errs.is_empty() {
        return Err(ApiError::validation(errs));
    }
    for e in entries {
        next_seed += 1;
        let rating = ratings::on_date(c, e.player_id, source, date)?.map(|r| r.value);
        diesel::insert_into(en::table)
            .values(&NewEntrant {
                competition_id: id,
                player_id: e.player_id,
                seed: next_seed,
                rating,
                joins_at: e.joins_at.unwrap_or(1),
                excused_before: e.excused_before.unwrap_or(0),
                created_at: crate::store::now_utc(),
            })
            .execute(c)
            .map_err(|err| match ApiError::from(err) {
                ApiError::AlreadyExists { field, .. } => ApiError::AlreadyExists {
                    field,
                    detail: format!("player_id: player {} is already entered", e.player_id),
                },
                other => other,
            })?;
    }
    Ok(())
}

/// The entrants of a competition in seed order, each with the player's name.
pub fn entrants_named(
    c: &mut DbConn,
    competition: CompetitionId,
) -> ApiResult<Vec<(Entrant, String)>> {
    let rows = entrants_in_seed_order(c, competition)?;
    let mut out = Vec::with_capacity(rows.len());
    for e in rows {
        let name = crate::store::models::players::by_id(c, e.player_id)?
            .map(|p| p.name)
            .unwrap_or_default();
        out.push((e, name));
    }
    Ok(out)
}

/// Whether a competition is the blitz championship (a Dutch Swiss with a `blitz` block).
pub fn is_blitz(comp: &Competition) -> ApiResult<bool> {
    Ok(matches!(
        stored_params(comp)?.typed,
        CompetitionParams::Swiss(SwissParams { blitz: Some(_) })
    ))
}

/// 409 when the competition is a blitz championship whose check-in is closed: its number of
/// rounds was fixed from the players checked in, so the field no longer changes (a player who
/// leaves is withdrawn instead).
fn refuse_after_check_in(c: &mut DbConn, comp: &Competition) -> ApiResult<()> {
    use crate::store::schema::check_in_closures as cl;
    if is_blitz(comp)? && cl::table.find(comp.id).count().get_result::<i64>(c)? > 0 {
        return Err(ApiError::Conflict(format!(
            "the check-in of competition {} is closed: its players and its number of rounds \
             are fixed (a player who leaves is withdrawn)",
            comp.id
        )));
    }
    Ok(())
}

/// Withdraws an entrant who has no games yet (409 otherwise; 404 when not entered).
pub fn withdraw(c: &mut DbConn, id: CompetitionId, player: PlayerId) -> ApiResult<()> {
    use crate::store::schema::{games, rounds};
    let comp = load(c, id)?;
    refuse_after_check_in(c, &comp)?;
    let played: i64 = games::table
        .inner_join(rounds::table)
        .filter(rounds::competition_id.eq(id))
        .filter(games::white_id.eq(player).or(games::black_id.eq(player)))
        .count()
        .get_result(c)?;
    if played > 0 {
        return Err(ApiError::Conflict(format!(
            "player {player} already has games in competition {id}"
        )));
    }
    let n = diesel::delete(
        en::table
            .filter(en::competition_id.eq(id))
            .filter(en::player_id.eq(player)),
    )
    .execute(c)?;
    if n == 0 {
        return Err(ApiError::NotFound(format!(
            "player {player} is not entered in competition {id}"
        )));
    }
    crate::store::stamps::touch(c, Scope::Competition(id))?;
    Ok(())
}

/// The discipline of a competition for the result codes.
pub fn discipline(c: &Competition) -> Discipline {
    c.discipline
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comp(kind: CompetitionKind, system: Option<PairingSystem>, params: &str) -> Competition {
        let now = chrono::NaiveDate::from_ymd_opt(2026, 9, 4)
            .and_then(|d| d.and_hms_opt(20, 0, 0))
            .unwrap_or_default();
        Competition {
            id: CompetitionId(7),
            season_id: SeasonId(1),
            name: "c".into(),
            kind,
            discipline: Discipline::Chess,
            system,
            half: None,
            seeded_from: None,
            params: params.into(),
            tiebreaks: "[]".into(),
            time_control: serde_json::to_string(&TimeControl::club_default()).unwrap(),
            rules: "{}".into(),
            rounds_planned: None,
            version: 1,
            created_at: now,
            updated_at: now,
        }
    }

    fn internal(r: ApiResult<StoredParams>) -> String {
        match r {
            Err(ApiError::Internal(cause)) => cause,
            other => panic!("expected an internal error, got {other:?}"),
        }
    }

    #[test]
    fn params_decode_by_kind() {
        use CompetitionKind as K;
        let k = stored_params(&comp(K::Keizer, None, r#"{"top_value": 50}"#)).unwrap();
        assert!(matches!(k.typed, CompetitionParams::Keizer(_)));
        assert_eq!(
            Value::Object(k.object),
            serde_json::json!({"top_value": 50})
        );
        let s = stored_params(&comp(K::Swiss, Some(PairingSystem::Dutch), "{}")).unwrap();
        assert!(matches!(
            s.typed,
            CompetitionParams::Swiss(SwissParams { blitz: None })
        ));
        let d = stored_params(&comp(K::Swiss, Some(PairingSystem::DoubleSwiss), "{}")).unwrap();
        assert!(matches!(
            d.typed,
            CompetitionParams::DoubleSwiss(SwissParams { blitz: None })
        ));
        let r = stored_params(&comp(
            K::RoundRobin,
            Some(PairingSystem::Single),
            r#"{"lots_seed": 12, "prize_money": [100], "excluded_from_points": [4, "x"],
                "rights": [{"kind": "qualification", "name": "final", "slots": 2,
                            "prequalified": [9]}]}"#,
        ))
        .unwrap();
        match r.typed {
            CompetitionParams::RoundRobin(p) => {
                assert_eq!(p.lots_seed, Some(12));
                assert_eq!(p.prize_money, vec![serde_json::Number::from(100)]);
                assert_eq!(p.lots_order, None);
                assert_eq!(p.excluded_from_points, ["4", "x"]);
                assert_eq!(
                    p.rights,
                    [clubcomp_engine::round_robin::Right::Qualification {
                        name: "final".into(),
                        slots: 2,
                        prequalified: vec!["9".into()],
                    }]
                );
            }
            other => panic!("{other:?}"),
        }
        match stored_params(&comp(K::Knockout, None, "{}")).unwrap().typed {
            CompetitionParams::Knockout(KnockoutParams { playoff: None }) => {}
            other => panic!("{other:?}"),
        }
    }

    fn settings(kind: &str, system: Option<&str>, params: Value) -> ApiResult<Settings> {
        validate(&SettingsInput {
            kind: kind.into(),
            discipline: "chess".into(),
            system: system.map(String::from),
            params,
            tiebreaks: vec![],
            time_control: blitz_time_control(),
            rules: serde_json::json!({}),
        })
    }

    fn fields(r: ApiResult<Settings>) -> Vec<String> {
        match r {
            Err(ApiError::Validation { errors, .. }) => {
                errors.into_iter().map(|e| e.field).collect()
            }
            other => panic!("expected a validation error, got {other:?}"),
        }
    }

    /// The blitz block is stored with its defaults (check-in closes at 20:00, ⌈log2 n⌉ + 2
    /// rounds, at most 11) and decoded into the typed parameters.
    #[test]
    fn a_blitz_block_is_stored_with_its_defaults() {
        let s = settings(
            "swiss",
            Some("dutch"),
            serde_json::json!({"blitz": {"date": "2027-06-18"}}),
        )
        .unwrap();
        assert_eq!(
            s.params,
            serde_json::json!({"blitz": {"date": "2027-06-18", "check_in_closes": "20:00",
                "extra_rounds": 2, "max_rounds": 11}})
        );
        let mut c = comp(
            CompetitionKind::Swiss,
            Some(PairingSystem::Dutch),
            &s.params.to_string(),
        );
        let typed = stored_params(&c).unwrap().typed;
        let CompetitionParams::Swiss(SwissParams { blitz: Some(b) }) = typed else {
            panic!("{typed:?}")
        };
        assert_eq!(
            b.date,
            chrono::NaiveDate::from_ymd_opt(2027, 6, 18).unwrap()
        );
        assert_eq!(
            b.check_in_closes,
            chrono::NaiveTime::from_hms_opt(20, 0, 0).unwrap()
        );
        assert_eq!(
            b.rounds_rule(),
            clubcomp_engine::blitz::RoundsRule::default()
        );
        c.params = r#"{"blitz": {"date": "18-06-2027"}}"#.into();
        assert!(matches!(stored_params(&c), Err(ApiError::Internal(_))));
    }

    #[test]
    fn a_bad_blitz_block_names_each_field() {
        let bad = serde_json::json!({"blitz": {"date": "2027-02-30", "check_in_closes": "8 pm",
            "extra_rounds": 11, "max_rounds": 0, "tempo": 10}});
        let mut got = fields(settings("swiss", Some("dutch"), bad));
        got.sort();
        assert_eq!(
            got,
            [
                "params.blitz.check_in_closes",
                "params.blitz.date",
                "params.blitz.extra_rounds",
                "params.blitz.max_rounds",
                "params.blitz.tempo"
            ]
        );
        let no_date = serde_json::json!({"blitz": {"check_in_closes": "19:45"}});
        assert_eq!(
            fields(settings("swiss", Some("dutch"), no_date)),
            ["params.blitz.date"]
        );
        let ok = serde_json::json!({"blitz": {"date": "2027-06-18"}});
        assert_eq!(
            fields(settings("swiss", Some("double_swiss"), ok.clone())),
            ["params.blitz"]
        );
        assert_eq!(
            fields(settings("round_robin", Some("single"), ok)),
            ["params.blitz"]
        );
    }

    #[test]
    fn malformed_params_are_an_internal_error_naming_the_competition() {
        use CompetitionKind as K;
        for (kind, text) in [
            (K::Keizer, r#"{"top_value": 50"#),
            (K::Keizer, "[1, 2]"),
            (K::Keizer, r#"{"top_value": "fifty"}"#),
            (K::Swiss, "null"),
            (K::RoundRobin, r#"{"lots_order": 1"#),
            (K::RoundRobin, r#"{"lots_order": 1}"#),
            (K::RoundRobin, r#"{"prize_money": ["100"]}"#),
            (K::RoundRobin, r#"{"lots_seed": -1}"#),
            (K::Knockout, r#"{"summer_competition": "x"}"#),
        ] {
            let cause = internal(stored_params(&comp(kind, None, text)));
            assert!(cause.starts_with("competition 7: stored params"), "{cause}");
        }
    }

    #[test]
    fn malformed_settings_columns_are_an_internal_error() {
        let mut c = comp(CompetitionKind::Keizer, None, "{}");
        assert_eq!(stored_settings(&c).unwrap().kind, CompetitionKind::Keizer);
        c.tiebreaks = "[\"SB\"".into();
        assert!(matches!(stored_settings(&c), Err(ApiError::Internal(_))));
        c.tiebreaks = "[]".into();
        c.time_control = "{}".into();
        assert!(matches!(stored_settings(&c), Err(ApiError::Internal(_))));
    }
}

/// An entrant as shown.
#[derive(Debug, Serialize, ToSchema)]
pub struct EntrantView {
    /// Seed number (1 = top seed).
    pub seed: usize,
    /// Player id.
    pub player_id: i64,
    /// Player name.
    pub name: String,
    /// Rating on the seeding date (KNSB; KNSB-rapid for the rapid, KNDB for draughts).
    pub rating: Option<i32>,
    /// The round from which the player takes part.
    pub joins_at: i32,
    /// Excused absences already used earlier in the season.
    pub excused_before: i32,
    /// The first round the player no longer plays after withdrawing (`null`: not withdrawn).
    pub withdrawn_from: Option<i32>,
}

/// The entrants of a competition in seed order, as shown.
pub fn entrant_views(c: &mut DbConn, competition: CompetitionId) -> ApiResult<Vec<EntrantView>> {
    Ok(entrants_named(c, competition)?
        .into_iter()
        .enumerate()
        .map(|(i, (e, name))| EntrantView {
            seed: i + 1,
            player_id: e.player_id.get(),
            name,
            rating: e.rating,
            joins_at: e.joins_at,
            excused_before: e.excused_before,
            withdrawn_from: e.withdrawn_from,
        })
        .collect())
}

/// The entrants of competition `id` in seed order, as shown (404 when there is no such
/// competition).
pub fn entrants(c: &mut DbConn, id: CompetitionId) -> ApiResult<Vec<EntrantView>> {
    load(c, id)?;
    entrant_views(c, id)
}

/// Enters players ([`enter`]) and answers every entrant after, in the caller's transaction.
pub fn enter_and_view(
    c: &mut DbConn,
    id: CompetitionId,
    entries: &[Entry],
    limits: &crate::limits::WorkLimits,
) -> ApiResult<Vec<EntrantView>> {
    enter(c, id, entries, limits)?;
    entrant_views(c, id)
}
