//! `clubcomp calc keizer [FILE]`: the standings after every evening of a Keizer scenario
//! (`docs/formats/keizer-scenario.md`). Reads the file, or standard input when no file (or
//! `-`) is given; writes JSON to standard output. Bad input: a message naming the evening and
//! the player on standard error, exit code 1, nothing computed.

use clubcomp_engine::keizer::run_scenario;
use std::io::Write;
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
    run_scenario_command("keizer", args.file, |v| {
        run_scenario(v).map_err(|e| e.to_string())
    })
}

/// The shared body of the commands that read a Keizer scenario (`calc keizer`,
/// `calc keizer-prizes`): read the file or standard input (exit 2 when it cannot be read),
/// check the work limits and compute (exit 1 naming the problem), print pretty JSON.
pub fn run_scenario_command<T: serde::Serialize>(
    name: &str,
    file: Option<PathBuf>,
    compute: impl FnOnce(&serde_json::Value) -> Result<T, String>,
) -> ExitCode {
    let text = match super::read_input(file.as_deref()) {
        Ok(t) => t,
        Err(e) => {
            let from = file
                .as_ref()
                .map_or("standard input".to_string(), |p| p.display().to_string());
            eprintln!("clubcomp calc {name}: cannot read {from}: {e}");
            return ExitCode::from(2);
        }
    };
    let output = serde_json::from_str(&text)
        .map_err(|e| format!("not valid JSON: {e}"))
        .and_then(|v| {
            let limits = super::limits()?;
            crate::calc_input::keizer_scenario(&v, &limits).map_err(|e| e.to_string())?;
            compute(&v)
        });
    let output = match output {
        Ok(o) => o,
        Err(e) => {
            eprintln!("clubcomp calc {name}: invalid scenario: {e}");
            return ExitCode::from(1);
        }
    };
    let json = match serde_json::to_string_pretty(&output) {
        Ok(j) => j,
        Err(e) => {
            eprintln!("clubcomp calc {name}: cannot write the output: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{json}").and_then(|_| out.flush()).is_err() {
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}
