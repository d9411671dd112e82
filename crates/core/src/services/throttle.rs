//! Failed-login throttling, kept in the database (`login_attempts`), and the client address
//! a login is counted against.

use std::time::Duration;

/// Failed-login throttling, kept in the database (`login_attempts`) so every instance on it
/// counts the same attempts. Three counters, each with a window of its own:
/// - per (account, address): `max_per_pair` failures (`LOGIN_MAX_FAILURES`);
/// - per address: four times that, whatever the accounts;
/// - per account from all addresses together: twenty times that, so failures from one place
///   never lock the owner out, and only a spread guessing campaign does.
///
/// The first two back off: a window that ended used up gives its key a strike, and each strike
/// doubles the key's next window (15 minutes, 30, 1 hour … up to 16 hours); a quiet window
/// clears the strikes.
#[derive(Debug)]
pub struct Throttle {
    window: Duration,
    max_per_pair: u32,
    max_per_address: u32,
    max_per_account: u32,
}

/// Writes the readiness probe's row of the login attempts (key `#readiness`) for a caller
/// that rolls it back: a database that refuses writes (a read-only file or server) fails it.
pub fn write_readiness_probe(
    c: &mut crate::store::DbConn,
    now: chrono::NaiveDateTime,
) -> diesel::QueryResult<usize> {
    use crate::store::schema::login_attempts as la;
    use diesel::prelude::*;
    diesel::insert_into(la::table)
        .values((
            la::key.eq("#readiness"),
            la::attempts.eq(0),
            la::since.eq(now),
            la::strikes.eq(0),
            la::expires.eq(now),
        ))
        .execute(c)
}

/// The most strikes a key collects: its window is then 2^6 = 64 times the base window.
const MAX_STRIKES: i32 = 6;

/// The client's address for throttling: the peer's, unless the peer is a trusted proxy
/// (`TRUSTED_PROXIES`); then the nearest address in `X-Forwarded-For` (read from the right,
/// as each proxy appends the address it saw) that is not itself a trusted proxy. Entries a
/// client wrote itself lie to the left of that one and are never used, so an untrusted client
/// cannot choose its address; without trusted proxies the header is ignored.
pub fn client_address<'a>(
    peer: Option<std::net::IpAddr>,
    forwarded_for: impl Iterator<Item = &'a str>,
    trusted: &[std::net::IpAddr],
) -> String {
    let Some(peer) = peer else {
        return "unknown".into();
    };
    if !trusted.contains(&peer) {
        return peer.to_string();
    }
    let hops: Vec<&str> = forwarded_for
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    let mut client = peer;
    for hop in hops.iter().rev() {
        match hop.parse::<std::net::IpAddr>() {
            Ok(ip) => {
                client = ip;
                if !trusted.contains(&ip) {
                    break;
                }
            }
            // unreadable: stop at the last address a trusted proxy vouched for
            Err(_) => break,
        }
    }
    client.to_string()
}

/// The address a client is counted as, for throttling and fair shares: an IPv4 address as
/// it is (an IPv4-mapped IPv6 address as its IPv4 address), an IPv6 address by its /64
/// prefix (`2001:db8:1:2::/64`), since one subscriber usually holds a whole /64; anything
/// else (`unknown`) as it is.
pub fn address_key(address: &str) -> String {
    match address.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V4(v4)) => v4.to_string(),
        Ok(std::net::IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                let prefix = std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0);
                format!("{prefix}/64")
            }
        },
        Err(_) => address.to_string(),
    }
}

impl Throttle {
    /// A throttle allowing `max_per_pair` failures per (account, address), 4× that per address
    /// and 20× that per account, within 15-minute windows.
    pub fn new(max_per_pair: u32) -> Throttle {
        Throttle {
            window: Duration::from_secs(15 * 60),
            max_per_pair,
            max_per_address: max_per_pair.saturating_mul(4),
            max_per_account: max_per_pair.saturating_mul(20),
        }
    }

    /// The keys of an attempt with their limits and whether they back off: per (account,
    /// address), per address and, unless the attempt comes from a device or address that
    /// signed in to the account before (`known`), per account.
    fn keys(&self, account: &str, address: &str, known: bool) -> Vec<(String, u32, bool)> {
        let account = account.to_lowercase();
        let address = address_key(address);
        let mut keys = vec![
            (format!("pair:{address}|{account}"), self.max_per_pair, true),
            (format!("addr:{address}"), self.max_per_address, true),
        ];
        if !known {
            keys.push((format!("acct:{account}"), self.max_per_account, false));
        }
        keys
    }

    /// The key of failed refreshes from `address`, with its limit (that of an address's
    /// failed logins) and backoff.
    fn refresh_keys(&self, address: &str) -> Vec<(String, u32, bool)> {
        let address = address_key(address);
        vec![(format!("rfsh:{address}"), self.max_per_address, true)]
    }

    /// The window of a key with `strikes` strikes.
    fn window(&self, strikes: i32) -> chrono::Duration {
        let base = chrono::Duration::from_std(self.window).unwrap_or(chrono::Duration::MAX);
        base * (1 << strikes.clamp(0, MAX_STRIKES))
    }

    /// Locks (or creates) a key's row: a no-op update, else an insert that loses to a
    /// concurrent one (unique key) inside a savepoint and then locks the row it made.
    fn lock_row(
        &self,
        c: &mut crate::store::DbConn,
        key: &str,
        now: chrono::NaiveDateTime,
    ) -> crate::error::ApiResult<()> {
        use crate::store::schema::login_attempts as la;
        use diesel::prelude::*;
        let touch = |c: &mut crate::store::DbConn| {
            diesel::update(la::table.find(key))
                .set(la::attempts.eq(la::attempts))
                .execute(c)
        };
        if touch(c)? == 0 {
            let made = c.transaction(|c| {
                diesel::insert_into(la::table)
                    .values((
                        la::key.eq(key),
                        la::attempts.eq(0),
                        la::since.eq(now),
                        la::strikes.eq(0),
                        la::expires.eq(now + self.window(0)),
                    ))
                    .execute(c)
            });
            if made.is_err() {
                touch(c)?;
            }
        }
        Ok(())
    }

    /// Starts a login attempt at `now` (run it in a transaction): `Ok(Err(seconds))` when one
    /// of its keys has used up its failures in its window; else the attempt is counted as a
    /// failure at once (until [`Throttle::forgive`]). Each key's row is locked by the first
    /// statement (a row lock on Postgres; SQLite holds the write lock), so concurrent
    /// attempts, in any instance, cannot all pass the check before any of them failed.
    /// `known`: the attempt comes from a device or an address that signed in to the account
    /// before, so the account-wide count neither holds it back nor counts it.
    pub fn attempt(
        &self,
        c: &mut crate::store::DbConn,
        account: &str,
        address: &str,
        known: bool,
        now: chrono::NaiveDateTime,
    ) -> crate::error::ApiResult<Result<(), u64>> {
        self.count(c, self.keys(account, address, known), now)
    }

    /// Starts a refresh from `address` at `now` (in the refresh's transaction), counted as a
    /// failure until [`Throttle::forgive_refresh`]: `Err(seconds)` when the address has used up
    /// its failed refreshes (four times `LOGIN_MAX_FAILURES` per window, backing off).
    pub fn attempt_refresh(
        &self,
        c: &mut crate::store::DbConn,
        address: &str,
        now: chrono::NaiveDateTime,
    ) -> crate::error::ApiResult<Result<(), u64>> {
        self.count(c, self.refresh_keys(address), now)
    }

    /// Takes back a refresh that succeeded.
    pub fn forgive_refresh(
        &self,
        c: &mut crate::store::DbConn,
        address: &str,
    ) -> crate::error::ApiResult<()> {
        let keys = self.refresh_keys(address).into_iter().map(|k| k.0);
        self.take_back(c, keys.collect())
    }

    /// Counts an attempt on `keys` at `now`, or refuses it when one of them is used up.
    fn count(
        &self,
        c: &mut crate::store::DbConn,
        keys: Vec<(String, u32, bool)>,
        now: chrono::NaiveDateTime,
    ) -> crate::error::ApiResult<Result<(), u64>> {
        use crate::store::schema::login_attempts as la;
        use diesel::prelude::*;
        let mut blocked = None;
        let mut counted = Vec::with_capacity(keys.len());
        for (key, max, backoff) in keys {
            self.lock_row(c, &key, now)?;
            let (mut n, mut since, mut strikes): (i32, chrono::NaiveDateTime, i32) = la::table
                .find(&key)
                .select((la::attempts, la::since, la::strikes))
                .first(c)?;
            let len = self.window(strikes);
            if since + len <= now {
                // the window is over and a new one starts now; one that ended used up, and was
                // not followed by a quiet window, adds a strike
                let used_up = i64::from(n) >= i64::from(max);
                strikes = if backoff && used_up && now < since + len * 2 {
                    (strikes + 1).min(MAX_STRIKES)
                } else {
                    0
                };
                (n, since) = (0, now);
                diesel::update(la::table.find(&key))
                    .set((
                        la::attempts.eq(0),
                        la::since.eq(now),
                        la::strikes.eq(strikes),
                        la::expires.eq(now + self.window(strikes)),
                    ))
                    .execute(c)?;
            }
            let len = self.window(strikes);
            if i64::from(n) >= i64::from(max) {
                let left = (since + len - now).num_seconds().max(1);
                blocked = Some(blocked.map_or(left, |b: i64| b.max(left)));
            }
            // a row whose window ends used up is kept one window longer, for its strike
            let used_up = i64::from(n) + 1 >= i64::from(max);
            counted.push((key, since + if used_up { len * 2 } else { len }));
        }
        if let Some(left) = blocked {
            return Ok(Err(u64::try_from(left).unwrap_or(1)));
        }
        for (key, expires) in counted {
            diesel::update(la::table.find(&key))
                .set((la::attempts.eq(la::attempts + 1), la::expires.eq(expires)))
                .execute(c)?;
        }
        Ok(Ok(()))
    }

    /// Deletes the rows that expired before `now` (at most 500), one row per statement and
    /// outside a transaction: a sweep never holds one row's lock while it waits for
    /// another's, so it cannot deadlock with a login attempt.
    pub fn sweep(
        &self,
        c: &mut crate::store::DbConn,
        now: chrono::NaiveDateTime,
    ) -> crate::error::ApiResult<usize> {
        use crate::store::schema::login_attempts as la;
        use diesel::prelude::*;
        let old: Vec<String> = la::table
            .filter(la::expires.le(now))
            .select(la::key)
            .limit(500)
            .load(c)?;
        let mut gone = 0;
        for key in old {
            gone += diesel::delete(la::table.find(&key).filter(la::expires.le(now))).execute(c)?;
        }
        Ok(gone)
    }

    /// Takes back an attempt that did not fail: after a successful login (`success`: the
    /// failures of that account from that address are cleared as well, strikes included), or
    /// when it could not be checked at all.
    /// `known` is what [`Throttle::attempt`] was told.
    pub fn forgive(
        &self,
        c: &mut crate::store::DbConn,
        account: &str,
        address: &str,
        known: bool,
        success: bool,
    ) -> crate::error::ApiResult<()> {
        use crate::store::schema::login_attempts as la;
        use diesel::prelude::*;
        let keys: Vec<String> = self
            .keys(account, address, known)
            .into_iter()
            .map(|k| k.0)
            .collect();
        if success {
            diesel::delete(la::table.find(&keys[0])).execute(c)?;
        }
        self.take_back(c, keys)
    }

    /// Takes one counted attempt back from each of `keys`.
    fn take_back(
        &self,
        c: &mut crate::store::DbConn,
        keys: Vec<String>,
    ) -> crate::error::ApiResult<()> {
        use crate::store::schema::login_attempts as la;
        use diesel::prelude::*;
        diesel::update(
            la::table
                .filter(la::key.eq_any(keys))
                .filter(la::attempts.gt(0)),
        )
        .set(la::attempts.eq(la::attempts - 1))
        .execute(c)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_address_trusts_only_configured_proxies() {
        let ip = |s: &str| s.parse::<std::net::IpAddr>().unwrap();
        let proxy = ip("10.0.0.1");
        let trusted = [proxy, ip("10.0.0.2")];
        let addr = |peer: &str, xff: &[&str], t: &[std::net::IpAddr]| {
            client_address(Some(ip(peer)), xff.iter().copied(), t)
        };
        // no trusted proxies: the header is ignored
        assert_eq!(addr("10.0.0.1", &["203.0.113.9"], &[]), "10.0.0.1");
        // a client that is not a proxy cannot name its address
        assert_eq!(
            addr("198.51.100.7", &["203.0.113.9"], &trusted),
            "198.51.100.7"
        );
        // through the proxy: the address it appended
        assert_eq!(addr("10.0.0.1", &["203.0.113.9"], &trusted), "203.0.113.9");
        // a client's own entries lie left of what the proxies appended
        assert_eq!(
            addr("10.0.0.1", &["1.2.3.4, 203.0.113.9", "10.0.0.2"], &trusted),
            "203.0.113.9"
        );
        assert_eq!(
            addr("10.0.0.1", &["bogus, 203.0.113.9"], &trusted),
            "203.0.113.9"
        );
        // an unreadable hop next to the proxy: the proxy itself
        assert_eq!(
            addr("10.0.0.1", &["203.0.113.9, bogus"], &trusted),
            "10.0.0.1"
        );
        // no header: the proxy
        assert_eq!(addr("10.0.0.1", &[], &trusted), "10.0.0.1");
        assert_eq!(
            client_address(None, std::iter::empty(), &trusted),
            "unknown"
        );
        assert_eq!(addr("::1", &["2001:db8::5"], &[ip("::1")]), "2001:db8::5");
    }

    /// A throttle of `limit` attempts per account and address over a migrated SQLite database
    /// in a temporary directory, driven by the minutes of one evening.
    struct Fixture {
        _dir: tempfile::TempDir,
        c: crate::store::DbConn,
        t: Throttle,
    }

    impl Fixture {
        fn new(limit: u32) -> Fixture {
            let dir = tempfile::tempdir().unwrap();
            let url = format!("sqlite://{}", dir.path().join("t.sqlite3").display());
            let mut c = crate::store::DbTarget::parse(&url)
                .unwrap()
                .connect()
                .unwrap();
            crate::store::run_migrations(&mut c).unwrap();
            Fixture {
                _dir: dir,
                c,
                t: Throttle::new(limit),
            }
        }

        /// A login attempt of `account` from `address` at minute `m`: allowed, or the seconds
        /// to wait.
        fn attempt(&mut self, account: &str, address: &str, m: i64) -> Result<(), u64> {
            self.t
                .attempt(&mut self.c, account, address, false, at(m))
                .unwrap()
        }

        /// The outcome of the attempt of `account` from `address` (`success`, or unchecked).
        fn forgive(&mut self, account: &str, address: &str, success: bool) {
            self.t
                .forgive(&mut self.c, account, address, false, success)
                .unwrap();
        }

        /// The rows swept at minute `m`.
        fn sweep(&mut self, m: i64) -> usize {
            self.t.sweep(&mut self.c, at(m)).unwrap()
        }
    }

    /// Minute `m` of the evening the throttle is tried on.
    fn at(m: i64) -> chrono::NaiveDateTime {
        chrono::NaiveDate::from_ymd_opt(2026, 11, 27)
            .unwrap()
            .and_hms_opt(20, 0, 0)
            .unwrap()
            + chrono::Duration::minutes(m)
    }

    #[test]
    fn addresses_are_counted_by_ipv4_address_or_ipv6_64_prefix() {
        assert_eq!(address_key("203.0.113.9"), "203.0.113.9");
        assert_eq!(address_key("::ffff:203.0.113.9"), "203.0.113.9");
        assert_eq!(address_key("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
        assert_eq!(
            address_key("2001:db8:1:2:ffff:ffff:ffff:ffff"),
            "2001:db8:1:2::/64"
        );
        assert_eq!(address_key("2001:db8:1:3::1"), "2001:db8:1:3::/64");
        assert_eq!(address_key("unknown"), "unknown");
    }

    #[test]
    fn one_ipv6_64_is_one_address_for_the_throttle() {
        let mut f = Fixture::new(1);
        // four accounts from four addresses of one /64 use up that /64 (4 × the limit)
        for i in 0..4 {
            let addr = format!("2001:db8:7:7::{:x}", i + 1);
            assert!(f.attempt(&format!("u{i}@x"), &addr, 0).is_ok());
        }
        assert_eq!(f.attempt("u9@x", "2001:db8:7:7:ffff::9", 0), Err(15 * 60));
        // the next /64 is another address
        assert!(f.attempt("u9@x", "2001:db8:7:8::1", 0).is_ok());
    }

    #[test]
    fn a_known_device_is_not_held_back_by_the_account_wide_count() {
        let mut f = Fixture::new(1);
        for i in 0..20 {
            assert!(f.attempt("a@x", &format!("10.0.0.{i}"), 0).is_ok());
        }
        assert!(f.attempt("a@x", "10.0.9.9", 1).is_err(), "account used up");
        let known =
            f.t.attempt(&mut f.c, "a@x", "10.0.9.9", true, at(1))
                .unwrap();
        assert!(
            known.is_ok(),
            "a known device passes the account-wide count"
        );
        // its own (account, address) count still holds it back
        let again =
            f.t.attempt(&mut f.c, "a@x", "10.0.9.9", true, at(1))
                .unwrap();
        assert_eq!(again, Err(15 * 60), "its window started at minute 1");
    }

    #[test]
    fn failed_refreshes_are_counted_per_address() {
        let mut f = Fixture::new(1);
        for _ in 0..4 {
            assert!(
                f.t.attempt_refresh(&mut f.c, "192.0.2.1", at(0))
                    .unwrap()
                    .is_ok()
            );
        }
        let r = f.t.attempt_refresh(&mut f.c, "192.0.2.1", at(0)).unwrap();
        assert_eq!(r, Err(15 * 60), "four failed refreshes per window");
        assert!(
            f.t.attempt_refresh(&mut f.c, "192.0.2.2", at(0))
                .unwrap()
                .is_ok()
        );
        // a refresh that succeeded is taken back; logins from the address are not affected
        f.t.forgive_refresh(&mut f.c, "192.0.2.2").unwrap();
        assert!(f.attempt("a@x", "192.0.2.1", 0).is_ok());
    }

    #[test]
    fn throttle_blocks_an_account_from_one_address_only() {
        let mut f = Fixture::new(2);
        let mut go = |acct: &str, addr: &str, m: i64| f.attempt(acct, addr, m);
        // two attempts (account names are case-insensitive) use up the account at that address
        assert!(go("a@x", "1.2.3.4", 0).is_ok());
        assert!(go("A@x", "1.2.3.4", 1).is_ok());
        assert_eq!(go("a@x", "1.2.3.4", 5), Err(10 * 60), "10 min left");
        // the owner, from another address, is not locked out
        assert!(go("a@x", "9.9.9.9", 5).is_ok(), "another address");
        assert!(go("b@x", "1.2.3.4", 5).is_ok(), "another account");
        // the window ends 15 minutes after its first attempt
        assert!(go("a@x", "1.2.3.4", 15).is_ok());
    }

    #[test]
    fn throttle_limits_an_address_over_all_accounts() {
        let mut f = Fixture::new(1);
        for i in 0..4 {
            assert!(f.attempt(&format!("u{i}@x"), "5.5.5.5", 20).is_ok());
        }
        let r = f.attempt("u9@x", "5.5.5.5", 20);
        assert_eq!(r, Err(15 * 60), "four times the per-pair limit");
        assert!(f.attempt("u9@x", "6.6.6.6", 20).is_ok());
    }

    #[test]
    fn throttle_locks_an_account_globally_only_at_twenty_times_the_limit() {
        let mut f = Fixture::new(1);
        // one failure from each of 20 addresses: every one passes
        for i in 0..20 {
            let r = f.attempt("a@x", &format!("10.0.0.{i}"), 0);
            assert!(r.is_ok(), "address {i}");
        }
        // the 21st, from a fresh address, finds the account used up
        assert_eq!(f.attempt("a@x", "10.0.1.1", 1), Err(14 * 60));
        // no backoff for the account: a new window of the same length
        assert!(f.attempt("a@x", "10.0.1.1", 15).is_ok());
    }

    #[test]
    fn throttle_backs_off_doubling_each_used_up_window() {
        let mut f = Fixture::new(2);
        let mut go = |m: i64| f.attempt("a@x", "1.2.3.4", m);
        // window 1 (15 min) used up
        assert!(go(0).is_ok() && go(0).is_ok());
        assert_eq!(go(1), Err(14 * 60));
        // window 2 starts with a strike: 30 minutes
        assert!(go(15).is_ok() && go(15).is_ok());
        assert_eq!(go(16), Err(29 * 60));
        // window 3: two strikes, 60 minutes
        assert!(go(45).is_ok() && go(45).is_ok());
        assert_eq!(go(46), Err(59 * 60));
        // a quiet window after it clears the strikes: 15 minutes again
        assert!(go(45 + 120).is_ok() && go(45 + 120).is_ok());
        assert_eq!(go(45 + 121), Err(14 * 60));
    }

    #[test]
    fn throttle_forgives_and_sweeps() {
        let mut f = Fixture::new(2);
        let a = |f: &mut Fixture| f.attempt("a@x", "9.9.9.9", 16);
        assert!(a(&mut f).is_ok() && a(&mut f).is_ok());
        assert!(a(&mut f).is_err());
        // a success clears its (account, address) and gives its address the attempt back
        f.forgive("a@x", "9.9.9.9", true);
        assert!(a(&mut f).is_ok());
        // an attempt that could not be checked is taken back
        f.forgive("a@x", "9.9.9.9", false);
        assert!(a(&mut f).is_ok() && a(&mut f).is_ok());
        assert!(a(&mut f).is_err());
        assert!(f.attempt("b@x", "8.8.8.8", 20).is_ok());
        // nothing has expired yet; the used-up pair stays a second window, for its strike
        assert_eq!(f.sweep(30), 0);
        // b's three keys and a's address and account rows end at minute 35 and 31
        assert_eq!(f.sweep(36), 5);
        assert_eq!(f.sweep(46), 1, "a's used-up pair");
        assert!(f.attempt("a@x", "9.9.9.9", 46).is_ok());
    }
}
