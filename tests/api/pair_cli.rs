//! The endorsement kit on the command line: `clubcomp pair --dutch FILE -c` (the checker's
//! exit status and refusals) and `-g` (the generator), on the files of
//! `crates/engine/tests/data/kit`.

use std::path::PathBuf;
use std::process::{Command, Output};

fn kit(name: &str) -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("crates/engine/tests/data/kit")
        .join(name);
    assert!(p.is_file(), "{} is missing", p.display());
    p
}

fn pair(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clubcomp"))
        .arg("pair")
        .args(args)
        .output()
        .unwrap()
}

fn check(path: &std::path::Path) -> Output {
    pair(&["--dutch".as_ref(), path.as_os_str(), "-c".as_ref()])
}

fn temp(name: &str, text: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("{}-{name}", uuid::Uuid::new_v4()));
    std::fs::write(&p, text).unwrap();
    p
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

#[test]
fn the_checker_accepts_a_tournament_paired_by_the_rules_with_status_0() {
    let out = check(&kit("bbp-9201-n24-r7.trf"));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "all 7 rounds are paired as the rules give them\n"
    );
}

#[test]
fn the_checker_reports_the_swapped_round_and_its_boards_with_status_1() {
    // Round 4 of the file was 2–4 and 5–3; the variant has 2–3 and 5–4, and 2 and 3 had met.
    let out = check(&kit("bbp-9201-n24-r7.swap-r4.trf"));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("round 4: the played pairing differs"),
        "{text}"
    );
    assert!(text.contains("only played:        2-3, 5-4\n"), "{text}");
    assert!(text.contains("only by the rules:  2-4, 5-3\n"), "{text}");
    assert!(
        text.contains("breaks C.1: 2 and 3 had met before"),
        "{text}"
    );
}

#[test]
fn the_checker_refuses_a_tournament_that_is_not_complete_with_status_2_and_the_line() {
    let text = std::fs::read_to_string(kit("bbp-9202-n17-r9.trf")).unwrap();
    // an XXR line announcing a tenth round: every player line lacks a round
    let more = temp("ten.trf", &text.replacen('\r', "\rXXR 10\r", 1));
    let out = check(&more);
    std::fs::remove_file(&more).ok();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not a complete tournament: line 3: player 1 has 9 of the 10 rounds"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_checker_refuses_an_xxa_line_for_an_unknown_player_and_an_xxp_line_naming_one_twice() {
    let text = std::fs::read_to_string(kit("bbp-9202-n17-r9.trf")).unwrap();
    let lines = text.split('\r').count();
    let xxa = temp("xxa.trf", &format!("{text}XXA   18  1.0\r"));
    let out = check(&xxa);
    std::fs::remove_file(&xxa).ok();
    assert_eq!(out.status.code(), Some(2));
    let want = format!("line {lines}: field XXA pairing number: no player has pairing number 18");
    assert!(stderr(&out).contains(&want), "{}", stderr(&out));
    let xxp = temp("xxp.trf", &format!("{text}XXP 3 5 3\r"));
    let out = check(&xxp);
    std::fs::remove_file(&xxp).ok();
    assert_eq!(out.status.code(), Some(2));
    let want = format!("line {lines}: field XXP pairing number: 3 is named twice");
    assert!(stderr(&out).contains(&want), "{}", stderr(&out));
}

#[test]
fn a_generated_tournament_is_written_from_the_seed_and_passes_the_checker() {
    let config = temp(
        "gen.cfg",
        "# 3-1-0\nPlayersNumber=13\nRoundsNumber=5\nPointsForWin=3\nPointsForDraw=1\n",
    );
    let (a, b) = (temp("a.trf", ""), temp("b.trf", ""));
    for file in [&a, &b] {
        let out = pair(&[
            "--dutch".as_ref(),
            "-g".as_ref(),
            config.as_os_str(),
            "-o".as_ref(),
            file.as_os_str(),
            "-s".as_ref(),
            "7".as_ref(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
    let text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(text, std::fs::read_to_string(&b).unwrap());
    assert!(text.contains("\nBBW  3.0\n"), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("001")).count(), 13);
    let out = check(&a);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let bad = temp("bad.cfg", "PlayersNumber=13\nColours=3\n");
    let out = pair(&[
        "--dutch".as_ref(),
        "-g".as_ref(),
        bad.as_os_str(),
        "-o".as_ref(),
        b.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(3));
    assert!(stderr(&out).contains("line 2: Colours"), "{}", stderr(&out));
    for f in [config, a, b, bad] {
        std::fs::remove_file(f).ok();
    }
}

fn burstein_round(dir: &str, round: u32) -> (PathBuf, String) {
    let base = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("crates/engine/tests/data/burstein")
        .join(dir);
    let trf = base.join(format!("round-{round:02}.trf"));
    let pairs = base.join(format!("round-{round:02}.pairs"));
    assert!(trf.is_file(), "{} is missing", trf.display());
    (trf, std::fs::read_to_string(pairs).unwrap())
}

#[test]
fn pair_burstein_writes_the_reference_pairing_of_a_round() {
    for (dir, round) in [
        ("t-9501-n19-r9", 5),
        ("p310-9543-n16-r8", 4),
        ("x0-9527-n22-r7", 2),
    ] {
        let (trf, want) = burstein_round(dir, round);
        let out = pair(&["--burstein".as_ref(), trf.as_os_str(), "-p".as_ref()]);
        assert_eq!(out.status.code(), Some(0), "{dir}: {}", stderr(&out));
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            want,
            "{dir} round {round}"
        );
    }
}

#[test]
fn pair_refuses_both_dutch_and_burstein() {
    let (trf, _) = burstein_round("t-9501-n19-r9", 5);
    let out = pair(&[
        "--dutch".as_ref(),
        trf.as_os_str(),
        "--burstein".as_ref(),
        trf.as_os_str(),
        "-p".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cannot be used with"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_burstein_checker_accepts_a_tournament_generated_by_the_burstein_generator() {
    let out_file = std::env::temp_dir().join(format!("{}-burstein.trf", uuid::Uuid::new_v4()));
    let config = temp(
        "burstein.cfg",
        "PlayersNumber=15\nRoundsNumber=6\nDrawPercentage=30\n",
    );
    let generated = pair(&[
        "--burstein".as_ref(),
        "-g".as_ref(),
        config.as_os_str(),
        "-o".as_ref(),
        out_file.as_os_str(),
        "-s".as_ref(),
        "41".as_ref(),
    ]);
    assert_eq!(generated.status.code(), Some(0), "{}", stderr(&generated));
    let checked = pair(&["--burstein".as_ref(), out_file.as_os_str(), "-c".as_ref()]);
    let dutch = pair(&["--dutch".as_ref(), out_file.as_os_str(), "-c".as_ref()]);
    std::fs::remove_file(&out_file).ok();
    std::fs::remove_file(&config).ok();
    assert_eq!(
        checked.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&checked.stdout)
    );
    assert_eq!(
        String::from_utf8_lossy(&checked.stdout),
        "all 6 rounds are paired as the rules give them\n"
    );
    // the Dutch rules pair the first rounds of the same file differently
    assert_eq!(
        dutch.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&dutch.stdout)
    );
}

#[test]
fn the_burstein_checker_names_the_criterion_of_the_burstein_system() {
    // Round 4 of the file was 1–3 and 4–2; the variant plays 2–1 and 4–3, and 3 and 4 met in
    // round 1: C.04.4.2 art. 2.1.1 [C1], not the Dutch C.1.
    let path = kit("clubcomp-9401-n12-r5-burstein.swap-r4.trf");
    let out = pair(&["--burstein".as_ref(), path.as_os_str(), "-c".as_ref()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("round 4: the played pairing differs"),
        "{text}"
    );
    assert!(text.contains("only played:        2-1, 4-3\n"), "{text}");
    assert!(text.contains("only by the rules:  2-4, 1-3\n"), "{text}");
    assert!(
        text.contains("breaks C.04.4.2 2.1.1 [C1]: 3 and 4 had met before\n"),
        "{text}"
    );
    assert!(!text.contains("C.1:"), "{text}");
    let plain = kit("clubcomp-9401-n12-r5-burstein.trf");
    let out = pair(&["--burstein".as_ref(), plain.as_os_str(), "-c".as_ref()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}
