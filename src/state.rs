//! The state every request shares ([`AppState`]): the connection pool, the keys, the
//! configuration, the caches, the calculator pool and the event stream's hub, with the two
//! ways a handler runs database work (a read, a write transaction). The handlers, the club
//! pages and the extractors read it; the application (`crate::app`) builds it.

use crate::config::Config;
use crate::database::Deadline;
use crate::database::{DbConn, Pool};
use crate::error::{ApiError, ApiResult};
use crate::services::credentials::JwtKeys;
use crate::services::throttle::Throttle;
use std::sync::Arc;

/// State shared by all workers.
#[derive(Debug)]
pub struct AppState {
    /// The connection pool.
    pub pool: Pool,
    /// The key of the notification mails' unsubscribe links (derived from the JWT secret).
    pub unsubscribe: crate::services::unsubscribe::UnsubscribeKey,
    /// The key of the reminders' sign-up and sign-off links (derived from the JWT secret).
    pub attendance_links: crate::services::reminders::AttendanceLinkKey,
    /// JWT keys.
    pub jwt: JwtKeys,
    /// The configuration.
    pub config: Config,
    /// Failed-login throttling.
    pub throttle: Throttle,
    /// Login and refresh requests per client address (`LOGIN_RATE_PER_MINUTE`).
    pub login_buckets: crate::fair::Buckets,
    /// Calculator requests without a token per client address (`CALC_ANON_RATE_PER_MINUTE`).
    pub calc_buckets: crate::fair::Buckets,
    /// The access log's bound (`ACCESS_LOG`).
    pub access_log: crate::fair::AccessLog,
    /// How many argon2 password verifications logins ran (each login runs exactly one).
    pub password_checks: std::sync::atomic::AtomicU64,
    /// Route templates and their methods, for 405 answers.
    pub routes: Vec<(String, Vec<String>)>,
    /// Computed responses (standings, pairings), valid per database cache stamp.
    pub cache: crate::cache::ReadCache,
    /// Coalesced lookups of a competition's version (its cache stamps).
    pub versions: crate::cache::Versions,
    /// SQLite: the queue of this process's write transactions (first come, first served).
    /// SQLite lets one writer in at a time and makes the others retry with growing sleeps
    /// (`busy_timeout`), which under many concurrent writers made some wait for hundreds of
    /// milliseconds; queued here they wait only for the writes ahead of them. Postgres locks
    /// rows, so its writes are not queued.
    pub write_queue: Option<Arc<tokio::sync::Mutex<()>>>,
    /// The bounded pool the calculators run on (`CALC_WORKERS`, `CALC_QUEUE`,
    /// `CALC_TIME_BUDGET_MS`).
    pub calc: crate::limits::CalcPool,
    /// The club pages' Content-Security-Policy, made once from `FRAME_ANCESTORS`.
    pub page_csp: actix_web::http::header::HeaderValue,
    /// The club's name, website and logo on its pages (`CLUB_NAME`, `CLUB_URL`,
    /// `CLUB_LOGO_URL`).
    pub club_site: std::sync::Arc<clubcomp_core::club_site::ClubSite>,
    /// The headers of a page answered from the read cache besides its media type, `Vary`
    /// and ETag ([`crate::web::cached_page_headers`]), made once.
    pub page_headers: [(
        actix_web::http::header::HeaderName,
        actix_web::http::header::HeaderValue,
    ); 3],
    /// The live event stream's hub (`GET /api/v1/stream`): one reader of the event log per
    /// process and the streams it feeds.
    pub hub: crate::stream::Hub,
    /// The club night: the check-in codes' key and the self check-ins' limit.
    pub night: crate::night::Night,
}

impl AppState {
    /// Today in the club's time zone.
    pub fn today(&self) -> chrono::NaiveDate {
        chrono::Utc::now()
            .with_timezone(&self.config.club_timezone)
            .date_naive()
    }

    /// Runs blocking database work on the blocking pool; 503 when it is not done within
    /// `DB_QUERY_TIMEOUT_MS` ([`crate::database::block_until`]).
    pub async fn db<T, F>(&self, f: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut DbConn) -> ApiResult<T> + Send + 'static,
    {
        self.db_until(Deadline::after(self.config.db_query_timeout), f)
            .await
    }

    async fn db_until<T, F>(&self, deadline: Arc<Deadline>, f: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut DbConn) -> ApiResult<T> + Send + 'static,
    {
        let pool = self.pool.clone();
        // in the request's span: a panic is logged with its request id (crate::panics)
        let span = tracing::Span::current();
        // the request's reader goes with its work: the store shows names as they may see them
        let audience = crate::reader::current();
        let (r, bumped) = crate::database::block_until(deadline, move || {
            let _span = span.enter();
            let _reader = clubcomp_core::publication::Reader::set(audience);
            crate::database::take_raised();
            let r = pool
                .get()
                .map_err(ApiError::from)
                .and_then(|mut c| f(&mut c));
            if r.is_ok() {
                // work that was stuck on a silent network and finished closes the circuit
                pool.circuit().answered();
            }
            (r, crate::database::take_raised())
        })
        .await?;
        // a write that changed what cached reads show answers only once no process can still
        // serve a version looked up before its commit (crate::cache::LookupDb::reusable); one
        // that failed after a bump may have committed part of its work, so it waits too
        if bumped && let Some(wait) = self.versions.db.write_wait() {
            actix_web::rt::time::sleep(wait).await;
        }
        r
    }

    /// Runs blocking database work in one write transaction (all or nothing), which raises
    /// the cache stamps of what the work touched as it commits ([`crate::database::write`]).
    /// Within `DB_QUERY_TIMEOUT_MS` (the wait for the write queue included), or 503, and then
    /// it does not commit ([`crate::database::may_commit`]).
    pub async fn tx<T, F>(&self, f: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut DbConn) -> ApiResult<T> + Send + 'static,
    {
        let deadline = Deadline::after(self.config.db_query_timeout);
        // the wait for a place in the queue counts towards the request's wait
        let turn = match &self.write_queue {
            Some(q) => Some(crate::database::until(&deadline, q.clone().lock_owned()).await?),
            None => None,
        };
        let hub = self.hub.clone();
        self.db_until(deadline, move |conn| {
            // the turn is held until the transaction ended, even if the client went away
            let _turn = turn;
            let r = crate::database::write(conn, f);
            // the stream's reader reads what this write recorded at once
            hub.wake();
            r
        })
        .await
    }
}
