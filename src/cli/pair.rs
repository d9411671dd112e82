//! `clubcomp pair --dutch INPUT.trf -p [OUTPUT]`: pairs the next round of a TRF file with the
//! FIDE Dutch system, bbpPairings-compatible; `--burstein` instead pairs it with the Burstein
//! system (docs/rules/rapid-blitz.md#the-burstein-system) as bbpPairings `--burstein` does. Output: the number of pairs, then one
//! `WHITE BLACK` line per board (pairing numbers), the pairing-allocated bye as `ID 0`.
//! Exit codes: 0 paired, 1 no valid pairing, 3 invalid input, 5 file not readable/writable.
//! `-c` checks a complete tournament and `-g` generates one (the `kit` module).

mod kit;

use clubcomp_engine::swiss::pair_burstein_round;
use clubcomp_engine::swiss::{MAX_PLAYERS, random_tournament};
use clubcomp_engine::swiss::{PairError, PairFn, SwissBoard, next_round, pair_round};
use clubcomp_engine::swiss::{parse_trf, write_trf};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Pair with the FIDE Dutch system (C.04.3, 2025 rules); the TRF input file (none with
    /// `-g`).
    #[arg(long, value_name = "INPUT.trf", num_args = 0..=1, required_unless_present_any = ["random_trf", "burstein"])]
    pub dutch: Option<Option<PathBuf>>,
    /// Pair with the Burstein system as bbpPairings does (not FIDE-endorsed); the TRF input
    /// file (none with `-g`).
    #[arg(long, value_name = "INPUT.trf", num_args = 0..=1, conflicts_with_all = ["dutch", "random_trf"])]
    pub burstein: Option<Option<PathBuf>>,
    /// Check a complete tournament: re-pair every round and report the first that differs
    /// (exit 0: every round agrees, 1: a round differs, 2: the file is refused).
    #[arg(short = 'c', conflicts_with_all = ["pair", "generate"])]
    pub check: bool,
    /// Generate a random tournament from a configuration file of bbpPairings' keys (none:
    /// every setting drawn from the seed); needs `-o`.
    #[arg(short = 'g', value_name = "CONFIG", num_args = 0..=1, requires = "output", conflicts_with = "pair")]
    pub generate: Option<Option<PathBuf>>,
    /// With `-g`: the TRF file to write.
    #[arg(short = 'o', value_name = "FILE", requires = "generate")]
    pub output: Option<PathBuf>,
    /// With `-g`: the random seed (by default one from the clock, named in the file's first
    /// line).
    #[arg(short = 's', value_name = "SEED", requires = "generate")]
    pub seed_g: Option<u64>,
    /// Write the pairing to OUTPUT (standard output when no file is given).
    #[arg(short = 'p', value_name = "OUTPUT", num_args = 0..=1)]
    pub pair: Option<Option<PathBuf>>,
    /// Instead of pairing: print a seeded random tournament of N players as TRF (for timing);
    /// N is at most 9,999 (four-digit pairing numbers).
    #[arg(long, value_name = "N", conflicts_with = "dutch")]
    pub random_trf: Option<usize>,
    /// With --random-trf: rounds already played.
    #[arg(long, default_value_t = 4)]
    pub played: usize,
    /// With --random-trf: total rounds (XXR).
    #[arg(long, default_value_t = 9)]
    pub rounds: u32,
    /// With --random-trf: the random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl Args {
    /// The pairing system chosen (`--burstein` or `--dutch`) and its input file, if any.
    pub(super) fn system(&self) -> (&'static PairFn, Option<PathBuf>) {
        match &self.burstein {
            Some(input) => (&pair_burstein_round, input.clone()),
            None => (&pair_round, self.dutch.clone().flatten()),
        }
    }
}

/// Formats boards in the bbpPairings output format (the count includes the bye line).
pub fn format_boards(boards: &[SwissBoard]) -> String {
    let mut s = format!("{}\n", boards.len());
    for b in boards {
        s.push_str(&format!("{} {}\n", b.white, b.black.unwrap_or(0)));
    }
    s
}

/// The checks the service makes (text, work limits, rounds that agree), then the file read.
pub(super) fn checked_trf(bytes: &[u8]) -> Result<clubcomp_engine::swiss::Tournament, String> {
    use crate::calc_input::{trf_pairings, trf_size, trf_text};
    let limits = super::limits()?;
    let text = trf_text("file", bytes).map_err(|e| e.to_string())?;
    trf_size("file", text, &limits).map_err(|e| e.to_string())?;
    let t = parse_trf(text).map_err(|e| e.to_string())?;
    trf_pairings("file", &t).map_err(|e| e.to_string())?;
    Ok(t)
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    if let Some(n) = args.random_trf {
        if n > MAX_PLAYERS {
            eprintln!(
                "--random-trf: {n} players: a TRF file holds at most {MAX_PLAYERS} players \
                 (four-digit pairing numbers)"
            );
            return ExitCode::from(3);
        }
        if args.played > args.rounds as usize {
            eprintln!(
                "--played: {} rounds played, more than the {} of --rounds",
                args.played, args.rounds
            );
            return ExitCode::from(3);
        }
        let t = random_tournament(n, args.played, args.rounds, args.seed);
        print!("{}", write_trf(&t));
        return ExitCode::SUCCESS;
    }
    if args.generate.is_some() {
        return kit::generate(&args);
    }
    let (system, input) = args.system();
    let Some(input) = input else {
        eprintln!("--dutch INPUT.trf or --burstein INPUT.trf is required");
        return ExitCode::from(3);
    };
    if args.check {
        return kit::check(&input, system, args.burstein.is_some());
    }
    let bytes = match std::fs::read(&input) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("cannot read {}: {e}", input.display());
            return ExitCode::from(5);
        }
    };
    let t = match checked_trf(&bytes) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{}: {e}", input.display());
            return ExitCode::from(3);
        }
    };
    let boards = match system(&t, next_round(&t)) {
        Ok(b) => b,
        Err(e @ PairError::NoValidPairing { .. }) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
        Err(e) => {
            eprintln!("{}: {e}", input.display());
            return ExitCode::from(3);
        }
    };
    let out = format_boards(&boards);
    match args.pair.flatten() {
        Some(path) if path.as_os_str() != "-" => {
            if let Err(e) = std::fs::write(&path, out) {
                eprintln!("cannot write {}: {e}", path.display());
                return ExitCode::from(5);
            }
        }
        _ => print!("{out}"),
    }
    ExitCode::SUCCESS
}
