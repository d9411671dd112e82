//! The pairing procedure of the Double-Swiss system: bye, brackets from the top, colours.

use super::{ByeKind, DoubleSwissError, DoubleSwissPairing, NextRound, State};
use crate::matching::cardinality::{Dense, matching_size};
use std::collections::{HashMap, HashSet};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    W,
    B,
}

/// What the pairing needs to know about a player's past.
#[derive(Debug, Default, Clone)]
struct History {
    /// Score in half-points (1 / ½ / 0 per game; byes per match).
    score: u32,
    /// Opponents met in regularly played matches.
    met: HashSet<u32>,
    /// Had the pairing-allocated bye or won a match by forfeit (C.04.1 d).
    no_bye: bool,
    /// Game-1 colour of every regularly played match, in order (the match's colour).
    colours: Vec<Col>,
}

fn histories(state: &State) -> Result<HashMap<u32, History>, DoubleSwissError> {
    let mut h: HashMap<u32, History> = HashMap::new();
    for p in &state.players {
        if h.insert(p.id, History::default()).is_some() {
            return Err(DoubleSwissError::DuplicatePlayer(p.id));
        }
    }
    for (r, round) in state.rounds.iter().enumerate() {
        let rno = r as u32 + 1;
        let mut seen = HashSet::new();
        let mut see = |player: u32, h: &HashMap<u32, History>| -> Result<(), DoubleSwissError> {
            if !h.contains_key(&player) {
                return Err(DoubleSwissError::UnknownPlayer { round: rno, player });
            }
            if !seen.insert(player) {
                return Err(DoubleSwissError::TwiceInRound { round: rno, player });
            }
            Ok(())
        };
        for m in &round.matches {
            see(m.white, &h)?;
            see(m.black, &h)?;
            let (w1, b1) = m.game1.half_points();
            let (b2, w2) = m.game2.half_points(); // game 2: `black` has White
            let (wf1, bf1) = m.game1.forfeited();
            let (bf2, wf2) = m.game2.forfeited();
            let white_forfeits_both = wf1 && wf2;
            let black_forfeits_both = bf1 && bf2;
            let regular = !white_forfeits_both && !black_forfeits_both;
            if let Some(x) = h.get_mut(&m.white) {
                x.score += w1 + w2;
                if regular {
                    x.colours.push(Col::W);
                }
                if black_forfeits_both && !white_forfeits_both {
                    x.no_bye = true;
                }
                if regular {
                    x.met.insert(m.black);
                }
            }
            if let Some(x) = h.get_mut(&m.black) {
                x.score += b1 + b2;
                if regular {
                    x.colours.push(Col::B);
                }
                if white_forfeits_both && !black_forfeits_both {
                    x.no_bye = true;
                }
                if regular {
                    x.met.insert(m.white);
                }
            }
        }
        for b in &round.byes {
            see(b.player, &h)?;
            if let Some(x) = h.get_mut(&b.player) {
                x.score += match b.kind {
                    ByeKind::Pairing | ByeKind::Full => 4,
                    ByeKind::Half => 2,
                    ByeKind::Zero => 0,
                };
                if b.kind == ByeKind::Pairing {
                    x.no_bye = true;
                }
            }
        }
    }
    for &a in &state.absent {
        if !h.contains_key(&a) {
            return Err(DoubleSwissError::UnknownPlayer {
                round: 0,
                player: a,
            });
        }
    }
    Ok(h)
}

/// Pairs the next round of a Double-Swiss from the tournament state.
pub fn pair_next_round(state: &State) -> Result<NextRound, DoubleSwissError> {
    let hist = histories(state)?;
    let absent: HashSet<u32> = state.absent.iter().copied().collect();
    // Ranking order (C.04.5 1.2): score, then TPN.
    let mut order: Vec<u32> = state
        .players
        .iter()
        .map(|p| p.id)
        .filter(|id| !absent.contains(id))
        .collect();
    let score = |id: &u32| hist.get(id).map_or(0, |x| x.score);
    order.sort_by_key(|id| (std::cmp::Reverse(score(id)), *id));
    let n = order.len();
    let compat = |a: usize, b: usize| -> bool {
        a != b
            && !hist
                .get(&order[a])
                .is_some_and(|x| x.met.contains(&order[b]))
    };
    let perfect = |set: &[usize]| -> bool {
        if set.len() % 2 == 1 {
            return false;
        }
        let g = Dense {
            n: set.len(),
            joined: |i: usize, j: usize| compat(set[i], set[j]),
        };
        matching_size(&g) * 2 == set.len()
    };
    let unpairable = || DoubleSwissError::Unpairable {
        players: order.clone(),
    };

    let all: Vec<usize> = (0..n).collect();
    let mut bye = None;
    let mut remaining: Vec<usize> = all.clone();
    if n % 2 == 1 {
        // The bye: lowest score, then highest TPN, among the eligible, leaving a pairable rest.
        let mut candidates: Vec<usize> = all
            .iter()
            .copied()
            .filter(|&i| !hist.get(&order[i]).is_some_and(|x| x.no_bye))
            .collect();
        candidates.sort_by_key(|&i| (score(&order[i]), std::cmp::Reverse(order[i])));
        let chosen = candidates.into_iter().find(|&c| {
            let rest: Vec<usize> = all.iter().copied().filter(|&i| i != c).collect();
            perfect(&rest)
        });
        let c = chosen.ok_or_else(unpairable)?;
        bye = Some(order[c]);
        remaining.retain(|&i| i != c);
    } else if !perfect(&remaining) {
        return Err(unpairable());
    }

    let mut pairs: Vec<(usize, usize)> = Vec::new();
    while !remaining.is_empty() {
        let top = score(&order[remaining[0]]);
        let residents = remaining
            .iter()
            .take_while(|&&i| score(&order[i]) == top)
            .count();
        let (bracket, rest) =
            choose_bracket(&remaining, residents, &perfect).ok_or_else(unpairable)?;
        pairs.extend(lexicographic_pairing(&bracket, &compat, &perfect));
        remaining = rest;
    }

    // Boards: the pair with the higher score first, then the higher-ranked player.
    pairs.sort_by_key(|&(a, b)| {
        (
            std::cmp::Reverse(score(&order[a]).max(score(&order[b]))),
            a.min(b),
        )
    });
    let empty: Vec<Col> = Vec::new();
    let pairings = pairs
        .iter()
        .enumerate()
        .map(|(k, &(a, b))| {
            let board = k as u32 + 1;
            let (hi, lo) = if a < b { (a, b) } else { (b, a) };
            let ch = hist.get(&order[hi]).map_or(&empty, |x| &x.colours);
            let cl = hist.get(&order[lo]).map_or(&empty, |x| &x.colours);
            let hi_white = game_one_colours(ch, cl, board);
            let (white, black) = if hi_white { (hi, lo) } else { (lo, hi) };
            DoubleSwissPairing {
                board,
                white: order[white],
                black: order[black],
            }
        })
        .collect();
    Ok(NextRound {
        round: state.rounds.len() as u32 + 1,
        pairings,
        bye,
    })
}

/// The bracket: the `residents` (top scoregroup, the first of `remaining`) plus the fewest
/// upfloaters, the highest ranked first, such that the bracket and what is left are both
/// pairable. Returns (bracket, rest) in ranking order.
fn choose_bracket(
    remaining: &[usize],
    residents: usize,
    perfect: &dyn Fn(&[usize]) -> bool,
) -> Option<(Vec<usize>, Vec<usize>)> {
    let (top, below) = remaining.split_at(residents);
    let mut k = residents % 2;
    while k <= below.len() {
        // Combinations of k of `below`, in lexicographic order of ranking positions.
        let mut idx: Vec<usize> = (0..k).collect();
        loop {
            let mut bracket: Vec<usize> = top.to_vec();
            bracket.extend(idx.iter().map(|&j| below[j]));
            let rest: Vec<usize> = below
                .iter()
                .enumerate()
                .filter(|(j, _)| !idx.contains(j))
                .map(|(_, &x)| x)
                .collect();
            if perfect(&bracket) && (rest.is_empty() || perfect(&rest)) {
                return Some((bracket, rest));
            }
            // Next combination.
            let mut i = k;
            while i > 0 && idx[i - 1] == below.len() - k + i - 1 {
                i -= 1;
            }
            if i == 0 {
                break;
            }
            idx[i - 1] += 1;
            for j in i..k {
                idx[j] = idx[j - 1] + 1;
            }
        }
        k += 2;
    }
    None
}

/// The lexicographically first complete pairing of a bracket (ranking order): the highest
/// ranked player still unpaired gets the highest ranked compatible opponent that leaves the
/// rest of the bracket pairable.
fn lexicographic_pairing(
    bracket: &[usize],
    compat: &dyn Fn(usize, usize) -> bool,
    perfect: &dyn Fn(&[usize]) -> bool,
) -> Vec<(usize, usize)> {
    let mut left: Vec<usize> = bracket.to_vec();
    let mut out = Vec::new();
    while left.len() >= 2 {
        let a = left[0];
        let partner = (1..left.len()).find(|&j| {
            let c = left[j];
            if !compat(a, c) {
                return false;
            }
            let rest: Vec<usize> = left.iter().copied().filter(|&x| x != a && x != c).collect();
            rest.is_empty() || perfect(&rest)
        });
        let Some(j) = partner else { break };
        let c = left[j];
        out.push((a, c));
        left.retain(|&x| x != a && x != c);
    }
    out
}

/// Whether the higher-ranked player gets White in game 1. A match's colour is its game-1
/// colour, and the basic Swiss colour rules (C.04.1 f–h) are applied to it, in order:
/// 1. a player who had the same game-1 colour in their last two matches gets the other one
///    (unless both need the same colour);
/// 2. the player with fewer game-1 Whites than Blacks (the lower colour difference) gets White;
/// 3. the player who had Black in game 1 of their last match gets White, when the two differ;
/// 4. with no history at all, the higher-ranked player has White on odd boards, Black on even;
/// 5. otherwise the higher-ranked player gets the colour alternating from their last match
///    (a player without history lets the other have their alternation).
fn game_one_colours(high: &[Col], low: &[Col], board: u32) -> bool {
    let opposite = |c: Col| if c == Col::W { Col::B } else { Col::W };
    let must = |c: &[Col]| match c {
        [.., a, b] if a == b => Some(opposite(*b)),
        _ => None,
    };
    match (must(high), must(low)) {
        (Some(a), Some(b)) if a != b => return a == Col::W,
        (Some(a), None) => return a == Col::W,
        (None, Some(b)) => return b == Col::B,
        _ => {}
    }
    let diff = |c: &[Col]| {
        c.iter()
            .map(|x| if *x == Col::W { 1i32 } else { -1 })
            .sum::<i32>()
    };
    let (dh, dl) = (diff(high), diff(low));
    if dh != dl {
        return dh < dl;
    }
    match (high.last(), low.last()) {
        (Some(&h), Some(&l)) if h != l => h == Col::B,
        (Some(&h), _) => opposite(h) == Col::W,
        (None, Some(&l)) => opposite(l) == Col::B,
        (None, None) => board % 2 == 1,
    }
}
