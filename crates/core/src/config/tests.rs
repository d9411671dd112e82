use super::*;
use std::collections::HashMap;

fn cfg(pairs: &[(&str, &str)]) -> Result<Config, Vec<String>> {
    let m: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Config::from_lookup(|k| m.get(k).cloned())
}

#[test]
fn defaults_are_sqlite_on_localhost() {
    let c = cfg(&[]).unwrap();
    assert_eq!(c.database_url, "sqlite://data/clubcomp.sqlite3");
    assert_eq!(c.bind_addr.to_string(), "127.0.0.1:8080");
}

#[test]
fn database_waits_are_read_and_bounded() {
    use crate::store::waits::Synchronous;
    let c = cfg(&[]).unwrap();
    assert_eq!(c.db_query_timeout.as_millis(), 5000);
    assert_eq!(c.db_conn.synchronous, Synchronous::Normal);
    let c = cfg(&[
        ("DB_QUERY_TIMEOUT_MS", "750"),
        ("DB_STATEMENT_TIMEOUT_MS", "0"),
        ("DB_BUSY_TIMEOUT_MS", "250"),
        ("DB_KEEPALIVES_COUNT", "4"),
        ("SQLITE_SYNCHRONOUS", "full"),
    ])
    .unwrap();
    assert_eq!(c.db_query_timeout.as_millis(), 750);
    assert!(c.db_conn.statement_timeout.is_zero());
    assert_eq!(c.db_conn.busy_timeout.as_millis(), 250);
    assert_eq!(c.db_conn.keepalives_count, 4);
    assert_eq!(c.db_conn.synchronous, Synchronous::Full);
    let errs = cfg(&[
        ("DB_QUERY_TIMEOUT_MS", "99"),
        ("DB_CONNECT_TIMEOUT_SECS", "1"),
        ("SQLITE_SYNCHRONOUS", "OFF"),
    ])
    .unwrap_err();
    assert_eq!(errs.len(), 3, "{errs:?}");
    for key in [
        "DB_QUERY_TIMEOUT_MS",
        "DB_CONNECT_TIMEOUT_SECS",
        "SQLITE_SYNCHRONOUS",
    ] {
        assert!(errs.iter().any(|e| e.starts_with(key)), "{key}: {errs:?}");
    }
}

#[test]
fn every_bad_variable_is_named() {
    let errs = cfg(&[
        ("DATABASE_URL", "mysql://x"),
        ("BIND_ADDR", "nowhere"),
        ("JWT_SECRET", "short"),
        ("DB_POOL_SIZE", "0"),
        ("BOOTSTRAP_ADMIN_EMAIL", "a@b.c"),
        ("TRUSTED_PROXIES", "10.0.0.1, proxy.local"),
        ("READ_VERSION_REUSE_US", "-1"),
    ])
    .unwrap_err();
    let all = errs.join("\n");
    for k in [
        "DATABASE_URL",
        "BIND_ADDR",
        "JWT_SECRET",
        "DB_POOL_SIZE",
        "BOOTSTRAP_ADMIN",
        "TRUSTED_PROXIES: \"proxy.local\"",
        "READ_VERSION_REUSE_US",
    ] {
        assert!(all.contains(k), "{k} not named in {all}");
    }
    let c = cfg(&[("TRUSTED_PROXIES", "10.0.0.1, ::1")]).unwrap();
    assert_eq!(c.trusted_proxies.len(), 2);
}

#[test]
fn read_version_reuse_is_in_microseconds() {
    use std::time::Duration;
    assert_eq!(
        cfg(&[]).unwrap().read_version_reuse,
        Duration::from_millis(1)
    );
    let c = cfg(&[("READ_VERSION_REUSE_US", "250")]).unwrap();
    assert_eq!(c.read_version_reuse, Duration::from_micros(250));
    let c = cfg(&[("READ_VERSION_REUSE_US", "0")]).unwrap();
    assert!(c.read_version_reuse.is_zero());
    assert!(cfg(&[("READ_VERSION_REUSE_US", "100001")]).is_err());
}

#[test]
fn work_limits_are_read_and_bounded() {
    let c = cfg(&[
        ("LIMIT_SWISS_PLAYERS", "120"),
        ("LIMIT_KEIZER_EVENINGS", "40"),
        ("CALC_WORKERS", "3"),
        ("CALC_TIME_BUDGET_MS", "2500"),
    ])
    .unwrap();
    assert_eq!(c.limits.swiss_players, 120);
    assert_eq!(c.limits.keizer_evenings, 40);
    assert_eq!(c.limits.round_robin_players, 100);
    assert_eq!(c.calc_workers, 3);
    assert_eq!(c.calc_time_budget, std::time::Duration::from_millis(2500));
    let errs = cfg(&[
        ("LIMIT_ROUND_ROBIN_PLAYERS", "1"),
        ("CALC_WORKERS", "0"),
        ("CALC_TIME_BUDGET_MS", "soon"),
    ])
    .unwrap_err()
    .join("\n");
    for k in [
        "LIMIT_ROUND_ROBIN_PLAYERS",
        "CALC_WORKERS",
        "CALC_TIME_BUDGET_MS",
    ] {
        assert!(errs.contains(k), "{k} not named in {errs}");
    }
}

#[test]
fn webhook_settings_are_read_and_bounded() {
    use std::time::Duration;
    let c = cfg(&[]).unwrap();
    assert!(c.webhooks && !c.webhook_allow_private);
    assert_eq!(c.webhook_timeout, Duration::from_secs(10));
    let c = cfg(&[
        ("WEBHOOKS", "off"),
        ("WEBHOOK_ALLOW_PRIVATE", "true"),
        ("WEBHOOK_TIMEOUT_SECS", "3"),
        ("WEBHOOK_MAX_ATTEMPTS", "4"),
        ("WEBHOOK_BACKOFF_BASE_MS", "250"),
        ("WEBHOOK_BACKOFF_CAP_SECS", "60"),
        ("WEBHOOK_POLL_MS", "100"),
    ])
    .unwrap();
    assert!(!c.webhooks && c.webhook_allow_private);
    assert_eq!(c.webhook_timeout, Duration::from_secs(3));
    assert_eq!(c.webhook_max_attempts, 4);
    assert_eq!(c.webhook_backoff_base, Duration::from_millis(250));
    assert_eq!(c.webhook_backoff_cap, Duration::from_secs(60));
    assert_eq!(c.webhook_poll, Duration::from_millis(100));
    let errs = cfg(&[
        ("WEBHOOKS", "maybe"),
        ("WEBHOOK_TIMEOUT_SECS", "0"),
        ("WEBHOOK_MAX_ATTEMPTS", "51"),
        ("WEBHOOK_POLL_MS", "5"),
    ])
    .unwrap_err()
    .join("\n");
    for k in [
        "WEBHOOKS:",
        "WEBHOOK_TIMEOUT_SECS",
        "WEBHOOK_MAX_ATTEMPTS",
        "WEBHOOK_POLL_MS",
    ] {
        assert!(errs.contains(k), "{k} not named in {errs}");
    }
}

#[test]
fn stream_settings_are_read_and_bounded() {
    let c = cfg(&[]).unwrap();
    assert_eq!(c.stream_heartbeat, std::time::Duration::from_secs(15));
    assert_eq!(c.stream_max_clients, 1000);
    assert_eq!(c.stream_buffer, 1024);
    assert_eq!(c.stream_max_duration, std::time::Duration::from_secs(3600));
    let c = cfg(&[
        ("STREAM_HEARTBEAT_SECS", "2"),
        ("STREAM_MAX_CLIENTS", "3"),
        ("STREAM_BUFFER", "16"),
        ("STREAM_MAX_SECONDS", "60"),
    ])
    .unwrap();
    assert_eq!(c.stream_heartbeat, std::time::Duration::from_secs(2));
    assert_eq!(c.stream_max_clients, 3);
    assert_eq!(c.stream_buffer, 16);
    assert_eq!(c.stream_max_duration, std::time::Duration::from_secs(60));
    let errs = cfg(&[
        ("STREAM_HEARTBEAT_SECS", "0"),
        ("STREAM_MAX_CLIENTS", "100001"),
        ("STREAM_BUFFER", "0"),
        ("STREAM_MAX_SECONDS", "forever"),
    ])
    .unwrap_err()
    .join("\n");
    for k in [
        "STREAM_HEARTBEAT_SECS",
        "STREAM_MAX_CLIENTS",
        "STREAM_BUFFER",
        "STREAM_MAX_SECONDS",
    ] {
        assert!(errs.contains(k), "{k} not named in {errs}");
    }
}

#[test]
fn fair_shares_are_read_and_bounded() {
    let c = cfg(&[]).unwrap();
    assert_eq!(c.stream_max_anon_per_address, 20);
    assert_eq!(c.stream_signed_in_slots, 100);
    assert_eq!(c.login_rate_per_minute, 30);
    assert_eq!(c.calc_anon_rate_per_minute, 60);
    assert_eq!(c.calc_anon_max_body_bytes, 256 * 1024);
    assert_eq!(c.access_log, AccessLogMode::Rate(50));
    let c = cfg(&[
        ("STREAM_MAX_CLIENTS", "50"),
        ("STREAM_MAX_ANON_PER_ADDRESS", "5"),
        ("LOGIN_RATE_PER_MINUTE", "0"),
        ("CALC_ANON_RATE_PER_MINUTE", "12"),
        ("MAX_BODY_BYTES", "2048"),
        ("ACCESS_LOG", "sample:100"),
    ])
    .unwrap();
    // the defaults that do not fit the smaller settings follow them
    assert_eq!(c.stream_signed_in_slots, 5, "a tenth of 50");
    assert_eq!(c.calc_anon_max_body_bytes, 2048);
    assert_eq!(c.stream_max_anon_per_address, 5);
    assert_eq!(c.login_rate_per_minute, 0);
    assert_eq!(c.calc_anon_rate_per_minute, 12);
    assert_eq!(c.access_log, AccessLogMode::Sample(100));
    for (v, mode) in [
        ("all", AccessLogMode::All),
        ("Errors", AccessLogMode::Errors),
        ("off", AccessLogMode::Off),
        ("rate:7", AccessLogMode::Rate(7)),
    ] {
        assert_eq!(cfg(&[("ACCESS_LOG", v)]).unwrap().access_log, mode);
    }
    let errs = cfg(&[
        ("STREAM_MAX_CLIENTS", "10"),
        ("STREAM_SIGNED_IN_SLOTS", "10"),
        ("STREAM_MAX_ANON_PER_ADDRESS", "0"),
        ("LOGIN_RATE_PER_MINUTE", "-1"),
        ("CALC_ANON_RATE_PER_MINUTE", "lots"),
        ("MAX_BODY_BYTES", "4096"),
        ("CALC_ANON_MAX_BODY_BYTES", "8192"),
        ("ACCESS_LOG", "rate:0"),
    ])
    .unwrap_err()
    .join("\n");
    for k in [
        "STREAM_SIGNED_IN_SLOTS: \"10\" is not a number from 0 to 9",
        "STREAM_MAX_ANON_PER_ADDRESS",
        "LOGIN_RATE_PER_MINUTE",
        "CALC_ANON_RATE_PER_MINUTE",
        "CALC_ANON_MAX_BODY_BYTES: \"8192\" is not a number from 1024 to 4096",
        "ACCESS_LOG",
    ] {
        assert!(errs.contains(k), "{k} not named in {errs}");
    }
    for bad in ["sample:0", "rate:100001", "some", "rate:"] {
        assert!(cfg(&[("ACCESS_LOG", bad)]).is_err(), "{bad}");
    }
}

#[test]
fn frame_ancestors_are_checked() {
    assert_eq!(cfg(&[]).unwrap().frame_ancestors, "'none'");
    assert_eq!(
        cfg(&[("FRAME_ANCESTORS", "none")]).unwrap().frame_ancestors,
        "'none'"
    );
    let c = cfg(&[(
        "FRAME_ANCESTORS",
        " 'self'   https://club.example https://*.schaak.nl:8443 ",
    )]);
    assert_eq!(
        c.unwrap().frame_ancestors,
        "'self' https://club.example https://*.schaak.nl:8443"
    );
    for bad in [
        "'none' https://club.example",
        "club.example",
        "https://club.example/path",
        "https://club.example; script-src *",
        "https://club.example:99999",
        "*",
    ] {
        let e = cfg(&[("FRAME_ANCESTORS", bad)]).unwrap_err();
        assert!(e[0].starts_with("FRAME_ANCESTORS"), "{bad}: {e:?}");
    }
}

#[test]
fn the_refresh_grace_and_require_if_match_are_read_and_bounded() {
    let c = cfg(&[]).unwrap();
    assert_eq!(c.refresh_grace, chrono::Duration::seconds(30));
    assert!(!c.require_if_match);
    let c = cfg(&[("REFRESH_GRACE_SECONDS", "0"), ("REQUIRE_IF_MATCH", "true")]).unwrap();
    assert_eq!(c.refresh_grace, chrono::Duration::zero());
    assert!(c.require_if_match);
    let errs = cfg(&[
        ("REFRESH_GRACE_SECONDS", "301"),
        ("REQUIRE_IF_MATCH", "maybe"),
    ])
    .unwrap_err();
    assert!(
        errs.iter().any(|e| e.starts_with("REFRESH_GRACE_SECONDS")),
        "{errs:?}"
    );
    assert!(
        errs.iter().any(|e| e.starts_with("REQUIRE_IF_MATCH")),
        "{errs:?}"
    );
}
