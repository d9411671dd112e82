//! `clubcomp calc tiebreaks --trf FILE --tiebreaks PTS,DE,BH-M1,SB` (to be written).

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The TRF file.
    #[arg(long)]
    pub trf: PathBuf,
    /// Comma-separated tie-break list.
    #[arg(long)]
    pub tiebreaks: String,
}

/// Runs the command.
pub fn run(_args: Args) -> ExitCode {
    eprintln!("not implemented yet");
    ExitCode::from(2)
}
