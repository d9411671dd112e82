//! Quickplay finish (FIDE Laws 10.2 / Guidelines III, docs/rules/arbiter.md#quickplay-finish-fide-102): a player with less than two
//! minutes left may claim a draw before his flag falls — only where the competition applies
//! the rule and the final period has no increment. The arbiter accepts (draw), postpones (the
//! opponent may get two extra minutes; decided later in the game or after a flag fall) or
//! rejects (the opponent gets two extra minutes). A decision is final.
//!
//! # Example
//!
//! At 40 moves in 90 minutes and 30 minutes for the rest, the final period starts at move 41. A
//! claim at move 55 with 1:59 left may be made; with exactly two minutes left it may not.
//!
//! ```
//! use clubcomp_engine::Colour;
//! use clubcomp_engine::arbiter::quickplay::{
//!     QuickplayClaim, QuickplayClaimStatus, QuickplayRefusal, TimeControl, check_quickplay_claim,
//! };
//!
//! let claim = |remaining_ms| QuickplayClaim {
//!     claimant: Colour::White,
//!     remaining_ms,
//!     move_number: 55,
//!     competition_applies_rule: true,
//!     time_control: TimeControl::moves_then_rest(40, 90, 30),
//! };
//! assert_eq!(check_quickplay_claim(&claim(119_000)).unwrap().status, QuickplayClaimStatus::Pending);
//! assert_eq!(
//!     check_quickplay_claim(&claim(120_000)),
//!     Err(QuickplayRefusal::NotUnderTwoMinutes { remaining_ms: 120_000 })
//! );
//! ```

use super::Colour;
use serde::{Deserialize, Serialize};

/// Two minutes, the threshold of the claim and the time given to the opponent (ms / s).
pub const TWO_MINUTES_MS: u64 = 120_000;
/// Extra time for the opponent on a rejected (or, at the arbiter's choice, postponed) claim.
pub const EXTRA_SECONDS: u32 = 120;

/// One period of a time control: `minutes` for `moves` moves, or for the rest of the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Period {
    /// Moves in this period; `None` for the final period (the rest of the game).
    #[serde(default)]
    pub moves: Option<u32>,
    /// Minutes added at the start of this period (0 allowed for a pure-increment period).
    pub minutes: u32,
}

/// A per-move increment (Fischer), from a given move on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Increment {
    /// Seconds added per move.
    pub seconds: u32,
    /// The first move that earns the increment (1 = from the start).
    #[serde(default = "one")]
    pub from_move: u32,
}

fn one() -> u32 {
    1
}

/// A time control: periods in order, and an optional increment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// The periods in order; all but the last have a number of moves.
    pub periods: Vec<Period>,
    /// The increment, if any.
    #[serde(default)]
    pub increment: Option<Increment>,
}

impl TimeControl {
    /// `moves` moves in `minutes`, then `final_minutes` for the rest of the game, without
    /// increment (the classical shape of the club's tempos).
    pub fn moves_then_rest(moves: u32, minutes: u32, final_minutes: u32) -> TimeControl {
        TimeControl {
            periods: vec![
                Period {
                    moves: Some(moves),
                    minutes,
                },
                Period {
                    moves: None,
                    minutes: final_minutes,
                },
            ],
            increment: None,
        }
    }

    /// The move number at which the final period begins.
    pub fn final_period_from_move(&self) -> Result<u32, QuickplayRefusal> {
        let bad = |why: &str| QuickplayRefusal::InvalidTimeControl { why: why.into() };
        let Some((last, earlier)) = self.periods.split_last() else {
            return Err(bad("no periods"));
        };
        if last.moves.is_some() {
            return Err(bad(
                "the final period must run to the end of the game (no moves)",
            ));
        }
        let mut from = 1u32;
        for (i, p) in earlier.iter().enumerate() {
            match p.moves {
                Some(n) if n > 0 => from = from.saturating_add(n),
                _ => return Err(bad(&format!("period {} needs a number of moves", i + 1))),
            }
        }
        Ok(from)
    }
}

/// A quickplay-finish claim as made at the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuickplayClaim {
    /// The claimant.
    pub claimant: Colour,
    /// The claimant's time left, in milliseconds.
    pub remaining_ms: u64,
    /// The claimant's current move number.
    pub move_number: u32,
    /// Whether the competition applies the quickplay-finish rule (the rapid does not).
    pub competition_applies_rule: bool,
    /// The game's time control.
    pub time_control: TimeControl,
}

/// Why a claim is refused outright (docs/rules/arbiter.md).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "refusal")]
pub enum QuickplayRefusal {
    /// The competition does not apply the quickplay-finish rule.
    #[error("this competition does not apply the quickplay-finish rule (FIDE 10.2)")]
    RuleNotApplied,
    /// The final period has an increment.
    #[error("the final period has an increment of {seconds} s per move: no 10.2 claim")]
    FinalPeriodHasIncrement {
        /// The increment in seconds.
        seconds: u32,
    },
    /// The game is not yet in its final period.
    #[error("move {move_number} is not in the final period (it starts at move {final_from})")]
    NotInFinalPeriod {
        /// The claimant's move number.
        move_number: u32,
        /// First move of the final period.
        final_from: u32,
    },
    /// The flag has already fallen.
    #[error("the claimant's flag has fallen: too late to claim")]
    FlagFallen,
    /// The claimant has two minutes or more.
    #[error("the claimant has {remaining_ms} ms left, not less than two minutes")]
    NotUnderTwoMinutes {
        /// Time left in ms.
        remaining_ms: u64,
    },
    /// The time control is not well formed.
    #[error("invalid time control: {why}")]
    InvalidTimeControl {
        /// What is wrong.
        why: String,
    },
}

/// Checks whether a claim may be made at all; `Ok` means it is before the arbiter.
pub fn check_quickplay_claim(claim: &QuickplayClaim) -> Result<QuickplayState, QuickplayRefusal> {
    if !claim.competition_applies_rule {
        return Err(QuickplayRefusal::RuleNotApplied);
    }
    let final_from = claim.time_control.final_period_from_move()?;
    // The final period runs to the end of the game, so any positive increment reaches it.
    if let Some(inc) = &claim.time_control.increment
        && inc.seconds > 0
    {
        return Err(QuickplayRefusal::FinalPeriodHasIncrement {
            seconds: inc.seconds,
        });
    }
    if claim.move_number < final_from {
        return Err(QuickplayRefusal::NotInFinalPeriod {
            move_number: claim.move_number,
            final_from,
        });
    }
    if claim.remaining_ms == 0 {
        return Err(QuickplayRefusal::FlagFallen);
    }
    if claim.remaining_ms >= TWO_MINUTES_MS {
        return Err(QuickplayRefusal::NotUnderTwoMinutes {
            remaining_ms: claim.remaining_ms,
        });
    }
    Ok(QuickplayState {
        claimant: claim.claimant,
        status: QuickplayClaimStatus::Pending,
        opponent_extra_seconds: 0,
    })
}

/// What the arbiter decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "decision")]
pub enum QuickplayDecision {
    /// The game is drawn.
    Accept,
    /// Decided later in the game or after a flag fall; the opponent may get two minutes now.
    Postpone {
        /// Whether the opponent is given two extra minutes now.
        opponent_two_minutes: bool,
    },
    /// The claim is rejected; the opponent gets two extra minutes.
    Reject,
}

/// Where a claim stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuickplayClaimStatus {
    /// Made, not yet decided.
    Pending,
    /// Postponed: a final decision is still to come.
    Postponed,
    /// Final: the game is drawn.
    AcceptedDraw,
    /// Final: rejected, the game goes on.
    Rejected,
}

/// A quickplay-finish claim and its decisions so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuickplayState {
    /// The claimant.
    pub claimant: Colour,
    /// Where the claim stands.
    pub status: QuickplayClaimStatus,
    /// Extra seconds given to the claimant's opponent because of this claim.
    pub opponent_extra_seconds: u32,
}

/// A decision that cannot be taken (answered as 409 Conflict by the API).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum DecisionError {
    /// The claim was already decided; the decision is final.
    #[error("the quickplay-finish claim was already decided ({status:?}); the decision is final")]
    AlreadyDecided {
        /// The final status.
        status: QuickplayClaimStatus,
    },
    /// The claim was already postponed; the next decision must accept or reject.
    #[error("the quickplay-finish claim is already postponed; accept or reject it")]
    AlreadyPostponed,
}

/// Applies the arbiter's decision to a claim.
pub fn decide(
    state: &QuickplayState,
    decision: QuickplayDecision,
) -> Result<QuickplayState, DecisionError> {
    match state.status {
        QuickplayClaimStatus::AcceptedDraw | QuickplayClaimStatus::Rejected => {
            return Err(DecisionError::AlreadyDecided {
                status: state.status,
            });
        }
        QuickplayClaimStatus::Postponed
            if matches!(decision, QuickplayDecision::Postpone { .. }) =>
        {
            return Err(DecisionError::AlreadyPostponed);
        }
        _ => {}
    }
    let mut next = state.clone();
    match decision {
        QuickplayDecision::Accept => next.status = QuickplayClaimStatus::AcceptedDraw,
        QuickplayDecision::Postpone {
            opponent_two_minutes,
        } => {
            next.status = QuickplayClaimStatus::Postponed;
            if opponent_two_minutes {
                next.opponent_extra_seconds += EXTRA_SECONDS;
            }
        }
        QuickplayDecision::Reject => {
            next.status = QuickplayClaimStatus::Rejected;
            // The opponent is compensated once per claim: two minutes already given at the
            // postponement are not given again on a later rejection (docs/rules/arbiter.md, decision).
            if next.opponent_extra_seconds == 0 {
                next.opponent_extra_seconds = EXTRA_SECONDS;
            }
        }
    }
    Ok(next)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 90 minutes for 40 moves, then 30 minutes for the rest, no increment.
    fn classic() -> TimeControl {
        TimeControl::moves_then_rest(40, 90, 30)
    }

    fn claim(ms: u64, mv: u32) -> QuickplayClaim {
        QuickplayClaim {
            claimant: Colour::White,
            remaining_ms: ms,
            move_number: mv,
            competition_applies_rule: true,
            time_control: classic(),
        }
    }

    #[test]
    fn allowed_under_two_minutes_in_the_final_period() {
        // final period starts at move 1 + 40 = 41; 1:59.999 left at move 55
        let s = check_quickplay_claim(&claim(119_999, 55)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.status, QuickplayClaimStatus::Pending);
        assert_eq!(
            claim(119_999, 55).time_control.final_period_from_move(),
            Ok(41)
        );
    }

    #[test]
    fn refusals_name_the_reason() {
        // exactly two minutes is not "less than two minutes"
        assert_eq!(
            check_quickplay_claim(&claim(120_000, 55)),
            Err(QuickplayRefusal::NotUnderTwoMinutes {
                remaining_ms: 120_000
            })
        );
        assert_eq!(
            check_quickplay_claim(&claim(0, 55)),
            Err(QuickplayRefusal::FlagFallen)
        );
        assert_eq!(
            check_quickplay_claim(&claim(60_000, 40)),
            Err(QuickplayRefusal::NotInFinalPeriod {
                move_number: 40,
                final_from: 41
            })
        );
        let mut rapid = claim(60_000, 55);
        rapid.competition_applies_rule = false;
        assert_eq!(
            check_quickplay_claim(&rapid),
            Err(QuickplayRefusal::RuleNotApplied)
        );
        // KNDB tempo: 2 h / 50, 1 h / 25, then 20 s per move -> increment in the final period
        let mut kndb = claim(60_000, 80);
        kndb.time_control = TimeControl {
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
            increment: Some(Increment {
                seconds: 20,
                from_move: 76,
            }),
        };
        assert_eq!(
            check_quickplay_claim(&kndb),
            Err(QuickplayRefusal::FinalPeriodHasIncrement { seconds: 20 })
        );
        let mut bad = claim(60_000, 55);
        bad.time_control.periods[0].moves = None;
        assert!(matches!(
            check_quickplay_claim(&bad),
            Err(QuickplayRefusal::InvalidTimeControl { .. })
        ));
    }

    #[test]
    fn decisions_and_finality() {
        let s = check_quickplay_claim(&claim(90_000, 60)).unwrap_or_else(|e| panic!("{e}"));
        // reject: opponent +120 s, final
        let r = decide(&s, QuickplayDecision::Reject).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (r.status, r.opponent_extra_seconds),
            (QuickplayClaimStatus::Rejected, 120)
        );
        assert_eq!(
            decide(&r, QuickplayDecision::Accept),
            Err(DecisionError::AlreadyDecided {
                status: QuickplayClaimStatus::Rejected
            })
        );
        // accept: draw, final
        let a = decide(&s, QuickplayDecision::Accept).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (a.status, a.opponent_extra_seconds),
            (QuickplayClaimStatus::AcceptedDraw, 0)
        );
        assert!(decide(&a, QuickplayDecision::Reject).is_err());
        // postpone with two minutes, later accepted after a flag fall: 120 s stays recorded
        let p = decide(
            &s,
            QuickplayDecision::Postpone {
                opponent_two_minutes: true,
            },
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (p.status, p.opponent_extra_seconds),
            (QuickplayClaimStatus::Postponed, 120)
        );
        assert_eq!(
            decide(
                &p,
                QuickplayDecision::Postpone {
                    opponent_two_minutes: false
                }
            ),
            Err(DecisionError::AlreadyPostponed)
        );
        let d = decide(&p, QuickplayDecision::Accept).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (d.status, d.opponent_extra_seconds),
            (QuickplayClaimStatus::AcceptedDraw, 120)
        );
        // postponed with two minutes then rejected: compensated once, 120 s in all
        let j = decide(&p, QuickplayDecision::Reject).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(j.opponent_extra_seconds, 120);
        // postponed without time then rejected: now the 120 s
        let q = decide(
            &s,
            QuickplayDecision::Postpone {
                opponent_two_minutes: false,
            },
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let k = decide(&q, QuickplayDecision::Reject).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (q.opponent_extra_seconds, k.opponent_extra_seconds),
            (0, 120)
        );
    }
}
