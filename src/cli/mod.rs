//! The command line: `serve` (default), service administration, and the stateless engines
//! (`calc …`, `pair …`) that run without a server or database.

pub mod keizer;
pub mod keizer_pairing;
pub mod keizer_prizes;
pub mod pair;
pub mod rapid_blitz;
pub mod round_robin;
pub mod service;
pub mod tiebreaks;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// clubcomp: competition server for chess and draughts clubs.
#[derive(Debug, Parser)]
#[command(name = "clubcomp", version, about)]
pub struct Cli {
    /// What to do; `serve` when omitted.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Top-level commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the REST API (the default).
    Serve,
    /// Apply pending database migrations and exit.
    Migrate,
    /// Manage user accounts.
    #[command(subcommand)]
    User(service::UserCommand),
    /// Print the OpenAPI document.
    Openapi,
    /// Import rating lists.
    #[command(subcommand)]
    Ratings(service::RatingsCommand),
    /// Import the member list.
    #[command(subcommand)]
    Members(service::MembersCommand),
    /// Fill the configured database with a realistic demo season around today.
    Demo(service::DemoArgs),
    /// Stateless calculators (JSON in, JSON out).
    #[command(subcommand)]
    Calc(CalcCommand),
    /// Swiss pairing of the next round from a TRF file (bbpPairings-compatible).
    Pair(pair::Args),
}

/// `clubcomp calc …`
#[derive(Debug, Subcommand)]
pub enum CalcCommand {
    /// Keizer standings per evening from a scenario (docs/formats/keizer-scenario.md).
    Keizer(keizer::Args),
    /// Keizer pairing of one evening (format in the README).
    KeizerPairing(keizer_pairing::Args),
    /// Prizes of a Keizer half, and the playoff groups of a summer half, from a scenario
    /// (docs/formats/keizer-prizes.md).
    KeizerPrizes(keizer_prizes::Args),
    /// Round-robin standings, points tables, prize money and rights.
    RoundRobin(round_robin::Args),
    /// FIDE tie-breaks from a TRF file.
    Tiebreaks(tiebreaks::Args),
    /// Who plays off first place of a Swiss, from its final standings list
    /// (docs/rules/rapid-blitz.md#the-calculators).
    SwissPlayoff(rapid_blitz::Args),
    /// The number of rounds of a blitz field (docs/rules/rapid-blitz.md#the-calculators).
    BlitzRounds(rapid_blitz::Args),
}

/// Runs a parsed command line and returns the process exit code.
pub fn run(cli: Cli) -> ExitCode {
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => service::serve(),
        Command::Migrate => service::migrate(),
        Command::User(c) => service::user(c),
        Command::Openapi => service::openapi(),
        Command::Ratings(c) => service::ratings(c),
        Command::Members(c) => service::members(c),
        Command::Demo(a) => service::demo(a),
        Command::Calc(CalcCommand::Keizer(a)) => keizer::run(a),
        Command::Calc(CalcCommand::KeizerPairing(a)) => keizer_pairing::run(a),
        Command::Calc(CalcCommand::KeizerPrizes(a)) => keizer_prizes::run(a),
        Command::Calc(CalcCommand::RoundRobin(a)) => round_robin::run(a),
        Command::Calc(CalcCommand::Tiebreaks(a)) => tiebreaks::run(a),
        Command::Calc(CalcCommand::SwissPlayoff(a)) => rapid_blitz::run_playoff(a),
        Command::Calc(CalcCommand::BlitzRounds(a)) => rapid_blitz::run_rounds(a),
        Command::Pair(a) => pair::run(a),
    }
}

/// The work limits from the environment (`LIMIT_*`), as the service applies them.
pub fn limits() -> Result<crate::limits::WorkLimits, String> {
    crate::limits::WorkLimits::from_env().map_err(|e| e.join("; "))
}

/// Reads a whole input file, or standard input when `path` is `None` or `-`.
pub fn read_input(path: Option<&std::path::Path>) -> std::io::Result<String> {
    use std::io::Read;
    match path {
        Some(p) if p.as_os_str() != "-" => std::fs::read_to_string(p),
        _ => {
            let mut s = String::new();
            std::io::stdin().read_to_string(&mut s)?;
            Ok(s)
        }
    }
}
