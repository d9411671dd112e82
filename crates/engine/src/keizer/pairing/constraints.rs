//! The absolute pairing constraints of docs/rules/keizer.md#pairing-constraints: two players meet at most twice per season,
//! at most once per half, and a repeat needs at least five playing evenings strictly between
//! the two meetings. Shared by the pairing engine and the validation of hand-made pairings.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::{Half, Meeting};

/// The limits of docs/rules/keizer.md#pairing-constraints, configurable per competition (defaults from the club rules).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// Most meetings of two players in one season (default 2).
    pub max_per_season: u32,
    /// Most meetings of two players in one half (default 1).
    pub max_per_half: u32,
    /// Fewest playing evenings strictly between two meetings (default 5).
    pub min_evenings_between: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            max_per_season: 2,
            max_per_half: 1,
            min_evenings_between: 5,
        }
    }
}

/// Which constraint a pair would break.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PairingRule {
    /// They already met `max_per_season` times this season.
    SeasonLimit,
    /// They already met `max_per_half` times in this half.
    HalfLimit,
    /// Too few playing evenings between an earlier meeting and this evening.
    TooSoon,
    /// The competition forbids the pair (docs/rules/keizer.md#forbidden-pairs): never paired.
    Forbidden,
}

/// One broken constraint of one pair, with the earlier meetings that cause it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Broken {
    /// The rule broken.
    pub rule: PairingRule,
    /// Playing-evening indices of the earlier meetings that cause it.
    pub earlier_evenings: Vec<u32>,
}

/// Earlier meetings per unordered pair of ranking indices.
#[derive(Debug, Default)]
pub(crate) struct History {
    meetings: HashMap<(usize, usize), Vec<(u32, Half)>>,
    forbidden: HashSet<(usize, usize)>,
}

/// Playing evenings strictly between an `earlier` meeting and `evening`: `evening − earlier − 1`
/// (negative when the "earlier" meeting is not earlier).
fn evenings_between(earlier: u32, evening: u32) -> i64 {
    i64::from(evening) - i64::from(earlier) - 1
}

fn key(a: usize, b: usize) -> (usize, usize) {
    if a < b { (a, b) } else { (b, a) }
}

impl History {
    /// Indexes `meetings` by the players' indices (`index_of` returns `None` for players no
    /// longer in the ranking; their meetings cannot matter for this evening).
    pub(crate) fn new(meetings: &[Meeting], index_of: impl Fn(&str) -> Option<usize>) -> Self {
        let mut h = History::default();
        for m in meetings {
            if let (Some(a), Some(b)) = (index_of(&m.a), index_of(&m.b))
                && a != b
            {
                h.meetings
                    .entry(key(a, b))
                    .or_default()
                    .push((m.evening, m.half));
            }
        }
        h
    }

    /// Forbids the pair `a`–`b` on every evening.
    pub(crate) fn forbid(&mut self, a: usize, b: usize) {
        if a != b {
            self.forbidden.insert(key(a, b));
        }
    }

    /// Every constraint the pair `a`–`b` would break on evening `evening` of `half`.
    pub(crate) fn broken(
        &self,
        a: usize,
        b: usize,
        evening: u32,
        half: Half,
        rules: &Rules,
    ) -> Vec<Broken> {
        let mut out = Vec::new();
        if self.forbidden.contains(&key(a, b)) {
            out.push(Broken {
                rule: PairingRule::Forbidden,
                earlier_evenings: Vec::new(),
            });
        }
        let Some(list) = self.meetings.get(&key(a, b)) else {
            return out;
        };
        if list.len() >= rules.max_per_season as usize {
            out.push(Broken {
                rule: PairingRule::SeasonLimit,
                earlier_evenings: list.iter().map(|m| m.0).collect(),
            });
        }
        let same_half: Vec<u32> = list.iter().filter(|m| m.1 == half).map(|m| m.0).collect();
        if same_half.len() >= rules.max_per_half as usize {
            out.push(Broken {
                rule: PairingRule::HalfLimit,
                earlier_evenings: same_half,
            });
        }
        // "at least N playing evenings strictly between": evenings e+1 … evening−1 number
        // evening − e − 1, which must be ≥ N. A meeting recorded at or after this evening is
        // also too close (it cannot be earlier).
        let soon: Vec<u32> = list
            .iter()
            .filter(|m| evenings_between(m.0, evening) < i64::from(rules.min_evenings_between))
            .map(|m| m.0)
            .collect();
        if !soon.is_empty() {
            out.push(Broken {
                rule: PairingRule::TooSoon,
                earlier_evenings: soon,
            });
        }
        out
    }

    /// Whether `a` and `b` may meet on this evening (the same test as [`History::broken`]
    /// being empty, without building the report).
    pub(crate) fn allowed(&self, a: usize, b: usize, evening: u32, half: Half, r: &Rules) -> bool {
        if a == b || self.forbidden.contains(&key(a, b)) {
            return false;
        }
        let Some(list) = self.meetings.get(&key(a, b)) else {
            return true;
        };
        list.len() < r.max_per_season as usize
            && list.iter().filter(|m| m.1 == half).count() < r.max_per_half as usize
            && list
                .iter()
                .all(|m| evenings_between(m.0, evening) >= i64::from(r.min_evenings_between))
    }
}
