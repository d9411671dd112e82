//! Rapid and blitz tournaments: the number of Swiss rounds, the blitz check-in's closing
//! minute, and the playoff for first place.
//!
//! The blitz championship (docs/rules/rapid-blitz.md#the-blitz-championship): how many Swiss
//! rounds a field plays, who plays the play-off for first place (everyone on the top score),
//! and the play-off itself — every candidate against every other with both colours (a double
//! round robin by FIDE's Berger tables), decided on points, or left to the arbiter when still
//! tied.
//!
//! # Example
//!
//! Sixteen players get ⌈log2 16⌉ + 2 = 6 rounds; a player who checks in during the minute named
//! as the closing time ("present at 20.00") is on time, one who comes at 20:01 is not.
//!
//! ```
//! use chrono::{TimeZone, Utc};
//! use clubcomp_engine::blitz::{RoundsRule, checked_in_on_time, swiss_rounds};
//!
//! assert_eq!(swiss_rounds(16, RoundsRule::default()), 6);
//! assert_eq!(swiss_rounds(5, RoundsRule::default()), 4); // ⌈log2 5⌉ + 2 = 5, but at most n − 1
//! let closes = Utc.with_ymd_and_hms(2027, 1, 8, 19, 0, 0).unwrap(); // 20:00 in Amsterdam
//! assert!(checked_in_on_time(Utc.with_ymd_and_hms(2027, 1, 8, 19, 0, 59).unwrap(), closes));
//! assert!(!checked_in_on_time(Utc.with_ymd_and_hms(2027, 1, 8, 19, 1, 0).unwrap(), closes));
//! ```

use crate::round_robin::schedule::{ScheduleError, schedule};
use crate::tiebreaks::Standings;
#[cfg(test)]
use crate::tiebreaks::TiebreakRow;
use crate::tiebreaks::separations;
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The rule for the number of Swiss rounds: ⌈log2 n⌉ + `extra` for a field of n, at most
/// `max` (what the evening allows) and at most n − 1 (nobody can meet an opponent twice).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundsRule {
    /// Rounds beyond ⌈log2 n⌉ (default 2: enough for a clear winner in most fields).
    pub extra: u32,
    /// The most rounds the evening allows (default 11 blitz rounds of 10 minutes).
    pub max: u32,
}

impl Default for RoundsRule {
    fn default() -> RoundsRule {
        RoundsRule { extra: 2, max: 11 }
    }
}

/// The number of Swiss rounds for `participants` players under `rule`; 0 for fewer than two.
pub fn swiss_rounds(participants: u32, rule: RoundsRule) -> u32 {
    if participants < 2 {
        return 0;
    }
    // ⌈log2 n⌉: the bits needed for n − 1
    let log2 = u32::BITS - (participants - 1).leading_zeros();
    (log2 + rule.extra).min(rule.max).min(participants - 1)
}

/// Whether a player checked in at `at` is on time for a blitz championship whose check-in
/// closes at `closes` (docs/rules/rapid-blitz.md#the-blitz-championship). The club's rules ask
/// for players present "at 20.00": a time named to the minute covers the whole of that minute,
/// so 20:00:00.05 and 20:00:59 are on time and 20:01:00 is late.
pub fn checked_in_on_time(at: DateTime<Utc>, closes: DateTime<Utc>) -> bool {
    at < closes + Duration::minutes(1)
}

/// The final standings once a play-off for first has a winner
/// (docs/rules/rapid-blitz.md#the-play-off-for-first): the champion's row first, at place 1,
/// and the other candidates after it at places 2, 3, … in their order in the standings, a block
/// that shared a place among themselves still sharing it (`2-3`); every other row is unchanged
/// and the standings no longer call for a play-off. `candidates` are the standings' ids of the
/// players who played it; they must be the first rows of the standings, and `champion` one of
/// them. Returns false, changing nothing, when they are not.
pub fn standings_after_playoff(
    standings: &mut Standings,
    candidates: &[u32],
    champion: u32,
) -> bool {
    let k = candidates.len();
    let prefix_ok = k <= standings.rows.len()
        && standings.rows[..k]
            .iter()
            .all(|r| candidates.contains(&r.id));
    let Some(at) = standings.rows[..k.min(standings.rows.len())]
        .iter()
        .position(|r| r.id == champion)
    else {
        return false;
    };
    if !prefix_ok {
        return false;
    }
    let winner = standings.rows.remove(at);
    standings.rows.insert(0, winner);
    let first = &mut standings.rows[0];
    first.rank = 1;
    first.place = "1".into();
    first.shared = false;
    // the others: blocks of the engine's shared places, numbered from 2
    let old: Vec<(u32, bool)> = standings.rows[1..k]
        .iter()
        .map(|r| (r.rank, r.shared))
        .collect();
    let mut i = 0;
    while i < old.len() {
        let mut j = i + 1;
        while j < old.len() && old[i].1 && old[j] == old[i] {
            j += 1;
        }
        let (from, to) = (i as u32 + 2, j as u32 + 1);
        for row in &mut standings.rows[1 + i..1 + j] {
            row.rank = from;
            row.shared = j - i > 1;
            row.place = if j - i > 1 {
                format!("{from}-{to}")
            } else {
                from.to_string()
            };
        }
        i = j;
    }
    standings.playoff_for_first = false;
    // the neighbours' separations in the new order; the play-off, not a tie-break, put the
    // champion above the other candidates, so that pair names none
    standings.separations = separations(&standings.rows, &standings.tiebreaks)
        .into_iter()
        .filter(|s| s.above != champion || !candidates.contains(&s.below))
        .collect();
    true
}

/// Which tie for first place a play-off settles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstPlaceTie {
    /// The blitz: every player on the top score plays, whatever the tie-breaks say; the
    /// tie-breaks only order the candidates (their Berger numbers) and decide the other
    /// places.
    OnPoints,
    /// The rapid: only the players still sharing first place after the whole tie-break list.
    AfterTiebreaks,
}

/// The candidates of the play-off for first in `standings` under `tie`, as the standings'
/// player ids in their order in the standings; fewer than two means no play-off. The first
/// value of every row is the score (the tie-break list starts with points).
pub fn first_place_candidates(standings: &Standings, tie: FirstPlaceTie) -> Vec<u32> {
    title_candidates(standings, tie, |_| true)
}

/// The candidates for the title in `standings` under `tie`, counting only the rows
/// `may_take` admits (docs/rules/rapid-blitz.md#guests-and-the-title): the first of them and
/// those level with it — on points in the blitz, on every tie-break in the rapid. A player
/// left out keeps their row and place; one candidate is the champion, two or more play off.
pub fn title_candidates(
    standings: &Standings,
    tie: FirstPlaceTie,
    may_take: impl Fn(u32) -> bool,
) -> Vec<u32> {
    let eligible: Vec<_> = standings.rows.iter().filter(|r| may_take(r.id)).collect();
    let Some(top) = eligible.first() else {
        return Vec::new();
    };
    eligible
        .iter()
        .filter(|r| match tie {
            FirstPlaceTie::OnPoints => r.values.first() == top.values.first(),
            FirstPlaceTie::AfterTiebreaks => r.rank == top.rank,
        })
        .map(|r| r.id)
        .collect()
}

/// One game of the play-off for first place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayoffGame {
    /// Play-off round, from 1.
    pub round: u32,
    /// White.
    pub white: String,
    /// Black.
    pub black: String,
}

/// Why a play-off cannot be made or decided.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BlitzPlayoffError {
    /// A play-off needs two or more candidates, each once.
    #[error("a play-off needs at least two different candidates")]
    TooFewCandidates,
    /// The same candidate twice.
    #[error("candidate {0} is named twice")]
    Duplicate(String),
    /// More candidates than a round robin takes.
    #[error(transparent)]
    Schedule(#[from] ScheduleError),
    /// A result for a game that is not in the play-off.
    #[error("{white} – {black} is not a game of the play-off")]
    NotInPlayoff {
        /// White of the result given.
        white: String,
        /// Black of the result given.
        black: String,
    },
    /// Games without a result.
    #[error("{0} play-off games have no result yet")]
    Unfinished(usize),
}

/// The play-off games: candidates in their order in the final standings get Berger numbers
/// 1, 2, …; two cycles, the second with the colours reversed (FIDE C.05 Annex 1).
pub fn first_place_playoff(candidates: &[String]) -> Result<Vec<PlayoffGame>, BlitzPlayoffError> {
    check_candidates(candidates)?;
    let rounds = schedule(candidates.len() as u32, 2)?;
    let name = |n: u32| candidates[n as usize - 1].clone();
    Ok(rounds
        .iter()
        .flat_map(|r| {
            r.boards.iter().map(move |b| PlayoffGame {
                round: r.round,
                white: name(b.white),
                black: name(b.black),
            })
        })
        .collect())
}

fn check_candidates(candidates: &[String]) -> Result<(), BlitzPlayoffError> {
    if candidates.len() < 2 {
        return Err(BlitzPlayoffError::TooFewCandidates);
    }
    let mut seen = std::collections::BTreeSet::new();
    for c in candidates {
        if !seen.insert(c) {
            return Err(BlitzPlayoffError::Duplicate(c.clone()));
        }
    }
    Ok(())
}

/// A play-off game's result, White's points in half points (2 a win, 1 a draw, 0 a loss).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayoffResult {
    /// White.
    pub white: String,
    /// Black.
    pub black: String,
    /// White's half points: 2, 1 or 0.
    pub white_half_points: u8,
}

/// The outcome of a finished play-off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "outcome")]
pub enum PlayoffDecision {
    /// One candidate scored most: the champion.
    Champion {
        /// The champion.
        id: String,
    },
    /// Still tied on play-off points: the arbiter decides among these (and the decision is
    /// recorded).
    ArbiterDecides {
        /// The candidates still tied, in their order in the final standings.
        tied: Vec<String>,
    },
}

/// Decides the play-off once every game has a result.
pub fn decide_playoff(
    candidates: &[String],
    results: &[PlayoffResult],
) -> Result<PlayoffDecision, BlitzPlayoffError> {
    let games = first_place_playoff(candidates)?;
    let mut open: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for g in &games {
        *open
            .entry((g.white.as_str(), g.black.as_str()))
            .or_default() += 1;
    }
    let mut half_points: BTreeMap<&str, u32> = candidates.iter().map(|c| (c.as_str(), 0)).collect();
    for r in results {
        let key = (r.white.as_str(), r.black.as_str());
        match open.get_mut(&key) {
            Some(n) if *n > 0 && r.white_half_points <= 2 => *n -= 1,
            _ => {
                return Err(BlitzPlayoffError::NotInPlayoff {
                    white: r.white.clone(),
                    black: r.black.clone(),
                });
            }
        }
        *half_points.entry(key.0).or_default() += u32::from(r.white_half_points);
        *half_points.entry(key.1).or_default() += 2 - u32::from(r.white_half_points);
    }
    let unfinished: usize = open.values().sum();
    if unfinished > 0 {
        return Err(BlitzPlayoffError::Unfinished(unfinished));
    }
    let best = half_points.values().copied().max().unwrap_or(0);
    let tied: Vec<String> = candidates
        .iter()
        .filter(|c| half_points[c.as_str()] == best)
        .cloned()
        .collect();
    Ok(match tied.as_slice() {
        [one] => PlayoffDecision::Champion { id: one.clone() },
        _ => PlayoffDecision::ArbiterDecides { tied },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "Present at 20.00" (club rules, blitz championship 1): the clock reads 20.00 for the
    /// whole minute, so every instant of it is on time and the next minute is late; a player
    /// there before 20.00 is on time too.
    #[test]
    fn present_at_twenty_hundred_is_the_whole_minute() {
        let closes = "2026-06-19T18:00:00Z".parse::<DateTime<Utc>>().unwrap();
        let at = |s: &str| s.parse::<DateTime<Utc>>().unwrap();
        assert!(checked_in_on_time(at("2026-06-19T17:45:00Z"), closes));
        assert!(checked_in_on_time(at("2026-06-19T18:00:00Z"), closes));
        assert!(checked_in_on_time(at("2026-06-19T18:00:00.05Z"), closes));
        assert!(checked_in_on_time(
            at("2026-06-19T18:00:59.999999Z"),
            closes
        ));
        assert!(!checked_in_on_time(at("2026-06-19T18:01:00Z"), closes));
        assert!(!checked_in_on_time(at("2026-06-19T19:00:00Z"), closes));
    }

    fn table(rows: &[(u32, u32, bool)]) -> Standings {
        // (id, rank, shared): the place as the engine prints it
        let mut v: Vec<TiebreakRow> = Vec::new();
        for &(id, rank, shared) in rows {
            let size = rows.iter().filter(|r| r.1 == rank).count() as u32;
            v.push(TiebreakRow {
                rank,
                place: if shared {
                    format!("{rank}-{}", rank + size - 1)
                } else {
                    rank.to_string()
                },
                shared,
                id,
                name: format!("P{id}"),
                values: vec![],
            });
        }
        Standings {
            rules: Default::default(),
            rounds: 5,
            tiebreaks: vec![],
            rows: v,
            playoff_for_first: true,
            separations: vec![],
        }
    }

    fn places(s: &Standings) -> Vec<(u32, &str)> {
        s.rows.iter().map(|r| (r.id, r.place.as_str())).collect()
    }

    /// The rapid: players 3 and 5 still share first after every tie-break ("1-2"); 5 wins the
    /// play-off 2–0, so 5 is first and 3 second; the others keep their places.
    #[test]
    fn the_playoff_winner_is_first_and_the_other_candidate_second() {
        let mut s = table(&[(3, 1, true), (5, 1, true), (1, 3, false), (2, 4, false)]);
        assert!(standings_after_playoff(&mut s, &[3, 5], 5));
        assert_eq!(places(&s), [(5, "1"), (3, "2"), (1, "3"), (2, "4")]);
        assert!(!s.playoff_for_first);
        assert_eq!(s.rows[1].rank, 2);
        assert!(!s.rows[1].shared);
    }

    /// The blitz: A (1), B (2) and C, D sharing 3-4 are all on the top score and play off; C
    /// wins. C is first; A second, B third, and D fourth alone (C left the shared block).
    /// A guest winning it (player 9 placed second by the tie-breaks) is first the same way.
    #[test]
    fn a_blitz_playoff_reorders_every_candidate_on_the_top_score() {
        let mut s = table(&[
            (1, 1, false),
            (2, 2, false),
            (3, 3, true),
            (4, 3, true),
            (5, 5, false),
        ]);
        assert!(standings_after_playoff(&mut s, &[1, 2, 3, 4], 3));
        assert_eq!(
            places(&s),
            [(3, "1"), (1, "2"), (2, "3"), (4, "4"), (5, "5")]
        );
        let mut s = table(&[(1, 1, false), (9, 2, false), (4, 3, true), (5, 3, true)]);
        assert!(standings_after_playoff(&mut s, &[1, 9, 4, 5], 9));
        assert_eq!(places(&s), [(9, "1"), (1, "2"), (4, "3-4"), (5, "3-4")]);
        assert!(s.rows[2].shared && s.rows[3].shared);
    }

    #[test]
    fn a_champion_outside_the_candidates_changes_nothing() {
        let mut s = table(&[(3, 1, true), (5, 1, true), (1, 3, false)]);
        let before = s.clone();
        assert!(!standings_after_playoff(&mut s, &[3, 5], 1));
        assert!(!standings_after_playoff(&mut s, &[3, 1], 3));
        assert_eq!(s, before);
    }

    fn ids(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    /// ⌈log2 n⌉ + 2, worked by hand: 2 players 1 round (n − 1), 4 players 3 (n − 1 beats
    /// 2 + 2), 8 players 5, 16 players 6, 17 players 7, 40 players 8; the evening's cap wins.
    #[test]
    fn rounds_follow_the_field() {
        let r = RoundsRule::default();
        let got: Vec<u32> = [0, 1, 2, 3, 4, 5, 8, 9, 16, 17, 40, 2000]
            .iter()
            .map(|&n| swiss_rounds(n, r))
            .collect();
        assert_eq!(got, [0, 0, 1, 2, 3, 4, 5, 6, 6, 7, 8, 11]);
        assert_eq!(swiss_rounds(40, RoundsRule { extra: 2, max: 7 }), 7);
        assert_eq!(swiss_rounds(40, RoundsRule { extra: 0, max: 11 }), 6);
    }

    /// Two candidates: one game each colour.
    #[test]
    fn two_candidates_play_twice() {
        let g = first_place_playoff(&ids(&["anna", "bram"])).unwrap();
        let pairs: Vec<(&str, &str)> = g
            .iter()
            .map(|g| (g.white.as_str(), g.black.as_str()))
            .collect();
        assert_eq!(pairs, [("anna", "bram"), ("bram", "anna")]);
    }

    /// Three candidates (Berger numbers 1–3, the table of four with 4 as the dummy): round 1
    /// is 2–3 with 1 free, round 2 is 1–2, round 3 is 3–1; the second cycle reverses the
    /// colours. Every pair meets twice, once with each colour, and nobody plays twice in a
    /// round.
    #[test]
    fn three_candidates_meet_twice_with_both_colours() {
        let c = ids(&["a", "b", "c"]);
        let g = first_place_playoff(&c).unwrap();
        assert_eq!(g.len(), 6);
        let first: Vec<(u32, &str, &str)> = g
            .iter()
            .take(3)
            .map(|g| (g.round, g.white.as_str(), g.black.as_str()))
            .collect();
        assert_eq!(first, [(1, "b", "c"), (2, "a", "b"), (3, "c", "a")]);
        for x in &c {
            for y in &c {
                if x != y {
                    let n = g.iter().filter(|g| &g.white == x && &g.black == y).count();
                    assert_eq!(n, 1, "{x} with white against {y}");
                }
            }
        }
        for round in 1..=6 {
            let mut seen = std::collections::BTreeSet::new();
            for g in g.iter().filter(|g| g.round == round) {
                assert!(seen.insert(&g.white) && seen.insert(&g.black));
            }
        }
    }

    fn res(w: &str, b: &str, p: u8) -> PlayoffResult {
        PlayoffResult {
            white: w.into(),
            black: b.into(),
            white_half_points: p,
        }
    }

    #[test]
    fn the_playoff_is_decided_on_points_or_left_to_the_arbiter() {
        let c = ids(&["a", "b"]);
        // a wins one and draws one: 3 half points against 1
        let d = decide_playoff(&c, &[res("a", "b", 2), res("b", "a", 1)]).unwrap();
        assert_eq!(d, PlayoffDecision::Champion { id: "a".into() });
        // one win each: still tied, the arbiter decides
        let d = decide_playoff(&c, &[res("a", "b", 2), res("b", "a", 2)]).unwrap();
        assert_eq!(
            d,
            PlayoffDecision::ArbiterDecides {
                tied: ids(&["a", "b"])
            }
        );
        // three candidates: b beats both twice over, a and c draw everything else
        let c3 = ids(&["a", "b", "c"]);
        let d = decide_playoff(
            &c3,
            &[
                res("b", "c", 2),
                res("a", "b", 0),
                res("c", "a", 1),
                res("c", "b", 0),
                res("b", "a", 2),
                res("a", "c", 1),
            ],
        )
        .unwrap();
        assert_eq!(d, PlayoffDecision::Champion { id: "b".into() });
    }

    /// Standings after the Swiss rounds: 1 and 3 on 4 points, DE puts 3 above 1 (3 won their
    /// game), then 2 on 3½. The blitz plays off every player on the top score, 3 then 1 (their
    /// order in the standings); the rapid only a first place still shared after the list,
    /// here nobody.
    #[test]
    fn blitz_candidates_are_everyone_on_the_top_score() {
        use crate::fixed::Fixed;
        use crate::tiebreaks::{TiebreakRow, Value, parse_tiebreaks};
        let row = |rank: u32, id: u32, pts: i64, de: i64| TiebreakRow {
            rank,
            place: rank.to_string(),
            shared: false,
            id,
            name: format!("P{id}"),
            values: vec![Some(Value(Fixed(pts))), Some(Value(Fixed(de)))],
        };
        let mut s = Standings {
            rules: Default::default(),
            rounds: 6,
            tiebreaks: parse_tiebreaks("PTS,DE").unwrap(),
            rows: vec![
                row(1, 3, 40_000, 10_000),
                row(2, 1, 40_000, 0),
                row(3, 2, 35_000, 0),
            ],
            playoff_for_first: false,
            separations: Vec::new(),
        };
        assert_eq!(first_place_candidates(&s, FirstPlaceTie::OnPoints), [3, 1]);
        assert!(first_place_candidates(&s, FirstPlaceTie::AfterTiebreaks).len() < 2);
        // a first place still shared after the list: both rules name the same two
        s.rows[1].rank = 1;
        assert_eq!(first_place_candidates(&s, FirstPlaceTie::OnPoints), [3, 1]);
        assert_eq!(
            first_place_candidates(&s, FirstPlaceTie::AfterTiebreaks),
            [3, 1]
        );
        // one player alone on the top score: no play-off under either rule
        s.rows[1].values[0] = Some(Value(Fixed(35_000)));
        s.rows[1].rank = 2;
        assert_eq!(first_place_candidates(&s, FirstPlaceTie::OnPoints), [3]);
        assert_eq!(
            first_place_candidates(&Standings { rows: vec![], ..s }, FirstPlaceTie::OnPoints),
            Vec::<u32>::new()
        );
    }

    /// Blitz, members only: guest 9 is first on 4 points (direct encounter), members 1 and 2
    /// follow on 4, member 5 on 3½. Without the guest the top score is still 4: 1 and 2 play
    /// off, 9 keeps place 1 in the table but is no candidate. With 2 on 3½, 1 is champion
    /// alone; a field of guests only has no candidate. The literal reading plays 9, 1 and 2.
    #[test]
    fn a_guest_left_out_of_the_title_keeps_the_row_and_plays_no_playoff() {
        use crate::fixed::Fixed;
        use crate::tiebreaks::{TiebreakRow, Value};
        let row = |rank: u32, id: u32, pts: i64| TiebreakRow {
            rank,
            place: rank.to_string(),
            shared: false,
            id,
            name: format!("P{id}"),
            values: vec![Some(Value(Fixed(pts)))],
        };
        let mut s = Standings {
            rules: Default::default(),
            rounds: 5,
            tiebreaks: vec![],
            rows: vec![
                row(1, 9, 40_000),
                row(2, 1, 40_000),
                row(3, 2, 40_000),
                row(4, 5, 35_000),
            ],
            playoff_for_first: true,
            separations: Vec::new(),
        };
        let member = |id: u32| id != 9;
        assert_eq!(
            title_candidates(&s, FirstPlaceTie::OnPoints, member),
            [1, 2]
        );
        assert_eq!(
            first_place_candidates(&s, FirstPlaceTie::OnPoints),
            [9, 1, 2]
        );
        s.rows[2].values[0] = Some(Value(Fixed(35_000)));
        assert_eq!(title_candidates(&s, FirstPlaceTie::OnPoints, member), [1]);
        assert_eq!(
            title_candidates(&s, FirstPlaceTie::OnPoints, |_| false),
            Vec::<u32>::new()
        );
        // the rapid's rule: the best member's rank, shared with nobody
        assert_eq!(
            title_candidates(&s, FirstPlaceTie::AfterTiebreaks, member),
            [1]
        );
    }

    /// Blitz, three players on 4 points: 3 above 1 and 1 above 2 by direct encounter (1 – 0
    /// – 0 in DE); 2 wins the play-off. The champion's pair names no tie-break (the play-off
    /// separated them); 3 above 1 is still the DE difference, in the new order.
    #[test]
    fn after_a_playoff_the_separations_follow_the_new_order() {
        use crate::fixed::Fixed;
        use crate::tiebreaks::{TiebreakRow, Value, parse_tiebreaks};
        let row = |rank: u32, id: u32, de: i64| TiebreakRow {
            rank,
            place: rank.to_string(),
            shared: false,
            id,
            name: format!("P{id}"),
            values: vec![Some(Value(Fixed(40_000))), Some(Value(Fixed(de)))],
        };
        let mut s = Standings {
            rules: Default::default(),
            rounds: 6,
            tiebreaks: parse_tiebreaks("PTS,DE").unwrap(),
            rows: vec![row(1, 3, 20_000), row(2, 1, 10_000), row(3, 2, 0)],
            playoff_for_first: true,
            separations: Vec::new(),
        };
        assert!(standings_after_playoff(&mut s, &[3, 1, 2], 2));
        assert_eq!(places(&s), [(2, "1"), (3, "2"), (1, "3")]);
        let pairs: Vec<(u32, u32, Option<i64>, Option<i64>)> = s
            .separations
            .iter()
            .map(|x| {
                (
                    x.above,
                    x.below,
                    x.above_value.map(|v| v.0.0),
                    x.below_value.map(|v| v.0.0),
                )
            })
            .collect();
        assert_eq!(pairs, [(3, 1, Some(20_000), Some(10_000))]);
    }

    #[test]
    fn refusals() {
        assert_eq!(
            first_place_playoff(&ids(&["a"])),
            Err(BlitzPlayoffError::TooFewCandidates)
        );
        assert_eq!(
            first_place_playoff(&ids(&["a", "a"])),
            Err(BlitzPlayoffError::Duplicate("a".into()))
        );
        let c = ids(&["a", "b"]);
        assert_eq!(
            decide_playoff(&c, &[res("a", "b", 2)]),
            Err(BlitzPlayoffError::Unfinished(1))
        );
        assert!(matches!(
            decide_playoff(&c, &[res("a", "b", 2), res("a", "b", 2)]),
            Err(BlitzPlayoffError::NotInPlayoff { .. })
        ));
        assert!(matches!(
            decide_playoff(&c, &[res("a", "x", 2), res("b", "a", 2)]),
            Err(BlitzPlayoffError::NotInPlayoff { .. })
        ));
        assert!(matches!(
            decide_playoff(&c, &[res("a", "b", 3), res("b", "a", 2)]),
            Err(BlitzPlayoffError::NotInPlayoff { .. })
        ));
    }
}
