//! Keizer pairing of one evening (docs/rules/keizer.md#pairing): who is paired, in which order, who gets the
//! bye, the optimal pairing under the season's absolute constraints, colours and boards;
//! plus the validation of a hand-made pairing.
//!
//! Entry points for the service: [`pair_evening`] and [`validate_pairing`]. Both are pure:
//! the bye draw uses only the seed in the input (ChaCha8), so the same input gives the same
//! pairing.

mod constraints;
mod optimal;
#[cfg(test)]
mod tests;
mod validate;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

pub use constraints::{Broken, PairingRule, Rules};
pub use validate::{HandBoard, HandPairing, Violation, validate_pairing};

use crate::keizer::entry::insert_entrant;
use crate::matching::cardinality;
use constraints::History;

/// Identifier of a player (as the service stores it, in text form).
pub type PlayerId = String;

pub use crate::vocab::{Colour, Half};

/// One player of the current ranking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RankedPlayer {
    /// The player's id.
    pub id: PlayerId,
    /// Rating used to place a first-time flexible player (docs/rules/keizer.md#entrants).
    #[serde(default)]
    pub rating: Option<i32>,
    /// Paired this evening: a fixed player not signed off, or a flexible player who signed up.
    pub present: bool,
    /// A flexible player who turns up for the first time (placed by rating, docs/rules/keizer.md#pairing).
    #[serde(default)]
    pub first_time: bool,
    /// Colours of this season's Keizer games over the board, both halves, oldest first
    /// (`"W"`, `"B"` in JSON).
    #[serde(default, with = "crate::vocab::colour_letters")]
    pub colours: Vec<Colour>,
    /// Pairing byes this player already had in the current half.
    #[serde(default)]
    pub byes_this_half: u32,
}

/// One earlier meeting of two players this season.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Meeting {
    /// One player.
    pub a: PlayerId,
    /// The other player.
    pub b: PlayerId,
    /// Season-wide playing-evening index of the meeting.
    pub evening: u32,
    /// The half it was played in.
    pub half: Half,
}

/// Everything the pairing of one evening depends on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairingInput {
    /// Season-wide playing-evening index of the evening to pair.
    pub evening: u32,
    /// The half the evening belongs to.
    pub half: Half,
    /// Seed of the bye draw (stored with the pairing so the draw can be reproduced).
    #[serde(default)]
    pub bye_seed: u64,
    /// The current ranking, best first, absent players included.
    pub ranking: Vec<RankedPlayer>,
    /// This season's earlier meetings (both halves).
    #[serde(default)]
    pub history: Vec<Meeting>,
    /// The constraint limits (club defaults when omitted).
    #[serde(default)]
    pub rules: Rules,
    /// Pairs of players who are never paired against each other, an absolute constraint
    /// next to the limits (docs/rules/keizer.md#forbidden-pairs); a pair naming a player not
    /// in the ranking constrains nothing.
    #[serde(default)]
    pub forbidden: Vec<(PlayerId, PlayerId)>,
}

/// One board of the pairing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeizerBoard {
    /// Board number, 1 for the pair holding the highest-placed player.
    pub board: u32,
    /// White player.
    pub white: PlayerId,
    /// Black player.
    pub black: PlayerId,
    /// White's position in the paired list (1-based, bye excluded).
    pub white_position: u32,
    /// Black's position in the paired list.
    pub black_position: u32,
}

/// The auditable bye draw (decision, docs/rules/keizer.md#byes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ByeDraw {
    /// The player who gets the bye.
    pub player: PlayerId,
    /// The board number of the bye (after the last board).
    pub board: u32,
    /// The seed of the draw.
    pub seed: u64,
    /// The candidates in pairing order; the draw picks index `index` of this list.
    pub candidates: Vec<PlayerId>,
    /// Index of the chosen candidate.
    pub index: usize,
    /// Players passed over because the rest could not be paired without them.
    pub excluded_unpairable: Vec<PlayerId>,
    /// Players passed over because they had more byes this half than the candidates.
    pub excluded_earlier_bye: Vec<PlayerId>,
}

/// The pairing of one evening.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeizerPairing {
    /// The present players in pairing order (first-time flexible players inserted).
    pub order: Vec<PlayerId>,
    /// The boards, from the pair holding the highest-placed player down.
    pub boards: Vec<KeizerBoard>,
    /// The bye, when the number present is odd.
    pub bye: Option<ByeDraw>,
    /// Sum of squared position differences of the boards (the minimised cost).
    pub cost: i64,
}

/// Why no pairing could be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum PairingError {
    /// A player appears twice in the ranking.
    #[error("player {player} appears twice in the ranking")]
    DuplicatePlayer {
        /// The player.
        player: PlayerId,
    },
    /// No pairing satisfies the constraints.
    #[error("{}", describe_no_pairing(*short, unpaired, isolated, groups, barrier))]
    NoPairing {
        /// How many players stay unpaired at best (beyond the one bye on an odd evening).
        short: usize,
        /// Players left unpaired by one best-possible partial pairing.
        unpaired: Vec<PlayerId>,
        /// Players who may meet nobody present.
        isolated: Vec<PlayerId>,
        /// Groups of players (Gallai–Edmonds odd components) each of which needs a partner
        /// from `barrier`; there are more groups than barrier players.
        groups: Vec<Vec<PlayerId>>,
        /// The players every group must draw on (a Tutte–Berge barrier; may be empty).
        barrier: Vec<PlayerId>,
    },
}

/// The leader-facing text of [`PairingError::NoPairing`].
fn describe_no_pairing(
    short: usize,
    unpaired: &[PlayerId],
    isolated: &[PlayerId],
    groups: &[Vec<PlayerId>],
    barrier: &[PlayerId],
) -> String {
    let mut s = format!(
        "no pairing satisfies the constraints: at least {short} player(s) stay unpaired \
         (in a best partial pairing: {})",
        unpaired.join(", ")
    );
    if !isolated.is_empty() {
        s += &format!("; may meet nobody present: {}", isolated.join(", "));
    }
    let big: Vec<String> = groups
        .iter()
        .filter(|g| !(g.len() == 1 && isolated.contains(&g[0])))
        .map(|g| format!("{{{}}}", g.join(", ")))
        .collect();
    if !big.is_empty() && !barrier.is_empty() {
        s += &format!(
            "; the groups {} can each be completed only with one of {} ({} for {} groups)",
            big.join(", "),
            barrier.join(", "),
            barrier.len(),
            groups.len()
        );
    }
    s
}

/// The present players in pairing order (docs/rules/keizer.md#pairing): the ranking order, with first-time
/// flexible players taken out and inserted one by one, in ranking order, by the entrant rule
/// of docs/rules/keizer.md#entrants. **Decision**: they are inserted into the whole ranking (absent players
/// included, as "the ranked player with the smallest rating difference" need not be present)
/// and the present players are then read off in that order.
pub fn pairing_order(ranking: &[RankedPlayer]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..ranking.len())
        .filter(|&i| !(ranking[i].first_time && ranking[i].present))
        .collect();
    for i in 0..ranking.len() {
        if ranking[i].first_time && ranking[i].present {
            insert_entrant(&mut order, i, |&j| ranking[j].rating);
        }
    }
    order.retain(|&i| ranking[i].present);
    order
}

fn surplus(c: &[Colour]) -> i64 {
    c.iter()
        .map(|c| if *c == Colour::White { 1 } else { -1 })
        .sum()
}

/// Colours of a pair (decision, docs/rules/keizer.md#colours): the smaller surplus of whites over blacks gets
/// white; else the one who had black in the last game, if only one did; else the higher in
/// pairing order (`high`). Returns whether `high` gets white.
pub fn high_gets_white(high: &RankedPlayer, low: &RankedPlayer) -> bool {
    let (sh, sl) = (surplus(&high.colours), surplus(&low.colours));
    if sh != sl {
        return sh < sl;
    }
    let hb = high.colours.last() == Some(&Colour::Black);
    let lb = low.colours.last() == Some(&Colour::Black);
    if hb != lb { hb } else { true }
}

fn check_unique(ranking: &[RankedPlayer]) -> Result<(), PairingError> {
    let mut seen = std::collections::HashSet::new();
    for p in ranking {
        if !seen.insert(p.id.as_str()) {
            return Err(PairingError::DuplicatePlayer {
                player: p.id.clone(),
            });
        }
    }
    Ok(())
}

fn history_of(input: &PairingInput) -> History {
    let index: std::collections::HashMap<&str, usize> = input
        .ranking
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id.as_str(), i))
        .collect();
    let mut h = History::new(&input.history, |id| index.get(id).copied());
    for (a, b) in &input.forbidden {
        if let (Some(&a), Some(&b)) = (index.get(a.as_str()), index.get(b.as_str())) {
            h.forbid(a, b);
        }
    }
    h
}

/// Adjacency lists over the players `order` (ranking indices) of the allowed pairs.
fn allowed_graph(input: &PairingInput, history: &History, order: &[usize]) -> Vec<Vec<usize>> {
    let n = order.len();
    let mut adj = vec![Vec::new(); n];
    for a in 0..n {
        for b in a + 1..n {
            if history.allowed(order[a], order[b], input.evening, input.half, &input.rules) {
                adj[a].push(b);
                adj[b].push(a);
            }
        }
    }
    adj
}

fn no_pairing(
    input: &PairingInput,
    order: &[usize],
    adj: &[Vec<usize>],
    d: &cardinality::Decomposition,
) -> PairingError {
    let id = |v: usize| input.ranking[order[v]].id.clone();
    let unpaired: Vec<usize> = (0..order.len()).filter(|&v| d.mate[v].is_none()).collect();
    PairingError::NoPairing {
        short: unpaired.len() - order.len() % 2,
        unpaired: unpaired.iter().map(|&v| id(v)).collect(),
        isolated: (0..order.len())
            .filter(|&v| adj[v].is_empty())
            .map(id)
            .collect(),
        groups: d
            .odd_groups
            .iter()
            .map(|g| g.iter().map(|&v| id(v)).collect())
            .collect(),
        barrier: d.barrier.iter().map(|&v| id(v)).collect(),
    }
}

/// Who may get the bye (decision, docs/rules/keizer.md#byes), as positions in `order`: players whose absence
/// leaves a pairable rest (the Gallai–Edmonds set `D`), and among those the ones with the
/// fewest byes this half (so nobody gets a second bye while someone without one is eligible).
/// Returns `(candidates, excluded_unpairable, excluded_earlier_bye)`.
pub(crate) fn bye_candidates(
    ranking: &[RankedPlayer],
    order: &[usize],
    missable: &[bool],
) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
    let fewest = (0..order.len())
        .filter(|&v| missable[v])
        .map(|v| ranking[order[v]].byes_this_half)
        .min()
        .unwrap_or(0);
    let mut cands = Vec::new();
    let mut unpairable = Vec::new();
    let mut earlier = Vec::new();
    for v in 0..order.len() {
        if !missable[v] {
            unpairable.push(v);
        } else if ranking[order[v]].byes_this_half > fewest {
            earlier.push(v);
        } else {
            cands.push(v);
        }
    }
    (cands, unpairable, earlier)
}

/// Pairs one Keizer evening (docs/rules/keizer.md#pairing).
///
/// Steps: pairing order ([`pairing_order`]); on an odd count a random bye among the eligible
/// ([`ByeDraw`]); the minimum-cost perfect matching under the constraints with the
/// lexicographic tie-break; colours ([`high_gets_white`]); boards from the top pair down,
/// the bye last.
pub fn pair_evening(input: &PairingInput) -> Result<KeizerPairing, PairingError> {
    check_unique(&input.ranking)?;
    let history = history_of(input);
    let mut order = pairing_order(&input.ranking);
    let adj = allowed_graph(input, &history, &order);
    let dec = cardinality::decompose(&adj);
    let matched = dec.mate.iter().filter(|m| m.is_some()).count();
    if matched + order.len() % 2 < order.len() {
        return Err(no_pairing(input, &order, &adj, &dec));
    }
    let full_order: Vec<PlayerId> = order.iter().map(|&i| input.ranking[i].id.clone()).collect();
    let mut bye = None;
    if order.len() % 2 == 1 {
        let (cands, unpairable, earlier) = bye_candidates(&input.ranking, &order, &dec.missable);
        if cands.is_empty() {
            // cannot happen: a near-perfect maximum matching leaves someone out
            return Err(no_pairing(input, &order, &adj, &dec));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(input.bye_seed);
        // drawn as a u32 so the draw is the same on every platform (documented for audits)
        let index = rng.random_range(0..cands.len() as u32) as usize;
        let chosen = cands[index];
        let ids = |v: &Vec<usize>| -> Vec<PlayerId> {
            v.iter()
                .map(|&p| input.ranking[order[p]].id.clone())
                .collect()
        };
        bye = Some(ByeDraw {
            player: input.ranking[order[chosen]].id.clone(),
            board: (order.len() / 2 + 1) as u32,
            seed: input.bye_seed,
            candidates: ids(&cands),
            index,
            excluded_unpairable: ids(&unpairable),
            excluded_earlier_bye: ids(&earlier),
        });
        order.remove(chosen);
    }
    let n = order.len();
    let mut allowed = vec![vec![false; n]; n];
    for (a, row) in allowed.iter_mut().enumerate() {
        for (b, cell) in row.iter_mut().enumerate() {
            *cell = history.allowed(order[a], order[b], input.evening, input.half, &input.rules);
        }
    }
    let Some(opt) = optimal::min_cost_lex(&allowed) else {
        // Cannot happen after the cardinality check; report it the same way, on the
        // players actually to be paired (the bye taken out).
        let adj = allowed_graph(input, &history, &order);
        let dec = cardinality::decompose(&adj);
        return Err(no_pairing(input, &order, &adj, &dec));
    };
    let mut boards = Vec::with_capacity(n / 2);
    for i in 0..n {
        let j = opt.mate[i];
        if i < j {
            let (hp, lp) = (&input.ranking[order[i]], &input.ranking[order[j]]);
            let (w, b) = if high_gets_white(hp, lp) {
                (i, j)
            } else {
                (j, i)
            };
            boards.push(KeizerBoard {
                board: boards.len() as u32 + 1,
                white: input.ranking[order[w]].id.clone(),
                black: input.ranking[order[b]].id.clone(),
                white_position: w as u32 + 1,
                black_position: b as u32 + 1,
            });
        }
    }
    Ok(KeizerPairing {
        order: full_order,
        boards,
        bye,
        cost: opt.cost,
    })
}
