//! The tie-break values and the ranking built from them.

use super::de::direct_encounter;
use super::model::{
    Colour, Cut, EventKind, Input, RoundOutcome, RoundResult, RulesEdition, Separation, Standings,
    Tiebreak, TiebreakError, TiebreakRow, Value,
};
use super::prepared::Prepared;
use super::rating;
use crate::fixed::Fixed;
use std::collections::HashMap;

fn prepare(input: &Input) -> Result<Prepared, TiebreakError> {
    if !(1..=2).contains(&input.games_per_round) {
        return Err(TiebreakError::GamesPerRound(input.games_per_round));
    }
    let mut index = HashMap::new();
    for (i, p) in input.players.iter().enumerate() {
        if index.insert(p.id, i).is_some() {
            return Err(TiebreakError::DuplicatePlayer(p.id));
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
                    return Err(TiebreakError::Inconsistent {
                        player: p.id,
                        round,
                        reason: "a game over the board needs an opponent".into(),
                    });
                }
                None => {}
                Some(o) => {
                    let Some(&j) = index.get(&o) else {
                        return Err(TiebreakError::UnknownOpponent {
                            player: p.id,
                            round,
                            opponent: o,
                        });
                    };
                    if j == i {
                        return Err(TiebreakError::Inconsistent {
                            player: p.id,
                            round,
                            reason: "paired against themself".into(),
                        });
                    }
                    if res[j][r].opponent != Some(p.id) {
                        return Err(TiebreakError::Inconsistent {
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
                        RoundOutcome::ForfeitWin => RoundOutcome::Win,
                        RoundOutcome::ForfeitLoss => RoundOutcome::Loss,
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
        ratings: input.players.iter().map(|p| p.rating).collect(),
    })
}

/// One value of a Buchholz-like sum: the (dummy) opponent's score, the value it adds (the
/// score itself, or for Sonneborn-Berger the score times the points scored), and whether the
/// round was voluntarily unplayed.
#[derive(Debug, Clone, Copy)]
struct Contribution {
    score: i64,
    value: i64,
    vur: bool,
}

/// Drops `cut.low` least significant and `cut.high` most significant values and sums the
/// rest (art. 14). A voluntarily unplayed round is cut first unless the least significant
/// value contributes more; among equal values the earlier round goes first.
fn cut_sum(mut c: Vec<Contribution>, cut: Cut, rounds: usize) -> i64 {
    let low = usize::from(cut.low).min(rounds);
    let high = usize::from(cut.high).min(rounds - low);
    for _ in 0..low {
        if c.is_empty() {
            break;
        }
        let mut all = c.clone();
        all.sort_by_key(|x| (x.score, x.value));
        let mut vur_first = c.clone();
        vur_first.sort_by_key(|x| (!x.vur, x.score, x.value));
        c = if all[0].value > vur_first[0].value {
            all.remove(0);
            all
        } else {
            vur_first.remove(0);
            vur_first
        };
    }
    for _ in 0..high {
        if c.is_empty() {
            break;
        }
        c.sort_by_key(|x| (-x.score, -x.value));
        c.remove(0);
    }
    c.iter().map(|x| x.value).sum()
}

/// Which Buchholz-like sum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sum {
    Buchholz,
    Fore,
    SonnebornBerger,
}

struct Ctx<'a> {
    p: &'a Prepared,
    rules: RulesEdition,
    unrated: Option<u32>,
    /// Each player's points.
    points: Vec<i64>,
    /// Per player: the last round (1-based, 0 = none) that was not voluntarily unplayed; the
    /// rounds after it without an opponent count as draws in the player's score as their
    /// opponents see it (16.3). Fore Buchholz alone moves it to the last round for players
    /// paired in the last round; each tie-break is computed on its own (decision 0264).
    last_not_vur: Vec<usize>,
    /// Per player: the last round in which they were paired or got the pairing-allocated bye.
    last_paired: Vec<usize>,
}

impl<'a> Ctx<'a> {
    fn new(p: &'a Prepared, input: &Input) -> Ctx<'a> {
        let n = p.ids.len();
        let points: Vec<i64> = (0..n)
            .map(|i| (0..p.rounds).map(|r| p.pts(i, r)).sum())
            .collect();
        let last_not_vur = (0..n)
            .map(|i| {
                (0..p.rounds)
                    .rev()
                    .find(|&r| !p.res[i][r].outcome.is_voluntarily_unplayed())
                    .map_or(0, |r| r + 1)
            })
            .collect();
        let last_paired = (0..n)
            .map(|i| {
                (0..p.rounds)
                    .rev()
                    .find(|&r| p.opp[i][r].is_some() || p.is_played(i, r))
                    .map_or(0, |r| r + 1)
            })
            .collect();
        Ctx {
            p,
            rules: input.rules,
            unrated: input.unrated_rating,
            points,
            last_not_vur,
            last_paired,
        }
    }

    fn count(&self, i: usize, f: impl Fn(&RoundResult) -> bool) -> i64 {
        self.p.res[i].iter().filter(|x| f(x)).count() as i64 * Fixed::ONE.0
    }

    fn wins(&self, i: usize) -> i64 {
        self.count(i, |x| x.outcome.points() == Value::ONE)
    }

    fn won(&self, i: usize) -> i64 {
        self.count(i, |x| x.outcome == RoundOutcome::Win)
    }

    fn black_played(&self, i: usize) -> i64 {
        self.count(i, |x| {
            x.outcome.is_over_the_board() && x.colour == Some(Colour::Black)
        })
    }

    fn black_won(&self, i: usize) -> i64 {
        self.count(i, |x| {
            x.outcome == RoundOutcome::Win && x.colour == Some(Colour::Black)
        })
    }

    /// Rounds elected to play: games over the board and rounds won without playing.
    fn elected(&self, i: usize) -> i64 {
        self.count(i, |x| {
            x.outcome.is_over_the_board()
                || x.outcome == RoundOutcome::PairingBye
                || x.outcome.points() == Value::ONE
        })
    }

    /// Progressive scores: the running score after each round, summed, the first `cut`
    /// rounds left out.
    fn progressive(&self, i: usize, cut: u8) -> i64 {
        let mut running = 0;
        let mut total = 0;
        for r in 0..self.p.rounds {
            running += self.p.pts(i, r);
            if r >= usize::from(cut) {
                total += running;
            }
        }
        total
    }

    /// Koya: points scored against opponents (paired, played or not) who scored at least half
    /// of the maximum (in a round robin the maximum counts the games actually scheduled).
    fn koya(&self) -> Vec<i64> {
        let p = self.p;
        let n = p.ids.len();
        let mut max_games = p.rounds as i64;
        if p.round_robin {
            if n > 0 && p.rounds.is_multiple_of(n) {
                max_games -= (p.rounds / n) as i64;
            }
            max_games -= self.last_paired.iter().filter(|&&l| l == 0).count() as i64;
        }
        let limit = max_games * Value::HALF.units();
        (0..n)
            .map(|i| {
                (0..p.rounds)
                    .filter(|&r| p.opp[i][r].is_some_and(|o| self.points[o] >= limit))
                    .map(|r| p.pts(i, r))
                    .sum()
            })
            .collect()
    }

    /// Every player's score as their opponents see it (16.3) and their own score for the
    /// dummy opponent; for Fore Buchholz (`fore`) a game in the last round counts as a draw.
    fn adjusted(&self, fore: bool) -> (Vec<i64>, Vec<i64>) {
        let p = self.p;
        let n = p.ids.len();
        let last = p.rounds;
        let mut abh = vec![0; n];
        let mut own = self.points.clone();
        for j in 0..n {
            let is_fore = fore && last > 0 && self.last_paired[j] == last;
            // For Fore Buchholz only: a player paired in the last round has every round up to
            // it counted as played (16.3 no longer applies); other tie-breaks are untouched
            // (decision 0264).
            let last_not_vur = if is_fore { last } else { self.last_not_vur[j] };
            for r in 0..last {
                abh[j] += if r < last_not_vur || p.opp[j][r].is_some() {
                    p.pts(j, r)
                } else if p.round_robin {
                    0
                } else {
                    Value::HALF.units()
                };
            }
            if is_fore && p.opp[j][last - 1].is_some() {
                let adjust = Value::HALF.units() - p.pts(j, last - 1);
                abh[j] += adjust;
                own[j] += adjust;
            }
        }
        (abh, own)
    }

    /// Per round of player `i`, the value of a Buchholz-like sum.
    fn contributions(&self, i: usize, kind: Sum, abh: &[i64], own: &[i64]) -> Vec<Contribution> {
        let p = self.p;
        let last = p.rounds.saturating_sub(1);
        (0..p.rounds)
            // In a round robin a round without an opponent contributes nothing.
            .filter(|&r| !p.round_robin || p.opp[i][r].is_some())
            .map(|r| {
                let opp = p.opp[i][r];
                let played = p.round_robin || (kind == Sum::Fore && r == last) || p.is_played(i, r);
                let (score, vur) = match opp {
                    Some(o) if played => (abh[o], false),
                    _ => {
                        // 16.4: a game against a dummy opponent with the player's own score.
                        let mut s = own[i];
                        if self.rules == RulesEdition::Fide2026 {
                            s = match opp {
                                Some(o) => s.min(abh[o]),
                                None => s.min(Value::HALF.units() * p.rounds as i64),
                            };
                        }
                        (s, p.res[i][r].outcome.is_voluntarily_unplayed())
                    }
                };
                let value = if kind == Sum::SonnebornBerger {
                    score * p.pts(i, r) / Fixed::ONE.0
                } else {
                    score
                };
                Contribution { score, value, vur }
            })
            .collect()
    }

    /// Buchholz, Fore Buchholz or Sonneborn-Berger with a cut, for every player. In a
    /// Double-Swiss a Buchholz cut takes a whole round (both games against one opponent): the
    /// club's median Buchholz leaves out the best and the worst *opponent*, not single games.
    fn sums(&self, kind: Sum, cut: Cut) -> Vec<i64> {
        let (abh, own) = self.adjusted(kind == Sum::Fore);
        let p = self.p;
        (0..p.ids.len())
            .map(|i| {
                let mut c = self.contributions(i, kind, &abh, &own);
                let mut rounds = p.rounds;
                if p.games_per_round == 2 && !p.round_robin && kind != Sum::SonnebornBerger {
                    c = c
                        .chunks(2)
                        .map(|m| Contribution {
                            score: m.iter().map(|x| x.score).sum(),
                            value: m.iter().map(|x| x.value).sum(),
                            vur: m.iter().all(|x| x.vur),
                        })
                        .collect();
                    rounds = rounds.div_ceil(2);
                }
                cut_sum(c, cut, rounds)
            })
            .collect()
    }

    /// Average of the opponents' Buchholz, in hundredths of a point (art. 8.2).
    fn average_of_buchholz(&self) -> Vec<Option<i64>> {
        let bh = self.sums(Sum::Buchholz, Cut::NONE);
        self.opponents_average(&bh.into_iter().map(Some).collect::<Vec<_>>(), 100)
    }

    /// Per player, the average of `values` over their opponents played over the board, rounded
    /// to a multiple of `step` units (halves up); none without such an opponent with a value.
    fn opponents_average(&self, values: &[Option<i64>], step: i64) -> Vec<Option<i64>> {
        let p = self.p;
        (0..p.ids.len())
            .map(|i| {
                let vals: Vec<i64> = (0..p.rounds)
                    .filter(|&r| p.is_played(i, r))
                    .filter_map(|r| p.opp[i][r])
                    .filter_map(|o| values[o])
                    .collect();
                if vals.is_empty() {
                    return None;
                }
                let sum: i64 = vals.iter().sum();
                Some(rating::round_half_up(sum, vals.len() as i64 * step) * step)
            })
            .collect()
    }

    /// Per player: the ratings of the opponents played over the board and the points scored
    /// against them (hundredths), in round order; none when a rating is missing.
    fn rated_games(&self) -> Option<Vec<Vec<(i64, i64)>>> {
        let p = self.p;
        let rating = |j: usize| p.ratings[j].or(self.unrated).map(i64::from);
        if (0..p.ids.len()).any(|j| rating(j).is_none()) {
            return None;
        }
        Some(
            (0..p.ids.len())
                .map(|i| {
                    (0..p.rounds)
                        .filter(|&r| p.is_played(i, r))
                        .filter_map(|r| {
                            let o = p.opp[i][r]?;
                            Some((rating(o)?, p.pts(i, r) / 100))
                        })
                        .collect()
                })
                .collect(),
        )
    }

    /// ARO with a cut, TPR or PTP for every player (whole numbers).
    fn rating_values(&self, tb: Tiebreak) -> Vec<Option<i64>> {
        let n = self.p.ids.len();
        let Some(games) = self.rated_games() else {
            return vec![None; n];
        };
        games
            .into_iter()
            .map(|mut g| {
                if let Tiebreak::Aro(cut) = tb {
                    let low = usize::from(cut.low).min(self.p.rounds);
                    let high = usize::from(cut.high).min(self.p.rounds - low);
                    g.sort_by_key(|x| x.0);
                    let low = low.min(g.len());
                    g.drain(..low);
                    let high = high.min(g.len());
                    g.truncate(g.len() - high);
                }
                let ratings: Vec<i64> = g.iter().map(|x| x.0).collect();
                let score: i64 = g.iter().map(|x| x.1).sum();
                match tb {
                    Tiebreak::Tpr => rating::performance(score, &ratings),
                    Tiebreak::Ptp => rating::perfect_performance(score, &ratings),
                    _ => rating::average(&ratings),
                }
            })
            .collect()
    }
}

/// Computes every tie-break of `list` for every player and ranks them: points first (PTS is
/// put in front when the list does not start with it, docs/rules/rapid-blitz.md#tie-breaks),
/// then each tie-break in turn among the players still tied. Values are exact; DE is reported
/// as the place inside the group it separated (0 when it separated nobody), lower is better.
/// A player without a value (none) ranks below every player with one.
pub fn compute_tiebreaks(input: &Input, list: &[Tiebreak]) -> Result<Standings, TiebreakError> {
    let p = prepare(input)?;
    let ctx = Ctx::new(&p, input);
    let n = p.ids.len();
    let mut tbs: Vec<Tiebreak> = Vec::with_capacity(list.len() + 1);
    if list.first() != Some(&Tiebreak::Pts) {
        tbs.push(Tiebreak::Pts);
    }
    tbs.extend_from_slice(list);

    let one = Fixed::ONE.0;
    let all =
        |f: &dyn Fn(usize) -> i64| -> Vec<Option<i64>> { (0..n).map(|i| Some(f(i))).collect() };
    let whole = |v: Vec<Option<i64>>| -> Vec<Option<i64>> {
        v.into_iter().map(|x| x.map(|x| x * one)).collect()
    };
    let mut rank = vec![1u32; n];
    let mut values: Vec<Vec<Option<Value>>> = vec![Vec::with_capacity(tbs.len()); n];
    for tb in &tbs {
        let (vals, higher_is_better): (Vec<Option<i64>>, bool) = match *tb {
            Tiebreak::Pts => (all(&|i| ctx.points[i]), true),
            Tiebreak::Win => (all(&|i| ctx.wins(i)), true),
            Tiebreak::Won => (all(&|i| ctx.won(i)), true),
            Tiebreak::Bpg => (all(&|i| ctx.black_played(i)), true),
            Tiebreak::Bwg => (all(&|i| ctx.black_won(i)), true),
            Tiebreak::Rep | Tiebreak::Ge => (all(&|i| ctx.elected(i)), true),
            Tiebreak::Ps { cut } => (all(&|i| ctx.progressive(i, cut)), true),
            Tiebreak::Ks => (ctx.koya().into_iter().map(Some).collect(), true),
            Tiebreak::Bh(cut) => (to_some(ctx.sums(Sum::Buchholz, cut)), true),
            Tiebreak::Fb(cut) => (to_some(ctx.sums(Sum::Fore, cut)), true),
            Tiebreak::Sb(cut) => (to_some(ctx.sums(Sum::SonnebornBerger, cut)), true),
            Tiebreak::Aob => (ctx.average_of_buchholz(), true),
            Tiebreak::Aro(_) | Tiebreak::Tpr | Tiebreak::Ptp => {
                (whole(ctx.rating_values(*tb)), true)
            }
            Tiebreak::Apro | Tiebreak::Appo => {
                let base = if *tb == Tiebreak::Apro {
                    Tiebreak::Tpr
                } else {
                    Tiebreak::Ptp
                };
                let per = ctx.rating_values(base);
                (whole(ctx.opponents_average(&per, 1)), true)
            }
            Tiebreak::De => (
                direct_encounter(&p, &rank)
                    .into_iter()
                    .map(|v| Some(v * one))
                    .collect(),
                false,
            ),
        };
        for i in 0..n {
            values[i].push(vals[i].map(|v| Value(Fixed(v))));
        }
        let key = |i: usize| match vals[i] {
            Some(v) => (false, if higher_is_better { -v } else { v }),
            None => (true, 0),
        };
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
        rows.push(TiebreakRow {
            rank: rank[i],
            place,
            shared: size > 1,
            id: p.ids[i],
            name: p.names[i].clone(),
            values: values[i].clone(),
        });
    }
    let playoff_for_first = rows.iter().filter(|r| r.rank == 1).count() > 1;
    let separations = separations(&rows, &tbs);
    Ok(Standings {
        rules: input.rules,
        rounds: p.rounds as u32,
        tiebreaks: tbs,
        rows,
        playoff_for_first,
        separations,
    })
}

/// For each two neighbours level on points (the first value, PTS), the first tie-break whose
/// values differ: players stay in one group while their values are equal, so that is the
/// tie-break that separated them.
pub(crate) fn separations(rows: &[TiebreakRow], tbs: &[Tiebreak]) -> Vec<Separation> {
    rows.windows(2)
        .filter(|w| w[0].values.first() == w[1].values.first())
        .map(|w| {
            let k = (1..tbs.len()).find(|&k| w[0].values[k] != w[1].values[k]);
            Separation {
                above: w[0].id,
                below: w[1].id,
                tiebreak: k.map(|k| tbs[k]),
                above_value: k.and_then(|k| w[0].values[k]),
                below_value: k.and_then(|k| w[1].values[k]),
            }
        })
        .collect()
}

fn to_some(v: Vec<i64>) -> Vec<Option<i64>> {
    v.into_iter().map(Some).collect()
}
