//! Validation of a scenario and the tallies every later step reads: per player points, wins,
//! draws, losses, plus- and minremises, and the score of every player against every other.

use super::RoundRobinError;
use super::result::{
    Discipline, ResultError, RoundRobinResult, SideOutcome, apply_forty_move_rule,
};
use super::scenario::Scenario;
use std::collections::{HashMap, HashSet};

/// One game with a result, by player index.
#[derive(Debug, Clone)]
pub(crate) struct Rec {
    pub round: u32,
    pub white: usize,
    pub black: usize,
    pub result: RoundRobinResult,
}

/// Totals of one player. Scores are in units of the discipline's draw (draughts points,
/// chess half-points).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub points: i64,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub plus: u32,
    pub minus: u32,
}

/// The validated scenario.
#[derive(Debug, Clone)]
pub(crate) struct Model {
    pub discipline: Discipline,
    pub ids: Vec<String>,
    pub index: HashMap<String, usize>,
    pub games: Vec<Rec>,
    /// `vs[i][j]`: units player i scored against player j, over all their games.
    pub vs: Vec<Vec<i64>>,
    pub tally: Vec<Tally>,
}

impl Model {
    /// Validates the players and games of `s` and adds up the results.
    pub fn build(s: &Scenario) -> Result<Model, RoundRobinError> {
        if s.players.is_empty() {
            return Err(RoundRobinError::NoPlayers);
        }
        let mut index = HashMap::new();
        let mut ids = Vec::with_capacity(s.players.len());
        for (i, p) in s.players.iter().enumerate() {
            if p.id.is_empty() {
                return Err(RoundRobinError::EmptyId { number: i + 1 });
            }
            if index.insert(p.id.clone(), i).is_some() {
                return Err(RoundRobinError::DuplicatePlayer(p.id.clone()));
            }
            ids.push(p.id.clone());
        }
        let n = ids.len();
        let mut games = Vec::new();
        let mut busy: HashSet<(u32, usize)> = HashSet::new();
        for g in &s.games {
            let label = format!("round {} ({} - {})", g.round, g.white, g.black);
            let find = |id: &str| {
                index
                    .get(id)
                    .copied()
                    .ok_or_else(|| RoundRobinError::UnknownPlayer {
                        game: label.clone(),
                        id: id.to_string(),
                    })
            };
            let white = find(&g.white)?;
            let black = find(&g.black)?;
            if white == black {
                return Err(RoundRobinError::SelfPairing { game: label });
            }
            if g.round == 0 {
                return Err(RoundRobinError::BadRound { game: label });
            }
            for p in [white, black] {
                if !busy.insert((g.round, p)) {
                    return Err(RoundRobinError::PlaysTwice {
                        player: ids[p].clone(),
                        round: g.round,
                    });
                }
            }
            let code = match g.result.as_deref().map(str::trim) {
                None | Some("") | Some("*") => continue,
                Some(c) => c,
            };
            let parsed = RoundRobinResult::parse(s.discipline, code).ok_or_else(|| {
                RoundRobinError::Result {
                    game: label.clone(),
                    source: ResultError::UnknownCode {
                        discipline: s.discipline,
                        code: code.to_string(),
                    },
                }
            })?;
            let (result, _note) =
                apply_forty_move_rule(s.discipline, parsed, g.termination, g.moves).map_err(
                    |()| RoundRobinError::Result {
                        game: label.clone(),
                        source: ResultError::MovesRequired {
                            code: code.to_string(),
                        },
                    },
                )?;
            games.push(Rec {
                round: g.round,
                white,
                black,
                result,
            });
        }
        let mut vs = vec![vec![0i64; n]; n];
        let mut tally = vec![Tally::default(); n];
        for g in &games {
            let (ow, ob) = g.result.outcomes();
            for (me, opp, o) in [(g.white, g.black, ow), (g.black, g.white, ob)] {
                vs[me][opp] += o.units();
                let t = &mut tally[me];
                t.points += o.units();
                t.games += 1;
                if o.is_win() {
                    t.wins += 1;
                } else if o.is_draw() {
                    t.draws += 1;
                } else {
                    t.losses += 1;
                }
                match o {
                    SideOutcome::Plusremise => t.plus += 1,
                    SideOutcome::Minremise => t.minus += 1,
                    _ => {}
                }
            }
        }
        Ok(Model {
            discipline: s.discipline,
            ids,
            index,
            games,
            vs,
            tally,
        })
    }

    /// Number of players.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Sonneborn-Berger in units² (score units times the opponent's points units), summed over
    /// every game with a result, forfeits included.
    pub fn sonneborn_berger(&self, i: usize) -> i64 {
        (0..self.len())
            .filter(|&j| j != i)
            .map(|j| self.vs[i][j] * self.tally[j].points)
            .sum()
    }

    /// Units to points: 1 unit is a draughts point or a chess half-point.
    pub fn units_per_point(&self) -> i64 {
        match self.discipline {
            Discipline::Draughts => 1,
            Discipline::Chess => 2,
        }
    }
}
