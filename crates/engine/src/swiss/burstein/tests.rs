//! The Burstein pairing on hand-checked rounds.

use super::pair_burstein_round;
use crate::swiss::parse_trf;

/// A TRF file with players `1..=n` (ratings falling with the number) and the given round
/// entries (`"   2 w 1"` per round), `XXC white1`, and the extra lines.
fn trf(n: u32, entries: &[&[&str]], extra: &[&str]) -> String {
    let mut out = vec!["012 Hand".to_string(), "XXR 5".into(), "XXC white1".into()];
    for id in 1..=n {
        let head = format!(
            "001 {id:>4}      Player{id:04}                        {:>4}",
            2400 - 50 * id
        );
        let rounds = entries.get(id as usize - 1).copied().unwrap_or(&[]);
        let points: f64 = rounds
            .iter()
            .map(|e| match e.chars().last() {
                Some('1') | Some('+') | Some('U') => 1.0,
                Some('=') | Some('H') => 0.5,
                _ => 0.0,
            })
            .sum();
        let head = format!("{head:<80}{points:>4.1} {id:>4}");
        out.push(format!("{head:<91}{}", rounds.join("  ")));
    }
    out.extend(extra.iter().map(|s| s.to_string()));
    out.join("\n") + "\n"
}

fn boards(text: &str, round: u32) -> Vec<(u32, u32)> {
    let t = parse_trf(text).expect("parse");
    pair_burstein_round(&t, round)
        .expect("pairable")
        .iter()
        .map(|b| (b.white, b.black.unwrap_or(0)))
        .collect()
}

/// Round 1 of six players without acceleration lines: players 1–3 start a point ahead
/// (the default acceleration), so 1 meets 3, 2 floats down to meet 6, and 4 meets 5; without
/// colour preferences the higher number decides by its parity (1 and 5 odd: white).
#[test]
fn the_first_round_accelerates_the_upper_half_by_default() {
    assert_eq!(boards(&trf(6, &[], &[]), 1), [(1, 3), (6, 2), (5, 4)]);
}

/// The same field with one `XXA` line of 0 points: no acceleration, so the top player meets
/// the bottom one (1–6, 2–5, 3–4), colours by the parity of the higher number.
#[test]
fn an_acceleration_line_replaces_the_default_acceleration() {
    let text = trf(6, &[], &["XXA    1  0.0"]);
    assert_eq!(boards(&text, 1), [(1, 6), (5, 2), (3, 4)]);
}

/// Two players who have met cannot be paired again: the round is refused, naming them.
#[test]
fn a_round_without_a_valid_pairing_is_refused_naming_the_players() {
    let text = trf(2, &[&["   2 w 1"], &["   1 b 0"]], &[]);
    let t = parse_trf(&text).expect("parse");
    let err = pair_burstein_round(&t, 2).expect_err("unpairable");
    let message = err.to_string();
    assert!(message.contains("no pairing satisfies"), "{message}");
    assert!(message.contains('1') && message.contains('2'), "{message}");
}

/// A round number beyond the file is refused.
#[test]
fn a_round_beyond_the_file_is_refused() {
    let t = parse_trf(&trf(4, &[], &[])).expect("parse");
    assert!(matches!(
        pair_burstein_round(&t, 3),
        Err(crate::swiss::PairError::RoundOutOfRange { round: 3, .. })
    ));
}
