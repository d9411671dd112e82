//! The value lists of the string fields the answers show, as OpenAPI schemas: each field
//! whose values are a closed set names one of these (`#[schema(value_type = ...)]`), so that
//! a generated client gets an enum instead of a plain string (docs/api-guide.md#value-lists).
//! The vocabulary of the engine crate keeps its own wire strings (`NAMES`); the schemas here
//! list them without the engine crate knowing of OpenAPI.

use crate::openapi::string_enum_schema;

string_enum_schema!(
    pub CompetitionKind,
    "A competition kind: `keizer`, `swiss`, `round_robin` or `knockout`.",
    clubcomp_engine::CompetitionKind::NAMES
);

string_enum_schema!(
    pub Discipline,
    "A discipline: `chess` or `draughts`.",
    clubcomp_engine::Discipline::NAMES
);

string_enum_schema!(
    pub PairingSystem,
    "A pairing system: `dutch` or `double_swiss` for a swiss, `single` or `double` for a round robin.",
    clubcomp_engine::PairingSystem::NAMES
);

string_enum_schema!(
    pub KeizerHalf,
    "A half of a Keizer season: `winter` or `summer`.",
    clubcomp_engine::Half::NAMES
);

string_enum_schema!(
    pub EveningKind,
    "An evening kind: `keizer`, `rapid`, `closed`, `playoff`, `blitz` or `free`.",
    clubcomp_engine::EveningKind::NAMES
);

string_enum_schema!(
    pub Membership,
    "A membership type: `fixed`, `flexible` or `guest`.",
    clubcomp_engine::Membership::NAMES
);

string_enum_schema!(
    pub EventVisibility,
    "Who may see an event of the log: `public`, `arbiter`, `leader` or `admin`.",
    ["public", "arbiter", "leader", "admin"]
);

string_enum_schema!(
    pub RoundStatus,
    "A round's status: `planned`, `paired`, `published` or `completed`.",
    crate::services::rounds::STATUSES
);

string_enum_schema!(
    pub AttendanceStatus,
    "A player's attendance status for a round: `expected`, `signed_up`, `not_signed_up`, `excused`, `unexcused`, `present`, `no_show`, `checked_in` or `not_checked_in`.",
    [
        "expected",
        "signed_up",
        "not_signed_up",
        "excused",
        "unexcused",
        "present",
        "no_show",
        "checked_in",
        "not_checked_in",
    ]
);

string_enum_schema!(
    pub ChangeAction,
    "A recorded attendance change: `sign_up`, `sign_off`, `force_majeure`, `present` or `absent`.",
    crate::services::attendance::ACTIONS
);

string_enum_schema!(
    pub ChangeChannel,
    "How an attendance change reached the club: `account`, `email`, `phone` or `in_person`.",
    crate::services::attendance::CHANNELS
);

string_enum_schema!(
    pub Capacity,
    "The capacity a change was recorded in: `member`, `leader` or `arbiter`.",
    ["member", "leader", "arbiter"]
);

string_enum_schema!(
    pub CheckInStatus,
    "The state of a check-in: `open` or `closed`.",
    ["open", "closed"]
);

string_enum_schema!(
    pub ClaimKind,
    "What a stored claim is about: the kinds a claim is brought with (`threefold_repetition`, `fifty_moves`, `quickplay_finish`, `draughts_third_time`, `draughts_can_repeat`, `draughts_twenty_five_moves`, `draughts_endgame_limit`, `draughts_lasting_advantage`) and `draughts_repetition` for a claim recorded as a plain event.",
    [
        "threefold_repetition",
        "fifty_moves",
        "quickplay_finish",
        "draughts_third_time",
        "draughts_can_repeat",
        "draughts_repetition",
        "draughts_twenty_five_moves",
        "draughts_endgame_limit",
        "draughts_lasting_advantage",
    ]
);

string_enum_schema!(
    pub ClaimStatus,
    "A claim's status: `pending`, `postponed`, `upheld` or `rejected` (the last two are final).",
    ["pending", "postponed", "upheld", "rejected"]
);

string_enum_schema!(
    pub AppealRuling,
    "The board's ruling on an appeal: `upheld` or `dismissed`.",
    ["upheld", "dismissed"]
);

string_enum_schema!(
    pub Prize,
    "A Keizer prize: `winter_champion`, `silver`, `bronze`, `best_of_the_rest` or `summer_champion`.",
    [
        "winter_champion",
        "silver",
        "bronze",
        "best_of_the_rest",
        "summer_champion",
    ]
);

string_enum_schema!(
    pub PrizeListKind,
    "The kind of a prize list: `keizer` or `round_robin`.",
    ["keizer", "round_robin"]
);

string_enum_schema!(
    pub StandingsKind,
    "The kind of a table: `keizer`, `swiss` or `round_robin`.",
    ["keizer", "swiss", "round_robin"]
);

string_enum_schema!(
    pub PlayoffOutcome,
    "The outcome of a playoff game: `white_wins`, `black_wins` or `draw`.",
    ["white_wins", "black_wins", "draw"]
);

string_enum_schema!(
    pub PlayoffMatch,
    "A match of a playoff group: `semi1` (1–4), `semi2` (2–3) or `final`.",
    ["semi1", "semi2", "final"]
);

string_enum_schema!(
    pub FirstPlaceStatus,
    "The state of a play-off for first: `pending`, `champion`, `arbiter_decides` or `decided`.",
    ["pending", "champion", "arbiter_decides", "decided"]
);

/// The FIDE tie-break acronyms the document lists (C.07, individual events; Cut-n and
/// Median-n for n = 1 and 2).
pub const TIEBREAK_ACRONYMS: [&str; 37] = [
    "PTS", "DE", "WIN", "WON", "BPG", "BWG", "REP", "GE", "PS", "PS-C1", "PS-C2", "KS", "BH",
    "BH-C1", "BH-C2", "BH-M1", "BH-M2", "FB", "FB-C1", "FB-C2", "FB-M1", "FB-M2", "SB", "SB-C1",
    "SB-C2", "SB-M1", "SB-M2", "AOB", "ARO", "ARO-C1", "ARO-C2", "ARO-M1", "ARO-M2", "TPR", "PTP",
    "APRO", "APPO",
];

/// The round-robin tie-break criteria by name, as a competition's tie-break list holds them.
pub const ROUND_ROBIN_TIEBREAKS: [&str; 8] = [
    "wins",
    "plusremise_balance",
    "plusremises",
    "mutual",
    "ranking_order",
    "sonneborn_berger",
    "direct_encounter",
    "lots",
];

/// Every tie-break a competition's list may name: the FIDE acronyms (a Swiss) and the
/// round-robin criteria.
pub fn competition_tiebreaks() -> Vec<&'static str> {
    TIEBREAK_ACRONYMS
        .iter()
        .chain(ROUND_ROBIN_TIEBREAKS.iter())
        .copied()
        .collect()
}

string_enum_schema!(
    pub CompetitionTiebreak,
    "A tie-break of a competition: a FIDE acronym for a Swiss (see `TiebreakAcronym`; any n up to 30 of Cut-n and Median-n, lower case and `/` for `-` are read too), or a criterion for a round robin (`wins`, `plusremise_balance`, `plusremises`, `mutual`, `ranking_order`, `sonneborn_berger`, `direct_encounter`, `lots`).",
    competition_tiebreaks()
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_round_robin_criteria_are_the_engines() {
        for name in ROUND_ROBIN_TIEBREAKS {
            let parsed: Result<clubcomp_engine::round_robin::Tiebreak, _> =
                serde_json::from_value(serde_json::Value::String(name.into()));
            assert!(parsed.is_ok(), "{name}");
        }
        assert_eq!(competition_tiebreaks().len(), 37 + 8);
    }
}

// ---------------------------------------------------------------------------------------
// A competition's `params`, per kind (docs/api-guide.md#a-competitions-params). These types
// only describe the JSON object the service reads and stores (`services::competitions`); the
// document's final stage (`openapi::finish`) makes a competition and a new competition one
// variant per kind, each naming its kind's params here.

/// A Keizer half's scoring parameters (docs/rules/keizer.md#scoring): numbers of at most four
/// decimals, none negative. Each one left out takes the club's default; no other member is
/// accepted.
#[derive(Debug, utoipa::ToSchema)]
pub struct KeizerParams {
    /// Value of rank 1 (default 60).
    #[schema(required = false, minimum = 0, maximum = 922337203685477_i64)]
    pub top_value: i64,
    /// Step down in value per rank (default 1).
    #[schema(required = false, minimum = 0, maximum = 922337203685477_i64)]
    pub step: i64,
    /// Factor × the opponent's value for a win (default 1).
    #[schema(required = false, minimum = 0, maximum = 922337203685477_i64)]
    pub win: f64,
    /// Factor × the opponent's value for a draw (default 0.5).
    #[schema(required = false, minimum = 0, maximum = 922337203685477_i64)]
    pub draw: f64,
    /// Fixed points for a loss (default 5).
    #[schema(required = false, minimum = 0, maximum = 922337203685477_i64)]
    pub loss: f64,
    /// Factor × the own value for a pairing bye (default 1).
    #[schema(required = false, minimum = 0, maximum = 922337203685477_i64)]
    pub bye: f64,
    /// Factor × the own value for an excused absence within the cap (default 0.3333).
    #[schema(required = false, minimum = 0, maximum = 922337203685477_i64)]
    pub excused: f64,
    /// How many excused absences per season score (default 5).
    #[schema(required = false, minimum = 0, maximum = 4294967295_u64)]
    pub excused_cap: u32,
    /// Factor × the own value for a forfeit win (default 1).
    #[schema(required = false, minimum = 0, maximum = 922337203685477_i64)]
    pub forfeit_win: f64,
}

/// A Swiss's parameters, as answered: a Dutch Swiss with a `blitz` block is the blitz
/// championship. Other members a client stored are kept and answered as they were sent.
#[derive(Debug, utoipa::ToSchema)]
pub struct SwissParams {
    /// The blitz championship's settings, every default filled in (a Dutch Swiss only).
    #[schema(required = false)]
    pub blitz: crate::services::competitions::BlitzParams,
}

/// A Swiss's parameters, as sent: a `blitz` block (a Dutch Swiss only; a Double-Swiss with one
/// is refused) makes it the blitz championship
/// (docs/rules/rapid-blitz.md#the-blitz-championship). Other members are stored as sent.
#[derive(Debug, utoipa::ToSchema)]
pub struct SwissParamsInput {
    /// The blitz championship's settings.
    #[schema(required = false)]
    pub blitz: BlitzParamsInput,
}

/// The blitz championship's settings as sent: the evening, and optionally when check-in
/// closes and the rounds rule; what is left out takes its default.
#[derive(Debug, utoipa::ToSchema)]
#[schema(example = json!({"date": "2027-06-18"}))]
pub struct BlitzParamsInput {
    /// The evening of the championship (`YYYY-MM-DD`).
    #[schema(value_type = crate::services::date::ApiDate)]
    pub date: String,
    /// The club's local time at which check-in closes (`HH:MM`, default `20:00`).
    #[schema(required = false, pattern = r"^([01][0-9]|2[0-3]):[0-5][0-9]$")]
    pub check_in_closes: String,
    /// Rounds beyond ⌈log2 n⌉ for n participants, 0–10 (default 2).
    #[schema(required = false, minimum = 0, maximum = 10)]
    pub extra_rounds: u32,
    /// The most rounds the evening holds, 1–99 (default 11).
    #[schema(required = false, minimum = 1, maximum = 99)]
    pub max_rounds: u32,
}

/// A player in a round robin's params: the player id, as a whole number or as a string.
#[derive(Debug)]
pub struct ParamsPlayerId;

impl utoipa::PartialSchema for ParamsPlayerId {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
        OneOfBuilder::new()
            .description(Some(
                "A player id, as a whole number or as a string (kept as sent).",
            ))
            .item(ObjectBuilder::new().schema_type(Type::Integer).format(Some(
                utoipa::openapi::SchemaFormat::KnownFormat(utoipa::openapi::KnownFormat::Int64),
            )))
            .item(ObjectBuilder::new().schema_type(Type::String))
            .into()
    }
}

impl utoipa::ToSchema for ParamsPlayerId {}

/// A round robin's parameters (docs/rules/draughts-championship.md#final-order-and-the-tie-break-chain):
/// the drawing of lots, points tables, prize money and rights. A list left out or `null` is
/// empty. The service stores `lots_seed` itself the first time the standings need lots. Other
/// members a client stored are kept and answered as they were sent.
#[derive(Debug, utoipa::ToSchema)]
pub struct RoundRobinParams {
    /// Seed of the drawing of lots.
    #[schema(minimum = 0)]
    pub lots_seed: Option<u64>,
    /// An order drawn by the arbiter (player ids), instead of a seed.
    #[schema(value_type = Option<Vec<ParamsPlayerId>>)]
    pub lots_order: Option<Vec<String>>,
    /// Points tables (e.g. master points) by place.
    pub points_tables: Option<Vec<PointsTable>>,
    /// Players who take no points from the tables (player ids).
    #[schema(value_type = Option<Vec<ParamsPlayerId>>)]
    pub excluded_from_points: Option<Vec<String>>,
    /// Prize money by place.
    pub prize_money: Option<Vec<f64>>,
    /// Rights (titles, qualifications, cuts) by place.
    pub rights: Option<Vec<RoundRobinRight>>,
}

/// Points awarded by place, shared among equal match points.
#[derive(Debug, utoipa::ToSchema)]
pub struct PointsTable {
    /// Name of the table (e.g. `grandmaster`).
    pub name: String,
    /// Points for place 1, 2, …
    pub by_place: Vec<f64>,
}

string_enum_schema!(
    pub RightKind,
    "What a right of a round robin's final order gives: `title`, `qualification` or `cut`.",
    ["title", "qualification", "cut"]
);

/// A right earned by a round robin's final order: a title for the first `places`, a
/// qualification with `slots` for the best-placed players not `prequalified`, or a cut that
/// names the first `places` and calls the rest `others`.
#[derive(Debug, utoipa::ToSchema)]
pub struct RoundRobinRight {
    /// The kind of right.
    #[schema(value_type = RightKind)]
    pub kind: String,
    /// Name of the title, the qualification, or of the players above the cut.
    pub name: String,
    /// How many places (a title or a cut).
    #[schema(required = false, minimum = 0)]
    pub places: u32,
    /// How many players qualify (a qualification).
    #[schema(required = false, minimum = 0)]
    pub slots: u32,
    /// Players already qualified, passed over (a qualification).
    #[schema(required = false, value_type = Vec<ParamsPlayerId>)]
    pub prequalified: Vec<String>,
    /// Name for the players below the cut (a cut).
    pub others: Option<String>,
}

/// A knockout's parameters: the playoff draw the prizes service stores when it makes the
/// playoffs of a Keizer season (docs/rules/keizer.md#playoffs): all three members or none (a
/// knockout made otherwise). Other members a client stored are kept as they were sent.
#[derive(Debug, utoipa::ToSchema)]
pub struct KnockoutParams {
    /// The summer half the playoffs come from.
    #[schema(required = false)]
    pub summer_competition: i64,
    /// Seed of the colour lots.
    #[schema(required = false, minimum = 0)]
    pub colour_seed: u64,
    /// The groups and the player without a group.
    #[schema(required = false)]
    pub draw: StoredPlayoffDraw,
}

/// The cut of the eligible players into playoff groups.
#[derive(Debug, utoipa::ToSchema)]
pub struct StoredPlayoffDraw {
    /// The groups, top group first, numbered 1, 2, … in order.
    #[schema(max_items = 100)]
    pub groups: Vec<StoredPlayoffGroup>,
    /// A single remaining player, who has no group (player id).
    pub without_group: Option<String>,
}

/// One playoff group: 2 to 4 players, best seed first.
#[derive(Debug, utoipa::ToSchema)]
pub struct StoredPlayoffGroup {
    /// Group number, 1 = the top group.
    #[schema(minimum = 1)]
    pub number: u32,
    /// Player ids (1–64 characters) in summer-ranking order.
    #[schema(min_items = 2, max_items = 4)]
    pub seeds: Vec<String>,
}
