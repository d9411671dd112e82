//! Round robins and the Dutch draughts championship (docs/rules/rapid-blitz.md#tie-breaks, docs/rules/draughts-championship.md#scoring-2-1-0-plusremise-and-minremise).
//!
//! - [`schedule()`] / [`berger_table`]: FIDE Berger schedules, single or multiple cycles.
//! - [`convert_result`]: result codes and the draughts 40-move rule for agreed draws.
//! - [`compute_round_robin`]: standings with an ordered tie-break list, points tables and prize money
//!   shared among equal points, rights, and the cross table — the calculator behind
//!   `clubcomp calc round-robin` (format: `docs/formats/round-robin-scenario.md`).
//!
//! Everything is pure and exact: scores are integers (draughts points, chess half-points),
//! shared amounts exact rationals, and lots come from a seed passed in.
//!
//! # Round robin
//!
//! The worked championship of the rules book (`docs/rules/draughts-championship.md`): an
//! agreed draw before move 40 is lost for both, Arie is placed above Cees by their mutual
//! result, and the two share the master points and prize money of places 2 and 3.
//!
//! ```
//! use clubcomp_engine::round_robin::{Scenario, compute_round_robin};
//!
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/formats/examples/draughts-championship.json");
//! let s: Scenario = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
//! let out = compute_round_robin(&s).unwrap();
//! let rows: Vec<(&str, u32, String, &str, &str)> = out
//!     .standings
//!     .iter()
//!     .map(|r| {
//!         let master = r.points_tables.get("master").unwrap().as_str();
//!         (r.id.as_str(), r.place, r.points.to_string(), master, r.prize_money.as_str())
//!     })
//!     .collect();
//! assert_eq!(
//!     rows,
//!     [
//!         ("bert", 1, "4".to_string(), "5", "1000"),
//!         ("arie", 2, "3".to_string(), "3.5", "500"),
//!         ("cees", 3, "3".to_string(), "3.5", "500"),
//!         ("dick", 4, "0".to_string(), "2", "200"),
//!     ]
//! );
//! assert_eq!(out.standings[1].decided_by.map(|d| d.name()), Some("mutual"));
//! ```

// The public API of this module.
pub use result::AGREED_DRAW_MIN_MOVES;

mod cross;
mod model;
pub(crate) mod result;
pub(crate) mod scenario;
pub(crate) mod schedule;
mod shares;
mod standings;
pub(crate) mod withdrawal;

#[cfg(test)]
mod tests;

pub use result::{
    Conversion, ResultError, RoundRobinResult, SideOutcome, Termination, convert_result,
};
pub use scenario::{
    OrderedMap, PointsTable, Right, RoundRobinGame, RoundRobinOutput, RoundRobinPlayer,
    RoundRobinTiebreak, Row, Scenario, Separator, Withdrawal, WithdrawalOutcome, WithdrawalRule,
    default_tiebreaks,
};
pub use schedule::{RoundRobinBoard, ScheduleError, ScheduledRound, berger_table, schedule};
pub use shares::format_amount;

use model::Model;
use num_rational::Ratio;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;

/// Why a scenario cannot be computed. Every variant names the offending item.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RoundRobinError {
    /// The scenario has no players.
    #[error("players: the list is empty")]
    NoPlayers,
    /// A player without an id.
    #[error("players: player number {number} has an empty id")]
    EmptyId {
        /// Pairing number (1-based).
        number: usize,
    },
    /// Two players with the same id.
    #[error("players: id `{0}` is used twice")]
    DuplicatePlayer(String),
    /// A game names a player who is not in the list.
    #[error("game {game}: unknown player `{id}`")]
    UnknownPlayer {
        /// The game.
        game: String,
        /// The unknown id.
        id: String,
    },
    /// A game of a player against himself.
    #[error("game {game}: a player cannot play himself")]
    SelfPairing {
        /// The game.
        game: String,
    },
    /// Round 0.
    #[error("game {game}: rounds are numbered from 1")]
    BadRound {
        /// The game.
        game: String,
    },
    /// A bad result.
    #[error("game {game}: {source}")]
    Result {
        /// The game.
        game: String,
        /// What is wrong with the result.
        source: ResultError,
    },
    /// A player with two games in one round.
    #[error("games: player `{player}` plays twice in round {round}")]
    PlaysTwice {
        /// The player.
        player: String,
        /// The round.
        round: u32,
    },
    /// A tie-break listed twice.
    #[error("tiebreaks: `{0}` is listed twice")]
    DuplicateTiebreak(String),
    /// Players still tied when `lots` is reached, and no drawing given.
    #[error(
        "tiebreaks: players {0:?} are still tied when `lots` is reached; give `lots_seed` or \
         `lots_order`"
    )]
    LotsWithoutDrawing(Vec<String>),
    /// Both a seed and a hand drawing.
    #[error("lots: give `lots_seed` or `lots_order`, not both")]
    LotsTwice,
    /// Players tied up to the lots but missing from the hand drawing.
    #[error("lots_order: players {0:?} are tied up to the lots but not in the drawing")]
    NotDrawn(Vec<String>),
    /// An id that is not a player.
    #[error("{field}: unknown player `{id}`")]
    UnknownId {
        /// The field.
        field: String,
        /// The id.
        id: String,
    },
    /// An id listed twice.
    #[error("{field}: player `{id}` is listed twice")]
    DuplicateId {
        /// The field.
        field: String,
        /// The id.
        id: String,
    },
    /// An amount that is negative or has more than 4 decimals.
    #[error("{field}: `{value}` is not a non-negative amount with at most 4 decimals")]
    BadAmount {
        /// The field.
        field: String,
        /// The value as given.
        value: String,
    },
    /// A withdrawal that cannot be applied.
    #[error("withdrawn: player `{id}` {reason}")]
    Withdrawal {
        /// The player.
        id: String,
        /// What is wrong.
        reason: String,
    },
    /// A number of cycles out of range.
    #[error("cycles: must be from 1 to 10, not {0}")]
    BadCycles(u32),
    /// Two points tables with the same name.
    #[error("points_tables: `{0}` is listed twice")]
    DuplicateTable(String),
}

/// A number of units (`per` units to the point) as an exact JSON number: an integer, or a
/// decimal with halves/quarters (which a binary float holds exactly).
pub(crate) fn units_number(units: i64, per: i64) -> serde_json::Number {
    let r = Ratio::new(units, per);
    if r.is_integer() {
        serde_json::Number::from(r.to_integer())
    } else {
        // chess: halves and quarters only, exact in binary floating point
        serde_json::Number::from_f64(*r.numer() as f64 / *r.denom() as f64)
            .unwrap_or_else(|| serde_json::Number::from(0))
    }
}

/// Checks that every id of `list` is a player, once.
fn check_ids(m: &Model, field: &str, list: &[String]) -> Result<Vec<usize>, RoundRobinError> {
    let mut seen = HashSet::new();
    list.iter()
        .map(|id| {
            let i = *m.index.get(id).ok_or_else(|| RoundRobinError::UnknownId {
                field: field.to_string(),
                id: id.clone(),
            })?;
            if !seen.insert(i) {
                return Err(RoundRobinError::DuplicateId {
                    field: field.to_string(),
                    id: id.clone(),
                });
            }
            Ok(i)
        })
        .collect()
}

/// Lot numbers from the scenario: the seed shuffles all ids sorted (byte order) with
/// ChaCha8 (so the drawing does not depend on the order of the input); a hand drawing numbers
/// the listed players in order.
fn draw_lots(m: &Model, s: &Scenario) -> Result<Option<standings::Lots>, RoundRobinError> {
    match (&s.lots_seed, &s.lots_order) {
        (Some(_), Some(_)) => Err(RoundRobinError::LotsTwice),
        (None, None) => Ok(None),
        (Some(seed), None) => {
            let mut ids: Vec<usize> = (0..m.len()).collect();
            ids.sort_by(|&a, &b| m.ids[a].cmp(&m.ids[b]));
            let mut rng = ChaCha8Rng::seed_from_u64(*seed);
            ids.shuffle(&mut rng);
            let mut lots = vec![None; m.len()];
            for (k, &p) in ids.iter().enumerate() {
                lots[p] = Some(k as u32 + 1);
            }
            Ok(Some(lots))
        }
        (None, Some(order)) => {
            let idx = check_ids(m, "lots_order", order)?;
            let mut lots = vec![None; m.len()];
            for (k, &p) in idx.iter().enumerate() {
                lots[p] = Some(k as u32 + 1);
            }
            Ok(Some(lots))
        }
    }
}

/// Computes the standings, shares, rights and cross table of a round robin, with the
/// withdrawal rule of docs/rules/draughts-championship.md#withdrawal applied first.
pub fn compute_round_robin(s: &Scenario) -> Result<RoundRobinOutput, RoundRobinError> {
    let Some(applied) = withdrawal::apply(s)? else {
        return compute_plain(s);
    };
    let mut out = compute_plain(&applied.scenario)?;
    for row in &mut out.standings {
        row.withdrawn_from = applied
            .outcomes
            .iter()
            .find(|o| o.id == row.id)
            .map(|o| o.from_round);
    }
    // the cross table keeps the pairing numbers of the scenario: annulled lines stay empty
    let n = s.players.len();
    let mut full = vec![vec![String::new(); n]; n];
    for (a, &i) in applied.kept.iter().enumerate() {
        for (b, &j) in applied.kept.iter().enumerate() {
            full[i][j] = std::mem::take(&mut out.cross_table[a][b]);
        }
    }
    out.cross_table = full;
    out.withdrawals = applied.outcomes;
    Ok(out)
}

fn compute_plain(s: &Scenario) -> Result<RoundRobinOutput, RoundRobinError> {
    let m = Model::build(s)?;
    let tiebreaks = s
        .tiebreaks
        .clone()
        .unwrap_or_else(|| default_tiebreaks(s.discipline));
    let mut seen = HashSet::new();
    for tb in &tiebreaks {
        if !seen.insert(*tb) {
            return Err(RoundRobinError::DuplicateTiebreak(tb.name().to_string()));
        }
    }
    // a drawing is needed only when a tie reaches `lots` (checked while ranking)
    let lots = draw_lots(&m, s)?;
    let ranking = standings::rank(&m, &tiebreaks, lots.as_ref())?;

    // points tables: places counted without the excluded players (docs/rules/draughts-championship.md#master-points)
    let excluded = check_ids(&m, "excluded_from_points", &s.excluded_from_points)?;
    let mut eligible = vec![true; m.len()];
    for p in excluded {
        eligible[p] = false;
    }
    let points: Vec<i64> = m.tally.iter().map(|t| t.points).collect();
    let mut names = HashSet::new();
    let mut tables = Vec::with_capacity(s.points_tables.len());
    for t in &s.points_tables {
        if !names.insert(t.name.clone()) {
            return Err(RoundRobinError::DuplicateTable(t.name.clone()));
        }
        let field = format!("points_tables.{}", t.name);
        let by_place = t
            .by_place
            .iter()
            .map(|n| shares::parse_amount(&field, n))
            .collect::<Result<Vec<_>, _>>()?;
        tables.push((
            t.name.clone(),
            shares::share(&ranking.order, &points, &eligible, &by_place),
        ));
    }
    // prize money: every player counts for the places (docs/rules/draughts-championship.md#master-points names the guest only for
    // the (grand)master points)
    let money = s
        .prize_money
        .iter()
        .map(|n| shares::parse_amount("prize_money", n))
        .collect::<Result<Vec<_>, _>>()?;
    let money = shares::share(&ranking.order, &points, &vec![true; m.len()], &money);
    let rights = rights(&m, s, &ranking)?;

    let upp = m.units_per_point();
    let standings = ranking
        .order
        .iter()
        .enumerate()
        .map(|(pos, &p)| {
            let t = &m.tally[p];
            Row {
                place: ranking.part_start[pos] as u32 + 1,
                shared_with: ranking.shared_with[pos].clone(),
                id: m.ids[p].clone(),
                points: units_number(t.points, upp),
                games: t.games,
                wins: t.wins,
                draws: t.draws,
                losses: t.losses,
                plusremises: t.plus,
                minremises: t.minus,
                tiebreaks: OrderedMap(ranking.shown[p].clone()),
                decided_by: ranking.decided_by[pos],
                points_tables: OrderedMap(
                    tables
                        .iter()
                        .map(|(name, v)| (name.clone(), format_amount(&v[p])))
                        .collect(),
                ),
                prize_money: format_amount(&money[p]),
                rights: rights[p].clone(),
                withdrawn_from: None,
            }
        })
        .collect();
    Ok(RoundRobinOutput {
        standings,
        cross_table: cross::cross_table(&m),
        withdrawals: Vec::new(),
    })
}

/// The rights of every player (by index), in the order of the scenario's `rights`.
///
/// Places are those of the standings (players still tied share their highest place). Title
/// and cut: place ≤ `places`. Qualification: a player who is not pre-qualified qualifies when
/// fewer than `slots` non-pre-qualified players have a better place.
fn rights(
    m: &Model,
    s: &Scenario,
    r: &standings::Ranking,
) -> Result<Vec<Vec<String>>, RoundRobinError> {
    let mut place = vec![0usize; m.len()];
    for (pos, &p) in r.order.iter().enumerate() {
        place[p] = r.part_start[pos] + 1;
    }
    let mut out = vec![Vec::new(); m.len()];
    for right in &s.rights {
        match right {
            Right::Title { name, places } => {
                for p in 0..m.len() {
                    if place[p] <= *places as usize {
                        out[p].push(name.clone());
                    }
                }
            }
            Right::Cut {
                name,
                places,
                others,
            } => {
                for p in 0..m.len() {
                    if place[p] <= *places as usize {
                        out[p].push(name.clone());
                    } else if let Some(o) = others {
                        out[p].push(o.clone());
                    }
                }
            }
            Right::Qualification {
                name,
                slots,
                prequalified,
            } => {
                let pre = check_ids(m, &format!("rights.{name}.prequalified"), prequalified)?;
                let candidates: Vec<usize> = (0..m.len()).filter(|p| !pre.contains(p)).collect();
                for &p in &candidates {
                    let better = candidates.iter().filter(|&&q| place[q] < place[p]).count();
                    if better < *slots as usize {
                        out[p].push(name.clone());
                    }
                }
            }
        }
    }
    Ok(out)
}
