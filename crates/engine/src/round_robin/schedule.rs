//! Round-robin schedules by the FIDE Berger tables (C.05, Annex 1), built by construction.
//!
//! For an even field of `n` players (an odd field plays the table of `n + 1`, the highest
//! number being a dummy whose opponent has the bye), with `m = n − 1`: in round `r` (1-based)
//! player `n` meets `p = ((r − 1) · n/2) mod m + 1`, with white in odd rounds for `p` and in
//! even rounds for `n`, on board 1; on board `k + 1` (k = 1 … n/2 − 1) player `p + k` (white)
//! meets `p − k` (black), both counted cyclically in 1 … m.

use serde::{Deserialize, Serialize};

/// One board of a round: pairing numbers (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RoundRobinBoard {
    /// Pairing number with white.
    pub white: u32,
    /// Pairing number with black.
    pub black: u32,
}

/// One round of a schedule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduledRound {
    /// Round number, 1-based, counting on through the cycles.
    pub round: u32,
    /// Boards in table order (the dummy's board left out).
    pub boards: Vec<RoundRobinBoard>,
    /// The player without an opponent in an odd field.
    pub bye: Option<u32>,
}

/// Why a schedule cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    /// A round robin needs at least two players.
    #[error("a round robin needs at least 2 players, got {0}")]
    TooFewPlayers(u32),
    /// At least one cycle.
    #[error("a round robin needs at least 1 cycle, got {0}")]
    NoCycles(u32),
    /// More players than the engine takes.
    #[error("at most 1000 players in a round robin, got {0}")]
    TooManyPlayers(u32),
}

/// The Berger table for `players` (padded to the next even number when odd): one list of
/// boards per round, the dummy included, exactly as printed in FIDE C.05 Annex 1.
pub fn berger_table(players: u32) -> Result<Vec<Vec<RoundRobinBoard>>, ScheduleError> {
    if players < 2 {
        return Err(ScheduleError::TooFewPlayers(players));
    }
    if players > 1000 {
        return Err(ScheduleError::TooManyPlayers(players));
    }
    let n = players + players % 2;
    let m = n - 1;
    let half = n / 2;
    // cyclic position in 1 ..= m
    let wrap = |x: i64| -> u32 { (x - 1).rem_euclid(i64::from(m)) as u32 + 1 };
    let rounds = (1..=m)
        .map(|r| {
            let p = ((r - 1) * half) % m + 1;
            let first = if r % 2 == 1 {
                RoundRobinBoard { white: p, black: n }
            } else {
                RoundRobinBoard { white: n, black: p }
            };
            let mut boards = vec![first];
            for k in 1..half {
                boards.push(RoundRobinBoard {
                    white: wrap(i64::from(p) + i64::from(k)),
                    black: wrap(i64::from(p) - i64::from(k)),
                });
            }
            boards
        })
        .collect();
    Ok(rounds)
}

/// The full schedule of a round robin of `players` over `cycles` cycles. Cycle 2 repeats cycle
/// 1 with colours reversed, cycle 3 as cycle 1, and so on. In an odd field the opponent of the
/// dummy (the highest number) has the bye, and the dummy's board is left out.
pub fn schedule(players: u32, cycles: u32) -> Result<Vec<ScheduledRound>, ScheduleError> {
    if cycles == 0 {
        return Err(ScheduleError::NoCycles(cycles));
    }
    let table = berger_table(players)?;
    let per_cycle = table.len() as u32;
    let mut out = Vec::with_capacity(table.len() * cycles as usize);
    for c in 0..cycles {
        for (i, boards) in table.iter().enumerate() {
            let mut bye = None;
            let mut kept = Vec::with_capacity(boards.len());
            for b in boards {
                let b = if c % 2 == 1 {
                    RoundRobinBoard {
                        white: b.black,
                        black: b.white,
                    }
                } else {
                    *b
                };
                if b.white > players {
                    bye = Some(b.black);
                } else if b.black > players {
                    bye = Some(b.white);
                } else {
                    kept.push(b);
                }
            }
            out.push(ScheduledRound {
                round: c * per_cycle + i as u32 + 1,
                boards: kept,
                bye,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn vectors() -> BTreeMap<String, Vec<Vec<[u32; 2]>>> {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/berger/berger-tables.json"
        );
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("Berger reference tables missing at {path}: {e}"));
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn matches_fide_tables_for_3_to_20_players() {
        let v = vectors();
        for n in 3..=20u32 {
            let expected = &v[&n.to_string()];
            let got: Vec<Vec<[u32; 2]>> = berger_table(n)
                .unwrap()
                .into_iter()
                .map(|r| r.into_iter().map(|b| [b.white, b.black]).collect())
                .collect();
            assert_eq!(&got, expected, "Berger table for {n} players");
        }
    }

    #[test]
    fn four_players_by_hand() {
        // FIDE C.05 Annex 1, 3 or 4 players: Rd1 1-4 2-3, Rd2 4-3 1-2, Rd3 2-4 3-1.
        let s = schedule(4, 1).unwrap();
        let pairs: Vec<Vec<(u32, u32)>> = s
            .iter()
            .map(|r| r.boards.iter().map(|b| (b.white, b.black)).collect())
            .collect();
        assert_eq!(
            pairs,
            vec![
                vec![(1, 4), (2, 3)],
                vec![(4, 3), (1, 2)],
                vec![(2, 4), (3, 1)]
            ]
        );
    }

    #[test]
    fn odd_field_gives_the_dummys_opponent_a_bye() {
        // 3 players play the 4-table: 4 is the dummy, so 1, 3, 2 have the byes in rounds 1-3.
        let s = schedule(3, 2).unwrap();
        assert_eq!(s.len(), 6);
        let byes: Vec<Option<u32>> = s.iter().map(|r| r.bye).collect();
        assert_eq!(
            byes,
            vec![Some(1), Some(3), Some(2), Some(1), Some(3), Some(2)]
        );
        assert_eq!(s[0].boards, vec![RoundRobinBoard { white: 2, black: 3 }]);
        // second cycle: colours reversed
        assert_eq!(s[3].round, 4);
        assert_eq!(s[3].boards, vec![RoundRobinBoard { white: 3, black: 2 }]);
        assert_eq!(s[5].boards, vec![RoundRobinBoard { white: 1, black: 3 }]);
    }

    #[test]
    fn everybody_meets_everybody_once_per_cycle_with_balanced_colours() {
        for n in 2..=21u32 {
            let s = schedule(n, 2).unwrap();
            let mut met = BTreeMap::new();
            let mut whites = vec![0u32; n as usize + 1];
            for r in &s {
                let mut seen = vec![false; n as usize + 1];
                for b in &r.boards {
                    assert!(!seen[b.white as usize] && !seen[b.black as usize]);
                    seen[b.white as usize] = true;
                    seen[b.black as usize] = true;
                    *met.entry((b.white.min(b.black), b.white.max(b.black)))
                        .or_insert(0) += 1;
                    whites[b.white as usize] += 1;
                }
            }
            assert_eq!(met.len() as u32, n * (n - 1) / 2);
            assert!(met.values().all(|&c| c == 2));
            // over two cycles each player has white in exactly half of his games
            for w in &whites[1..] {
                assert_eq!(*w, n - 1);
            }
        }
    }

    #[test]
    fn rejects_bad_sizes() {
        assert_eq!(schedule(1, 1), Err(ScheduleError::TooFewPlayers(1)));
        assert_eq!(schedule(4, 0), Err(ScheduleError::NoCycles(0)));
    }
}
