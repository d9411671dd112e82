//! The minimum-cost perfect matching of docs/rules/keizer.md#pairing with its lexicographic tie-break.
//!
//! Positions `0..n` are the players in pairing order; pairing positions `i` and `j` costs
//! `(i − j)²`. Among all perfect matchings over the allowed pairs we want the cheapest, and
//! among the cheapest the one whose partner list, read from position 0 down, is
//! lexicographically smallest. (Comparing partner arrays position by position is the same as
//! docs/rules/keizer.md#pairing's "top player first, then the next unpaired player": at the first position where
//! two matchings differ, that position is unpaired in both by the earlier positions.)
//!
//! Method, exact:
//! 1. Cost. Solve a minimum-cost perfect matching with the weighted blossom algorithm
//!    ([`crate::matching::weighted::max_weight_max_cardinality`], weights `d² + 1 − cost`,
//!    so a perfect matching, when there is one, is found and is one of minimum cost) on the
//!    pairs at most `d` places apart. If the optimum found costs less than `(d + 1)²`, no
//!    optimal matching of the full graph can use a longer pair (one such pair alone would
//!    cost more), so it is the optimum of the full graph. Otherwise its
//!    cost `c` bounds the optimum, so no optimal pair is longer than `√c`: one more run with
//!    `d = ⌊√c⌋` is exact. (Without a perfect matching `d` is doubled, up to the complete
//!    graph.)
//! 2. Tie-break. Walk the positions from the top; for the first unfixed position `i`, try
//!    partners `j` in increasing order below its current partner; `j` is taken when the rest
//!    can still be completed at the optimal total cost (checked by another blossom run on the
//!    remaining players). Then `i` and its partner are fixed. The current matching is always
//!    optimal, so its partner for `i` is the fallback and only closer candidates are tried.
//!
//! Which of several optimal matchings a blossom run returns does not matter: the costs (and so
//! the `d` of step 1) are those of the optimum, and step 2 ends, whatever optimal matching it
//! starts from, at the lexicographically first optimal one, which is unique.

use crate::matching::weighted::max_weight_max_cardinality;

/// An optimal, lexicographically first perfect matching.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Optimum {
    /// Partner of each position.
    pub mate: Vec<usize>,
    /// Sum of squared position differences over all pairs.
    pub cost: i64,
}

fn sq(x: usize) -> i64 {
    let x = x as i64;
    x * x
}

/// Minimum-cost perfect matching of the positions in `active` (sorted), using only allowed
/// pairs at most `d` apart. Returns the pairs and their total cost, or `None` when the
/// restricted graph has no perfect matching.
fn solve(active: &[usize], d: usize, allowed: &[Vec<bool>]) -> Option<(Vec<(usize, usize)>, i64)> {
    if active.is_empty() {
        return Some((Vec::new(), 0));
    }
    if active.len() % 2 == 1 {
        return None;
    }
    let big = sq(d) + 1;
    let mut edges: Vec<(usize, usize, u64)> = Vec::new();
    for (ai, &a) in active.iter().enumerate() {
        for (bi, &b) in active.iter().enumerate().skip(ai + 1) {
            if b - a > d {
                break;
            }
            if allowed[a][b] {
                edges.push((ai, bi, (big - sq(b - a)) as u64));
            }
        }
    }
    let mate = max_weight_max_cardinality(active.len(), &edges);
    let mut pairs = Vec::with_capacity(active.len() / 2);
    let mut cost = 0;
    for (ai, m) in mate.iter().enumerate() {
        let bi = (*m)?;
        if ai < bi {
            pairs.push((active[ai], active[bi]));
            cost += sq(active[bi] - active[ai]);
        }
    }
    Some((pairs, cost))
}

/// The optimal, lexicographically first perfect matching of positions `0..n` over the pairs
/// with `allowed[i][j]` (symmetric), or `None` when no perfect matching exists.
pub(crate) fn min_cost_lex(allowed: &[Vec<bool>]) -> Option<Optimum> {
    let n = allowed.len();
    if n % 2 == 1 {
        return None;
    }
    if n == 0 {
        return Some(Optimum {
            mate: Vec::new(),
            cost: 0,
        });
    }
    let all: Vec<usize> = (0..n).collect();
    let full = n - 1;
    let mut d = (n.isqrt() + 3).min(full);
    let (pairs, total) = loop {
        match solve(&all, d, allowed) {
            Some((p, c)) if c < sq(d + 1) || d == full => break (p, c),
            // A perfect matching of cost c exists, so no optimal pair is longer than √c:
            // the next run is exact (and c ≥ (d + 1)² makes it a larger d).
            Some((_, c)) => d = (c.isqrt() as usize).min(full),
            None if d == full => return None,
            None => d = (2 * d).min(full),
        }
    };
    let mut mate = vec![0; n];
    for &(a, b) in &pairs {
        mate[a] = b;
        mate[b] = a;
    }
    let mut fixed = vec![false; n];
    let mut remaining = total;
    for i in 0..n {
        if fixed[i] {
            continue;
        }
        fixed[i] = true;
        for j in i + 1..mate[i] {
            if j - i > d || sq(j - i) > remaining {
                break;
            }
            if fixed[j] || !allowed[i][j] {
                continue;
            }
            let rest: Vec<usize> = (0..n).filter(|&v| !fixed[v] && v != j).collect();
            // the rest must cost exactly `budget`, so none of its pairs is longer than √budget
            let budget = remaining - sq(j - i);
            let reach = (budget.isqrt() as usize).min(d);
            if let Some((sub, c)) = solve(&rest, reach, allowed)
                && c == budget
            {
                mate[i] = j;
                mate[j] = i;
                for (a, b) in sub {
                    mate[a] = b;
                    mate[b] = a;
                }
                break;
            }
        }
        fixed[mate[i]] = true;
        remaining -= sq(mate[i].abs_diff(i));
    }
    Some(Optimum { mate, cost: total })
}

/// Exhaustive search for tests: tries partners in increasing order for the first unpaired
/// position, so the first matching found at the minimum cost is the lexicographically first.
#[cfg(test)]
pub(crate) fn exhaustive(allowed: &[Vec<bool>]) -> Option<Optimum> {
    fn rec(
        allowed: &[Vec<bool>],
        mate: &mut Vec<Option<usize>>,
        cost: i64,
        best: &mut Option<Optimum>,
    ) {
        let Some(i) = mate.iter().position(|m| m.is_none()) else {
            if best.as_ref().is_none_or(|b| cost < b.cost) {
                *best = Some(Optimum {
                    mate: mate.iter().map(|m| m.unwrap_or(0)).collect(),
                    cost,
                });
            }
            return;
        };
        for j in i + 1..mate.len() {
            if mate[j].is_none() && allowed[i][j] {
                mate[i] = Some(j);
                mate[j] = Some(i);
                rec(allowed, mate, cost + sq(j - i), best);
                mate[i] = None;
                mate[j] = None;
            }
        }
    }
    let mut best = None;
    rec(allowed, &mut vec![None; allowed.len()], 0, &mut best);
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn graph(n: usize, forbidden: &[(usize, usize)]) -> Vec<Vec<bool>> {
        let mut g = vec![vec![true; n]; n];
        for (i, row) in g.iter_mut().enumerate() {
            row[i] = false;
        }
        for &(a, b) in forbidden {
            g[a][b] = false;
            g[b][a] = false;
        }
        g
    }

    #[test]
    fn neighbours_when_allowed() {
        // 6 players, nothing forbidden: 1–2, 3–4, 5–6 (positions 0-1, 2-3, 4-5), cost 1+1+1 = 3
        let o = min_cost_lex(&graph(6, &[])).unwrap();
        assert_eq!(o.mate, vec![1, 0, 3, 2, 5, 4]);
        assert_eq!(o.cost, 3);
    }

    #[test]
    fn tie_break_gives_the_top_player_the_closest_opponent() {
        // 4 players, 1–2 forbidden (positions 0-1).
        //   1–3 & 2–4: 2² + 2² = 8      1–4 & 2–3: 3² + 1² = 10
        // so 1–3, 2–4 (cost 8).
        let o = min_cost_lex(&graph(4, &[(0, 1)])).unwrap();
        assert_eq!(o.mate, vec![2, 3, 0, 1]);
        assert_eq!(o.cost, 8);
        // 6 players, 1–2 and 5–6 forbidden. All 15 pairings of six (× = forbidden pair):
        //   12 34 56 ×   12 35 46 ×   12 36 45 ×   13 24 56 ×   13 25 46 = 4+9+4 = 17
        //   13 26 45 = 4+16+1 = 21    14 23 56 ×   14 25 36 = 27   14 26 35 = 29
        //   15 23 46 = 16+1+4 = 21    15 24 36 = 29   15 26 34 = 33   16 23 45 = 27
        //   16 24 35 = 33   16 25 34 = 35
        // Cheapest 17: 1–3, 2–5, 4–6 → mates (0-indexed) [2, 4, 0, 5, 1, 3].
        let o = min_cost_lex(&graph(6, &[(0, 1), (4, 5)])).unwrap();
        assert_eq!(o.cost, 17);
        assert_eq!(o.mate, vec![2, 4, 0, 5, 1, 3]);
    }

    #[test]
    fn forbidden_neighbours_in_longer_fields() {
        // 6 players, 1–2, 2–3, 3–4, 4–5, 5–6 forbidden. Of the 15 pairings of six only these
        // avoid them: 13 25 46 = 4+9+4 = 17, 14 25 36 = 27, 14 26 35 = 29, 15 24 36 = 29,
        // 16 24 35 = 33 → the unique optimum 1–3, 2–5, 4–6.
        let o = min_cost_lex(&graph(6, &[(0, 1), (2, 3), (4, 5), (1, 2), (3, 4)])).unwrap();
        assert_eq!(o.cost, 17);
        assert_eq!(o.mate, vec![2, 4, 0, 5, 1, 3]);
        // 8 players, 1–2 and 7–8 forbidden. Player 1's and player 8's opponents are at least
        // 2 places away (≥ 4 each). Among 1–4: 13 24 = 8 beats 14 23 = 10; among 5–8:
        // 57 68 = 8 beats 58 67 = 10; any pair across the halves (4–5 = 1) forces another
        // pair of length ≥ 4 (≥ 16). So 13 24 57 68 = 16.
        let o = min_cost_lex(&graph(8, &[(0, 1), (6, 7)])).unwrap();
        assert_eq!(o.cost, 16);
        assert_eq!(o.mate, vec![2, 3, 0, 1, 6, 7, 4, 5]);
    }

    #[test]
    fn genuine_tie_takes_the_lexicographically_first() {
        // 6 players; only these pairs allowed: 1–3, 2–6, 4–5, 1–5, 2–3, 4–6.
        // The perfect pairings within them:
        //   A: 1–3 (2² = 4), 2–6 (4² = 16), 4–5 (1² = 1)  = 21
        //   B: 1–5 (4² = 16), 2–3 (1² = 1), 4–6 (2² = 4)  = 21
        // Equal cost; the top player's opponent decides: 3 < 5, so A.
        let mut g = vec![vec![false; 6]; 6];
        for (a, b) in [(0, 2), (1, 5), (3, 4), (0, 4), (1, 2), (3, 5)] {
            g[a][b] = true;
            g[b][a] = true;
        }
        let o = min_cost_lex(&g).unwrap();
        assert_eq!(o.cost, 21);
        assert_eq!(o.mate, vec![2, 5, 0, 4, 3, 1]);
    }

    #[test]
    fn impossible_is_none() {
        // 4 players, 1 may meet nobody
        assert!(min_cost_lex(&graph(4, &[(0, 1), (0, 2), (0, 3)])).is_none());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// Medium fields: the sparse search with its cost certificate finds the same optimum
        /// as one blossom run on the complete allowed graph, and the result is a perfect
        /// matching over allowed pairs.
        #[test]
        fn sparse_equals_dense_on_medium_fields(
            half in 10usize..40,
            near in proptest::collection::vec((0usize..80, 1usize..6), 0..120),
            far in proptest::collection::vec((0usize..80, 0usize..80), 0..60),
        ) {
            let n = 2 * half;
            let mut forb: Vec<(usize, usize)> = near.into_iter()
                .map(|(a, k)| (a % n, (a % n + k) % n)).collect();
            forb.extend(far.into_iter().map(|(a, b)| (a % n, b % n)));
            forb.retain(|(a, b)| a != b);
            let g = graph(n, &forb);
            let all: Vec<usize> = (0..n).collect();
            let dense = solve(&all, n - 1, &g);
            let got = min_cost_lex(&g);
            prop_assert_eq!(got.is_some(), dense.is_some());
            if let (Some(o), Some((_, c))) = (got, dense) {
                prop_assert_eq!(o.cost, c);
                let mut cost = 0;
                for (i, &m) in o.mate.iter().enumerate() {
                    prop_assert_eq!(o.mate[m], i);
                    prop_assert!(g[i][m]);
                    if i < m {
                        cost += sq(m - i);
                    }
                }
                prop_assert_eq!(cost, c);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn equals_exhaustive_search(
            half in 1usize..6,
            raw in proptest::collection::vec((0usize..10, 0usize..10), 0..25),
        ) {
            let n = 2 * half;
            let forb: Vec<(usize, usize)> = raw.into_iter()
                .map(|(a, b)| (a % n, b % n)).filter(|(a, b)| a != b).collect();
            let g = graph(n, &forb);
            prop_assert_eq!(min_cost_lex(&g), exhaustive(&g));
        }
    }
}
