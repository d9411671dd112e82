//! The readers of outside input never panic: arbitrary text, arbitrary bytes read as text, and
//! valid files with a stretch overwritten by arbitrary characters all end in a value or an
//! error (TRF, PGN, PDN, the Keizer and round-robin scenario JSON, chess moves in SAN and
//! FEN, draughts moves and FEN, the tie-break lists, the result codes and the value lists).
//! The number of cases is bounded so that the whole file runs in seconds on a debug build.

use proptest::prelude::*;

const TRF: &str = "012 Club rapid\nXXR 9\nXXC white1\n\
001    1      Alpha                             2000          0000000000            1.0    1     2 w 1\n\
001    2      Beta                              1900          0000000000            0.0    2     1 b 0\n";

const PGN: &str = "[Event \"Club\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n\
1. e4 {best} e5 2. Nf3 (2. f4 exf4) Nc6 $1 3. Bb5 a6 ; a comment\n4. Ba4 Nf6 1/2-1/2\n";

const PDN: &str =
    "[Event \"Club\"]\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 {a comment} 10-14 2-0\n";

const KEIZER: &str = r#"{"players": [{"id": "a", "rating": 2000}, {"id": "b", "rating": 1900}],
 "evenings": [{"games": [{"white": "a", "black": "b", "result": "1-0"}]}]}"#;

const ROUND_ROBIN: &str = r#"{"discipline": "draughts", "players": [{"id": "a"}, {"id": "b"}],
 "games": [{"round": 1, "white": "a", "black": "b", "result": "2-0"}], "lots_seed": 7}"#;

/// Every reader of one short token (a move, a tie-break, a result code, a FEN), on one text;
/// a refusal is an error value.
fn read_token(text: &str) {
    use crate::arbiter::draughts::{board::Position, pdn::match_move};
    use crate::arbiter::{ChessMoves, repetition::record_moves};
    let _ = crate::tiebreaks::Tiebreak::parse(text);
    let _ = crate::tiebreaks::parse_tiebreaks(text);
    let _ = record_moves(&ChessMoves::San(vec![text.to_string()]), None);
    let _ = record_moves(&ChessMoves::San(vec!["e4".into()]), Some(text));
    let _ = match_move(&Position::initial(), text);
    let _ = Position::from_fen(text);
    let _ = crate::keizer::scenario::parse_result(text);
    for d in [crate::Discipline::Chess, crate::Discipline::Draughts] {
        let _ = crate::round_robin::RoundRobinResult::parse(d, text);
    }
    let _ = text.parse::<crate::Discipline>();
    let _ = text.parse::<crate::PairingSystem>();
    let _ = text.parse::<crate::CompetitionKind>();
}

/// Every reader, on one text.
fn read_all(text: &str) {
    read_token(text);
    let _ = crate::swiss::trf::parse_trf(text);
    let _ = crate::tiebreaks::trf::read_trf(text);
    let _ = crate::arbiter::pgn::read_pgn(text);
    let _ = crate::arbiter::draughts::pdn::read_game(None, text);
    let _ = crate::keizer::scenario::run_scenario_str(text);
    if let Ok(s) = serde_json::from_str::<crate::round_robin::Scenario>(text) {
        let _ = crate::round_robin::compute_round_robin(&s);
    }
}

/// `base` with the characters from `at` (a fraction of its length) replaced by `patch`.
fn overwrite(base: &str, at: f64, cut: usize, patch: &str) -> String {
    let chars: Vec<char> = base.chars().collect();
    let start = ((chars.len() as f64) * at) as usize;
    let end = (start + cut).min(chars.len());
    let mut s: String = chars[..start].iter().collect();
    s.push_str(patch);
    s.extend(&chars[end..]);
    s
}

#[test]
fn a_tiebreak_modifier_with_a_multibyte_letter_is_refused() {
    use crate::tiebreaks::{Tiebreak, TiebreakError, parse_tiebreaks};
    assert_eq!(Tiebreak::parse("BH-é1"), None);
    assert_eq!(Tiebreak::parse("SB-ñ2"), None);
    assert_eq!(Tiebreak::parse("BH-€"), None);
    assert_eq!(
        parse_tiebreaks("PTS,BH-é1"),
        Err(TiebreakError::UnknownTiebreak("BH-é1".into()))
    );
    // the ASCII forms still read
    assert_eq!(Tiebreak::parse("bh-m1"), Some(Tiebreak::BH_M1));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_tokens_never_panic(text in "\\PC{0,12}") {
        read_token(&text);
    }

    #[test]
    fn tiebreak_acronyms_with_any_modifier_never_panic(
        name in "(PTS|BH|SB|FB|ARO|PS|DE)",
        sep in "[-/]",
        modifier in "\\PC{0,4}",
    ) {
        let text = format!("{name}{sep}{modifier}");
        let one = crate::tiebreaks::Tiebreak::parse(&text);
        let list = crate::tiebreaks::parse_tiebreaks(&format!("PTS,{text}"));
        // a refusal is an error value, and the list refuses exactly what the parser refuses
        prop_assert_eq!(one.is_none(), list.is_err());
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC*") {
        read_all(&text);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        read_all(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn damaged_files_never_panic(
        which in 0usize..5,
        at in 0.0f64..1.0,
        cut in 0usize..12,
        patch in "[ -~\\n\\r\\t0-9wbWB=½\u{0}-]{0,12}",
    ) {
        let base = [TRF, PGN, PDN, KEIZER, ROUND_ROBIN][which];
        read_all(&overwrite(base, at, cut, &patch));
    }
}

/// A text written into a TRF line cannot end the line: a player name or tournament name with a
/// line break does not forge a second player line (docs/decisions/0255-csv-and-trf-output.md).
#[test]
fn a_line_break_in_a_name_cannot_forge_a_trf_line() {
    use crate::swiss::trf::{Tournament, parse_trf, write_trf};
    let forged = "001    9      Forged                            2700";
    let file = "012 Club\nXXR 1\n\
001    1      Alpha                             2000                             1.0    1     2 w 1\n\
001    2      Beta                              1900                             0.0    2     1 b 0\n";
    let mut t: Tournament = parse_trf(file).unwrap();
    t.layout.clear();
    t.name = Some(format!("Club\r\n{forged}"));
    t.players[0].name = format!("Alpha\n{forged}");
    t.players[1].name = format!("Beta\u{2028}{forged}");
    let text = write_trf(&t);
    let players: Vec<&str> = text.lines().filter(|l| l.starts_with("001")).collect();
    assert_eq!(players.len(), 2, "{text}");
    assert_eq!(text.lines().count(), 4, "{text}");
    let back = parse_trf(&text).unwrap();
    assert_eq!(back.players.len(), 2);
    // the name field is 32 characters wide: the break became a space, the rest was cut
    assert_eq!(back.players[0].name, "Alpha 001    9      Forged");
    assert_eq!(back.players[1].id, 2);
}
