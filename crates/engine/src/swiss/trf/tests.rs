use super::*;
use crate::swiss::test_vectors;

const SAMPLE: &str = "012 Club Rapid\rXXR 5\rXXC white1\r\
001    1      Test0001 Player0001               2570                             2.0    1     6 w 1     4 b =  0000 - U\r\
001    2      Test0002 Player0002               2550                             1.5    2     7 b +  0000 - H     3 w -\r\
\r092 FIDE_DUTCH_2025\r";

#[test]
fn reads_the_header_and_player_fields() {
    let t = parse_trf(SAMPLE).unwrap();
    assert_eq!(t.name.as_deref(), Some("Club Rapid"));
    assert_eq!(t.total_rounds, Some(5));
    assert_eq!(t.initial_colour, Some(Colour::White));
    assert_eq!(t.line_ending, "\r");
    assert_eq!(t.players.len(), 2);
    let p = &t.players[0];
    assert_eq!(p.id, 1);
    assert_eq!(p.name, "Test0001 Player0001");
    assert_eq!(p.rating, 2570);
    assert_eq!(p.points, Fixed::from_int(2));
    assert_eq!(p.rank, 1);
    assert_eq!(
        p.rounds,
        vec![
            RoundEntry {
                opponent: Some(6),
                colour: Some(Colour::White),
                result: ResultCode::Win
            },
            RoundEntry {
                opponent: Some(4),
                colour: Some(Colour::Black),
                result: ResultCode::Draw
            },
            RoundEntry {
                opponent: None,
                colour: None,
                result: ResultCode::PairingBye
            },
        ]
    );
    // 1 (win) + ½ (draw) + 1 (pairing-allocated bye) = 2½ = 5 half-points
    assert_eq!(p.half_points_before(3), 5);
    let q = &t.players[1];
    assert_eq!(q.points, Fixed(15_000));
    // + (forfeit win, 1) + H (½) + - (forfeit loss, 0) = 3 half-points
    assert_eq!(q.half_points_before(3), 3);
    assert!(!q.rounds[0].played());
    assert_eq!(q.rounds[1].result, ResultCode::HalfBye);
}

#[test]
fn writes_back_the_sample_exactly() {
    assert_eq!(write_trf(&parse_trf(SAMPLE).unwrap()), SAMPLE);
}

#[test]
fn writes_a_built_tournament_in_standard_layout() {
    let t = Tournament {
        name: Some("X".into()),
        total_rounds: Some(3),
        initial_colour: Some(Colour::Black),
        initial_colour_text: None,
        players: vec![TrfPlayer {
            id: 12,
            sex: String::new(),
            title: String::new(),
            name: "A B".into(),
            rating: 1800,
            federation: "NED".into(),
            fide_id: String::new(),
            birth: String::new(),
            points: Fixed(5_000),
            rank: 0,
            rounds: vec![RoundEntry {
                opponent: Some(3),
                colour: Some(Colour::White),
                result: ResultCode::Draw,
            }],
        }],
        layout: vec![],
        line_ending: "\n".into(),
        final_line_ending: true,
    };
    let text = write_trf(&t);
    // columns: id right-aligned in 5–8, name from 15, rating 49–52, fed 54, points 81–84,
    // round 1 from 92.
    let expected_player = format!(
        "001   12      A B{}1800 NED{}0.5{}   3 w =",
        " ".repeat(48 - 17),
        " ".repeat(81 - 56),
        " ".repeat(91 - 84)
    );
    assert_eq!(
        text,
        format!("012 X\nXXR 3\nXXC black1\n{expected_player}\n")
    );
    let back = parse_trf(&text).unwrap();
    assert_eq!(back.players, t.players);
}

#[test]
fn rejects_bad_fields_naming_line_and_field() {
    // The sample's first player line with its round-1 colour (column 97) replaced by `x`.
    let good = SAMPLE.split('\r').nth(3).unwrap();
    let mut chars: Vec<char> = good.chars().collect();
    assert_eq!(chars[96], 'w');
    chars[96] = 'x';
    let bad: String = chars.into_iter().collect();
    let bad = format!("{bad}\n");
    match parse_trf(&bad) {
        Err(TrfError::Field {
            line: 1,
            field: "round colour",
            ..
        }) => {}
        other => panic!("unexpected {other:?}"),
    }
    let dup = "001    1      A\n001    1      B\n";
    assert_eq!(
        parse_trf(dup),
        Err(TrfError::DuplicateId { line: 2, id: 1 })
    );
}

#[test]
fn round_trips_every_vector_file_losslessly() {
    let rounds = test_vectors::all_rounds();
    assert!(
        rounds.len() >= 400,
        "expected the full vector set, found {}",
        rounds.len()
    );
    for (trf, _) in rounds {
        let text = std::fs::read_to_string(&trf).unwrap();
        let t = parse_trf(&text).unwrap_or_else(|e| panic!("{}: {e}", trf.display()));
        assert_eq!(
            write_trf(&t),
            text,
            "round trip differs for {}",
            trf.display()
        );
    }
}

#[test]
fn refuses_a_player_beyond_the_four_digit_numbers_naming_its_line() {
    // 9,999 players fit (pairing numbers 1–9999); the 10,000th player line, line 10,001 after
    // the name line, is refused before it is read.
    let mut text = String::from("012 Big open\n");
    for id in 1..=9_999u32 {
        text.push_str(&format!("001 {id:>4}      Player {id}\n"));
    }
    assert_eq!(parse_trf(&text).unwrap().players.len(), 9_999);
    text.push_str("001 9999      One too many\n");
    let err = parse_trf(&text).unwrap_err();
    assert_eq!(err, TrfError::TooManyPlayers { line: 10_001 });
    assert_eq!(
        err.to_string(),
        "line 10001: player 10000: a TRF file holds at most 9999 players"
    );
}

#[test]
fn refuses_more_rounds_than_xxr_naming_the_player_line() {
    // XXR 2, but player 2 has three rounds (the sample's second player line, line 5 here).
    let text = SAMPLE.replacen("XXR 5", "XXR 2", 1);
    let err = parse_trf(&text).unwrap_err();
    assert_eq!(
        err,
        TrfError::RoundsBeyondTotal {
            line: 4,
            id: 1,
            rounds: 3,
            total: 2
        }
    );
    assert_eq!(
        err.to_string(),
        "line 4: player 1 has 3 rounds, more than the 2 of XXR"
    );
    // As many rounds as announced is a complete file.
    assert!(parse_trf(&SAMPLE.replacen("XXR 5", "XXR 3", 1)).is_ok());
}

#[test]
fn point_system_lines_are_kept_verbatim_and_malformed_ones_refused() {
    let standard = "012 Points\nBBW  1.0\nBBD  0.5\nBBL  0.0\nBBZ  0.0\nBBF  0.0\nBBU  1.0\n";
    let t = parse_trf(standard).unwrap();
    assert_eq!(write_trf(&t), standard);
    // 3-1-0 scoring is read and written back unchanged.
    let three = "012 Points\nXXR 5\nBBW  3.0\nBBD  1.0\n";
    assert_eq!(write_trf(&parse_trf(three).unwrap()), three);
    assert!(matches!(
        parse_trf("BBU  0.55\n"),
        Err(TrfError::Field {
            line: 1,
            field: "BBU",
            ..
        })
    ));
    assert!(matches!(
        parse_trf("012 X\nBBZ  x\n"),
        Err(TrfError::Field {
            line: 2,
            field: "BBZ",
            ..
        })
    ));
}
