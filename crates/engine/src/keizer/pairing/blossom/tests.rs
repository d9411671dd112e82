//! Tests of the weighted blossom matching against an exhaustive search.

use super::*;
use proptest::prelude::*;

#[allow(clippy::too_many_arguments)]
/// Exhaustive maximum-weight matching (max cardinality first when asked).
fn brute(n: usize, edges: &[Edge], maxcard: bool) -> (usize, i64) {
    fn rec(
        v: usize,
        n: usize,
        used: &mut Vec<bool>,
        adj: &[Vec<(usize, i64)>],
        card: usize,
        w: i64,
        best: &mut (usize, i64),
        maxcard: bool,
    ) {
        if v == n {
            let better = if maxcard {
                (card, w) > *best
            } else {
                w > best.1
            };
            if better {
                *best = (card, w);
            }
            return;
        }
        if used[v] {
            return rec(v + 1, n, used, adj, card, w, best, maxcard);
        }
        // leave v unmatched
        used[v] = true;
        rec(v + 1, n, used, adj, card, w, best, maxcard);
        for &(u, wt) in &adj[v] {
            if !used[u] {
                used[u] = true;
                rec(v + 1, n, used, adj, card + 1, w + wt, best, maxcard);
                used[u] = false;
            }
        }
        used[v] = false;
    }
    let mut adj = vec![Vec::new(); n];
    for &(i, j, w) in edges {
        adj[i].push((j, w));
        adj[j].push((i, w));
    }
    let mut best = (0, 0);
    rec(0, n, &mut vec![false; n], &adj, 0, 0, &mut best, maxcard);
    best
}

fn score(mate: &[Option<usize>], edges: &[Edge]) -> (usize, i64) {
    let mut card = 0;
    let mut w = 0;
    for &(i, j, wt) in edges {
        if mate[i] == Some(j) {
            assert_eq!(mate[j], Some(i));
            card += 1;
            w += wt;
        }
    }
    let matched = mate.iter().filter(|m| m.is_some()).count();
    assert_eq!(matched, 2 * card, "every mate must be an edge of the graph");
    (card, w)
}

#[test]
fn small_known_cases() {
    // path a-b-c-d, weights 5, 11, 5: max weight takes only b-c (11) vs a-b + c-d (10)
    let e = [(0, 1, 5), (1, 2, 11), (2, 3, 5)];
    assert_eq!(score(&max_weight_matching(4, &e, false), &e), (1, 11));
    // with max cardinality: two edges, weight 10
    assert_eq!(score(&max_weight_matching(4, &e, true), &e), (2, 10));
    // triangle plus pendant: blossom needed
    let e = [(0, 1, 6), (1, 2, 6), (0, 2, 6), (2, 3, 7)];
    assert_eq!(score(&max_weight_matching(4, &e, true), &e), (2, 13));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn equals_exhaustive_search(
        n in 1usize..10,
        raw in proptest::collection::vec((0usize..10, 0usize..10, 1i64..30), 0..30),
        maxcard in any::<bool>(),
    ) {
        let mut edges: Vec<Edge> = Vec::new();
        for (a, b, w) in raw {
            let (a, b) = (a % n, b % n);
            if a != b && !edges.iter().any(|e| (e.0 == a && e.1 == b) || (e.0 == b && e.1 == a)) {
                edges.push((a, b, w));
            }
        }
        let got = score(&max_weight_matching(n, &edges, maxcard), &edges);
        let want = brute(n, &edges, maxcard);
        if maxcard {
            prop_assert_eq!(got, want);
        } else {
            prop_assert_eq!(got.1, want.1);
        }
    }
}

/// Maximum (cardinality, weight) by dynamic programming over subsets, for up to 16 vertices:
/// `best[mask]` is the best matching of the vertices in `mask`, taking the lowest vertex
/// either unmatched or matched to a neighbour in `mask`.
fn subset_dp(n: usize, edges: &[Edge]) -> (usize, i64) {
    let mut w = vec![vec![None; n]; n];
    for &(i, j, wt) in edges {
        let cur: Option<i64> = w[i][j];
        if cur.is_none_or(|c| wt > c) {
            w[i][j] = Some(wt);
            w[j][i] = Some(wt);
        }
    }
    let mut best = vec![(0usize, 0i64); 1 << n];
    for mask in 1usize..(1 << n) {
        let v = mask.trailing_zeros() as usize;
        let rest = mask & !(1 << v);
        let mut b = best[rest];
        for u in 0..n {
            if rest & (1 << u) != 0
                && let Some(wt) = w[v][u]
            {
                let (c, x) = best[rest & !(1 << u)];
                b = b.max((c + 1, x + wt));
            }
        }
        best[mask] = b;
    }
    best[(1 << n) - 1]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Up to 16 vertices with many edges (nested blossoms occur): maximum cardinality, then
    /// maximum weight, equal to the subset dynamic programme.
    #[test]
    fn equals_subset_dp_on_16_vertices(
        n in 10usize..=16,
        raw in proptest::collection::vec((0usize..16, 0usize..16, 1i64..40), 10..70),
    ) {
        let mut edges: Vec<Edge> = Vec::new();
        for (a, b, w) in raw {
            let (a, b) = (a % n, b % n);
            if a != b && !edges.iter().any(|e| (e.0 == a && e.1 == b) || (e.0 == b && e.1 == a)) {
                edges.push((a, b, w));
            }
        }
        let got = score(&max_weight_matching(n, &edges, true), &edges);
        prop_assert_eq!(got, subset_dp(n, &edges));
    }
}
