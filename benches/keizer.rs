//! Criterion benchmark of the Keizer standings engine (docs/benchmarks.md: a 60-player, 40-evening
//! season well under a millisecond per evening's recalculation).
//!
//! Seasons are generated with a seeded RNG: about 10% excused, 5% unexcused, a bye when the
//! number present is odd, results 40% white, 35% black, 20% draws, 5% forfeits. Each benchmark
//! computes the standings after EVERY evening of the season (the whole replay); divide by the
//! number of evenings for the cost of one evening's recalculation.

use clubcomp_engine::keizer::{
    Competition, Entrant, KeizerEvening, KeizerGame, KeizerResult, Params, compute_keizer,
};
use criterion::{Criterion, criterion_group, criterion_main};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

fn season(seed: u64, n: usize, evenings: usize) -> Competition {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut players: Vec<Entrant> = (0..n)
        .map(|i| Entrant {
            id: format!("p{i}"),
            rating: Some(rng.random_range(1000..2400)),
            joins_at: 1,
            withdrawn_from: None,
        })
        .collect();
    players.sort_by_key(|p| std::cmp::Reverse(p.rating));
    let evs = (0..evenings)
        .map(|_| {
            let mut ev = KeizerEvening::default();
            let mut present = Vec::new();
            for p in &players {
                match rng.random_range(0..100) {
                    0..10 => ev.excused.push(p.id.clone()),
                    10..15 => ev.unexcused.push(p.id.clone()),
                    _ => present.push(p.id.clone()),
                }
            }
            present.shuffle(&mut rng);
            if present.len() % 2 == 1 {
                ev.byes.extend(present.pop());
            }
            for pair in present.chunks(2) {
                let result = match rng.random_range(0..100) {
                    0..40 => KeizerResult::WhiteWins,
                    40..75 => KeizerResult::BlackWins,
                    75..95 => KeizerResult::Draw,
                    _ => KeizerResult::WhiteForfeitWin,
                };
                ev.games.push(KeizerGame {
                    white: pair[0].clone(),
                    black: pair[1].clone(),
                    result,
                });
            }
            ev
        })
        .collect();
    let top = (n as i64).max(60);
    Competition {
        params: Params {
            top_value: top,
            ..Params::default()
        },
        players,
        excused_before: Default::default(),
        evenings: evs,
    }
}

fn bench(c: &mut Criterion) {
    let club = season(1, 60, 40);
    c.bench_function(
        "keizer standings 60 players x 40 evenings (all evenings)",
        |b| b.iter(|| compute_keizer(black_box(&club))),
    );
    let large = season(2, 1000, 100);
    let mut g = c.benchmark_group("large");
    g.sample_size(10);
    g.bench_function(
        "keizer standings 1000 players x 100 evenings (all evenings)",
        |b| b.iter(|| compute_keizer(black_box(&large))),
    );
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
