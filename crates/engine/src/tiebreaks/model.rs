//! The input and output model of the tie-break engine: per player, per round, who the opponent
//! was, which colour, and what the round was worth (played game, forfeit or bye).

use crate::fixed::Fixed;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A score or tie-break value, exact in ten-thousandths (half points and quarter points are
/// exact). Serialized as a plain JSON number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Value(pub Fixed);

impl Value {
    /// Zero.
    pub const ZERO: Value = Value(Fixed::ZERO);
    /// Half a point.
    pub const HALF: Value = Value(Fixed(5_000));
    /// One point.
    pub const ONE: Value = Value(Fixed(10_000));

    /// The raw count of ten-thousandths.
    pub fn units(self) -> i64 {
        self.0.0
    }

    /// A whole number.
    pub fn from_int(n: i64) -> Value {
        Value(Fixed::from_int(n))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        let n = serde_json::Number::deserialize(d)?;
        Fixed::from_json_number(&n)
            .map(Value)
            .map_err(serde::de::Error::custom)
    }
}

/// The colour a player had in a round (none for byes and absences).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    /// White pieces.
    White,
    /// Black pieces.
    Black,
}

/// What a round was for one player (TRF result codes in brackets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Won over the board (`1`, also the unrated `W`).
    Win,
    /// Drawn over the board (`=`, `D`).
    Draw,
    /// Lost over the board (`0`, `L`).
    Loss,
    /// Paired, the opponent did not play: a win without playing (`+`).
    ForfeitWin,
    /// Paired, did not play: a loss without playing (`-` with an opponent).
    ForfeitLoss,
    /// Pairing-allocated bye (`U`): worth a win.
    PairingBye,
    /// Full-point bye (`F`), e.g. requested with a full point by the regulations.
    FullPointBye,
    /// Half-point bye (`H`), requested.
    HalfPointBye,
    /// Zero-point bye or absence, not paired (`Z`, `-` without opponent, blank).
    ZeroPointBye,
}

impl Outcome {
    /// Points for the round (1, ½ or 0).
    pub fn points(self) -> Value {
        match self {
            Outcome::Win | Outcome::ForfeitWin | Outcome::PairingBye | Outcome::FullPointBye => {
                Value::ONE
            }
            Outcome::Draw | Outcome::HalfPointBye => Value::HALF,
            Outcome::Loss | Outcome::ForfeitLoss | Outcome::ZeroPointBye => Value::ZERO,
        }
    }

    /// A game played over the board (needs an opponent).
    pub fn is_over_the_board(self) -> bool {
        matches!(self, Outcome::Win | Outcome::Draw | Outcome::Loss)
    }

    /// A Voluntarily Unplayed Round (C.07 2024, art. 16): a requested bye (half- or zero-point,
    /// absence) or a forfeit loss. Pairing-allocated byes, full-point byes and forfeit wins
    /// are not voluntary.
    pub fn is_voluntarily_unplayed(self) -> bool {
        matches!(
            self,
            Outcome::HalfPointBye | Outcome::ZeroPointBye | Outcome::ForfeitLoss
        )
    }
}

/// One round of one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundResult {
    /// The paired opponent's id (none for byes and absences).
    #[serde(default)]
    pub opponent: Option<u32>,
    /// Colour, when a game was scheduled.
    #[serde(default)]
    pub colour: Option<Colour>,
    /// What the round was.
    pub outcome: Outcome,
}

impl RoundResult {
    /// An absence: not paired, no points.
    pub const ABSENT: RoundResult = RoundResult {
        opponent: None,
        colour: None,
        outcome: Outcome::ZeroPointBye,
    };

    /// A game over the board against `opponent`.
    pub fn played(&self) -> Option<u32> {
        if self.outcome.is_over_the_board() {
            self.opponent
        } else {
            None
        }
    }
}

/// One player and their rounds (index 0 is round 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerResults {
    /// Pairing number / start number, unique in the tournament.
    pub id: u32,
    /// Display name.
    #[serde(default)]
    pub name: String,
    /// Rating, when known (informative only).
    #[serde(default)]
    pub rating: Option<u32>,
    /// The rounds in order; missing trailing rounds count as absences.
    pub rounds: Vec<RoundResult>,
}

/// Which edition of the FIDE tie-break regulations (C.07) to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum RulesEdition {
    /// In force since 1 August 2024 (the default, docs/rules/rapid-blitz.md#tie-breaks).
    #[default]
    #[serde(rename = "2024")]
    Fide2024,
    /// The 2026 amendment: the dummy opponent's score is capped (16.4.1 / 16.4.2).
    #[serde(rename = "2026")]
    Fide2026,
}

/// The kind of event, which changes how unplayed rounds count (C.07 art. 16 is written for
/// Swiss events; in a round robin the schedule is fixed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// Swiss (the default): unplayed rounds per art. 16.
    #[default]
    Swiss,
    /// Round robin: a forfeited game counts against the scheduled opponent, rounds without
    /// an opponent count for nothing, and DE compares all tied players directly.
    RoundRobin,
}

/// The tournament's results as the tie-break engine reads them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Input {
    /// All players, in any order.
    pub players: Vec<PlayerResults>,
    /// The edition of C.07 to apply.
    #[serde(default)]
    pub rules: RulesEdition,
    /// Games per round: 1, or 2 for a Double-Swiss (each match stored as two consecutive
    /// rounds, one per game, as in TRF). With 2, a single forfeited game of a match that was
    /// otherwise played counts as played (C.04.5, Preface).
    #[serde(default = "one")]
    pub games_per_round: u8,
    /// Swiss or round robin.
    #[serde(default)]
    pub event: EventKind,
}

fn one() -> u8 {
    1
}

/// The tie-breaks this engine knows (C.07 2024 acronyms).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Tiebreak {
    /// Points.
    #[serde(rename = "PTS")]
    Pts,
    /// Direct encounter (C.07 art. 6).
    #[serde(rename = "DE")]
    De,
    /// Number of wins, unplayed wins included (art. 7.1).
    #[serde(rename = "WIN")]
    Win,
    /// Number of games won over the board (art. 7.2).
    #[serde(rename = "WON")]
    Won,
    /// Buchholz (art. 8.1).
    #[serde(rename = "BH")]
    Bh,
    /// Buchholz cut-1: the least significant value cut (art. 14.1).
    #[serde(rename = "BH-C1")]
    BhC1,
    /// Median Buchholz 1: the highest and the lowest value cut (art. 14.2).
    #[serde(rename = "BH-M1")]
    BhM1,
    /// Sonneborn-Berger (art. 8.2).
    #[serde(rename = "SB")]
    Sb,
}

impl Tiebreak {
    /// Reads an acronym such as `BH-M1`, `BH/C1`, `sb`.
    pub fn parse(s: &str) -> Option<Tiebreak> {
        let t = s.trim().to_ascii_uppercase().replace('/', "-");
        Some(match t.as_str() {
            "PTS" => Tiebreak::Pts,
            "DE" => Tiebreak::De,
            "WIN" => Tiebreak::Win,
            "WON" => Tiebreak::Won,
            "BH" => Tiebreak::Bh,
            "BH-C1" => Tiebreak::BhC1,
            "BH-M1" => Tiebreak::BhM1,
            "SB" => Tiebreak::Sb,
            _ => return None,
        })
    }

    /// The acronym.
    pub fn acronym(self) -> &'static str {
        match self {
            Tiebreak::Pts => "PTS",
            Tiebreak::De => "DE",
            Tiebreak::Win => "WIN",
            Tiebreak::Won => "WON",
            Tiebreak::Bh => "BH",
            Tiebreak::BhC1 => "BH-C1",
            Tiebreak::BhM1 => "BH-M1",
            Tiebreak::Sb => "SB",
        }
    }
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandingRow {
    /// Final rank; players still tied after the whole list share the best rank of their block.
    pub rank: u32,
    /// The place as printed: `"3"`, or `"3-4"` when shared.
    pub place: String,
    /// True when the place is still shared after the whole tie-break list.
    pub shared: bool,
    /// Player id.
    pub id: u32,
    /// Player name.
    pub name: String,
    /// One value per tie-break of [`Standings::tiebreaks`], same order.
    pub values: Vec<Value>,
}

/// The result: every tie-break value, the final ranks and which places stay shared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standings {
    /// The rules edition applied.
    pub rules: RulesEdition,
    /// Number of rounds (game rounds) evaluated.
    pub rounds: u32,
    /// The tie-break list applied (PTS first).
    pub tiebreaks: Vec<Tiebreak>,
    /// The standings, best first (ties in id order).
    pub rows: Vec<StandingRow>,
    /// True when first place is still shared: docs/rules/rapid-blitz.md#tie-breaks settles it by a play-off.
    pub playoff_for_first: bool,
}

/// Why tie-breaks could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// Two players with the same id.
    #[error("player {0} appears twice")]
    DuplicatePlayer(u32),
    /// A round names an opponent that is not in the tournament.
    #[error("player {player}, round {round}: opponent {opponent} is not in the tournament")]
    UnknownOpponent {
        /// Player.
        player: u32,
        /// Round (1-based).
        round: u32,
        /// Opponent named.
        opponent: u32,
    },
    /// A game without an opponent, or opponents that do not name each other.
    #[error("player {player}, round {round}: {reason}")]
    Inconsistent {
        /// Player.
        player: u32,
        /// Round (1-based).
        round: u32,
        /// What is wrong.
        reason: String,
    },
    /// An unknown tie-break acronym.
    #[error("unknown tie-break {0:?} (known: PTS, DE, WIN, WON, BH, BH-C1, BH-M1, SB)")]
    UnknownTiebreak(String),
    /// games_per_round other than 1 or 2.
    #[error("games_per_round must be 1 or 2, not {0}")]
    GamesPerRound(u8),
}
