//! Accelerated rounds (`XXA`) and forbidden pairs (`XXP`) against bbpPairings, round by round
//! (the tournaments of `tests/data/accel`, see its README).

use super::tests::format_pairs;
use super::*;
use crate::swiss::trf::{Line, parse_trf};
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
        assert_eq!(
            write_trf(&t),
            text,
            "{} is not written back unchanged",
            trf.display()
        );
        if drop_extensions {
            t.layout.retain(
                |l| !matches!(l, Line::Raw(s) if s.starts_with("XXA ") || s.starts_with("XXP ")),
            );
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

use crate::swiss::trf::write_trf;

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
    assert!(
        ok < total / 2,
        "{ok}/{total} rounds identical without the lines"
    );
}

/// Four players, no rounds played, with `extra` lines.
fn four(extra: &str) -> Tournament {
    let mut s = String::from("012 T\nXXR 3\nXXC white1\n");
    for id in 1..=4 {
        s.push_str(&format!("001 {id:>4}      P{id}\n"));
    }
    s.push_str(extra);
    parse_trf(&s).unwrap()
}

#[test]
fn a_forbidden_pair_is_not_paired() {
    // Round 1 of four: 1–3, 4–2 (top half against bottom half, E.5 colours); with 1 and 3
    // forbidden the next best pairing by C.04.3 keeps the halves: 1–4 and 2–3, 2 (an even
    // number) with the other colour than 1 (E.5). bbpPairings pairs both files the same.
    let plain = pair_round(&four(""), 1).unwrap();
    assert_eq!(format_pairs(&plain), "2\n1 3\n4 2\n");
    let boards = pair_round(&four("XXP 1 3\n"), 1).unwrap();
    assert_eq!(format_pairs(&boards), "2\n1 4\n3 2\n");
}

#[test]
fn a_round_blocked_by_forbidden_pairs_names_them() {
    // Player 1 may meet nobody: no pairing exists (bbpPairings says so too), and the refusal
    // names the XXP pairs.
    let t = four("XXP 1 2 3 4\n");
    match pair_round(&t, 1) {
        Err(PairError::NoValidPairing { round: 1, blocked }) => {
            let text = blocked.to_string();
            assert!(text.contains("forbidden pair (XXP)"), "{text}");
            let p1 = blocked.players.iter().find(|b| b.player == 1).unwrap();
            assert_eq!(p1.forbidden, vec![2, 3, 4]);
        }
        other => panic!("paired: {other:?}"),
    }
}

#[test]
fn acceleration_groups_by_pairing_score_but_orders_boards_by_real_score() {
    // Virtual points for 3 and 4 in round 1: scoregroups {3, 4} and {1, 2}, so 3–4 and 1–2.
    // All real scores are 0, so the boards follow the higher player's number: 1–2 first,
    // although 3–4 is the higher scoregroup (bbpPairings pairs this file the same).
    let boards = pair_round(&four("XXA    3  1.0\nXXA    4  1.0\n"), 1).unwrap();
    assert_eq!(format_pairs(&boards), "2\n1 2\n3 4\n");
}

#[test]
fn lines_250_pair_as_the_same_xxa_lines() {
    // The Baku tournaments with each XXA line rewritten as 250 lines pair identically.
    let mut checked = 0;
    for (trf, pairs) in accel_rounds() {
        let text = std::fs::read_to_string(&trf).unwrap();
        if !text.contains("XXA ") {
            continue;
        }
        let t = parse_trf(&text).unwrap();
        let acc = crate::swiss::trf::accelerations(&t).unwrap();
        let mut s: Vec<String> = text
            .split('\r')
            .filter(|l| !l.starts_with("XXA "))
            .map(str::to_string)
            .collect();
        s.pop();
        for (id, v) in &acc {
            for (r, p) in v.iter().enumerate() {
                let pts = if p.0 == 10_000 { " 1.0" } else { " 0.5" };
                s.push(format!(
                    "250      {pts} {:>3} {:>3} {id:>4} {id:>4}",
                    r + 1,
                    r + 1
                ));
            }
        }
        let t = parse_trf(&(s.join("\r") + "\r")).unwrap();
        assert_eq!(crate::swiss::trf::accelerations(&t).unwrap(), acc);
        let expected = std::fs::read_to_string(&pairs).unwrap();
        assert_eq!(
            format_pairs(&pair_round(&t, next_round(&t)).unwrap()),
            expected
        );
        checked += 1;
    }
    assert!(checked >= 60, "{checked} rounds");
}

mod props {
    use super::*;
    use crate::swiss::generate::random_tournament;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]
        /// No board pairs two players an `XXP` line keeps apart; without a pairing the
        /// refusal names a forbidden pair or another absolute criterion.
        #[test]
        fn forbidden_pairs_never_meet(
            n in 6usize..20,
            played in 0usize..4,
            seed in 0u64..1000,
            picks in proptest::collection::vec((1u32..20, 1u32..20), 1..5),
        ) {
            let mut t = random_tournament(n, played, 6, seed);
            let mut pairs = Vec::new();
            for (a, b) in picks {
                let (a, b) = (1 + (a - 1) % n as u32, 1 + (b - 1) % n as u32);
                if a != b {
                    t.layout.push(Line::Raw(format!("XXP {a} {b}")));
                    pairs.push((a.min(b), a.max(b)));
                }
            }
            match pair_round(&t, played as u32 + 1) {
                Ok(boards) => {
                    for bd in boards {
                        if let Some(bl) = bd.black {
                            let key = (bd.white.min(bl), bd.white.max(bl));
                            prop_assert!(!pairs.contains(&key), "{key:?} paired");
                        }
                    }
                }
                Err(PairError::NoValidPairing { .. }) => {}
                Err(e) => prop_assert!(false, "{e}"),
            }
        }

        /// Zero virtual points for everyone pair exactly as no acceleration lines at all.
        #[test]
        fn zero_virtual_points_change_nothing(n in 6usize..20, played in 0usize..4, seed in 0u64..1000) {
            let plain = random_tournament(n, played, 6, seed);
            let mut zero = plain.clone();
            for p in &plain.players {
                zero.layout.push(Line::Raw(format!("XXA {:>4}  0.0  0.0  0.0  0.0  0.0", p.id)));
            }
            let r = played as u32 + 1;
            prop_assert_eq!(pair_round(&plain, r), pair_round(&zero, r));
        }

        /// The same virtual points for every player shift every scoregroup alike: the
        /// pairing, boards included, is the one without them.
        #[test]
        fn equal_virtual_points_for_all_change_nothing(n in 6usize..20, played in 0usize..4, seed in 0u64..1000) {
            let plain = random_tournament(n, played, 6, seed);
            let mut shifted = plain.clone();
            for p in &plain.players {
                shifted.layout.push(Line::Raw(format!("XXA {:>4}  1.0  1.0  1.0  1.0  1.0", p.id)));
            }
            let r = played as u32 + 1;
            prop_assert_eq!(pair_round(&plain, r), pair_round(&shifted, r));
        }
    }
}
