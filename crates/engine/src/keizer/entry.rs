//! Where a player who enters later is placed in a ranking (docs/rules/keizer.md#entrants, also used for
//! first-time flexible players in pairing order, docs/rules/keizer.md#pairing).

/// The index at which an entrant with `entrant` rating is inserted into a ranking whose players
/// have `ranked` ratings (rank order, best first).
///
/// Rule (docs/rules/keizer.md#entrants): next to the ranked player with the smallest rating difference; below that
/// player when the entrant is not rated higher, else above; among equal differences the
/// higher-ranked player; unrated players are not compared. An unrated entrant, or one when
/// nobody is rated, goes to the bottom.
pub fn insertion_index(ranked: &[Option<i32>], entrant: Option<i32>) -> usize {
    let Some(r) = entrant else {
        return ranked.len();
    };
    let mut best: Option<(usize, i64)> = None;
    for (i, rating) in ranked.iter().enumerate() {
        if let Some(x) = rating {
            let diff = (i64::from(*x) - i64::from(r)).abs();
            // strict '<' keeps the higher-ranked player among equal differences
            if best.is_none_or(|(_, d)| diff < d) {
                best = Some((i, diff));
            }
        }
    }
    match best {
        None => ranked.len(),
        Some((i, _)) => {
            let other = ranked[i].unwrap_or(i32::MIN);
            if r > other { i } else { i + 1 }
        }
    }
}

/// Inserts `id` into `ranking` (best first) by [`insertion_index`], given a rating lookup.
pub fn insert_entrant<T: Clone>(
    ranking: &mut Vec<T>,
    id: T,
    rating_of: impl Fn(&T) -> Option<i32>,
) {
    let ratings: Vec<Option<i32>> = ranking.iter().map(&rating_of).collect();
    let at = insertion_index(&ratings, rating_of(&id));
    ranking.insert(at, id);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_when_not_rated_higher() {
        // ranked 2000, 1800, 1600; entrant 1790 is closest to 1800 (diff 10), not higher -> below it
        assert_eq!(
            insertion_index(&[Some(2000), Some(1800), Some(1600)], Some(1790)),
            2
        );
        // entrant 1810: closest 1800, rated higher -> above it
        assert_eq!(
            insertion_index(&[Some(2000), Some(1800), Some(1600)], Some(1810)),
            1
        );
        // equal rating 1800 -> not higher -> below
        assert_eq!(
            insertion_index(&[Some(2000), Some(1800), Some(1600)], Some(1800)),
            2
        );
    }

    #[test]
    fn equal_differences_take_the_higher_ranked() {
        // 1900 is 100 from both 2000 and 1800: the higher-ranked (2000, index 0); not higher -> below
        assert_eq!(insertion_index(&[Some(2000), Some(1800)], Some(1900)), 1);
        // ranking need not be sorted by rating: 1700 (idx 0) and 1900 (idx 1) both 100 from 1800
        assert_eq!(insertion_index(&[Some(1700), Some(1900)], Some(1800)), 0);
    }

    #[test]
    fn unrated_go_to_the_bottom_and_are_not_compared() {
        assert_eq!(insertion_index(&[Some(2000), None], None), 2);
        assert_eq!(insertion_index(&[None, None], Some(1500)), 2);
        assert_eq!(insertion_index(&[None, Some(1500), None], Some(1400)), 2);
    }

    #[test]
    fn insert_entrant_uses_lookup() {
        let mut v = vec![("a", Some(2000)), ("b", Some(1500))];
        insert_entrant(&mut v, ("c", Some(1600)), |p| p.1);
        assert_eq!(v.iter().map(|p| p.0).collect::<Vec<_>>(), ["a", "c", "b"]);
    }
}
