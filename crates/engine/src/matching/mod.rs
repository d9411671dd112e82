//! Matchings in general graphs, shared by the pairing engines.
//!
//! - weighted: maximum-weight matching (Edmonds' blossom algorithm with dual variables),
//!   with a warm start for re-solving after weight changes, and the maximum-weight matching
//!   among those of maximum cardinality. The Dutch system pairs its brackets with it, the
//!   Keizer pairing finds its minimum-cost perfect matching with it.
//! - cardinality: maximum-cardinality matching (Edmonds' blossom algorithm without
//!   weights) and the Gallai–Edmonds decomposition. The Keizer pairing uses the
//!   decomposition for the bye and the explanation of an impossible evening, the
//!   Double-Swiss system the size of a maximum matching to check that a set of players can
//!   all be paired.
//!
//! ```
//! use clubcomp_engine::matching::{matching_size, max_weight_matching, max_weight_max_cardinality};
//!
//! // A path 0–1–2–3 with weights 5, 11, 5: the heaviest matching takes the middle edge alone
//! // (11 > 5 + 5); among the matchings with two edges the only one is both ends.
//! let edges = [(0, 1, 5u64), (1, 2, 11), (2, 3, 5)];
//! assert_eq!(max_weight_matching(4, &edges), [None, Some(2), Some(1), None]);
//! assert_eq!(max_weight_max_cardinality(4, &edges), [Some(1), Some(0), Some(3), Some(2)]);
//! // The same path without weights: two pairs.
//! let adj = vec![vec![1], vec![0, 2], vec![1, 3], vec![2]];
//! assert_eq!(matching_size(&adj), 2);
//! ```

// The public API of this module.
pub use cardinality::{Decomposition, Dense, Graph, decompose, matching_size, max_matching};
pub use weighted::{MatchWeight, Matching, max_weight_matching, max_weight_max_cardinality};

pub(crate) mod cardinality;
pub(crate) mod weighted;

/// The two matchings against each other: the decomposition's missable vertices are those some
/// maximum-weight matching with unit weights (a maximum-cardinality one) leaves out.
#[cfg(test)]
mod tests {
    use super::cardinality::decompose;
    use super::cardinality::tests::adj;
    use super::weighted::max_weight_matching;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]
        #[test]
        fn missable_means_some_maximum_matching_leaves_it_out(
            n in 1usize..10,
            raw in proptest::collection::vec((0usize..10, 0usize..10), 0..25),
        ) {
            let e: Vec<(usize, usize)> = raw.into_iter().map(|(a, b)| (a % n, b % n))
                .filter(|(a, b)| a != b).collect();
            // with unit weights the weighted matching is one of maximum cardinality
            let size = |skip: Option<usize>| {
                let mut we: Vec<(usize, usize, u64)> = e.iter()
                    .filter(|(a, b)| Some(*a) != skip && Some(*b) != skip)
                    .map(|&(a, b)| (a.min(b), a.max(b), 1)).collect();
                we.sort_unstable();
                we.dedup();
                max_weight_matching(n, &we)
                    .iter().filter(|m| m.is_some()).count() / 2
            };
            let d = decompose(&adj(n, &e));
            let full = size(None);
            proptest::prop_assert_eq!(d.mate.iter().filter(|m| m.is_some()).count() / 2, full);
            for v in 0..n {
                proptest::prop_assert_eq!(d.missable[v], size(Some(v)) == full, "vertex {}", v);
            }
        }
    }
}
