//! Read cache for computed responses (standings, published pairings). An entry is valid for
//! one *stamp*: a counter in the database (`cache_stamps`) that every relevant write bumps in
//! its own transaction. A read looks the stamp up (one primary-key query) and serves the
//! cached body when it matches, so several processes sharing one database never serve a stale
//! answer: a write through one process bumps the stamp that all of them read.

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

/// The cache: key → (stamp, entry), bounded in size.
#[derive(Debug)]
pub struct ReadCache {
    capacity: usize,
    map: Mutex<HashMap<String, (i64, Arc<Entry>)>>,
}

impl ReadCache {
    /// A cache holding at most `capacity` entries (oldest stamps evicted first when full).
    pub fn new(capacity: usize) -> ReadCache {
        ReadCache {
            capacity: capacity.max(1),
            map: Mutex::new(HashMap::new()),
        }
    }

    /// The entry for `key` if it was computed at `stamp`.
    pub fn get(&self, key: &str, stamp: i64) -> Option<Arc<Entry>> {
        let map = self.map.lock().ok()?;
        match map.get(key) {
            Some((s, e)) if *s == stamp => Some(e.clone()),
            _ => None,
        }
    }

    /// Stores the entry computed at `stamp` (an older stamp never replaces a newer one).
    pub fn put(&self, key: &str, stamp: i64, entry: Entry) -> Arc<Entry> {
        let entry = Arc::new(entry);
        if let Ok(mut map) = self.map.lock() {
            if map.get(key).is_some_and(|(s, _)| *s > stamp) {
                return entry;
            }
            if map.len() >= self.capacity && !map.contains_key(key) {
                // evict an arbitrary half: simple and bounded; hot keys come back at once
                let drop: Vec<String> = map.keys().take(self.capacity / 2 + 1).cloned().collect();
                for k in drop {
                    map.remove(&k);
                }
            }
            map.insert(key.to_string(), (stamp, entry.clone()));
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

    fn e(s: &str) -> Entry {
        Entry {
            body: bytes::Bytes::from(s.to_string()),
            content_type: "application/json",
            etag: format!("\"{s}\""),
        }
    }

    #[test]
    fn entries_live_for_one_stamp() {
        let c = ReadCache::new(10);
        assert!(c.get("k", 1).is_none());
        c.put("k", 1, e("a"));
        assert_eq!(c.get("k", 1).unwrap().body, "a");
        assert!(c.get("k", 2).is_none(), "a newer stamp invalidates");
        c.put("k", 2, e("b"));
        c.put("k", 1, e("stale"));
        assert_eq!(
            c.get("k", 2).unwrap().body,
            "b",
            "an older stamp never wins"
        );
    }

    #[test]
    fn bounded() {
        let c = ReadCache::new(4);
        for i in 0..100 {
            c.put(&format!("k{i}"), 1, e("x"));
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
