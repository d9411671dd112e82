//! The booking of evenings: every result turned into points that depend only on the values
//! of a ranking (fixed loss points, factors × own value, factors × an opponent's value).

use super::{KeizerEvening, KeizerResult, Params};
use std::collections::HashMap;

/// Running totals of one player up to the current evening (order-independent per evening).
#[derive(Debug, Clone, Default)]
pub(super) struct Tally {
    /// Fixed points (losses), in ten-thousandths.
    pub(super) fixed_units: i64,
    /// Sum of factors applied to the player's own value (byes, forfeit wins, excused).
    pub(super) own_factor: i64,
    pub(super) played: u32,
    pub(super) half_points: u32,
    pub(super) byes: u32,
    pub(super) excused: u32,
    pub(super) excused_season: u32,
    pub(super) unexcused: u32,
}

/// The scoring of all evenings so far, ready to be evaluated against any ranking.
#[derive(Debug, Clone, Default)]
pub(super) struct Ledger {
    pub(super) tallies: Vec<Tally>,
    /// (earner, opponent, factor units): the earner gets factor × value(opponent).
    pub(super) edges: Vec<(u32, u32, i64)>,
}

impl Ledger {
    /// Books one evening. `present[i]` is set for every player listed; the entered players not
    /// listed are booked as absent without notice. Returns warnings (excused cap reached).
    pub(super) fn book(
        &mut self,
        p: &Params,
        ev: &KeizerEvening,
        index: &HashMap<&str, u32>,
        ids: &[String],
        entered: &[u32],
    ) -> Vec<String> {
        let mut warnings = Vec::new();
        let mut listed = vec![false; self.tallies.len()];
        let ix = |s: &String| index.get(s.as_str()).copied().unwrap_or(0);
        for g in &ev.games {
            let (w, b) = (ix(&g.white), ix(&g.black));
            listed[w as usize] = true;
            listed[b as usize] = true;
            use KeizerResult::*;
            match g.result {
                WhiteWins | BlackLostByArbiter => self.played(w, b, 2, p),
                BlackWins | WhiteLostByArbiter => self.played(b, w, 2, p),
                Draw => {
                    self.played(w, b, 1, p);
                }
                WhiteForfeitWin => {
                    self.tallies[w as usize].own_factor += p.forfeit_win.units();
                    self.tallies[b as usize].unexcused += 1;
                }
                BlackForfeitWin => {
                    self.tallies[b as usize].own_factor += p.forfeit_win.units();
                    self.tallies[w as usize].unexcused += 1;
                }
                DoubleForfeit => {
                    self.tallies[w as usize].unexcused += 1;
                    self.tallies[b as usize].unexcused += 1;
                }
            }
        }
        for id in &ev.byes {
            let t = &mut self.tallies[ix(id) as usize];
            listed[ix(id) as usize] = true;
            t.own_factor += p.bye.units();
            t.byes += 1;
        }
        // In player order, so the warnings do not depend on the order of the list.
        let mut excused: Vec<usize> = ev.excused.iter().map(|id| ix(id) as usize).collect();
        excused.sort_unstable();
        for i in excused {
            listed[i] = true;
            let t = &mut self.tallies[i];
            // docs/rules/keizer.md#scoring: at most `excused_cap` excused absences per season score; the 6th and
            // later still count as excused (for prize eligibility, docs/rules/keizer.md#prizes).
            if t.excused_season < p.excused_cap {
                t.own_factor += p.excused.units();
            } else {
                warnings.push(format!(
                    "player \"{}\": excused absence {} of the season scores 0 (cap {})",
                    ids[i],
                    t.excused_season + 1,
                    p.excused_cap
                ));
            }
            t.excused_season += 1;
            t.excused += 1;
        }
        for id in &ev.unexcused {
            listed[ix(id) as usize] = true;
            self.tallies[ix(id) as usize].unexcused += 1;
        }
        for &i in entered {
            if !listed[i as usize] {
                self.tallies[i as usize].unexcused += 1;
            }
        }
        warnings
    }

    /// Books a game played over the board; `winner_halves` is 2 for a win of `a` over `b`
    /// and 1 for a draw.
    fn played(&mut self, a: u32, b: u32, winner_halves: u32, p: &Params) {
        let (ta, tb) = (a as usize, b as usize);
        self.tallies[ta].played += 1;
        self.tallies[tb].played += 1;
        if winner_halves == 2 {
            self.tallies[ta].half_points += 2;
            self.edges.push((a, b, p.win.units()));
            self.tallies[tb].fixed_units += p.loss.units();
        } else {
            self.tallies[ta].half_points += 1;
            self.tallies[tb].half_points += 1;
            self.edges.push((a, b, p.draw.units()));
            self.edges.push((b, a, p.draw.units()));
        }
    }
}
