use super::*;
use crate::swiss::dutch::{Verdict, check_tournament, pair_round};
use crate::swiss::trf::{parse_trf, point_system, write_trf};

#[test]
fn an_unknown_key_or_a_value_out_of_range_is_refused_with_its_line() {
    let e = parse_config("# comment\nPlayersNumber=20\nColours=2\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 3: Colours: is not a key of the generator"
    );
    let e = parse_config("RetiredRate=1\n").unwrap_err();
    assert!(e.to_string().starts_with("line 1: RetiredRate:"), "{e}");
    let e = parse_config("\n\nPlayersNumber=1001\n").unwrap_err();
    assert!(e.to_string().starts_with("line 3: PlayersNumber:"), "{e}");
    let e = parse_config("PointsForWin=2.55\n").unwrap_err();
    assert!(e.to_string().starts_with("line 1: PointsForWin:"), "{e}");
}

#[test]
fn the_bye_is_worth_a_win_unless_the_configuration_says_otherwise() {
    let c = parse_config("PointsForWin=3\nPointsForDraw=1\n").unwrap();
    assert_eq!(
        (c.points.win, c.points.draw, c.points.pab),
        (Fixed(30_000), Fixed::ONE, Fixed(30_000))
    );
    let c = parse_config("PointsForPAB=1\nPointsForWin=3\n").unwrap();
    assert_eq!(c.points.pab, Fixed::ONE);
    let c = parse_config("PointsForForfeitLoss=0.5\n").unwrap();
    assert_eq!(
        (c.points.forfeit_loss, c.points.zero_bye),
        (Fixed(5_000), Fixed(5_000))
    );
}

#[test]
fn a_generated_tournament_is_complete_replayable_and_passes_the_checker() {
    let c = parse_config(
        "PlayersNumber=19\nRoundsNumber=7\nDrawPercentage=30\nForfeitRate=10\nRetiredRate=8\n\
         HalfPointByeRate=6\nPointsForWin=3\nPointsForDraw=1\n",
    )
    .unwrap();
    let t = generate_tournament(&c, 11, &pair_round).unwrap();
    assert_eq!(t, generate_tournament(&c, 11, &pair_round).unwrap());
    assert_ne!(t, generate_tournament(&c, 12, &pair_round).unwrap());
    let text = write_trf(&t);
    let back = parse_trf(&text).unwrap();
    assert_eq!(point_system(&back).unwrap(), c.points);
    assert_eq!(back.players.len(), 19);
    for p in &back.players {
        assert_eq!(p.rounds.len(), 7, "player {}", p.id);
        // the points column is the score under 3-1-0
        assert_eq!(p.points, c.points.score(&p.rounds));
    }
    // 19 players: one pairing-allocated bye in every round
    let byes = back
        .players
        .iter()
        .flat_map(|p| &p.rounds)
        .filter(|e| e.result == ResultCode::PairingBye)
        .count();
    assert!((1..=7).contains(&byes), "{byes} byes");
    assert_eq!(
        check_tournament(&back, &pair_round).unwrap(),
        Verdict::Agrees { rounds: 7 }
    );
}
