//! Configuration: one typed struct read from the environment (and an optional `.env`),
//! validated at start-up with messages that name the variable. `.env.example` lists them all.

use std::net::SocketAddr;
use std::path::PathBuf;

/// The service configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// `DATABASE_URL`: `sqlite://PATH` (default `sqlite://data/clubcomp.sqlite3`) or `postgres://…`.
    pub database_url: String,
    /// `BIND_ADDR`: where to listen (default `127.0.0.1:8080`).
    pub bind_addr: SocketAddr,
    /// `DATA_DIR`: where the generated JWT secret is kept (default `data`).
    pub data_dir: PathBuf,
    /// `JWT_SECRET`: HS256 key, at least 32 bytes; generated into `DATA_DIR/jwt_secret` if unset.
    pub jwt_secret: Option<String>,
    /// `JWT_ISSUER` (default `clubcomp`).
    pub jwt_issuer: String,
    /// `JWT_TTL_MINUTES`: lifetime of access tokens (default 15); a client stays signed in
    /// with its refresh token.
    pub jwt_ttl_minutes: i64,
    /// `REFRESH_TTL_DAYS`: lifetime of each refresh token (default 30); every refresh issues
    /// a new one, so an app used within this time stays signed in.
    pub refresh_ttl: chrono::Duration,
    /// `REFRESH_MAX_SESSIONS`: signed-in devices (refresh-token families) per account
    /// (default 20); a login beyond it ends the least recently used one.
    pub refresh_max_sessions: usize,
    /// `REFRESH_GRACE_SECONDS` (default 30, 0–300; 0: none): a refresh retried this long after
    /// it with the token it spent answers the same new tokens instead of ending the session
    /// (docs/decisions/0387-refresh-grace.md).
    pub refresh_grace: chrono::Duration,
    /// `REQUIRE_IF_MATCH` (default false): a write to a versioned resource without `If-Match`
    /// is refused (428, `version-required`) instead of applied to whatever version is current.
    pub require_if_match: bool,
    /// `BOOTSTRAP_ADMIN_EMAIL` / `BOOTSTRAP_ADMIN_PASSWORD`: an admin created on first start.
    pub bootstrap_admin: Option<(String, String)>,
    /// `CORS_ORIGINS`: comma-separated allowed origins (empty: none).
    pub cors_origins: Vec<String>,
    /// `DB_POOL_SIZE` (default 8).
    pub db_pool_size: u32,
    /// `DB_POOL_TIMEOUT_MS` (default 1000): how long a request waits for a database
    /// connection before it is answered 503 with `Retry-After`.
    pub db_pool_timeout: std::time::Duration,
    /// `DB_QUERY_TIMEOUT_MS` (default 5000): how long a request waits for its database work
    /// (the connection, the queries, the commit) before it is answered 503; work still
    /// running then may no longer commit (`docs/operations.md#bounded-database-waits`).
    pub db_query_timeout: std::time::Duration,
    /// `DB_CONNECT_TIMEOUT_SECS`, `DB_KEEPALIVES_*`, `DB_TCP_USER_TIMEOUT_MS`,
    /// `DB_STATEMENT_TIMEOUT_MS`, `DB_LOCK_TIMEOUT_MS`, `DB_IDLE_IN_TRANSACTION_TIMEOUT_MS`,
    /// `DB_BUSY_TIMEOUT_MS`, `SQLITE_SYNCHRONOUS`: how each connection bounds its waits.
    pub db_conn: crate::store::waits::ConnSettings,
    /// `MAX_BODY_BYTES`: largest accepted request body (default 8 MiB: a full KNSB list fits).
    pub max_body_bytes: usize,
    /// `LOG_FORMAT`: `text` (default) or `json`.
    pub log_json: bool,
    /// `CLUB_TIMEZONE`: the club's time zone for deadlines (default `Europe/Amsterdam`).
    pub club_timezone: chrono_tz::Tz,
    /// `LOGIN_MAX_FAILURES`: failed logins per account from one address within 15 minutes
    /// before 429 (default 5; 4× that per address, 20× per account from all addresses).
    pub login_max_failures: u32,
    /// `TRUSTED_PROXIES`: comma-separated addresses of reverse proxies or load balancers in
    /// front of the service (default none). A request from one of them is counted, for login
    /// throttling, against the client address its `X-Forwarded-For` names.
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// `READ_VERSION_REUSE_US` (default 1000): for how many microseconds a
    /// competition's looked-up version (its cache stamps) serves further reads without a
    /// query; every write that changes a cached read waits as long (plus 1 % and 100 µs)
    /// before it answers, so a read never shows less than the writes answered before it
    /// arrived, in any process. 0: every read waits for a lookup of its own.
    pub read_version_reuse: std::time::Duration,
    /// `LIMIT_*`: the largest inputs the engines accept (see `docs/operations.md`,
    /// "Work limits").
    pub limits: crate::limits::WorkLimits,
    /// `CALC_WORKERS`: calculations running at once (default half the cores, at least 1).
    pub calc_workers: usize,
    /// `CALC_QUEUE`: calculations waiting for a worker before 503 (default four times the
    /// workers).
    pub calc_queue: usize,
    /// `CALC_TIME_BUDGET_MS`: run time of one calculation before it is stopped (default
    /// 10000).
    pub calc_time_budget: std::time::Duration,
    /// `FRAME_ANCESTORS`: the sites that may show the club pages (`/club/…`) in a frame, as
    /// the CSP `frame-ancestors` sources, space-separated (`'self'`, `https://club.example`,
    /// `https://*.club.example`); default `'none'`: no site may.
    pub frame_ancestors: String,
    /// `CLUB_NAME`, `CLUB_URL`, `CLUB_LOGO_URL`: the club on its pages.
    pub club_site: crate::club_site::ClubSite,
    /// `EVENT_RETENTION_DAYS` (default 30, 1–3650): how long the event log keeps an event
    /// (the changes feed); older ones are purged in batches of 1000 once a minute.
    pub event_retention_days: u32,
    /// `WEBHOOKS`: `on` (default) runs the webhook delivery worker in this process; `off` does
    /// not (subscriptions are still kept and deliveries queued by a process that runs it).
    pub webhooks: bool,
    /// `WEBHOOK_ALLOW_PRIVATE` (default `false`): whether deliveries may go to loopback,
    /// private, link-local and other non-public addresses.
    pub webhook_allow_private: bool,
    /// `WEBHOOK_TIMEOUT_SECS` (default 10, 1–60): the deadline of one delivery attempt
    /// (connecting, sending, reading the answer).
    pub webhook_timeout: std::time::Duration,
    /// `WEBHOOK_MAX_ATTEMPTS` (default 10, 1–50): attempts before a delivery is marked failed.
    pub webhook_max_attempts: i32,
    /// `WEBHOOK_BACKOFF_BASE_MS` (default 5000, 10–3600000): the wait after a first failed
    /// attempt; it doubles with each further one.
    pub webhook_backoff_base: std::time::Duration,
    /// `WEBHOOK_BACKOFF_CAP_SECS` (default 3600, 1–86400): the longest wait between attempts.
    pub webhook_backoff_cap: std::time::Duration,
    /// `WEBHOOK_POLL_MS` (default 500, 10–60000): how often the worker looks for new events
    /// and due deliveries.
    pub webhook_poll: std::time::Duration,
    /// The mail settings (`SMTP_URL`, `MAIL_*`, `PUBLIC_URL`, `CLUB_NAME`).
    pub mail: crate::mail_config::MailSettings,
    /// `STREAM_HEARTBEAT_SECS` (default 15, 1–300): how often an open event stream sends a
    /// comment line when it has nothing else to send, so proxies keep the connection.
    pub stream_heartbeat: std::time::Duration,
    /// `STREAM_MAX_CLIENTS` (default 1000, 1–100000): event streams open at once per process;
    /// one more is answered 503 with `Retry-After`.
    pub stream_max_clients: usize,
    /// `STREAM_BUFFER` (default 1024, 1–65536): the events the stream hub holds for streams
    /// that have not sent them yet; a stream that falls further behind is cut off (it resumes
    /// with `Last-Event-ID`).
    pub stream_buffer: usize,
    /// `STREAM_MAX_SECONDS` (default 3600, 1–86400): how long one event stream stays open;
    /// then it ends and the client resumes with `Last-Event-ID`.
    pub stream_max_duration: std::time::Duration,
    /// `STREAM_MAX_ANON_PER_ADDRESS` (default 20, 1–100000): event streams open at once
    /// without a token from one client address (an IPv6 address by its /64); one more is
    /// answered 429.
    pub stream_max_anon_per_address: usize,
    /// `STREAM_SIGNED_IN_SLOTS` (default 100, below `STREAM_MAX_CLIENTS`): of the
    /// `STREAM_MAX_CLIENTS` streams, the ones only callers with a valid token may take, so
    /// that anonymous streams never fill the hub.
    pub stream_signed_in_slots: usize,
    /// `LOGIN_RATE_PER_MINUTE` (default 30, 0 = no limit, at most 100000): login and refresh
    /// requests per client address per minute, in bursts of at most a minute's worth; more
    /// are answered 429 with `Retry-After`.
    pub login_rate_per_minute: u32,
    /// `CALC_ANON_RATE_PER_MINUTE` (default 60, 0 = no limit, at most 100000): calculator
    /// requests without a valid token per client address per minute (bursts of a minute's
    /// worth); more are answered 429 with `Retry-After`.
    pub calc_anon_rate_per_minute: u32,
    /// `CALC_ANON_MAX_BODY_BYTES` (default 256 KiB, from 1024 to `MAX_BODY_BYTES`): the
    /// largest body of a calculator request without a valid token (413 beyond it); signed-in
    /// callers keep `MAX_BODY_BYTES`.
    pub calc_anon_max_body_bytes: usize,
    /// `ACCESS_LOG` (default `rate:50`): which answers get a line in the log (see
    /// [`AccessLogMode`]).
    pub access_log: AccessLogMode,
}

/// Which answers the access log writes a line for (`ACCESS_LOG`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessLogMode {
    /// `all`: every answer (unbounded under a flood).
    All,
    /// `errors`: the answers with a status from 400.
    Errors,
    /// `sample:N`: one answer in N (N from 1 to 1000000).
    Sample(u64),
    /// `rate:N`: at most N lines a second (N from 1 to 100000), then a line saying how many
    /// were left out.
    Rate(u64),
    /// `off`: none.
    Off,
}

impl std::str::FromStr for AccessLogMode {
    type Err = String;

    fn from_str(v: &str) -> Result<AccessLogMode, String> {
        let v = v.trim().to_ascii_lowercase();
        let number = |n: &str, max: u64| match n.trim().parse::<u64>() {
            Ok(n) if (1..=max).contains(&n) => Ok(n),
            _ => Err(format!("{n:?} is not a number from 1 to {max}")),
        };
        match v.split_once(':') {
            None if v == "all" => Ok(AccessLogMode::All),
            None if v == "errors" => Ok(AccessLogMode::Errors),
            None if v == "off" => Ok(AccessLogMode::Off),
            Some(("sample", n)) => number(n, 1_000_000).map(AccessLogMode::Sample),
            Some(("rate", n)) => number(n, 100_000).map(AccessLogMode::Rate),
            _ => Err(format!(
                "{v:?} is not all, errors, off, sample:N (one in N) or rate:N (N a second)"
            )),
        }
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            database_url: "sqlite://data/clubcomp.sqlite3".into(),
            bind_addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            data_dir: PathBuf::from("data"),
            jwt_secret: None,
            jwt_issuer: "clubcomp".into(),
            jwt_ttl_minutes: 15,
            refresh_ttl: chrono::Duration::days(30),
            refresh_max_sessions: 20,
            refresh_grace: chrono::Duration::seconds(30),
            require_if_match: false,
            bootstrap_admin: None,
            cors_origins: vec![],
            db_pool_size: 8,
            db_pool_timeout: std::time::Duration::from_millis(1000),
            db_query_timeout: std::time::Duration::from_millis(5000),
            db_conn: crate::store::waits::ConnSettings::default(),
            max_body_bytes: 8 << 20,
            log_json: false,
            club_timezone: chrono_tz::Europe::Amsterdam,
            login_max_failures: 5,
            trusted_proxies: vec![],
            read_version_reuse: std::time::Duration::from_millis(1),
            limits: crate::limits::WorkLimits::default(),
            calc_workers: crate::limits::CalcPool::default_workers(),
            calc_queue: 4 * crate::limits::CalcPool::default_workers(),
            calc_time_budget: std::time::Duration::from_secs(10),
            frame_ancestors: "'none'".into(),
            club_site: crate::club_site::ClubSite::default(),
            event_retention_days: 30,
            webhooks: true,
            webhook_allow_private: false,
            webhook_timeout: std::time::Duration::from_secs(10),
            webhook_max_attempts: 10,
            webhook_backoff_base: std::time::Duration::from_secs(5),
            webhook_backoff_cap: std::time::Duration::from_secs(3600),
            webhook_poll: std::time::Duration::from_millis(500),
            mail: crate::mail_config::MailSettings::default(),
            stream_heartbeat: std::time::Duration::from_secs(15),
            stream_max_clients: 1000,
            stream_buffer: 1024,
            stream_max_duration: std::time::Duration::from_secs(3600),
            stream_max_anon_per_address: 20,
            stream_signed_in_slots: 100,
            login_rate_per_minute: 30,
            calc_anon_rate_per_minute: 60,
            calc_anon_max_body_bytes: 256 << 10,
            access_log: AccessLogMode::Rate(50),
        }
    }
}

impl Config {
    /// Sets the club's name, website and logo, for the pages and the mails alike: one reading
    /// of `CLUB_NAME` (a name with a line break is refused there, so none reaches a mail header).
    pub fn set_club_site(&mut self, site: crate::club_site::ClubSite) {
        self.mail.club_name = site.name.clone();
        self.club_site = site;
    }

    /// Reads `.env` (if present) and the environment; every problem is reported at once.
    pub fn from_env() -> Result<Config, Vec<String>> {
        let _ = dotenvy::dotenv();
        Config::from_lookup(|k| std::env::var(k).ok())
    }

    /// Builds the configuration from any variable lookup (tests pass a map).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Config, Vec<String>> {
        let mut c = Config::default();
        let mut errs = Vec::new();
        let nonempty = |k: &str| get(k).filter(|v| !v.trim().is_empty());
        if let Some(v) = nonempty("DATABASE_URL") {
            c.database_url = v;
        }
        if let Err(e) = crate::store::DbTarget::parse(&c.database_url) {
            errs.push(e);
        }
        if let Some(v) = nonempty("BIND_ADDR") {
            match v.parse() {
                Ok(a) => c.bind_addr = a,
                Err(_) => errs.push(format!(
                    "BIND_ADDR: {v:?} is not HOST:PORT (e.g. 127.0.0.1:8080)"
                )),
            }
        }
        if let Some(v) = nonempty("DATA_DIR") {
            c.data_dir = PathBuf::from(v);
        }
        if let Some(v) = nonempty("JWT_SECRET") {
            if v.len() < 32 {
                errs.push("JWT_SECRET: must be at least 32 bytes".into());
            }
            c.jwt_secret = Some(v);
        }
        if let Some(v) = nonempty("JWT_ISSUER") {
            c.jwt_issuer = v;
        }
        parse_num(
            &nonempty,
            "JWT_TTL_MINUTES",
            1,
            60 * 24 * 90,
            &mut c.jwt_ttl_minutes,
            &mut errs,
        );
        let mut refresh_days = c.refresh_ttl.num_days();
        parse_num(
            &nonempty,
            "REFRESH_TTL_DAYS",
            1,
            365,
            &mut refresh_days,
            &mut errs,
        );
        c.refresh_ttl = chrono::Duration::days(refresh_days);
        parse_num(
            &nonempty,
            "REFRESH_MAX_SESSIONS",
            1,
            1000,
            &mut c.refresh_max_sessions,
            &mut errs,
        );
        let mut grace = c.refresh_grace.num_seconds();
        parse_num(
            &nonempty,
            "REFRESH_GRACE_SECONDS",
            0,
            300,
            &mut grace,
            &mut errs,
        );
        c.refresh_grace = chrono::Duration::seconds(grace);
        parse_flag(
            &nonempty,
            "REQUIRE_IF_MATCH",
            &mut c.require_if_match,
            &mut errs,
        );
        parse_num(
            &nonempty,
            "DB_POOL_SIZE",
            1,
            256,
            &mut c.db_pool_size,
            &mut errs,
        );
        let mut pool_ms = c.db_pool_timeout.as_millis() as u64;
        parse_num(
            &nonempty,
            "DB_POOL_TIMEOUT_MS",
            50,
            60_000,
            &mut pool_ms,
            &mut errs,
        );
        c.db_pool_timeout = std::time::Duration::from_millis(pool_ms);
        read_db_waits(&nonempty, &mut c, &mut errs);
        parse_num(
            &nonempty,
            "MAX_BODY_BYTES",
            1024,
            64 << 20,
            &mut c.max_body_bytes,
            &mut errs,
        );
        parse_num(
            &nonempty,
            "LOGIN_MAX_FAILURES",
            1,
            1000,
            &mut c.login_max_failures,
            &mut errs,
        );
        let mut reuse_us = c.read_version_reuse.as_micros() as u64;
        parse_num(
            &nonempty,
            "READ_VERSION_REUSE_US",
            0,
            100_000,
            &mut reuse_us,
            &mut errs,
        );
        c.read_version_reuse = std::time::Duration::from_micros(reuse_us);
        read_limits(&nonempty, &mut c.limits, &mut errs);
        parse_num(
            &nonempty,
            "EVENT_RETENTION_DAYS",
            1,
            3650,
            &mut c.event_retention_days,
            &mut errs,
        );
        read_webhooks(&nonempty, &mut c, &mut errs);
        crate::mail_config::read(&nonempty, &mut c.mail, &mut errs);
        let mut heartbeat = c.stream_heartbeat.as_secs();
        parse_num(
            &nonempty,
            "STREAM_HEARTBEAT_SECS",
            1,
            300,
            &mut heartbeat,
            &mut errs,
        );
        c.stream_heartbeat = std::time::Duration::from_secs(heartbeat);
        let mut stream_secs = c.stream_max_duration.as_secs();
        parse_num(
            &nonempty,
            "STREAM_MAX_SECONDS",
            1,
            86_400,
            &mut stream_secs,
            &mut errs,
        );
        c.stream_max_duration = std::time::Duration::from_secs(stream_secs);
        for (key, min, max, out) in [
            ("STREAM_MAX_CLIENTS", 1, 100_000, &mut c.stream_max_clients),
            ("STREAM_BUFFER", 1, 65_536, &mut c.stream_buffer),
            ("CALC_WORKERS", 1, 256, &mut c.calc_workers),
            ("CALC_QUEUE", 0, 10_000, &mut c.calc_queue),
        ] {
            parse_num(&nonempty, key, min, max, out, &mut errs);
        }
        read_fair_shares(&nonempty, &mut c, &mut errs);
        let mut budget_ms = c.calc_time_budget.as_millis() as u64;
        parse_num(
            &nonempty,
            "CALC_TIME_BUDGET_MS",
            100,
            600_000,
            &mut budget_ms,
            &mut errs,
        );
        c.calc_time_budget = std::time::Duration::from_millis(budget_ms);
        match (
            nonempty("BOOTSTRAP_ADMIN_EMAIL"),
            nonempty("BOOTSTRAP_ADMIN_PASSWORD"),
        ) {
            (Some(e), Some(p)) => {
                if p.len() < 8 {
                    errs.push("BOOTSTRAP_ADMIN_PASSWORD: must be at least 8 characters".into());
                }
                c.bootstrap_admin = Some((e, p));
            }
            (None, None) => {}
            _ => errs.push(
                "BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD must be set together".into(),
            ),
        }
        if let Some(v) = nonempty("CORS_ORIGINS") {
            c.cors_origins = v
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
        }
        if let Some(v) = nonempty("TRUSTED_PROXIES") {
            for a in v.split(',').map(str::trim).filter(|a| !a.is_empty()) {
                match a.parse() {
                    Ok(ip) => c.trusted_proxies.push(ip),
                    Err(_) => errs.push(format!("TRUSTED_PROXIES: {a:?} is not an IP address")),
                }
            }
        }
        match nonempty("LOG_FORMAT").as_deref() {
            None | Some("text") => {}
            Some("json") => c.log_json = true,
            Some(other) => errs.push(format!("LOG_FORMAT: {other:?} is not text or json")),
        }
        if let Some(v) = nonempty("CLUB_TIMEZONE") {
            match v.parse() {
                Ok(tz) => c.club_timezone = tz,
                Err(_) => errs.push(format!("CLUB_TIMEZONE: {v:?} is not an IANA time zone")),
            }
        }
        if let Some(v) = nonempty("FRAME_ANCESTORS") {
            match frame_ancestors(&v) {
                Ok(f) => c.frame_ancestors = f,
                Err(e) => errs.push(format!("FRAME_ANCESTORS: {e}")),
            }
        }
        c.set_club_site(crate::club_site::ClubSite::from_lookup(nonempty, &mut errs));
        if errs.is_empty() { Ok(c) } else { Err(errs) }
    }
}

/// Checks a `FRAME_ANCESTORS` value: `'none'` alone, or space-separated sources, each `'self'`
/// or an `http(s)://` origin whose host may start with `*.`; returns it normalised (single
/// spaces).
pub fn frame_ancestors(v: &str) -> Result<String, String> {
    // `none` and `self` without their quotes (lost easily in a shell or `.env`) mean the same
    let parts: Vec<&str> = v
        .split_whitespace()
        .map(|p| match p {
            "none" => "'none'",
            "self" => "'self'",
            other => other,
        })
        .collect();
    if parts.is_empty() || parts.len() > 32 {
        return Err("give 'none', 'self' or 1 to 32 origins".into());
    }
    if parts.contains(&"'none'") {
        return if parts.len() == 1 {
            Ok("'none'".into())
        } else {
            Err("'none' cannot be combined with other sources".into())
        };
    }
    for p in &parts {
        if *p == "'self'" {
            continue;
        }
        let rest = p
            .strip_prefix("https://")
            .or_else(|| p.strip_prefix("http://"))
            .ok_or_else(|| format!("{p:?} is not 'self' or an http(s):// origin"))?;
        let (host, port) = match rest.rsplit_once(':') {
            Some((h, port)) => (h, Some(port)),
            None => (rest, None),
        };
        let host = host.strip_prefix("*.").unwrap_or(host);
        let host_ok = !host.is_empty()
            && host.len() <= 253
            && host
                .split('.')
                .all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
        let port_ok = port.is_none_or(|p| p.parse::<u16>().is_ok_and(|n| n > 0));
        if !host_ok || !port_ok {
            return Err(format!(
                "{p:?} is not an origin (scheme://host[:port], no path)"
            ));
        }
    }
    Ok(parts.join(" "))
}

/// Reads the bounded waits of the database (`DB_QUERY_TIMEOUT_MS` and the connection
/// settings) into `c`.
fn read_db_waits(get: &impl Fn(&str) -> Option<String>, c: &mut Config, errs: &mut Vec<String>) {
    let s = &mut c.db_conn;
    let [tcp, st, lock, busy] = [
        &mut s.tcp_user_timeout,
        &mut s.statement_timeout,
        &mut s.lock_timeout,
        &mut s.busy_timeout,
    ];
    let (query, idle) = (&mut c.db_query_timeout, &mut s.idle_in_transaction_timeout);
    for (key, min, max, d) in [
        ("DB_QUERY_TIMEOUT_MS", 100, 600_000, query),
        ("DB_TCP_USER_TIMEOUT_MS", 0, 600_000, tcp),
        ("DB_STATEMENT_TIMEOUT_MS", 0, 3_600_000, st),
        ("DB_LOCK_TIMEOUT_MS", 0, 3_600_000, lock),
        ("DB_IDLE_IN_TRANSACTION_TIMEOUT_MS", 0, 3_600_000, idle),
        ("DB_BUSY_TIMEOUT_MS", 0, 600_000, busy),
    ] {
        let mut v = d.as_millis() as u64;
        parse_num(get, key, min, max, &mut v, errs);
        *d = std::time::Duration::from_millis(v);
    }
    let [connect, k_idle, k_interval, k_count] = [
        &mut s.connect_timeout_secs,
        &mut s.keepalives_idle_secs,
        &mut s.keepalives_interval_secs,
        &mut s.keepalives_count,
    ];
    for (key, min, max, out) in [
        ("DB_CONNECT_TIMEOUT_SECS", 2, 300, connect),
        ("DB_KEEPALIVES_IDLE_SECS", 1, 7200, k_idle),
        ("DB_KEEPALIVES_INTERVAL_SECS", 1, 600, k_interval),
        ("DB_KEEPALIVES_COUNT", 1, 100, k_count),
    ] {
        parse_num(get, key, min, max, out, errs);
    }
    if let Some(v) = get("SQLITE_SYNCHRONOUS") {
        match v.parse() {
            Ok(sync) => s.synchronous = sync,
            Err(e) => errs.push(format!("SQLITE_SYNCHRONOUS: {e}")),
        }
    }
}

/// Reads the fair shares of clients (`STREAM_MAX_ANON_PER_ADDRESS`, `STREAM_SIGNED_IN_SLOTS`,
/// `LOGIN_RATE_PER_MINUTE`, `CALC_ANON_*`) and `ACCESS_LOG` into `c`; run after
/// `STREAM_MAX_CLIENTS` and `MAX_BODY_BYTES` were read.
fn read_fair_shares(get: &impl Fn(&str) -> Option<String>, c: &mut Config, errs: &mut Vec<String>) {
    parse_num(
        get,
        "STREAM_MAX_ANON_PER_ADDRESS",
        1,
        100_000,
        &mut c.stream_max_anon_per_address,
        errs,
    );
    let slots_max = c.stream_max_clients.saturating_sub(1);
    if get("STREAM_SIGNED_IN_SLOTS").is_none() {
        // the default keeps a tenth of a small hub
        c.stream_signed_in_slots = c.stream_signed_in_slots.min(c.stream_max_clients / 10);
    }
    parse_num(
        get,
        "STREAM_SIGNED_IN_SLOTS",
        0,
        slots_max,
        &mut c.stream_signed_in_slots,
        errs,
    );
    for (key, out) in [
        ("LOGIN_RATE_PER_MINUTE", &mut c.login_rate_per_minute),
        (
            "CALC_ANON_RATE_PER_MINUTE",
            &mut c.calc_anon_rate_per_minute,
        ),
    ] {
        parse_num(get, key, 0, 100_000, out, errs);
    }
    if get("CALC_ANON_MAX_BODY_BYTES").is_none() {
        c.calc_anon_max_body_bytes = c.calc_anon_max_body_bytes.min(c.max_body_bytes);
    }
    parse_num(
        get,
        "CALC_ANON_MAX_BODY_BYTES",
        1024,
        c.max_body_bytes,
        &mut c.calc_anon_max_body_bytes,
        errs,
    );
    if let Some(v) = get("ACCESS_LOG") {
        match v.parse() {
            Ok(mode) => c.access_log = mode,
            Err(e) => errs.push(format!("ACCESS_LOG: {e}")),
        }
    }
}

/// Reads the on/off setting `key` into `out` when it is set.
fn parse_flag(
    get: &impl Fn(&str) -> Option<String>,
    key: &str,
    out: &mut bool,
    errs: &mut Vec<String>,
) {
    match get(key).map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        None => {}
        Some("on" | "true" | "1" | "yes") => *out = true,
        Some("off" | "false" | "0" | "no") => *out = false,
        Some(other) => errs.push(format!("{key}: {other:?} is not on/true or off/false")),
    }
}

/// Reads the `WEBHOOK*` variables into `c`.
fn read_webhooks(get: &impl Fn(&str) -> Option<String>, c: &mut Config, errs: &mut Vec<String>) {
    parse_flag(get, "WEBHOOKS", &mut c.webhooks, errs);
    parse_flag(
        get,
        "WEBHOOK_ALLOW_PRIVATE",
        &mut c.webhook_allow_private,
        errs,
    );
    let mut secs = c.webhook_timeout.as_secs();
    parse_num(get, "WEBHOOK_TIMEOUT_SECS", 1, 60, &mut secs, errs);
    c.webhook_timeout = std::time::Duration::from_secs(secs);
    parse_num(
        get,
        "WEBHOOK_MAX_ATTEMPTS",
        1,
        50,
        &mut c.webhook_max_attempts,
        errs,
    );
    let mut base_ms = c.webhook_backoff_base.as_millis() as u64;
    parse_num(
        get,
        "WEBHOOK_BACKOFF_BASE_MS",
        10,
        3_600_000,
        &mut base_ms,
        errs,
    );
    c.webhook_backoff_base = std::time::Duration::from_millis(base_ms);
    let mut cap = c.webhook_backoff_cap.as_secs();
    parse_num(get, "WEBHOOK_BACKOFF_CAP_SECS", 1, 86_400, &mut cap, errs);
    c.webhook_backoff_cap = std::time::Duration::from_secs(cap);
    let mut poll_ms = c.webhook_poll.as_millis() as u64;
    parse_num(get, "WEBHOOK_POLL_MS", 10, 60_000, &mut poll_ms, errs);
    c.webhook_poll = std::time::Duration::from_millis(poll_ms);
}

/// The work limits are read here with the other settings; the command line reads them alone.
impl crate::limits::WorkLimits {
    /// The limits from the environment (and `.env`), for the command line; every bad
    /// variable is named.
    pub fn from_env() -> Result<crate::limits::WorkLimits, Vec<String>> {
        let _ = dotenvy::dotenv();
        let mut l = crate::limits::WorkLimits::default();
        let mut errs = Vec::new();
        let get = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
        read_limits(&get, &mut l, &mut errs);
        if errs.is_empty() { Ok(l) } else { Err(errs) }
    }
}

/// Reads the `LIMIT_*` variables into `l`.
fn read_limits(
    get: &impl Fn(&str) -> Option<String>,
    l: &mut crate::limits::WorkLimits,
    errs: &mut Vec<String>,
) {
    for (key, min, max, out) in [
        ("LIMIT_SWISS_PLAYERS", 2, 10_000, &mut l.swiss_players),
        ("LIMIT_SWISS_ROUNDS", 1, 200, &mut l.swiss_rounds),
        (
            "LIMIT_ROUND_ROBIN_PLAYERS",
            2,
            1_000,
            &mut l.round_robin_players,
        ),
        (
            "LIMIT_ROUND_ROBIN_GAMES",
            1,
            1_000_000,
            &mut l.round_robin_games,
        ),
        ("LIMIT_KEIZER_PLAYERS", 2, 10_000, &mut l.keizer_players),
        ("LIMIT_KEIZER_EVENINGS", 1, 1_000, &mut l.keizer_evenings),
        ("LIMIT_KEIZER_HISTORY", 0, 1_000_000, &mut l.keizer_history),
    ] {
        parse_num(get, key, min, max, out, errs);
    }
}

fn parse_num<T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy>(
    get: &impl Fn(&str) -> Option<String>,
    key: &str,
    min: T,
    max: T,
    out: &mut T,
    errs: &mut Vec<String>,
) {
    if let Some(v) = get(key) {
        match v.trim().parse::<T>() {
            Ok(n) if n >= min && n <= max => *out = n,
            _ => errs.push(format!("{key}: {v:?} is not a number from {min} to {max}")),
        }
    }
}

#[cfg(test)]
mod tests;
