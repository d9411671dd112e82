//! The final order: points, then the ordered tie-break list (docs/rules/rapid-blitz.md#tie-breaks, docs/rules/draughts-championship.md#final-order-and-the-tie-break-chain Decisions).
//!
//! Players are grouped by points. Each criterion in turn splits every part that is still tied
//! (two or more players) into runs of equal value, best first; the next criterion applies only
//! inside the runs that are still tied — there is no restart from the first criterion. Players
//! still tied when the list is exhausted share their part's highest place and are listed by id
//! (so the order never depends on the order of the input).

use super::RoundRobinError;
use super::model::Model;
use super::scenario::{RoundRobinTiebreak, Separator};
use super::units_number;
use std::collections::HashMap;

/// A part of the order: players still tied with each other, and the criterion that separated
/// the part from the part below it (`None` for the last part).
#[derive(Debug, Clone)]
struct Part {
    members: Vec<usize>,
    below: Option<Separator>,
}

/// The final order.
#[derive(Debug, Clone)]
pub(crate) struct Ranking {
    /// Player indices, best first.
    pub order: Vec<usize>,
    /// Per position: the first position of the still-tied part it belongs to.
    pub part_start: Vec<usize>,
    /// Per position: the ids of the others in its still-tied part.
    pub shared_with: Vec<Vec<String>>,
    /// Per position: the criterion that separated it from the next position.
    pub decided_by: Vec<Option<Separator>>,
    /// Per player: the tie-break values shown, in list order.
    pub shown: Vec<Vec<(String, serde_json::Value)>>,
}

/// Lot numbers per player (1 = drawn first = ranked highest); `None` for a player missing from
/// a hand-entered drawing.
pub(crate) type Lots = Vec<Option<u32>>;

/// The "ranking order" key of docs/rules/draughts-championship.md#final-order-and-the-tie-break-chain: players grouped by points alone, best group first; for
/// each group the units scored against its members, not counting the player himself.
fn ranking_order_keys(m: &Model) -> Vec<Vec<i64>> {
    let mut levels: Vec<i64> = m.tally.iter().map(|t| t.points).collect();
    levels.sort_unstable_by(|a, b| b.cmp(a));
    levels.dedup();
    (0..m.len())
        .map(|i| {
            levels
                .iter()
                .map(|&lv| {
                    (0..m.len())
                        .filter(|&j| j != i && m.tally[j].points == lv)
                        .map(|j| m.vs[i][j])
                        .sum()
                })
                .collect()
        })
        .collect()
}

/// Ranks the players of `m` by points and then by `tiebreaks`.
pub(crate) fn rank(
    m: &Model,
    tiebreaks: &[RoundRobinTiebreak],
    lots: Option<&Lots>,
) -> Result<Ranking, RoundRobinError> {
    let n = m.len();
    let upp = m.units_per_point();
    let ro_keys = if tiebreaks.contains(&RoundRobinTiebreak::RankingOrder) {
        ranking_order_keys(m)
    } else {
        Vec::new()
    };
    let sb: Vec<i64> = (0..n).map(|i| m.sonneborn_berger(i)).collect();

    // values shown for every player; `mutual`, `direct_encounter`, `ranking_order` and `lots`
    // only for the players whose part was still tied when they were applied (as in the format's
    // example)
    let mut shown: Vec<HashMap<RoundRobinTiebreak, serde_json::Value>> = vec![HashMap::new(); n];
    for (i, map) in shown.iter_mut().enumerate() {
        let t = &m.tally[i];
        for &tb in tiebreaks {
            let v = match tb {
                RoundRobinTiebreak::Wins => serde_json::Value::from(t.wins),
                RoundRobinTiebreak::PlusremiseBalance => {
                    serde_json::Value::from(i64::from(t.plus) - i64::from(t.minus))
                }
                RoundRobinTiebreak::Plusremises => serde_json::Value::from(t.plus),
                RoundRobinTiebreak::SonnebornBerger => units_number(sb[i], upp * upp).into(),
                RoundRobinTiebreak::RankingOrder
                | RoundRobinTiebreak::Mutual
                | RoundRobinTiebreak::DirectEncounter
                | RoundRobinTiebreak::Lots => continue,
            };
            map.insert(tb, v);
        }
    }

    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|&a, &b| {
        m.tally[b]
            .points
            .cmp(&m.tally[a].points)
            .then_with(|| m.ids[a].cmp(&m.ids[b]))
    });
    let mut parts: Vec<Part> = Vec::new();
    for &p in &idx {
        match parts.last_mut() {
            Some(last) if m.tally[last.members[0]].points == m.tally[p].points => {
                last.members.push(p)
            }
            _ => {
                if let Some(last) = parts.last_mut() {
                    last.below = Some(Separator::Points);
                }
                parts.push(Part {
                    members: vec![p],
                    below: None,
                });
            }
        }
    }

    for &tb in tiebreaks {
        let mut next = Vec::with_capacity(parts.len());
        for part in parts {
            if part.members.len() < 2 {
                next.push(part);
                continue;
            }
            let mut keyed = Vec::with_capacity(part.members.len());
            let mut missing = Vec::new();
            for &p in &part.members {
                let key: Vec<i64> = match tb {
                    RoundRobinTiebreak::Wins => vec![i64::from(m.tally[p].wins)],
                    RoundRobinTiebreak::PlusremiseBalance => {
                        vec![i64::from(m.tally[p].plus) - i64::from(m.tally[p].minus)]
                    }
                    RoundRobinTiebreak::Plusremises => vec![i64::from(m.tally[p].plus)],
                    RoundRobinTiebreak::SonnebornBerger => vec![sb[p]],
                    RoundRobinTiebreak::RankingOrder => {
                        let shown_key = ro_keys[p]
                            .iter()
                            .map(|&u| units_number(u, upp).into())
                            .collect();
                        shown[p].insert(tb, serde_json::Value::Array(shown_key));
                        ro_keys[p].clone()
                    }
                    RoundRobinTiebreak::Mutual | RoundRobinTiebreak::DirectEncounter => {
                        let s: i64 = part.members.iter().map(|&q| m.vs[p][q]).sum();
                        shown[p].insert(tb, units_number(s, upp).into());
                        vec![s]
                    }
                    RoundRobinTiebreak::Lots => match lots.and_then(|l| l[p]) {
                        Some(lot) => {
                            shown[p].insert(tb, serde_json::Value::from(lot));
                            vec![-i64::from(lot)]
                        }
                        None => {
                            missing.push(m.ids[p].clone());
                            vec![0]
                        }
                    },
                };
                keyed.push((p, key));
            }
            if !missing.is_empty() {
                missing.sort();
                if lots.is_none() {
                    return Err(RoundRobinError::LotsWithoutDrawing(missing));
                }
                return Err(RoundRobinError::NotDrawn(missing));
            }
            // stable: equal keys keep the id order of the part
            keyed.sort_by(|a, b| b.1.cmp(&a.1));
            let mut runs: Vec<Part> = Vec::new();
            for (k, (p, key)) in keyed.iter().enumerate() {
                if k > 0 && keyed[k - 1].1 == *key {
                    if let Some(run) = runs.last_mut() {
                        run.members.push(*p);
                    }
                } else {
                    if let Some(run) = runs.last_mut() {
                        run.below = Some(Separator::Criterion(tb));
                    }
                    runs.push(Part {
                        members: vec![*p],
                        below: None,
                    });
                }
            }
            if let Some(run) = runs.last_mut() {
                run.below = part.below;
            }
            for run in &mut runs {
                run.members.sort_by(|&a, &b| m.ids[a].cmp(&m.ids[b]));
            }
            next.extend(runs);
        }
        parts = next;
    }

    let mut r = Ranking {
        order: Vec::with_capacity(n),
        part_start: Vec::with_capacity(n),
        shared_with: Vec::with_capacity(n),
        decided_by: Vec::with_capacity(n),
        shown: Vec::with_capacity(n),
    };
    for part in &parts {
        let start = r.order.len();
        for (k, &p) in part.members.iter().enumerate() {
            r.order.push(p);
            r.part_start.push(start);
            r.shared_with.push(
                part.members
                    .iter()
                    .filter(|&&q| q != p)
                    .map(|&q| m.ids[q].clone())
                    .collect(),
            );
            r.decided_by.push(if k + 1 == part.members.len() {
                part.below
            } else {
                None
            });
        }
    }
    r.shown = shown
        .into_iter()
        .map(|mut map| {
            tiebreaks
                .iter()
                .filter_map(|tb| map.remove(tb).map(|v| (tb.name().to_string(), v)))
                .collect()
        })
        .collect();
    Ok(r)
}
