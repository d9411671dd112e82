//! Read cache for computed responses (standings, published pairings). An entry is valid for
//! one *version*: the ETag built from the counters in the database (`cache_stamps`) that every
//! relevant write bumps in its own transaction. A read looks the counters up and serves the
//! cached body when the version matches, so several processes sharing one database never
//! serve a stale answer: a write through one process bumps the counter all of them read.
//!
//! The counter lookups are *coalesced* ([`Coalescer`]): concurrent reads of one key share one
//! database query, but only a query that started after the read arrived, so every write
//! committed before a read arrived is seen by it (docs/decisions/0009-read-cache.md).

use actix_web::http::header::HeaderValue;
use futures_util::FutureExt;
use futures_util::future::{BoxFuture, Shared};
use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// What a cached document is: a competition, the kind of document (`"standings"`,
/// `"round-public"`, …) and its argument (the `after` of a standings read, a round number).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    /// The competition.
    pub competition: i64,
    /// The kind of document (and who may see what in it).
    pub doc: &'static str,
    /// Its argument, if any.
    pub arg: Option<i64>,
    /// Who reads it: a document names players as its audience may see them
    /// ([`crate::publication`]).
    pub audience: crate::publication::Audience,
}

/// A cached response body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The body.
    pub body: bytes::Bytes,
    /// The version it belongs to (the competition's cache stamps, see
    /// [`CompetitionVersion::stamps`]): the entry is valid while the looked-up version is this
    /// one.
    pub version: (i64, i64),
    /// Its HTTP `ETag` (built from the version, or a tag of the document that changes with it).
    pub tag: HeaderValue,
    /// The `ETag` of its gzip representation ([`gzip_etag`]).
    pub gz_tag: HeaderValue,
    /// The body gzip-compressed (for clients that accept it), made once per version.
    pub gzip: Option<bytes::Bytes>,
}

impl Entry {
    /// An entry of `body` at `version` with HTTP ETag `tag` (a quoted strong tag).
    pub fn new(body: Vec<u8>, version: (i64, i64), tag: &str) -> Entry {
        let header = |t: &str| {
            HeaderValue::from_str(t).unwrap_or_else(|_| HeaderValue::from_static("\"invalid\""))
        };
        Entry {
            gzip: gzip(&body),
            body: body.into(),
            version,
            tag: header(tag),
            gz_tag: header(&gzip_etag(tag)),
        }
    }
}

/// `body` gzip-compressed.
pub fn gzip(body: &[u8]) -> Option<bytes::Bytes> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(body).ok()?;
    e.finish().ok().map(bytes::Bytes::from)
}

/// Whether an `Accept-Encoding` value accepts gzip (listed without `q=0`).
pub fn accepts_gzip(header: Option<&str>) -> bool {
    header.is_some_and(|h| {
        h.split(',').any(|t| {
            let mut parts = t.split(';').map(str::trim);
            let coding = parts.next().unwrap_or("");
            let q0 = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q == 0.0)
            });
            (coding.eq_ignore_ascii_case("gzip") || coding == "*") && !q0
        })
    })
}

/// The ETag of the gzip representation of a version (`"…"` → `"…-gz"`): a strong ETag
/// differs per content coding.
pub fn gzip_etag(etag: &str) -> String {
    match etag.strip_suffix('"') {
        Some(open) => format!("{open}-gz\""),
        None => format!("{etag}-gz"),
    }
}

/// The cache: key → entry, bounded in size.
#[derive(Debug)]
pub struct ReadCache {
    capacity: usize,
    map: Mutex<HashMap<Key, Arc<Entry>>>,
}

impl ReadCache {
    /// A cache holding at most `capacity` entries (an arbitrary half is evicted when full).
    pub fn new(capacity: usize) -> ReadCache {
        ReadCache {
            capacity: capacity.max(1),
            map: Mutex::new(HashMap::new()),
        }
    }

    /// The entry for `key` if it is of `version`.
    pub fn get(&self, key: &Key, version: (i64, i64)) -> Option<Arc<Entry>> {
        let map = self.map.lock().ok()?;
        map.get(key).filter(|e| e.version == version).cloned()
    }

    /// Stores an entry.
    pub fn put(&self, key: Key, entry: Entry) -> Arc<Entry> {
        let entry = Arc::new(entry);
        if let Ok(mut map) = self.map.lock() {
            if map.len() >= self.capacity && !map.contains_key(&key) {
                // evict an arbitrary half: simple and bounded; hot keys come back at once
                let drop: Vec<Key> = map.keys().take(self.capacity / 2 + 1).copied().collect();
                for k in drop {
                    map.remove(&k);
                }
            }
            map.insert(key, entry.clone());
        }
        entry
    }
}

/// A competition's version: the cache stamps its computed reads depend on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompetitionVersion {
    /// The competition.
    pub id: crate::ids::CompetitionId,
    /// The winter half it is seeded from (fixed at creation).
    pub seeded_from: Option<i64>,
    /// Its cache stamp.
    pub stamp: i64,
    /// The cache stamp of the winter half it is seeded from (0 when none).
    pub winter: i64,
}

impl CompetitionVersion {
    /// The stamps (its own, the winter's).
    pub fn stamps(&self) -> (i64, i64) {
        (self.stamp, self.winter)
    }
}

/// The outcome of a coalesced version lookup (shared by every read that joined it).
pub type VersionLookup = Result<Arc<CompetitionVersion>, Arc<crate::error::ApiError>>;

/// Version lookups of competitions: coalesced ([`Coalescer`]), on connections of their own
/// (kept open, not checked out of the pool: no liveness query per lookup; a connection that
/// failed is dropped and the next lookup opens a new one), with each competition's fixed
/// `seeded_from` remembered so a lookup is only the stamp queries. On SQLite a lookup runs at
/// once on the caller's thread (a primary-key read that never waits for writers in WAL mode);
/// on Postgres on the blocking pool.
#[derive(Debug)]
pub struct Versions {
    /// The coalesced lookups by competition id.
    pub flights: Coalescer<i64, VersionLookup>,
    /// Their connections.
    pub db: Arc<LookupDb>,
}

impl Versions {
    /// Lookups on the database of `url`, whose connections bound their waits by `settings`;
    /// a looked-up version is reused for `reuse` after its lookup started (see
    /// [`LookupDb::reusable`]; zero: never).
    pub fn new(
        url: &str,
        settings: crate::store::waits::ConnSettings,
        reuse: std::time::Duration,
    ) -> Result<Versions, String> {
        let target = crate::store::DbTarget::parse_with(url, settings)?;
        Ok(Versions {
            flights: Coalescer::new(1024),
            db: Arc::new(LookupDb::new(target, reuse)),
        })
    }
}

/// The two copies of the SQLite WAL-index header (<https://www.sqlite.org/walformat.html>).
pub type WalHeader = [u8; 96];

/// The connections of version lookups, the competitions' remembered seeds, and (SQLite) the
/// WAL-index header seen before each competition's last lookup.
pub struct LookupDb {
    target: crate::store::DbTarget,
    idle: Mutex<Vec<crate::store::DbConn>>,
    seeds: Mutex<HashMap<i64, Option<i64>>>,
    /// The `-shm` file of a SQLite database.
    shm: Option<std::path::PathBuf>,
    /// That file, kept open, and a connection of our own that keeps it in use (see
    /// [`LookupDb::wal_header`]); opened at the first header read.
    shm_file: std::sync::OnceLock<Option<(std::fs::File, Mutex<crate::store::DbConn>)>>,
    seen: Mutex<HashMap<i64, (WalHeader, Arc<CompetitionVersion>)>>,
    /// How long after its lookup started a version may still be served.
    reuse: std::time::Duration,
    /// Each competition's newest lookup: when it started, and what it found.
    recent: Mutex<HashMap<i64, (std::time::Instant, Arc<CompetitionVersion>)>>,
}

impl std::fmt::Debug for LookupDb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LookupDb")
            .field("backend", &self.target.backend)
            .finish_non_exhaustive()
    }
}

impl LookupDb {
    fn new(target: crate::store::DbTarget, reuse: std::time::Duration) -> LookupDb {
        let shm = (target.backend == crate::store::Backend::Sqlite
            && !target.conn_str.starts_with("file:")
            && !target.conn_str.contains(":memory:"))
        .then(|| std::path::PathBuf::from(format!("{}-shm", target.conn_str)));
        LookupDb {
            idle: Mutex::new(Vec::new()),
            seeds: Mutex::new(HashMap::new()),
            shm,
            shm_file: std::sync::OnceLock::new(),
            seen: Mutex::new(HashMap::new()),
            reuse,
            recent: Mutex::new(HashMap::new()),
            target,
        }
    }

    /// The version of competition `id` from a lookup that started less than the
    /// reuse time ago. Sound because every write that bumps a stamp waits that long (plus a
    /// margin, [`LookupDb::write_wait`]) after its commit before it answers: a read arriving
    /// after a write's answer finds every lookup started before the write's commit too old to
    /// reuse, so it is served a version looked up after the commit, in any process.
    /// With it, whether it is past half its reuse time (time to look up the next one, so
    /// that reads find a fresh version instead of waiting for a lookup).
    pub fn reusable(&self, id: i64) -> Option<(Arc<CompetitionVersion>, bool)> {
        if self.reuse.is_zero() {
            return None;
        }
        let recent = self.recent.lock().ok()?;
        let (started, v) = recent.get(&id)?;
        let age = started.elapsed();
        (age < self.reuse).then(|| (v.clone(), age >= self.reuse / 2))
    }

    /// Records the result of a lookup of competition `id` that started at `started` (before
    /// its query was sent), unless a later-started lookup is recorded already.
    pub fn record_recent(&self, id: i64, started: std::time::Instant, v: &Arc<CompetitionVersion>) {
        if self.reuse.is_zero() {
            return;
        }
        if let Ok(mut m) = self.recent.lock() {
            if m.len() >= 4096 && !m.contains_key(&id) {
                m.clear();
            }
            match m.get(&id) {
                Some((s, _)) if *s >= started => {}
                _ => {
                    m.insert(id, (started, v.clone()));
                }
            }
        }
    }

    /// How long a write that bumped a cache stamp waits after its commit before it answers:
    /// the reuse time, plus 1 % and 100 µs for clocks of other machines that run slightly
    /// fast. `None` when versions are not reused (a reuse time of zero).
    pub fn write_wait(&self) -> Option<std::time::Duration> {
        (!self.reuse.is_zero())
            .then(|| self.reuse + self.reuse / 100 + std::time::Duration::from_micros(100))
    }

    /// SQLite in WAL mode: the WAL-index header, read from the `-shm` file without a query.
    /// Every commit (by any process) changes it: it holds the WAL's last frame, change
    /// counter, salts and checksums, and a committing connection rewrites it before the
    /// commit returns. `None` when unavailable, not initialized, or caught mid-update.
    ///
    /// The file is opened once and read with one `pread`. SQLite deletes (or truncates) the
    /// `-shm` file only when the last connection to the database closes (or the first one
    /// opens), which it knows by a lock every open connection holds; a connection of our own,
    /// opened and used before the file is, is kept open as long as the file, so the file read
    /// is always the one every writer updates.
    pub fn wal_header(&self) -> Option<WalHeader> {
        use std::os::unix::fs::FileExt;
        let (f, _pin) = self
            .shm_file
            .get_or_init(|| {
                let path = self.shm.as_ref()?;
                let mut pin = self.target.connect().ok()?;
                // a read maps the WAL index (and creates the file) and takes its lock
                crate::store::models::competition::stamp(&mut pin, "competition:0").ok()?;
                let f = std::fs::File::open(path).ok()?;
                Some((f, Mutex::new(pin)))
            })
            .as_ref()?;
        let mut h = [0u8; 96];
        f.read_exact_at(&mut h, 0).ok()?;
        // isInit (byte 12) set, and both copies equal (a writer updates them one by one)
        (h[12] == 1 && h[..48] == h[48..]).then_some(h)
    }

    /// The version of competition `id` from its last lookup, if no commit at all reached the
    /// database since that lookup started (the WAL-index header is unchanged). Counts as a
    /// lookup that started now, for [`LookupDb::reusable`].
    pub fn unchanged(&self, id: i64) -> Option<Arc<CompetitionVersion>> {
        let seen = self.seen.lock().ok()?.get(&id).cloned()?;
        let t = std::time::Instant::now();
        let now = self.wal_header()?;
        if now == seen.0 {
            self.record_recent(id, t, &seen.1);
            Some(seen.1)
        } else {
            None
        }
    }

    /// Records a lookup's result with the header read before it started.
    pub fn record(&self, id: i64, header: Option<WalHeader>, v: &Arc<CompetitionVersion>) {
        if let (Some(h), Ok(mut m)) = (header, self.seen.lock()) {
            if m.len() >= 4096 {
                m.clear();
            }
            m.insert(id, (h, v.clone()));
        }
    }

    /// Whether lookups run inline (SQLite).
    pub fn inline(&self) -> bool {
        self.target.backend == crate::store::Backend::Sqlite
    }

    /// The remembered `seeded_from` of a competition (`None`: not known yet).
    pub fn seed(&self, id: i64) -> Option<Option<i64>> {
        self.seeds.lock().ok()?.get(&id).copied()
    }

    /// Remembers a competition's `seeded_from` (fixed at creation).
    pub fn remember_seed(&self, id: i64, seeded_from: Option<i64>) {
        if let Ok(mut m) = self.seeds.lock() {
            if m.len() >= 4096 {
                m.clear();
            }
            m.insert(id, seeded_from);
        }
    }

    /// Runs `f` on a lookup connection.
    pub fn with_conn<T>(
        &self,
        f: impl FnOnce(&mut crate::store::DbConn) -> crate::error::ApiResult<T>,
    ) -> crate::error::ApiResult<T> {
        let idle = self.idle.lock().ok().and_then(|mut v| v.pop());
        let mut conn = match idle {
            Some(c) => c,
            None => self.target.connect().map_err(|e| {
                tracing::error!(cause = %e, "no database connection for a version lookup");
                crate::error::ApiError::Unavailable(crate::error::UNAVAILABLE.into())
            })?,
        };
        let r = f(&mut conn);
        if r.is_ok()
            && let Ok(mut v) = self.idle.lock()
            && v.len() < 16
        {
            v.push(conn);
        }
        r
    }
}

/// One lookup of a key: shared by every read that joins it before it starts.
struct Flight<T> {
    /// Set just before the lookup starts (before its database snapshot is taken).
    started: Arc<AtomicBool>,
    fut: Shared<BoxFuture<'static, T>>,
}

/// Request coalescing ("single flight") for version lookups. A read of a key joins the
/// newest lookup of that key if that lookup has not started yet; otherwise it queues a new
/// lookup that starts when the running one ends. So a read only ever uses a lookup that
/// started after the read arrived (never stale), at most one lookup per key runs at a time,
/// and a read waits for at most two.
pub struct Coalescer<K, T: Clone> {
    capacity: usize,
    flights: Mutex<HashMap<K, Flight<T>>>,
}

impl<K, T: Clone> std::fmt::Debug for Coalescer<K, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Coalescer")
            .field("capacity", &self.capacity)
            .finish_non_exhaustive()
    }
}

impl<K, T> Coalescer<K, T>
where
    K: Hash + Eq + Clone,
    T: Clone + Send + Sync + 'static,
{
    /// A coalescer remembering at most about `capacity` keys (finished lookups are dropped
    /// first).
    pub fn new(capacity: usize) -> Coalescer<K, T> {
        Coalescer {
            capacity: capacity.max(1),
            flights: Mutex::new(HashMap::new()),
        }
    }

    /// Starts a lookup of `key` (driven by a task of its own) if none is queued or running;
    /// whether it did.
    pub fn start_if_idle<Fut>(&self, key: K, fetch: impl FnOnce() -> Fut) -> bool
    where
        Fut: Future<Output = T> + Send + 'static,
    {
        {
            let flights = match self.flights.lock() {
                Ok(g) => g,
                Err(poisoned) => poisoned.into_inner(),
            };
            if flights.get(&key).is_some_and(|f| f.fut.peek().is_none()) {
                return false;
            }
        }
        drop(self.get(key, fetch));
        true
    }

    /// The value of `key` from a lookup (`fetch`, lazy: not polled before it starts) that
    /// starts after this call.
    pub fn get<Fut>(&self, key: K, fetch: impl FnOnce() -> Fut) -> Shared<BoxFuture<'static, T>>
    where
        Fut: Future<Output = T> + Send + 'static,
    {
        let mut flights = match self.flights.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        let prev = match flights.get(&key) {
            Some(f) if !f.started.load(Ordering::SeqCst) => return f.fut.clone(),
            Some(f) if f.fut.peek().is_none() => Some(f.fut.clone()),
            _ => None,
        };
        if flights.len() >= self.capacity && !flights.contains_key(&key) {
            flights.retain(|_, f| f.fut.peek().is_none());
        }
        let started = Arc::new(AtomicBool::new(false));
        let flag = started.clone();
        let lookup = fetch();
        let fut = async move {
            if let Some(prev) = prev {
                // one lookup per key at a time: this one starts when the running one ends
                prev.await;
            }
            flag.store(true, Ordering::SeqCst);
            lookup.await
        }
        .boxed()
        .shared();
        flights.insert(
            key,
            Flight {
                started,
                fut: fut.clone(),
            },
        );
        // driven by a task of its own: each waiting read is woken once, when it is done (and
        // a lookup whose readers went away still finishes)
        actix_web::rt::spawn(fut.clone().map(|_| ()));
        fut
    }
}

/// Whether an `If-None-Match` header value matches `etag` (`*` or a listed tag; weak
/// comparison).
pub fn none_match(header: Option<&str>, etag: &str) -> bool {
    let strip = |t: &str| t.trim().trim_start_matches("W/").to_string();
    header.is_some_and(|h| h.trim() == "*" || h.split(',').any(|t| strip(t) == strip(etag)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(arg: i64) -> Key {
        Key {
            competition: 1,
            doc: "standings",
            arg: Some(arg),
            audience: crate::publication::Audience::Full,
        }
    }

    #[test]
    fn entries_live_for_one_version() {
        let c = ReadCache::new(10);
        assert!(c.get(&key(1), (1, 0)).is_none());
        c.put(key(1), Entry::new(b"a".to_vec(), (1, 0), "\"v1\""));
        assert_eq!(c.get(&key(1), (1, 0)).unwrap().body, "a");
        assert!(c.get(&key(2), (1, 0)).is_none(), "another document");
        assert!(
            c.get(&key(1), (2, 0)).is_none(),
            "a newer version invalidates"
        );
        assert!(
            c.get(&key(1), (1, 1)).is_none(),
            "so does a newer winter half"
        );
        c.put(key(1), Entry::new(b"b".to_vec(), (2, 0), "\"v2\""));
        let e = c.get(&key(1), (2, 0)).unwrap();
        assert_eq!(e.body, "b");
        assert_eq!(e.tag, "\"v2\"");
        assert_eq!(e.gz_tag, "\"v2-gz\"");
        assert!(c.get(&key(1), (1, 0)).is_none());
    }

    fn version(stamp: i64) -> Arc<CompetitionVersion> {
        Arc::new(CompetitionVersion {
            id: crate::ids::CompetitionId(1),
            seeded_from: None,
            stamp,
            winter: 0,
        })
    }

    fn lookups(url: &str, reuse: std::time::Duration) -> LookupDb {
        LookupDb::new(crate::store::DbTarget::parse(url).unwrap(), reuse)
    }

    #[test]
    fn a_postgres_version_is_reused_only_within_the_reuse_time() {
        use std::time::{Duration, Instant};
        let hour = Duration::from_secs(3600);
        let db = lookups("postgres://localhost/x", hour);
        assert!(db.reusable(1).is_none(), "nothing looked up yet");
        let t0 = Instant::now();
        db.record_recent(1, t0, &version(5));
        assert_eq!(db.reusable(1).unwrap().0.stamp, 5);
        assert!(!db.reusable(1).unwrap().1, "fresh: no lookup needed yet");
        assert!(db.reusable(2).is_none(), "per competition");
        // a lookup that started earlier never replaces a later one (stamps only grow)
        db.record_recent(1, t0 - Duration::from_millis(1), &version(4));
        assert_eq!(db.reusable(1).unwrap().0.stamp, 5);
        db.record_recent(1, t0 + Duration::from_millis(1), &version(6));
        assert_eq!(db.reusable(1).unwrap().0.stamp, 6);
        // past half the reuse time: still served, and time for the next lookup
        db.record_recent(4, Instant::now() - hour / 2 - hour / 10, &version(2));
        assert_eq!(db.reusable(4), Some((version(2), true)));
        // a lookup that started longer ago than the reuse time is not served
        db.record_recent(3, Instant::now() - 2 * hour, &version(1));
        assert!(db.reusable(3).is_none());
        // a write waits at least the reuse time
        assert!(db.write_wait().unwrap() > hour);
    }

    #[test]
    fn no_reuse_when_switched_off() {
        use std::time::{Duration, Instant};
        let db = lookups("postgres://localhost/x", Duration::ZERO);
        db.record_recent(1, Instant::now(), &version(5));
        assert!(db.reusable(1).is_none());
        assert!(db.write_wait().is_none(), "writes do not wait");
        // SQLite reuses as Postgres does
        let db = lookups("sqlite:///tmp/x.sqlite3", Duration::from_secs(3600));
        db.record_recent(1, Instant::now(), &version(5));
        assert_eq!(db.reusable(1).unwrap().0.stamp, 5);
        assert!(db.write_wait().is_some());
    }

    #[test]
    fn bounded() {
        let c = ReadCache::new(4);
        for i in 0..100 {
            c.put(key(i), Entry::new(b"x".to_vec(), (1, 0), "\"v\""));
        }
        assert!(c.map.lock().unwrap().len() <= 4);
    }

    /// A lookup counter: each lookup returns the number of lookups started before it.
    fn counter() -> (Arc<std::sync::atomic::AtomicUsize>, Coalescer<u8, usize>) {
        (Arc::new(Default::default()), Coalescer::new(8))
    }

    fn lookup(
        n: &Arc<std::sync::atomic::AtomicUsize>,
    ) -> impl FnOnce() -> BoxFuture<'static, usize> + use<> {
        let n = n.clone();
        move || async move { n.fetch_add(1, Ordering::SeqCst) }.boxed()
    }

    /// The current lookup of `key`.
    fn flight(c: &Coalescer<u8, usize>, key: u8) -> Shared<BoxFuture<'static, usize>> {
        c.flights
            .lock()
            .unwrap()
            .get(&key)
            .map(|f| f.fut.clone())
            .unwrap()
    }

    /// A lookup that counts itself as started, then waits until `gate` is free.
    fn gated_lookup(
        n: &Arc<std::sync::atomic::AtomicUsize>,
        gate: &Arc<futures_util::lock::Mutex<()>>,
    ) -> impl FnOnce() -> BoxFuture<'static, usize> + use<> {
        let (n, g) = (n.clone(), gate.clone());
        move || {
            async move {
                let v = n.fetch_add(1, Ordering::SeqCst);
                drop(g.lock().await);
                v
            }
            .boxed()
        }
    }

    #[actix_web::test]
    async fn reads_before_a_lookup_starts_share_it() {
        let (n, c) = counter();
        let a = c.get(1, lookup(&n));
        let b = c.get(1, lookup(&n));
        let other = c.get(2, lookup(&n));
        assert_eq!(a.await, 0);
        assert_eq!(b.await, 0, "joined the lookup that had not started");
        assert_eq!(other.await, 1, "another key has its own lookup");
        assert_eq!(n.load(Ordering::SeqCst), 2);
    }

    #[actix_web::test]
    async fn a_read_after_a_lookup_started_gets_a_new_one() {
        let (n, c) = counter();
        // a lookup that has started and waits on a gate
        let gate = Arc::new(futures_util::lock::Mutex::new(()));
        let held = gate.lock().await;
        let mut first = Box::pin(c.get(1, gated_lookup(&n, &gate)));
        assert!(futures_util::poll!(first.as_mut()).is_pending());
        assert_eq!(n.load(Ordering::SeqCst), 1, "the first lookup started");
        // reads arriving now must not use it: they share one new lookup, queued behind it
        let mut second = Box::pin(c.get(1, lookup(&n)));
        let third = c.get(1, lookup(&n));
        assert!(futures_util::poll!(second.as_mut()).is_pending());
        assert_eq!(n.load(Ordering::SeqCst), 1, "one lookup per key at a time");
        drop(held);
        assert_eq!(second.await, 1);
        assert_eq!(first.await, 0);
        assert_eq!(third.await, 1);
        // after it finished, a new read starts a new lookup
        assert_eq!(c.get(1, lookup(&n)).await, 2);
    }

    #[actix_web::test]
    async fn an_abandoned_lookup_is_finished_by_the_next_read() {
        let (n, c) = counter();
        let gate = Arc::new(futures_util::lock::Mutex::new(()));
        let held = gate.lock().await;
        let mut first = Box::pin(c.get(1, gated_lookup(&n, &gate)));
        assert!(futures_util::poll!(first.as_mut()).is_pending());
        drop(first); // the client went away mid-lookup
        drop(held);
        assert_eq!(c.get(1, lookup(&n)).await, 1, "no deadlock");
    }

    #[actix_web::test]
    async fn a_lookup_runs_to_the_end_when_its_readers_went_away() {
        let (n, c) = counter();
        drop(c.get(1, lookup(&n)));
        for _ in 0..100 {
            if n.load(Ordering::SeqCst) == 1 {
                break;
            }
            actix_web::rt::task::yield_now().await;
        }
        assert_eq!(n.load(Ordering::SeqCst), 1, "driven by its own task");
        let f = flight(&c, 1);
        assert_eq!(f.peek(), Some(&0), "and finished");
    }

    #[actix_web::test]
    async fn a_lookup_ahead_starts_only_when_none_is_under_way() {
        let (n, c) = counter();
        let gate = Arc::new(futures_util::lock::Mutex::new(()));
        let held = gate.lock().await;
        assert!(c.start_if_idle(1, gated_lookup(&n, &gate)), "idle: started");
        assert!(!c.start_if_idle(1, lookup(&n)), "one is under way");
        let other = Arc::new(std::sync::atomic::AtomicUsize::new(100));
        assert!(c.start_if_idle(2, lookup(&other)), "another key");
        drop(held);
        // the first lookup finishes on its own task; then the key is idle again
        let first = flight(&c, 1);
        assert_eq!(first.await, 0);
        assert!(c.start_if_idle(1, lookup(&n)));
        // a read arriving now joins that lookup if it has not started, else queues one
        assert_eq!(
            c.get(1, lookup(&n)).await,
            1,
            "the lookup ahead, the second of key 1"
        );
        assert_eq!(
            n.load(Ordering::SeqCst),
            2,
            "no lookup of key 1 was refused and run"
        );
    }

    #[actix_web::test]
    async fn coalescer_is_bounded() {
        let (n, c) = counter();
        for k in 0..100u8 {
            c.get(k, lookup(&n)).await;
        }
        assert!(c.flights.lock().unwrap().len() <= 8);
    }

    #[test]
    fn gzip_round_trip_and_negotiation() {
        use std::io::Read;
        let body = br#"{"rows":[1,2,3]}"#.repeat(50);
        let z = gzip(&body).unwrap();
        assert!(z.len() < body.len() / 4);
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&z[..])
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, body);
        assert!(accepts_gzip(Some("gzip, deflate, br")));
        assert!(accepts_gzip(Some("br;q=1.0, GZIP;q=0.5")));
        assert!(accepts_gzip(Some("*")));
        assert!(!accepts_gzip(Some("gzip;q=0, br")));
        assert!(!accepts_gzip(Some("identity")));
        assert!(!accepts_gzip(None));
        assert_eq!(gzip_etag("\"s-1\""), "\"s-1-gz\"");
    }

    #[test]
    fn if_none_match() {
        assert!(none_match(Some("\"a\", \"b\""), "\"b\""));
        assert!(none_match(Some("W/\"b\""), "\"b\""));
        assert!(none_match(Some("*"), "\"b\""));
        assert!(!none_match(Some("\"a\""), "\"b\""));
        assert!(!none_match(None, "\"b\""));
    }
}
