//! `clubcomp pair --dutch INPUT.trf -p [OUTPUT]` (to be written).

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Pair with the FIDE Dutch system.
    #[arg(long)]
    pub dutch: Option<PathBuf>,
}

/// Runs the command.
pub fn run(_args: Args) -> ExitCode {
    eprintln!("not implemented yet");
    ExitCode::from(2)
}
