//! What `SQLITE_SYNCHRONOUS=FULL` costs: write transactions per second on a SQLite file with
//! `synchronous` NORMAL and FULL, one after the other, alternating `ROUNDS` times. Each write is
//! the service's write transaction (the write lock, one new player, the commit) on one
//! connection, as `AppState::tx` runs it. The file lives in `DIR` (default: the system's
//! temporary directory), so measure on the disk the service uses.
//!
//! Usage: `bench_sqlite_sync [WRITES] [ROUNDS] [DIR]` (defaults 2000, 3).

use clubcomp_core::test_store::waits::{ConnSettings, Synchronous};
use clubcomp_core::test_store::{
    build_pool_with, models::players::NewPlayer, run_migrations, stamps,
};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let writes: u32 = args.first().map_or(2000, |a| a.parse().expect("WRITES"));
    let rounds: u32 = args.get(1).map_or(3, |a| a.parse().expect("ROUNDS"));
    let base = args
        .get(2)
        .map_or_else(std::env::temp_dir, std::path::PathBuf::from);
    let dir = tempfile::tempdir_in(base).expect("a temporary directory");
    println!(
        "{writes} write transactions per run, in {}",
        dir.path().display()
    );
    for round in 1..=rounds {
        for sync in [Synchronous::Normal, Synchronous::Full] {
            let file = dir
                .path()
                .join(format!("{}-{round}.sqlite3", sync.as_str()));
            let per_s = run(&format!("sqlite://{}", file.display()), sync, writes);
            println!(
                "round {round} synchronous={:<6} {per_s:>8.0} writes/s",
                sync.as_str()
            );
        }
    }
}

/// Write transactions per second.
fn run(url: &str, synchronous: Synchronous, writes: u32) -> f64 {
    let settings = ConnSettings {
        synchronous,
        ..ConnSettings::default()
    };
    let pool = build_pool_with(url, 1, Duration::from_secs(10), settings).expect("pool");
    let mut c = pool.get().expect("a connection");
    run_migrations(&mut c).expect("migrations");
    let now = clubcomp_core::test_store::now_utc();
    let t = Instant::now();
    for i in 0..writes {
        stamps::write(&mut c, |c| {
            clubcomp_core::test_store::models::players::insert(
                c,
                &NewPlayer::guest(format!("P{i}"), now),
            )
        })
        .expect("a write");
    }
    f64::from(writes) / t.elapsed().as_secs_f64()
}
