//! The FIDE Dutch system (C.04.3, rules effective from 1 July 2025), docs/rules/rapid-blitz.md#the-dutch-system.
//!
//! Brackets are paired from the top scoregroup down (A.3, B). Each bracket is one
//! maximum-weight matching over its moved-down players (MDPs), residents and the next
//! scoregroup, with weights that rank candidates by the quality criteria C.5–C.19; the
//! transpositions and exchanges of D.1–D.3 are imposed step by step (warm-started matching).
//! Every player still unpaired below takes part in the matching with completion as the most
//! significant weight, so a bracket never leaves the rest of the round unpairable (C.4) and no
//! collapsed-scoregroup step is needed. Of the pairs of those players (which all weigh the
//! completion unit alone) the graph holds only a few per player, and every solve is certified
//! optimal for the full graph by its duals (docs/decisions/0153-dutch-pruned-graph.md), so the
//! graph grows with the bracket, not with the square of the field. Colours follow E.1–E.5
//! and boards are ordered by the Handling Rules (score of the higher player, sum of scores,
//! rank of the higher player).

pub(crate) mod blocked;
mod bracket;
mod check;
pub(crate) mod players;

pub use blocked::{Blocked, BlockedPlayer};
pub use check::{
    Breach, Criteria, Difference, Incomplete, Verdict, check_tournament, check_tournament_under,
};

use super::trf::{Colour, ResultCode, Tournament};
use bracket::{Bracket, Matcher};
use players::{Entrant, Strength, compatible};
use serde::{Deserialize, Serialize};

/// One board of a round: `black == None` is the pairing-allocated bye.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissBoard {
    /// Pairing number of the player with white (or of the player with the bye).
    pub white: u32,
    /// Pairing number of the player with black; `None` for the bye.
    pub black: Option<u32>,
}

/// Why a round could not be paired.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairError {
    /// The round number is 0 or beyond the rounds the file allows.
    #[error("round {round} cannot be paired: the file holds {played} played rounds")]
    RoundOutOfRange {
        /// The requested round.
        round: u32,
        /// Rounds present in the file.
        played: u32,
    },
    /// A round entry names a pairing number that is not in the file.
    #[error("player {player}, round {round}: opponent {opponent} is not in the tournament")]
    UnknownOpponent {
        /// The player whose line is wrong.
        player: u32,
        /// The round.
        round: u32,
        /// The unknown opponent.
        opponent: u32,
    },
    /// No pairing satisfies the absolute criteria C.1–C.3; `blocked` names the players that
    /// cannot all be paired and the criteria in their way.
    #[error("round {round}: no pairing satisfies the absolute criteria: {blocked}")]
    NoValidPairing {
        /// The round.
        round: u32,
        /// Who cannot be paired, and why.
        blocked: Blocked,
    },
    /// The caller stopped the calculation before it ended.
    #[error("the pairing was stopped before it ended")]
    Stopped,
    /// A bracket needs wider weights than the engine holds.
    #[error("a bracket needs {bits}-bit weights, more than supported")]
    TooLarge {
        /// Bits needed.
        bits: u32,
    },
}

/// A pairing system: pairs round `round` of a tournament (as [`pair_round`] does).
pub type PairFn = dyn Fn(&Tournament, u32) -> Result<Vec<SwissBoard>, PairError>;

/// The next round to pair: one more than the fewest rounds any player has in the file.
pub fn next_round(t: &Tournament) -> u32 {
    t.players.iter().map(|p| p.rounds.len()).min().unwrap_or(0) as u32 + 1
}

/// Pairs round `round` (1-based) of `t` with the FIDE Dutch system. Players that already have
/// an entry for `round` (announced absences, `0000 - H` etc.) are not paired. Boards come in
/// publishing order; the bye, if any, is last.
pub fn pair_round(t: &Tournament, round: u32) -> Result<Vec<SwissBoard>, PairError> {
    pair_round_until(t, round, &crate::stop::Never)
}

/// [`pair_round`] that gives up with [`PairError::Stopped`] once `stop` is raised; it looks
/// before the bye is chosen and before every bracket.
pub fn pair_round_until(
    t: &Tournament,
    round: u32,
    stop: &dyn crate::stop::Stop,
) -> Result<Vec<SwissBoard>, PairError> {
    pair_round_with(t, round, stop, bracket::FAR_PARTNERS, bracket::TIGHT_ROOTS)
}

/// [`pair_round_until`] with `far_partners` far pairs per player in each bracket's first graph
/// (`usize::MAX`: every pair) and each bracket's matching searching its tight edges first from
/// `tight_roots` exposed vertices on (`usize::MAX`: never). The pairing is the same for every
/// value; only the work differs.
fn pair_round_with(
    t: &Tournament,
    round: u32,
    stop: &dyn crate::stop::Stop,
    far_partners: usize,
    tight_roots: usize,
) -> Result<Vec<SwissBoard>, PairError> {
    let played = t.rounds_in_file() as u32;
    if round == 0 || round > played + 1 {
        return Err(PairError::RoundOutOfRange { round, played });
    }
    let mut players = players::entrants(t, round)?;
    if stop.stopped() {
        return Err(PairError::Stopped);
    }
    if choose_bye_score(&mut players).is_none() {
        return Err(PairError::NoValidPairing {
            round,
            blocked: blocked::diagnose(&players),
        });
    }
    let initial_white = initial_white(t);
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, p) in players.iter().enumerate() {
        match groups.last_mut() {
            Some(g) if players[g[0]].score == p.score => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut byes: Vec<usize> = Vec::new();
    let mut mdps: Vec<usize> = Vec::new();
    for idx in 0..groups.len() {
        if stop.stopped() {
            return Err(PairError::Stopped);
        }
        let residents = groups[idx].clone();
        let lower = groups.get(idx + 1).cloned().unwrap_or_default();
        let rest: Vec<usize> = groups.iter().skip(idx + 2).flatten().copied().collect();
        let lpb = lower.is_empty();
        let b = Bracket {
            players: &players,
            mdps: std::mem::take(&mut mdps),
            residents,
            lower,
            rest,
            round,
            far_partners,
            tight_roots,
        };
        let (bp, unpaired) = pair_bracket(&b)?;
        pairs.extend(bp);
        if lpb {
            byes.extend(unpaired);
        } else {
            mdps = unpaired;
        }
    }
    if byes.len() > 1 || (byes.len() == 1 && !players[byes[0]].bye_ok) {
        return Err(PairError::NoValidPairing {
            round,
            blocked: blocked::diagnose(&players),
        });
    }
    let mut boards: Vec<(usize, usize)> = pairs
        .into_iter()
        .map(|(a, b)| if a < b { (a, b) } else { (b, a) })
        .collect();
    // Handling rules: score of the higher-ranked player, then the lower player's score (= sum),
    // then the rank of the higher-ranked player; real scores, without virtual points.
    let by_real = |i: usize, j: usize| {
        let (a, b) = (&players[i], &players[j]);
        if (b.real_score, a.id) > (a.real_score, b.id) {
            (j, i)
        } else {
            (i, j)
        }
    };
    boards.sort_by(|x, y| {
        let (h, l) = by_real(x.0, x.1);
        let (ha, la) = (&players[h], &players[l]);
        let (h, l) = by_real(y.0, y.1);
        let (hb, lb) = (&players[h], &players[l]);
        hb.real_score
            .cmp(&ha.real_score)
            .then(lb.real_score.cmp(&la.real_score))
            .then(ha.id.cmp(&hb.id))
    });
    let mut out: Vec<SwissBoard> = boards
        .into_iter()
        .map(|(h, l)| {
            let (a, b) = (&players[h], &players[l]);
            if higher_gets_white(a, b, initial_white) {
                SwissBoard {
                    white: a.id,
                    black: Some(b.id),
                }
            } else {
                SwissBoard {
                    white: b.id,
                    black: Some(a.id),
                }
            }
        })
        .collect();
    out.extend(byes.iter().map(|&i| SwissBoard {
        white: players[i].id,
        black: None,
    }));
    Ok(out)
}

/// Whether the top player had (or has) white in the first round with colours: the `XXC` line
/// when the file has one, otherwise inferred as bbpPairings does (docs/decisions/0271-swiss-checker.md):
/// in the first round in which anyone has a colour, the colour of the first player by pairing
/// number who took part in a pairing by then, reversed for every such player above him
/// without a colour that round; white when nobody has a colour yet.
pub(crate) fn initial_white(t: &Tournament) -> bool {
    if let Some(c) = t.initial_colour {
        return c == Colour::White;
    }
    let Some(first) = t
        .players
        .iter()
        .filter_map(|p| p.rounds.iter().position(|e| e.colour.is_some()))
        .min()
    else {
        return true;
    };
    let mut ids: Vec<&super::trf::TrfPlayer> = t.players.iter().collect();
    ids.sort_by_key(|p| p.id);
    let took_part = |e: &super::trf::RoundEntry| {
        e.opponent.is_some() || matches!(e.result, ResultCode::PairingBye | ResultCode::ForfeitWin)
    };
    let mut reversed = false;
    for p in ids {
        if !p.rounds.iter().take(first + 1).any(took_part) {
            continue;
        }
        if let Some(c) = p.rounds.get(first).and_then(|e| e.colour) {
            return (c == Colour::White) != reversed;
        }
        reversed = !reversed;
    }
    true
}

/// For an odd number of entrants, the bye goes to a player of the lowest score for which the
/// rest of the round can still be paired (C.2 and the completion criterion): marks those players
/// `bye_ok`. Returns `None` when no pairing exists at all.
fn choose_bye_score(players: &mut [Entrant]) -> Option<()> {
    if players.len().is_multiple_of(2) {
        return completable(players, &[]).then_some(());
    }
    let mut scores: Vec<i64> = players.iter().map(|p| p.score).collect();
    scores.sort_unstable();
    scores.dedup();
    for s in scores {
        for p in players.iter_mut() {
            p.bye_ok = !p.bye_received && p.score == s;
        }
        if players.iter().any(|p| p.bye_ok) && completable(players, &[]) {
            return Some(());
        }
    }
    None
}

/// Whether the players outside `fixed` can all be paired (plus one bye for an odd count)
/// under the absolute criteria (A.9 / C.4). First on a sparse part of the graph (each player
/// with its next few compatible players): a perfect matching there is one of the whole graph.
/// Only when there is none is the whole graph solved.
fn completable(players: &[Entrant], fixed: &[(usize, usize)]) -> bool {
    completable_in(players, fixed, Some(COMPLETION_PARTNERS))
        || completable_in(players, fixed, None)
}

/// How many later compatible players each player is given in the sparse completion check.
const COMPLETION_PARTNERS: usize = 12;

/// [`completable`] over the pairs of each player with its first `partners` later compatible
/// players (all of them for `None`).
fn completable_in(players: &[Entrant], fixed: &[(usize, usize)], partners: Option<usize>) -> bool {
    let mut taken = vec![false; players.len()];
    for &(a, b) in fixed {
        taken[a] = true;
        taken[b] = true;
    }
    let free: Vec<usize> = (0..players.len()).filter(|&i| !taken[i]).collect();
    let n = free.len();
    let with_bye = n % 2 == 1;
    let mut edges = Vec::new();
    for x in 0..n {
        let mut kept = 0;
        for y in x + 1..n {
            if partners == Some(kept) {
                break;
            }
            if compatible(&players[free[x]], &players[free[y]]) {
                edges.push((x, y, 1u64));
                kept += 1;
            }
        }
        if with_bye && players[free[x]].bye_ok {
            edges.push((x, n, 1u64));
        }
    }
    let total = n + with_bye as usize;
    let m = super::matching::max_weight_matching(total, &edges);
    m.iter().all(Option::is_some)
}

/// A bracket's pairs (global indices) and its unpaired players.
type BracketResult = (Vec<(usize, usize)>, Vec<usize>);

/// Pairs one bracket: returns its pairs (global indices) and its unpaired players (the
/// downfloaters, or the bye in the last bracket), in pairing order.
///
/// The matching leaves out most pairs of players far below the bracket and checks every
/// solution against the full graph; when a left-out pair could have mattered, the bracket is
/// paired again with all far pairs of the players concerned (after two such attempts, of every
/// player), so the result is always a maximum-weight matching of the full graph.
fn pair_bracket(b: &Bracket) -> Result<BracketResult, PairError> {
    let mut full: Vec<usize> = Vec::new();
    for attempt in 0.. {
        let mut m = Matcher::new(b, &full)?;
        let out = pair_bracket_in(b, &mut m);
        if m.violators.is_empty() {
            return Ok(out);
        }
        if attempt >= 1 {
            full = (0..m.verts.len()).collect();
        } else {
            full.extend(&m.violators);
        }
    }
    unreachable!()
}

/// [`pair_bracket`] on one matching.
fn pair_bracket_in(b: &Bracket, m: &mut Matcher) -> BracketResult {
    let nm = b.mdps.len();
    let nr = b.residents.len();
    let n = nm + nr + b.lower.len();
    let mdp_local: Vec<usize> = (0..nm).collect();
    let res_local: Vec<usize> = (nm..nm + nr).collect();

    // D.3: choose S1 among the MDPs, best BSNs first.
    let mut het_s1 = Vec::new();
    for &x in &mdp_local {
        if !m.resident_match(x) {
            m.add_all(x, &res_local, 1, 0);
            m.update();
        }
        if m.resident_match(x) {
            het_s1.push(x);
            m.add_all(x, &res_local, n as i64, 0);
        }
    }
    // D.1 for the heterogeneous part: each MDP in S1 takes the best-placed resident possible.
    let mut het_s2 = Vec::new();
    for &x in &het_s1 {
        m.prefer_in_order(x, &res_local);
        if let Some(y) = m.mate[x] {
            het_s2.push(y);
            m.finalize(x, y);
        }
    }
    // D.2: the remainder / homogeneous part.
    let remainder: Vec<usize> = res_local
        .iter()
        .copied()
        .filter(|r| !het_s2.contains(r))
        .collect();
    let pairs = remainder.iter().filter(|&&r| m.resident_match(r)).count() / 2;
    let s1: Vec<usize> = remainder[..pairs].to_vec();
    let s2: Vec<usize> = remainder[pairs..].to_vec();
    let bb = usize::BITS - nr.leading_zeros();
    for (i, &r) in remainder.iter().enumerate() {
        let value = ((((i < pairs) as i64) << (2 * bb)) - i as i64) << 1;
        m.add_all(r, &remainder[i + 1..], value, 0);
    }
    m.update();
    let mut exchanges = s1.iter().filter(|&&r| m.in_s2(r)).count();
    let mut to_s1 = exchanges;
    // D.2.c: highest BSNs moved from S1 to S2.
    for i in (0..s1.len()).rev() {
        if exchanges == 0 {
            break;
        }
        let r = s1[i];
        let lower: Vec<usize> = s1[i + 1..].iter().chain(&s2).copied().collect();
        let was = m.in_s2(r);
        if !was {
            m.add_all(r, &lower, -1, 0);
            m.update();
        }
        if m.in_s2(r) {
            exchanges -= 1;
            for &y in &lower {
                m.remove(r, y);
            }
        } else if !was {
            m.add_all(r, &lower, 1, 0);
        }
    }
    // D.2.d: lowest BSNs moved from S2 to S1.
    for i in 0..s2.len() {
        if to_s1 == 0 {
            break;
        }
        let r = s2[i];
        let below: Vec<usize> = s2[i + 1..].to_vec();
        let above: Vec<usize> = s1.iter().chain(&s2[..i]).copied().collect();
        let was = m.in_s1(r);
        if !was {
            m.add_all(r, &below, 1, 0);
            m.update();
        }
        if m.in_s1(r) {
            to_s1 -= 1;
            for &y in &above {
                m.remove(r, y);
            }
        } else if !was {
            m.add_all(r, &below, -1, 0);
        }
    }
    // The exchanged S1 and S2, then D.1 transpositions in S2.
    let homo: Vec<usize> = s1.iter().chain(&s2).copied().collect();
    let new_s1: Vec<usize> = homo.iter().copied().filter(|&r| m.in_s1(r)).collect();
    let new_s2: Vec<usize> = homo.iter().copied().filter(|&r| m.in_s2(r)).collect();
    for (i, &r) in new_s1.iter().enumerate() {
        for &y in &new_s1[i + 1..] {
            m.remove(r, y);
        }
    }
    for (i, &r) in new_s2.iter().enumerate() {
        for &y in &new_s2[i + 1..] {
            m.remove(r, y);
        }
    }
    for &x in &new_s1 {
        m.prefer_in_order(x, &new_s2);
        if let Some(y) = m.mate[x] {
            m.finalize(x, y);
        }
    }
    let mut pairs_out = Vec::new();
    let mut unpaired = Vec::new();
    for x in 0..nm + nr {
        match m.mate[x] {
            Some(y) if m.role[y].in_bracket() => {
                if x < y {
                    pairs_out.push((m.verts[x], m.verts[y]));
                }
            }
            _ => unpaired.push(m.verts[x]),
        }
    }
    (pairs_out, unpaired)
}

/// Colour allocation E.1–E.5 for `a` (ranked higher) against `b`: true when `a` gets white.
pub(crate) fn higher_gets_white(a: &Entrant, b: &Entrant, initial_white: bool) -> bool {
    let white = |c: Colour| c == Colour::White;
    // E.1 both preferences granted
    if let (Some(sa), Some(sb)) = (a.side, b.side)
        && sa != sb
    {
        return white(sa);
    }
    // E.2 the stronger preference (for two absolutes: the wider colour difference)
    if a.strength != b.strength {
        return if a.strength > b.strength {
            a.side.is_some_and(white)
        } else {
            !b.side.is_some_and(white)
        };
    }
    if a.strength == Strength::Absolute && a.colour_diff.abs() != b.colour_diff.abs() {
        return if a.colour_diff.abs() > b.colour_diff.abs() {
            a.side.is_some_and(white)
        } else {
            !b.side.is_some_and(white)
        };
    }
    // E.3 alternate from the most recent round in which they had different colours
    for (ca, cb) in a.colours.iter().rev().zip(b.colours.iter().rev()) {
        if ca != cb {
            return !*ca;
        }
    }
    // E.4 the higher-ranked player's preference
    if let Some(sa) = a.side {
        return white(sa);
    }
    // E.5 parity of the higher-ranked player's number, relative to the initial colour; the
    // number skips absent players never paired so far (as the reference engine does, see
    // docs/decisions/0005-swiss-dutch.md)
    (a.seq % 2 == 1) == initial_white
}

#[cfg(test)]
mod accel_tests;
#[cfg(test)]
mod points_tests;
#[cfg(test)]
mod tests;
