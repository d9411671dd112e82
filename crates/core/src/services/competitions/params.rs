//! The parameters of each kind of competition: playoffs, Swiss, blitz, round robin and
//! knockout, checked when they are stored.

use crate::error::FieldError;
use crate::ids::PlayerId;
use crate::vocab::SwissAcceleration;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::*;

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
    /// How the first rounds are accelerated (docs/rules/rapid-blitz.md#acceleration).
    pub acceleration: SwissAcceleration,
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
            None | Some(Value::Null) => SwissAcceleration::None,
            Some(v) => match v.as_str().map(str::parse::<SwissAcceleration>) {
                Some(Ok(a)) => a,
                _ => {
                    errs.push(FieldError::new(
                        "params.acceleration",
                        "must be \"none\" or \"baku\"",
                    ));
                    SwissAcceleration::None
                }
            },
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
    /// Whether a guest may take the title (docs/rules/rapid-blitz.md#guests-and-the-title):
    /// `eligible` (default, the club rules' literal reading) or `members_only`.
    #[schema(value_type = GuestTitleSchema)]
    pub guest_title: clubcomp_engine::GuestTitle,
}

crate::schemas::string_enum_schema!(
    pub GuestTitleSchema,
    "Who may take the blitz title: `eligible` (anyone, guests too; the default) or `members_only` (guests keep their places but play no play-off for first and take no title).",
    clubcomp_engine::GuestTitle::NAMES
);

/// The `guest_title` of a blitz block: `eligible` when absent, else the value named, or an
/// error naming `params.blitz.guest_title`.
fn guest_title(
    v: Option<&Value>,
    errs: &mut Vec<FieldError>,
) -> Option<clubcomp_engine::GuestTitle> {
    let Some(v) = v else {
        return Some(clubcomp_engine::GuestTitle::Eligible);
    };
    let t = v.as_str().and_then(|s| {
        clubcomp_engine::GuestTitle::ALL
            .iter()
            .copied()
            .find(|g| g.as_str() == s)
    });
    if t.is_none() {
        errs.push(FieldError::new(
            "params.blitz.guest_title",
            "must be eligible or members_only",
        ));
    }
    t
}

pub(super) fn hh_mm<S: serde::Serializer>(t: &chrono::NaiveTime, s: S) -> Result<S::Ok, S::Error> {
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
            if ![
                "date",
                "check_in_closes",
                "extra_rounds",
                "max_rounds",
                "guest_title",
            ]
            .contains(&k.as_str())
            {
                errs.push(FieldError::new(
                    format!("{AT}.{k}"),
                    "unknown field (expected date, check_in_closes, extra_rounds, max_rounds, \
                     guest_title)",
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
        let guest_title = guest_title(o.get("guest_title"), errs);
        match (date, closes, extra, max, guest_title) {
            (
                Some(date),
                Some(check_in_closes),
                Some(extra_rounds),
                Some(max_rounds),
                Some(guest_title),
            ) if errs.len() == before => Some(BlitzParams {
                date,
                check_in_closes,
                extra_rounds,
                max_rounds,
                guest_title,
            }),
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
    /// What a protest to the protest committee asks for (`params.protest`;
    /// docs/rules/draughts-championship.md#protests): by default no time limit, form or deposit.
    pub protest: ProtestParams,
}

/// A round robin's protest settings (`params.protest`, decision 0274): `days` after the day
/// of the decision (1 to 365; absent: no time limit), `in_writing` (default false) and a
/// `deposit` amount (default none; a positive amount must be paid with the protest).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProtestParams {
    /// The engine's rules.
    pub rules: clubcomp_engine::arbiter::ProtestRules,
    /// The deposit, when one is asked.
    pub deposit: Option<serde_json::Number>,
}

impl ProtestParams {
    /// Reads `params.protest`, naming each bad field; absent or `null` is the default.
    fn read(v: Option<&Value>, errs: &mut Vec<FieldError>) -> Option<Self> {
        let o = match v {
            None | Some(Value::Null) => return Some(Self::default()),
            Some(Value::Object(o)) => o,
            Some(_) => {
                errs.push(FieldError::new(
                    "params.protest",
                    "must be an object {\"days\", \"in_writing\", \"deposit\"}",
                ));
                return None;
            }
        };
        let before = errs.len();
        let mut out = Self::default();
        for (k, v) in o {
            match (k.as_str(), v) {
                (_, Value::Null) => {}
                ("days", v) => match v.as_u64().filter(|d| (1..=365).contains(d)) {
                    Some(d) => out.rules.days = u32::try_from(d).ok(),
                    None => errs.push(FieldError::new(
                        "params.protest.days",
                        "must be a whole number of days from 1 to 365",
                    )),
                },
                ("in_writing", Value::Bool(b)) => out.rules.in_writing = *b,
                ("deposit", Value::Number(n))
                    if n.as_f64().is_some_and(|x| (0.0..=1_000_000.0).contains(&x)) =>
                {
                    out.rules.deposit = n.as_f64().is_some_and(|x| x > 0.0);
                    out.deposit = out.rules.deposit.then(|| n.clone());
                }
                ("in_writing", _) => errs.push(FieldError::new(
                    "params.protest.in_writing",
                    "must be true or false",
                )),
                ("deposit", _) => errs.push(FieldError::new(
                    "params.protest.deposit",
                    "must be an amount from 0 to 1000000",
                )),
                (other, _) => errs.push(FieldError::new(
                    format!("params.protest.{other}"),
                    "unknown setting: only days, in_writing and deposit",
                )),
            }
        }
        (errs.len() == before).then_some(out)
    }
}

/// A player id in a round robin's params: a whole number or a string, as the engine's string id.
pub(super) fn player_id_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => n.as_i64().map(|n| n.to_string()),
        _ => None,
    }
}

/// Decodes the list under `params.{key}` item by item with `item`, naming the first bad item
/// with `rule`; absent or `null` is `None`.
pub(super) fn rr_list<T>(
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
        let protest = ProtestParams::read(o.get("protest"), errs);
        if errs.len() != before {
            return None;
        }
        // an absent or null list is an empty one
        Some(RoundRobinParams {
            protest: protest?,
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
pub(super) const PLAYOFF_KEYS: [&str; 3] = ["summer_competition", "colour_seed", "draw"];

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
pub(super) fn read_playoff_draw(
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
