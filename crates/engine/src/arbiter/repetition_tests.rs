//! Threefold repetition: hand-checked games (move numbers cited in the comments).

use super::*;

fn san(moves: &str) -> ChessMoves {
    ChessMoves::San(moves.split_whitespace().map(str::to_string).collect())
}

fn check(fen: Option<&str>, moves: &str, declared: Option<&str>) -> RepetitionVerdict {
    check_repetition(&RepetitionClaim {
        start_fen: fen.map(str::to_string),
        moves: san(moves),
        declared_move: declared.map(str::to_string),
    })
    .unwrap_or_else(|e| panic!("{e}"))
}

/// (move number, side) of each earlier occurrence; `None` = start position.
fn cited(v: &RepetitionVerdict) -> Vec<Option<(u32, Colour)>> {
    v.earlier
        .iter()
        .map(|o| o.after.as_ref().map(|m| (m.move_number, m.side)))
        .collect()
}

#[test]
fn claim_b_start_position_three_times() {
    // Start, after 2...Ng8, after 4...Ng8: the initial position with White to move 3 times.
    let v = check(None, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8", None);
    assert!(v.valid);
    assert_eq!(v.kind, RepetitionKind::CurrentPosition);
    assert_eq!(v.claimant, Colour::White);
    assert_eq!(v.occurrences, 3);
    assert_eq!(cited(&v), vec![None, Some((2, Colour::Black))]);
    let m = v
        .claimed
        .and_then(|c| c.after)
        .unwrap_or_else(|| panic!("claimed"));
    assert_eq!(
        (m.move_number, m.side, m.notation.as_str()),
        (4, Colour::Black, "Ng8")
    );
}

#[test]
fn claim_b_repetition_not_in_a_row() {
    // Knights on f3/f6, White to move: after 1...Nf6, after 3...Nf6 (2.Ng1 Ng8 3.Nf3 Nf6),
    // after 5...Nb8 (4.Nc3 Nc6 5.Nb1 Nb8): three times, with other positions in between.
    let v = check(None, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Nc3 Nc6 Nb1 Nb8", None);
    assert!(v.valid);
    assert_eq!(v.occurrences, 3);
    assert_eq!(
        cited(&v),
        vec![Some((1, Colour::Black)), Some((3, Colour::Black))]
    );
}

#[test]
fn claim_a_with_the_declared_move() {
    // After 4.Ng1 Black declares 4...Ng8: the initial position for the 3rd time
    // (start, 2...Ng8, 4...Ng8).
    let v = check(None, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1", Some("4...Ng8"));
    assert!(v.valid);
    assert_eq!(v.kind, RepetitionKind::AfterDeclaredMove);
    assert_eq!(v.claimant, Colour::Black);
    assert_eq!(cited(&v), vec![None, Some((2, Colour::Black))]);
    assert_eq!(
        v.claimed
            .and_then(|c| c.after)
            .map(|m| (m.move_number, m.side)),
        Some((4, Colour::Black))
    );
    // one cycle earlier the declared move only makes it the 2nd time
    let w = check(None, "Nf3 Nf6 Ng1", Some("Ng8"));
    assert!(!w.valid);
    assert_eq!(
        w.invalid,
        Some(InvalidReason::TooFewOccurrences { occurrences: 2 })
    );
}

#[test]
fn claim_a_with_an_illegal_written_move_is_invalid() {
    // 4...Qh4 is impossible: the queen on d8 is shut in by the pawn on e7.
    let v = check(None, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1", Some("Qh4"));
    assert!(!v.valid);
    assert_eq!(v.claimed, None);
    assert_eq!(
        v.invalid,
        Some(InvalidReason::IllegalDeclaredMove {
            declared: "Qh4".into()
        })
    );
}

#[test]
fn a_double_step_without_a_legal_en_passant_capture_is_the_same_position() {
    // 1.e4 leaves a pseudo e.p. square e3 but no black pawn can take: the position after 1.e4
    // (Black to move) recurs after 3.Ng1 and 5.Ng1 → valid, citing 1.e4 and 3.Ng1.
    let v = check(None, "e4 Nf6 Nf3 Ng8 Ng1 Nf6 Nf3 Ng8 Ng1", None);
    assert!(v.valid, "{v:?}");
    assert_eq!(v.claimant, Colour::Black);
    assert_eq!(
        cited(&v),
        vec![Some((1, Colour::White)), Some((3, Colour::White))]
    );
}

#[test]
fn a_legal_en_passant_capture_makes_the_position_different() {
    // 1...d5 next to the white pawn on e5: exd6 e.p. is legal, so the position after 1...d5
    // differs from the same board after 3...Nb8 and 5...Nb8 (no e.p. any more): 2 times only.
    let fen = "1n2k3/3p4/8/4P3/8/8/8/1N2K3 b - - 0 1";
    let v = check(Some(fen), "d5 Nc3 Nc6 Nb1 Nb8 Nc3 Nc6 Nb1 Nb8", None);
    assert!(!v.valid);
    assert_eq!(v.occurrences, 2);
    assert_eq!(cited(&v), vec![Some((3, Colour::Black))]);
    // one more cycle: after 7...Nb8 it is the third time (3...Nb8, 5...Nb8, 7...Nb8)
    let w = check(
        Some(fen),
        "d5 Nc3 Nc6 Nb1 Nb8 Nc3 Nc6 Nb1 Nb8 Nc3 Nc6 Nb1 Nb8",
        None,
    );
    assert!(w.valid);
    assert_eq!(
        cited(&w),
        vec![Some((3, Colour::Black)), Some((5, Colour::Black))]
    );
}

#[test]
fn a_pinned_pawn_has_no_legal_en_passant_so_the_positions_are_the_same() {
    // Same as above with a black rook on e8 pinning the e5 pawn to the king on e1: exd6 e.p.
    // would expose the king, so it is not a possible move and 1...d5 counts: 1...d5,
    // 3...Nb8, 5...Nb8 = three times.
    let fen = "1n2r1k1/3p4/8/4P3/8/8/8/1N2K3 b - - 0 1";
    let v = check(Some(fen), "d5 Nc3 Nc6 Nb1 Nb8 Nc3 Nc6 Nb1 Nb8", None);
    assert!(v.valid, "{v:?}");
    assert_eq!(
        cited(&v),
        vec![Some((1, Colour::Black)), Some((3, Colour::Black))]
    );
}

#[test]
fn lost_castling_rights_make_the_position_different() {
    // Knights f3/f6, White to move, after 1...Nf6 (all castling rights), after 3...Rh8 (both
    // kingside rights lost by 2.Rg1 Rg8 3.Rh1 Rh8), after 5...Nf6, after 7...Nf6.
    // After 5...Nf6 the board has stood there 3 times but only twice with the same rights.
    let moves = "Nf3 Nf6 Rg1 Rg8 Rh1 Rh8 Ng1 Ng8 Nf3 Nf6";
    let v = check(None, moves, None);
    assert!(!v.valid);
    assert_eq!(cited(&v), vec![Some((3, Colour::Black))]);
    let w = check(None, &format!("{moves} Ng1 Ng8 Nf3 Nf6"), None);
    assert!(w.valid);
    assert_eq!(
        cited(&w),
        vec![Some((3, Colour::Black)), Some((5, Colour::Black))]
    );
}

#[test]
fn pgn_movetext_with_headers_comments_and_variations() {
    let pgn = "[Event \"Club\"]\n[Site \"?\"]\n\n1. Nf3 Nf6 2. Ng1 {back} Ng8 3. Nf3 (3. e4 e5) \
               3... Nf6 $1 4. Ng1 Ng8 1/2-1/2";
    let v = check_repetition(&RepetitionClaim {
        start_fen: None,
        moves: ChessMoves::Pgn(pgn.into()),
        declared_move: None,
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(v.valid);
    assert_eq!(v.occurrences, 3);
}

#[test]
fn an_illegal_recorded_move_is_an_error_naming_it() {
    let e = check_repetition(&RepetitionClaim {
        start_fen: None,
        moves: san("e4 e5 Ke3"),
        declared_move: None,
    })
    .unwrap_err();
    assert_eq!(
        e,
        RepetitionError::IllegalMove {
            ply: 3,
            move_number: 2,
            side: Colour::White,
            san: "Ke3".into()
        }
    );
}

#[test]
fn a_king_walk_loses_the_castling_rights_of_the_first_occurrence() {
    // After 1...e5 (all rights; e6 is no legal e.p. target, no white pawn on d5/f5) the board
    // recurs after 3...Ke8 and 5...Ke8, but the kings have moved: no castling rights any more.
    // After 5...Ke8: the same board 3 times but the same position only twice (3..., 5...).
    let moves = "e4 e5 Ke2 Ke7 Ke1 Ke8 Ke2 Ke7 Ke1 Ke8";
    let v = check(None, moves, None);
    assert!(!v.valid);
    assert_eq!(cited(&v), vec![Some((3, Colour::Black))]);
    // 6.Ke2 Ke7 7.Ke1 Ke8: third time since 3...Ke8
    let w = check(None, &format!("{moves} Ke2 Ke7 Ke1 Ke8"), None);
    assert!(w.valid);
    assert_eq!(
        cited(&w),
        vec![Some((3, Colour::Black)), Some((5, Colour::Black))]
    );
}

#[test]
fn move_numbers_follow_the_start_fen() {
    // The e.p. position with "move 23, Black to move": 23...d5 24.Nc3 Nc6 25.Nb1 Nb8 ...
    // the second occurrence is after 25...Nb8, the claim after 27...Nb8.
    let fen = "1n2k3/3p4/8/4P3/8/8/8/1N2K3 b - - 0 23";
    let v = check(Some(fen), "d5 Nc3 Nc6 Nb1 Nb8 Nc3 Nc6 Nb1 Nb8", None);
    assert_eq!(cited(&v), vec![Some((25, Colour::Black))]);
    assert_eq!(
        v.claimed
            .and_then(|c| c.after)
            .map(|m| (m.move_number, m.side, m.ply)),
        Some((27, Colour::Black, 9))
    );
}

mod properties {
    use super::*;
    use crate::arbiter::chess::Pos;
    use crate::arbiter::san::to_san;
    use cozy_chess::Piece;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// In random games (knight-heavy, so positions recur), the number of occurrences found
        /// for claim (b) equals the count by cozy-chess's own `Board::same_position` (FIDE's
        /// notion, with e.p. only when legal) — an independent notion of the same position —
        /// and valid means at least three.
        #[test]
        fn occurrences_match_an_independent_hash(choices in proptest::collection::vec(any::<u16>(), 1..80)) {
            let mut pos = Pos::default();
            let mut boards = vec![pos.board.clone()];
            let mut sans = Vec::new();
            for c in choices {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // prefer knight moves to make repetitions likely
                let knights: Vec<_> = moves.iter().filter(|m| pos.board.piece_on(m.from) == Some(Piece::Knight)).cloned().collect();
                let pool = if !knights.is_empty() && c % 4 != 0 { knights } else { moves.to_vec() };
                let m = pool[usize::from(c) % pool.len()];
                sans.push(to_san(&pos, m));
                pos.play(m);
                boards.push(pos.board.clone());
            }
            let last = &boards[boards.len() - 1];
            let expected = boards.iter().filter(|b| b.same_position(last)).count() as u32;
            let v = check_repetition(&RepetitionClaim {
                start_fen: None,
                moves: ChessMoves::San(sans),
                declared_move: None,
            })
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(v.occurrences, expected);
            prop_assert_eq!(v.earlier.len() as u32 + 1, v.occurrences);
            prop_assert_eq!(v.valid, expected >= 3);
        }
    }
}

#[test]
fn a_record_longer_than_the_limit_is_refused_before_it_is_replayed() {
    // knights back and forth: legal for ever; one half-move over the limit is refused
    let cycle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let san = |n: usize| -> Vec<String> {
        cycle
            .iter()
            .cycle()
            .take(n)
            .map(|s| s.to_string())
            .collect()
    };
    let limit = crate::arbiter::MAX_PLIES;
    assert_eq!(
        record_moves(&ChessMoves::San(san(limit)), None)
            .unwrap_or_else(|e| panic!("{e}"))
            .len(),
        limit
    );
    assert_eq!(
        record_moves(&ChessMoves::San(san(limit + 1)), None).unwrap_err(),
        RepetitionError::TooLong {
            plies: 2001,
            limit: 2000
        }
    );
    // the same through PGN movetext (move numbers are not half-moves)
    let pgn = san(limit + 1)
        .chunks(2)
        .enumerate()
        .map(|(i, p)| format!("{}. {}", i + 1, p.join(" ")))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(matches!(
        record_moves(&ChessMoves::Pgn(pgn), None),
        Err(RepetitionError::TooLong { plies: 2001, .. })
    ));
}
