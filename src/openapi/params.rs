//! A competition's `params`, per kind (docs/api-guide.md#a-competitions-params). These types
//! only describe the JSON object the service reads and stores (`services::competitions`); the
//! document's final stage ([`super::finish`]) makes a competition and a new competition one
//! variant per kind, each naming its kind's params here.

use crate::schemas::string_enum_schema;
use clubcomp_core::vocab::SwissAcceleration;

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
    /// Whether a withdrawn player can win a prize (docs/rules/keizer.md#withdrawal): `eligible`
    /// (default: the 50% rule alone decides) or `excluded`.
    #[schema(required = false, value_type = WithdrawnPrizes)]
    pub withdrawn_prizes: String,
    /// Pairs of player ids who are never paired against each other
    /// (docs/rules/keizer.md#forbidden-pairs), at most 200, each two different players.
    #[schema(required = false, max_items = 200)]
    pub forbidden_pairs: Vec<[i64; 2]>,
}

string_enum_schema!(
    pub WithdrawnPrizes,
    "Whether a withdrawn Keizer player can win a prize: `eligible` (the 50% rule alone decides) or `excluded`.",
    ["eligible", "excluded"]
);

/// A Swiss's parameters, as answered: a Dutch Swiss with a `blitz` block is the blitz
/// championship. Other members a client stored are kept and answered as they were sent.
#[derive(Debug, utoipa::ToSchema)]
pub struct SwissParams {
    /// The blitz championship's settings, every default filled in (a Dutch Swiss only).
    #[schema(required = false)]
    pub blitz: crate::services::competitions::BlitzParams,
    /// A Dutch Swiss's acceleration (docs/rules/rapid-blitz.md#acceleration): `none` (default)
    /// or `baku`, FIDE's Baku method from the field and `rounds_planned`.
    #[schema(required = false)]
    pub acceleration: SwissAcceleration,
    /// Pairs of player ids who never meet in a Dutch Swiss
    /// (docs/rules/rapid-blitz.md#forbidden-pairs), at most 200, each two different players.
    #[schema(required = false, max_items = 200)]
    pub forbidden_pairs: Vec<[i64; 2]>,
}

/// A Swiss's parameters, as sent: a `blitz` block (a Dutch Swiss only; a Double-Swiss with one
/// is refused) makes it the blitz championship
/// (docs/rules/rapid-blitz.md#the-blitz-championship). Other members are stored as sent.
#[derive(Debug, utoipa::ToSchema)]
pub struct SwissParamsInput {
    /// The blitz championship's settings.
    #[schema(required = false)]
    pub blitz: BlitzParamsInput,
    /// A Dutch Swiss's acceleration (docs/rules/rapid-blitz.md#acceleration): `none` (default)
    /// or `baku`, FIDE's Baku method from the field and `rounds_planned`.
    #[schema(required = false)]
    pub acceleration: SwissAcceleration,
    /// Pairs of player ids who never meet in a Dutch Swiss
    /// (docs/rules/rapid-blitz.md#forbidden-pairs), at most 200, each two different players.
    #[schema(required = false, max_items = 200)]
    pub forbidden_pairs: Vec<[i64; 2]>,
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
/// the drawing of lots, points tables, prize money, rights and protest settings. A list left out or `null` is
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
    /// What a protest to the KNDB protest committee asks for
    /// (docs/rules/draughts-championship.md#protests); left out: no time limit, form or
    /// deposit.
    pub protest: Option<ProtestSettings>,
}

/// A draughts championship's protest settings; each left out or `null` is the championship
/// rules' literal reading (none).
#[derive(Debug, utoipa::ToSchema)]
pub struct ProtestSettings {
    /// Calendar days (Europe/Amsterdam) after the day of the decision within which a protest
    /// must be lodged; left out: no time limit.
    #[schema(minimum = 1, maximum = 365)]
    pub days: Option<u32>,
    /// Whether a protest must be made in writing (default false).
    pub in_writing: Option<bool>,
    /// The deposit to be paid with a protest (0 or left out: none).
    #[schema(minimum = 0, maximum = 1000000)]
    pub deposit: Option<f64>,
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
