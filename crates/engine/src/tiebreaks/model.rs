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
pub(crate) use crate::vocab::Colour;

/// What a round was for one player (TRF result codes in brackets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundOutcome {
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

impl RoundOutcome {
    /// Points for the round (1, ½ or 0).
    pub fn points(self) -> Value {
        match self {
            RoundOutcome::Win
            | RoundOutcome::ForfeitWin
            | RoundOutcome::PairingBye
            | RoundOutcome::FullPointBye => Value::ONE,
            RoundOutcome::Draw | RoundOutcome::HalfPointBye => Value::HALF,
            RoundOutcome::Loss | RoundOutcome::ForfeitLoss | RoundOutcome::ZeroPointBye => {
                Value::ZERO
            }
        }
    }

    /// A game played over the board (needs an opponent).
    pub fn is_over_the_board(self) -> bool {
        matches!(
            self,
            RoundOutcome::Win | RoundOutcome::Draw | RoundOutcome::Loss
        )
    }

    /// A Voluntarily Unplayed Round (C.07 2024, art. 16): a requested bye (half- or zero-point,
    /// absence) or a forfeit loss. Pairing-allocated byes, full-point byes and forfeit wins
    /// are not voluntary.
    pub fn is_voluntarily_unplayed(self) -> bool {
        matches!(
            self,
            RoundOutcome::HalfPointBye | RoundOutcome::ZeroPointBye | RoundOutcome::ForfeitLoss
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
    pub outcome: RoundOutcome,
}

impl RoundResult {
    /// An absence: not paired, no points.
    pub const ABSENT: RoundResult = RoundResult {
        opponent: None,
        colour: None,
        outcome: RoundOutcome::ZeroPointBye,
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
    /// Rating, when known (read by the rating-based tie-breaks, art. 10).
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

/// The edition as the calculator and the command line name it: `2024` or `2026`.
impl std::str::FromStr for RulesEdition {
    type Err = &'static str;

    fn from_str(s: &str) -> Result<RulesEdition, &'static str> {
        match s {
            "2024" => Ok(RulesEdition::Fide2024),
            "2026" => Ok(RulesEdition::Fide2026),
            _ => Err("must be 2024 or 2026"),
        }
    }
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

/// The kind as the calculator and the command line name it: `swiss` or `round-robin`.
impl std::str::FromStr for EventKind {
    type Err = &'static str;

    fn from_str(s: &str) -> Result<EventKind, &'static str> {
        match s {
            "swiss" => Ok(EventKind::Swiss),
            "round-robin" => Ok(EventKind::RoundRobin),
            _ => Err("must be swiss or round-robin"),
        }
    }
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
    /// The rating an unrated player counts with in the rating-based tie-breaks, as the
    /// tournament regulations fix it. Without it, and with an unrated player in the field,
    /// those tie-breaks have no value for anyone.
    #[serde(default)]
    pub unrated_rating: Option<u32>,
}

fn one() -> u8 {
    1
}

/// How many values a tie-break drops before summing or averaging (C.07 art. 14): `low` least
/// significant and `high` most significant values. Cut-n is `low = n`; Median-n is `low = high
/// = n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Cut {
    /// Least significant values dropped.
    pub low: u8,
    /// Most significant values dropped.
    pub high: u8,
}

impl Cut {
    /// No value dropped.
    pub const NONE: Cut = Cut { low: 0, high: 0 };

    /// Cut-n.
    pub const fn cut_n(n: u8) -> Cut {
        Cut { low: n, high: 0 }
    }

    /// Median-n.
    pub const fn median_n(n: u8) -> Cut {
        Cut { low: n, high: n }
    }
}

/// The largest n accepted in a Cut-n or Median-n modifier (a tournament of the service has at
/// most this many rounds).
pub const MAX_CUT: u8 = 30;

/// The tie-breaks this engine knows (C.07 2024 acronyms, individual events).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tiebreak {
    /// Points.
    Pts,
    /// Direct encounter (art. 6).
    De,
    /// Number of wins, unplayed wins included (art. 7.1).
    Win,
    /// Number of games won over the board (art. 7.2).
    Won,
    /// Number of games played over the board with Black (art. 7.3).
    Bpg,
    /// Number of games won over the board with Black (art. 7.4).
    Bwg,
    /// Number of rounds one elected to play (art. 7.6): games over the board and rounds won
    /// without playing (forfeit wins, pairing-allocated and full-point byes).
    Rep,
    /// The older name of [`Tiebreak::Rep`], same values.
    Ge,
    /// Progressive scores (art. 7.5); `cut` drops the first rounds' running scores.
    Ps {
        /// Rounds cut from the start.
        cut: u8,
    },
    /// Koya system (art. 9.2): points scored against opponents with at least half the
    /// maximum score.
    Ks,
    /// Buchholz (art. 8.1) with its modifiers (art. 14).
    Bh(Cut),
    /// Fore Buchholz (art. 8.3): Buchholz as if every game of the last round were a draw.
    Fb(Cut),
    /// Sonneborn-Berger (art. 9.1) with its modifiers.
    Sb(Cut),
    /// Average of opponents' Buchholz (art. 8.2).
    Aob,
    /// Average rating of opponents (art. 10.1) with its modifiers.
    Aro(Cut),
    /// Tournament performance rating (art. 10.2).
    Tpr,
    /// Perfect tournament performance (art. 10.3).
    Ptp,
    /// Average of opponents' tournament performance ratings (art. 10.4).
    Apro,
    /// Average of opponents' perfect tournament performances (art. 10.5).
    Appo,
}

impl Tiebreak {
    /// Buchholz Cut-1 (`BH-C1`).
    pub const BH_C1: Tiebreak = Tiebreak::Bh(Cut::cut_n(1));
    /// Median Buchholz 1 (`BH-M1`).
    pub const BH_M1: Tiebreak = Tiebreak::Bh(Cut::median_n(1));

    /// Reads an acronym such as `BH-M1`, `BH/C2`, `sb-c1`, `ARO-M1`, `PS-C1`. Cut-n (`-Cn`)
    /// applies to PS, BH, FB, SB and ARO, Median-n (`-Mn`) to BH, FB, SB and ARO, with n from 1
    /// to [`MAX_CUT`].
    pub fn parse(s: &str) -> Option<Tiebreak> {
        let t = s.trim().to_ascii_uppercase().replace('/', "-");
        let (name, modifier) = match t.split_once('-') {
            Some((n, m)) => (n, Some(m)),
            None => (t.as_str(), None),
        };
        let cut = match modifier {
            None => Cut::NONE,
            Some(m) => {
                let kind = m.chars().next()?;
                // the modifier's letter may be any character a client sent: the digits start
                // after its last byte, not after its first
                let digits = &m[kind.len_utf8()..];
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                let n: u8 = digits.parse().ok()?;
                if !(1..=MAX_CUT).contains(&n) {
                    return None;
                }
                match kind {
                    'C' => Cut::cut_n(n),
                    'M' => Cut::median_n(n),
                    _ => return None,
                }
            }
        };
        let plain = cut == Cut::NONE;
        Some(match name {
            "PTS" if plain => Tiebreak::Pts,
            "DE" if plain => Tiebreak::De,
            "WIN" if plain => Tiebreak::Win,
            "WON" if plain => Tiebreak::Won,
            "BPG" if plain => Tiebreak::Bpg,
            "BWG" if plain => Tiebreak::Bwg,
            "REP" if plain => Tiebreak::Rep,
            "GE" if plain => Tiebreak::Ge,
            "PS" if cut.high == 0 => Tiebreak::Ps { cut: cut.low },
            "KS" if plain => Tiebreak::Ks,
            "BH" => Tiebreak::Bh(cut),
            "FB" => Tiebreak::Fb(cut),
            "SB" => Tiebreak::Sb(cut),
            "AOB" if plain => Tiebreak::Aob,
            "ARO" => Tiebreak::Aro(cut),
            "TPR" if plain => Tiebreak::Tpr,
            "PTP" if plain => Tiebreak::Ptp,
            "APRO" if plain => Tiebreak::Apro,
            "APPO" if plain => Tiebreak::Appo,
            _ => return None,
        })
    }

    /// The acronym, modifier included (`BH-C1`, `ARO-M2`, `PS-C1`).
    pub fn acronym(self) -> String {
        let with_cut = |name: &str, c: Cut| match (c.low, c.high) {
            (0, 0) => name.to_string(),
            (n, 0) => format!("{name}-C{n}"),
            (n, m) if n == m => format!("{name}-M{n}"),
            (n, m) => format!("{name}-C{n}-H{m}"),
        };
        match self {
            Tiebreak::Pts => "PTS".into(),
            Tiebreak::De => "DE".into(),
            Tiebreak::Win => "WIN".into(),
            Tiebreak::Won => "WON".into(),
            Tiebreak::Bpg => "BPG".into(),
            Tiebreak::Bwg => "BWG".into(),
            Tiebreak::Rep => "REP".into(),
            Tiebreak::Ge => "GE".into(),
            Tiebreak::Ps { cut } => with_cut("PS", Cut::cut_n(cut)),
            Tiebreak::Ks => "KS".into(),
            Tiebreak::Bh(c) => with_cut("BH", c),
            Tiebreak::Fb(c) => with_cut("FB", c),
            Tiebreak::Sb(c) => with_cut("SB", c),
            Tiebreak::Aob => "AOB".into(),
            Tiebreak::Aro(c) => with_cut("ARO", c),
            Tiebreak::Tpr => "TPR".into(),
            Tiebreak::Ptp => "PTP".into(),
            Tiebreak::Apro => "APRO".into(),
            Tiebreak::Appo => "APPO".into(),
        }
    }

    /// The values the tie-break drops before summing or averaging (none for one without
    /// modifiers).
    pub fn cut(self) -> Cut {
        match self {
            Tiebreak::Ps { cut } => Cut::cut_n(cut),
            Tiebreak::Bh(c) | Tiebreak::Fb(c) | Tiebreak::Sb(c) | Tiebreak::Aro(c) => c,
            _ => Cut::NONE,
        }
    }

    /// Whether the tie-break reads ratings (art. 10).
    pub fn is_rating_based(self) -> bool {
        matches!(
            self,
            Tiebreak::Aro(_) | Tiebreak::Tpr | Tiebreak::Ptp | Tiebreak::Apro | Tiebreak::Appo
        )
    }
}

impl fmt::Display for Tiebreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.acronym())
    }
}

impl Serialize for Tiebreak {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.acronym())
    }
}

impl<'de> Deserialize<'de> for Tiebreak {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Tiebreak, D::Error> {
        let s = String::deserialize(d)?;
        Tiebreak::parse(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown tie-break {s:?}")))
    }
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TiebreakRow {
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
    /// One value per tie-break of [`Standings::tiebreaks`], same order; none (`null`) where
    /// the tie-break has no value for the player: a rating-based one without ratings for
    /// everyone, or an average over no game played over the board.
    pub values: Vec<Option<Value>>,
}

/// Why a player stands above the next one in the standings when both have the same points:
/// the first tie-break of the list whose values differ for them — the one that separated
/// them, since players stay together while their values are equal — and both values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Separation {
    /// The player above.
    pub above: u32,
    /// The player right below, level on points.
    pub below: u32,
    /// The first tie-break whose values differ; none when the place is still shared after
    /// the whole list.
    pub tiebreak: Option<Tiebreak>,
    /// The value of the player above for that tie-break (none: no value, or not separated).
    pub above_value: Option<Value>,
    /// The value of the player below for that tie-break (none: no value, or not separated).
    pub below_value: Option<Value>,
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
    pub rows: Vec<TiebreakRow>,
    /// True when first place is still shared: docs/rules/rapid-blitz.md#tie-breaks settles it by a play-off.
    pub playoff_for_first: bool,
    /// For each two neighbours in [`Standings::rows`] level on points, top first: which
    /// tie-break put one above the other, and the two values.
    #[serde(default)]
    pub separations: Vec<Separation>,
}

/// Why tie-breaks could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TiebreakError {
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
    #[error(
        "unknown tie-break {0:?} (known: PTS, DE, WIN, WON, BPG, BWG, REP, GE, PS, KS, BH, FB, SB, \
         AOB, ARO, TPR, PTP, APRO, APPO; Cut-n as -Cn on PS, BH, FB, SB and ARO, Median-n as -Mn on \
         BH, FB, SB and ARO, n from 1 to 30)"
    )]
    UnknownTiebreak(String),
    /// games_per_round other than 1 or 2.
    #[error("games_per_round must be 1 or 2, not {0}")]
    GamesPerRound(u8),
}
