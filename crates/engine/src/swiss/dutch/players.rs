//! What the Dutch system needs to know about each player before a round (C.04.3 A.2–A.7):
//! score, colour difference and preference, floats, past opponents, byes, topscorer status.

use super::super::trf::{
    Accelerations, Colour, PointSystem, ResultCode, RoundEntry, Tournament, accelerations,
    forbidden_pairs, point_system, virtual_points,
};
use super::PairError;

/// Strength of a colour preference (C.04.3 A.6), weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Strength {
    /// No games played: no preference.
    None,
    /// Colour difference 0: alternate.
    Mild,
    /// Colour difference ±1.
    Strong,
    /// Colour difference beyond ±1, or the same colour twice in a row.
    Absolute,
}

/// A float received in an earlier round (C.04.3 A.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Float {
    /// No float.
    None,
    /// Downfloat (including not playing at all, A.4.b).
    Down,
    /// Upfloat.
    Up,
}

/// One player taking part in the round being paired.
#[derive(Debug, Clone)]
pub(crate) struct Entrant {
    /// Pairing number.
    pub id: u32,
    /// Pairing score in ten-thousandths of a point under the file's point system: the real
    /// score plus the round's virtual points (`XXA`, `250`), which place the player in a
    /// scoregroup.
    pub score: i64,
    /// Real score in ten-thousandths of a point, which orders the boards.
    pub real_score: i64,
    /// Preferred colour (`None` without played games).
    pub side: Option<Colour>,
    /// Strength of the preference.
    pub strength: Strength,
    /// Games with white minus games with black.
    pub colour_diff: i64,
    /// Same colour in the last two played games.
    pub colour_double: bool,
    /// Float in the previous round.
    pub float1: Float,
    /// Float two rounds before.
    pub float2: Float,
    /// Opponents of played games.
    pub opponents: Vec<u32>,
    /// Players this one may not meet (`XXP` lines): an absolute criterion outside the FIDE
    /// rules.
    pub forbidden: Vec<u32>,
    /// Colours of played games, oldest first (`true` = white).
    pub colours: Vec<bool>,
    /// Had a pairing-allocated bye, or scored a win's points in one round without playing: a
    /// forfeit win or a full-point bye (C.04.1 art. 4 (2025) / C.04.3 C.2).
    pub bye_received: bool,
    /// Topscorer (A.7): more than 50% of the maximum score before the last round.
    pub topscorer: bool,
    /// May receive the pairing-allocated bye in this round (set by the pairing).
    pub bye_ok: bool,
    /// Rounds before this one in which the player played no game (byes, forfeits, absences):
    /// the PAB assignee should have as few as possible.
    pub unplayed: u32,
    /// 1-based position by pairing number among this round's entrants and the absent players
    /// who were paired in an earlier round (absentees never paired are skipped): the number
    /// whose parity decides colours by E.5.
    pub seq: u32,
}

/// Pairing scores in ten-thousandths of a point before each round (index r = before round r+1: the real
/// score plus that round's virtual points), for every player. Floats of past rounds compare
/// these, so virtual points keep counting for them after the accelerated rounds.
fn score_lists(
    t: &Tournament,
    rounds: usize,
    acc: &Accelerations,
    ps: &PointSystem,
) -> std::collections::HashMap<u32, Vec<i64>> {
    t.players
        .iter()
        .map(|p| {
            let vp = |r: usize| virtual_points(acc, p.id, r as u32 + 1).0;
            let mut real = 0i64;
            let mut list = vec![vp(0)];
            for r in 0..rounds {
                real += p.rounds.get(r).map_or(0, |e| ps.points(e).0);
                list.push(real + vp(r + 1));
            }
            (p.id, list)
        })
        .collect()
}

/// The entrants of round `round` (1-based): every player without an entry for that round,
/// sorted by score (descending) then pairing number (C.04.3 A.2).
pub(crate) fn entrants(t: &Tournament, round: u32) -> Result<Vec<Entrant>, PairError> {
    // The reader has checked the lines of a file; a line it would refuse adds nothing here.
    entrants_with(t, round, &accelerations(t).unwrap_or_default())
}

/// [`entrants`] with the virtual points `acc` in place of the file's acceleration lines.
pub(crate) fn entrants_with(
    t: &Tournament,
    round: u32,
    acc: &Accelerations,
) -> Result<Vec<Entrant>, PairError> {
    let played = round as usize - 1;
    let ps = point_system(t).unwrap_or_default();
    let scores = score_lists(t, played, acc, &ps);
    let forbidden = forbidden_pairs(t).unwrap_or_default();
    let total = t.total_rounds.unwrap_or(round);
    let last_round = round == total;
    let mut out = Vec::new();
    for p in &t.players {
        if p.rounds.len() > played {
            continue; // already has an entry (an announced absence) for this round
        }
        for (r, e) in p.rounds.iter().enumerate() {
            if let Some(o) = e.opponent
                && t.player(o).is_none()
            {
                return Err(PairError::UnknownOpponent {
                    player: p.id,
                    round: r as u32 + 1,
                    opponent: o,
                });
            }
        }
        let played_games: Vec<(u32, bool)> = p
            .rounds
            .iter()
            .filter(|e| e.played())
            .filter_map(|e| Some((e.opponent?, e.colour? == Colour::White)))
            .collect();
        let colours: Vec<bool> = played_games.iter().map(|g| g.1).collect();
        let whites = colours.iter().filter(|&&c| c).count() as i64;
        let diff = 2 * whites - colours.len() as i64;
        let double = colours.len() > 1 && colours[colours.len() - 1] == colours[colours.len() - 2];
        // A.6: a colour difference beyond ±1 asks for the other colour; otherwise the same
        // colour in the last two games asks for the other one, even against a difference of
        // ±1 (W W W B B wants white, absolutely); then the difference; then alternation.
        let by_diff = if diff > 0 {
            Some(Colour::Black)
        } else if diff < 0 {
            Some(Colour::White)
        } else {
            None
        };
        let after_last = colours
            .last()
            .map(|&w| if w { Colour::Black } else { Colour::White });
        let side = if diff.abs() > 1 {
            by_diff
        } else if double {
            after_last
        } else {
            by_diff.or(after_last)
        };
        let strength = if side.is_none() {
            Strength::None
        } else if diff.abs() > 1 || double {
            Strength::Absolute
        } else if diff.abs() == 1 {
            Strength::Strong
        } else {
            Strength::Mild
        };
        let float_in = |r: usize| -> Float {
            // r: 0-based round index
            let Some(e) = p.rounds.get(r) else {
                return Float::None;
            };
            if !e.played() {
                // C.04.3 (2025) 1.4.3: scoring without playing more than a loss is a downfloat;
                // a forfeit loss or a zero-point bye is no float at all (compared with the
                // points of a played loss, as bbpPairings does).
                return if ps.points(e) > ps.loss {
                    Float::Down
                } else {
                    Float::None
                };
            }
            let own = scores[&p.id][r];
            let opp = e
                .opponent
                .and_then(|o| scores.get(&o))
                .map_or(own, |l| l[r]);
            match own.cmp(&opp) {
                std::cmp::Ordering::Greater => Float::Down,
                std::cmp::Ordering::Less => Float::Up,
                std::cmp::Ordering::Equal => Float::None,
            }
        };
        let score = scores[&p.id][played];
        let real_score = score - virtual_points(acc, p.id, round).0;
        let unplayed = played.saturating_sub(colours.len()) as u32;
        out.push(Entrant {
            id: p.id,
            score,
            real_score,
            side,
            strength,
            colour_diff: diff,
            colour_double: double,
            float1: if played >= 1 {
                float_in(played - 1)
            } else {
                Float::None
            },
            float2: if played >= 2 {
                float_in(played - 2)
            } else {
                Float::None
            },
            opponents: played_games.iter().map(|g| g.0).collect(),
            forbidden: forbidden
                .iter()
                .filter_map(|&(a, b)| {
                    if a == p.id {
                        Some(b)
                    } else if b == p.id {
                        Some(a)
                    } else {
                        None
                    }
                })
                .collect(),
            colours,
            bye_received: p.rounds.iter().take(played).any(|e| ps.bye_like(e)),
            // more than half of the most points of the rounds played (a win's or a draw's
            // points, whichever is more, in every round)
            topscorer: last_round && 2 * score > played as i64 * ps.win.0.max(ps.draw.0),
            bye_ok: false,
            unplayed,
            seq: 0,
        });
    }
    // E.5 numbers: this round's entrants, plus absent players who took part in an earlier
    // pairing (as bbpPairings ranks them); an absentee never paired so far is skipped.
    let mut ids: Vec<u32> = t
        .players
        .iter()
        .filter(|p| p.rounds.len() <= played || p.rounds.iter().any(took_part_in_pairing))
        .map(|p| p.id)
        .collect();
    ids.sort_unstable();
    for e in &mut out {
        e.seq = ids.binary_search(&e.id).map_or(0, |i| i as u32 + 1);
    }
    out.sort_by(|a, b| b.score.cmp(&a.score).then(a.id.cmp(&b.id)));
    Ok(out)
}

/// Whether a round entry shows the player was paired in it: an opponent (played or forfeit),
/// the pairing-allocated bye, or a forfeit win. Requested byes (`H`, `F`, `Z`) and absences
/// without a bye (`0000 - -`) are not.
pub(crate) fn took_part_in_pairing(e: &RoundEntry) -> bool {
    e.opponent.is_some() || matches!(e.result, ResultCode::PairingBye | ResultCode::ForfeitWin)
}

/// Absolute criteria C.1 (not met before) and C.3 (non-topscorers with the same absolute
/// colour preference do not meet), and the file's forbidden pairs (`XXP`, outside the FIDE
/// rules).
pub(crate) fn compatible(a: &Entrant, b: &Entrant) -> bool {
    if a.opponents.contains(&b.id) || a.forbidden.contains(&b.id) {
        return false;
    }
    let both_absolute = a.strength == Strength::Absolute && b.strength == Strength::Absolute;
    !both_absolute || a.side != b.side || a.topscorer || b.topscorer
}
