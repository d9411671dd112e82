//! `clubcomp calc keizer` (to be written).

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Input JSON file; standard input when omitted.
    pub file: Option<PathBuf>,
}

/// Runs the command.
pub fn run(_args: Args) -> ExitCode {
    eprintln!("not implemented yet");
    ExitCode::from(2)
}
