//! Swiss pairing (docs/rules/rapid-blitz.md#the-dutch-system): the TRF reader/writer and the FIDE Dutch system (C.04.3, the 2025
//! rules), computed as a maximum-weight matching like the FIDE-endorsed engines.
//!
//! # Dutch pairing from a TRF file
//!
//! One of the reference tournaments paired by bbpPairings (`tests/data/dutch`): the engine
//! reproduces its pairing of round 2, boards in the same order.
//!
//! ```
//! use clubcomp_engine::swiss::{next_round, pair_round, parse_trf};
//!
//! let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dutch/t1000-n10-r5");
//! let text = std::fs::read_to_string(format!("{dir}/round-02.trf")).unwrap();
//! let tournament = parse_trf(&text).unwrap();
//! let round = next_round(&tournament);
//! assert_eq!(round, 2);
//! let boards = pair_round(&tournament, round).unwrap();
//! let pairs: Vec<(u32, u32)> =
//!     boards.iter().map(|b| (b.white, b.black.unwrap_or(0))).collect();
//! assert_eq!(pairs, [(4, 1), (2, 3), (6, 5), (10, 7), (8, 9)]);
//! ```

// The public API of this module.
pub use baku::{baku_accelerations, baku_group_a};
pub use burstein::{pair_burstein_round, pair_burstein_round_until};
pub use dutch::{
    Blocked, BlockedPlayer, PairError, PairFn, SwissBoard, next_round, pair_round, pair_round_until,
};
pub use dutch::{
    Breach, Criteria, Difference, Incomplete, Verdict, check_tournament, check_tournament_under,
};
pub use generate::random_tournament;
pub use simulate::{
    ConfigError, GeneratorConfig, MAX_CONFIG_CHARS, MAX_GENERATED_PLAYERS, MAX_GENERATED_ROUNDS,
    generate_tournament, parse_config,
};
pub use trf::{
    Accelerations, Line, MAX_ACCELERATED_ROUND, MAX_PLAYERS, ResultCode, RoundEntry, Tournament,
    TrfError, TrfPlayer, accelerations, forbidden_pairs, format_player, parse_trf, virtual_points,
    write_trf,
};
pub use trf::{MAX_RESULT_POINTS, PointSystem, non_standard_point_line, point_system};

pub(crate) mod baku;
pub(crate) mod burstein;
pub(crate) mod dutch;
pub(crate) mod generate;
pub(crate) mod matching;
pub(crate) mod simulate;
pub(crate) mod trf;
pub(crate) mod wide;

#[cfg(test)]
pub(crate) mod test_vectors {
    //! Locating the reference vectors shipped in `tests/data/dutch` (see its README).
    use std::path::PathBuf;

    /// The `dutch/` vector directory; panics (never skips silently) when it is missing.
    pub fn dutch_dir() -> PathBuf {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/dutch");
        assert!(
            dir.is_dir(),
            "reference vectors not found at {}: the repository is incomplete",
            dir.display()
        );
        dir
    }

    /// Every `(trf path, pairs path)` of every tournament, sorted.
    pub fn all_rounds() -> Vec<(PathBuf, PathBuf)> {
        let mut out = Vec::new();
        let mut dirs: Vec<_> = std::fs::read_dir(dutch_dir())
            .expect("read vectors dir")
            .map(|e| e.expect("dir entry").path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        for d in dirs {
            let mut files: Vec<_> = std::fs::read_dir(&d)
                .expect("read tournament dir")
                .map(|e| e.expect("dir entry").path())
                .filter(|p| p.extension().is_some_and(|e| e == "trf"))
                .collect();
            files.sort();
            for f in files {
                let pairs = f.with_extension("pairs");
                out.push((f, pairs));
            }
        }
        out
    }
}
