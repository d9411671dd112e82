//! A game's own tempo (docs/rules/README.md#time-controls): which time control a game may be
//! played at instead of its competition's. The club rules allow two departures, each by
//! agreement of both players:
//!
//! - the Keizer: 40 moves in 90 minutes, then 15 minutes, without increment (instead of the
//!   standard 40/90, then 30 minutes, with 30 seconds a move); the leader approves it;
//! - the rapid (the Double-Swiss): less time than the competition's, but at least 10 minutes
//!   per player for the game.
//!
//! Every other competition plays its own tempo only. The quickplay-finish check
//! ([`super::quickplay`]) reads the tempo a game was played at, so a Keizer game at the
//! alternative tempo (no increment) admits a claim that the standard tempo refuses.
//!
//! ```
//! use clubcomp_engine::arbiter::quickplay::{Increment, Period, TimeControl};
//! use clubcomp_engine::arbiter::tempo::{GameTempo, TempoRule, check_game_tempo, keizer_alternative};
//! use clubcomp_engine::CompetitionKind;
//!
//! let standard = TimeControl {
//!     periods: vec![Period { moves: Some(40), minutes: 90 }, Period { moves: None, minutes: 30 }],
//!     increment: Some(Increment { seconds: 30, from_move: 1 }),
//! };
//! let rule = TempoRule::of(CompetitionKind::Keizer, None);
//! let game = GameTempo { competition: &standard, game: &keizer_alternative(), agreed: true };
//! assert_eq!(check_game_tempo(rule, &game), Ok(()));
//! assert!(rule.needs_leader_approval());
//! ```
//!
//! # Example
//!
//! The Keizer's alternative tempo is 40 moves in 90 minutes and 15 minutes for the rest; it is
//! the same tempo however it is written, and not the competition's own 40/90 + 30.
//!
//! ```
//! use clubcomp_engine::arbiter::quickplay::TimeControl;
//! use clubcomp_engine::arbiter::tempo::{keizer_alternative, same_tempo};
//!
//! assert!(same_tempo(&keizer_alternative(), &TimeControl::moves_then_rest(40, 90, 15)));
//! assert!(!same_tempo(&keizer_alternative(), &TimeControl::moves_then_rest(40, 90, 30)));
//! ```

use super::quickplay::TimeControl;
use crate::vocab::{CompetitionKind, PairingSystem};
use serde::{Deserialize, Serialize};

/// The least time per player for a rapid game played at an agreed tempo (club rules, *Rapid*).
pub const RAPID_MINIMUM_MINUTES: u32 = 10;

/// The Keizer's permitted alternative tempo (club rules, *Algemeen*): 40 moves in 90 minutes,
/// then 15 minutes for the rest of the game, without increment.
pub fn keizer_alternative() -> TimeControl {
    TimeControl::moves_then_rest(40, 90, 15)
}

/// What a competition allows its games besides its own tempo.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TempoRule {
    /// The Keizer: the alternative tempo ([`keizer_alternative`]), agreed by both players and
    /// approved by the leader.
    Keizer,
    /// The rapid (a Double-Swiss): one period of less time than the competition's, at least
    /// [`RAPID_MINIMUM_MINUTES`], agreed by both players.
    Rapid,
    /// No departure: the games play the competition's tempo.
    OwnOnly,
}

impl TempoRule {
    /// The rule of a competition of `kind` with pairing `system`.
    pub fn of(kind: CompetitionKind, system: Option<PairingSystem>) -> TempoRule {
        match (kind, system) {
            (CompetitionKind::Keizer, _) => TempoRule::Keizer,
            (CompetitionKind::Swiss, Some(PairingSystem::DoubleSwiss)) => TempoRule::Rapid,
            _ => TempoRule::OwnOnly,
        }
    }

    /// Whether a departure from the competition's tempo needs the leader's approval (the
    /// Keizer's club rules say so; the rapid's leave it to the players).
    pub fn needs_leader_approval(self) -> bool {
        self == TempoRule::Keizer
    }
}

/// A tempo proposed for one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameTempo<'a> {
    /// The competition's time control.
    pub competition: &'a TimeControl,
    /// The time control the game is to be played at.
    pub game: &'a TimeControl,
    /// Whether both players agreed to it.
    pub agreed: bool,
}

/// Why a game may not be played at a tempo.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "refusal")]
pub enum TempoRefusal {
    /// The competition allows no tempo but its own.
    #[error("this competition's games are played at its own tempo; the club rules allow no other")]
    OwnTempoOnly,
    /// A Keizer game may only depart to the alternative tempo.
    #[error(
        "a Keizer game is played at the competition's tempo or, by agreement, at 40 moves in \
         90 minutes then 15 minutes without increment (club rules, Algemeen)"
    )]
    NotTheKeizerAlternative,
    /// A rapid game's agreed tempo is one period for the whole game.
    #[error(
        "a rapid game's agreed tempo is minutes per player for the whole game: one period \
         without a move count (club rules, Rapid)"
    )]
    RapidNotOnePeriod,
    /// A rapid game needs at least ten minutes per player.
    #[error(
        "a rapid game is played at 10 minutes or more per player; {minutes} is too few \
         (club rules, Rapid)"
    )]
    RapidBelowMinimum {
        /// The minutes proposed.
        minutes: u32,
    },
    /// The agreement shortens a rapid game; it does not lengthen it.
    #[error(
        "a rapid game may be agreed shorter than the competition's {competition} minutes, not \
         longer ({minutes}) (club rules, Rapid)"
    )]
    RapidLongerThanCompetition {
        /// The minutes proposed.
        minutes: u32,
        /// The competition's minutes for the game.
        competition: u32,
    },
    /// The agreement shortens a rapid game; it adds no increment.
    #[error(
        "a rapid game may not have a larger increment ({seconds} s) than the competition's \
         ({competition} s) (club rules, Rapid)"
    )]
    RapidLargerIncrement {
        /// The increment proposed, in seconds.
        seconds: u32,
        /// The competition's increment, in seconds.
        competition: u32,
    },
    /// A departure from the competition's tempo needs both players' agreement.
    #[error("another tempo than the competition's needs the agreement of both players")]
    NotAgreed,
    /// The time control is not well formed.
    #[error("invalid time control: {why}")]
    InvalidTimeControl {
        /// What is wrong.
        why: String,
    },
}

/// The increment in seconds (0: none).
fn increment_seconds(tc: &TimeControl) -> u32 {
    tc.increment.as_ref().map_or(0, |i| i.seconds)
}

/// Whether two time controls are the same clock: the same periods and the same increment
/// (an increment of 0 seconds is none, whatever move it starts from).
pub fn same_tempo(a: &TimeControl, b: &TimeControl) -> bool {
    let inc = |t: &TimeControl| {
        t.increment
            .as_ref()
            .filter(|i| i.seconds > 0)
            .map(|i| (i.seconds, i.from_move))
    };
    a.periods == b.periods && inc(a) == inc(b)
}

/// Checks whether a game of a competition under `rule` may be played at `tempo.game`. The
/// competition's own tempo is always allowed (no agreement needed); a departure must be one
/// the rule allows and agreed by both players. Whether the leader approves is the caller's
/// to check ([`TempoRule::needs_leader_approval`]).
pub fn check_game_tempo(rule: TempoRule, tempo: &GameTempo<'_>) -> Result<(), TempoRefusal> {
    tempo
        .game
        .final_period_from_move()
        .map_err(|e| TempoRefusal::InvalidTimeControl { why: e.to_string() })?;
    if same_tempo(tempo.game, tempo.competition) {
        return Ok(());
    }
    match rule {
        TempoRule::OwnOnly => return Err(TempoRefusal::OwnTempoOnly),
        TempoRule::Keizer => {
            if !same_tempo(tempo.game, &keizer_alternative()) {
                return Err(TempoRefusal::NotTheKeizerAlternative);
            }
        }
        TempoRule::Rapid => {
            let [only] = tempo.game.periods.as_slice() else {
                return Err(TempoRefusal::RapidNotOnePeriod);
            };
            if only.minutes < RAPID_MINIMUM_MINUTES {
                return Err(TempoRefusal::RapidBelowMinimum {
                    minutes: only.minutes,
                });
            }
            let competition: u32 = tempo.competition.periods.iter().map(|p| p.minutes).sum();
            if only.minutes > competition {
                return Err(TempoRefusal::RapidLongerThanCompetition {
                    minutes: only.minutes,
                    competition,
                });
            }
            let (seconds, competition) = (
                increment_seconds(tempo.game),
                increment_seconds(tempo.competition),
            );
            if seconds > competition {
                return Err(TempoRefusal::RapidLargerIncrement {
                    seconds,
                    competition,
                });
            }
        }
    }
    if !tempo.agreed {
        return Err(TempoRefusal::NotAgreed);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::quickplay::{
        Increment, QuickplayClaim, QuickplayRefusal, check_quickplay_claim,
    };
    use super::*;
    use crate::arbiter::quickplay::Period;
    use crate::vocab::Colour;

    /// The club's Keizer tempo: 40/90, then 30 minutes, 30 s a move from move 1.
    fn keizer_standard() -> TimeControl {
        TimeControl {
            increment: Some(Increment {
                seconds: 30,
                from_move: 1,
            }),
            ..TimeControl::moves_then_rest(40, 90, 30)
        }
    }

    /// `minutes` per player for the game, `seconds` a move from move 1.
    fn sudden_death(minutes: u32, seconds: u32) -> TimeControl {
        TimeControl {
            periods: vec![Period {
                moves: None,
                minutes,
            }],
            increment: (seconds > 0).then_some(Increment {
                seconds,
                from_move: 1,
            }),
        }
    }

    fn check(
        rule: TempoRule,
        competition: &TimeControl,
        game: &TimeControl,
        agreed: bool,
    ) -> Result<(), TempoRefusal> {
        check_game_tempo(
            rule,
            &GameTempo {
                competition,
                game,
                agreed,
            },
        )
    }

    #[test]
    fn rules_by_kind_and_system() {
        use CompetitionKind as K;
        assert_eq!(TempoRule::of(K::Keizer, None), TempoRule::Keizer);
        assert_eq!(
            TempoRule::of(K::Swiss, Some(PairingSystem::DoubleSwiss)),
            TempoRule::Rapid
        );
        // the blitz championship (Dutch), the draughts round robin, the playoffs: own only
        assert_eq!(
            TempoRule::of(K::Swiss, Some(PairingSystem::Dutch)),
            TempoRule::OwnOnly
        );
        assert_eq!(
            TempoRule::of(K::RoundRobin, Some(PairingSystem::Single)),
            TempoRule::OwnOnly
        );
        assert_eq!(TempoRule::of(K::Knockout, None), TempoRule::OwnOnly);
        assert!(TempoRule::Keizer.needs_leader_approval());
        assert!(!TempoRule::Rapid.needs_leader_approval());
    }

    #[test]
    fn keizer_allows_the_competition_tempo_and_the_agreed_alternative() {
        let std = keizer_standard();
        // the competition's own tempo needs no agreement
        assert_eq!(check(TempoRule::Keizer, &std, &std, false), Ok(()));
        // 40/90 then 15 min, no increment: allowed by agreement only
        let alt = keizer_alternative();
        assert_eq!(check(TempoRule::Keizer, &std, &alt, true), Ok(()));
        assert_eq!(
            check(TempoRule::Keizer, &std, &alt, false),
            Err(TempoRefusal::NotAgreed)
        );
        // an increment of 0 s from move 41 is no increment: still the alternative
        let mut alt0 = keizer_alternative();
        alt0.increment = Some(Increment {
            seconds: 0,
            from_move: 41,
        });
        assert_eq!(check(TempoRule::Keizer, &std, &alt0, true), Ok(()));
        // 40/90 then 15 min with 30 s a move is not the alternative; nor is 40/90 then 20
        let mut with_inc = keizer_alternative();
        with_inc.increment = Some(Increment {
            seconds: 30,
            from_move: 1,
        });
        assert_eq!(
            check(TempoRule::Keizer, &std, &with_inc, true),
            Err(TempoRefusal::NotTheKeizerAlternative)
        );
        let mut twenty = keizer_alternative();
        twenty.periods[1].minutes = 20;
        assert_eq!(
            check(TempoRule::Keizer, &std, &twenty, true),
            Err(TempoRefusal::NotTheKeizerAlternative)
        );
        assert_eq!(
            check(TempoRule::Keizer, &std, &sudden_death(25, 0), true),
            Err(TempoRefusal::NotTheKeizerAlternative)
        );
    }

    #[test]
    fn rapid_allows_ten_minutes_up_to_the_competition_tempo() {
        let rapid = sudden_death(25, 0);
        assert_eq!(
            check(TempoRule::Rapid, &rapid, &sudden_death(10, 0), true),
            Ok(())
        );
        assert_eq!(
            check(TempoRule::Rapid, &rapid, &sudden_death(24, 0), true),
            Ok(())
        );
        assert_eq!(
            check(TempoRule::Rapid, &rapid, &sudden_death(25, 0), false),
            Ok(())
        );
        assert_eq!(
            check(TempoRule::Rapid, &rapid, &sudden_death(9, 0), true),
            Err(TempoRefusal::RapidBelowMinimum { minutes: 9 })
        );
        assert_eq!(
            check(TempoRule::Rapid, &rapid, &sudden_death(15, 0), false),
            Err(TempoRefusal::NotAgreed)
        );
        assert_eq!(
            check(TempoRule::Rapid, &rapid, &sudden_death(30, 0), true),
            Err(TempoRefusal::RapidLongerThanCompetition {
                minutes: 30,
                competition: 25
            })
        );
        assert_eq!(
            check(TempoRule::Rapid, &rapid, &sudden_death(15, 5), true),
            Err(TempoRefusal::RapidLargerIncrement {
                seconds: 5,
                competition: 0
            })
        );
        // a rapid of 20 minutes + 10 s: 15 + 5 is shorter on both counts
        assert_eq!(
            check(
                TempoRule::Rapid,
                &sudden_death(20, 10),
                &sudden_death(15, 5),
                true
            ),
            Ok(())
        );
        assert_eq!(
            check(TempoRule::Rapid, &rapid, &keizer_alternative(), true),
            Err(TempoRefusal::RapidNotOnePeriod)
        );
    }

    #[test]
    fn other_competitions_play_their_own_tempo() {
        let blitz = sudden_death(10, 0);
        assert_eq!(check(TempoRule::OwnOnly, &blitz, &blitz, false), Ok(()));
        assert_eq!(
            check(TempoRule::OwnOnly, &blitz, &sudden_death(5, 0), true),
            Err(TempoRefusal::OwnTempoOnly)
        );
        let mut bad = sudden_death(10, 0);
        bad.periods.insert(
            0,
            Period {
                moves: None,
                minutes: 5,
            },
        );
        assert!(matches!(
            check(TempoRule::OwnOnly, &blitz, &bad, true),
            Err(TempoRefusal::InvalidTimeControl { .. })
        ));
    }

    /// Move 45, 1:40 left: in the final period (it starts at move 41) and under two minutes.
    fn claim_at(time_control: TimeControl) -> QuickplayClaim {
        QuickplayClaim {
            claimant: Colour::White,
            remaining_ms: 100_000,
            move_number: 45,
            competition_applies_rule: true,
            time_control,
        }
    }

    #[test]
    fn the_alternative_keizer_tempo_admits_a_quickplay_claim() {
        // the standard tempo has 30 s a move into the final period: refused
        assert_eq!(
            check_quickplay_claim(&claim_at(keizer_standard())),
            Err(QuickplayRefusal::FinalPeriodHasIncrement { seconds: 30 })
        );
        // 40/90 then 15 min has no increment: before the arbiter
        assert!(check_quickplay_claim(&claim_at(keizer_alternative())).is_ok());
    }
}
