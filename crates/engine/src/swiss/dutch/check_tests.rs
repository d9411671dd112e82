use super::*;
use crate::swiss::dutch::pair_round;
use crate::swiss::trf::parse_trf;

/// Four players, two rounds, paired by hand: round 1 is 1–3 and 4–2 (S1 = 1 2, S2 = 3 4; 1 has
/// white by XXC, so 2 has black, E.5); 1 and 2 win. Round 2: {1, 2} and {3, 4}; 1 had white and
/// 2 black, so 2–1; 3 had black and 4 white, so 3–4.
const FOUR: &str = "012 Four\nXXR 2\nXXC white1\n\
001    1      A                                                                  1.5          3 w 1     2 b =\n\
001    2      B                                                                  1.5          4 b 1     1 w =\n\
001    3      C                                                                  0.5          1 b 0     4 w =\n\
001    4      D                                                                  0.5          2 w 0     3 b =\n";

#[test]
fn a_file_without_every_round_is_not_complete_and_names_the_line() {
    let t = parse_trf(&FOUR.replace("XXR 2", "XXR 3")).unwrap();
    assert_eq!(
        complete_rounds(&t).unwrap_err().to_string(),
        "line 4: player 1 has 2 of the 3 rounds"
    );
    let pending = FOUR.replace("    3 b =\n", "    3 b  \n");
    let t = parse_trf(&pending).unwrap();
    assert_eq!(
        complete_rounds(&t).unwrap_err().to_string(),
        "line 7: player 4, round 2: the game has no result"
    );
}

#[test]
fn round_one_as_the_rules_give_it_passes_and_a_swapped_round_is_reported() {
    let t = parse_trf(FOUR).unwrap();
    assert_eq!(
        check_tournament(&t, &pair_round).unwrap(),
        Verdict::Agrees { rounds: 2 }
    );
    let cut = before_round(&t, 1);
    assert_eq!(
        pair_round(&cut, 1).unwrap(),
        vec![
            SwissBoard {
                white: 1,
                black: Some(3)
            },
            SwissBoard {
                white: 4,
                black: Some(2)
            }
        ]
    );
    // Swapping the opponents of round 1 (1–2 and 3–4) is a difference in round 1.
    let swapped = "012 Four\nXXR 2\nXXC white1\n\
001    1      A                                                                  1.5          2 w 1     3 b =\n\
001    2      B                                                                  0.5          1 b 0     4 w =\n\
001    3      C                                                                  1.5          4 w 1     1 w =\n\
001    4      D                                                                  0.5          3 b 0     2 b =\n";
    let t = parse_trf(swapped).unwrap();
    let Verdict::Differs(d) = check_tournament(&t, &pair_round).unwrap() else {
        panic!("the swapped round passed");
    };
    assert_eq!(d.round, 1);
    assert_eq!(
        d.only_played,
        vec![
            SwissBoard {
                white: 1,
                black: Some(2)
            },
            SwissBoard {
                white: 3,
                black: Some(4)
            }
        ]
    );
    assert!(d.breaches.is_empty(), "{:?}", d.breaches);
}

#[test]
fn a_rematch_in_the_played_pairing_is_named_as_c1() {
    // Round 2 repeats round 1's games: C.1 broken twice.
    let rematch = "012 Four\nXXR 2\nXXC white1\n\
001    1      A                                                                  1.5          3 w 1     3 b =\n\
001    2      B                                                                  1.5          4 b 1     4 w =\n\
001    3      C                                                                  0.5          1 b 0     1 w =\n\
001    4      D                                                                  0.5          2 w 0     2 b =\n";
    let t = parse_trf(rematch).unwrap();
    let Verdict::Differs(d) = check_tournament(&t, &pair_round).unwrap() else {
        panic!("the rematch passed");
    };
    assert_eq!(d.round, 2);
    assert_eq!(
        d.breaches,
        vec![Breach::MetBefore(2, 4), Breach::MetBefore(1, 3)]
    );
}

/// The absolute criteria of C.04.4.2 art. 2.1 are \[C1\] (met before, 2.1.1), \[C2\] (the bye,
/// 2.1.2) and \[C3\] (same absolute colour preference, 2.1.3, without the Dutch topscorer
/// exception); the Dutch names of the same breaches are C.1 to C.3.
#[test]
fn burstein_breaches_are_named_by_its_own_criteria() {
    let s = |a: &Breach| a.describe(Criteria::Burstein);
    assert_eq!(
        s(&Breach::MetBefore(3, 4)),
        "C.04.4.2 2.1.1 [C1]: 3 and 4 had met before"
    );
    assert_eq!(
        s(&Breach::SameAbsoluteColour(1, 2, Colour::White)),
        "C.04.4.2 2.1.3 [C3]: 1 and 2 both must have white"
    );
    assert_eq!(
        s(&Breach::SecondBye(3)),
        "C.04.4.2 2.1.2 [C2]: 3 had a pairing-allocated bye or a forfeit win before and may \
         not have the bye"
    );
    assert_eq!(
        Breach::MetBefore(3, 4).to_string(),
        "C.1: 3 and 4 had met before"
    );
}

/// The tournaments of `tests/data/kit` (see its README): a generated tournament passes; its
/// variant `NAME.swap-rK.trf`, with two pairings of round K exchanged, differs in round K.
#[test]
fn the_kit_tournaments_pass_and_their_swapped_variants_fail_in_the_swapped_round() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/kit");
    assert!(
        dir.is_dir(),
        "{} is missing: the repository is incomplete",
        dir.display()
    );
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "trf"))
        .collect();
    files.sort();
    let (mut passed, mut swapped) = (0, 0);
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let t = parse_trf(&std::fs::read_to_string(f).unwrap()).unwrap();
        // a `-burstein` file is paired and judged by the Burstein system
        let verdict = if name.contains("-burstein") {
            let pair = &crate::swiss::burstein::pair_burstein_round;
            check_tournament_under(&t, pair, Criteria::Burstein).unwrap()
        } else {
            check_tournament(&t, &pair_round).unwrap()
        };
        match name.split(".swap-r").nth(1) {
            Some(rest) => {
                let round: u32 = rest.trim_end_matches(".trf").parse().unwrap();
                let Verdict::Differs(d) = verdict else {
                    panic!("{name}: {verdict:?}");
                };
                assert_eq!(d.round, round, "{name}");
                assert_eq!(d.only_played.len(), 2, "{name}: {d:?}");
                swapped += 1;
            }
            None => {
                let rounds = t.rounds_in_file() as u32;
                assert_eq!(verdict, Verdict::Agrees { rounds }, "{name}");
                passed += 1;
            }
        }
    }
    assert!(
        passed >= 4 && swapped >= 4,
        "{passed} tournaments, {swapped} swapped"
    );
}
