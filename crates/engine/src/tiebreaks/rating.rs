//! The rating arithmetic of the rating-based tie-breaks (C.07 art. 10), with the two
//! conversion tables of the FIDE Rating Regulations (B.02, table 8.1): fractional score to
//! rating difference, and rating difference to scoring probability. Scores are in hundredths
//! of a point, probabilities in hundredths.

/// Rating difference for a fractional score of 0 %, 1 %, … 100 % (B.02 table 8.1a). The two
/// ends, ±800, are the values the FIDE reference implementation uses for 0 % and 100 %.
const SCORE_TO_DP: [i32; 101] = [
    -800, -677, -589, -538, -501, -470, -444, -422, -401, -383, -366, -351, -336, -322, -309, -296,
    -284, -273, -262, -251, -240, -230, -220, -211, -202, -193, -184, -175, -166, -158, -149, -141,
    -133, -125, -117, -110, -102, -95, -87, -80, -72, -65, -57, -50, -43, -36, -29, -21, -14, -7,
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158,
    166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
];

/// The smallest rating difference at which the higher rated player's scoring probability
/// reaches 0.51, 0.52, … 1.00 (B.02 table 8.1b); below 4 points it is 0.50.
const PD_STEPS: [i32; 50] = [
    4, 11, 18, 26, 33, 40, 47, 54, 62, 69, 77, 84, 92, 99, 107, 114, 122, 130, 138, 146, 154, 163,
    171, 180, 189, 198, 207, 216, 226, 236, 246, 257, 268, 279, 291, 303, 316, 329, 345, 358, 375,
    392, 412, 433, 457, 485, 518, 560, 620, 736,
];

/// Scoring probability, in hundredths, of a player rated `own` against one rated `opp`; the
/// full scale is used (no 400-point limit), differences beyond 800 count as 800.
pub(crate) fn expected(own: i64, opp: i64) -> i64 {
    let diff = (own - opp).clamp(-800, 800);
    let steps = PD_STEPS
        .iter()
        .filter(|&&s| i64::from(s) <= diff.abs())
        .count() as i64;
    let higher = 50 + steps;
    if diff >= 0 { higher } else { 100 - higher }
}

/// Rounds `num / den` (den > 0) to the nearest whole number, halves away from zero.
pub(crate) fn round_half_up(num: i64, den: i64) -> i64 {
    let q = (2 * num.abs() + den) / (2 * den);
    if num < 0 { -q } else { q }
}

/// Average rating of the opponents (art. 10.1): none without opponents.
pub(crate) fn average(ratings: &[i64]) -> Option<i64> {
    if ratings.is_empty() {
        return None;
    }
    Some(round_half_up(ratings.iter().sum(), ratings.len() as i64))
}

/// Tournament performance rating (art. 10.2): the average rating of the opponents plus the
/// rating difference of the fractional score (`score` in hundredths of a point).
pub(crate) fn performance(score: i64, ratings: &[i64]) -> Option<i64> {
    let aro = average(ratings)?;
    let pct = round_half_up(score, ratings.len() as i64).clamp(0, 100);
    Some(aro + i64::from(SCORE_TO_DP[pct as usize]))
}

/// Perfect tournament performance (art. 10.3): the lowest rating whose expected score
/// against the opponents is at least `score` (hundredths of a point); for a zero score, 800
/// below the lowest rated opponent.
pub(crate) fn perfect_performance(score: i64, ratings: &[i64]) -> Option<i64> {
    let (&lo, &hi) = (ratings.iter().min()?, ratings.iter().max()?);
    if score <= 0 {
        return Some(lo - 800);
    }
    let sum = |r: i64| ratings.iter().map(|&o| expected(r, o)).sum::<i64>();
    if score > 100 * ratings.len() as i64 {
        return Some(hi + 800);
    }
    // sum() is non-decreasing in r and reaches the full score at hi + 800.
    let (mut low, mut high) = (lo - 801, hi + 800);
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if sum(mid) >= score {
            high = mid;
        } else {
            low = mid;
        }
    }
    Some(high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probability_table_ends_and_steps() {
        assert_eq!(expected(2000, 2000), 50);
        assert_eq!(expected(2003, 2000), 50);
        assert_eq!(expected(2004, 2000), 51);
        assert_eq!(expected(2000, 2004), 49);
        assert_eq!(expected(2391, 2000), 91);
        assert_eq!(expected(2392, 2000), 92);
        assert_eq!(expected(2735, 2000), 99);
        assert_eq!(expected(2736, 2000), 100);
        assert_eq!(expected(1000, 2900), 0);
    }

    #[test]
    fn performance_by_hand() {
        // Opponents 2000, 2100, 2200: average 2100; 2 of 3 is 67 % → +125.
        assert_eq!(performance(200, &[2000, 2100, 2200]), Some(2225));
        // 1.5 of 2 is 75 % → +193 over the average 1950.
        assert_eq!(performance(150, &[1900, 2000]), Some(2143));
        assert_eq!(average(&[1901, 1902]), Some(1902));
        assert_eq!(performance(0, &[]), None);
    }

    #[test]
    fn perfect_performance_by_hand() {
        // One opponent rated 2000 and half a point: differences of up to 3 points give 0.50,
        // so 50 % is reached 3 points below (4 below gives 0.49).
        assert_eq!(perfect_performance(50, &[2000]), Some(1997));
        // A win: 100 % is reached 736 points above.
        assert_eq!(perfect_performance(100, &[2000]), Some(2736));
        // Zero: 800 below the lowest opponent.
        assert_eq!(perfect_performance(0, &[2000, 1800]), Some(1000));
        // 1 of 2 against 2000 and 2200: at 2100 each difference is 100 (0.64 + 0.36 = 1.00).
        // At 2099 the differences are 99 and 101 (0.64 + 0.36): also 1.00; at 2098, 98 and 102
        // (0.63 + 0.36 = 0.99). So 2099.
        assert_eq!(perfect_performance(100, &[2000, 2200]), Some(2099));
    }
}
