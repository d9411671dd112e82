use super::*;
use crate::domain::swiss::test_vectors;
use crate::domain::swiss::trf::parse_trf;

/// Formats boards like the `.pairs` files (CR line ends).
pub(crate) fn format_pairs(boards: &[Board]) -> String {
    let mut s = format!("{}\n", boards.len());
    for b in boards {
        s.push_str(&format!("{} {}\n", b.white, b.black.unwrap_or(0)));
    }
    s
}

fn run_vectors(max_players: usize) -> (usize, usize, Vec<String>) {
    let mut ok = 0;
    let mut total = 0;
    let mut bad = Vec::new();
    for (trf, pairs) in test_vectors::all_rounds() {
        let t = parse_trf(&std::fs::read_to_string(&trf).unwrap()).unwrap();
        if t.players.len() > max_players {
            continue;
        }
        total += 1;
        let expected = std::fs::read_to_string(&pairs).unwrap();
        let round = next_round(&t);
        let got = pair_round(&t, round).map(|b| format_pairs(&b));
        match got {
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

#[test]
fn vectors_small() {
    let (ok, total, bad) = run_vectors(40);
    for b in &bad {
        eprintln!("MISMATCH {b}");
    }
    eprintln!("dutch vectors up to 40 players: {ok}/{total} identical");
    assert!(ok >= 196, "only {ok}/{total} identical");
}

#[test]
#[ignore = "slow in debug; run: cargo test --release --lib domain::swiss::dutch -- --ignored"]
fn vectors_all() {
    let (ok, total, bad) = run_vectors(usize::MAX);
    for b in &bad {
        eprintln!("MISMATCH {b}");
    }
    eprintln!("dutch vectors, all sizes: {ok}/{total} identical");
    assert!(ok * 100 >= total * 97, "only {ok}/{total} identical");
}

#[test]
#[ignore = "medium (about a minute in debug)"]
fn vectors_medium() {
    let (ok, total, bad) = run_vectors(128);
    for b in &bad {
        eprintln!("MISMATCH {b}");
    }
    eprintln!("dutch vectors up to 128 players: {ok}/{total} identical");
    assert!(ok * 100 >= total * 97, "only {ok}/{total} identical");
}
