//! Accelerated rounds (`XXA`) and forbidden pairs (`XXP`) against bbpPairings, round by round
//! (the tournaments of `tests/data/accel`, see its README).

use super::tests::format_pairs;
use super::*;
use crate::swiss_impl::trf::{Line, parse_trf};
use std::path::PathBuf;

fn accel_rounds() -> Vec<(PathBuf, PathBuf)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/accel");
    assert!(
        dir.is_dir(),
        "reference tournaments not found at {}: the repository is incomplete",
        dir.display()
    );
    let mut out = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for d in dirs {
        let mut files: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "trf"))
            .collect();
        files.sort();
        out.extend(files.into_iter().map(|f| {
            let p = f.with_extension("pairs");
            (f, p)
        }));
    }
    out
}

/// Pairs every round file, optionally with its `XXA` and `XXP` lines dropped; returns the
/// number of rounds identical to bbpPairings, the number of rounds and the mismatches.
fn replay(drop_extensions: bool) -> (usize, usize, Vec<String>) {
    let (mut ok, mut total, mut bad) = (0, 0, Vec::new());
    for (trf, pairs) in accel_rounds() {
        let text = std::fs::read_to_string(&trf).unwrap();
        let mut t = parse_trf(&text).unwrap();
        assert_eq!(write_trf(&t), text, "{} is not written back unchanged", trf.display());
        if drop_extensions {
            t.layout.retain(|l| {
                !matches!(l, Line::Raw(s) if s.starts_with("XXA ") || s.starts_with("XXP "))
            });
        }
        total += 1;
        let expected = std::fs::read_to_string(&pairs).unwrap();
        match pair_round(&t, next_round(&t)).map(|b| format_pairs(&b)) {
            Ok(g) if g == expected => ok += 1,
            Ok(g) => bad.push(format!(
                "{}: got {} expected {}",
                trf.display(),
                g.replace('\n', " "),
                expected.replace('\n', " ")
            )),
            Err(e) => bad.push(format!("{}: error {e}", trf.display())),
        }
    }
    (ok, total, bad)
}

use crate::swiss_impl::trf::write_trf;

#[test]
fn accelerated_and_forbidden_pair_rounds_match_the_reference() {
    let (ok, total, bad) = replay(false);
    for b in &bad {
        eprintln!("MISMATCH {b}");
    }
    eprintln!("accelerated / forbidden-pair rounds: {ok}/{total} identical");
    assert_eq!(total, 120, "the reference set has 120 rounds");
    assert_eq!(ok, total, "only {ok}/{total} identical");
}

#[test]
fn the_reference_rounds_depend_on_the_new_lines() {
    // Without the XXA and XXP lines many rounds pair differently: the data exercises both.
    let (ok, total, _) = replay(true);
    eprintln!("with XXA and XXP ignored: {ok}/{total} identical");
    assert!(ok < total / 2, "{ok}/{total} rounds identical without the lines");
}
