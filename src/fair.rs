//! Fair shares of the service between clients
//! ([decision 0258](../docs/decisions/0258-fair-shares-per-address.md)): per-address token
//! buckets for the requests anyone may send without signing in (logins and refreshes, the
//! calculators), the smaller body limit of an anonymous calculator request, and the access
//! log's bound ([decision 0259](../docs/decisions/0259-bounded-access-log.md)). Each
//! application instance keeps its own, in memory; an address is counted as
//! [`crate::services::throttle::address_key`] names it (an IPv6 address by its /64).

use crate::config::AccessLogMode;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The body limit of one request, when smaller than `MAX_BODY_BYTES` (an anonymous
/// calculator request: `CALC_ANON_MAX_BODY_BYTES`), put in the request's extensions for the
/// body readers.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimit(pub usize);

/// The most addresses a set of buckets tracks; beyond it the full buckets are forgotten, and
/// if that is not enough, all of them.
const MAX_KEYS: usize = 100_000;

/// Per-key token buckets of `per_minute` requests a minute, each holding at most that many
/// (a burst of a minute's worth), as the generic cell rate algorithm keeps them: one
/// instant per key, the time at which its bucket is full again. 0 turns them off.
#[derive(Debug)]
pub struct Buckets {
    per_minute: u32,
    /// The instants are kept as the time since `base`.
    base: Instant,
    full_at: Mutex<HashMap<String, Duration>>,
}

impl Buckets {
    /// Buckets of `per_minute` requests a minute per key (0: no limit).
    pub fn new(per_minute: u32) -> Buckets {
        Buckets {
            per_minute,
            base: Instant::now(),
            full_at: Mutex::new(HashMap::new()),
        }
    }

    /// The requests a minute per key (0: no limit).
    pub fn per_minute(&self) -> u32 {
        self.per_minute
    }

    /// Takes one request for `key` at `now`: `Err(seconds)` to wait (at least 1) when its
    /// bucket is empty.
    pub fn take(&self, key: &str, now: Instant) -> Result<(), u64> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let interval = Duration::from_secs(60) / self.per_minute;
        let burst = Duration::from_secs(60);
        let now = now.saturating_duration_since(self.base);
        let mut map = self.full_at.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() >= MAX_KEYS && !map.contains_key(key) {
            map.retain(|_, full| *full > now);
            if map.len() >= MAX_KEYS {
                map.clear();
            }
        }
        let full = map.get(key).copied().unwrap_or(now).max(now);
        let next = full + interval;
        if next > now + burst {
            let wait = next - (now + burst);
            return Err(wait.as_secs() + u64::from(wait.subsec_nanos() > 0));
        }
        map.insert(key.to_string(), next);
        Ok(())
    }
}

/// What the access log does with one answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogLine {
    /// Written.
    Write,
    /// Written, after a line saying how many were left out in the seconds before.
    WriteAfterDropped(u64),
    /// Left out.
    Drop,
}

/// The access log's limiter (`ACCESS_LOG`).
#[derive(Debug)]
pub struct AccessLog {
    mode: AccessLogMode,
    seen: AtomicU64,
    /// For `rate:N`: the second being counted, the lines written in it, and the lines left
    /// out since the last one written.
    window: Mutex<(u64, u64, u64)>,
}

impl AccessLog {
    /// A limiter for `mode`.
    pub fn new(mode: AccessLogMode) -> AccessLog {
        AccessLog {
            mode,
            seen: AtomicU64::new(0),
            window: Mutex::new((0, 0, 0)),
        }
    }

    /// Whether the answer with `status`, given at second `second` (of any clock that counts
    /// whole seconds), is logged.
    pub fn decide(&self, status: u16, second: u64) -> LogLine {
        match self.mode {
            AccessLogMode::All => LogLine::Write,
            AccessLogMode::Off => LogLine::Drop,
            AccessLogMode::Errors if status >= 400 => LogLine::Write,
            AccessLogMode::Errors => LogLine::Drop,
            AccessLogMode::Sample(n) => {
                if self.seen.fetch_add(1, Ordering::Relaxed).is_multiple_of(n) {
                    LogLine::Write
                } else {
                    LogLine::Drop
                }
            }
            AccessLogMode::Rate(n) => {
                let mut w = self.window.lock().unwrap_or_else(|p| p.into_inner());
                if w.0 != second {
                    (w.0, w.1) = (second, 0);
                }
                if w.1 >= n {
                    w.2 += 1;
                    return LogLine::Drop;
                }
                w.1 += 1;
                match std::mem::take(&mut w.2) {
                    0 => LogLine::Write,
                    dropped => LogLine::WriteAfterDropped(dropped),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_a_minutes_worth_at_once_then_one_per_interval() {
        let b = Buckets::new(6); // one every 10 s, at most 6 at once
        let t0 = b.base + Duration::from_secs(100);
        for i in 0..6 {
            assert_eq!(b.take("192.0.2.1", t0), Ok(()), "request {i}");
        }
        assert_eq!(b.take("192.0.2.1", t0), Err(10));
        assert_eq!(b.take("192.0.2.1", t0 + Duration::from_secs(4)), Err(6));
        // another address has its own bucket
        assert_eq!(b.take("192.0.2.2", t0), Ok(()));
        // 10 s later one more, and only one
        let t1 = t0 + Duration::from_secs(10);
        assert_eq!(b.take("192.0.2.1", t1), Ok(()));
        assert_eq!(b.take("192.0.2.1", t1), Err(10));
        // a quiet minute fills the bucket again, and no further
        let t2 = t1 + Duration::from_secs(600);
        for _ in 0..6 {
            assert_eq!(b.take("192.0.2.1", t2), Ok(()));
        }
        assert!(b.take("192.0.2.1", t2).is_err());
    }

    #[test]
    fn buckets_of_zero_are_off() {
        let b = Buckets::new(0);
        for _ in 0..10_000 {
            assert_eq!(b.take("192.0.2.1", b.base), Ok(()));
        }
    }

    #[test]
    fn buckets_forget_full_ones_when_too_many_addresses_are_tracked() {
        let b = Buckets::new(60);
        for i in 0..MAX_KEYS {
            assert_eq!(b.take(&format!("k{i}"), b.base), Ok(()));
        }
        // a minute later every bucket is full again: a new key clears them
        let later = b.base + Duration::from_secs(61);
        assert_eq!(b.take("new", later), Ok(()));
        assert_eq!(b.full_at.lock().unwrap().len(), 1);
    }

    #[test]
    fn the_access_log_modes() {
        let all = AccessLog::new(AccessLogMode::All);
        assert!((0..5).all(|_| all.decide(200, 0) == LogLine::Write));
        let off = AccessLog::new(AccessLogMode::Off);
        assert_eq!(off.decide(500, 0), LogLine::Drop);
        let errors = AccessLog::new(AccessLogMode::Errors);
        assert_eq!(errors.decide(200, 0), LogLine::Drop);
        assert_eq!(errors.decide(304, 0), LogLine::Drop);
        assert_eq!(errors.decide(404, 0), LogLine::Write);
        assert_eq!(errors.decide(503, 0), LogLine::Write);
        // one in three: the 1st, 4th, 7th …
        let sample = AccessLog::new(AccessLogMode::Sample(3));
        let written: Vec<bool> = (0..7)
            .map(|_| sample.decide(200, 0) == LogLine::Write)
            .collect();
        assert_eq!(written, [true, false, false, true, false, false, true]);
    }

    #[test]
    fn the_access_log_rate_writes_n_lines_a_second_and_counts_the_rest() {
        let log = AccessLog::new(AccessLogMode::Rate(2));
        let second =
            |s: u64, n: usize| -> Vec<LogLine> { (0..n).map(|_| log.decide(200, s)).collect() };
        use LogLine::{Drop, Write, WriteAfterDropped};
        assert_eq!(second(7, 5), [Write, Write, Drop, Drop, Drop]);
        // the first line of the next second says three were left out
        assert_eq!(second(8, 3), [WriteAfterDropped(3), Write, Drop]);
        // a quiet second between: the count carries over to the next line written
        assert_eq!(second(10, 1), [WriteAfterDropped(1)]);
        assert_eq!(second(11, 2), [Write, Write]);
    }
}
