//! Criterion benchmark of the Keizer pairing (docs/rules/keizer.md#pairing): one evening for 60 and 500 players
//! (about 90% present), on evening 15 and on the last evening (20) of the season, with a
//! realistic history made by pairing the earlier evenings with the engine itself while the
//! ranking drifts. Run: `cargo bench --bench keizer_pairing`.

use clubcomp_engine::Half;
use clubcomp_engine::keizer::{Meeting, PairingInput, RankedPlayer, Rules, pair_evening};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A season of `n` players up to (not including) evening `upto`.
fn season(n: usize, upto: u32) -> PairingInput {
    let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
    let half = |e: u32| if e <= 10 { Half::Winter } else { Half::Summer };
    let mut ranking: Vec<RankedPlayer> = (0..n)
        .map(|i| RankedPlayer {
            id: format!("p{i}"),
            rating: Some(2200 - i as i32 * 2),
            present: true,
            first_time: false,
            colours: Vec::new(),
            byes_this_half: 0,
        })
        .collect();
    let mut history: Vec<Meeting> = Vec::new();
    for e in 1..=upto {
        for p in &mut ranking {
            p.present = rng.random_range(0..10) < 8;
            if e == 11 {
                p.byes_this_half = 0;
            }
        }
        let input = PairingInput {
            evening: e,
            half: half(e),
            bye_seed: u64::from(e),
            ranking: ranking.clone(),
            history: history.clone(),
            rules: Rules::default(),
            forbidden: Vec::new(),
        };
        if e == upto {
            for p in &mut ranking {
                p.present = rng.random_range(0..10) < 9;
            }
            return PairingInput { ranking, ..input };
        }
        let Ok(pg) = pair_evening(&input) else {
            continue;
        };
        for b in &pg.boards {
            history.push(Meeting {
                a: b.white.clone(),
                b: b.black.clone(),
                evening: e,
                half: half(e),
            });
        }
        if let Some(bye) = &pg.bye
            && let Some(p) = ranking.iter_mut().find(|p| p.id == bye.player)
        {
            p.byes_this_half += 1;
        }
        // the ranking drifts: a few random swaps of near neighbours
        for _ in 0..n / 2 {
            let i = rng.random_range(0..n - 3);
            let j = i + rng.random_range(1..4);
            ranking.swap(i, j);
        }
    }
    unreachable!("the loop returns at evening `upto`")
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("keizer_pairing");
    g.sample_size(10);
    for (n, evening) in [(60usize, 15u32), (500, 15), (60, 20), (500, 20)] {
        let input = season(n, evening);
        let id = BenchmarkId::new(format!("evening{evening}"), n);
        g.bench_with_input(id, &input, |b, inp| {
            b.iter(|| pair_evening(std::hint::black_box(inp)))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
