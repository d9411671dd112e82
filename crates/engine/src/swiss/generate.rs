//! A seeded random tournament generator for benchmarks and timing: `n` players with falling
//! ratings and `played` rounds of history made by a simple score-ordered greedy pairing (no
//! rematches, alternating colours, a `U` bye for an odd field) and rating-weighted random
//! results. The history is plausible Swiss data, not a Dutch pairing; it only feeds the engine.

use super::trf::{Colour, ResultCode, RoundEntry, Tournament, TrfPlayer};
use crate::fixed::Fixed;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Builds a tournament of `n` players with `played` rounds of results, `total` rounds in all.
pub fn random_tournament(n: usize, played: usize, total: u32, seed: u64) -> Tournament {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut players: Vec<TrfPlayer> = (0..n)
        .map(|i| TrfPlayer {
            id: i as u32 + 1,
            sex: String::new(),
            title: String::new(),
            name: format!("Random {:04}", i + 1),
            rating: 2700u32.saturating_sub((1500 * i / n.max(1)) as u32),
            federation: String::new(),
            fide_id: String::new(),
            birth: String::new(),
            points: Fixed::ZERO,
            rank: 0,
            rounds: Vec::new(),
        })
        .collect();
    for r in 0..played {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(players[i].half_points_before(r)), i));
        let mut free = vec![true; n];
        let mut entries: Vec<Option<RoundEntry>> = vec![None; n];
        for (k, &a) in order.iter().enumerate() {
            if !free[a] {
                continue;
            }
            let met = |x: usize, y: usize| {
                players[x]
                    .rounds
                    .iter()
                    .any(|e| e.opponent == Some(players[y].id))
            };
            let Some(&b) = order[k + 1..].iter().find(|&&b| free[b] && !met(a, b)) else {
                continue;
            };
            free[a] = false;
            free[b] = false;
            let whites = |x: usize| {
                players[x]
                    .rounds
                    .iter()
                    .filter(|e| e.colour == Some(Colour::White))
                    .count()
            };
            let (w, bl) = if whites(a) <= whites(b) {
                (a, b)
            } else {
                (b, a)
            };
            let diff = players[w].rating as i64 - players[bl].rating as i64;
            // chances in per mille: 450 for White plus 0.625 per rating point difference
            let p_white = (450 + diff * 5 / 8).clamp(50, 900);
            let x: i64 = rng.random_range(0..1000);
            let (rw, rb) = if x < p_white {
                (ResultCode::Win, ResultCode::Loss)
            } else if x < p_white + 250 {
                (ResultCode::Draw, ResultCode::Draw)
            } else {
                (ResultCode::Loss, ResultCode::Win)
            };
            entries[w] = Some(RoundEntry {
                opponent: Some(players[bl].id),
                colour: Some(Colour::White),
                result: rw,
            });
            entries[bl] = Some(RoundEntry {
                opponent: Some(players[w].id),
                colour: Some(Colour::Black),
                result: rb,
            });
        }
        for (i, e) in entries.into_iter().enumerate() {
            let had_bye = players[i]
                .rounds
                .iter()
                .any(|x| x.result == ResultCode::PairingBye);
            players[i].rounds.push(e.unwrap_or(RoundEntry {
                opponent: None,
                colour: None,
                // a second leftover (rare) is simply absent
                result: if had_bye {
                    ResultCode::ZeroBye
                } else {
                    ResultCode::PairingBye
                },
            }));
        }
    }
    for p in &mut players {
        p.points = Fixed(p.half_points_before(played) as i64 * 5_000);
    }
    Tournament {
        name: Some(format!("Random {n} players, seed {seed}")),
        total_rounds: Some(total),
        initial_colour: Some(Colour::White),
        initial_colour_text: None,
        players,
        layout: Vec::new(),
        line_ending: "\n".into(),
        final_line_ending: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_seeded_and_consistent() {
        let a = random_tournament(31, 3, 5, 7);
        let b = random_tournament(31, 3, 5, 7);
        assert_eq!(a, b);
        for p in &a.players {
            assert_eq!(p.rounds.len(), 3);
            for (r, e) in p.rounds.iter().enumerate() {
                if let Some(o) = e.opponent {
                    // the opponent's entry for that round points back with the other colour
                    let q = a.player(o).unwrap();
                    assert_eq!(q.rounds[r].opponent, Some(p.id));
                    assert_ne!(q.rounds[r].colour, e.colour);
                }
            }
        }
        // 31 players: one bye per round, 3 rounds → 3 `U` entries
        let byes: usize = a
            .players
            .iter()
            .flat_map(|p| &p.rounds)
            .filter(|e| e.result == ResultCode::PairingBye)
            .count();
        assert_eq!(byes, 3);
    }
}
