//! Points tables and prize money shared among equal match points (docs/rules/draughts-championship.md#master-points), rights (title,
//! qualification, cut), and exact amounts as decimal strings or fractions.
//!
//! Sharing depends on match points only, never on the tie-breaks: the players with equal
//! points occupy consecutive places in the final order whatever the tie-breaks say, and share
//! equally the amounts of those places (places beyond the table are worth 0).

use super::RoundRobinError;
use crate::fixed::{Fixed, SCALE};
use num_rational::Ratio;

/// An exact amount.
pub(crate) type Amount = Ratio<i128>;

/// Reads a JSON number as an exact non-negative amount (`1500`, `12.5`; at most 4 decimals,
/// as every [`Fixed`] number of the project).
pub(crate) fn parse_amount(field: &str, n: &serde_json::Number) -> Result<Amount, RoundRobinError> {
    match Fixed::from_json_number(n) {
        Ok(f) if f.units() >= 0 => Ok(Ratio::new(i128::from(f.units()), i128::from(SCALE))),
        _ => Err(RoundRobinError::BadAmount {
            field: field.to_string(),
            value: n.to_string(),
        }),
    }
}

/// Writes an exact amount: an integer, a terminating decimal (`"1.5"`), or a reduced fraction
/// (`"5/3"`) when the decimal does not terminate.
pub fn format_amount(a: &Ratio<i128>) -> String {
    let (n, d) = (*a.numer(), *a.denom());
    if d == 1 {
        return n.to_string();
    }
    let (mut rest, mut twos, mut fives) = (d, 0u32, 0u32);
    while rest % 2 == 0 {
        rest /= 2;
        twos += 1;
    }
    while rest % 5 == 0 {
        rest /= 5;
        fives += 1;
    }
    if rest != 1 {
        return format!("{n}/{d}");
    }
    let digits = twos.max(fives);
    let scale = 10i128.pow(digits);
    let scaled = n * (scale / d);
    let sign = if scaled < 0 { "-" } else { "" };
    let abs = scaled.abs();
    format!(
        "{sign}{}.{:0width$}",
        abs / scale,
        abs % scale,
        width = digits as usize
    )
}

/// Shares `by_place` among the players in `order` (final order, player indices) whose
/// `eligible` flag is set: places are counted over eligible players only; players with equal
/// `points` occupy consecutive places and share those places' amounts equally. Returns one
/// amount per player index (0 for the ineligible).
pub(crate) fn share(
    order: &[usize],
    points: &[i64],
    eligible: &[bool],
    by_place: &[Amount],
) -> Vec<Amount> {
    let mut out = vec![Amount::from_integer(0); points.len()];
    let ranked: Vec<usize> = order.iter().copied().filter(|&p| eligible[p]).collect();
    let mut start = 0;
    while start < ranked.len() {
        let pts = points[ranked[start]];
        let mut end = start;
        while end < ranked.len() && points[ranked[end]] == pts {
            end += 1;
        }
        // places start+1 ..= end
        let total: Amount = (start..end)
            .filter_map(|place0| by_place.get(place0))
            .fold(Amount::from_integer(0), |a, b| a + b);
        let each = total / Amount::from_integer((end - start) as i128);
        for &p in &ranked[start..end] {
            out[p] = each;
        }
        start = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn amounts(v: &[i128]) -> Vec<Amount> {
        v.iter().map(|&x| Amount::from_integer(x)).collect()
    }

    #[test]
    fn formats_exactly() {
        assert_eq!(format_amount(&Ratio::new(3, 1)), "3");
        assert_eq!(format_amount(&Ratio::new(3, 2)), "1.5");
        assert_eq!(format_amount(&Ratio::new(5, 3)), "5/3");
        assert_eq!(format_amount(&Ratio::new(2250, 4)), "562.5");
        assert_eq!(format_amount(&Ratio::new(1, 8)), "0.125");
        assert_eq!(format_amount(&Ratio::new(7, 40)), "0.175");
        assert_eq!(format_amount(&Ratio::new(0, 1)), "0");
        assert_eq!(format_amount(&Ratio::new(10, 6)), "5/3");
    }

    #[test]
    fn parses_amounts() {
        let n: serde_json::Number = serde_json::from_str("12.5").unwrap();
        assert_eq!(parse_amount("x", &n).unwrap(), Ratio::new(25, 2));
        let n: serde_json::Number = serde_json::from_str("1500").unwrap();
        assert_eq!(parse_amount("x", &n).unwrap(), Ratio::from_integer(1500));
        let n: serde_json::Number = serde_json::from_str("-1").unwrap();
        assert!(parse_amount("x", &n).is_err());
        let n: serde_json::Number = serde_json::from_str("0.00001").unwrap();
        assert!(parse_amount("x", &n).is_err());
    }

    #[test]
    fn shares_over_the_places_occupied() {
        // order a b c d e; points 10 8 8 8 5; master 5 4 3 2 1
        // b, c, d occupy places 2-4: (4 + 3 + 2) / 3 = 3 each; e place 5: 1.
        let points = [10, 8, 8, 8, 5];
        let all = [true; 5];
        let s = share(&[0, 1, 2, 3, 4], &points, &all, &amounts(&[5, 4, 3, 2, 1]));
        assert_eq!(s, amounts(&[5, 3, 3, 3, 1]));
        // grandmaster 3 2 1 with c left out: b and d occupy places 2-3: (2 + 1) / 2 = 1.5;
        // e is 4th: nothing.
        let elig = [true, true, false, true, true];
        let s = share(&[0, 1, 2, 3, 4], &points, &elig, &amounts(&[3, 2, 1]));
        assert_eq!(
            s,
            vec![
                Ratio::from_integer(3),
                Ratio::new(3, 2),
                Ratio::from_integer(0),
                Ratio::new(3, 2),
                Ratio::from_integer(0)
            ]
        );
        // a tie running past the end of the table: places 3-5 of a 3-place table: 1/3 each
        let points = [9, 8, 5, 5, 5];
        let s = share(&[0, 1, 2, 3, 4], &points, &all, &amounts(&[3, 2, 1]));
        assert_eq!(s[2], Ratio::new(1, 3));
        assert_eq!(format_amount(&s[4]), "1/3");
    }
}
