//! Direct encounter (C.07 2024, art. 6), including its rule for Swiss events in which not all
//! tied participants met.
//!
//! Inside a group of participants tied on everything before DE, each participant's DE score is
//! the sum, over the other group members they played over the board, of the points scored
//! against that member (averaged when they met more than once). When all members met each
//! other the group is ordered by that score (equal scores stay tied). When not all met (Swiss),
//! a participant is placed above the rest only when their DE score is higher than the most any
//! of the rest could have, counting every encounter they did not play as won; this is repeated
//! from the top and stops at the first participant it does not separate. DE is then applied
//! again inside every part still tied, until nothing changes.

use super::prepared::Prepared;
use num_rational::Ratio;
use std::collections::BTreeMap;

/// The DE value per player: 0 when DE did not separate the player's group, else the place
/// inside the group (1 = best; equal places stay equal). `rank` is the ranking so far.
pub(crate) fn direct_encounter(p: &Prepared, rank: &[u32]) -> Vec<i64> {
    let n = p.ids.len();
    // Working rank: starts as the rank so far; DE refines it inside each group.
    let mut de: Vec<i64> = rank.iter().map(|&r| i64::from(r)).collect();
    let mut settled = vec![false; n];
    for _ in 0..(n + 1) {
        let mut changed = false;
        let mut groups: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
        for (i, &d) in de.iter().enumerate() {
            groups.entry(d).or_default().push(i);
        }
        for (_, group) in groups {
            if group.len() < 2 || group.iter().all(|&i| settled[i]) {
                continue;
            }
            let split = split_group(p, &group, &mut de);
            for &i in &group {
                settled[i] = !split;
            }
            changed |= split;
        }
        if !changed {
            break;
        }
    }
    // Report the place inside each group of equal rank, or 0 when not separated.
    let mut out = vec![0i64; n];
    let mut by_rank: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (i, &r) in rank.iter().enumerate() {
        by_rank.entry(r).or_default().push(i);
    }
    for (_, group) in by_rank {
        let lo = group.iter().map(|&i| de[i]).min().unwrap_or(0);
        let hi = group.iter().map(|&i| de[i]).max().unwrap_or(0);
        for &i in &group {
            out[i] = if lo == hi { 0 } else { de[i] - lo + 1 };
        }
    }
    out
}

/// One DE pass over a group whose members share the working rank; returns whether it split.
fn split_group(p: &Prepared, group: &[usize], de: &mut [i64]) -> bool {
    let base = de[group[0]];
    let m = group.len();
    let in_group = |j: usize| group.contains(&j);
    // Per member: DE score (sum of per-opponent averages) and number of members met.
    let mut score: Vec<Ratio<i64>> = Vec::with_capacity(m);
    let mut met: Vec<usize> = Vec::with_capacity(m);
    for &i in group {
        let mut per_opp: BTreeMap<usize, (i64, i64)> = BTreeMap::new();
        for r in 0..p.rounds {
            if let Some(o) = p.played_opp(i, r).filter(|&o| in_group(o)) {
                let e = per_opp.entry(o).or_insert((0, 0));
                e.0 += p.pts(i, r);
                e.1 += 1;
            }
        }
        score.push(
            per_opp
                .values()
                .map(|&(s, k)| Ratio::new(s, k))
                .fold(Ratio::from_integer(0), |a, b| a + b),
        );
        met.push(per_opp.len());
    }
    // In a round robin the tied players are compared directly even when a game is missing.
    let all_met = p.round_robin || met.iter().all(|&k| k == m - 1);
    let win = 10_000i64;
    let max: Vec<Ratio<i64>> = (0..m)
        .map(|k| score[k] + Ratio::from_integer(((m - 1 - met[k]) as i64) * win))
        .collect();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| {
        score[b]
            .cmp(&score[a])
            .then(max[b].cmp(&max[a]))
            .then(p.ids[group[a]].cmp(&p.ids[group[b]]))
    });
    let mut split = false;
    let mut current = base;
    let mut unique = true;
    for pos in 1..m {
        let (prev, k) = (order[pos - 1], order[pos]);
        let separates = if all_met {
            score[prev] != score[k]
        } else {
            let best_rest = order[pos..].iter().map(|&x| max[x]).max();
            unique && best_rest.is_some_and(|b| score[prev] > b)
        };
        if separates {
            current = base + pos as i64;
            split = true;
        } else if !all_met {
            unique = false;
        }
        de[group[k]] = current;
    }
    split
}
