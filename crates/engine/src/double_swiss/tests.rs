//! Worked examples and properties of the Double-Swiss pairing.

use super::*;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;

fn players(n: u32) -> Vec<DoubleSwissPlayer> {
    (1..=n)
        .map(|id| DoubleSwissPlayer {
            id,
            name: format!("P{id}"),
            rating: Some(2000 - id * 10),
        })
        .collect()
}

fn m(white: u32, black: u32, game1: DoubleSwissResult, game2: DoubleSwissResult) -> Match {
    Match {
        white,
        black,
        game1,
        game2,
    }
}

fn boards(r: &NextRound) -> Vec<(u32, u32, u32)> {
    r.pairings
        .iter()
        .map(|p| (p.board, p.white, p.black))
        .collect()
}

use DoubleSwissResult::*;

#[test]
fn first_round_even_and_odd() {
    let state = State {
        players: players(6),
        rounds: vec![],
        absent: vec![],
    };
    let r = pair_next_round(&state).expect("pairs");
    // Everyone on 0: one bracket, lexicographically first pairing 1-2, 3-4, 5-6; the
    // higher-ranked player has White in game 1 on odd boards.
    assert_eq!(boards(&r), vec![(1, 1, 2), (2, 4, 3), (3, 5, 6)]);
    assert_eq!(r.bye, None);
    assert_eq!(r.round, 1);

    let odd = State {
        players: players(5),
        rounds: vec![],
        absent: vec![],
    };
    let r = pair_next_round(&odd).expect("pairs");
    // Bye: lowest score (all 0), then highest TPN: 5.
    assert_eq!(r.bye, Some(5));
    assert_eq!(boards(&r), vec![(1, 1, 2), (2, 4, 3)]);
}

#[test]
fn absent_players_are_not_paired() {
    let state = State {
        players: players(5),
        rounds: vec![],
        absent: vec![2],
    };
    let r = pair_next_round(&state).expect("pairs");
    assert_eq!(r.bye, None);
    assert_eq!(boards(&r), vec![(1, 1, 3), (2, 5, 4)]);
}

#[test]
fn second_round_with_upfloaters() {
    // Round 1: 1-2 2-0 (1 White in game 1), 4-3 1-1, 5-6 ½-1½.
    let state = State {
        players: players(6),
        rounds: vec![RoundRecord {
            matches: vec![
                m(1, 2, WhiteWins, BlackWins),
                m(4, 3, WhiteWins, WhiteWins),
                m(5, 6, Draw, WhiteWins),
            ],
            byes: vec![],
        }],
        absent: vec![],
    };
    // Scores: 1: 2, 2: 0, 3: 1 (lost game 1, won game 2 as White), 4: 1, 5: ½, 6: 1½.
    // Order: 1 (2), 6 (1½), 3 (1), 4 (1), 5 (½), 2 (0).
    // Top scoregroup {1} is odd: the highest ranked upfloater that leaves the rest
    // pairable is 6 → 1-6. Next {3, 4} already met: two upfloaters, 5 and 2 → bracket
    // 3, 4, 5, 2 → lexicographically first: 3-5 (3-4 is a repeat), 4-2.
    // Boards: 1-6 (top score 2), then 3-5 and 4-2 (top score 1; 3 ranked above 4).
    // Game-1 colours of round 1: 1 W, 2 B, 4 W, 3 B, 5 W, 6 B. Round 2: the player with
    // fewer game-1 Whites gets White in game 1: 6 (vs 1), 3 (vs 5), 2 (vs 4).
    let r = pair_next_round(&state).expect("pairs");
    assert_eq!(boards(&r), vec![(1, 6, 1), (2, 3, 5), (3, 2, 4)]);
}

#[test]
fn game_one_colour_rules() {
    // Eight players, three rounds, every game drawn (everyone stays in one scoregroup).
    let mut state = State {
        players: players(8),
        rounds: vec![],
        absent: vec![],
    };
    for _ in 0..3 {
        let next = pair_next_round(&state).expect("pairs");
        let matches = next
            .pairings
            .iter()
            .map(|p| m(p.white, p.black, Draw, Draw))
            .collect();
        state.rounds.push(RoundRecord {
            matches,
            byes: vec![],
        });
    }
    // Nobody has the same game-1 colour in three matches in a row (rule 1).
    for id in 1..=8u32 {
        let mine: Vec<bool> = state
            .rounds
            .iter()
            .flat_map(|r| r.matches.iter())
            .filter(|q| q.white == id || q.black == id)
            .map(|q| q.white == id)
            .collect();
        assert_eq!(mine.len(), 3);
        assert!(
            !(mine[0] == mine[1] && mine[1] == mine[2]),
            "player {id}: {mine:?}"
        );
    }
}

#[test]
fn no_second_pairing_allocated_bye() {
    // Round 1: 1-2 1-1, 3 pairing bye (2 points). Round 2: 3 is not eligible; 1 and 2 on 1
    // point each → the higher TPN, 2, gets the bye; 3 plays 1.
    let state = State {
        players: players(3),
        rounds: vec![RoundRecord {
            matches: vec![m(1, 2, WhiteWins, WhiteWins)],
            byes: vec![Bye {
                player: 3,
                kind: ByeKind::Pairing,
            }],
        }],
        absent: vec![],
    };
    let r = pair_next_round(&state).expect("pairs");
    assert_eq!(r.bye, Some(2));
    assert_eq!(r.pairings.len(), 1);
    let p = r.pairings[0];
    assert_eq!(HashSet::from([p.white, p.black]), HashSet::from([1, 3]));
}

#[test]
fn a_match_forfeited_entirely_may_be_repeated() {
    // 2 forfeits both games against 1: not a meeting (C.04.5 Preface), but 1 has now won
    // without playing and may not get the bye.
    let state = State {
        players: players(2),
        rounds: vec![RoundRecord {
            matches: vec![m(1, 2, WhiteForfeitWin, BlackForfeitWin)],
            byes: vec![],
        }],
        absent: vec![],
    };
    let r = pair_next_round(&state).expect("pairs");
    assert_eq!(r.pairings.len(), 1);
    // A match that was played (one game forfeited only) is a meeting: no repeat possible.
    let played = State {
        players: players(2),
        rounds: vec![RoundRecord {
            matches: vec![m(1, 2, WhiteWins, BlackForfeitWin)],
            byes: vec![],
        }],
        absent: vec![],
    };
    assert_eq!(
        pair_next_round(&played),
        Err(DoubleSwissError::Unpairable {
            players: vec![1, 2]
        })
    );
}

#[test]
fn input_errors_name_the_player() {
    let state = State {
        players: players(2),
        rounds: vec![RoundRecord {
            matches: vec![m(1, 7, Draw, Draw)],
            byes: vec![],
        }],
        absent: vec![],
    };
    assert_eq!(
        pair_next_round(&state),
        Err(DoubleSwissError::UnknownPlayer {
            round: 1,
            player: 7
        })
    );
}

/// Whether any pairing of `present` exists without a repeat meeting or a second bye
/// (exhaustive search, small fields only).
fn brute_force_exists(state: &State, present: &[u32]) -> bool {
    let met = |a: u32, b: u32| {
        state.rounds.iter().any(|r| {
            r.matches.iter().any(|q| {
                let same = (q.white == a && q.black == b) || (q.white == b && q.black == a);
                let forfeit_match = matches!(
                    (q.game1, q.game2),
                    (WhiteForfeitWin, BlackForfeitWin) | (BlackForfeitWin, WhiteForfeitWin)
                );
                same && !forfeit_match
            })
        })
    };
    let no_bye = |a: u32| {
        state.rounds.iter().any(|r| {
            r.byes
                .iter()
                .any(|x| x.player == a && x.kind == ByeKind::Pairing)
                || r.matches.iter().any(|q| {
                    (q.white == a
                        && matches!((q.game1, q.game2), (WhiteForfeitWin, BlackForfeitWin)))
                        || (q.black == a
                            && matches!((q.game1, q.game2), (BlackForfeitWin, WhiteForfeitWin)))
                })
        })
    };
    fn pairs_all(left: &[u32], met: &dyn Fn(u32, u32) -> bool) -> bool {
        let Some((&a, rest)) = left.split_first() else {
            return true;
        };
        rest.iter().enumerate().any(|(i, &b)| {
            if met(a, b) {
                return false;
            }
            let mut r: Vec<u32> = rest.to_vec();
            r.remove(i);
            pairs_all(&r, met)
        })
    }
    if present.len().is_multiple_of(2) {
        return pairs_all(present, &met);
    }
    present.iter().any(|&b| {
        if no_bye(b) {
            return false;
        }
        let rest: Vec<u32> = present.iter().copied().filter(|&x| x != b).collect();
        pairs_all(&rest, &met)
    })
}

/// Simulates a whole event with random results and absences, checking every round.
fn simulate(seed: u64) -> Result<(), TestCaseError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = rng.random_range(2..=14u32);
    let total = rng.random_range(1..=7usize);
    let mut state = State {
        players: players(n),
        rounds: vec![],
        absent: vec![],
    };
    let results = [WhiteWins, Draw, BlackWins, WhiteForfeitWin, BlackForfeitWin];
    for _ in 0..total {
        state.absent = (1..=n).filter(|_| rng.random_range(0..8) == 0).collect();
        let next = match pair_next_round(&state) {
            Ok(r) => r,
            // Only when no pairing without a repeat or a second bye exists.
            Err(DoubleSwissError::Unpairable { players }) => {
                prop_assert!(!brute_force_exists(&state, &players));
                return Ok(());
            }
            Err(e) => return Err(TestCaseError::fail(e.to_string())),
        };
        let mut seen = HashSet::new();
        for p in &next.pairings {
            prop_assert!(seen.insert(p.white) && seen.insert(p.black));
            prop_assert!(!state.absent.contains(&p.white) && !state.absent.contains(&p.black));
            // Never a repeat of a regularly played match.
            for past in &state.rounds {
                for q in &past.matches {
                    let same = (q.white == p.white && q.black == p.black)
                        || (q.white == p.black && q.black == p.white);
                    let forfeit_match = matches!(
                        (q.game1, q.game2),
                        (WhiteForfeitWin, BlackForfeitWin) | (BlackForfeitWin, WhiteForfeitWin)
                    );
                    prop_assert!(!same || forfeit_match);
                }
            }
        }
        if let Some(b) = next.bye {
            prop_assert!(seen.insert(b));
            prop_assert!(!state.absent.contains(&b));
            for past in &state.rounds {
                prop_assert!(
                    !past
                        .byes
                        .iter()
                        .any(|x| x.player == b && x.kind == ByeKind::Pairing)
                );
            }
        }
        // Everyone present is paired or has the bye.
        let present = (1..=n).filter(|id| !state.absent.contains(id)).count();
        prop_assert_eq!(seen.len(), present);
        let mut record = RoundRecord::default();
        for p in &next.pairings {
            record.matches.push(m(
                p.white,
                p.black,
                results[rng.random_range(0..results.len())],
                results[rng.random_range(0..results.len())],
            ));
        }
        if let Some(b) = next.bye {
            record.byes.push(Bye {
                player: b,
                kind: ByeKind::Pairing,
            });
        }
        for &a in &state.absent {
            record.byes.push(Bye {
                player: a,
                kind: ByeKind::Zero,
            });
        }
        state.rounds.push(record);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Never a repeat meeting, never a second pairing-allocated bye, never an absent player.
    #[test]
    fn pairing_invariants(seed in any::<u64>()) {
        simulate(seed)?;
    }
}

#[test]
fn standings_count_every_game() {
    use crate::fixed::Fixed;
    use crate::tiebreaks::{Value, compute_tiebreaks, parse_tiebreaks};
    // R1: 1-2 2-0, 3-4 1-1 (two draws). R2: 1-3: game 1 drawn, game 2 won by 3 (White);
    // 4-2: 4 wins game 1, game 2 drawn.
    // Points: 1: 2 + ½ = 2½; 2: 0 + ½ = ½; 3: 1 + 1½ = 2½; 4: 1 + 1½ = 2½.
    let state = State {
        players: players(4),
        rounds: vec![
            RoundRecord {
                matches: vec![m(1, 2, WhiteWins, BlackWins), m(3, 4, Draw, Draw)],
                byes: vec![],
            },
            RoundRecord {
                matches: vec![m(1, 3, Draw, WhiteWins), m(4, 2, WhiteWins, Draw)],
                byes: vec![],
            },
        ],
        absent: vec![],
    };
    let input = state.tiebreak_input().expect("input");
    let list = parse_tiebreaks("PTS,DE,BH,SB").expect("list");
    let s = compute_tiebreaks(&input, &list).expect("standings");
    // DE among 1, 3, 4 (1 and 4 never met): per-opponent averages over the two games:
    // 1: ¼ vs 3 (max 1¼); 3: ¾ vs 1 + ½ vs 4 = 1¼ (met both); 4: ½ vs 3 (max 1½).
    // 3's 1¼ is not more than 4's possible 1½: nobody is separated, DE 0.
    // Buchholz per game: 1: ½ + ½ (2) + 2½ + 2½ (3) = 6; 3: 2½·2 (4) + 2½·2 (1) = 10;
    // 4: 2½·2 (3) + ½·2 (2) = 6.
    // SB per game: 1: ½·1 + ½·1 + 2½·½ + 2½·0 = 2¼; 4: 2½·½·2 + ½·1 + ½·½ = 3¼;
    // 3: 2½·½·2 + 2½·½ + 2½·1 = 6¼; 2: 2½·0·2 + 2½·0 + 2½·½ = 1¼ (BH 2½·4 = 10).
    let v = |x: &str| Value(Fixed::parse_decimal(x).expect("decimal"));
    let got: Vec<(u32, Vec<Value>)> = s
        .rows
        .iter()
        .map(|r| (r.id, r.values.iter().map(|v| v.expect("value")).collect()))
        .collect();
    assert_eq!(
        got,
        vec![
            (3, ["2.5", "0", "10", "6.25"].map(v).to_vec()),
            (4, ["2.5", "0", "6", "3.25"].map(v).to_vec()),
            (1, ["2.5", "0", "6", "2.25"].map(v).to_vec()),
            (2, ["0.5", "0", "10", "1.25"].map(v).to_vec()),
        ]
    );
}

/// The club's median Buchholz leaves out the best and the worst *opponent*; in a Double-Swiss
/// that is a whole round (both games). P2 and P5 both score 5 and never met. P2's opponents
/// (A = 1, B = 3, C = 4) end on 2½, 2½ and 0; P5's (D = 6, E = 7, F = 8) on 4, 2 and 0.
/// Leaving out the best and the worst opponent keeps 2½ for P2 and 2 for P5 (counted per
/// game: 5 and 4), so P2 is ahead. Cutting single games instead would give P2 2½ + 2½ + 2½
/// + 0 = 7½ and P5 4 + 2 + 2 + 0 = 8, the wrong order.
#[test]
fn median_buchholz_cuts_whole_rounds() {
    use crate::fixed::Fixed;
    use crate::tiebreaks::{Value, compute_tiebreaks, parse_tiebreaks};
    let bye = |player, kind| Bye { player, kind };
    // C (4) and F (8) are absent in rounds 1 and 2 and lose both games in round 3.
    let state = State {
        players: players(8),
        rounds: vec![
            RoundRecord {
                // P2-A 1½-½, P5-D 1-1, B-E 1-1.
                matches: vec![
                    m(2, 1, WhiteWins, Draw),
                    m(5, 6, Draw, Draw),
                    m(3, 7, WhiteWins, WhiteWins),
                ],
                byes: vec![],
            },
            RoundRecord {
                // B-P2 ½-1½, P5-E 2-0, A-D 1-1.
                matches: vec![
                    m(3, 2, Draw, WhiteWins),
                    m(5, 7, WhiteWins, BlackWins),
                    m(1, 6, Draw, Draw),
                ],
                byes: vec![],
            },
            RoundRecord {
                // P2-C 2-0, F-P5 0-2, A-B 1-1; D a full-point bye (2), E a half-point bye (1).
                matches: vec![
                    m(2, 4, WhiteWins, BlackWins),
                    m(8, 5, BlackWins, WhiteWins),
                    m(1, 3, BlackWins, BlackWins),
                ],
                byes: vec![bye(6, ByeKind::Full), bye(7, ByeKind::Half)],
            },
        ],
        absent: vec![],
    };
    let input = state.tiebreak_input().expect("input");
    let list = parse_tiebreaks("DE,BH-M1,SB").expect("list");
    let s = compute_tiebreaks(&input, &list).expect("standings");
    let v = |x: &str| Value(Fixed::parse_decimal(x).expect("decimal"));
    let top: Vec<(u32, Value, Value)> = s.rows[..2]
        .iter()
        .map(|r| (r.id, r.values[0].expect("PTS"), r.values[2].expect("DE")))
        .collect();
    assert_eq!(top, vec![(2, v("5"), v("5")), (5, v("5"), v("4"))]);
    assert_eq!(s.rows[0].rank, 1);
    assert_eq!(s.rows[1].rank, 2);
}

/// Timing of a large field (run with `--ignored --nocapture`): not a unit test.
#[test]
#[ignore]
fn timing_large_field() {
    for n in [50u32, 100, 200] {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut state = State {
            players: players(n),
            rounds: vec![],
            absent: vec![],
        };
        let start = std::time::Instant::now();
        for _ in 0..9 {
            let next = pair_next_round(&state).expect("pairs");
            let results = [WhiteWins, Draw, BlackWins];
            let mut record = RoundRecord::default();
            for p in &next.pairings {
                record.matches.push(m(
                    p.white,
                    p.black,
                    results[rng.random_range(0..3)],
                    results[rng.random_range(0..3)],
                ));
            }
            if let Some(b) = next.bye {
                record.byes.push(Bye {
                    player: b,
                    kind: ByeKind::Pairing,
                });
            }
            state.rounds.push(record);
        }
        println!("{n} players, 9 rounds: {:?}", start.elapsed());
    }
}
