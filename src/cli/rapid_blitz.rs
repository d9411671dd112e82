//! `clubcomp calc swiss-playoff [FILE]` and `clubcomp calc blitz-rounds [FILE]`: who plays off
//! first place from a final standings list, and the number of rounds of a blitz field
//! (docs/rules/rapid-blitz.md#the-calculators), the same JSON in and out as
//! `POST /calc/swiss-playoff` and `POST /calc/blitz-rounds`. Reads the file, or standard input
//! when no file (or `-`) is given; writes JSON to standard output. Bad input: a message naming
//! the field on standard error, exit code 1; an unreadable file, exit code 2.

use crate::services::calc_rules::{blitz_rounds, swiss_playoff};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Input JSON file; standard input when omitted.
    pub file: Option<PathBuf>,
}

/// Runs `calc swiss-playoff`.
pub fn run_playoff(args: Args) -> ExitCode {
    run_json("swiss-playoff", args.file, |req, limits| {
        swiss_playoff(&req, limits)
    })
}

/// Runs `calc blitz-rounds`.
pub fn run_rounds(args: Args) -> ExitCode {
    run_json("blitz-rounds", args.file, |req, limits| {
        blitz_rounds(&req, limits)
    })
}

fn run_json<Q: DeserializeOwned, A: Serialize>(
    name: &str,
    file: Option<PathBuf>,
    compute: impl FnOnce(Q, &crate::limits::WorkLimits) -> crate::error::ApiResult<A>,
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
    let output = serde_json::from_str::<Q>(&text)
        .map_err(|e| format!("not a valid request: {e}"))
        .and_then(|q| {
            let limits = super::limits()?;
            compute(q, &limits).map_err(|e| e.to_string())
        })
        .and_then(|a| {
            serde_json::to_string_pretty(&a).map_err(|e| format!("cannot write the output: {e}"))
        });
    match output {
        Ok(json) => {
            let mut out = std::io::stdout().lock();
            if writeln!(out, "{json}").and_then(|_| out.flush()).is_err() {
                return ExitCode::from(2);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("clubcomp calc {name}: {e}");
            ExitCode::from(1)
        }
    }
}
