//! A player who withdraws from a round robin (docs/rules/draughts-championship.md#withdrawal).
//!
//! A player is due `(n − 1) × cycles` games. One who withdraws having played half of them or
//! fewer has all their results annulled: they and their games leave the calculation (their
//! row and cross-table line stay empty). One who withdraws after that keeps the results they
//! played, and every game still due against each opponent is scored as lost by forfeit: the
//! opponent gets a forfeit win (counted as the forfeit results of the scenario are). Games
//! played means games over the board; forfeits do not count towards the half.

use super::RoundRobinError;
use super::model::Model;
use super::result::SideOutcome;
use super::scenario::{RoundRobinGame, Scenario, WithdrawalOutcome, WithdrawalRule};
use std::collections::{HashMap, HashSet};

/// The scenario with the withdrawal rule applied.
#[derive(Debug, Clone)]
pub(crate) struct Applied {
    /// Players whose results were annulled left out, forfeit wins for the games still due added.
    pub scenario: Scenario,
    /// Index in the original scenario of every player kept, in order.
    pub kept: Vec<usize>,
    /// One per withdrawal, in the scenario's order.
    pub outcomes: Vec<WithdrawalOutcome>,
}

fn bad(id: &str, reason: impl Into<String>) -> RoundRobinError {
    RoundRobinError::Withdrawal {
        id: id.to_string(),
        reason: reason.into(),
    }
}

/// Applies the withdrawals of `s`; `None` when there are none (the scenario is used as it is).
pub(crate) fn apply(s: &Scenario) -> Result<Option<Applied>, RoundRobinError> {
    if s.withdrawn.is_empty() {
        return Ok(None);
    }
    let cycles = s.cycles.unwrap_or(1);
    if !(1..=10).contains(&cycles) {
        return Err(RoundRobinError::BadCycles(cycles));
    }
    // every game is checked (and its result read) by the plain model first
    let m = Model::build(s)?;
    let n = m.len();
    let due = (n as u32 - 1) * cycles;
    let mut from: HashMap<usize, u32> = HashMap::new();
    for w in &s.withdrawn {
        let Some(&i) = m.index.get(&w.id) else {
            return Err(RoundRobinError::UnknownId {
                field: "withdrawn".into(),
                id: w.id.clone(),
            });
        };
        if w.from_round == 0 {
            return Err(bad(&w.id, "from_round must be at least 1"));
        }
        if from.insert(i, w.from_round).is_some() {
            return Err(RoundRobinError::DuplicateId {
                field: "withdrawn".into(),
                id: w.id.clone(),
            });
        }
    }
    let mut played = vec![0u32; n];
    let mut met = vec![vec![0u32; n]; n];
    for g in &m.games {
        let (ow, ob) = g.result.outcomes();
        for (me, o) in [(g.white, ow), (g.black, ob)] {
            if let Some(&f) = from.get(&me)
                && g.round >= f
            {
                return Err(bad(
                    &m.ids[me],
                    format!(
                        "has a result in round {} but withdrew from round {f}",
                        g.round
                    ),
                ));
            }
            if !matches!(o, SideOutcome::ForfeitWin | SideOutcome::ForfeitLoss) {
                played[me] += 1;
            }
        }
        met[g.white][g.black] += 1;
        met[g.black][g.white] += 1;
    }
    let mut outcomes = Vec::with_capacity(s.withdrawn.len());
    let mut annulled: HashSet<usize> = HashSet::new();
    let mut forfeiting: Vec<usize> = Vec::new();
    for w in &s.withdrawn {
        let i = m.index[&w.id];
        let rule = if 2 * played[i] <= due {
            annulled.insert(i);
            WithdrawalRule::ResultsAnnulled
        } else {
            forfeiting.push(i);
            WithdrawalRule::RemainingForfeited
        };
        outcomes.push(WithdrawalOutcome {
            id: w.id.clone(),
            from_round: w.from_round,
            played: played[i],
            due,
            rule,
            forfeits: 0,
        });
    }
    let kept: Vec<usize> = (0..n).filter(|i| !annulled.contains(i)).collect();
    let keep_id = |id: &String| m.index.get(id).is_none_or(|i| !annulled.contains(i));
    let mut out = s.clone();
    out.withdrawn = Vec::new();
    out.players = kept.iter().map(|&i| s.players[i].clone()).collect();
    out.games.retain(|g| keep_id(&g.white) && keep_id(&g.black));
    out.excluded_from_points.retain(keep_id);
    if let Some(order) = out.lots_order.as_mut() {
        order.retain(keep_id);
    }
    for r in &mut out.rights {
        if let super::scenario::Right::Qualification { prequalified, .. } = r {
            prequalified.retain(keep_id);
        }
    }
    // the games still due, each in a round of its own after every round of the scenario (so
    // nobody plays twice in a round and the cross table lists them last)
    let mut round = s.games.iter().map(|g| g.round).max().unwrap_or(0).max(due);
    let forfeit_set: HashSet<usize> = forfeiting.iter().copied().collect();
    let mut done: HashSet<(usize, usize)> = HashSet::new();
    for &w in &forfeiting {
        let mut given = 0;
        for &j in &kept {
            if j == w || done.contains(&(j.min(w), j.max(w))) {
                continue;
            }
            done.insert((j.min(w), j.max(w)));
            for _ in met[w][j]..cycles {
                round += 1;
                // between two withdrawn players both lose
                let result = if forfeit_set.contains(&j) {
                    "-/-"
                } else {
                    "-/+"
                };
                out.games.push(RoundRobinGame {
                    round,
                    white: m.ids[w].clone(),
                    black: m.ids[j].clone(),
                    result: Some(result.into()),
                    termination: None,
                    moves: None,
                });
                given += u32::from(result == "-/+");
            }
        }
        if let Some(o) = outcomes.iter_mut().find(|o| o.id == m.ids[w]) {
            o.forfeits = given;
        }
    }
    Ok(Some(Applied {
        scenario: out,
        kept,
        outcomes,
    }))
}
