//! Criterion benchmarks of the Swiss engines on seeded random tournaments.
//!
//! - `dutch_round5`: the FIDE Dutch engine pairing round 5 of a 9-round event
//!   (`clubcomp_engine::swiss::generate`), 50 to 1,000 players.
//! - `dutch_round5_large`: the same for 3,000, 5,000 and 9,999 players (the TRF maximum), ten
//!   samples each; they take from seconds to minutes per sample, so they run only with
//!   `CLUBCOMP_BENCH_LARGE=1`.
//! - `double_swiss`: the rapid's club field (60 players, all 9 rounds paired with their
//!   results in between), and one round (round 5) of 1,000, 3,000 and 9,999 players.
//!
//! Run: `cargo bench --bench swiss` (add `CLUBCOMP_BENCH_LARGE=1` for the large Dutch sizes).
use clubcomp_engine::double_swiss::{
    Bye, ByeKind, DoubleSwissPlayer, DoubleSwissResult, Match, RoundRecord, State, pair_next_round,
};
use clubcomp_engine::swiss::pair_round;
use clubcomp_engine::swiss::random_tournament;
use criterion::{Criterion, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn dutch(c: &mut Criterion) {
    let mut g = c.benchmark_group("dutch_round5");
    g.sample_size(10);
    for n in [50usize, 100, 200, 1000] {
        let t = random_tournament(n, 4, 9, 42);
        g.bench_function(format!("{n}_players"), |b| {
            b.iter(|| pair_round(std::hint::black_box(&t), 5))
        });
    }
    g.finish();
    if std::env::var_os("CLUBCOMP_BENCH_LARGE").is_none() {
        return;
    }
    let mut g = c.benchmark_group("dutch_round5_large");
    g.sample_size(10);
    for n in [3000usize, 5000, 9999] {
        let t = random_tournament(n, 4, 9, 42);
        g.bench_function(format!("{n}_players"), |b| {
            b.iter(|| pair_round(std::hint::black_box(&t), 5))
        });
    }
    g.finish();
}

/// A Double-Swiss of `n` players after `rounds` rounds, each paired by the engine and given
/// seeded random game results.
fn double_swiss_state(n: usize, rounds: usize) -> State {
    let mut st = State {
        players: (1..=n as u32)
            .map(|id| DoubleSwissPlayer {
                id,
                name: String::new(),
                rating: None,
            })
            .collect(),
        rounds: Vec::new(),
        absent: Vec::new(),
    };
    let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
    for _ in 0..rounds {
        play_round(&mut st, &mut rng);
    }
    st
}

/// Pairs the next round and records random results for it.
fn play_round(st: &mut State, rng: &mut ChaCha8Rng) {
    let next = pair_next_round(st).expect("a Double-Swiss round");
    let mut result = || match rng.random_range(0..3) {
        0 => DoubleSwissResult::WhiteWins,
        1 => DoubleSwissResult::Draw,
        _ => DoubleSwissResult::BlackWins,
    };
    let mut rec = RoundRecord::default();
    for p in &next.pairings {
        rec.matches.push(Match {
            white: p.white,
            black: p.black,
            game1: result(),
            game2: result(),
        });
    }
    if let Some(player) = next.bye {
        rec.byes.push(Bye {
            player,
            kind: ByeKind::Pairing,
        });
    }
    st.rounds.push(rec);
}

fn double_swiss(c: &mut Criterion) {
    let mut g = c.benchmark_group("double_swiss");
    g.sample_size(10);
    g.bench_function("60_players_all_9_rounds", |b| {
        b.iter(|| {
            let mut st = double_swiss_state(60, 0);
            let mut rng = ChaCha8Rng::seed_from_u64(60);
            for _ in 0..9 {
                play_round(&mut st, &mut rng);
            }
            st
        })
    });
    for n in [1000usize, 3000, 9999] {
        let st = double_swiss_state(n, 4);
        g.bench_function(format!("round5_{n}_players"), |b| {
            b.iter(|| pair_next_round(std::hint::black_box(&st)))
        });
    }
    g.finish();
}

criterion_group!(benches, dutch, double_swiss);
criterion_main!(benches);
