//! FIDE Double-Swiss pairing (C.04.5, applied from 1 February 2026; docs/rules/rapid-blitz.md#double-swiss rapid): every
//! round is a two-game match against one opponent, one game with each colour. Pure engine:
//! the tournament state in, the next round's matches and bye out.
//!
//! Rules applied (readings recorded in `docs/decisions/0006-tiebreaks-and-double-swiss.md`):
//! - order: score (game points), then TPN ascending (C.04.5 1.2);
//! - absolute: two players meet at most once, where a match in which a player forfeited both
//!   games does not count as a meeting (C.04.5 Preface); a player who already had the
//!   pairing-allocated bye or won a match by forfeit does not get it again (C.04.1 d); absent
//!   players are not paired; every pairing must leave the rest pairable (completion);
//! - the bye goes to the eligible player with the lowest score, then the highest TPN, whose
//!   removal leaves a pairable field;
//! - brackets from the top: the top scoregroup of the players still unpaired, plus the fewest
//!   upfloaters (highest ranked first) that make it pairable while leaving the rest pairable;
//!   the bracket gets the lexicographically first pairing in ranking order;
//! - a match's colour is its game-1 colour; the basic Swiss colour rules apply to it.
//!
//! [`State::tiebreak_input`] turns the results into the tie-break engine's input (two game
//! rounds per match) for the standings of docs/rules/rapid-blitz.md#tie-breaks.
//!
//! # Double-Swiss
//!
//! Round 1 of five players: the bye goes to the lowest-ranked, neighbours meet, and the
//! higher-ranked player has White in game 1 on odd boards.
//!
//! ```
//! use clubcomp_engine::double_swiss::{State, pair_next_round};
//!
//! let state: State = serde_json::from_value(serde_json::json!({
//!     "players": [{"id": 1}, {"id": 2}, {"id": 3}, {"id": 4}, {"id": 5}]
//! }))
//! .unwrap();
//! let next = pair_next_round(&state).unwrap();
//! assert_eq!(next.round, 1);
//! let matches: Vec<(u32, u32)> = next.pairings.iter().map(|m| (m.white, m.black)).collect();
//! assert_eq!(matches, [(1, 2), (4, 3)]);
//! assert_eq!(next.bye, Some(5));
//! ```

mod pairing;
mod standings;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

pub use pairing::pair_next_round;

/// A player of the Double-Swiss.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoubleSwissPlayer {
    /// Tournament pairing number (TPN), unique; lower is higher in the initial order.
    pub id: u32,
    /// Display name.
    #[serde(default)]
    pub name: String,
    /// Rating, informative (the TPN already reflects the initial order).
    #[serde(default)]
    pub rating: Option<u32>,
}

/// The result of one game, from the point of view of the player with White in that game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DoubleSwissResult {
    /// White won.
    #[serde(rename = "1-0")]
    WhiteWins,
    /// Draw.
    #[serde(rename = "1/2-1/2")]
    Draw,
    /// Black won.
    #[serde(rename = "0-1")]
    BlackWins,
    /// Black did not play: White wins by forfeit.
    #[serde(rename = "+/-")]
    WhiteForfeitWin,
    /// White did not play: Black wins by forfeit.
    #[serde(rename = "-/+")]
    BlackForfeitWin,
    /// Neither played.
    #[serde(rename = "-/-")]
    DoubleForfeit,
}

impl DoubleSwissResult {
    /// Half-points for (white, black).
    fn half_points(self) -> (u32, u32) {
        match self {
            DoubleSwissResult::WhiteWins | DoubleSwissResult::WhiteForfeitWin => (2, 0),
            DoubleSwissResult::Draw => (1, 1),
            DoubleSwissResult::BlackWins | DoubleSwissResult::BlackForfeitWin => (0, 2),
            DoubleSwissResult::DoubleForfeit => (0, 0),
        }
    }

    /// Whether the player with White / Black forfeited this game.
    fn forfeited(self) -> (bool, bool) {
        match self {
            DoubleSwissResult::WhiteForfeitWin => (false, true),
            DoubleSwissResult::BlackForfeitWin => (true, false),
            DoubleSwissResult::DoubleForfeit => (true, true),
            _ => (false, false),
        }
    }
}

/// A two-game match: `white` has White in game 1 and Black in game 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    /// White in game 1.
    pub white: u32,
    /// Black in game 1.
    pub black: u32,
    /// Game 1 result (from `white`'s side as White).
    pub game1: DoubleSwissResult,
    /// Game 2 result, from the side of game 2's White, i.e. `black`.
    pub game2: DoubleSwissResult,
}

/// A player not paired in a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ByeKind {
    /// The pairing-allocated bye: 2 points (docs/rules/rapid-blitz.md#the-rapid-competition), at most once.
    Pairing,
    /// A requested full-point bye: 2 points.
    Full,
    /// A requested half-point bye: 1 point (½ per game).
    Half,
    /// Absent, not paired: 0 points.
    Zero,
}

/// A player who did not play a match in a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bye {
    /// The player.
    pub player: u32,
    /// What they got.
    pub kind: ByeKind,
}

/// One played round: its matches and byes. Players not named were absent (0 points).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RoundRecord {
    /// The matches.
    #[serde(default)]
    pub matches: Vec<Match>,
    /// Byes and absences.
    #[serde(default)]
    pub byes: Vec<Bye>,
}

/// The tournament so far and who will not play the next round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// All players.
    pub players: Vec<DoubleSwissPlayer>,
    /// Completed rounds, in order.
    #[serde(default)]
    pub rounds: Vec<RoundRecord>,
    /// Players absent for the next round: not paired (docs/rules/rapid-blitz.md#the-rapid-competition, rapid check-in).
    #[serde(default)]
    pub absent: Vec<u32>,
}

/// One match of the next round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoubleSwissPairing {
    /// Board number, 1 = top.
    pub board: u32,
    /// White in game 1 (Black in game 2).
    pub white: u32,
    /// Black in game 1 (White in game 2).
    pub black: u32,
}

/// The next round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NextRound {
    /// Its number (1-based).
    pub round: u32,
    /// The matches, by board.
    pub pairings: Vec<DoubleSwissPairing>,
    /// The player with the pairing-allocated bye, if the field is odd.
    pub bye: Option<u32>,
}

/// Why no pairing could be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DoubleSwissError {
    /// Two players with the same id.
    #[error("player {0} appears twice")]
    DuplicatePlayer(u32),
    /// A round or the absent list names an unknown player.
    #[error("round {round}: unknown player {player}")]
    UnknownPlayer {
        /// Round (1-based; 0 for the absent list).
        round: u32,
        /// Player.
        player: u32,
    },
    /// A player appears twice in one round.
    #[error("round {round}: player {player} appears more than once")]
    TwiceInRound {
        /// Round.
        round: u32,
        /// Player.
        player: u32,
    },
    /// No pairing respects the absolute criteria.
    #[error("no pairing without a repeat meeting or a second bye exists for players {players:?}")]
    Unpairable {
        /// The players to be paired.
        players: Vec<u32>,
    },
}
