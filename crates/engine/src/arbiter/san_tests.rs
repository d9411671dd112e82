//! SAN reading and writing on hand-set positions (the legal moves worked out on the diagram).

use super::*;
use crate::arbiter::repetition::{ChessMoves, RepetitionClaim, RepetitionError, check_repetition};
use crate::arbiter::{Colour, fifty};

fn pos(fen: &str) -> Pos {
    Pos::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The move as "from-to[promotion]" for comparing by hand.
fn uci(text: &str, p: &Pos) -> String {
    let m = parse_san(p, text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    let promo = m
        .promotion
        .map(|p| letter(p).to_lowercase())
        .unwrap_or_default();
    format!("{}{}{promo}", m.from, m.to)
}

#[test]
fn disambiguation_by_file_rank_and_square() {
    // White knights b1 and f1 both reach d2: "Nbd2" / "Nfd2" by file, bare "Nd2" ambiguous.
    let p = pos("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    assert_eq!(uci("Nbd2", &p), "b1d2");
    assert_eq!(uci("Nfd2", &p), "f1d2");
    assert_eq!(
        parse_san(&p, "Nd2"),
        Err(SanError::Ambiguous(vec!["Nbd2".into(), "Nfd2".into()]))
    );
    // Rooks a1 and a5 on one file both reach a3: by rank "R1a3" / "R5a3".
    let p = pos("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
    assert_eq!(uci("R1a3", &p), "a1a3");
    assert_eq!(uci("R5a3", &p), "a5a3");
    assert_eq!(
        to_san(
            &p,
            parse_san(&p, "R1a3").unwrap_or_else(|e| panic!("{e:?}"))
        ),
        "R1a3"
    );
    // Queens a1, a3 and c1 all reach b2: a1 shares its file with a3 and its rank with c1, so
    // only the square names it ("Qa1b2"); a3 shares file a but is alone on rank 3 ("Q3b2");
    // c1 is alone on file c ("Qcb2"); "Qab2" fits both a1 and a3.
    let p = pos("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
    assert_eq!(uci("Qa1b2", &p), "a1b2");
    let a1 = parse_san(&p, "Qa1b2").unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(to_san(&p, a1), "Qa1b2");
    let a3 = parse_san(&p, "Q3b2").unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(to_san(&p, a3), "Q3b2");
    assert_eq!(uci("Qcb2", &p), "c1b2");
    assert!(matches!(parse_san(&p, "Qab2"), Err(SanError::Ambiguous(_))));
}

#[test]
fn promotion_with_capture_castling_and_suffixes() {
    // White pawn b7 takes the rook on a8 or on c8 (with any promotion), or advances to b8.
    let p = pos("r1r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(uci("bxa8=Q+", &p), "b7a8q");
    assert_eq!(uci("bxc8=N", &p), "b7c8n");
    assert_eq!(uci("bxc8R!?", &p), "b7c8r");
    let m = parse_san(&p, "bxa8=Q").unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(to_san(&p, m), "bxa8=Q");
    assert_eq!(parse_san(&p, "bxa8"), Err(SanError::Illegal));
    // Castling both sides, with O or zero, and its SAN.
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(uci("O-O", &p), "e1h1");
    assert_eq!(uci("0-0-0", &p), "e1a1");
    assert_eq!(uci("O-O-O+", &p), "e1a1");
    let m = parse_san(&p, "O-O").unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(to_san(&p, m), "O-O");
    // "Kg1" is a plain king step, not castling
    assert_eq!(uci("Kf1", &p), "e1f1");
    assert_eq!(parse_san(&p, "Kg1"), Err(SanError::Illegal));
    // suffixes and annotations, glued move numbers
    let p = Pos::default();
    for t in [
        "e4", "e4!", "e4?", "e4!!", "e4??", "e4!?", "e4?!", "1.e4", "1. e4", "e4+",
    ] {
        assert_eq!(uci(t, &p), "e2e4", "{t}");
    }
    assert_eq!(parse_san(&p, "Ze4"), Err(SanError::Unreadable));
    assert_eq!(parse_san(&p, "e5"), Err(SanError::Illegal));
    // a written 'x' must be a capture
    assert_eq!(parse_san(&p, "Nxf3"), Err(SanError::Illegal));
}

#[test]
fn en_passant_is_read_and_written_as_a_pawn_capture() {
    let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    assert_eq!(uci("exd6", &p), "e5d6");
    let m = parse_san(&p, "exd6").unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(to_san(&p, m), "exd6");
    assert_eq!(uci("exd6e.p.", &p), "e5d6");
    assert_eq!(uci("exd6 e.p.+", &p), "e5d6");
    assert_eq!(uci("1.exd6e.p.", &p), "e5d6");
    let mut q = p.clone();
    q.play(m);
    // the captured pawn is gone and the clock reset
    assert_eq!(q.fen(), "4k3/8/3P4/8/8/8/8/4K3 b - - 0 1");
}

#[test]
fn illegal_and_ambiguous_recorded_moves_name_the_move_number() {
    // 1.d4 d6 2.Nc3 Kd7 3.Ne4 Ke8 4.Nf3 Kd7 5.Nd2: d2 is empty, the knights on e4 and f3
    // both reach it → ambiguous at move 5, White (ply 9).
    let claim = RepetitionClaim {
        start_fen: None,
        moves: ChessMoves::San(
            "d4 d6 Nc3 Kd7 Ne4 Ke8 Nf3 Kd7 Nd2"
                .split(' ')
                .map(str::to_string)
                .collect(),
        ),
        declared_move: None,
    };
    let e = check_repetition(&claim).unwrap_err();
    assert_eq!(
        e,
        RepetitionError::AmbiguousMove {
            ply: 9,
            move_number: 5,
            side: Colour::White,
            san: "Nd2".into(),
            candidates: vec!["Ned2".into(), "Nfd2".into()],
        }
    );
    assert!(e.to_string().contains("move 5"), "{e}");
    // an illegal move in PGN: the king on e1 cannot reach e3 in one step → move 3, White,
    // ply 5.
    let e = check_repetition(&RepetitionClaim {
        start_fen: None,
        moves: ChessMoves::Pgn("1. e4 e5 2. f3 Qh4+ 3. Ke3 *".into()),
        declared_move: None,
    })
    .unwrap_err();
    assert_eq!(
        e,
        RepetitionError::IllegalMove {
            ply: 5,
            move_number: 3,
            side: Colour::White,
            san: "Ke3".into()
        }
    );
    assert!(e.to_string().contains("move 3"), "{e}");
    let e = check_repetition(&RepetitionClaim {
        start_fen: None,
        moves: ChessMoves::Pgn("1. e4 {open".into()),
        declared_move: None,
    })
    .unwrap_err();
    assert!(matches!(e, RepetitionError::BadPgn { .. }), "{e}");
}

#[test]
fn lenient_fen_and_uncapped_clocks() {
    // castling rights with the rook gone are dropped; an impossible e.p. square is ignored
    let p = pos("4k3/8/8/8/8/8/8/4K2R w KQ e6 120 70");
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/4K2R w K - 120 70");
    // the fifty-move check counts beyond cozy-chess's cap of 100: 120 + 1 = 121
    let v = fifty::check_fifty_moves(&fifty::FiftyMovesClaim {
        start_fen: Some("4k3/8/8/8/8/8/8/4K2R w K - 120 70".into()),
        moves: ChessMoves::San(vec!["Rh2".into()]),
        declared_move: None,
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v.quiet_plies, 121);
    assert!(v.valid);
    assert!(Pos::from_fen("8/8/8/8/8/8/8/8 w - - 0 1").is_err());
    // Shredder letters for a standard position; missing trailing fields take their defaults
    assert_eq!(
        pos("r3k2r/8/8/8/8/8/8/R3K2R w HAha").fen(),
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    );
}

/// A declared move and the move played compared as moves (FIDE 9.5.3; docs/rules/arbiter.md):
/// worked by hand from what each writing says.
#[test]
fn the_same_move_written_two_ways_is_one_move() {
    let same = |a: &str, b: &str| same_written_move(a, b);
    assert_eq!(same("Nc6", "Nbc6"), Some(true));
    assert_eq!(same("Nbc6", "Nc6"), Some(true));
    assert_eq!(same("Nc6", "Nb8c6"), Some(true));
    assert_eq!(same("Nxc6", "Nc6+"), Some(true));
    assert_eq!(same("0-0", "O-O"), Some(true));
    assert_eq!(same("e4", "e2e4"), Some(true));
    assert_eq!(same("exd5", "xd5"), Some(false)); // a pawn without its file comes from d
    assert_eq!(same("e8=Q", "e8Q"), Some(true));
    // different moves
    assert_eq!(same("Nbc6", "Ndc6"), Some(false));
    assert_eq!(same("Nc6", "Bc6"), Some(false));
    assert_eq!(same("Nc6", "Nc5"), Some(false));
    assert_eq!(same("e8=Q", "e8=N"), Some(false));
    assert_eq!(same("exd5", "cxd5"), Some(false));
    assert_eq!(same("O-O", "O-O-O"), Some(false));
    assert_eq!(same("O-O", "Kg1"), Some(false));
    // Qa3, Qc1 and Qc3 may all reach b2: "Q3b2" and "Qcb2" need not be one queen
    assert_eq!(same("Q3b2", "Qcb2"), Some(false));
    // not SAN: the caller compares the texts
    assert_eq!(same("32-28", "32-28"), None);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Along random games every legal move written as SAN reads back as that same move.
        #[test]
        fn every_legal_move_round_trips(choices in proptest::collection::vec(any::<u16>(), 1..60)) {
            let mut p = Pos::default();
            for c in choices {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    let s = to_san(&p, m);
                    prop_assert_eq!(parse_san(&p, &s), Ok(m), "{}", s);
                }
                p.play(moves[usize::from(c) % moves.len()]);
            }
        }

        /// Along random games two legal moves' SAN name the same move exactly when they are
        /// the same move, and a move's SAN and its long form (piece, from, to) are one move.
        #[test]
        fn legal_writings_agree_exactly_for_the_same_move(choices in proptest::collection::vec(any::<u16>(), 1..40)) {
            let mut p = Pos::default();
            for c in choices {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let sans: Vec<String> = moves.iter().map(|&m| to_san(&p, m)).collect();
                for (i, &m) in moves.iter().enumerate() {
                    for (j, t) in sans.iter().enumerate() {
                        prop_assert_eq!(same_written_move(&sans[i], t), Some(i == j), "{} {}", sans[i], t);
                    }
                    if !p.is_castling(m) {
                        let piece = p.board.piece_on(m.from).expect("a legal move moves a piece");
                        let promotion = m.promotion.map(|q| format!("={}", letter(q))).unwrap_or_default();
                        let long = format!("{}{}{}{promotion}", letter(piece), m.from, m.to);
                        prop_assert_eq!(same_written_move(&sans[i], &long), Some(true), "{} {}", sans[i], long);
                    }
                }
                p.play(moves[usize::from(c) % moves.len()]);
            }
        }
    }
}
