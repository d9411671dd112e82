//! Database access: one binary, two backends chosen by the URL scheme (`sqlite://…` or
//! `postgres://…`), an r2d2 pool over `diesel::MultiConnection`, embedded migrations per
//! backend, and the one helper that moves blocking diesel work off the async workers.

pub mod models;
pub mod schema;

use diesel::prelude::*;
use diesel::r2d2::R2D2Connection;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use std::time::Duration;

/// The connection type: the derive generates `MultiBackend` beside it, so it has its own module.
pub mod conn {
    /// A connection to either backend.
    #[derive(diesel::MultiConnection)]
    pub enum DbConn {
        /// PostgreSQL (production).
        Pg(diesel::PgConnection),
        /// SQLite (the zero-setup default).
        Sqlite(diesel::SqliteConnection),
    }
}
pub use conn::{DbConn, MultiBackend};

/// The pool type used everywhere.
pub type Pool = r2d2::Pool<Manager>;
/// A pooled connection.
pub type PooledConn = r2d2::PooledConnection<Manager>;

/// Migrations of the PostgreSQL backend.
pub const PG_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");
/// Migrations of the SQLite backend (same names as the PostgreSQL ones).
pub const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");

/// Which backend a database URL names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// `postgres://` or `postgresql://`
    Postgres,
    /// `sqlite://PATH`, `sqlite:PATH` or `file:…`
    Sqlite,
}

/// A database URL split into its backend and what the driver needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DbTarget {
    /// The backend.
    pub backend: Backend,
    /// The URL for libpq, or the file path (or `file:` URI) for SQLite.
    pub conn_str: String,
}

impl DbTarget {
    /// Classifies a `DATABASE_URL` by its scheme (never by trial: SQLite accepts any path).
    pub fn parse(url: &str) -> Result<DbTarget, String> {
        let url = url.trim();
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(DbTarget {
                backend: Backend::Postgres,
                conn_str: url.to_string(),
            });
        }
        if let Some(path) = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
        {
            if path.is_empty() {
                return Err("DATABASE_URL: the sqlite URL names no file".into());
            }
            return Ok(DbTarget {
                backend: Backend::Sqlite,
                conn_str: path.to_string(),
            });
        }
        if url.starts_with("file:") {
            return Ok(DbTarget {
                backend: Backend::Sqlite,
                conn_str: url.to_string(),
            });
        }
        Err(format!(
            "DATABASE_URL must start with sqlite:// or postgres:// (got {:?})",
            url.split(':').next().unwrap_or("")
        ))
    }

    /// Opens one connection of the right variant, keeping the driver's real error message.
    pub fn connect(&self) -> Result<DbConn, ConnectionError> {
        match self.backend {
            Backend::Postgres => Ok(DbConn::Pg(PgConnection::establish(&self.conn_str)?)),
            Backend::Sqlite => {
                let mut c = SqliteConnection::establish(&self.conn_str)?;
                // Per connection (docs/architecture.md): foreign keys, WAL, wait on a busy writer.
                diesel::connection::SimpleConnection::batch_execute(
                    &mut c,
                    "PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000; \
                     PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;",
                )
                .map_err(ConnectionError::CouldntSetupConfiguration)?;
                Ok(DbConn::Sqlite(c))
            }
        }
    }
}

/// r2d2 manager that builds the variant from the URL scheme.
#[derive(Debug, Clone)]
pub struct Manager {
    target: DbTarget,
}

/// A connection error from the pool.
#[derive(Debug, thiserror::Error)]
pub enum ManagerError {
    /// Could not connect.
    #[error("{0}")]
    Connection(#[from] ConnectionError),
    /// The liveness check failed.
    #[error("{0}")]
    Query(#[from] diesel::result::Error),
}

impl r2d2::ManageConnection for Manager {
    type Connection = DbConn;
    type Error = ManagerError;

    fn connect(&self) -> Result<DbConn, ManagerError> {
        Ok(self.target.connect()?)
    }

    fn is_valid(&self, conn: &mut DbConn) -> Result<(), ManagerError> {
        Ok(conn.ping()?)
    }

    fn has_broken(&self, conn: &mut DbConn) -> bool {
        conn.is_broken()
    }
}

/// Builds the pool; fails fast with the driver's own message when the database is unreachable.
pub fn build_pool(url: &str, size: u32) -> Result<Pool, String> {
    let target = DbTarget::parse(url)?;
    if target.backend == Backend::Sqlite
        && !target.conn_str.starts_with("file:")
        && let Some(parent) = std::path::Path::new(&target.conn_str).parent()
        && !parent.as_os_str().is_empty()
    {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    // One direct attempt first, so the real cause is reported instead of a pool time-out.
    target
        .connect()
        .map_err(|e| format!("cannot connect to the database: {e}"))?;
    r2d2::Pool::builder()
        .max_size(size)
        .connection_timeout(Duration::from_secs(10))
        .build(Manager { target })
        .map_err(|e| format!("cannot build the connection pool: {e}"))
}

/// Runs pending migrations of the connection's backend; returns the versions applied.
pub fn run_migrations(conn: &mut DbConn) -> Result<Vec<String>, String> {
    let m = migrations_for(conn);
    conn.run_pending_migrations(m)
        .map(|v| v.into_iter().map(|x| x.to_string()).collect())
        .map_err(|e| format!("migration failed: {e}"))
}

/// The embedded migrations of the connection's backend.
pub fn migrations_for(conn: &DbConn) -> EmbeddedMigrations {
    match conn {
        DbConn::Pg(_) => PG_MIGRATIONS,
        DbConn::Sqlite(_) => SQLITE_MIGRATIONS,
    }
}

/// The same diesel expression, type-checked once per concrete backend (for upserts and other
/// constructs the MultiBackend does not support).
#[macro_export]
macro_rules! per_backend {
    ($conn:expr, |$c:ident| $body:expr) => {
        match $conn {
            $crate::db::DbConn::Pg($c) => $body,
            $crate::db::DbConn::Sqlite($c) => $body,
        }
    };
}

/// On SQLite, makes the current transaction a write transaction at once (like `BEGIN
/// IMMEDIATE`): a deferred transaction that reads first and writes later fails with "database
/// is locked" when another writer committed in between, without waiting; taking the write lock
/// first makes concurrent writers queue on the busy timeout instead. A no-op on Postgres.
pub fn take_write_lock(conn: &mut DbConn) -> QueryResult<()> {
    if let DbConn::Sqlite(c) = conn {
        diesel::sql_query("UPDATE cache_stamps SET stamp = stamp WHERE scope = '#write-lock'")
            .execute(c)?;
    }
    Ok(())
}

/// Current UTC time truncated to microseconds (Postgres `TIMESTAMP` precision).
pub fn now_utc() -> chrono::NaiveDateTime {
    use chrono::{SubsecRound, Utc};
    Utc::now().naive_utc().trunc_subsecs(6)
}
