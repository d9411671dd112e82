//! Validation of a hand-made pairing (docs/rules/keizer.md#pairing: "the leader may enter pairings by hand
//! (validated, with the override recorded)"). Every problem is reported, each naming the
//! pair or player, the rule and the earlier evenings involved.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::{
    PairingInput, PairingRule, PlayerId, bye_candidates, cardinality, check_unique, history_of,
    pairing_order,
};

/// One board of a hand-made pairing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandBoard {
    /// White player.
    pub white: PlayerId,
    /// Black player.
    pub black: PlayerId,
}

/// A hand-made pairing to validate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandPairing {
    /// The boards.
    pub boards: Vec<HandBoard>,
    /// The player given the bye, if any.
    #[serde(default)]
    pub bye: Option<PlayerId>,
}

/// One problem of a hand-made pairing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "violation", rename_all = "snake_case")]
pub enum Violation {
    /// The ranking names a player twice.
    #[error("player {player} appears twice in the ranking")]
    DuplicateInRanking {
        /// The player.
        player: PlayerId,
    },
    /// A board breaks an absolute constraint.
    #[error(
        "board {board} ({white}–{black}): {}",
        broken_rule_text(*.rule, .earlier_evenings)
    )]
    Constraint {
        /// 1-based board number in the hand-made list.
        board: usize,
        /// White player.
        white: PlayerId,
        /// Black player.
        black: PlayerId,
        /// The rule broken.
        rule: PairingRule,
        /// The earlier meetings that cause it.
        earlier_evenings: Vec<u32>,
    },
    /// A player is paired against themself.
    #[error("board {board}: {player} is paired against themself")]
    SelfPairing {
        /// Board number.
        board: usize,
        /// The player.
        player: PlayerId,
    },
    /// A player not in the ranking.
    #[error("{player} is not in the ranking")]
    UnknownPlayer {
        /// The player.
        player: PlayerId,
    },
    /// A player who is not present (signed off, or flexible and not signed up).
    #[error("{player} is paired but not present")]
    NotPresent {
        /// The player.
        player: PlayerId,
    },
    /// A player appears more than once (on boards or as the bye).
    #[error("{player} is paired more than once")]
    PairedTwice {
        /// The player.
        player: PlayerId,
    },
    /// A present player is neither on a board nor the bye.
    #[error("{player} is present but not paired")]
    NotPaired {
        /// The player.
        player: PlayerId,
    },
    /// A bye on an evening with an even number present.
    #[error("bye to {player} although an even number of players is present")]
    ByeNotNeeded {
        /// The player.
        player: PlayerId,
    },
    /// The bye went to a player who is not eligible while others are.
    #[error("bye to {player}, who is not eligible; eligible: {eligible:?}")]
    ByeNotEligible {
        /// The player.
        player: PlayerId,
        /// The eligible players (decision, docs/rules/keizer.md#pairing).
        eligible: Vec<PlayerId>,
    },
}

/// The broken rule of a board in words, with the earlier meetings that cause it (evenings as
/// playing-evening numbers).
fn broken_rule_text(rule: PairingRule, earlier: &[u32]) -> String {
    let what = match rule {
        PairingRule::SeasonLimit => "they already met as often as a season allows",
        PairingRule::HalfLimit => "they already met as often as a half allows",
        PairingRule::TooSoon => "too few evenings since they last met",
        PairingRule::Forbidden => "the competition forbids this pair (forbidden pairs)",
    };
    if earlier.is_empty() {
        return what.to_string();
    }
    if let [one] = earlier {
        return format!("{what}; an earlier meeting on evening {one}");
    }
    let list: Vec<String> = earlier.iter().map(u32::to_string).collect();
    format!("{what}; earlier meetings on evenings {}", list.join(", "))
}

/// Every problem of the hand-made `pairing` for the evening described by `input`; empty
/// when the pairing is valid.
pub fn validate_pairing(input: &PairingInput, pairing: &HandPairing) -> Vec<Violation> {
    let mut out = Vec::new();
    if let Err(super::PairingError::DuplicatePlayer { player }) = check_unique(&input.ranking) {
        out.push(Violation::DuplicateInRanking { player });
        return out;
    }
    let index: HashMap<&str, usize> = input
        .ranking
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id.as_str(), i))
        .collect();
    let history = history_of(input);
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut note = |id: &PlayerId, out: &mut Vec<Violation>| {
        let Some(&i) = index.get(id.as_str()) else {
            out.push(Violation::UnknownPlayer { player: id.clone() });
            return None;
        };
        let c = seen.entry(input.ranking[i].id.as_str()).or_insert(0);
        *c += 1;
        if *c == 2 {
            out.push(Violation::PairedTwice { player: id.clone() });
        }
        if !input.ranking[i].present {
            out.push(Violation::NotPresent { player: id.clone() });
        }
        Some(i)
    };
    for (k, b) in pairing.boards.iter().enumerate() {
        let board = k + 1;
        if b.white == b.black {
            out.push(Violation::SelfPairing {
                board,
                player: b.white.clone(),
            });
            continue;
        }
        let w = note(&b.white, &mut out);
        let bl = note(&b.black, &mut out);
        if let (Some(w), Some(bl)) = (w, bl) {
            for br in history.broken(w, bl, input.evening, input.half, &input.rules) {
                out.push(Violation::Constraint {
                    board,
                    white: b.white.clone(),
                    black: b.black.clone(),
                    rule: br.rule,
                    earlier_evenings: br.earlier_evenings,
                });
            }
        }
    }
    if let Some(bye) = &pairing.bye {
        note(bye, &mut out);
    }
    for p in input.ranking.iter().filter(|p| p.present) {
        if !seen.contains_key(p.id.as_str()) {
            out.push(Violation::NotPaired {
                player: p.id.clone(),
            });
        }
    }
    if let Some(bye) = &pairing.bye
        && let Some(&bi) = index.get(bye.as_str())
        && input.ranking[bi].present
    {
        let order = pairing_order(&input.ranking);
        if order.len().is_multiple_of(2) {
            out.push(Violation::ByeNotNeeded {
                player: bye.clone(),
            });
        } else {
            let adj = super::allowed_graph(input, &history, &order);
            let dec = cardinality::decompose(&adj);
            let (cands, _, _) = bye_candidates(&input.ranking, &order, &dec.missable);
            if !cands.iter().any(|&v| order[v] == bi) {
                out.push(Violation::ByeNotEligible {
                    player: bye.clone(),
                    eligible: cands
                        .iter()
                        .map(|&v| input.ranking[order[v]].id.clone())
                        .collect(),
                });
            }
        }
    }
    out
}
