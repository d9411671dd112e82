//! The checker of a complete tournament (FIDE C.04.A, the endorsement kit;
//! docs/rules/rapid-blitz.md#checking-a-tournament): every round is paired again from the
//! rounds before it and compared with the pairing that was played; the first round that
//! differs is reported with the pairs only one side has and the absolute criteria the played
//! pairing breaks.

use super::players::{Entrant, Strength, entrants};
use super::{PairError, PairFn, SwissBoard};
use crate::swiss::trf::{Colour, Line, ResultCode, RoundEntry, Tournament};
use std::collections::BTreeSet;
use std::fmt;

/// Why a file is not a complete tournament.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Incomplete {
    /// No round at all.
    #[error("the file holds no rounds")]
    NoRounds,
    /// A player line holds fewer rounds than the tournament.
    #[error("line {line}: player {id} has {rounds} of the {total} rounds")]
    MissingRounds {
        /// 1-based line number of the player line.
        line: usize,
        /// Pairing number.
        id: u32,
        /// Rounds on the line.
        rounds: usize,
        /// Rounds of the tournament (`XXR`, or the most rounds any line holds).
        total: usize,
    },
    /// A game without a result.
    #[error("line {line}: player {id}, round {round}: the game has no result")]
    NoResult {
        /// 1-based line number.
        line: usize,
        /// Pairing number.
        id: u32,
        /// The round.
        round: usize,
    },
    /// Two entries of one round that do not name each other.
    #[error("line {line}: player {id}, round {round}: opponent {opponent} does not name {id}")]
    Mismatch {
        /// 1-based line number.
        line: usize,
        /// Pairing number.
        id: u32,
        /// The round.
        round: usize,
        /// The opponent named.
        opponent: u32,
    },
}

/// The pairing system whose absolute criteria a checked tournament is judged by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Criteria {
    /// The Dutch system (C.04.3): criteria C.1 to C.3, the topscorer exception to C.3, and
    /// the 2025 bye rule (no bye after any win's points without playing).
    Dutch,
    /// The Burstein system (C.04.4.2): criteria \[C1\] to \[C3\] of its article 2.1, with no
    /// topscorer exception and the bye rule of the text bbpPairings follows (no bye after a
    /// pairing-allocated bye or a forfeit win).
    Burstein,
}

/// An absolute criterion that a played pairing breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Breach {
    /// Dutch C.1, Burstein 2.1.1 \[C1\]: the two had met before.
    MetBefore(u32, u32),
    /// A pair the file forbids (`XXP`).
    Forbidden(u32, u32),
    /// Dutch C.3 (neither is a topscorer), Burstein 2.1.3 \[C3\] (no exception): both have the
    /// same absolute colour preference.
    SameAbsoluteColour(u32, u32, Colour),
    /// Dutch C.2, Burstein 2.1.2 \[C2\]: the bye went to a player the system bars from it.
    SecondBye(u32),
}

impl Breach {
    /// The breach in words, named by the criterion of `rules`.
    pub fn describe(&self, rules: Criteria) -> String {
        let colour = |c: &Colour| {
            if *c == Colour::White {
                "white"
            } else {
                "black"
            }
        };
        match (self, rules) {
            (Breach::MetBefore(a, b), Criteria::Dutch) => {
                format!("C.1: {a} and {b} had met before")
            }
            (Breach::MetBefore(a, b), Criteria::Burstein) => {
                format!("C.04.4.2 2.1.1 [C1]: {a} and {b} had met before")
            }
            (Breach::Forbidden(a, b), _) => format!("XXP: {a} and {b} may not meet"),
            (Breach::SameAbsoluteColour(a, b, c), Criteria::Dutch) => format!(
                "C.3: {a} and {b} both must have {} and neither is a topscorer",
                colour(c)
            ),
            (Breach::SameAbsoluteColour(a, b, c), Criteria::Burstein) => {
                format!(
                    "C.04.4.2 2.1.3 [C3]: {a} and {b} both must have {}",
                    colour(c)
                )
            }
            (Breach::SecondBye(p), Criteria::Dutch) => format!(
                "C.2: {p} had a bye or a win without playing before and may not have the bye"
            ),
            (Breach::SecondBye(p), Criteria::Burstein) => format!(
                "C.04.4.2 2.1.2 [C2]: {p} had a pairing-allocated bye or a forfeit win before \
                 and may not have the bye"
            ),
        }
    }
}

impl fmt::Display for Breach {
    /// The breach named by the Dutch criteria.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(Criteria::Dutch))
    }
}

/// The first round whose played pairing is not the one the rules give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The round.
    pub round: u32,
    /// The boards as played (`black == None`: the pairing-allocated bye), by white's number.
    pub played: Vec<SwissBoard>,
    /// The boards as the rules give them, in publishing order.
    pub expected: Vec<SwissBoard>,
    /// Boards played but not given by the rules (a pair with other colours counts).
    pub only_played: Vec<SwissBoard>,
    /// Boards the rules give but not played.
    pub only_expected: Vec<SwissBoard>,
    /// The absolute criteria the played pairing breaks.
    pub breaches: Vec<Breach>,
    /// The system whose criteria the breaches are judged by.
    pub rules: Criteria,
}

/// The verdict on a complete tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Every round is what the rules give.
    Agrees {
        /// Rounds checked.
        rounds: u32,
    },
    /// A round differs.
    Differs(Difference),
    /// A round has no valid pairing under the rules (it was played all the same).
    Unpairable {
        /// The round.
        round: u32,
        /// The pairing error.
        error: PairError,
    },
}

fn line_of(t: &Tournament, k: usize) -> usize {
    t.layout
        .iter()
        .position(|l| *l == Line::Player(k))
        .map_or(0, |i| i + 1)
}

/// The number of rounds of a complete tournament, or why it is not one.
pub fn complete_rounds(t: &Tournament) -> Result<usize, Incomplete> {
    let total = t.total_rounds.map_or(t.rounds_in_file(), |n| n as usize);
    if total == 0 || t.players.is_empty() {
        return Err(Incomplete::NoRounds);
    }
    for (k, p) in t.players.iter().enumerate() {
        let line = line_of(t, k);
        if p.rounds.len() < total {
            return Err(Incomplete::MissingRounds {
                line,
                id: p.id,
                rounds: p.rounds.len(),
                total,
            });
        }
        for (r, e) in p.rounds.iter().enumerate() {
            let round = r + 1;
            if e.result == ResultCode::Pending {
                return Err(Incomplete::NoResult {
                    line,
                    id: p.id,
                    round,
                });
            }
            if let Some(o) = e.opponent {
                let back = t
                    .player(o)
                    .and_then(|q| q.rounds.get(r))
                    .and_then(|x| x.opponent);
                if back != Some(p.id) {
                    return Err(Incomplete::Mismatch {
                        line,
                        id: p.id,
                        round,
                        opponent: o,
                    });
                }
            }
        }
    }
    Ok(total)
}

/// An entry that the pairing of its round produced (a game, a forfeit, the bye), as opposed
/// to an absence announced before it (`H`, `F`, `Z`, `0000 - -`).
fn from_pairing(e: &RoundEntry) -> bool {
    e.opponent.is_some() || matches!(e.result, ResultCode::PairingBye | ResultCode::ForfeitWin)
}

/// The tournament as it stood before round `round`: the rounds before it, and the absences
/// announced for it.
pub fn before_round(t: &Tournament, round: usize) -> Tournament {
    let mut cut = t.clone();
    for p in &mut cut.players {
        let next = p.rounds.get(round - 1).copied();
        p.rounds.truncate(round - 1);
        if let Some(e) = next.filter(|e| !from_pairing(e)) {
            p.rounds.push(e);
        }
    }
    cut
}

/// The boards of round `round` as played, sorted by white's number, the bye last.
pub fn played_boards(t: &Tournament, round: usize) -> Vec<SwissBoard> {
    let mut boards = Vec::new();
    let mut byes = Vec::new();
    for p in &t.players {
        let Some(e) = p.rounds.get(round - 1) else {
            continue;
        };
        match e.opponent {
            Some(o) => {
                let white = match e.colour {
                    Some(Colour::White) => true,
                    Some(Colour::Black) => false,
                    None => p.id < o,
                };
                if white {
                    boards.push(SwissBoard {
                        white: p.id,
                        black: Some(o),
                    });
                }
            }
            None if from_pairing(e) => byes.push(SwissBoard {
                white: p.id,
                black: None,
            }),
            None => {}
        }
    }
    boards.sort_by_key(|b| b.white);
    boards.extend(byes);
    boards
}

/// The absolute criteria that the played `boards` break, judged on the players as they stood
/// before the round.
fn breaches(players: &[Entrant], boards: &[SwissBoard]) -> Vec<Breach> {
    let find = |id: u32| players.iter().find(|p| p.id == id);
    let mut out = Vec::new();
    for b in boards {
        let Some(a) = find(b.white) else { continue };
        let Some(black) = b.black else {
            if a.bye_received {
                out.push(Breach::SecondBye(a.id));
            }
            continue;
        };
        let Some(c) = find(black) else { continue };
        let (x, y) = (a.id.min(c.id), a.id.max(c.id));
        if a.opponents.contains(&c.id) {
            out.push(Breach::MetBefore(x, y));
        }
        if a.forbidden.contains(&c.id) {
            out.push(Breach::Forbidden(x, y));
        }
        let both = a.strength == Strength::Absolute && c.strength == Strength::Absolute;
        if both
            && a.side == c.side
            && !a.topscorer
            && !c.topscorer
            && let Some(side) = a.side
        {
            out.push(Breach::SameAbsoluteColour(x, y, side));
        }
    }
    out
}

/// Checks every round of a complete tournament with `pair` (a Dutch pairing), round 1
/// first, and stops at the first round that differs.
pub fn check_tournament(t: &Tournament, pair: &PairFn) -> Result<Verdict, Incomplete> {
    check_tournament_under(t, pair, Criteria::Dutch)
}

/// The players of `cut` before round `round` as the absolute criteria of `rules` see them.
fn judged(cut: &Tournament, round: u32, rules: Criteria) -> Vec<Entrant> {
    let mut players = entrants(cut, round).unwrap_or_default();
    if rules == Criteria::Burstein {
        for p in &mut players {
            p.topscorer = false;
            let rounds = cut.player(p.id).map(|x| &x.rounds[..]).unwrap_or(&[]);
            let played = rounds.len().min(round as usize - 1);
            p.bye_received = !crate::swiss::burstein::bye_eligible(&rounds[..played]);
        }
    }
    players
}

/// [`check_tournament`] with `pair` a pairing of the system `rules`, whose absolute
/// criteria name the breaches of a round that differs.
pub fn check_tournament_under(
    t: &Tournament,
    pair: &PairFn,
    rules: Criteria,
) -> Result<Verdict, Incomplete> {
    let total = complete_rounds(t)?;
    for round in 1..=total {
        let mut cut = before_round(t, round);
        cut.total_rounds = Some(total as u32);
        // the initial colour, inferred from the whole file when it has no XXC line
        let white = super::initial_white(t);
        cut.initial_colour = Some(if white { Colour::White } else { Colour::Black });
        let r = round as u32;
        let expected = match pair(&cut, r) {
            Ok(b) => b,
            Err(error) => return Ok(Verdict::Unpairable { round: r, error }),
        };
        let played = played_boards(t, round);
        let exp: BTreeSet<(u32, Option<u32>)> =
            expected.iter().map(|b| (b.white, b.black)).collect();
        let got: BTreeSet<(u32, Option<u32>)> = played.iter().map(|b| (b.white, b.black)).collect();
        if exp == got {
            continue;
        }
        let only_played = played
            .iter()
            .filter(|b| !exp.contains(&(b.white, b.black)))
            .copied()
            .collect();
        let only_expected = expected
            .iter()
            .filter(|b| !got.contains(&(b.white, b.black)))
            .copied()
            .collect();
        let players = judged(&cut, r, rules);
        let breaches = breaches(&players, &played);
        return Ok(Verdict::Differs(Difference {
            round: r,
            played,
            expected,
            only_played,
            only_expected,
            breaches,
            rules,
        }));
    }
    Ok(Verdict::Agrees {
        rounds: total as u32,
    })
}

#[cfg(test)]
#[path = "check_tests.rs"]
mod tests;
