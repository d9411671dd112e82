//! Service commands: serve, migrate, user create, openapi, ratings import, demo.

use crate::config::Config;
use std::path::PathBuf;
use std::process::ExitCode;

/// `clubcomp user …`
#[derive(Debug, clap::Subcommand)]
pub enum UserCommand {
    /// Create a user; the password comes from --password or CLUBCOMP_PASSWORD.
    Create {
        /// E-mail address (the login name).
        #[arg(long)]
        email: String,
        /// Role; repeat for several (admin, leader, arbiter, member, rating_sync).
        #[arg(long = "role", required = true)]
        roles: Vec<String>,
        /// Password (at least 8 characters).
        #[arg(long, env = "CLUBCOMP_PASSWORD", hide_env_values = true)]
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
        /// List date (YYYY-MM-DD).
        #[arg(long)]
        date: String,
    },
}

/// `clubcomp members …`
#[derive(Debug, clap::Subcommand)]
pub enum MembersCommand {
    /// Import a member-list CSV (name, email, membership; optional knsb_number, rating,
    /// language): players found or created, each with a linked member account.
    Import {
        /// The CSV file.
        file: PathBuf,
        /// Print what the import would do and write nothing.
        #[arg(long)]
        dry_run: bool,
        /// Invite the accounts that have no password yet (mails through the outbox).
        #[arg(long)]
        invite: bool,
    },
}

fn config() -> Result<Config, ExitCode> {
    match Config::from_env() {
        Ok(c) => {
            crate::telemetry::init(c.log_json);
            Ok(c)
        }
        Err(errs) => {
            eprintln!("configuration error:");
            for e in errs {
                eprintln!("  - {e}");
            }
            Err(ExitCode::from(2))
        }
    }
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::FAILURE
}

/// How long a command waits for its database connection.
const CLI_DB_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

fn with_conn<T>(
    cfg: &Config,
    f: impl FnOnce(&mut crate::database::DbConn) -> Result<T, String>,
) -> Result<T, String> {
    let pool = crate::database::build_pool_with(&cfg.database_url, 1, CLI_DB_WAIT, cfg.db_conn)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    crate::database::run_migrations(&mut conn)?;
    f(&mut conn)
}

/// `clubcomp serve`
pub fn serve() -> ExitCode {
    let cfg = match config() {
        Ok(c) => c,
        Err(code) => return code,
    };
    match actix_web::rt::System::new().block_on(crate::app::serve(cfg)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}

/// `clubcomp migrate`
pub fn migrate() -> ExitCode {
    let cfg = match config() {
        Ok(c) => c,
        Err(code) => return code,
    };
    let pool =
        match crate::database::build_pool_with(&cfg.database_url, 1, CLI_DB_WAIT, cfg.db_conn) {
            Ok(p) => p,
            Err(e) => return fail(e),
        };
    let result = pool
        .get()
        .map_err(|e| e.to_string())
        .and_then(|mut c| crate::database::run_migrations(&mut c));
    match result {
        Ok(v) if v.is_empty() => {
            println!("database is up to date");
            ExitCode::SUCCESS
        }
        Ok(v) => {
            for m in v {
                println!("applied {m}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}

/// `clubcomp user …`
pub fn user(c: UserCommand) -> ExitCode {
    let cfg = match config() {
        Ok(c) => c,
        Err(code) => return code,
    };
    let UserCommand::Create {
        email,
        roles,
        password,
    } = c;
    let r = with_conn(&cfg, |conn| {
        crate::services::users::create_user(conn, &email, &password, &roles).map_err(|e| match e {
            crate::error::ApiError::Validation { errors, .. } => errors
                .iter()
                .map(|f| format!("{}: {}", f.field, f.message))
                .collect::<Vec<_>>()
                .join("; "),
            other => other.to_string(),
        })
    });
    match r {
        Ok(u) => {
            println!("created user {} ({}) with roles {}", u.id, u.email, u.roles);
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}

/// `clubcomp openapi`: prints the document generated from the code.
pub fn openapi() -> ExitCode {
    print!("{}", crate::openapi::to_pretty_json(&crate::app::openapi()));
    ExitCode::SUCCESS
}

/// `clubcomp ratings import FILE --date D`
pub fn ratings(c: RatingsCommand) -> ExitCode {
    let cfg = match config() {
        Ok(c) => c,
        Err(code) => return code,
    };
    let RatingsCommand::Import { file, date } = c;
    let bytes = match std::fs::read(&file) {
        Ok(b) => b,
        Err(e) => return fail(format!("cannot read {}: {e}", file.display())),
    };
    let r = with_conn(&cfg, |conn| {
        let rows = crate::services::ratings::parse_knsb_csv(&bytes).map_err(describe)?;
        let list = crate::services::ratings::RatingList {
            source: clubcomp_core::vocab::RatingSource::Knsb.to_string(),
            list_date: date,
            ratings: rows,
        };
        crate::database::write(conn, |c| crate::services::ratings::push(c, &list)).map_err(describe)
    });
    match r {
        Ok(rep) => {
            println!(
                "inserted {}, updated {}, unchanged {}, unknown {}",
                rep.inserted, rep.updated, rep.unchanged, rep.unknown
            );
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}

/// Runs `clubcomp members import`: prints one line per row and the totals.
pub fn members(c: MembersCommand) -> ExitCode {
    let cfg = match config() {
        Ok(c) => c,
        Err(code) => return code,
    };
    let MembersCommand::Import {
        file,
        dry_run,
        invite,
    } = c;
    let bytes = match std::fs::read(&file) {
        Ok(b) => b,
        Err(e) => return fail(format!("cannot read {}: {e}", file.display())),
    };
    let today = chrono::Utc::now()
        .with_timezone(&cfg.club_timezone)
        .date_naive();
    let r = with_conn(&cfg, |conn| {
        let rows = crate::services::member_import::parse_csv(&bytes).map_err(describe)?;
        crate::database::write(conn, |c| {
            let now = crate::services::date::now_utc();
            crate::services::member_import::import(
                c,
                &cfg.mail,
                &rows,
                (dry_run, invite),
                today,
                now,
            )
        })
        .map_err(describe)
    });
    match r {
        Ok(rep) => {
            for row in &rep.rows {
                println!(
                    "{}: player {}, account {}{}",
                    row.name,
                    row.player.as_str(),
                    row.account.as_str(),
                    if row.invited { ", invited" } else { "" }
                );
            }
            println!(
                "{}players created {}, updated {}; accounts created {}; invited {}",
                if rep.dry_run {
                    "dry run (nothing written): "
                } else {
                    ""
                },
                rep.players_created,
                rep.players_updated,
                rep.accounts_created,
                rep.invited
            );
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}

fn describe(e: crate::error::ApiError) -> String {
    match e {
        crate::error::ApiError::Validation { errors, .. } if !errors.is_empty() => errors
            .iter()
            .map(|f| format!("{}: {}", f.field, f.message))
            .collect::<Vec<_>>()
            .join("\n"),
        other => other.to_string(),
    }
}

/// `clubcomp demo [--date YYYY-MM-DD]`
#[derive(Debug, clap::Args)]
pub struct DemoArgs {
    /// The demo's day (YYYY-MM-DD): evenings before it are played, the first on or after it
    /// is published. Default: today in the club's time zone (CLUB_TIMEZONE).
    #[arg(long)]
    pub date: Option<String>,
}

/// `clubcomp demo`
pub fn demo(args: DemoArgs) -> ExitCode {
    let cfg = match config() {
        Ok(c) => c,
        Err(code) => return code,
    };
    let today = match args.date.as_deref() {
        None => chrono::Utc::now()
            .with_timezone(&cfg.club_timezone)
            .date_naive(),
        Some(d) => match chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d") {
            Ok(d) => d,
            Err(_) => return fail(format!("--date: {d:?} is not a date (YYYY-MM-DD)")),
        },
    };
    let demo = crate::services::demo::Demo {
        today,
        admin: cfg.bootstrap_admin.clone(),
    };
    match with_conn(&cfg, |conn| {
        crate::services::demo::seed(conn, &demo).map_err(describe)
    }) {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}
