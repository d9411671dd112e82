//! Thin entry point: parse the command line and run it.

use clap::Parser;

fn main() -> std::process::ExitCode {
    let cli = clubcomp::cli::Cli::parse();
    clubcomp::cli::run(cli)
}
