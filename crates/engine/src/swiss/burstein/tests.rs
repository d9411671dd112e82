//! The Burstein pairing against the reference pairings of `tests/data/burstein` (see its
//! README) and against hand-checked rounds.

use super::pair_burstein_round;
use crate::swiss::{SwissBoard, parse_trf};
use std::path::PathBuf;

/// Every `(trf, pairs)` file of `tests/data/burstein`, sorted; panics when the folder is
/// missing.
fn vector_rounds() -> Vec<(PathBuf, PathBuf)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/burstein");
    assert!(
        dir.is_dir(),
        "reference vectors not found at {}",
        dir.display()
    );
    let mut out = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("read vectors dir")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for d in dirs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&d)
            .expect("read tournament dir")
            .map(|e| e.expect("dir entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "trf"))
            .collect();
        files.sort();
        out.extend(files.into_iter().map(|f| {
            let pairs = f.with_extension("pairs");
            (f, pairs)
        }));
    }
    out
}

/// A `.pairs` file: the count, then `white black` per board (`black` 0 for the bye).
fn read_pairs(text: &str) -> Vec<SwissBoard> {
    let mut lines = text.lines();
    let count: usize = lines
        .next()
        .and_then(|l| l.trim().parse().ok())
        .expect("count line");
    let boards: Vec<SwissBoard> = lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Vec<u32> = l
                .split_whitespace()
                .map(|x| x.parse().expect("pairing number"))
                .collect();
            SwissBoard {
                white: v[0],
                black: (v[1] != 0).then_some(v[1]),
            }
        })
        .collect();
    assert_eq!(boards.len(), count, "board count");
    boards
}

/// The round a file pairs: the number in its name (`round-KK.trf`).
fn round_of(path: &std::path::Path) -> u32 {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    stem.trim_start_matches("round-")
        .parse()
        .expect("round number in the file name")
}

#[test]
fn every_reference_round_is_paired_as_the_reference_pairs_it() {
    let rounds = vector_rounds();
    assert!(
        rounds.len() >= 300,
        "only {} reference rounds",
        rounds.len()
    );
    let mut differ = Vec::new();
    for (trf, pairs) in &rounds {
        let text = std::fs::read_to_string(trf).expect("read trf");
        let t = parse_trf(&text).expect("parse trf");
        let want = read_pairs(&std::fs::read_to_string(pairs).expect("read pairs"));
        match pair_burstein_round(&t, round_of(trf)) {
            Ok(got) if got == want => {}
            Ok(got) => differ.push(format!("{}: got {got:?}, want {want:?}", trf.display())),
            Err(e) => differ.push(format!("{}: {e}", trf.display())),
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} rounds differ:\n{}",
        differ.len(),
        rounds.len(),
        differ.join("\n")
    );
}

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
