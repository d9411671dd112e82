//! The FIDE Burstein system (C.04.4.2), docs/rules/rapid-blitz.md#the-burstein-system, as
//! bbpPairings implements it (docs/decisions/0272-burstein-system.md).
//!
//! Players are sorted by score, then inside a score by Sonneborn-Berger, Buchholz and Median
//! ([`scores`]). The bye goes to the lowest player who may have it. The scoregroups are then
//! settled from the top: each is merged with the next one while one maximum-weight matching
//! (pairs first, then pairs inside a group) cannot pair it with at most one floater; the
//! lowest groups are merged upwards when the bottom cannot be paired. Finally, inside each
//! group (with the player floated into it), the highest player still unpaired is given the
//! lowest opponent that keeps the matching maximal, colours granted where possible, and so
//! on down. Boards are ordered as for the Dutch system.
//!
//! # Round 1 of six players
//!
//! Without acceleration lines players 1–3 start a win's points ahead in rounds 1 and 2, so
//! the top group pairs 1–3 and sends 2 down to meet 6; 4 meets 5. Without colour
//! preferences the higher pairing number decides by its parity (bbpPairings pairs the same).
//!
//! ```
//! use clubcomp_engine::swiss::{pair_burstein_round, parse_trf};
//!
//! let mut text = String::from("012 Six\nXXR 5\nXXC white1\n");
//! for id in 1..=6 {
//!     let name = format!("001 {id:>4}      Player{id:04}");
//!     text += &format!("{name:<80} 0.0 {id:>4}\n");
//! }
//! let boards = pair_burstein_round(&parse_trf(&text).unwrap(), 1).unwrap();
//! let pairs: Vec<(u32, u32)> =
//!     boards.iter().map(|b| (b.white, b.black.unwrap_or(0))).collect();
//! assert_eq!(pairs, [(1, 3), (6, 2), (5, 4)]);
//! ```

mod scores;

use super::dutch::blocked::diagnose;
use super::dutch::players::{Entrant, compatible, entrants_with};
use super::dutch::{PairError, SwissBoard, higher_gets_white, initial_white};
use super::trf::{Tournament, point_system};
use crate::matching::Matching;
pub(crate) use scores::bye_eligible;
use scores::{Metric, burstein_accelerations, metrics};

/// Pairs round `round` (1-based) of `t` with the Burstein system. Players that already have
/// an entry for `round` are not paired. Boards come in publishing order; the bye, if any, is
/// last. A round that cannot be paired is [`PairError::NoValidPairing`], naming the players
/// in the way.
pub fn pair_burstein_round(t: &Tournament, round: u32) -> Result<Vec<SwissBoard>, PairError> {
    pair_burstein_round_until(t, round, &crate::stop::Never)
}

/// [`pair_burstein_round`] that gives up with [`PairError::Stopped`] once `stop` is raised;
/// it looks before every matching it solves.
pub fn pair_burstein_round_until(
    t: &Tournament,
    round: u32,
    stop: &dyn crate::stop::Stop,
) -> Result<Vec<SwissBoard>, PairError> {
    let played = t.rounds_in_file() as u32;
    if round == 0 || round > played + 1 {
        return Err(PairError::RoundOutOfRange { round, played });
    }
    let ps = point_system(t).unwrap_or_default();
    let acc = burstein_accelerations(t, round, &ps);
    let mut players = entrants_with(t, round, &acc)?;
    let all = metrics(t, round, &ps, &acc);
    let mut metric: Vec<Metric> = Vec::with_capacity(players.len());
    for p in &mut players {
        // C.3 has no topscorer exception in this system; the bye rule is the older one.
        p.topscorer = false;
        let rounds = t.player(p.id).map(|x| &x.rounds[..]).unwrap_or(&[]);
        p.bye_received = !bye_eligible(rounds);
        p.bye_ok = !p.bye_received;
        let mut m = all.get(&p.id).copied().unwrap_or(Metric {
            score: 0,
            sonneborn: 0,
            buchholz: 0,
            median: 0,
            seq: 0,
        });
        m.score = p.score;
        m.seq = p.seq;
        metric.push(m);
    }
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by(|&a, &b| {
        players[b]
            .score
            .cmp(&players[a].score)
            .then_with(|| metric[b].rank(&metric[a]))
    });
    let unpairable = |players: &[Entrant]| PairError::NoValidPairing {
        round,
        blocked: diagnose(players),
    };
    let mut bye = None;
    if !order.len().is_multiple_of(2) {
        let Some(pos) = order.iter().rposition(|&i| players[i].bye_ok) else {
            return Err(unpairable(&players));
        };
        bye = Some(order.remove(pos));
    }
    let mut pairing = Pairing::new(&players, &metric, order, stop);
    if !pairing.settle_groups()? {
        return Err(unpairable(&players));
    }
    let pairs = pairing.pair_groups(initial_white(t))?;
    Ok(publish(&players, pairs, bye))
}

/// The boards in publishing order (C.04.2 D: score of the higher player, then of the lower
/// one, then the higher player's rank), the bye last.
fn publish(players: &[Entrant], pairs: Vec<(usize, usize)>, bye: Option<usize>) -> Vec<SwissBoard> {
    let higher = |a: usize, b: usize| {
        let (x, y) = (&players[a], &players[b]);
        if (y.real_score, x.id) > (x.real_score, y.id) {
            (b, a)
        } else {
            (a, b)
        }
    };
    let mut pairs = pairs;
    pairs.sort_by(|&(w1, b1), &(w2, b2)| {
        let (h1, l1) = higher(w1, b1);
        let (h2, l2) = higher(w2, b2);
        (
            players[h2].real_score,
            players[l2].real_score,
            players[h1].id,
        )
            .cmp(&(
                players[h1].real_score,
                players[l1].real_score,
                players[h2].id,
            ))
    });
    let mut out: Vec<SwissBoard> = pairs
        .into_iter()
        .map(|(w, b)| SwissBoard {
            white: players[w].id,
            black: Some(players[b].id),
        })
        .collect();
    out.extend(bye.map(|i| SwissBoard {
        white: players[i].id,
        black: None,
    }));
    out
}

/// The weights of the matching, most significant first: a pair is possible; both players are
/// of the same (merged) scoregroup; their colour preferences can both be granted; the rank
/// of the opponent among the highest player's candidates. Each level is larger than all
/// lower levels of a whole matching together.
struct Levels {
    compatible: u128,
    same_group: u128,
    colour: u128,
}

impl Levels {
    fn new(n: usize) -> Levels {
        let n = n as u128;
        let colour = n * n + n + 2;
        let same_group = colour * (n / 2 + 2);
        Levels {
            compatible: same_group * (n / 2 + 2),
            same_group,
            colour,
        }
    }
}

/// The state of one round's pairing: vertex `v` is the player `order[v]` (bye excluded).
struct Pairing<'a> {
    players: &'a [Entrant],
    metric: &'a [Metric],
    order: Vec<usize>,
    levels: Levels,
    matching: Matching<u128>,
    /// Group boundaries as vertex numbers; a boundary written twice means that no player
    /// floats across it.
    groups: Vec<usize>,
    stop: &'a dyn crate::stop::Stop,
}

impl<'a> Pairing<'a> {
    fn new(
        players: &'a [Entrant],
        metric: &'a [Metric],
        order: Vec<usize>,
        stop: &'a dyn crate::stop::Stop,
    ) -> Self {
        let n = order.len();
        let mut edges = Vec::with_capacity(n * n.saturating_sub(1) / 2);
        for x in 0..n {
            for y in x + 1..n {
                edges.push((x, y, 0u128));
            }
        }
        Pairing {
            players,
            metric,
            order,
            levels: Levels::new(n),
            matching: Matching::new(n, &edges),
            groups: vec![0, 0],
            stop,
        }
    }

    fn len(&self) -> usize {
        self.order.len()
    }

    fn player(&self, v: usize) -> &Entrant {
        &self.players[self.order[v]]
    }

    fn set(&mut self, x: usize, y: usize, w: u128) {
        if let Some(k) = self.matching.edge(x, y) {
            self.matching.set_weight(x, k, w);
        }
    }

    fn weight(&self, x: usize, y: usize) -> u128 {
        self.matching
            .edge(x, y)
            .map_or(0, |k| self.matching.weight(k))
    }

    /// The mates of a maximum-weight matching (a pair of weight 0 is no pair).
    fn solve(&mut self) -> Result<Vec<Option<usize>>, PairError> {
        if self.stop.stopped() {
            return Err(PairError::Stopped);
        }
        let mate = self.matching.solve();
        Ok(mate
            .iter()
            .enumerate()
            .map(|(x, m)| m.filter(|&y| self.weight(x, y) > 0))
            .collect())
    }

    /// The weight of a pair: 0 when they may not meet (met before, forbidden, or both with
    /// the same absolute colour preference).
    fn edge(&self, x: usize, y: usize, same_group: bool, colours: bool) -> u128 {
        let (a, b) = (self.player(x), self.player(y));
        if !compatible(a, b) {
            return 0;
        }
        let granted = a.side.is_none() || b.side.is_none() || a.side != b.side;
        let mut w = self.levels.compatible;
        if same_group {
            w += self.levels.same_group;
            if colours && granted {
                w += self.levels.colour;
            }
        }
        w
    }

    fn score(&self, v: usize) -> i64 {
        self.player(v).score
    }

    fn last(&self) -> usize {
        self.groups[self.groups.len() - 1]
    }

    fn back(&self, k: usize) -> usize {
        self.groups[self.groups.len() - 1 - k]
    }

    /// Fixes the scoregroups (merging where needed); false when the round cannot be paired.
    fn settle_groups(&mut self) -> Result<bool, PairError> {
        let n = self.len();
        let mut valid = true;
        while self.last() < n {
            self.groups.push(self.last());
            loop {
                let begin = self.last();
                loop {
                    let b = self.last();
                    let (from, start) = (self.back(2), self.back(1));
                    for v in from..b {
                        let w = self.edge(v, b, v >= start, false);
                        self.set(b, v, w);
                    }
                    let end = self.groups.len() - 1;
                    self.groups[end] += 1;
                    let next = self.last();
                    if next >= n || self.score(begin) != self.score(next) {
                        break;
                    }
                }
                // an odd number of players so far: the next player stands in as an opponent
                // for anyone of this group, so that no one above is left out
                let b = self.last();
                if !b.is_multiple_of(2) {
                    for v in self.back(1)..b {
                        let w = self.levels.compatible;
                        self.set(b, v, w);
                    }
                }
                let mate = self.solve()?;
                valid = self.valid(&mate);
                if self.last() >= n || valid {
                    break;
                }
            }
            if self.last() < n && self.last().is_multiple_of(2) {
                self.groups.push(self.last());
            }
        }
        while self.groups.len() > 3 && !valid {
            self.groups.pop();
            let boundary = self.groups.pop().unwrap_or(0);
            let begin = self.groups.pop().unwrap_or(0);
            for x in self.last()..boundary {
                for y in boundary..n {
                    let w = self.edge(x, y, x >= begin, false);
                    self.set(x, y, w);
                }
            }
            self.groups.push(begin);
            self.groups.push(n);
            let mate = self.solve()?;
            valid = self.valid(&mate);
        }
        Ok(valid)
    }

    /// Every player above the last group is paired, and each group has at most one player
    /// paired outside it (two when it both receives and sends one).
    fn valid(&self, mate: &[Option<usize>]) -> bool {
        let g = &self.groups;
        let last = self.last();
        let last_start = self.back(1);
        let (mut it, mut outside, mut begin) = (0usize, 0usize, 0usize);
        for (v, m) in mate.iter().enumerate() {
            if v >= last {
                return true;
            }
            if v >= g[it] {
                outside = 0;
                begin = v;
                it += 1;
                while v >= g[it] {
                    it += 1;
                }
            }
            if m.is_none() && v < last_start {
                return false;
            }
            let away = m.is_none_or(|y| y < begin || y >= g[it]);
            if away {
                outside += 1;
                if outside > if g[it] % 2 == 1 { 2 } else { 1 } {
                    return false;
                }
            }
        }
        true
    }

    /// Pairs each settled group from the top player down; returns `(white, black)` pairs of
    /// player indices.
    fn pair_groups(&mut self, initial_white: bool) -> Result<Vec<(usize, usize)>, PairError> {
        let n = self.len();
        let mut partner: Vec<Option<usize>> = vec![None; n];
        let mut pairs = Vec::new();
        let mut floater: Option<usize> = None;
        let mut begin = self.groups[0];
        for gi in 1..self.groups.len() {
            let end = self.groups[gi];
            if begin == end {
                continue;
            }
            let mut full: Vec<usize> = (begin..end).collect();
            full.extend(floater.take());
            let metric = self.metric;
            let order = &self.order;
            full.sort_by(|&a, &b| metric[order[b]].rank(&metric[order[a]]));
            for (i, &x) in full.iter().enumerate() {
                for &y in &full[i + 1..] {
                    let w = self.edge(x, y, true, true);
                    self.set(x, y, w);
                }
            }
            for (i, &x) in full.iter().enumerate() {
                if partner[x].is_some() {
                    continue;
                }
                let mut priority = 1;
                for &y in &full[i + 1..] {
                    if partner[y].is_none() {
                        let w = self.edge(x, y, true, true);
                        if w > 0 {
                            self.set(x, y, w + priority);
                            priority += 1;
                        }
                    }
                }
                let mate = self.solve()?;
                match mate[x] {
                    Some(y) if y < end => {
                        partner[x] = Some(y);
                        partner[y] = Some(x);
                        pairs.push(self.colours(x, y, initial_white));
                        self.finalize(x, y);
                    }
                    _ => floater = Some(x),
                }
            }
            begin = end;
        }
        Ok(pairs)
    }

    /// Keeps the pair `x`–`y` in every later matching and no other pair of theirs.
    fn finalize(&mut self, x: usize, y: usize) {
        for z in 0..self.len() {
            if z != x {
                self.set(x, z, u128::from(z == y));
            }
            if z != y {
                self.set(y, z, u128::from(z == x));
            }
        }
    }

    /// `(white, black)` for `x` (ranked above) against `y`: both preferences when possible,
    /// then the stronger one, then alternation from the last round with different colours,
    /// then the preference of the player ranked higher in the group; without preferences,
    /// the parity of the higher pairing number against the initial colour.
    fn colours(&self, x: usize, y: usize, initial_white: bool) -> (usize, usize) {
        let (a, b) = (self.player(x), self.player(y));
        let (px, py) = (self.order[x], self.order[y]);
        let x_white = if a.side.is_none() && b.side.is_none() {
            let first_white = (a.seq.min(b.seq) % 2 == 1) == initial_white;
            first_white == (a.seq < b.seq)
        } else {
            higher_gets_white(a, b, initial_white)
        };
        if x_white { (px, py) } else { (py, px) }
    }
}

#[cfg(test)]
mod tests;
