//! `clubcomp pair --dutch INPUT.trf -p [OUTPUT]`: pairs the next round of a TRF file with the
//! FIDE Dutch system, bbpPairings-compatible. Output: the number of pairs, then one
//! `WHITE BLACK` line per board (pairing numbers), the pairing-allocated bye as `ID 0`.
//! Exit codes: 0 paired, 1 no valid pairing, 3 invalid input, 5 file not readable/writable.

use crate::domain::swiss::dutch::{Board, PairError, next_round, pair_round};
use crate::domain::swiss::trf::parse_trf;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Pair with the FIDE Dutch system (C.04.3, 2025 rules); the TRF input file.
    #[arg(long, value_name = "INPUT.trf")]
    pub dutch: PathBuf,
    /// Write the pairing to OUTPUT (standard output when no file is given).
    #[arg(short = 'p', value_name = "OUTPUT", num_args = 0..=1)]
    pub pair: Option<Option<PathBuf>>,
}

/// Formats boards in the bbpPairings output format (the count includes the bye line).
pub fn format_boards(boards: &[Board]) -> String {
    let mut s = format!("{}\n", boards.len());
    for b in boards {
        s.push_str(&format!("{} {}\n", b.white, b.black.unwrap_or(0)));
    }
    s
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    let text = match std::fs::read(&args.dutch) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            eprintln!("cannot read {}: {e}", args.dutch.display());
            return ExitCode::from(5);
        }
    };
    let t = match parse_trf(&text) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{}: {e}", args.dutch.display());
            return ExitCode::from(3);
        }
    };
    let boards = match pair_round(&t, next_round(&t)) {
        Ok(b) => b,
        Err(e @ PairError::NoValidPairing { .. }) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
        Err(e) => {
            eprintln!("{}: {e}", args.dutch.display());
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
