//! The recalculation loop of one evening (docs/rules/keizer.md#recalculation): scores from a ranking's
//! values, stable re-sorting, fixed point or cycle detection, and the cycle average.

use super::{Ledger, Params};
use crate::fixed::Fixed;
use std::collections::HashMap;

/// At most this many steps (score computations) per evening (docs/rules/keizer.md#the-cycle-rule: at most 1000 steps).
pub const MAX_STEPS: u32 = 1000;

/// value(place) = top − place × step for the 0-based `place`, never below 1 (docs/rules/keizer.md#scoring).
pub fn value_of_place(p: &Params, place: usize) -> i64 {
    let place = i64::try_from(place).unwrap_or(i64::MAX);
    p.top_value
        .saturating_sub(place.saturating_mul(p.step))
        .max(1)
}

/// The warning of docs/rules/keizer.md#scoring when the ladder for `n` players would drop below 1.
pub(super) fn floor_warning(p: &Params, n: usize) -> Option<String> {
    if n == 0 {
        return None;
    }
    let lowest = p
        .top_value
        .saturating_sub((n as i64 - 1).saturating_mul(p.step));
    if lowest >= 1 {
        return None;
    }
    // first 1-based rank r with top − (r − 1) × step < 1
    let first = (0..n)
        .find(|&pl| p.top_value - pl as i64 * p.step < 1)
        .map_or(n, |pl| pl + 1);
    Some(format!(
        "top value {} with step {} is too low for {} players: ranks {}–{} are valued 1 instead \
         of {} down to {}",
        p.top_value,
        p.step,
        n,
        first,
        n,
        p.top_value - (first as i64 - 1) * p.step,
        lowest
    ))
}

/// The outcome of one evening's recalculation.
pub(super) struct Settled {
    /// Published ranking (player indices, best first).
    pub ranking: Vec<u32>,
    /// Published score per player index (0 for players not in the ranking).
    pub scores: Vec<Fixed>,
    /// 1 for a fixed point, else the cycle length.
    pub cycle_length: u32,
    /// Rankings computed, R_0 included.
    pub iterations: u32,
    /// The step cap was hit without a repeat.
    pub capped: bool,
}

/// S(R): every player's score (ten-thousandths) over all booked evenings with the values of
/// ranking `r`.
pub(super) fn scores_for(p: &Params, ledger: &Ledger, r: &[u32], out: &mut Vec<i64>) {
    let n = ledger.tallies.len();
    let mut value = vec![0i64; n];
    for (place, &i) in r.iter().enumerate() {
        value[i as usize] = value_of_place(p, place);
    }
    out.clear();
    out.extend(
        ledger
            .tallies
            .iter()
            .zip(&value)
            .map(|(t, v)| t.fixed_units + t.own_factor * v),
    );
    for &(a, b, f) in &ledger.edges {
        out[a as usize] += f * value[b as usize];
    }
}

/// Runs the iteration from `start` (R_0) as docs/rules/keizer.md#recalculation prescribes.
pub(super) fn settle(p: &Params, ledger: &Ledger, start: &[u32]) -> Settled {
    let mut seen: HashMap<Vec<u32>, usize> = HashMap::new();
    let mut rankings: Vec<Vec<u32>> = vec![start.to_vec()];
    let mut history: Vec<Vec<i64>> = Vec::new();
    seen.insert(start.to_vec(), 0);
    let mut s = Vec::new();
    for i in 0..MAX_STEPS as usize {
        scores_for(p, ledger, &rankings[i], &mut s);
        let mut next = rankings[i].clone();
        // stable: equal scores keep their order in R_i
        next.sort_by(|a, b| s[*b as usize].cmp(&s[*a as usize]));
        history.push(s.clone());
        if let Some(&j) = seen.get(&next) {
            let len = i - j + 1;
            let mut sums = vec![0i64; s.len()];
            for h in &history[j..=i] {
                for (acc, x) in sums.iter_mut().zip(h) {
                    *acc += x;
                }
            }
            // The cycle length is the same for everyone: sort by the exact sums.
            let mut ranking = rankings[j].clone();
            ranking.sort_by(|a, b| sums[*b as usize].cmp(&sums[*a as usize]));
            let scores = sums
                .iter()
                .map(|&x| Fixed(x).div_round(len as i64))
                .collect();
            return Settled {
                ranking,
                scores,
                cycle_length: len as u32,
                iterations: i as u32 + 2,
                capped: false,
            };
        }
        seen.insert(next.clone(), i + 1);
        rankings.push(next);
    }
    // Cap reached without a repeat: publish R_cap with the scores S_{cap−1} it was sorted by.
    let last = history.last().cloned().unwrap_or_default();
    Settled {
        ranking: rankings.pop().unwrap_or_default(),
        scores: last.into_iter().map(Fixed).collect(),
        cycle_length: 0,
        iterations: MAX_STEPS + 1,
        capped: true,
    }
}
