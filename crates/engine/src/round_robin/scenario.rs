//! The input and output of a round-robin calculation, as in
//! `docs/formats/round-robin-scenario.md` (the same JSON the service exposes).

use super::result::{Discipline, Termination};
use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A finished or running round robin.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    /// Chess (1-½-0) or draughts (2-1-0).
    pub discipline: Discipline,
    /// Players in pairing-number order.
    pub players: Vec<RoundRobinPlayer>,
    /// Games with a result; a game without a result (or `*`) is not yet played.
    #[serde(default)]
    pub games: Vec<RoundRobinGame>,
    /// Ordered tie-break list; when absent, the discipline's default
    /// ([`default_tiebreaks`]).
    #[serde(default)]
    pub tiebreaks: Option<Vec<RoundRobinTiebreak>>,
    /// Seed of the drawing of lots (ChaCha8).
    #[serde(default)]
    pub lots_seed: Option<u64>,
    /// A drawing of lots entered by hand: ids, the first drawn ranks highest.
    #[serde(default)]
    pub lots_order: Option<Vec<String>>,
    /// Points tables by place (e.g. grandmaster 3, 2, 1).
    #[serde(default)]
    pub points_tables: Vec<PointsTable>,
    /// Players left out when places are counted for the points tables (e.g. a guest).
    #[serde(default)]
    pub excluded_from_points: Vec<String>,
    /// Prize money by place.
    #[serde(default)]
    pub prize_money: Vec<serde_json::Number>,
    /// Titles, qualifications and cuts.
    #[serde(default)]
    pub rights: Vec<Right>,
    /// Players who withdrew, each from a round (docs/rules/draughts-championship.md#withdrawal).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub withdrawn: Vec<Withdrawal>,
    /// Cycles of the schedule (1 single, 2 double; default 1): with the number of players,
    /// how many games each player is due when someone withdraws.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cycles: Option<u32>,
}

/// A player of the round robin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRobinPlayer {
    /// Unique id.
    pub id: String,
    /// Display name.
    #[serde(default)]
    pub name: Option<String>,
}

/// One game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRobinGame {
    /// Round number, 1-based.
    pub round: u32,
    /// Id of the player with white.
    pub white: String,
    /// Id of the player with black.
    pub black: String,
    /// Result code of the discipline; absent, empty or `*` while not played.
    #[serde(default)]
    pub result: Option<String>,
    /// How the game ended; `agreed` draughts draws are subject to the 40-move rule.
    #[serde(default)]
    pub termination: Option<Termination>,
    /// Moves completed by both players (for the 40-move rule).
    #[serde(default)]
    pub moves: Option<u32>,
}

/// A tie-break criterion (docs/rules/rapid-blitz.md#tie-breaks, docs/rules/draughts-championship.md#final-order-and-the-tie-break-chain).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundRobinTiebreak {
    /// Most wins (forfeit wins count).
    Wins,
    /// Best plusremises minus minremises.
    PlusremiseBalance,
    /// Most plusremises.
    Plusremises,
    /// Most points in the games among the players of the part still tied at that step.
    Mutual,
    /// Best score against the ranking order by points alone, group by group from the top.
    RankingOrder,
    /// Sonneborn-Berger: the sum over games of the score times the opponent's points.
    SonnebornBerger,
    /// FIDE direct encounter: points among the players still tied at that step.
    DirectEncounter,
    /// Drawing of lots.
    Lots,
}

impl RoundRobinTiebreak {
    /// Every criterion, in declaration order.
    pub const ALL: [RoundRobinTiebreak; 8] = [
        RoundRobinTiebreak::Wins,
        RoundRobinTiebreak::PlusremiseBalance,
        RoundRobinTiebreak::Plusremises,
        RoundRobinTiebreak::Mutual,
        RoundRobinTiebreak::RankingOrder,
        RoundRobinTiebreak::SonnebornBerger,
        RoundRobinTiebreak::DirectEncounter,
        RoundRobinTiebreak::Lots,
    ];

    /// The criterion a name of the JSON names (`direct_encounter`), exactly as written.
    pub fn parse(s: &str) -> Option<RoundRobinTiebreak> {
        RoundRobinTiebreak::ALL.into_iter().find(|t| t.name() == s)
    }

    /// The name used in the JSON.
    pub fn name(self) -> &'static str {
        match self {
            RoundRobinTiebreak::Wins => "wins",
            RoundRobinTiebreak::PlusremiseBalance => "plusremise_balance",
            RoundRobinTiebreak::Plusremises => "plusremises",
            RoundRobinTiebreak::Mutual => "mutual",
            RoundRobinTiebreak::RankingOrder => "ranking_order",
            RoundRobinTiebreak::SonnebornBerger => "sonneborn_berger",
            RoundRobinTiebreak::DirectEncounter => "direct_encounter",
            RoundRobinTiebreak::Lots => "lots",
        }
    }
}

/// What separated a row of the final order from the next one: the points, or a criterion of
/// the tie-break list. Written as `points` or the criterion's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Separator {
    /// The points differ.
    Points,
    /// Level on points, separated by this criterion.
    Criterion(RoundRobinTiebreak),
}

impl Separator {
    /// Every separator: the points, then each criterion in declaration order.
    pub fn all() -> impl Iterator<Item = Separator> {
        std::iter::once(Separator::Points).chain(
            RoundRobinTiebreak::ALL
                .into_iter()
                .map(Separator::Criterion),
        )
    }

    /// The name used in the JSON (`points`, `mutual`).
    pub fn name(self) -> &'static str {
        match self {
            Separator::Points => "points",
            Separator::Criterion(t) => t.name(),
        }
    }

    /// The separator a name of the JSON names, exactly as written.
    pub fn parse(s: &str) -> Option<Separator> {
        Separator::all().find(|x| x.name() == s)
    }
}

impl std::fmt::Display for Separator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Separator {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Separator {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Separator, D::Error> {
        let s = String::deserialize(d)?;
        Separator::parse(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown separator {s:?}")))
    }
}

/// The tie-break list used when the scenario gives none: docs/rules/draughts-championship.md#final-order-and-the-tie-break-chain for draughts; for chess
/// direct encounter, wins, Sonneborn-Berger (FIDE C.07's advice for round robins).
pub fn default_tiebreaks(discipline: Discipline) -> Vec<RoundRobinTiebreak> {
    match discipline {
        Discipline::Draughts => vec![
            RoundRobinTiebreak::Wins,
            RoundRobinTiebreak::PlusremiseBalance,
            RoundRobinTiebreak::Plusremises,
            RoundRobinTiebreak::Mutual,
            RoundRobinTiebreak::RankingOrder,
            RoundRobinTiebreak::Lots,
        ],
        Discipline::Chess => vec![
            RoundRobinTiebreak::DirectEncounter,
            RoundRobinTiebreak::Wins,
            RoundRobinTiebreak::SonnebornBerger,
        ],
    }
}

/// Points awarded by place, shared among equal match points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PointsTable {
    /// Name of the table (e.g. `grandmaster`).
    pub name: String,
    /// Points for place 1, 2, …
    pub by_place: Vec<serde_json::Number>,
}

/// A right earned by the final order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Right {
    /// The first `places` after all tie-breaks get the title `name`.
    Title {
        /// Name of the title.
        name: String,
        /// How many places.
        places: u32,
    },
    /// `slots` go to the best-placed players who are not `prequalified`.
    Qualification {
        /// Name of the qualification.
        name: String,
        /// How many players qualify.
        slots: u32,
        /// Players already qualified: passed over.
        #[serde(default)]
        prequalified: Vec<String>,
    },
    /// The first `places` get `name`, the rest `others`.
    Cut {
        /// Name for the players above the cut.
        name: String,
        /// How many places are above the cut.
        places: u32,
        /// Name for the rest (none when absent).
        #[serde(default)]
        others: Option<String>,
    },
}

/// The result of a calculation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoundRobinOutput {
    /// Rows in final order.
    pub standings: Vec<Row>,
    /// `cross_table[i][j]`: what player i scored against player j (pairing-number order).
    pub cross_table: Vec<Vec<String>>,
    /// What the withdrawal rule made of each withdrawal (absent when nobody withdrew).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub withdrawals: Vec<WithdrawalOutcome>,
}

/// One row of the final standings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Place after all tie-breaks; players still tied share the highest place of their part.
    pub place: u32,
    /// Ids still tied with this player when the tie-break list is exhausted.
    pub shared_with: Vec<String>,
    /// Player id.
    pub id: String,
    /// Match points (chess: halves as `5.5`).
    pub points: serde_json::Number,
    /// Games with a result (forfeits included).
    pub games: u32,
    /// Wins, forfeit wins included.
    pub wins: u32,
    /// Draws, plus- and minremises included.
    pub draws: u32,
    /// Losses, forfeits and 0-0 included.
    pub losses: u32,
    /// Plusremises booked.
    pub plusremises: u32,
    /// Minremises booked.
    pub minremises: u32,
    /// Tie-break values in list order (see the decisions file for which are shown).
    pub tiebreaks: OrderedMap<serde_json::Value>,
    /// The criterion that separated this row from the next one (`points` when the points
    /// did); `null` for the last row and for a row still tied with the next.
    pub decided_by: Option<Separator>,
    /// Share of each points table, exact (`"1.5"`, `"5/3"`).
    pub points_tables: OrderedMap<String>,
    /// Share of the prize money, exact.
    pub prize_money: String,
    /// Rights earned, in the order of the scenario's `rights`.
    pub rights: Vec<String>,
    /// The round from which the player withdrew (absent when they did not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawn_from: Option<u32>,
}

/// A JSON object that keeps its keys in insertion order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OrderedMap<V>(pub Vec<(String, V)>);

impl<V> OrderedMap<V> {
    /// The value under `key`.
    pub fn get(&self, key: &str) -> Option<&V> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

impl<V: Serialize> Serialize for OrderedMap<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for OrderedMap<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V2<V>(std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for V2<V> {
            type Value = OrderedMap<V>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
                let mut v = Vec::new();
                while let Some((k, x)) = a.next_entry()? {
                    v.push((k, x));
                }
                Ok(OrderedMap(v))
            }
        }
        d.deserialize_map(V2(std::marker::PhantomData))
    }
}

/// A withdrawal as given in the scenario.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Withdrawal {
    /// The player.
    pub id: String,
    /// The first round the player no longer plays (1-based).
    pub from_round: u32,
}

/// What the rule made of a withdrawal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WithdrawalRule {
    /// Half of the games or fewer played: every result of the player is annulled.
    ResultsAnnulled,
    /// More than half played: the results stand, the games still due are lost by forfeit.
    RemainingForfeited,
}

/// One withdrawal in the output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WithdrawalOutcome {
    /// The player.
    pub id: String,
    /// The first round the player no longer plays.
    pub from_round: u32,
    /// Games the player played over the board before withdrawing.
    pub played: u32,
    /// Games the player was due: (players − 1) × cycles.
    pub due: u32,
    /// Which rule applied.
    pub rule: WithdrawalRule,
    /// Forfeit wins given to opponents for the games still due.
    pub forfeits: u32,
}
