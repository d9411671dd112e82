use super::super::{parse_trf, write_trf};
use super::*;

/// Four players, no rounds yet, with `extra` lines after the player lines (LF line ends).
fn file(extra: &[&str]) -> String {
    let mut s = String::from("012 T\nXXR 5\nXXC white1\n");
    for id in 1..=4 {
        // name from column 15, points in columns 81–84, as the writer lays them out
        s.push_str(&format!("{:<80} 0.0\n", format!("001 {id:>4}      P{id}")));
    }
    for l in extra {
        s.push_str(l);
        s.push('\n');
    }
    s
}

fn refusal(extra: &[&str]) -> (usize, &'static str, String) {
    match parse_trf(&file(extra)) {
        Err(TrfError::Field {
            line,
            field,
            message,
        }) => (line, field, message),
        other => panic!("not refused: {other:?}"),
    }
}

const HALF: Fixed = Fixed(5_000);

#[test]
fn xxa_lines_give_virtual_points_per_round() {
    // Columns 5–8 the player, then four columns per round from column 10; blank is none.
    let text = file(&["XXA    1  1.0  1.0  0.5", "XXA    3       0.5"]);
    let t = parse_trf(&text).unwrap();
    assert_eq!(write_trf(&t), text, "written back unchanged");
    let acc = accelerations(&t).unwrap();
    assert_eq!(acc[&1], vec![Fixed::ONE, Fixed::ONE, HALF]);
    assert_eq!(acc[&3], vec![Fixed::ZERO, HALF]);
    assert_eq!(virtual_points(&acc, 1, 3), HALF);
    assert_eq!(virtual_points(&acc, 1, 4), Fixed::ZERO);
    assert_eq!(virtual_points(&acc, 2, 1), Fixed::ZERO);
    assert_eq!(virtual_points(&acc, 1, 0), Fixed::ZERO);
}

#[test]
fn a_250_line_covers_a_range_of_rounds_and_players() {
    // TRF-2026: match points 5–8 (blank), game points 10–13, rounds 15–17 and 19–21,
    // players 23–26 and 28–31: players 2 and 3 get 1.0 in rounds 1–2, then ½ in round 3.
    let text = file(&[
        "250       1.0   1   2    2    3",
        "250       0.5   3   3    2    3",
    ]);
    let t = parse_trf(&text).unwrap();
    assert_eq!(write_trf(&t), text);
    let acc = accelerations(&t).unwrap();
    assert_eq!(acc[&2], vec![Fixed::ONE, Fixed::ONE, HALF]);
    assert_eq!(acc[&3], vec![Fixed::ONE, Fixed::ONE, HALF]);
    assert!(!acc.contains_key(&1) && !acc.contains_key(&4));
}

#[test]
fn acceleration_lines_for_unknown_players_or_malformed_are_refused_with_their_line() {
    // The four player lines are lines 4–7; the first extra line is line 8.
    let (line, field, msg) = refusal(&["XXA    9  1.0"]);
    assert_eq!((line, field), (8, "XXA pairing number"));
    assert!(msg.contains("no player has pairing number 9"), "{msg}");
    let (line, field, _) = refusal(&["XXA    1  1.0", "XXA    2  x.0"]);
    assert_eq!((line, field), (9, "XXA points"));
    let (line, field, _) = refusal(&["XXA    1  -1.0"]);
    assert_eq!((line, field), (8, "XXA points"));
    let (line, field, _) = refusal(&["XXA    1  0.3"]);
    assert_eq!((line, field), (8, "XXA points"));
    let (line, field, _) = refusal(&["250       1.0   1   2    3    5"]);
    assert_eq!((line, field), (8, "250 player"));
    let (line, field, _) = refusal(&["250       1.0   3   2    1    2"]);
    assert_eq!((line, field), (8, "250 last round"));
    let (line, field, _) = refusal(&["250       1.0   1   2    1"]);
    assert_eq!((line, field), (8, "250"));
    let (line, field, _) = refusal(&["250   1.0 1.0   1   2    1    2"]);
    assert_eq!((line, field), (8, "250 match points"));
}

#[test]
fn xxp_lines_forbid_every_pair_of_the_players_named() {
    let text = file(&["XXP 1 3 4", "XXP 2  1"]);
    let t = parse_trf(&text).unwrap();
    assert_eq!(write_trf(&t), text);
    let pairs: Vec<(u32, u32)> = forbidden_pairs(&t).unwrap().into_iter().collect();
    assert_eq!(pairs, vec![(1, 2), (1, 3), (1, 4), (3, 4)]);
}

#[test]
fn xxp_naming_a_player_twice_or_an_unknown_player_is_refused_with_its_line() {
    let (line, field, msg) = refusal(&["XXP 1 2", "XXP 3 4 3"]);
    assert_eq!((line, field), (9, "XXP pairing number"));
    assert!(msg.contains("3 is named twice"), "{msg}");
    let (line, _, msg) = refusal(&["XXP 1 7"]);
    assert_eq!(line, 8);
    assert!(msg.contains("no player has pairing number 7"), "{msg}");
    let (line, field, _) = refusal(&["XXP 2"]);
    assert_eq!((line, field), (8, "XXP"));
    let (line, _, _) = refusal(&["XXP 1 b"]);
    assert_eq!(line, 8);
}

#[test]
fn files_without_the_lines_read_as_before() {
    let text = file(&["XXS something else"]);
    let t = parse_trf(&text).unwrap();
    assert!(accelerations(&t).unwrap().is_empty());
    assert!(forbidden_pairs(&t).unwrap().is_empty());
    assert_eq!(write_trf(&t), text);
}
