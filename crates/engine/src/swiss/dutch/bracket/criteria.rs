//! The weights of one bracket's pairs (C.04.3 C.5–C.19): the bit fields of each quality
//! criterion, most significant first, and the score differences they compare.

use super::{Bracket, Role, bit_length};
use crate::fixed::Fixed;
use crate::swiss::dutch::players::{Entrant, Float, Strength, compatible};
use crate::swiss::matching::max_weight_matching;
use crate::swiss::wide::Wide;
use std::collections::BTreeMap;

/// The score a downfloater's difference is measured from lies one point below the lowest
/// score of the bracket (C.04.3 A.8), whatever the point system
/// (docs/decisions/0270-point-systems.md).
const ONE_POINT: i64 = Fixed::ONE.0;

/// Whether the bracket can be paired so that its only unpaired player is the PAB assignee:
/// every player of the round paired (completion first), then as many pairs as possible inside
/// the bracket, which then leaves exactly one of its players out.
fn bye_is_single_downfloater(b: &Bracket) -> bool {
    let p = b.players;
    let inside: Vec<usize> = b.mdps.iter().chain(&b.residents).copied().collect();
    if inside.len().is_multiple_of(2) {
        return false;
    }
    let all: Vec<usize> = inside
        .iter()
        .chain(&b.lower)
        .chain(&b.rest)
        .copied()
        .collect();
    let n = all.len();
    let with_bye = n % 2 == 1;
    let unit = n as u64 + 1;
    let mut edges = Vec::new();
    for x in 0..n {
        for y in x + 1..n {
            if compatible(&p[all[x]], &p[all[y]]) {
                edges.push((x, y, unit + (y < inside.len()) as u64));
            }
        }
        if with_bye && p[all[x]].bye_ok {
            edges.push((x, n, unit));
        }
    }
    let mate = max_weight_matching(n + with_bye as usize, &edges);
    let paired_inside = (0..inside.len())
        .filter(|&x| mate[x].is_some_and(|y| y < inside.len()))
        .count();
    paired_inside + 1 == inside.len()
}

pub(super) struct Layout {
    one_round: bool,
    two_rounds: bool,
    ppb_or_lpb: bool,
    min_score: i64,
    /// Width of the per-pair fields: enough for a count of every player of the bracket
    /// (MDPs and residents), as a field may count up to two players per pair.
    pub(super) bb: u32,
    lbb: u32,
    sd_total: u32,
    sd_pos: BTreeMap<i64, u32>,
    /// The fewest unplayed rounds among the bye candidates, when this bracket's residents are
    /// the players who may receive the bye (`None` otherwise: the criterion is idle).
    bye_unplayed_min: Option<u32>,
    /// Width of the unplayed-rounds field of the PAB assignee.
    bye_bits: u32,
}

impl Layout {
    pub(super) fn new(b: &Bracket) -> Layout {
        let p = b.players;
        let min_score = b.residents.last().map_or(0, |&r| p[r].score);
        let mut diffs: Vec<i64> = Vec::new();
        for &i in b.mdps.iter().chain(&b.residents) {
            diffs.push(p[i].score - min_score + ONE_POINT);
        }
        for &m in &b.mdps {
            let set: std::collections::BTreeSet<i64> = b
                .residents
                .iter()
                .map(|&r| p[m].score - p[r].score)
                .collect();
            diffs.extend(set);
        }
        for (k, &r) in b.residents.iter().enumerate() {
            let set: std::collections::BTreeSet<i64> = b.residents[k + 1..]
                .iter()
                .map(|&o| p[r].score - p[o].score)
                .collect();
            diffs.extend(set);
        }
        let mut counts: BTreeMap<i64, usize> = BTreeMap::new();
        for d in diffs {
            *counts.entry(d).or_default() += 1;
        }
        let mut sd_pos = BTreeMap::new();
        let mut total = 0;
        for (d, c) in counts {
            sd_pos.insert(d, total);
            total += bit_length(c);
        }
        // Minimise the unplayed rounds of the PAB assignee: in the bracket that holds the bye
        // candidates, every candidate that gets paired earns its surplus of unplayed rounds
        // over the fewest, so the maximum matching leaves out (gives the bye to) a candidate
        // with as few unplayed rounds as possible. The candidates may be residents or, when
        // everyone below the bye score group is ineligible, players moved down into the
        // bracket: both count.
        let candidates: Vec<u32> = b
            .mdps
            .iter()
            .chain(&b.residents)
            .filter(|&&r| p[r].bye_ok)
            .map(|&r| p[r].unplayed)
            .collect();
        let bye_unplayed_min = candidates
            .iter()
            .min()
            .copied()
            .filter(|_| bye_is_single_downfloater(b));
        let bye_bits = match bye_unplayed_min {
            Some(lo) => {
                let total: u32 = candidates.iter().map(|u| u - lo).sum();
                bit_length(total as usize)
            }
            None => 0,
        };
        Layout {
            bye_unplayed_min,
            bye_bits,
            one_round: b.round > 1,
            two_rounds: b.round > 2,
            ppb_or_lpb: b.lower.is_empty(),
            min_score,
            bb: bit_length(b.mdps.len() + b.residents.len()),
            lbb: bit_length(b.lower.len()),
            sd_total: total,
            sd_pos,
        }
    }

    fn sd(&self, d: i64) -> Wide {
        Wide::bit(self.sd_pos.get(&d).copied().unwrap_or(0))
    }

    /// The fields (shift, add, subtract) of the quality criteria C.5–C.19 for the pair `a`–`b`
    /// (`a` ranked above `b`), handed to `f` most significant first; all zero for pairs that
    /// involve players below the next scoregroup.
    pub(super) fn criteria(
        &self,
        a: &Entrant,
        ra: Role,
        b: &Entrant,
        rb: Role,
        f: &mut impl FnMut(u32, Wide, Wide),
    ) {
        let far = matches!(ra, Role::Rest | Role::Bye) || matches!(rb, Role::Rest | Role::Bye);
        let a_lower = ra == Role::Lower;
        let b_lower = rb == Role::Lower;
        // (shift, add, subtract)
        let z = Wide::ZERO;
        let one = |c: bool| Wide::from_u64(c as u64);
        let inb = ra.in_bracket() && rb.in_bracket();
        let d1 = a.score - self.min_score + ONE_POINT;
        let d2 = b.score - self.min_score + ONE_POINT;
        let d3 = a.score - b.score;
        // C.5 maximise the number of pairs
        f(self.bb, one(inb), z);
        // C.6 minimise the PSD
        if inb {
            f(self.sd_total, self.sd(d1) + self.sd(d2), self.sd(d3));
        } else {
            f(self.sd_total, z, z);
        }
        // C.7 pairs and PSD in the following bracket
        if self.ppb_or_lpb {
            f(0, z, z);
        } else if far {
            f(self.lbb + self.sd_total, z, z);
        } else {
            let mut v = one(b_lower).shl(self.sd_total);
            if !a_lower {
                v += self.sd(d1);
            }
            if !b_lower {
                v += self.sd(d2);
            }
            f(self.lbb + self.sd_total, v, z);
        }
        // PAB assignee with the fewest unplayed rounds (2025 rules; after C.7, before colours)
        let surplus = |x: &Entrant, lo: u32| {
            if x.bye_ok {
                x.unplayed.saturating_sub(lo)
            } else {
                0
            }
        };
        match self.bye_unplayed_min {
            Some(lo) if !far => f(
                self.bye_bits,
                Wide::from_u64((surplus(a, lo) + surplus(b, lo)) as u64),
                z,
            ),
            _ => f(self.bye_bits, z, z),
        }
        let top = a.topscorer || b.topscorer;
        // a colour conflict needs two players wanting the same colour (no preference never
        // conflicts)
        let same_side = a.side.is_some() && a.side == b.side;
        // C.8 topscorers: colour difference beyond ±2
        f(
            self.bb,
            one(inb && !(top && a.colour_diff.abs() > 1 && b.colour_diff.abs() > 1 && same_side)),
            z,
        );
        // C.9 topscorers: same colour three times in a row
        f(
            self.bb,
            one(inb && !(top && a.colour_double && b.colour_double && same_side)),
            z,
        );
        // C.10 colour preferences
        f(self.bb, one(inb && !same_side), z);
        // C.11 strong colour preferences
        let strong = a.strength >= Strength::Strong && b.strength >= Strength::Strong;
        f(self.bb, one(inb && !(strong && same_side)), z);
        let r1 = self.one_round;
        let r2 = self.two_rounds;
        let no_down = |x: &Entrant, fl: Float, higher: bool| {
            fl == Float::Down && (!higher || x.score <= b.score)
        };
        // C.12 repeated downfloat (previous round)
        let c12 = no_down(a, a.float1, true) as u64 + no_down(b, b.float1, false) as u64;
        f(
            if r1 { self.bb } else { 0 },
            if inb && r1 { Wide::from_u64(c12) } else { z },
            z,
        );
        // C.13 repeated upfloat (previous round)
        let up1 = b.float1 == Float::Up && a.score > b.score;
        f(if r2 { self.bb } else { 0 }, one(inb && r2 && !up1), z);
        // C.14 downfloat two rounds before
        let c14 = no_down(a, a.float2, true) as u64 + no_down(b, b.float2, false) as u64;
        f(
            if r1 { self.bb } else { 0 },
            if inb && r1 { Wide::from_u64(c14) } else { z },
            z,
        );
        // C.15 upfloat two rounds before
        let up2 = b.float2 == Float::Up && a.score > b.score;
        f(if r2 { self.bb } else { 0 }, one(inb && r2 && !up2), z);
        self.float_differences(a, b, inb, f);
    }

    /// The fields of C.16–C.19 for the pair `a`–`b` (`a` ranked above `b`): the score
    /// differences of repeated downfloaters and of the opponents of repeated upfloaters, of
    /// the previous round and of the round before it.
    fn float_differences(
        &self,
        a: &Entrant,
        b: &Entrant,
        inb: bool,
        f: &mut impl FnMut(u32, Wide, Wide),
    ) {
        let z = Wide::ZERO;
        let (r1, r2) = (self.one_round, self.two_rounds);
        let d1 = a.score - self.min_score + ONE_POINT;
        let d2 = b.score - self.min_score + ONE_POINT;
        let d3 = a.score - b.score;
        // C.16 / C.18 score differences of repeated downfloaters
        for (on, fa, fb) in [(r1, a.float1, b.float1), (r2, a.float2, b.float2)] {
            let shift = if on { self.sd_total } else { 0 };
            if inb && on {
                let (pa, pb) = (fa == Float::Down, fb == Float::Down);
                let mut add = z;
                if pa {
                    add += self.sd(d1);
                }
                if pb {
                    add += self.sd(d2);
                }
                let sub = if pa && a.score > b.score {
                    self.sd(d3)
                } else {
                    z
                };
                f(shift, add, sub);
            } else {
                f(shift, z, z);
            }
            // C.17 / C.19 score differences of repeated upfloaters (same round as above)
            let up = fb == Float::Up && a.score > b.score;
            let shift = if on { self.sd_total } else { 0 };
            let sub = if inb && on && up { self.sd(d1) } else { z };
            f(shift, z, sub);
        }
        // order: C16, C17, C18, C19 — the loop above gave 16, 17, 18, 19.
    }
}
