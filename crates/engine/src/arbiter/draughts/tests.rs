//! Move generator tests: perft from the initial position and hand-built capture positions.

use super::*;
use crate::Colour;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn perft_initial_position_to_depth_6() {
    // Published figures (duplicate captures removed): 9, 81, 658, 4265, 27117, 167140.
    let p = Position::initial();
    let expected = [9u64, 81, 658, 4265, 27117, 167140];
    for (d, want) in expected.iter().enumerate() {
        assert_eq!(perft(&p, d as u32 + 1), *want, "depth {}", d + 1);
    }
}

#[test]
#[ignore = "slow in debug; run with --ignored (or --release)"]
fn perft_initial_position_depth_7_and_8() {
    let p = Position::initial();
    assert_eq!(perft(&p, 7), 1_049_442);
    assert_eq!(perft(&p, 8), 6_483_961);
}

#[test]
fn maximum_capture_is_mandatory() {
    // White man 32; Black 28 (32x23 takes one) and 27 + 17 (32x21x12 takes two).
    let p = pos("W:W32:B28,27,17");
    let ms = legal_moves(&p);
    assert_eq!(ms.len(), 1);
    assert_eq!(ms[0].long_notation(), "32x21x12");
    assert_eq!(ms[0].captured, vec![27, 17]);
}

#[test]
fn man_captures_backwards_round_a_ring_to_its_own_square() {
    // White man 37 (row 7, col 2); Black 32, 22, 21, 31 around square 27.
    // 37x28 (over 32) x17 (over 22) x26 (over 21) x37 (over 31): four pieces, back home;
    // the other way round takes the same four pieces and is the same move.
    let p = pos("W:W37:B32,22,21,31");
    let ms = legal_moves(&p);
    assert_eq!(ms.len(), 1, "{ms:?}");
    assert_eq!((ms[0].from, ms[0].to, ms[0].captured.len()), (37, 37, 4));
    let after = play(&p, &ms[0]);
    assert_eq!(after.to_fen(), "B:W37:B");
}

#[test]
fn turkish_strike_a_captured_piece_blocks_until_the_move_ends() {
    // White king 41; Black 32, 18, 11, 38.
    // 41x23 (over 32), x7 (over 18), x16 (over 11): from 16 the line 21-27-32-38 is blocked by
    // the captured piece still standing on 32, so 38 cannot be taken: three pieces, not four.
    let p = pos("W:WK41:B32,18,11,38");
    let ms = legal_moves(&p);
    assert_eq!(ms.len(), 1, "{ms:?}");
    assert_eq!(ms[0].path, vec![23, 7, 16]);
    assert_eq!(ms[0].captured, vec![32, 18, 11]);
    assert_eq!(ms[0].long_notation(), "41x23x7x16");
}

#[test]
fn passing_the_last_row_during_a_capture_does_not_promote() {
    // White man 13 takes 8 landing on 2 (last row), then 7 landing on 11: stays a man.
    let p = pos("W:W13:B8,7");
    let ms = legal_moves(&p);
    assert_eq!(ms.len(), 1);
    assert_eq!(ms[0].long_notation(), "13x2x11");
    let after = play(&p, &ms[0]);
    assert_eq!(after.squares[11], Piece::Man(Colour::White));
    // ending on the last row promotes: 6-1
    let q = pos("W:W6:B45");
    let m = legal_moves(&q)
        .into_iter()
        .find(|m| m.to == 1)
        .unwrap_or_else(|| panic!("6-1 missing"));
    assert_eq!(play(&q, &m).squares[1], Piece::King(Colour::White));
}

#[test]
fn flying_king_moves_and_captures_at_a_distance() {
    // King 46 alone on the long diagonal: 41 37 32 28 23 19 14 10 5 = 9 moves.
    assert_eq!(legal_moves(&pos("W:WK46:B")).len(), 9);
    // King 46, Black man on 28: capture from afar, landing on 23, 19, 14, 10 or 5 (5 moves).
    let ms = legal_moves(&pos("W:WK46:B28"));
    assert_eq!(ms.len(), 5);
    assert!(ms.iter().all(|m| m.captured == vec![28]));
}

#[test]
fn pdn_reads_moves_captures_and_resolves_ambiguity() {
    let g = read_game(None, "1. 32-28 19-23 2. 28x19 14x23 {comment} 3. 37-32 *")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.moves.len(), 5);
    assert_eq!(g.moves[2].captured, vec![23]);
    let illegal = read_game(None, "1. 32-27 19-23 2. 31-26");
    // 32-27 19-23 are fine; 31-26? 31 is blocked? no: 26 is empty, so it is legal
    assert!(illegal.is_ok());
    let err = read_game(None, "1. 32-28 19-23 2. 33-29").unwrap_err();
    // after 32-28 19-23 White must capture 28x19: 33-29 is illegal
    assert!(
        matches!(
            err,
            PdnError::Illegal {
                ply: 3,
                move_number: 2,
                ..
            }
        ),
        "{err}"
    );
    // ambiguity: a king on 46 can take 28 landing on 23 .. 5; "46x5" is one, "46x" alone no
    let p = pos("W:WK46:B28");
    assert!(pdn::match_move(&p, "46x5").is_ok());
}

#[test]
fn pdn_tags_and_a_fen_tag_are_read() {
    let text = "[Event \"NK\"] [GameType \"20\"]\n[FEN \"W:WK46:B28\"]\n1. 46x5 *";
    let g = read_game(None, text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.start.to_fen(), "W:WK46:B28");
    assert_eq!(g.moves[0].captured, vec![28]);
}

#[test]
fn ambiguous_capture_is_resolved_by_the_landing_squares() {
    // White king 4, Black 18, 28, 29, 40, 43. Two ways to take three and end on 35:
    // 4x22 (over 18) x44 (over 28) x35 (over 40), or 4x27 (over 18) x49 (over 43) x35 (over 40).
    let fen = "W:WK4:B18,28,29,40,43";
    let p = pos(fen);
    match pdn::match_move(&p, "4x35") {
        Err(c) => assert_eq!(c.len(), 2),
        other => panic!("expected ambiguity, got {other:?}"),
    }
    let m = pdn::match_move(&p, "4x27x49x35")
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("4x27x49x35"));
    assert_eq!(m.captured, vec![18, 43, 40]);
    // one intermediate square is enough
    let m = pdn::match_move(&p, "4x44x35")
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("4x44x35"));
    assert_eq!(m.captured, vec![18, 28, 40]);
    let err = read_game(Some(fen), "4x35").unwrap_err();
    assert!(matches!(err, PdnError::Ambiguous { ply: 1, .. }), "{err}");
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Random games from the initial position: all legal moves take the same (maximum)
        /// number of pieces, a move removes exactly the pieces it captures, no man stands on
        /// its far row after a move, the FEN round-trips, and each move's full PDN notation
        /// reads back as that very move.
        #[test]
        fn random_games_keep_the_rules(choices in proptest::collection::vec(any::<u16>(), 1..120)) {
            let mut p = Position::initial();
            for c in choices {
                let ms = legal_moves(&p);
                if ms.is_empty() {
                    break;
                }
                let n = ms[0].captured.len();
                prop_assert!(ms.iter().all(|m| m.captured.len() == n));
                let m = &ms[usize::from(c) % ms.len()];
                let back = pdn::match_move(&p, &m.long_notation());
                prop_assert_eq!(back.ok().flatten(), Some(m.clone()));
                let pieces = |q: &Position| q.squares.iter().filter(|s| **s != Piece::Empty).count();
                let next = play(&p, m);
                prop_assert_eq!(pieces(&next) + m.captured.len(), pieces(&p));
                for sq in 1..=5 {
                    prop_assert_ne!(next.squares[sq], Piece::Man(Colour::White));
                }
                for sq in 46..=50 {
                    prop_assert_ne!(next.squares[sq], Piece::Man(Colour::Black));
                }
                prop_assert_eq!(Position::from_fen(&next.to_fen()).ok(), Some(next.clone()));
                p = next;
            }
        }
    }
}

#[test]
fn a_record_longer_than_the_limit_is_refused_before_it_is_replayed() {
    // two kings shuttling: legal for ever; one half-move over the limit is refused
    let cycle = ["47-42", "4-10", "42-47", "10-4"];
    let text = |n: usize| {
        cycle
            .iter()
            .cycle()
            .take(n)
            .copied()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let limit = crate::arbiter::MAX_PLIES;
    let game = read_game(Some("W:WK47:BK4"), &text(limit)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(game.moves.len(), limit);
    assert_eq!(
        read_game(Some("W:WK47:BK4"), &text(limit + 1)).unwrap_err(),
        PdnError::TooLong {
            plies: 2001,
            limit: 2000
        }
    );
}
