//! The tie-break values and the ranking built from them.

use super::de::direct_encounter;
use super::model::{
    Error, EventKind, Input, Outcome, RoundResult, RulesEdition, StandingRow, Standings, Tiebreak,
    Value,
};
use crate::fixed::Fixed;
use std::collections::HashMap;

/// Results checked and indexed: `res[p][r]` is player `p`'s round `r` (0-based), every player
/// padded to the same number of rounds, opponents as indices.
pub(crate) struct Prepared {
    pub ids: Vec<u32>,
    pub names: Vec<String>,
    pub res: Vec<Vec<RoundResult>>,
    pub opp: Vec<Vec<Option<usize>>>,
    pub rounds: usize,
    /// Round robin: forfeits count as games against the scheduled opponent.
    pub round_robin: bool,
    /// Games per round (2: a Double-Swiss, every match stored as two consecutive rounds).
    pub games_per_round: usize,
}

impl Prepared {
    /// Points of player `p` in round `r`, in ten-thousandths.
    pub fn pts(&self, p: usize, r: usize) -> i64 {
        self.res[p][r].outcome.points().units()
    }

    /// The opponent of a game played over the board (in a round robin also of a forfeit).
    pub fn played_opp(&self, p: usize, r: usize) -> Option<usize> {
        if self.res[p][r].outcome.is_over_the_board() || self.round_robin {
            self.opp[p][r]
        } else {
            None
        }
    }
}

fn prepare(input: &Input) -> Result<Prepared, Error> {
    if !(1..=2).contains(&input.games_per_round) {
        return Err(Error::GamesPerRound(input.games_per_round));
    }
    let mut index = HashMap::new();
    for (i, p) in input.players.iter().enumerate() {
        if index.insert(p.id, i).is_some() {
            return Err(Error::DuplicatePlayer(p.id));
        }
    }
    let rounds = input
        .players
        .iter()
        .map(|p| p.rounds.len())
        .max()
        .unwrap_or(0);
    let mut res: Vec<Vec<RoundResult>> = input
        .players
        .iter()
        .map(|p| {
            let mut v = p.rounds.clone();
            v.resize(rounds, RoundResult::ABSENT);
            v
        })
        .collect();
    let mut opp = vec![vec![None; rounds]; res.len()];
    for (i, p) in input.players.iter().enumerate() {
        for r in 0..rounds {
            let rr = res[i][r];
            let round = r as u32 + 1;
            match rr.opponent {
                None if rr.outcome.is_over_the_board() => {
                    return Err(Error::Inconsistent {
                        player: p.id,
                        round,
                        reason: "a game over the board needs an opponent".into(),
                    });
                }
                None => {}
                Some(o) => {
                    let Some(&j) = index.get(&o) else {
                        return Err(Error::UnknownOpponent {
                            player: p.id,
                            round,
                            opponent: o,
                        });
                    };
                    if j == i {
                        return Err(Error::Inconsistent {
                            player: p.id,
                            round,
                            reason: "paired against themself".into(),
                        });
                    }
                    if res[j][r].opponent != Some(p.id) {
                        return Err(Error::Inconsistent {
                            player: p.id,
                            round,
                            reason: format!("opponent {o} does not name this player back"),
                        });
                    }
                    opp[i][r] = Some(j);
                }
            }
        }
    }
    if input.games_per_round == 2 {
        // C.04.5 Preface: a match ends by forfeit only when a player forfeits both games;
        // otherwise a single forfeited game counts as played for tie-breaks and standings.
        for row in res.iter_mut() {
            for k in 0..rounds / 2 {
                let (a, b) = (row[2 * k], row[2 * k + 1]);
                if a.opponent.is_none() || a.opponent != b.opponent {
                    continue;
                }
                let fix = |x: RoundResult, other: RoundResult| -> RoundResult {
                    if !other.outcome.is_over_the_board() {
                        return x;
                    }
                    let outcome = match x.outcome {
                        Outcome::ForfeitWin => Outcome::Win,
                        Outcome::ForfeitLoss => Outcome::Loss,
                        o => o,
                    };
                    RoundResult { outcome, ..x }
                };
                row[2 * k] = fix(a, b);
                row[2 * k + 1] = fix(b, a);
            }
        }
    }
    Ok(Prepared {
        ids: input.players.iter().map(|p| p.id).collect(),
        names: input.players.iter().map(|p| p.name.clone()).collect(),
        res,
        opp,
        rounds,
        round_robin: input.event == EventKind::RoundRobin,
        games_per_round: usize::from(input.games_per_round),
    })
}

/// One contribution to Buchholz / Sonneborn-Berger: the (dummy) opponent's score, the
/// contribution, and whether the round was voluntarily unplayed.
#[derive(Debug, Clone, Copy)]
struct Contribution {
    score: i64,
    value: i64,
    vur: bool,
}

struct Ctx<'a> {
    p: &'a Prepared,
    rules: RulesEdition,
    /// Each player's points.
    points: Vec<i64>,
    /// Each player's score as seen by their opponents (16.3: trailing requested byes as draws).
    adjusted: Vec<i64>,
}

impl<'a> Ctx<'a> {
    fn new(p: &'a Prepared, rules: RulesEdition) -> Ctx<'a> {
        let n = p.ids.len();
        let points: Vec<i64> = (0..n)
            .map(|i| (0..p.rounds).map(|r| p.pts(i, r)).sum())
            .collect();
        let adjusted = (0..n)
            .map(|i| {
                // The last round that was not voluntarily unplayed (0 = none).
                let last_not_vur = (0..p.rounds)
                    .rev()
                    .find(|&r| !p.res[i][r].outcome.is_voluntarily_unplayed())
                    .map_or(0, |r| r + 1);
                (0..p.rounds)
                    .map(|r| {
                        if r < last_not_vur || p.res[i][r].opponent.is_some() {
                            p.pts(i, r)
                        } else {
                            // 16.2.5 / 16.3: a requested bye followed only by voluntarily
                            // unplayed rounds is evaluated as a draw (Swiss only; in a round
                            // robin such rounds count for nothing, like FIDE's reference).
                            if p.round_robin {
                                0
                            } else {
                                Value::HALF.units()
                            }
                        }
                    })
                    .sum()
            })
            .collect();
        Ctx {
            p,
            rules,
            points,
            adjusted,
        }
    }

    fn wins(&self, i: usize) -> i64 {
        (0..self.p.rounds)
            .filter(|&r| self.p.res[i][r].outcome.points() == Value::ONE)
            .count() as i64
    }

    fn won(&self, i: usize) -> i64 {
        (0..self.p.rounds)
            .filter(|&r| self.p.res[i][r].outcome == Outcome::Win)
            .count() as i64
    }

    /// Per round: the (dummy) opponent's score and, for Sonneborn-Berger (`sb`), that score
    /// times the points scored; for Buchholz the value is the score itself.
    fn contributions(&self, i: usize, sb: bool) -> Vec<Contribution> {
        let p = self.p;
        (0..p.rounds)
            // In a round robin a round without an opponent contributes nothing.
            .filter(|&r| !p.round_robin || p.opp[i][r].is_some())
            .map(|r| {
                let own = p.pts(i, r);
                let (score, vur) = match p.played_opp(i, r) {
                    Some(o) => (self.adjusted[o], false),
                    None => {
                        // 16.4: a game against a dummy opponent with the player's own score.
                        let mut s = self.points[i];
                        if self.rules == RulesEdition::Fide2026 {
                            s = match p.opp[i][r] {
                                Some(o) => s.min(self.adjusted[o]),
                                None => s.min(Value::HALF.units() * p.rounds as i64),
                            };
                        }
                        (s, p.res[i][r].outcome.is_voluntarily_unplayed())
                    }
                };
                Contribution {
                    score,
                    value: if sb {
                        score * own / Fixed::ONE.0
                    } else {
                        score
                    },
                    vur,
                }
            })
            .collect()
    }

    /// Buchholz with `low` least significant and `high` most significant values cut. In a
    /// Double-Swiss a cut takes a whole round (both games against one opponent): the club's
    /// median Buchholz leaves out the best and the worst *opponent*, not single games.
    fn buchholz(&self, i: usize, low: usize, high: usize) -> i64 {
        let mut c = self.contributions(i, false);
        if self.p.games_per_round == 2 && !self.p.round_robin {
            c = c
                .chunks(2)
                .map(|m| Contribution {
                    score: m.iter().map(|x| x.score).sum(),
                    value: m.iter().map(|x| x.value).sum(),
                    vur: m.iter().all(|x| x.vur),
                })
                .collect();
        }
        for _ in 0..low {
            let Some(lowest) = (0..c.len()).min_by_key(|&k| (c[k].score, c[k].value, k)) else {
                break;
            };
            let lowest_vur = (0..c.len())
                .filter(|&k| c[k].vur)
                .min_by_key(|&k| (c[k].value, c[k].score, k));
            // A voluntarily unplayed round is cut first, unless the least significant value
            // contributes more (possible only for Sonneborn-Berger-like values).
            let cut = match lowest_vur {
                Some(v) if c[lowest].value <= c[v].value => v,
                _ => lowest,
            };
            c.remove(cut);
        }
        for _ in 0..high {
            let Some(highest) = (0..c.len()).max_by_key(|&k| (c[k].score, c[k].value)) else {
                break;
            };
            c.remove(highest);
        }
        c.iter().map(|x| x.score).sum()
    }

    fn sonneborn_berger(&self, i: usize) -> i64 {
        self.contributions(i, true).iter().map(|x| x.value).sum()
    }
}

/// Computes every tie-break of `list` for every player and ranks them: points first (PTS is
/// put in front when the list does not start with it, docs/rules/rapid-blitz.md#tie-breaks), then each tie-break in turn
/// among the players still tied. Values are exact; DE is reported as the place inside the
/// group it separated (0 when it separated nobody), lower is better.
pub fn compute_tiebreaks(input: &Input, list: &[Tiebreak]) -> Result<Standings, Error> {
    let p = prepare(input)?;
    let ctx = Ctx::new(&p, input.rules);
    let n = p.ids.len();
    let mut tbs: Vec<Tiebreak> = Vec::with_capacity(list.len() + 1);
    if list.first() != Some(&Tiebreak::Pts) {
        tbs.push(Tiebreak::Pts);
    }
    tbs.extend_from_slice(list);

    let mut rank = vec![1u32; n];
    let mut values: Vec<Vec<Value>> = vec![Vec::with_capacity(tbs.len()); n];
    for tb in &tbs {
        let (vals, higher_is_better): (Vec<i64>, bool) = match tb {
            Tiebreak::Pts => (ctx.points.clone(), true),
            Tiebreak::Win => ((0..n).map(|i| ctx.wins(i) * Fixed::ONE.0).collect(), true),
            Tiebreak::Won => ((0..n).map(|i| ctx.won(i) * Fixed::ONE.0).collect(), true),
            Tiebreak::Bh => ((0..n).map(|i| ctx.buchholz(i, 0, 0)).collect(), true),
            Tiebreak::BhC1 => ((0..n).map(|i| ctx.buchholz(i, 1, 0)).collect(), true),
            Tiebreak::BhM1 => ((0..n).map(|i| ctx.buchholz(i, 1, 1)).collect(), true),
            Tiebreak::Sb => ((0..n).map(|i| ctx.sonneborn_berger(i)).collect(), true),
            Tiebreak::De => (
                direct_encounter(&p, &rank)
                    .into_iter()
                    .map(|v| v * Fixed::ONE.0)
                    .collect(),
                false,
            ),
        };
        for i in 0..n {
            values[i].push(Value(Fixed(vals[i])));
        }
        let key = |i: usize| if higher_is_better { -vals[i] } else { vals[i] };
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (rank[i], key(i), p.ids[i]));
        let mut new_rank = vec![0u32; n];
        for (pos, &i) in order.iter().enumerate() {
            new_rank[i] = if pos == 0 {
                1
            } else {
                let prev = order[pos - 1];
                if rank[prev] == rank[i] && vals[prev] == vals[i] {
                    new_rank[prev]
                } else {
                    pos as u32 + 1
                }
            };
        }
        rank = new_rank;
    }

    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (rank[i], p.ids[i]));
    let mut rows = Vec::with_capacity(n);
    for &i in &order {
        let size = rank.iter().filter(|&&r| r == rank[i]).count() as u32;
        let place = if size > 1 {
            format!("{}-{}", rank[i], rank[i] + size - 1)
        } else {
            rank[i].to_string()
        };
        rows.push(StandingRow {
            rank: rank[i],
            place,
            shared: size > 1,
            id: p.ids[i],
            name: p.names[i].clone(),
            values: values[i].clone(),
        });
    }
    let playoff_for_first = rows.iter().filter(|r| r.rank == 1).count() > 1;
    Ok(Standings {
        rules: input.rules,
        rounds: p.rounds as u32,
        tiebreaks: tbs,
        rows,
        playoff_for_first,
    })
}
