//! `clubcomp calc keizer-prizes [FILE]`: the prizes of a Keizer half, and for a summer half
//! the playoff groups, from a Keizer scenario with `half` (and, for the playoffs,
//! `playoff_seed` and `playoff_results`) beside it (`docs/formats/keizer-prizes.md`). Reads the
//! file, or standard input when no file (or `-`) is given; writes JSON to standard output.
//! Bad input: a message naming the field, the evening or the player on standard error, exit
//! code 1, nothing computed.

use clubcomp_engine::Never;
use clubcomp_engine::keizer::prizes_preview;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Input JSON file; standard input when omitted.
    pub file: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    super::keizer::run_scenario_command("keizer-prizes", args.file, |v| {
        prizes_preview(v, &Never).map_err(|e| e.to_string())
    })
}
