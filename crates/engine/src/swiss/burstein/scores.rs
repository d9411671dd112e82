//! What the Burstein system ranks players by inside a scoregroup (C.04.4.2, docs/rules/rapid-blitz.md#the-burstein-system):
//! the Sonneborn-Berger score, the Buchholz score and the Median score, in which every game a
//! player did not play counts against a virtual opponent; and the default acceleration of the
//! first two rounds (docs/decisions/0272-burstein-system.md).

use super::super::dutch::players::took_part_in_pairing;
use super::super::trf::{
    Accelerations, Line, PointSystem, ResultCode, RoundEntry, Tournament, accelerations,
    virtual_points,
};
use std::cmp::{Ordering, Reverse};
use std::collections::HashMap;

/// The tie-break values of one entrant before the round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Metric {
    /// Pairing score (real score plus the round's virtual points), ten-thousandths.
    pub score: i64,
    /// Sonneborn-Berger: the adjusted score of each opponent times the points scored against
    /// him.
    pub sonneborn: i128,
    /// Buchholz: the sum of the opponents' adjusted scores.
    pub buchholz: i128,
    /// Median: Buchholz without the highest and the lowest opponent (0 before round 4).
    pub median: i128,
    /// Position by pairing number among the players of the round (lower = higher ranked).
    pub seq: u32,
}

impl Metric {
    /// How `self` ranks against `other`: `Greater` puts `self` first. Players of one score
    /// compare Sonneborn-Berger, Buchholz, Median, then pairing number; a player moved in from
    /// another score compares Buchholz and Median multiplied by the player's own score.
    pub fn rank(&self, other: &Metric) -> Ordering {
        if self.score == other.score {
            (
                self.sonneborn,
                self.buchholz,
                self.median,
                Reverse(self.seq),
            )
                .cmp(&(
                    other.sonneborn,
                    other.buchholz,
                    other.median,
                    Reverse(other.seq),
                ))
        } else {
            let (s, o) = (i128::from(self.score), i128::from(other.score));
            (
                self.sonneborn,
                self.buchholz * s,
                self.median * s,
                Reverse(self.seq),
            )
                .cmp(&(
                    other.sonneborn,
                    other.buchholz * o,
                    other.median * o,
                    Reverse(other.seq),
                ))
        }
    }
}

/// Whether a result counts as a win, a draw or a loss for the virtual opponent rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Win,
    Draw,
    Loss,
}

fn outcome(r: ResultCode) -> Outcome {
    match r {
        ResultCode::Win
        | ResultCode::UnratedWin
        | ResultCode::FullBye
        | ResultCode::ForfeitWin
        | ResultCode::PairingBye => Outcome::Win,
        ResultCode::Draw | ResultCode::UnratedDraw | ResultCode::HalfBye => Outcome::Draw,
        ResultCode::Loss
        | ResultCode::UnratedLoss
        | ResultCode::ForfeitLoss
        | ResultCode::ZeroBye
        | ResultCode::Pending => Outcome::Loss,
    }
}

/// The virtual points of round `round`: the file's `XXA`/`250` lines when it has any,
/// otherwise the Burstein default: in rounds 1 and 2 the upper half of the field by pairing
/// number (counting the players who took part in the pairing of round 1) starts a win's
/// points ahead (docs/decisions/0272-burstein-system.md).
pub(crate) fn burstein_accelerations(
    t: &Tournament,
    round: u32,
    ps: &PointSystem,
) -> Accelerations {
    let has_lines = t
        .layout
        .iter()
        .any(|l| matches!(l, Line::Raw(s) if s.starts_with("XXA ") || s.starts_with("250 ")));
    if has_lines {
        // The reader has checked the lines of a file; a line it would refuse adds nothing.
        return accelerations(t).unwrap_or_default();
    }
    let mut acc = Accelerations::new();
    if round > 2 {
        return acc;
    }
    let mut field: Vec<_> = t.players.iter().collect();
    field.sort_by_key(|p| p.id);
    let counted =
        |p: &&super::super::trf::TrfPlayer| p.rounds.first().is_none_or(took_part_in_pairing);
    let mut bound = field.iter().filter(|p| counted(p)).count();
    if bound > 1 {
        for p in &field {
            acc.insert(p.id, vec![ps.win; 2]);
            if counted(p) {
                bound -= 2;
                if bound <= 1 {
                    break;
                }
            }
        }
    }
    acc
}

/// May receive the pairing-allocated bye: has had neither a pairing-allocated bye nor a
/// forfeit win (C.04.4.2 rule of the bye).
pub(crate) fn bye_eligible(rounds: &[RoundEntry]) -> bool {
    !rounds
        .iter()
        .any(|e| matches!(e.result, ResultCode::PairingBye | ResultCode::ForfeitWin))
}

/// The score of the virtual opponent's result in a round the player did not play: a win
/// after a loss, a draw after a draw; after a win the forfeit loss's points, except that a
/// pairing-allocated bye worth less than a win counts as a draw (or as a loss when it is worth
/// less than a draw).
fn virtual_result(e: &RoundEntry, ps: &PointSystem) -> i64 {
    match outcome(e.result) {
        Outcome::Loss => ps.win.0,
        Outcome::Draw => ps.draw.0,
        Outcome::Win => {
            let pab = e.opponent.is_none() && took_part_in_pairing(e);
            if pab && ps.pab < ps.win {
                if ps.pab < ps.draw {
                    ps.win.0
                } else {
                    ps.draw.0
                }
            } else {
                ps.forfeit_loss.0
            }
        }
    }
}

/// The tie-break values of every player of the file before round `round`, by pairing
/// number; `seq` is left 0 for the caller. An opponent's adjusted score counts each of his
/// unplayed games as a draw and includes his virtual points of the round; an unplayed game
/// of the player counts against a virtual opponent whose score is the player's own before
/// that round, the opposite result, and a draw for every later round.
pub(crate) fn metrics(
    t: &Tournament,
    round: u32,
    ps: &PointSystem,
    acc: &Accelerations,
) -> HashMap<u32, Metric> {
    let played = round as usize - 1;
    let draw = ps.draw.0;
    let adjusted: HashMap<u32, i64> = t
        .players
        .iter()
        .map(|p| {
            let games: i64 = p
                .rounds
                .iter()
                .take(played)
                .map(|e| if e.played() { ps.points(e).0 } else { draw })
                .sum();
            (p.id, virtual_points(acc, p.id, round).0 + games)
        })
        .collect();
    t.players
        .iter()
        .map(|p| {
            let mut sonneborn = 0i128;
            let mut terms: Vec<i128> = Vec::new();
            let mut own = virtual_points(acc, p.id, round).0 + (played as i64 - 1) * draw;
            let mut real = 0i64;
            for e in p.rounds.iter().take(played) {
                let points = ps.points(e).0;
                real += points;
                let opponent = match e.opponent {
                    Some(o) if e.played() => adjusted.get(&o).copied().unwrap_or(0),
                    _ => own + virtual_result(e, ps),
                };
                sonneborn += i128::from(opponent) * i128::from(points);
                terms.push(i128::from(opponent));
                own += points - draw;
            }
            let buchholz: i128 = terms.iter().sum();
            let median = match (terms.iter().min(), terms.iter().max()) {
                (Some(lo), Some(hi)) if played > 2 => buchholz - lo - hi,
                _ => 0,
            };
            let metric = Metric {
                score: real + virtual_points(acc, p.id, round).0,
                sonneborn,
                buchholz,
                median,
                seq: 0,
            };
            (p.id, metric)
        })
        .collect()
}
