//! Draughts claims: hand-built games from king endgames (move numbers cited in comments).
//! Base position S: White kings 47 and 50 and a man on 45, Black king on 4, White to move.
//! No piece can take anything while the kings shuffle 47-42-47 and 4-10-4.

use super::*;
use crate::arbiter::Colour;

const S: &str = "W:WK47,K50,45:BK4";
const CYCLE: &str = "47-42 4-10 42-47 10-4";

fn req(fen: &str, movetext: &str, claim: DraughtsClaim) -> ClaimCheck {
    check_draughts_claim(&DraughtsClaimRequest {
        start_fen: Some(fen.into()),
        movetext: movetext.into(),
        claim,
    })
    .unwrap_or_else(|e| panic!("{e}"))
}

fn cited(c: &ClaimCheck) -> Vec<Option<(u32, Colour)>> {
    c.earlier
        .iter()
        .map(|o| o.after.as_ref().map(|m| (m.move_number, m.side)))
        .collect()
}

fn cycles(n: usize) -> String {
    vec![CYCLE; n].join(" ")
}

#[test]
fn claim_a_third_time_to_move_in_the_same_position() {
    // S stands at the start, after 2...10-4 and after 4...10-4: White to move 3 times.
    let c = req(S, &cycles(2), DraughtsClaim::ThirdTime);
    assert!(c.valid);
    assert_eq!(c.claimant, Colour::White);
    assert_eq!(c.occurrences, 3);
    assert_eq!(cited(&c), vec![None, Some((2, Colour::Black))]);
    // White 2+2+1 = 5 men against Black 2: three ahead -> plusremise for White
    assert_eq!(c.material, [5, 2]);
    assert_eq!(
        c.verdict,
        Some(DraughtsVerdict::Plusremise {
            side: Colour::White
        })
    );
    // only twice after one cycle
    let d = req(S, &cycles(1), DraughtsClaim::ThirdTime);
    assert!(!d.valid);
    assert_eq!(d.occurrences, 2);
    assert_eq!(d.verdict, None);
}

#[test]
fn claim_a_between_bare_kings_is_a_draw() {
    let c = req("W:WK47:BK4", &cycles(2), DraughtsClaim::ThirdTime);
    assert!(c.valid);
    assert_eq!(c.verdict, Some(DraughtsVerdict::Draw));
}

#[test]
fn claim_b_counts_only_positions_made_by_the_claimants_own_moves() {
    // After 1.47-42 4-10 2.42-47 10-4 3.47-42 4-10 4.42-47 Black can play 10-4 and make S,
    // which stood twice before (start, 2...10-4) but arose by a Black move only once.
    let c = req(
        S,
        &format!("{} 47-42 4-10 42-47", cycles(1)),
        DraughtsClaim::CanRepeat {
            declared_move: None,
        },
    );
    assert!(!c.valid, "{c:?}");
    assert_eq!(c.claimant, Colour::Black);
    assert_eq!(c.occurrences, 1);
    // one cycle more: 10-4 makes S for the third time, after 2...10-4 and 4...10-4
    let d = req(
        S,
        &format!("{} 47-42 4-10 42-47", cycles(2)),
        DraughtsClaim::CanRepeat {
            declared_move: Some("10-4".into()),
        },
    );
    assert!(d.valid);
    assert_eq!(d.repeating_move.as_deref(), Some("10-4"));
    assert_eq!(
        cited(&d),
        vec![Some((2, Colour::Black)), Some((4, Colour::Black))]
    );
    assert_eq!(
        d.verdict,
        Some(DraughtsVerdict::Plusremise {
            side: Colour::White
        })
    );
    // a declared move that does not repeat, and one that is not legal
    let e = req(
        S,
        &format!("{} 47-42 4-10 42-47", cycles(2)),
        DraughtsClaim::CanRepeat {
            declared_move: Some("10-5".into()),
        },
    );
    assert!(!e.valid);
    let f = req(
        S,
        &format!("{} 47-42 4-10 42-47", cycles(2)),
        DraughtsClaim::CanRepeat {
            declared_move: Some("4-10".into()),
        },
    );
    assert!(!f.valid);
    assert!(f.reason.unwrap_or_default().contains("not a legal move"));
}

/// 1.45-40 (a man's move) then only king moves: `plies` half-moves in all.
fn man_move_then_kings(plies: usize) -> String {
    let mut v = vec!["45-40".to_string(), "4-10".to_string()];
    let white = ["47-42", "42-47"];
    let black = ["10-4", "4-10"];
    let (mut w, mut b) = (0, 0);
    while v.len() < plies {
        if v.len() % 2 == 0 {
            v.push(white[w % 2].into());
            w += 1;
        } else {
            v.push(black[b % 2].into());
            b += 1;
        }
    }
    v.join(" ")
}

#[test]
fn claim_c_twenty_five_moves_each_without_capture_or_man_move() {
    // 50 half-moves: after the man's move 1.45-40 only 49 quiet half-moves -> not yet.
    let c = req(S, &man_move_then_kings(50), DraughtsClaim::TwentyFiveMoves);
    assert!(!c.valid);
    assert_eq!(c.quiet_plies, 49);
    // 51 half-moves: plies 2..51 = 50 quiet half-moves = 25 each; Black claims
    let d = req(S, &man_move_then_kings(51), DraughtsClaim::TwentyFiveMoves);
    assert!(d.valid);
    assert_eq!(d.claimant, Colour::Black);
    assert_eq!(d.quiet_plies, 50);
    assert_eq!(
        d.verdict,
        Some(DraughtsVerdict::Plusremise {
            side: Colour::White
        })
    );
}

#[test]
fn sixteen_move_endgame_counter() {
    // S is 1 king against 3 pieces incl. kings from the start: after 31 half-moves White has
    // made 16 moves and Black 15 -> not yet; after 32 both made 16 -> plusremise for White.
    let text = |n: usize| {
        cycles(8)
            .split_whitespace()
            .take(n)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let c = req(S, &text(31), DraughtsClaim::ThirdTime);
    let e = c.endgame.unwrap_or_else(|| panic!("no endgame"));
    assert_eq!(e.kind, EndgameKind::SixteenMoves);
    assert_eq!((e.moves_other, e.moves_lone_king, e.since), (16, 15, None));
    assert!(!e.limit_reached);
    let d = req(S, &text(32), DraughtsClaim::ThirdTime);
    let e = d.endgame.unwrap_or_else(|| panic!("no endgame"));
    assert!(e.limit_reached);
    assert_eq!(
        e.verdict_at_limit,
        DraughtsVerdict::Plusremise {
            side: Colour::White
        }
    );
    // two of the three still men: the arbiter judges whether promotion can be prevented
    let m = req("W:WK47,45,44:BK4", &text(32), DraughtsClaim::ThirdTime);
    let e = m.endgame.unwrap_or_else(|| panic!("no endgame"));
    assert_eq!(e.men_of_other, 2);
    assert_eq!(
        e.verdict_at_limit,
        DraughtsVerdict::ArbiterToJudgePromotion {
            side: Colour::White
        }
    );
}

#[test]
fn five_move_endgame_and_an_endgame_started_by_a_capture() {
    // two kings against one: after 9 half-moves Black has made 4 -> not yet; after 10 -> draw
    let c = req(
        "W:WK47,K50:BK4",
        &cycles(3)[..]
            .split_whitespace()
            .take(9)
            .collect::<Vec<_>>()
            .join(" "),
        DraughtsClaim::ThirdTime,
    );
    let e = c.endgame.unwrap_or_else(|| panic!("no endgame"));
    assert_eq!(e.kind, EndgameKind::FiveMoves);
    assert!(!e.limit_reached);
    let d = req(
        "W:WK47,K50:BK4",
        &cycles(3)[..]
            .split_whitespace()
            .take(10)
            .collect::<Vec<_>>()
            .join(" "),
        DraughtsClaim::ThirdTime,
    );
    let e = d.endgame.unwrap_or_else(|| panic!("no endgame"));
    assert!(e.limit_reached);
    assert_eq!(e.verdict_at_limit, DraughtsVerdict::Draw);
    // Black man on 38 as well: no counted endgame until 1.47x33 takes it; then it counts from
    // move 1 (White) and after 1...4-10 Black has made 1 move in it, White none.
    let f = req(
        "W:WK47,K50,45:BK4,38",
        "47x33 4-10",
        DraughtsClaim::ThirdTime,
    );
    let e = f.endgame.unwrap_or_else(|| panic!("no endgame"));
    assert_eq!(e.kind, EndgameKind::SixteenMoves);
    let since = e.since.unwrap_or_else(|| panic!("since"));
    assert_eq!(
        (since.move_number, since.side, since.notation.as_str()),
        (1, Colour::White, "47x33")
    );
    assert_eq!((e.plies, e.moves_lone_king, e.moves_other), (1, 1, 0));
    let g = req("W:WK47,K50,45:BK4,38", "", DraughtsClaim::ThirdTime);
    assert_eq!(g.endgame, None);
}

#[test]
fn an_unreadable_game_is_an_error_naming_the_move() {
    let e = check_draughts_claim(&DraughtsClaimRequest {
        start_fen: Some(S.into()),
        movetext: "47-42 4-10 42-46".into(),
        claim: DraughtsClaim::ThirdTime,
    })
    .unwrap_err();
    assert!(
        matches!(
            e,
            PdnError::Illegal {
                ply: 3,
                move_number: 2,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn a_promotion_inside_the_sixteen_move_endgame_does_not_restart_the_count() {
    // White kings 47, 50 and a man on 6 against the black king on 4: 1.6-1 promotes, the
    // class (1 king vs 3 pieces incl. a king) stays, so after 1...4-10 two half-moves count
    // from the start; all three white pieces are now kings.
    let c = req("W:WK47,K50,6:BK4", "6-1 4-10", DraughtsClaim::ThirdTime);
    let e = c.endgame.unwrap_or_else(|| panic!("no endgame"));
    assert_eq!((e.since, e.plies, e.men_of_other), (None, 2, 0));
    assert_eq!((e.moves_other, e.moves_lone_king), (1, 1));
}
