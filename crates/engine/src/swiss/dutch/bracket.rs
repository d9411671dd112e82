//! Pairing one bracket (C.04.3 B–D) as a maximum-weight matching. Every candidate edge gets a
//! composite weight whose bit fields, most significant first, encode the bye preference of the
//! last brackets and the quality criteria C.5–C.19, with free low bits in which the
//! transposition and exchange order of D.1–D.3 is then imposed step by step, each step
//! fixing one choice and re-solving the matching.

mod criteria;

use super::PairError;
use super::players::{Entrant, compatible};
use crate::swiss::matching::Matching;
use crate::swiss::wide::Wide;
use criteria::Layout;

/// A player's role in the bracket being paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// Moved-down player.
    Mdp,
    /// Resident of the bracket's scoregroup.
    Resident,
    /// Resident of the next scoregroup (stands for "floats down and is paired there").
    Lower,
    /// Any player further down: present only so that the round stays completable (C.4).
    Rest,
    /// The pairing-allocated bye (a dummy vertex, present for an odd number of players).
    Bye,
}

impl Role {
    /// MDP or resident of the bracket being paired.
    pub(crate) fn in_bracket(self) -> bool {
        matches!(self, Role::Mdp | Role::Resident)
    }
}

/// The vertex id of the bye dummy.
pub(crate) const BYE: usize = usize::MAX;

/// The static facts about a bracket that shape the weights.
pub(crate) struct Bracket<'a> {
    pub players: &'a [Entrant],
    /// Global indices (into `players`, which is in pairing order).
    pub mdps: Vec<usize>,
    pub residents: Vec<usize>,
    pub lower: Vec<usize>,
    /// Every other unpaired player below the next scoregroup.
    pub rest: Vec<usize>,
    pub round: u32,
    /// How many far partners each player gets in the graph before any is added back (see
    /// [`candidate_pairs`]); `usize::MAX` keeps every pair.
    pub far_partners: usize,
    /// How many exposed vertices let the matching search its tight edges first
    /// ([`Matching::search_tight_first`]); `usize::MAX` never.
    pub tight_roots: usize,
}

fn bit_length(n: usize) -> u32 {
    usize::BITS - n.leading_zeros()
}

/// The matching state of one bracket: the candidate pairs over MDPs, residents, the next
/// scoregroup and the rest of the round with their weights, and the current optimal matching.
///
/// Each [`Matcher::update`] continues from the previous optimum ([`Matching`] is warm-started)
/// instead of solving from scratch. Both give a maximum-weight matching for the same weights;
/// the bracket's steps only read which bracket players are paired with each other, and the
/// D.1–D.3 bonuses in the low bits of the weights are meant to make that part unique (where
/// it is not, either engine's result depends on its own tie-breaking). Checked against the
/// former solve-from-scratch engine: identical pairings on all 424 reference vector rounds
/// (up to 400 players) and on 200 seeded random tournaments of 9–150 players.
pub(crate) struct Matcher<'a> {
    pub verts: Vec<usize>,
    pub role: Vec<Role>,
    pub mate: Vec<Option<usize>>,
    g: Box<dyn Graph>,
    players: &'a [Entrant],
    /// The weight of every compatible pair that involves a player below the next scoregroup
    /// or the bye: the completion unit alone.
    far: Wide,
    /// Players whose every other pair is gone (paired for good by [`Matcher::finalize`]).
    closed: Vec<bool>,
    /// Whether some far pairs were left out of the graph (see [`Matcher::new`]).
    pruned: bool,
    /// Vertices at which a left-out pair would have improved a solution: the bracket must be
    /// paired again with all their far pairs. Once set, the matching is no longer solved.
    pub violators: Vec<usize>,
}

/// The incremental matching in the narrowest weight width that holds the bracket's weights.
trait Graph {
    /// Whether `x`–`y` is an edge of non-zero weight.
    fn has_edge(&self, x: usize, y: usize) -> bool;
    /// Adds a signed amount to an existing edge of non-zero weight.
    fn add(&mut self, x: usize, y: usize, v: i64);
    /// Sets the weight of an edge (a change around `x`); a missing edge stays missing.
    fn set(&mut self, x: usize, y: usize, w: &Wide);
    /// Removes every edge at `x` except the one to `keep`.
    fn clear(&mut self, x: usize, keep: usize);
    /// Re-solves and returns the mates.
    fn solve(&mut self) -> Vec<Option<usize>>;
    /// Whether the graph holds the pair `x`–`y` (of any weight, zero included).
    fn exists(&self, x: usize, y: usize) -> bool;
    /// The dual of a vertex (doubled) or of a blossom after the last solve.
    fn dual(&self, b: usize) -> Wide;
    /// The blossom immediately around `b` (a vertex or a blossom), if any.
    fn blossom_parent(&self, b: usize) -> Option<usize>;
}

impl<const L: usize> Graph for Matching<Wide<L>> {
    fn has_edge(&self, x: usize, y: usize) -> bool {
        self.edge(x, y).is_some_and(|k| !self.weight(k).is_zero())
    }
    fn add(&mut self, x: usize, y: usize, v: i64) {
        let Some(k) = self.edge(x, y) else { return };
        let cur = self.weight(k);
        if cur.is_zero() {
            return;
        }
        let nw = if v >= 0 {
            cur + Wide::from_u64(v as u64)
        } else {
            cur - Wide::from_u64(v.unsigned_abs())
        };
        self.set_weight(x, k, nw);
    }
    fn set(&mut self, x: usize, y: usize, w: &Wide) {
        if let Some(k) = self.edge(x, y) {
            self.set_weight(x, k, w.resize::<L>());
        }
    }
    fn clear(&mut self, x: usize, keep: usize) {
        let ks: Vec<usize> = self
            .neighbours(x)
            .filter(|&(y, _)| y != keep)
            .map(|(_, k)| k)
            .collect();
        for k in ks {
            self.set_weight(x, k, Wide::ZERO);
        }
    }
    fn solve(&mut self) -> Vec<Option<usize>> {
        Matching::solve(self)
    }
    fn exists(&self, x: usize, y: usize) -> bool {
        self.edge(x, y).is_some()
    }
    fn dual(&self, b: usize) -> Wide {
        Matching::dual(self, b).resize()
    }
    fn blossom_parent(&self, b: usize) -> Option<usize> {
        Matching::blossom_parent(self, b)
    }
}

impl<'a> Matcher<'a> {
    /// The bracket's matching. Pairs of players of the bracket and the next scoregroup are all
    /// in the graph; of the far pairs (a player below the next scoregroup or the bye), only
    /// those of [`candidate_pairs`] (all far pairs of the players in `full`). Every solve is then
    /// checked against the full graph (see [`Matcher::update`]).
    pub(crate) fn new(b: &Bracket<'a>, full: &[usize]) -> Result<Matcher<'a>, PairError> {
        let lay = Layout::new(b);
        let p = b.players;
        let mut verts = Vec::new();
        let mut role = Vec::new();
        for (list, r) in [
            (&b.mdps, Role::Mdp),
            (&b.residents, Role::Resident),
            (&b.lower, Role::Lower),
            (&b.rest, Role::Rest),
        ] {
            for &i in list {
                verts.push(i);
                role.push(r);
            }
        }
        // An odd number of players left: one of them gets the bye (a dummy vertex).
        if verts.len() % 2 == 1 {
            verts.push(BYE);
            role.push(Role::Bye);
        }
        let n = verts.len();
        let shifts: u32 = {
            let dummy = &p[b.residents[0]];
            let mut sum = 0;
            lay.criteria(
                dummy,
                Role::Resident,
                dummy,
                Role::Resident,
                &mut |s, _, _| sum += s,
            );
            sum
        };
        // Completion (C.4) is the most significant field: one unit per pair.
        let c4 = bit_length(n);
        let low = 3 * lay.bb + 1;
        let total_bits = c4 + shifts + low + 2;
        if total_bits >= Wide::<8>::BITS {
            return Err(PairError::TooLarge { bits: total_bits });
        }
        let max_weight: Wide = Wide::bit(total_bits - 1) - Wide::from_u64(1);
        // The weight of every pair that involves the bye or a player below the next
        // scoregroup: the completion unit alone (their criteria fields are all zero).
        let far = Wide::bit(shifts + low);
        let mut weight_of = |x: usize, y: usize| -> Option<Wide> {
            let ok = match (role[x], role[y]) {
                (Role::Bye, _) => p[verts[y]].bye_ok,
                (_, Role::Bye) => p[verts[x]].bye_ok,
                _ => compatible(&p[verts[x]], &p[verts[y]]),
            };
            if !ok {
                return None;
            }
            if matches!(role[x], Role::Rest | Role::Bye)
                || matches!(role[y], Role::Rest | Role::Bye)
            {
                return Some(far);
            }
            let mut wt = Wide::from_u64(1);
            let (a, c) = (&p[verts[x]], &p[verts[y]]);
            lay.criteria(a, role[x], c, role[y], &mut |shift, add, sub| {
                wt = wt.shl(shift) + add - sub;
            });
            Some(wt.shl(low))
        };
        // Duals of the warm-started matching reach twice the largest weight: two more bits.
        let bits = max_weight.bit_len() + 4;
        let (pairs, pruned) = candidate_pairs(p, &verts, &role, full, b.far_partners);
        let g: Box<dyn Graph> = if bits <= 64 {
            build::<1>(n, &pairs, &mut weight_of, b.tight_roots)
        } else if bits <= 128 {
            build::<2>(n, &pairs, &mut weight_of, b.tight_roots)
        } else if bits <= 192 {
            build::<3>(n, &pairs, &mut weight_of, b.tight_roots)
        } else if bits <= 256 {
            build::<4>(n, &pairs, &mut weight_of, b.tight_roots)
        } else if bits <= 384 {
            build::<6>(n, &pairs, &mut weight_of, b.tight_roots)
        } else {
            build::<8>(n, &pairs, &mut weight_of, b.tight_roots)
        };
        let mut m = Matcher {
            verts,
            role,
            mate: vec![None; n],
            g,
            players: p,
            far,
            closed: vec![false; n],
            pruned,
            violators: Vec::new(),
        };
        m.update();
        Ok(m)
    }

    /// Re-solves the matching (warm-started from the previous optimum), then checks that the
    /// solution is optimal for the full graph too (see [`Matcher::certify`]); if not, records
    /// the violators and stops solving.
    pub(crate) fn update(&mut self) {
        if !self.violators.is_empty() {
            return;
        }
        self.mate = self.g.solve();
        if self.pruned {
            self.certify();
        }
    }

    /// Optimality for the full graph. The solve leaves duals that are feasible for every pair
    /// in the graph and tight on the matching (with blossom duals, all non-negative). They are
    /// feasible for the full graph too, and then the matching is a maximum-weight matching of
    /// the full graph (weak duality), when every left-out compatible pair `x`–`y` still open
    /// (neither player paired for good) has a non-negative slack
    /// `dual(x) + dual(y) + 2 · C - 2 · far`, where `C` sums the duals of the blossoms around
    /// both: those around their innermost common blossom `B` (the root of the blossom forest,
    /// `C = 0`, when there is none). So at each `B`, only pairs from different children of `B`
    /// whose duals sum below `2 · far - 2 · C(B)` are looked at, and only when the smallest
    /// duals of two children already do.
    fn certify(&mut self) {
        let n = self.verts.len();
        let far = self.far;
        let two_far = far.double();
        // The blossom forest over the open vertices; node `2n` is the root.
        let root = 2 * n;
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); root + 1];
        let mut seen = vec![false; root];
        for x in 0..n {
            if self.closed[x] || self.role[x] == Role::Bye {
                continue;
            }
            let mut v = x;
            while !seen[v] {
                seen[v] = true;
                let p = self.g.blossom_parent(v).unwrap_or(root);
                children[p].push(v);
                if p == root {
                    break;
                }
                v = p;
            }
        }
        // Depth-first order from the root; the smallest vertex dual under each node and the
        // sum `C` of the blossom duals from each node up.
        let mut order = vec![root];
        let mut i = 0;
        while i < order.len() {
            let v = order[i];
            order.extend(children[v].iter().copied());
            i += 1;
        }
        let mut cum = vec![Wide::ZERO; root + 1];
        for &v in &order {
            for &c in &children[v] {
                if c >= n {
                    cum[c] = cum[v] + self.g.dual(c);
                }
            }
        }
        let mut least: Vec<Option<Wide>> = vec![None; root + 1];
        for &v in order.iter().rev() {
            if v < n {
                least[v] = Some(self.g.dual(v));
            } else {
                least[v] = children[v].iter().filter_map(|&c| least[c]).min();
            }
        }
        let mut bad = vec![false; n];
        for &b in order.iter().filter(|&&v| v >= n) {
            if children[b].len() < 2 || cum[b].double() >= two_far {
                continue;
            }
            let bound = two_far - cum[b].double();
            let mut mins: Vec<Wide> = children[b].iter().filter_map(|&c| least[c]).collect();
            mins.sort_unstable();
            if mins[0] + mins[1] >= bound {
                continue;
            }
            // The vertices under each child, by dual.
            let mut under: Vec<(Wide, usize, usize)> = Vec::new();
            for (k, &c) in children[b].iter().enumerate() {
                let mut stack = vec![c];
                while let Some(v) = stack.pop() {
                    if v < n {
                        under.push((self.g.dual(v), k, v));
                    } else {
                        stack.extend(children[v].iter().copied());
                    }
                }
            }
            under.sort_unstable();
            for (i, &(dx, kx, x)) in under.iter().enumerate() {
                for &(dy, ky, y) in &under[i + 1..] {
                    if dx + dy >= bound {
                        break;
                    }
                    if kx != ky
                        && (self.role[x] == Role::Rest || self.role[y] == Role::Rest)
                        && !self.g.exists(x, y)
                        && compatible(&self.players[self.verts[x]], &self.players[self.verts[y]])
                    {
                        bad[x] = true;
                        bad[y] = true;
                    }
                }
            }
        }
        self.violators = (0..n).filter(|&x| bad[x]).collect();
    }

    /// Adds a signed amount to an existing edge.
    pub(crate) fn add(&mut self, x: usize, y: usize, v: i64) {
        self.g.add(x, y, v);
    }

    /// Adds `v`, `v+step`, `v+2·step`, … to the edges from `x` to each of `ys` in turn.
    pub(crate) fn add_all(&mut self, x: usize, ys: &[usize], mut v: i64, step: i64) {
        for &y in ys {
            self.add(x, y, v);
            v += step;
        }
    }

    /// The first of `ys` that still has an edge to `x`.
    pub(crate) fn first_neighbour(&self, x: usize, ys: &[usize]) -> Option<usize> {
        ys.iter().copied().find(|&y| self.g.has_edge(x, y))
    }

    /// Gives `x` a bonus towards each of `ys` that falls by one per place (the first gets the
    /// most), then re-solves unless `x` is already matched to the first available of `ys` (the
    /// current matching then stays optimal: it gains the largest bonus there is).
    pub(crate) fn prefer_in_order(&mut self, x: usize, ys: &[usize]) {
        let rev: Vec<usize> = ys.iter().rev().copied().collect();
        self.add_all(x, &rev, 0, 1);
        let first = self.first_neighbour(x, ys);
        if first.is_none() || self.mate[x] != first {
            self.update();
        }
    }

    /// Removes an edge.
    pub(crate) fn remove(&mut self, x: usize, y: usize) {
        self.g.set(x, y, &Wide::ZERO);
    }

    /// Forces the pair `x`–`y` (currently matched): removes every other edge at `x` and `y`.
    /// Their edge keeps its weight: as the only edge left at either of them it is in every
    /// maximum-weight matching, exactly as if it had the largest weight.
    pub(crate) fn finalize(&mut self, x: usize, y: usize) {
        self.g.clear(x, y);
        self.g.clear(y, x);
        self.closed[x] = true;
        self.closed[y] = true;
    }

    /// The role of `x`'s current partner (its own role when unmatched).
    pub(crate) fn mate_role(&self, x: usize) -> Role {
        self.role[self.mate[x].unwrap_or(x)]
    }

    /// Matched to a resident.
    pub(crate) fn resident_match(&self, x: usize) -> bool {
        self.mate[x].is_some() && self.mate_role(x) == Role::Resident
    }

    /// In S1: matched to a lower-ranked resident. (Local order is pairing order.)
    pub(crate) fn in_s1(&self, x: usize) -> bool {
        matches!(self.mate[x], Some(m) if self.verts[x] < self.verts[m] && self.role[m] == Role::Resident)
    }

    /// In S2: unmatched, matched to a higher-ranked player, or floating down.
    pub(crate) fn in_s2(&self, x: usize) -> bool {
        match self.mate[x] {
            None => true,
            Some(m) => self.verts[x] > self.verts[m] || !self.role[m].in_bracket(),
        }
    }
}

/// How many far partners each vertex is given in the pruned graph: the first this many
/// compatible players below the next scoregroup (for a player below the next scoregroup: the
/// first this many after it).
pub(crate) const FAR_PARTNERS: usize = 12;

/// From how many exposed vertices of positive dual a bracket's matching first looks for
/// augmenting paths among its tight edges ([`Matching::search_tight_first`]). Below it (a
/// re-solve after a step changed the pairs of one or two players) the search is left to the
/// stages: their single path is short.
pub(crate) const TIGHT_ROOTS: usize = 16;

/// The pairs of the bracket's graph, in increasing order, and whether some far pairs were left
/// out. In: every pair of two players of the bracket or the next scoregroup, every pair with
/// the bye, every far pair of the players in `full`, and for every other player its first
/// [`FAR_PARTNERS`] compatible players below the next scoregroup (after itself when it is one
/// of them; `partners` instead of [`FAR_PARTNERS`] when given). Incompatible pairs are left to
/// `weight_of`.
fn candidate_pairs(
    p: &[Entrant],
    verts: &[usize],
    role: &[Role],
    full: &[usize],
    partners: usize,
) -> (Vec<(u32, u32)>, bool) {
    let n = verts.len();
    let near = role
        .iter()
        .take_while(|r| !matches!(r, Role::Rest | Role::Bye))
        .count();
    let rest_end = role.iter().position(|&r| r == Role::Bye).unwrap_or(n);
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for x in 0..near {
        for y in x + 1..near {
            pairs.push((x as u32, y as u32));
        }
    }
    if rest_end < n {
        for x in 0..rest_end {
            pairs.push((x as u32, rest_end as u32));
        }
    }
    let mut is_full = vec![false; n];
    for &x in full {
        is_full[x] = true;
    }
    let mut pruned = false;
    for x in 0..rest_end {
        let from = if x < near { near } else { x + 1 };
        let mut kept = 0;
        for y in from..rest_end {
            if !is_full[x] && kept == partners {
                pruned = true;
                break;
            }
            if compatible(&p[verts[x]], &p[verts[y]]) {
                pairs.push((x as u32, y as u32));
                kept += 1;
            }
        }
        if is_full[x] {
            for y in near..x {
                pairs.push((y as u32, x as u32));
            }
            if x >= near {
                for y in 0..near {
                    pairs.push((y as u32, x as u32));
                }
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    (pairs, pruned)
}

/// The candidate `pairs` of `n` vertices (`weight_of` gives a pair's weight, `None` for no
/// edge) as an incremental matching in `L` limbs that searches its tight edges first from
/// `tight_roots` exposed vertices on.
fn build<const L: usize>(
    n: usize,
    pairs: &[(u32, u32)],
    weight_of: &mut dyn FnMut(usize, usize) -> Option<Wide>,
    tight_roots: usize,
) -> Box<dyn Graph> {
    let mut ends = Vec::new();
    let mut ws: Vec<Wide<L>> = Vec::new();
    for &(x, y) in pairs {
        if let Some(w) = weight_of(x as usize, y as usize) {
            ends.push([x, y]);
            ws.push(w.resize::<L>());
        }
    }
    let mut m = Matching::from_parts(n, ends, ws);
    m.search_tight_first(tight_roots);
    Box::new(m)
}
