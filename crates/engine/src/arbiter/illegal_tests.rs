//! Illegal-move claims worked by hand from the Laws (7.5.5, A.4.2, B.2, B.3) on positions
//! set up by FEN or played from the start.

use super::*;
use crate::arbiter::quickplay::{Increment, Period};

fn san(moves: &[&str]) -> ChessMoves {
    ChessMoves::San(moves.iter().map(|m| m.to_string()).collect())
}

fn claim(fen: Option<&str>, moves: &[&str], illegal: &str, earlier: u32) -> IllegalMoveVerdict {
    check_illegal_move(&IllegalMoveClaim {
        start_fen: fen.map(str::to_string),
        moves: san(moves),
        illegal_move: illegal.into(),
        earlier_illegal_moves: earlier,
        appendix: Appendix::Rapid,
    })
    .unwrap_or_else(|e| panic!("{e}"))
}

/// 1.e4 e5 2.Ke3: a king moves one square, so the move is illegal; White's first: Black gets
/// one minute and White must make a legal move instead. The second loses: 0-1.
#[test]
fn a_king_moving_two_squares_is_illegal_the_first_time_a_minute_the_second_time_the_game() {
    let v = claim(None, &["e4", "e5"], "Ke3", 0);
    assert!(v.valid);
    assert_eq!(v.offender, Colour::White);
    assert_eq!(v.claimant, Colour::Black);
    assert_eq!(
        (v.at.move_number, v.at.side, v.at.ply),
        (2, Colour::White, 3)
    );
    assert_eq!(v.reason, Some(IllegalReason::NotALegalMove));
    assert_eq!(
        v.consequence,
        Some(IllegalMoveConsequence::ExtraTime {
            to: Colour::Black,
            seconds: 60
        })
    );
    assert_eq!(v.articles, "FIDE Laws A.4.2 and 7.5.5");
    let v = claim(None, &["e4", "e5"], "Ke3", 1);
    assert_eq!(
        v.consequence,
        Some(IllegalMoveConsequence::Lost {
            loser: Colour::White
        })
    );
}

/// 1.e4 e5 2.f3 Qh4+: 3.d3 leaves the king in check (illegal); 3.g3 parries it (legal: the
/// claim is wrong and has no consequence).
#[test]
fn a_move_that_leaves_the_king_in_check_is_illegal_one_that_parries_it_is_not() {
    let v = claim(None, &["e4", "e5", "f3", "Qh4+"], "d3", 0);
    assert!(v.valid);
    assert_eq!(v.reason, Some(IllegalReason::LeavesKingInCheck));
    let v = claim(None, &["e4", "e5", "f3", "Qh4+"], "g3", 0);
    assert!(!v.valid);
    assert_eq!(v.legal_as.as_deref(), Some("g3"));
    assert_eq!(v.consequence, None);
    assert_eq!(v.reason, None);
}

/// After 1.e4 Black's e6–e5 starts from an empty square; e7–e5 is legal; Ke7 goes to a square
/// Black's own pawn holds.
#[test]
fn moves_by_their_squares_are_judged_from_the_piece_on_the_first() {
    let v = claim(None, &["e4"], "e6e5", 0);
    assert_eq!(v.reason, Some(IllegalReason::NoOwnPiece));
    assert_eq!(v.offender, Colour::Black);
    assert_eq!(v.claimant, Colour::White);
    assert_eq!((v.at.move_number, v.at.side), (1, Colour::Black));
    let v = claim(None, &["e4"], "e7-e5", 0);
    assert!(!v.valid);
    assert_eq!(v.legal_as.as_deref(), Some("e5"));
    assert!(claim(None, &["e4"], "Ke7", 0).valid);
}

/// White castles short with the king's squares e1g1 (legal); with a black rook on f8 the king
/// would cross the attacked f1, so O-O and e1g1 are illegal.
#[test]
fn castling_across_an_attacked_square_is_illegal() {
    let free = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let v = claim(Some(free), &[], "e1g1", 0);
    assert_eq!(v.legal_as.as_deref(), Some("O-O"));
    let v = claim(Some(free), &[], "O-O-O", 0);
    assert!(!v.valid);
    let attacked = "4kr2/8/8/8/8/8/8/4K2R w K - 0 1";
    assert_eq!(
        claim(Some(attacked), &[], "O-O", 0).reason,
        Some(IllegalReason::NotALegalMove)
    );
    assert!(claim(Some(attacked), &[], "e1g1", 0).valid);
}

/// A pawn reaching the last rank must become a queen, rook, bishop or knight (3.7.5): e8
/// without a piece and e7–e8 to a king are illegal, e8=Q is legal.
#[test]
fn a_promotion_without_a_piece_or_to_a_king_is_illegal() {
    let fen = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1";
    assert!(claim(Some(fen), &[], "e8", 0).valid);
    assert!(claim(Some(fen), &[], "e7e8k", 0).valid);
    assert!(!claim(Some(fen), &[], "e8=Q", 0).valid);
}

/// Knights on b1 and f1 both reach d2: "Nd2" fits two legal moves, and either was legal.
#[test]
fn a_writing_that_fits_two_legal_moves_names_a_legal_move() {
    let v = claim(Some("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"), &[], "Nd2", 0);
    assert!(!v.valid);
    assert_eq!(v.legal_as.as_deref(), Some("Nbd2 or Nfd2"));
}

/// White (king and rook) moves the rook a1–b8 a second time; Black has a bare king and
/// cannot checkmate by any series of legal moves: drawn. The first time still gives Black a
/// minute.
#[test]
fn the_second_illegal_move_draws_when_the_opponent_cannot_checkmate() {
    let fen = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1";
    let v = claim(Some(fen), &[], "Rb8", 1);
    assert!(v.valid);
    assert!(!v.claimant_can_checkmate);
    assert_eq!(v.consequence, Some(IllegalMoveConsequence::Drawn));
    let v = claim(Some(fen), &[], "Rb8", 0);
    assert!(matches!(
        v.consequence,
        Some(IllegalMoveConsequence::ExtraTime { seconds: 60, .. })
    ));
}

/// Black has king and dark-squared bishop (f8). Against White's king and dark-squared bishop
/// (c1) no mate is possible (the light squares around a king can never be covered):
/// drawn; against a light-squared bishop (d1) White's bishop can block a flight square:
/// lost.
#[test]
fn bishops_of_one_colour_cannot_mate_against_bishops_of_that_colour() {
    let same = "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1";
    let v = claim(Some(same), &[], "e1e3", 1);
    assert_eq!(v.consequence, Some(IllegalMoveConsequence::Drawn));
    let opposite = "4kb2/8/8/8/8/8/8/3BK3 w - - 0 1";
    let v = claim(Some(opposite), &[], "e1e3", 1);
    assert_eq!(
        v.consequence,
        Some(IllegalMoveConsequence::Lost {
            loser: Colour::White
        })
    );
}

/// A lone knight mates only with help: not against a bare king, but against a king with a
/// pawn that can block its flight.
#[test]
fn a_knight_mates_only_with_the_help_of_the_other_side() {
    let bare = "4kn2/8/8/8/8/8/8/4K3 w - - 0 1";
    assert!(!claim(Some(bare), &[], "e1e3", 1).claimant_can_checkmate);
    let pawn = "4kn2/8/8/8/8/8/P7/4K3 w - - 0 1";
    assert!(claim(Some(pawn), &[], "e1e3", 1).claimant_can_checkmate);
}

/// The blitz cites B.2 and B.3 and gives the same minute.
#[test]
fn the_blitz_cites_its_appendix() {
    let v = check_illegal_move(&IllegalMoveClaim {
        start_fen: None,
        moves: san(&["e4", "e5"]),
        illegal_move: "Ke3".into(),
        earlier_illegal_moves: 0,
        appendix: Appendix::Blitz,
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v.articles, "FIDE Laws B.2, B.3 and 7.5.5");
    assert_eq!(
        v.consequence,
        Some(IllegalMoveConsequence::ExtraTime {
            to: Colour::Black,
            seconds: 60
        })
    );
}

#[test]
fn what_is_no_move_or_a_record_that_cannot_be_read_is_an_error() {
    let c = |moves: &[&str], illegal: &str| {
        check_illegal_move(&IllegalMoveClaim {
            start_fen: None,
            moves: san(moves),
            illegal_move: illegal.into(),
            earlier_illegal_moves: 0,
            appendix: Appendix::Rapid,
        })
    };
    assert!(matches!(
        c(&["e4"], "hello"),
        Err(IllegalMoveError::Unreadable(_))
    ));
    assert!(matches!(c(&["e5"], "e4"), Err(IllegalMoveError::Record(_))));
}

/// A.1 and B.1: 10 minutes or less (time plus 60 times the increment) is blitz, less than 60
/// rapid, 60 or more a standard game.
#[test]
fn the_tempo_names_the_appendix() {
    let tc = |minutes: u32, inc: u32| TimeControl {
        periods: vec![Period {
            moves: None,
            minutes,
        }],
        increment: (inc > 0).then_some(Increment {
            seconds: inc,
            from_move: 1,
        }),
    };
    assert_eq!(Appendix::of(&tc(10, 0)), Some(Appendix::Blitz));
    assert_eq!(Appendix::of(&tc(5, 3)), Some(Appendix::Blitz)); // 5 + 3 = 8
    assert_eq!(Appendix::of(&tc(10, 5)), Some(Appendix::Rapid)); // 10 + 5 = 15
    assert_eq!(Appendix::of(&tc(25, 0)), Some(Appendix::Rapid));
    assert_eq!(Appendix::of(&tc(59, 0)), Some(Appendix::Rapid));
    assert_eq!(Appendix::of(&tc(50, 10)), None); // 50 + 10 = 60
    assert_eq!(
        Appendix::of(&TimeControl::moves_then_rest(40, 90, 30)),
        None
    );
}
