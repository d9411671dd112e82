//! Database access: one binary, two backends chosen by the URL scheme (`sqlite://…` or
//! `postgres://…`), an r2d2 pool over `diesel::MultiConnection`, embedded migrations per
//! backend, and the bounded waits on it ([`waits`]: each connection's timeouts, and the one
//! helper that moves blocking diesel work off the async workers and bounds the wait for it).

pub mod models;
pub mod schema;
pub mod stamps;
pub mod waits;

use diesel::prelude::*;
use diesel::r2d2::R2D2Connection;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

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

/// A pooled connection.
pub type PooledConn = r2d2::PooledConnection<Manager>;

/// The connection pool used everywhere: r2d2 with a short wait, behind a [`Circuit`].
#[derive(Debug, Clone)]
pub struct Pool {
    inner: r2d2::Pool<Manager>,
    circuit: Arc<Circuit>,
}

/// Why no connection could be had.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    /// The circuit is open: recent connection attempts failed, so none is made now.
    #[error("the database could not be reached a moment ago")]
    CircuitOpen,
    /// No connection became free or could be made within the pool's wait.
    #[error("{0}")]
    Timeout(#[from] r2d2::Error),
}

/// A missing connection answers 503: the database is unavailable.
impl From<PoolError> for crate::error::ApiError {
    fn from(e: PoolError) -> crate::error::ApiError {
        match e {
            PoolError::Timeout(e) => e.into(),
            PoolError::CircuitOpen => {
                crate::error::ApiError::Unavailable(crate::error::UNAVAILABLE.into())
            }
        }
    }
}

impl Pool {
    /// A connection, or an error at once while the circuit is open, or after the pool's wait.
    pub fn get(&self) -> Result<PooledConn, PoolError> {
        if self.circuit.is_open() {
            return Err(PoolError::CircuitOpen);
        }
        Ok(self.inner.get()?)
    }

    /// The pool's circuit.
    pub fn circuit(&self) -> &Circuit {
        &self.circuit
    }

    /// Connections made, and how many of them are idle (not held by any work).
    pub fn connections(&self) -> (u32, u32) {
        let s = self.inner.state();
        (s.connections, s.idle_connections)
    }
}

/// Fails fast while the database cannot be reached. After [`Circuit::THRESHOLD`] connection
/// attempts failed in a row (the pool's own and the requests'), every request is refused at
/// once for [`Circuit::COOLDOWN`] instead of waiting on the pool; then requests try again: one
/// successful connection closes the circuit, another failure opens it again.
#[derive(Debug)]
pub struct Circuit {
    failures: AtomicU32,
    /// Milliseconds after `start` until which the circuit is open (0: closed).
    open_until: AtomicU64,
    start: Instant,
    /// Connection attempts made (successful or not).
    attempts: AtomicU64,
}

impl Default for Circuit {
    fn default() -> Circuit {
        Circuit {
            failures: AtomicU32::new(0),
            open_until: AtomicU64::new(0),
            start: Instant::now(),
            attempts: AtomicU64::new(0),
        }
    }
}

impl Circuit {
    /// Consecutive failed connection attempts that open the circuit.
    pub const THRESHOLD: u32 = 3;
    /// How long an open circuit refuses at once before requests try again.
    pub const COOLDOWN: Duration = Duration::from_secs(2);

    fn now_ms(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Records the outcome of a connection attempt.
    pub fn record(&self, connected: bool) {
        self.attempts.fetch_add(1, Ordering::Relaxed);
        if connected {
            self.failures.store(0, Ordering::Relaxed);
            self.open_until.store(0, Ordering::Relaxed);
        } else if self.failures.fetch_add(1, Ordering::Relaxed) + 1 >= Self::THRESHOLD {
            let until = self.now_ms() + Self::COOLDOWN.as_millis() as u64;
            self.open_until.store(until, Ordering::Relaxed);
        }
    }

    /// Whether requests are refused at once now.
    pub fn is_open(&self) -> bool {
        self.now_ms() < self.open_until.load(Ordering::Relaxed)
    }

    /// Records that the database answered on a connection made earlier: it is reachable
    /// again, so the circuit closes (not counted as a connection attempt).
    pub fn answered(&self) {
        if self.failures.load(Ordering::Relaxed) != 0 {
            self.failures.store(0, Ordering::Relaxed);
            self.open_until.store(0, Ordering::Relaxed);
        }
    }

    /// Connection attempts made so far.
    pub fn attempts(&self) -> u64 {
        self.attempts.load(Ordering::Relaxed)
    }
}

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
    /// The URL for libpq (with the connection settings' parameters it does not set itself,
    /// [`waits::ConnSettings::pg_url`]), or the file path (or `file:` URI) for SQLite.
    pub conn_str: String,
    /// How each connection bounds its waits.
    pub settings: waits::ConnSettings,
}

impl DbTarget {
    /// Classifies a `DATABASE_URL` by its scheme (never by trial: SQLite accepts any path),
    /// with the default connection settings.
    pub fn parse(url: &str) -> Result<DbTarget, String> {
        DbTarget::parse_with(url, waits::ConnSettings::default())
    }

    /// [`DbTarget::parse`] with the connection settings `settings` (`DB_*` settings).
    pub fn parse_with(url: &str, settings: waits::ConnSettings) -> Result<DbTarget, String> {
        let url = url.trim();
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(DbTarget {
                backend: Backend::Postgres,
                conn_str: settings.pg_url(url),
                settings,
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
                settings,
            });
        }
        if url.starts_with("file:") {
            return Ok(DbTarget {
                backend: Backend::Sqlite,
                conn_str: url.to_string(),
                settings,
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
                // Per connection: foreign keys, WAL, how long to wait on a busy writer, and
                // how often to sync (docs/operations.md#bounded-database-waits).
                diesel::connection::SimpleConnection::batch_execute(
                    &mut c,
                    &self.settings.sqlite_pragmas(),
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
    circuit: Arc<Circuit>,
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
        let c = self.target.connect();
        self.circuit.record(c.is_ok());
        Ok(c?)
    }

    fn is_valid(&self, conn: &mut DbConn) -> Result<(), ManagerError> {
        conn.ping()?;
        self.circuit.answered();
        Ok(())
    }

    fn has_broken(&self, conn: &mut DbConn) -> bool {
        conn.is_broken()
    }
}

/// Builds the pool; fails fast with the driver's own message when the database is unreachable.
/// A request waits at most `wait` for a connection (then 503).
pub fn build_pool(url: &str, size: u32, wait: Duration) -> Result<Pool, String> {
    build_pool_with(url, size, wait, waits::ConnSettings::default())
}

/// [`build_pool`] whose connections bound their waits by `settings`.
pub fn build_pool_with(
    url: &str,
    size: u32,
    wait: Duration,
    settings: waits::ConnSettings,
) -> Result<Pool, String> {
    let target = DbTarget::parse_with(url, settings)?;
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
    Ok(pool_unchecked(target, size, wait))
}

/// A pool over `target` that makes its connections later (none is tried now).
pub fn pool_unchecked(target: DbTarget, size: u32, wait: Duration) -> Pool {
    let circuit = Arc::new(Circuit::default());
    let inner = r2d2::Pool::builder()
        .max_size(size)
        .connection_timeout(wait)
        .build_unchecked(Manager {
            target,
            circuit: circuit.clone(),
        });
    Pool { inner, circuit }
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
            $crate::store::DbConn::Pg($c) => $body,
            $crate::store::DbConn::Sqlite($c) => $body,
        }
    };
}

/// One page of a list: `(rows, total)`, the rows `$query` finds ordered by `$order` (a key
/// that ends with the id, so a page never shifts under equal keys), `$limit` of them from
/// `$offset`, read as `$row`, and how many it finds in all. `$query` builds the filtered query;
/// it is built twice, once for the count and once for the page, so both see the same filter
/// (run it in one transaction for both to see the same rows). A query error returns from the
/// enclosing function. Needs `diesel::prelude::*` where it is used.
#[macro_export]
macro_rules! page_of {
    ($conn:expr, $query:expr, order: $order:expr, rows: $row:ty, $limit:expr, $offset:expr) => {{
        let total: i64 = $query.count().get_result($conn)?;
        let rows: Vec<$row> = $query
            .order($order)
            .limit($limit)
            .offset($offset)
            .select(<$row>::as_select())
            .load($conn)?;
        (rows, total)
    }};
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

/// Runs `f` in one transaction, so that its reads see one snapshot of the database.
pub fn snapshot<T, E>(
    conn: &mut DbConn,
    f: impl FnOnce(&mut DbConn) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    conn.transaction(f)
}

/// Current UTC time truncated to microseconds (Postgres `TIMESTAMP` precision).
pub fn now_utc() -> chrono::NaiveDateTime {
    use chrono::{SubsecRound, Utc};
    Utc::now().naive_utc().trunc_subsecs(6)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Postgres server that is not there (a port nobody listens on): the pool gives up
    /// after its wait, the failed attempts open the circuit, and then a request is refused
    /// without another connection attempt until the cool-down is over.
    #[test]
    fn an_unreachable_database_opens_the_circuit() {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let target = DbTarget::parse(&format!("postgres://nobody@127.0.0.1:{port}/none")).unwrap();
        let pool = pool_unchecked(target, 2, Duration::from_millis(300));
        let err = pool.get().err().expect("no server");
        assert!(matches!(err, PoolError::Timeout(_)), "{err}");
        while !pool.circuit().is_open() {
            assert!(pool.get().is_err());
        }
        let attempts = pool.circuit().attempts();
        assert!(attempts >= u64::from(Circuit::THRESHOLD));
        assert!(matches!(pool.get(), Err(PoolError::CircuitOpen)));
        assert!(matches!(pool.get(), Err(PoolError::CircuitOpen)));
        // the pool's own background attempts may go on; a refused request adds none
        let c = Circuit::default();
        for _ in 0..Circuit::THRESHOLD - 1 {
            c.record(false);
        }
        assert!(!c.is_open(), "below the threshold");
        c.record(false);
        assert!(c.is_open());
        c.record(true);
        assert!(!c.is_open(), "a connection closes it");
    }
}
