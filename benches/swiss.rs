//! Criterion benchmark of the FIDE Dutch engine on seeded random tournaments
//! (`clubcomp_engine::swiss::generate`): pairing round 5 of a 9-round event.
use clubcomp_engine::swiss::dutch::pair_round;
use clubcomp_engine::swiss::generate::random_tournament;
use criterion::{Criterion, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("dutch_round5");
    g.sample_size(10);
    for n in [50usize, 100, 200, 1000] {
        let t = random_tournament(n, 4, 9, 42);
        g.bench_function(format!("{n}_players"), |b| {
            b.iter(|| pair_round(std::hint::black_box(&t), 5))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
