//! Rounds under other point systems (`BBW` … `BBU` lines) against bbpPairings, round by round
//! (the tournaments of `tests/data/points`, see its README).

use super::tests::format_pairs;
use super::*;
use crate::swiss::trf::{Line, parse_trf, write_trf};
use std::path::{Path, PathBuf};

/// Every `(trf, pairs)` file pair of the folders of `tests/data/<name>`, sorted.
pub(crate) fn reference_rounds(name: &str) -> Vec<(PathBuf, PathBuf)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    assert!(
        dir.is_dir(),
        "reference tournaments not found at {}: the repository is incomplete",
        dir.display()
    );
    let mut dirs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let mut out = Vec::new();
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
    assert!(!out.is_empty(), "no rounds under {}", dir.display());
    out
}

/// Pairs one round file (with `edit` applied first) and compares it with its `.pairs` file.
pub(crate) fn replay_round(
    trf: &Path,
    pairs: &Path,
    edit: impl Fn(&mut crate::swiss::trf::Tournament),
) -> Result<(), String> {
    let text = std::fs::read_to_string(trf).unwrap();
    let mut t = parse_trf(&text).map_err(|e| format!("{}: {e}", trf.display()))?;
    assert_eq!(
        write_trf(&t),
        text,
        "{} is not written back unchanged",
        trf.display()
    );
    edit(&mut t);
    let expected = std::fs::read_to_string(pairs).unwrap();
    match pair_round(&t, next_round(&t)).map(|b| format_pairs(&b)) {
        Ok(g) if g == expected => Ok(()),
        Ok(g) => Err(format!(
            "{}: got {} expected {}",
            trf.display(),
            g.replace('\n', " "),
            expected.replace('\n', " ")
        )),
        Err(e) => Err(format!("{}: error {e}", trf.display())),
    }
}

#[test]
fn rounds_under_other_point_systems_match_the_reference() {
    let rounds = reference_rounds("points");
    let bad: Vec<String> = rounds
        .iter()
        .filter_map(|(t, p)| replay_round(t, p, |_| ()).err())
        .collect();
    for b in &bad {
        eprintln!("MISMATCH {b}");
    }
    assert!(
        bad.is_empty(),
        "{} of {} rounds differ",
        bad.len(),
        rounds.len()
    );
}

#[test]
fn the_point_system_lines_change_most_of_those_pairings() {
    // Without the BB lines (scores counted 1 / ½ / 0), most rounds pair differently: the test
    // above would not hold by chance.
    let rounds = reference_rounds("points");
    let same = rounds
        .iter()
        .filter(|(t, p)| {
            replay_round(t, p, |t| {
                t.layout
                    .retain(|l| !matches!(l, Line::Raw(s) if s.starts_with("BB")));
            })
            .is_ok()
        })
        .count();
    assert!(
        same * 2 < rounds.len(),
        "{same} of {} rounds unchanged",
        rounds.len()
    );
}
