use super::*;
use proptest::prelude::*;

fn brute(n: usize, w: &[Vec<u64>], used: &mut Vec<bool>, from: usize) -> u64 {
    let Some(i) = (from..n).find(|&i| !used[i]) else {
        return 0;
    };
    used[i] = true;
    let mut best = brute(n, w, used, i + 1); // i stays single
    for j in i + 1..n {
        if !used[j] && w[i][j] > 0 {
            used[j] = true;
            best = best.max(w[i][j] + brute(n, w, used, i + 1));
            used[j] = false;
        }
    }
    used[i] = false;
    best
}

#[test]
#[allow(clippy::needless_range_loop)]
fn larger_random_graphs_match_brute_force() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    for _ in 0..300 {
        let n = rng.random_range(2..13usize);
        let mut w = vec![vec![0u64; n]; n];
        let mut edges = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if rng.random_range(0..4) > 0 {
                    let x = rng.random_range(1..1000u64);
                    w[i][j] = x;
                    w[j][i] = x;
                    edges.push((i, j, x));
                }
            }
        }
        let mut searching = Matching::new(n, &edges);
        searching.search_tight_first(1);
        for m in [max_weight_matching(n, &edges), searching.solve()] {
            let mut total = 0;
            for i in 0..n {
                if let Some(j) = m[i] {
                    assert_eq!(m[j], Some(i));
                    if i < j {
                        total += w[i][j];
                    }
                }
            }
            assert_eq!(
                total,
                brute(n, &w, &mut vec![false; n], 0),
                "n={n} edges={edges:?}"
            );
        }
    }
}

#[test]
fn small_worked_examples() {
    // Path 0-1-2-3 with weights 5, 11, 5: taking both ends (10) loses to the middle (11).
    let m = max_weight_matching(4, &[(0, 1, 5u64), (1, 2, 11), (2, 3, 5)]);
    assert_eq!(m, vec![None, Some(2), Some(1), None]);
    // Weights 6, 11, 6: both ends (12) beat the middle (11).
    let m = max_weight_matching(4, &[(0, 1, 6u64), (1, 2, 11), (2, 3, 6)]);
    assert_eq!(m, vec![Some(1), Some(0), Some(3), Some(2)]);
    // A triangle with a pendant: 0-1-2 triangle (weights 10) and 2-3 (weight 10):
    // best is 0-1 plus 2-3 = 20.
    let m = max_weight_matching(4, &[(0, 1, 10u64), (1, 2, 10), (0, 2, 10), (2, 3, 10)]);
    assert_eq!(m, vec![Some(1), Some(0), Some(3), Some(2)]);
}

/// Total weight of a matching, checking that it is one (symmetric, on real edges).
fn total(n: usize, edges: &[(usize, usize, u64)], m: &[Option<usize>]) -> u64 {
    let mut total = 0;
    for i in 0..n {
        if let Some(j) = m[i] {
            assert_eq!(m[j], Some(i));
            let w = edges
                .iter()
                .find(|e| (e.0, e.1) == (i.min(j), i.max(j)))
                .map_or(0, |e| e.2);
            assert!(w > 0, "matched a missing edge {i}-{j}");
            if i < j {
                total += w;
            }
        }
    }
    total
}

#[test]
fn warm_started_solves_equal_solves_from_scratch() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    for _ in 0..150 {
        let n = rng.random_range(2..40usize);
        let density = rng.random_range(1..=4);
        let heavy = rng.random_range(0..3) == 0;
        let mut edges = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if rng.random_range(0..4) < density {
                    // Few distinct weights (many ties and blossoms) or a wide range.
                    let x = if heavy {
                        rng.random_range(1..1_000_000u64)
                    } else {
                        rng.random_range(1..6u64)
                    };
                    edges.push((i, j, x));
                }
            }
        }
        let mut m = Matching::new(n, &edges);
        // The same graph, searching its tight edges first at every stage that has an
        // exposed vertex with a positive dual.
        let mut t = Matching::new(n, &edges);
        t.search_tight_first(1);
        let first = m.solve();
        assert_eq!(
            total(n, &edges, &first),
            total(n, &edges, &max_weight_matching(n, &edges))
        );
        assert_eq!(total(n, &edges, &t.solve()), total(n, &edges, &first));
        for _ in 0..12 {
            // Change the weights around a few vertices (raise, lower, remove, restore).
            for _ in 0..rng.random_range(1..4) {
                let x = rng.random_range(0..n);
                let ks: Vec<usize> = m.neighbours(x).map(|(_, k)| k).collect();
                for k in ks {
                    if rng.random_range(0..3) == 0 {
                        continue;
                    }
                    let w = match rng.random_range(0..4) {
                        0 => 0,
                        1 => m.weight(k) / 2,
                        _ => {
                            if heavy {
                                rng.random_range(1..2_000_000u64)
                            } else {
                                rng.random_range(1..9u64)
                            }
                        }
                    };
                    m.set_weight(x, k, w);
                    t.set_weight(x, k, w);
                    edges[k].2 = w;
                }
            }
            let warm = m.solve();
            let cold = max_weight_matching(n, &edges);
            assert_eq!(
                total(n, &edges, &warm),
                total(n, &edges, &cold),
                "n={n} edges={edges:?}"
            );
            assert_eq!(
                total(n, &edges, &t.solve()),
                total(n, &edges, &cold),
                "tight edges first: n={n} edges={edges:?}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    #[allow(clippy::needless_range_loop)]
    fn matches_brute_force(n in 1usize..9, seed in proptest::collection::vec(0u64..8, 36)) {
        let mut w = vec![vec![0u64; n]; n];
        let mut edges = Vec::new();
        let mut s = seed.iter().cycle();
        for i in 0..n {
            for j in i + 1..n {
                let x = *s.next().unwrap_or(&0);
                // some missing edges, weights 1..=6
                if x > 1 {
                    w[i][j] = x - 1;
                    w[j][i] = x - 1;
                    edges.push((i, j, x - 1));
                }
            }
        }
        let m = max_weight_matching(n, &edges);
        let mut total = 0;
        for i in 0..n {
            if let Some(j) = m[i] {
                prop_assert_eq!(m[j], Some(i));
                prop_assert!(w[i][j] > 0);
                if i < j { total += w[i][j]; }
            }
        }
        prop_assert_eq!(total, brute(n, &w, &mut vec![false; n], 0));
    }
}

/// The best (cardinality, weight) by dynamic programming over vertex subsets (up to 16
/// vertices): `best[mask]` leaves the lowest vertex of `mask` exposed or matches it to a
/// neighbour in `mask`.
fn subset_dp(n: usize, edges: &[(usize, usize, u64)]) -> (usize, u64) {
    let mut w = vec![vec![None; n]; n];
    for &(i, j, x) in edges {
        w[i][j] = Some(x);
        w[j][i] = Some(x);
    }
    let mut best = vec![(0usize, 0u64); 1 << n];
    for mask in 1usize..(1 << n) {
        let v = mask.trailing_zeros() as usize;
        let rest = mask & !(1 << v);
        let mut b = best[rest];
        for u in 0..n {
            if rest & (1 << u) != 0
                && let Some(x) = w[v][u]
            {
                let (c, t) = best[rest & !(1 << u)];
                b = b.max((c + 1, t + x));
            }
        }
        best[mask] = b;
    }
    best[(1 << n) - 1]
}

/// (cardinality, weight) of a matching, checking that it is one of the graph.
fn card_weight(n: usize, edges: &[(usize, usize, u64)], m: &[Option<usize>]) -> (usize, u64) {
    let mut card = 0;
    let mut weight = 0;
    for &(i, j, x) in edges {
        if m[i] == Some(j) {
            assert_eq!(m[j], Some(i));
            card += 1;
            weight += x;
        }
    }
    assert_eq!(m.len(), n);
    assert_eq!(
        m.iter().filter(|x| x.is_some()).count(),
        2 * card,
        "a mate off the edges"
    );
    (card, weight)
}

#[test]
fn max_cardinality_small_cases() {
    // Path 0-1-2-3 with weights 5, 11, 5: two edges (10) beat the heavier middle (11).
    let e = [(0, 1, 5u64), (1, 2, 11), (2, 3, 5)];
    assert_eq!(
        card_weight(4, &e, &max_weight_max_cardinality(4, &e)),
        (2, 10)
    );
    // A triangle with a pendant: the pendant edge and the opposite triangle edge.
    let e = [(0, 1, 6u64), (1, 2, 6), (0, 2, 6), (2, 3, 7)];
    assert_eq!(
        card_weight(4, &e, &max_weight_max_cardinality(4, &e)),
        (2, 13)
    );
    // Zero-weight edges count for the cardinality: 0-1 (0) and 2-3 (0) beat 1-2 (9).
    let e = [(0, 1, 0u64), (1, 2, 9), (2, 3, 0)];
    assert_eq!(
        card_weight(4, &e, &max_weight_max_cardinality(4, &e)),
        (2, 0)
    );
    // No edges, one vertex, nothing.
    assert_eq!(max_weight_max_cardinality(3, &[]), vec![None; 3]);
    assert_eq!(max_weight_max_cardinality(1, &[]), vec![None]);
}

#[test]
fn max_cardinality_takes_u128_for_huge_weights() {
    // C = 2·(u64::MAX / 2) + 1 overflows the u64 solve's room: the u128 path answers.
    let big = u64::MAX / 2;
    let e = [(0, 1, 1u64), (1, 2, big), (2, 3, 1), (3, 4, big), (4, 5, 1)];
    let m = max_weight_max_cardinality(6, &e);
    assert_eq!(m, [Some(1), Some(0), Some(3), Some(2), Some(5), Some(4)]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]
    /// Up to 16 vertices with many ties (weights 0..6) and nested blossoms: the most edges,
    /// then the most weight, as the subset dynamic programme.
    #[test]
    fn max_cardinality_equals_subset_dp(
        n in 1usize..=16,
        raw in proptest::collection::vec((0usize..16, 0usize..16, 0u64..6), 0..70),
    ) {
        let mut edges: Vec<(usize, usize, u64)> = Vec::new();
        for (a, b, x) in raw {
            let (a, b) = (a % n, b % n);
            if a != b && !edges.iter().any(|e| (e.0, e.1) == (a, b) || (e.0, e.1) == (b, a)) {
                edges.push((a, b, x));
            }
        }
        let got = card_weight(n, &edges, &max_weight_max_cardinality(n, &edges));
        prop_assert_eq!(got, subset_dp(n, &edges));
    }
}
