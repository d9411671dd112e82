//! Keizer standings (docs/rules/keizer.md#recalculation): the value ladder, the points of every result, and the
//! recalculation per evening until the ranking settles or cycles.
//!
//! Pure: a [`Competition`] (one season half) goes in, the standings after every evening come
//! out ([`compute_keizer`]). All points are exact [`Fixed`] ten-thousandths: a factor with at most four
//! decimals times an integer value is exact, and a cycle average is rounded once, halves away
//! from zero.
//!
//! Definitions used throughout (docs/rules/keizer.md#recalculation):
//! - R_0 is the ranking after the previous evening (the seed order for evening 1) with that
//!   evening's late entrants inserted by [`crate::keizer::entry`].
//! - Step i computes the scores S_i of ALL evenings so far from the values of R_i, and
//!   R_{i+1} = R_i stably sorted by S_i, best first.
//! - The first time R_{i+1} equals some R_j (j ≤ i) the iteration stops; j = i is a fixed point
//!   (`converged`), j < i a cycle of length i − j + 1.
//! - `iterations` = the number of rankings in R_0 … R_{i+1}, i.e. steps + 1.

pub mod fixed_serde;
mod iterate;
mod ledger;
#[cfg(test)]
mod tests;

use crate::fixed::Fixed;
use crate::keizer::entry::insert_entrant;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

pub use iterate::{MAX_STEPS, value_of_place};
use ledger::{Ledger, Tally};

/// Whether a player who withdrew can win a Keizer prize (docs/rules/keizer.md#withdrawal). The
/// club's rules name one condition for a prize, at most 50% absent without notice, and are
/// silent on withdrawal: the default is that literal reading.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WithdrawnPrizes {
    /// The 50% rule alone decides, as for every player (the evenings after the withdrawal are
    /// counted, never as absences without notice).
    #[default]
    Eligible,
    /// A withdrawn player is listed but wins no prize and takes no playoff place.
    Excluded,
}

impl WithdrawnPrizes {
    /// The setting's name in the competition's parameters.
    pub fn as_str(self) -> &'static str {
        match self {
            WithdrawnPrizes::Eligible => "eligible",
            WithdrawnPrizes::Excluded => "excluded",
        }
    }
}

/// Scoring parameters of one Keizer competition (docs/rules/keizer.md#scoring table); [`Default`] gives the club's
/// Sevilla settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Params {
    /// Value of rank 1.
    pub top_value: i64,
    /// Step down in value per rank.
    pub step: i64,
    /// Factor × opponent's value for a win.
    #[serde(with = "fixed_serde")]
    pub win: Fixed,
    /// Factor × opponent's value for a draw.
    #[serde(with = "fixed_serde")]
    pub draw: Fixed,
    /// Fixed points for a loss.
    #[serde(with = "fixed_serde")]
    pub loss: Fixed,
    /// Factor × own value for a pairing bye.
    #[serde(with = "fixed_serde")]
    pub bye: Fixed,
    /// Factor × own value for an excused absence (within the cap).
    #[serde(with = "fixed_serde")]
    pub excused: Fixed,
    /// How many excused absences per season score; later ones score 0.
    pub excused_cap: u32,
    /// Factor × own value for a forfeit win (the paired opponent did not show).
    #[serde(with = "fixed_serde")]
    pub forfeit_win: Fixed,
    /// Whether a withdrawn player can win a prize (docs/rules/keizer.md#withdrawal); by default
    /// the regulation's 50% rule alone decides.
    #[serde(default)]
    pub withdrawn_prizes: WithdrawnPrizes,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            top_value: 60,
            step: 1,
            win: Fixed::ONE,
            draw: Fixed(5_000),
            loss: Fixed::from_int(5),
            bye: Fixed::ONE,
            excused: Fixed(3_333),
            excused_cap: 5,
            forfeit_win: Fixed::ONE,
            withdrawn_prizes: WithdrawnPrizes::Eligible,
        }
    }
}

/// A player entered in the competition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// Stable id (e.g. `"p7"`).
    pub id: String,
    /// KNSB rating used to insert a late entrant; `None` when unrated.
    #[serde(default)]
    pub rating: Option<i32>,
    /// First evening (1-based) the player is part of the competition.
    #[serde(default = "one")]
    pub joins_at: u32,
    /// The first evening (1-based) the player no longer takes part after withdrawing
    /// (docs/rules/keizer.md#withdrawal): not listed from then on, not booked as absent; the
    /// results before it stand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawn_from: Option<u32>,
}

fn one() -> u32 {
    1
}

/// The result of one Keizer game, from the board's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KeizerResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `½-½`.
    Draw,
    /// `+/-`: black did not show (forfeit win for white, unexcused absence for black).
    WhiteForfeitWin,
    /// `-/+`: white did not show.
    BlackForfeitWin,
    /// `-/-`: neither showed; both absent without notice.
    DoubleForfeit,
    /// White lost by an arbiter's decision (e.g. a phone sounded): scored as `0-1`.
    WhiteLostByArbiter,
    /// Black lost by an arbiter's decision: scored as `1-0`.
    BlackLostByArbiter,
}

/// One pairing of an evening.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeizerGame {
    /// Player id with white.
    pub white: String,
    /// Player id with black.
    pub black: String,
    /// The result.
    pub result: KeizerResult,
}

/// What happened on one playing evening. An entered player listed nowhere was absent without
/// notice.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct KeizerEvening {
    /// Games (including forfeits).
    pub games: Vec<KeizerGame>,
    /// Players with the pairing bye.
    pub byes: Vec<String>,
    /// Players absent with notice.
    pub excused: Vec<String>,
    /// Players absent without notice.
    pub unexcused: Vec<String>,
}

/// One Keizer competition (one season half), the engine's input.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Competition {
    /// Scoring parameters.
    pub params: Params,
    /// Players in seed order (docs/rules/keizer.md#entrants).
    pub players: Vec<Entrant>,
    /// Excused absences already used earlier in the season (count toward the cap).
    pub excused_before: BTreeMap<String, u32>,
    /// The evenings played so far, in order.
    pub evenings: Vec<KeizerEvening>,
}

/// One line of a published table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeizerRow {
    /// Place, 1-based (equal scores still get consecutive places).
    pub rank: u32,
    /// Player id.
    pub id: String,
    /// Value of this place.
    pub value: i64,
    /// Keizer score (a cycle average when not converged).
    #[serde(with = "fixed_serde")]
    pub score: Fixed,
    /// Games played over the board.
    pub played: u32,
    /// Points from those games (1, ½, 0).
    #[serde(with = "fixed_serde")]
    pub game_points: Fixed,
    /// Pairing byes.
    pub byes: u32,
    /// Excused absences in this competition (also those past the cap).
    pub excused: u32,
    /// Unexcused absences in this competition (forfeit no-shows included).
    pub unexcused: u32,
    /// The evening from which the player withdrew (listed with the score so far, not eligible
    /// for prizes); absent when the player has not withdrawn by this evening.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawn_from: Option<u32>,
}

/// The standings after one evening.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EveningStandings {
    /// Evening number, 1-based.
    pub number: u32,
    /// Whether the recalculation reached a fixed point.
    pub converged: bool,
    /// Rankings R_0 … R_{i+1} computed (steps + 1).
    pub iterations: u32,
    /// Length of the cycle averaged over, when not converged.
    pub cycle_length: Option<u32>,
    /// Warnings for the leader (value floor, excused cap, step cap).
    pub warnings: Vec<String>,
    /// The table, best first.
    pub standings: Vec<KeizerRow>,
}

/// Why a competition cannot be computed; every variant names the offending item.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StandingsError {
    /// The caller stopped the calculation before it ended.
    #[error("the calculation was stopped before it ended")]
    Stopped,
    /// A player id is listed twice in `players`.
    #[error("player \"{player}\" is listed twice in players")]
    DuplicatePlayer {
        /// The id.
        player: String,
    },
    /// `joins_at` must be 1 or later.
    #[error("player \"{player}\": joins_at must be at least 1, not {joins_at}")]
    BadJoinsAt {
        /// The id.
        player: String,
        /// The value given.
        joins_at: u32,
    },
    /// `excused_before` names a player who is not entered.
    #[error("excused_before: unknown player \"{player}\"")]
    UnknownExcusedBefore {
        /// The id.
        player: String,
    },
    /// An evening names a player who is not entered.
    #[error("evening {evening}: unknown player \"{player}\"")]
    UnknownPlayer {
        /// Evening number.
        evening: u32,
        /// The id.
        player: String,
    },
    /// An evening names a player before their `joins_at`.
    #[error("evening {evening}: player \"{player}\" only joins at evening {joins_at}")]
    NotYetEntered {
        /// Evening number.
        evening: u32,
        /// The id.
        player: String,
        /// When the player joins.
        joins_at: u32,
    },
    /// An evening names a player on or after the evening they withdrew from.
    #[error("evening {evening}: player \"{player}\" withdrew from evening {withdrawn_from}")]
    AfterWithdrawal {
        /// Evening number.
        evening: u32,
        /// The id.
        player: String,
        /// The first evening the player no longer takes part.
        withdrawn_from: u32,
    },
    /// `withdrawn_from` must be 1 or later.
    #[error("player \"{player}\": withdrawn_from must be at least 1, not {withdrawn_from}")]
    BadWithdrawnFrom {
        /// The id.
        player: String,
        /// The value given.
        withdrawn_from: u32,
    },
    /// A player appears more than once on one evening.
    #[error("evening {evening}: player \"{player}\" appears more than once")]
    Twice {
        /// Evening number.
        evening: u32,
        /// The id.
        player: String,
    },
    /// A parameter is out of its range.
    #[error("params.{field}: {reason}")]
    BadParam {
        /// Parameter name.
        field: &'static str,
        /// What is wrong.
        reason: String,
    },
}

fn check_params(p: &Params) -> Result<(), StandingsError> {
    let bad = |field, reason: &str| {
        Err(StandingsError::BadParam {
            field,
            reason: reason.to_string(),
        })
    };
    if p.step < 0 {
        return bad("step", "must not be negative");
    }
    if !(1..=1_000_000).contains(&p.top_value) || p.step > 1_000_000 {
        return bad("top_value", "must be between 1 and 1000000");
    }
    for (field, f) in [
        ("win", p.win),
        ("draw", p.draw),
        ("loss", p.loss),
        ("bye", p.bye),
        ("excused", p.excused),
        ("forfeit_win", p.forfeit_win),
    ] {
        if f < Fixed::ZERO || f > Fixed::from_int(1_000_000) {
            return bad(field, "must be between 0 and 1000000");
        }
    }
    Ok(())
}

/// Checks the whole input before anything is computed; returns the index of every id.
fn validate(c: &Competition) -> Result<HashMap<&str, u32>, StandingsError> {
    check_params(&c.params)?;
    let mut index = HashMap::with_capacity(c.players.len());
    for (i, p) in c.players.iter().enumerate() {
        if p.joins_at < 1 {
            return Err(StandingsError::BadJoinsAt {
                player: p.id.clone(),
                joins_at: p.joins_at,
            });
        }
        if p.withdrawn_from == Some(0) {
            return Err(StandingsError::BadWithdrawnFrom {
                player: p.id.clone(),
                withdrawn_from: 0,
            });
        }
        if index.insert(p.id.as_str(), i as u32).is_some() {
            return Err(StandingsError::DuplicatePlayer {
                player: p.id.clone(),
            });
        }
    }
    for id in c.excused_before.keys() {
        if !index.contains_key(id.as_str()) {
            return Err(StandingsError::UnknownExcusedBefore { player: id.clone() });
        }
    }
    let mut seen = vec![0u32; c.players.len()];
    for (k, ev) in c.evenings.iter().enumerate() {
        let evening = k as u32 + 1;
        let names = ev
            .games
            .iter()
            .flat_map(|g| [&g.white, &g.black])
            .chain(ev.byes.iter())
            .chain(ev.excused.iter())
            .chain(ev.unexcused.iter());
        for name in names {
            let Some(&i) = index.get(name.as_str()) else {
                return Err(StandingsError::UnknownPlayer {
                    evening,
                    player: name.clone(),
                });
            };
            let joins_at = c.players[i as usize].joins_at;
            if joins_at > evening {
                return Err(StandingsError::NotYetEntered {
                    evening,
                    player: name.clone(),
                    joins_at,
                });
            }
            if let Some(w) = c.players[i as usize].withdrawn_from
                && w <= evening
            {
                return Err(StandingsError::AfterWithdrawal {
                    evening,
                    player: name.clone(),
                    withdrawn_from: w,
                });
            }
            if seen[i as usize] == evening {
                return Err(StandingsError::Twice {
                    evening,
                    player: name.clone(),
                });
            }
            seen[i as usize] = evening;
        }
    }
    Ok(index)
}

/// Computes the standings after every evening of `c` (docs/rules/keizer.md#scoring).
///
/// The whole input is validated first; on error nothing is computed.
pub fn compute_keizer(c: &Competition) -> Result<Vec<EveningStandings>, StandingsError> {
    compute_until(c, &crate::stop::Never)
}

/// [`compute_keizer`] that gives up with [`StandingsError::Stopped`] once `stop` is raised; it looks
/// before every evening.
pub fn compute_until(
    c: &Competition,
    stop: &dyn crate::stop::Stop,
) -> Result<Vec<EveningStandings>, StandingsError> {
    let index = validate(c)?;
    let p = &c.params;
    let ids: Vec<String> = c.players.iter().map(|e| e.id.clone()).collect();
    let mut ledger = Ledger {
        tallies: vec![Tally::default(); c.players.len()],
        edges: Vec::new(),
    };
    for (id, n) in &c.excused_before {
        if let Some(&i) = index.get(id.as_str()) {
            ledger.tallies[i as usize].excused_season = *n;
        }
    }
    let mut ranking: Vec<u32> = Vec::new();
    let mut out = Vec::with_capacity(c.evenings.len());
    for (k, ev) in c.evenings.iter().enumerate() {
        if stop.stopped() {
            return Err(StandingsError::Stopped);
        }
        let evening = k as u32 + 1;
        // Entrants of this evening, one by one in input order (docs/rules/keizer.md#entrants); on
        // evening 1 the seed order is the input order itself.
        for (i, e) in c.players.iter().enumerate() {
            if e.joins_at == evening {
                if evening == 1 {
                    ranking.push(i as u32);
                } else {
                    insert_entrant(&mut ranking, i as u32, |&j| c.players[j as usize].rating);
                }
            }
        }
        // a withdrawn player is no longer expected, so not booked as absent
        let expected: Vec<u32> = ranking
            .iter()
            .copied()
            .filter(|&i| {
                c.players[i as usize]
                    .withdrawn_from
                    .is_none_or(|w| w > evening)
            })
            .collect();
        let mut warnings = ledger.book(p, ev, &index, &ids, &expected);
        if let Some(w) = iterate::floor_warning(p, ranking.len()) {
            warnings.insert(0, w);
        }
        let settled = iterate::settle(p, &ledger, &ranking);
        if settled.capped {
            warnings.push(format!(
                "no fixed point or cycle within {MAX_STEPS} steps: the last ranking is published"
            ));
        }
        let standings = settled
            .ranking
            .iter()
            .enumerate()
            .map(|(pos, &i)| {
                let t = &ledger.tallies[i as usize];
                KeizerRow {
                    rank: pos as u32 + 1,
                    id: ids[i as usize].clone(),
                    value: value_of_place(p, pos),
                    score: settled.scores[i as usize],
                    played: t.played,
                    game_points: Fixed(i64::from(t.half_points) * 5_000),
                    byes: t.byes,
                    excused: t.excused,
                    unexcused: t.unexcused,
                    withdrawn_from: c.players[i as usize]
                        .withdrawn_from
                        .filter(|&w| w <= evening),
                }
            })
            .collect();
        out.push(EveningStandings {
            number: evening,
            converged: settled.cycle_length == 1 && !settled.capped,
            iterations: settled.iterations,
            cycle_length: (settled.cycle_length > 1).then_some(settled.cycle_length),
            warnings,
            standings,
        });
        ranking = settled.ranking;
    }
    Ok(out)
}

/// What the summer half takes over from the winter half (docs/rules/keizer.md#season-halves).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeasonCarry {
    /// The summer's seed order: the winter's final order (ratings kept, all joining at 1).
    pub players: Vec<Entrant>,
    /// Excused absences used so far in the season (winter's `excused_before` + winter's own).
    pub excused_before: BTreeMap<String, u32>,
}

/// Seeds the summer half from the winter half: the summer starts at zero in the winter's
/// final order, and the excused-absence count carries over (docs/rules/keizer.md#season-halves). Players entered in the
/// winter input who never reached the winter's final table are not carried; add them to the
/// summer as late entrants. `winter_final` is the last element of [`compute_keizer`]'s result.
pub fn summer_start(winter: &Competition, winter_final: &EveningStandings) -> SeasonCarry {
    let rating: HashMap<&str, Option<i32>> = winter
        .players
        .iter()
        .map(|e| (e.id.as_str(), e.rating))
        .collect();
    let mut players = Vec::with_capacity(winter_final.standings.len());
    let mut excused_before = BTreeMap::new();
    for row in &winter_final.standings {
        players.push(Entrant {
            id: row.id.clone(),
            rating: rating.get(row.id.as_str()).copied().flatten(),
            joins_at: 1,
            withdrawn_from: None,
        });
        let before = winter.excused_before.get(&row.id).copied().unwrap_or(0);
        if before + row.excused > 0 {
            excused_before.insert(row.id.clone(), before + row.excused);
        }
    }
    SeasonCarry {
        players,
        excused_before,
    }
}
