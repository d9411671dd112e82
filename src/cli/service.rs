//! Service commands: serve, migrate, user, openapi, ratings import, demo (to be written).

use std::path::PathBuf;
use std::process::ExitCode;

/// `clubcomp user …`
#[derive(Debug, clap::Subcommand)]
pub enum UserCommand {
    /// Create a user (prompts nothing: the password comes from --password or CLUBCOMP_PASSWORD).
    Create {
        /// E-mail address (the login name).
        #[arg(long)]
        email: String,
        /// Role; repeat for several (admin, leader, arbiter, member, rating_sync).
        #[arg(long = "role", required = true)]
        roles: Vec<String>,
        /// Password.
        #[arg(long, env = "CLUBCOMP_PASSWORD")]
        password: String,
    },
}

/// `clubcomp ratings …`
#[derive(Debug, clap::Subcommand)]
pub enum RatingsCommand {
    /// Import a KNSB rating-list CSV (semicolon separated, Windows-1252).
    Import {
        /// The CSV file.
        file: PathBuf,
        /// List date (YYYY-MM-DD); today when omitted.
        #[arg(long)]
        date: Option<String>,
    },
}

fn todo() -> ExitCode {
    eprintln!("not implemented yet");
    ExitCode::from(2)
}

/// `clubcomp serve`
pub fn serve() -> ExitCode {
    todo()
}
/// `clubcomp migrate`
pub fn migrate() -> ExitCode {
    todo()
}
/// `clubcomp user …`
pub fn user(_c: UserCommand) -> ExitCode {
    todo()
}
/// `clubcomp openapi`
pub fn openapi() -> ExitCode {
    todo()
}
/// `clubcomp ratings …`
pub fn ratings(_c: RatingsCommand) -> ExitCode {
    todo()
}
/// `clubcomp demo`
pub fn demo() -> ExitCode {
    todo()
}
