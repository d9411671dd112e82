//! Read cache for computed responses (standings). An entry is valid for one *version*: the
//! ETag built from the counters in the database (`cache_stamps`) that every relevant write
//! bumps in its own transaction. A read looks the counters up (primary-key queries) and serves
//! the cached body when the version matches, so several processes sharing one database never
//! serve a stale answer: a write through one process bumps the counter all of them read.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A cached response body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The body.
    pub body: bytes::Bytes,
    /// Its content type.
    pub content_type: &'static str,
    /// Its ETag.
    pub etag: String,
}

/// The cache: key → entry (whose `etag` is its version), bounded in size.
#[derive(Debug)]
pub struct ReadCache {
    capacity: usize,
    map: Mutex<HashMap<String, Arc<Entry>>>,
}

impl ReadCache {
    /// A cache holding at most `capacity` entries (oldest stamps evicted first when full).
    pub fn new(capacity: usize) -> ReadCache {
        ReadCache {
            capacity: capacity.max(1),
            map: Mutex::new(HashMap::new()),
        }
    }

    /// The entry for `key` if it is of version `etag`.
    pub fn get(&self, key: &str, etag: &str) -> Option<Arc<Entry>> {
        let map = self.map.lock().ok()?;
        map.get(key).filter(|e| e.etag == etag).cloned()
    }

    /// Stores an entry (its `etag` is its version).
    pub fn put(&self, key: &str, entry: Entry) -> Arc<Entry> {
        let entry = Arc::new(entry);
        if let Ok(mut map) = self.map.lock() {
            if map.len() >= self.capacity && !map.contains_key(key) {
                // evict an arbitrary half: simple and bounded; hot keys come back at once
                let drop: Vec<String> = map.keys().take(self.capacity / 2 + 1).cloned().collect();
                for k in drop {
                    map.remove(&k);
                }
            }
            map.insert(key.to_string(), entry.clone());
        }
        entry
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

    fn e(body: &str, version: &str) -> Entry {
        Entry {
            body: bytes::Bytes::from(body.to_string()),
            content_type: "application/json",
            etag: version.to_string(),
        }
    }

    #[test]
    fn entries_live_for_one_version() {
        let c = ReadCache::new(10);
        assert!(c.get("k", "v1").is_none());
        c.put("k", e("a", "v1"));
        assert_eq!(c.get("k", "v1").unwrap().body, "a");
        assert!(c.get("k", "v2").is_none(), "a newer version invalidates");
        c.put("k", e("b", "v2"));
        assert_eq!(c.get("k", "v2").unwrap().body, "b");
        assert!(c.get("k", "v1").is_none());
    }

    #[test]
    fn bounded() {
        let c = ReadCache::new(4);
        for i in 0..100 {
            c.put(&format!("k{i}"), e("x", "v"));
        }
        assert!(c.map.lock().unwrap().len() <= 4);
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
