//! The Baku acceleration method (FIDE C.04.5, docs/rules/rapid-blitz.md#acceleration): virtual
//! points for the upper part of the field in the first rounds, so that the strongest players
//! meet each other sooner.
//!
//! FIDE's text: the field, in the order of the initial ranking, is split into group A, the
//! first 2·⌈N/4⌉ players (the first half rounded up to an even number), and group B, the
//! rest. The accelerated rounds are the first ⌈R/2⌉ of the R rounds; in the first half of them
//! (rounded up) every player of group A has one virtual point, in the rest half a point.
//! Group B never has any (docs/decisions/0266-baku-group-a.md).

use super::trf::Accelerations;
use crate::fixed::Fixed;

/// The size of group A for a field of `n` players: 2·⌈n/4⌉, never more than the field.
pub fn baku_group_a(n: usize) -> usize {
    (2 * n.div_ceil(4)).min(n)
}

/// The Baku virtual points of a field: `field` holds the pairing numbers in the order of the
/// initial ranking (strongest first), `total_rounds` the number of rounds. Group A players get
/// one entry per accelerated round (1 point, then ½); group B players get none.
pub fn baku_accelerations(field: &[u32], total_rounds: u32) -> Accelerations {
    let accelerated = total_rounds.div_ceil(2);
    let full = accelerated.div_ceil(2);
    let half = Fixed(Fixed::ONE.0 / 2);
    let points: Vec<Fixed> = (1..=accelerated)
        .map(|r| if r <= full { Fixed::ONE } else { half })
        .collect();
    field
        .iter()
        .take(baku_group_a(field.len()))
        .map(|&id| (id, points.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const HALF: Fixed = Fixed(5_000);

    #[test]
    fn group_a_is_the_first_half_rounded_up_to_an_even_number() {
        // 2·⌈N/4⌉ by hand: 36 → 18, 37 → 20, 38 → 20, 39 → 20, 40 → 20, 41 → 22.
        for (n, a) in [(36, 18), (37, 20), (38, 20), (39, 20), (40, 20), (41, 22)] {
            assert_eq!(baku_group_a(n), a, "N = {n}");
        }
        // Tiny fields: 1 → 1 (never more than the field), 2 → 2, 3 → 2, 5 → 4.
        assert_eq!(baku_group_a(0), 0);
        assert_eq!(baku_group_a(1), 1);
        assert_eq!(baku_group_a(3), 2);
        assert_eq!(baku_group_a(5), 4);
    }

    #[test]
    fn nine_rounds_give_three_full_and_two_half_rounds() {
        // R = 9: ⌈9/2⌉ = 5 accelerated rounds, the first ⌈5/2⌉ = 3 with one point.
        let field: Vec<u32> = (1..=37).collect();
        let acc = baku_accelerations(&field, 9);
        assert_eq!(acc.len(), 20);
        assert_eq!(
            acc[&1],
            vec![Fixed::ONE, Fixed::ONE, Fixed::ONE, HALF, HALF]
        );
        assert_eq!(acc[&20], acc[&1]);
        assert!(!acc.contains_key(&21));
        assert!(!acc.contains_key(&37));
    }

    #[test]
    fn the_field_order_decides_group_a() {
        // Group A follows the initial ranking, not the pairing numbers.
        let acc = baku_accelerations(&[7, 3, 9, 1, 5], 7);
        // N = 5: group A = 4; R = 7: 4 accelerated rounds, 2 full.
        let expected = vec![Fixed::ONE, Fixed::ONE, HALF, HALF];
        for id in [7, 3, 9, 1] {
            assert_eq!(acc[&id], expected, "player {id}");
        }
        assert!(!acc.contains_key(&5));
    }

    #[test]
    fn eleven_rounds_and_an_odd_count_of_accelerated_rounds() {
        // R = 11: 6 accelerated rounds, 3 full; R = 5: 3 accelerated, 2 full; R = 1: 1, 1.
        let one = |r| baku_accelerations(&[1, 2, 3, 4], r)[&1].clone();
        assert_eq!(
            one(11),
            vec![Fixed::ONE, Fixed::ONE, Fixed::ONE, HALF, HALF, HALF]
        );
        assert_eq!(one(5), vec![Fixed::ONE, Fixed::ONE, HALF]);
        assert_eq!(one(1), vec![Fixed::ONE]);
    }
}
