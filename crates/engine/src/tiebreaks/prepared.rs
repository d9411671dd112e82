//! The results of an event checked and indexed, as every tie-break reads them.

use super::model::{RoundOutcome, RoundResult};

/// Results checked and indexed: `res[p][r]` is player `p`'s round `r` (0-based), every player
/// padded to the same number of rounds, opponents as indices.
pub(crate) struct Prepared {
    pub ids: Vec<u32>,
    pub names: Vec<String>,
    pub res: Vec<Vec<RoundResult>>,
    pub opp: Vec<Vec<Option<usize>>>,
    pub rounds: usize,
    /// Round robin: forfeits count as games against the scheduled opponent.
    pub round_robin: bool,
    /// Games per round (2: a Double-Swiss, every match stored as two consecutive rounds).
    pub games_per_round: usize,
    /// Each player's rating, when known.
    pub ratings: Vec<Option<u32>>,
}

impl Prepared {
    /// Points of player `p` in round `r`, in ten-thousandths.
    pub fn pts(&self, p: usize, r: usize) -> i64 {
        self.res[p][r].outcome.points().units()
    }

    /// A game played over the board, or the pairing-allocated bye: the rounds FIDE's reference
    /// implementation counts as played.
    pub fn is_played(&self, p: usize, r: usize) -> bool {
        let o = self.res[p][r].outcome;
        o.is_over_the_board() || o == RoundOutcome::PairingBye
    }

    /// The opponent of a game played over the board (in a round robin also of a forfeit).
    pub fn played_opp(&self, p: usize, r: usize) -> Option<usize> {
        if self.res[p][r].outcome.is_over_the_board() || self.round_robin {
            self.opp[p][r]
        } else {
            None
        }
    }
}
