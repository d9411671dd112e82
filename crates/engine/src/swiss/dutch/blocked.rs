//! Why a round cannot be paired: the players that no pairing can include all of, and for each
//! the absolute criteria (C.04.3 C.1–C.3) that stand in the way.

use super::players::{Entrant, Strength, compatible};
use crate::swiss::matching::max_weight_matching;
use crate::swiss::trf::Colour;
use std::fmt;

/// At most this many entrants get the exact search for every player left out by some maximal
/// pairing (one matching per entrant); above it, the players left out by one maximal pairing
/// are named.
const EXACT_SEARCH_LIMIT: usize = 100;
/// At most this many pairing numbers are listed per criterion: the message stays short for
/// any input.
const MAX_LISTED: usize = 12;
/// At most this many blocked players are described one by one.
const MAX_PLAYERS_LISTED: usize = 6;

/// One player that cannot be given an opponent (or the bye) in a complete pairing, and what
/// rules out the others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockedPlayer {
    /// Pairing number.
    pub player: u32,
    /// C.1: entrants of the round this player has already played.
    pub met: Vec<u32>,
    /// Entrants the file forbids this player to meet (`XXP` lines, outside the FIDE rules).
    pub forbidden: Vec<u32>,
    /// C.3: entrants (neither a topscorer) with the same absolute colour preference.
    pub same_absolute_colour: Vec<u32>,
    /// The absolute colour preference behind [`BlockedPlayer::same_absolute_colour`].
    pub absolute_colour: Option<Colour>,
    /// The entrants this player may still be paired with under C.1 and C.3 (all of them
    /// needed elsewhere).
    pub possible: Vec<u32>,
    /// C.2: the field is odd and this player may not receive the bye (a pairing-allocated bye
    /// or a forfeit win before).
    pub no_second_bye: bool,
}

/// The players of an unpairable round that cannot all be paired under C.1–C.3: those that every
/// maximal pairing leaves out, or when there are none, those that some maximal pairing leaves
/// out (searched exactly up to a field size; beyond it, those left out by one maximal
/// pairing).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Blocked {
    /// For an odd field, the entrants who may receive the pairing-allocated bye (C.2).
    pub bye_candidates: Option<Vec<u32>>,
    /// The players, by pairing number.
    pub players: Vec<BlockedPlayer>,
}

fn list(ids: &[u32]) -> String {
    let mut s: Vec<String> = ids.iter().take(MAX_LISTED).map(u32::to_string).collect();
    if ids.len() > MAX_LISTED {
        s.push(format!("and {} more", ids.len() - MAX_LISTED));
    }
    s.join(", ")
}

impl fmt::Display for Blocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.bye_candidates {
            Some(c) if c.is_empty() => write!(f, "odd field, and nobody may have the bye (C.2); ")?,
            Some(c) => write!(
                f,
                "odd field, and only {} may have the bye (C.2); ",
                list(c)
            )?,
            None => {}
        }
        if self.players.is_empty() {
            return write!(f, "the players cannot all be paired");
        }
        for (i, b) in self.players.iter().take(MAX_PLAYERS_LISTED).enumerate() {
            if i > 0 {
                write!(f, "; ")?;
            }
            write!(f, "player {} cannot be paired", b.player)?;
            let mut why = Vec::new();
            if !b.met.is_empty() {
                why.push(format!("C.1: has played {}", list(&b.met)));
            }
            if !b.forbidden.is_empty() {
                why.push(format!(
                    "forbidden pair (XXP): may not meet {}",
                    list(&b.forbidden)
                ));
            }
            if !b.same_absolute_colour.is_empty() {
                let c = match b.absolute_colour {
                    Some(Colour::White) => "white",
                    _ => "black",
                };
                why.push(format!(
                    "C.3: {} must also have {c}",
                    list(&b.same_absolute_colour)
                ));
            }
            if b.possible.is_empty() {
                why.push("no opponent left".to_string());
            } else {
                why.push(format!(
                    "its only possible opponents, {}, are needed by other players",
                    list(&b.possible)
                ));
            }
            if b.no_second_bye {
                why.push("C.2: has had a bye, a forfeit win or a full-point bye".to_string());
            }
            if !why.is_empty() {
                write!(f, " ({})", why.join("; "))?;
            }
        }
        if self.players.len() > MAX_PLAYERS_LISTED {
            write!(
                f,
                "; and {} more players",
                self.players.len() - MAX_PLAYERS_LISTED
            )?;
        }
        Ok(())
    }
}

/// The compatibility graph of the round (plus the bye vertex for an odd field, joined to every
/// player who may receive it): its edges, with unit weights.
fn edges(players: &[Entrant], skip: Option<usize>) -> (usize, Vec<(usize, usize, u64)>) {
    let n = players.len();
    let odd = n % 2 == 1;
    let mut e = Vec::new();
    for x in 0..n {
        if Some(x) == skip {
            continue;
        }
        for y in x + 1..n {
            if Some(y) != skip && compatible(&players[x], &players[y]) {
                e.push((x, y, 1));
            }
        }
        if odd && !players[x].bye_received {
            e.push((x, n, 1));
        }
    }
    (n + odd as usize, e)
}

fn matched(mate: &[Option<usize>]) -> usize {
    mate.iter().filter(|m| m.is_some()).count()
}

/// Explains why no pairing of `players` (this round's entrants) satisfies C.1–C.3.
pub(crate) fn diagnose(players: &[Entrant]) -> Blocked {
    let n = players.len();
    let (v, e) = edges(players, None);
    let mate = max_weight_matching(v, &e);
    let size = matched(&mate);
    let left_out: Vec<usize> = if n <= EXACT_SEARCH_LIMIT {
        // First the players that every maximum matching leaves out (x is left out by every
        // one iff a maximum matching that prefers x's edges still leaves it out); when there
        // are none, every player that some maximum matching leaves out (iff removing it keeps
        // the matching size).
        let always: Vec<usize> = (0..n)
            .filter(|&x| {
                if mate[x].is_some() {
                    return false;
                }
                let big = v as u64 + 2;
                let w: Vec<(usize, usize, u64)> = e
                    .iter()
                    .map(|&(a, b, _)| (a, b, big + (a == x || b == x) as u64))
                    .collect();
                max_weight_matching(v, &w)[x].is_none()
            })
            .collect();
        if always.is_empty() {
            (0..n)
                .filter(|&x| {
                    if mate[x].is_none() {
                        return true;
                    }
                    let (v, e) = edges(players, Some(x));
                    matched(&max_weight_matching(v, &e)) == size
                })
                .collect()
        } else {
            always
        }
    } else {
        (0..n).filter(|&x| mate[x].is_none()).collect()
    };
    let odd = n % 2 == 1;
    let players_out = left_out
        .into_iter()
        .map(|x| {
            let p = &players[x];
            let mut met: Vec<u32> = players
                .iter()
                .filter(|q| q.id != p.id && p.opponents.contains(&q.id))
                .map(|q| q.id)
                .collect();
            met.sort_unstable();
            let mut forbidden: Vec<u32> = players
                .iter()
                .filter(|q| q.id != p.id && p.forbidden.contains(&q.id))
                .map(|q| q.id)
                .collect();
            forbidden.sort_unstable();
            let absolute = p.strength == Strength::Absolute && !p.topscorer;
            let mut same: Vec<u32> = if absolute {
                players
                    .iter()
                    .filter(|q| {
                        q.id != p.id
                            && !p.opponents.contains(&q.id)
                            && !p.forbidden.contains(&q.id)
                            && q.strength == Strength::Absolute
                            && !q.topscorer
                            && q.side == p.side
                    })
                    .map(|q| q.id)
                    .collect()
            } else {
                Vec::new()
            };
            same.sort_unstable();
            let mut possible: Vec<u32> = players
                .iter()
                .filter(|q| q.id != p.id && compatible(p, q))
                .map(|q| q.id)
                .collect();
            possible.sort_unstable();
            BlockedPlayer {
                possible,
                player: p.id,
                met,
                forbidden,
                absolute_colour: if same.is_empty() { None } else { p.side },
                same_absolute_colour: same,
                no_second_bye: odd && p.bye_received,
            }
        })
        .collect::<Vec<_>>();
    let mut players_out = players_out;
    players_out.sort_by_key(|b| b.player);
    let bye_candidates = odd.then(|| {
        let mut c: Vec<u32> = players
            .iter()
            .filter(|p| !p.bye_received)
            .map(|p| p.id)
            .collect();
        c.sort_unstable();
        c
    });
    Blocked {
        bye_candidates,
        players: players_out,
    }
}
