//! Generates a seeded random tournament paired by the Burstein system (as `clubcomp pair
//! --burstein -g` does), checks every round of it again, and prints how long each took, for
//! the benchmarks of large Burstein fields:
//! `cargo run --release -p clubcomp-engine --example burstein_field -- PLAYERS ROUNDS SEED OUT.trf`
//! (the file is written so that another program can check the same rounds).

use clubcomp_engine::swiss::{
    Criteria, Verdict, check_tournament_under, generate_tournament, pair_burstein_round,
    parse_config, write_trf,
};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| -> u64 {
        args.get(i)
            .map_or(default, |s| s.parse().expect("a whole number"))
    };
    let (n, rounds, seed) = (arg(0, 1000), arg(1, 5), arg(2, 42));
    let out = args
        .get(3)
        .cloned()
        .unwrap_or_else(|| "burstein.trf".into());
    let config = parse_config(&format!(
        "PlayersNumber={n}\nRoundsNumber={rounds}\nDrawPercentage=30\n"
    ))
    .expect("a valid configuration");
    let start = Instant::now();
    let t = generate_tournament(&config, seed, &pair_burstein_round).expect("every round pairs");
    println!(
        "generated {n} players, {rounds} rounds in {:.2} s",
        start.elapsed().as_secs_f64()
    );
    std::fs::write(&out, write_trf(&t)).expect("the file is writable");
    let start = Instant::now();
    let verdict = check_tournament_under(&t, &pair_burstein_round, Criteria::Burstein);
    let agrees = matches!(verdict, Ok(Verdict::Agrees { .. }));
    println!(
        "checked every round in {:.2} s, agrees: {agrees}",
        start.elapsed().as_secs_f64()
    );
}
