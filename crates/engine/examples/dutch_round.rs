//! Pairs one round of a seeded random event with the FIDE Dutch engine and prints the boards,
//! for timing and for comparing the pairings of two builds:
//! `cargo run --release -p clubcomp-engine --example dutch_round -- PLAYERS [ROUND] [SEED]`
//! (round 5 of 9 and seed 42 by default, as in the benchmarks).

use clubcomp_engine::swiss::{pair_round, random_tournament};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| -> u64 {
        args.get(i)
            .map_or(default, |s| s.parse().expect("a whole number"))
    };
    let n = arg(0, 1000) as usize;
    let round = arg(1, 5) as u32;
    let seed = arg(2, 42);
    let t = random_tournament(n, round as usize - 1, 9, seed);
    match pair_round(&t, round) {
        Ok(boards) => {
            for b in boards {
                match b.black {
                    Some(black) => println!("{} {}", b.white, black),
                    None => println!("{} bye", b.white),
                }
            }
        }
        Err(e) => println!("unpaired: {e}"),
    }
}
