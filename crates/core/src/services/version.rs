//! Versions of stored rows as the HTTP layer shows them: a strong ETag per row version, and
//! the check of an `If-Match` condition against the current one (412 when stale).

use crate::error::{ApiError, ApiResult};

/// A strong ETag for a resource version (`id`: a typed id or a number; both show as digits).
pub fn etag(kind: &str, id: impl std::fmt::Display, version: i64) -> String {
    format!("\"{kind}-{id}-v{version}\"")
}

/// Checks an `If-Match` value against the current ETag: absent is allowed, a mismatch is 412.
/// The tag of the gzip-compressed answer (`"…-gz"`) names the same version.
pub fn check_if_match(header: Option<&str>, current: &str) -> ApiResult<()> {
    let Some(v) = header else {
        return Ok(());
    };
    let same = |t: &str| {
        t == current
            || t.strip_suffix("-gz\"")
                .is_some_and(|open| current.strip_suffix('"') == Some(open))
    };
    if v.trim() == "*" || v.split(',').any(|t| same(t.trim())) {
        Ok(())
    } else {
        Err(ApiError::PreconditionFailed(format!(
            "If-Match {v} does not match the current version {current}"
        )))
    }
}

/// The version a write expects of the row it changes, as the handler read it from the
/// `If-Match` header: any version when the header is absent or `*`, else one of the ETags it
/// lists. Services compare it with the row's current ETag ([`ExpectedVersion::check`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExpectedVersion(Option<String>);

impl ExpectedVersion {
    /// No condition: any version.
    pub fn any() -> ExpectedVersion {
        ExpectedVersion(None)
    }

    /// From the value of an `If-Match` header (`None`: no header).
    pub fn from_if_match(header: Option<String>) -> ExpectedVersion {
        ExpectedVersion(header)
    }

    /// The condition as the header stated it (`None`: none).
    pub fn as_header(&self) -> Option<&str> {
        self.0.as_deref()
    }

    /// Whether a particular version is expected (a header other than `*`).
    pub fn is_conditional(&self) -> bool {
        self.0.as_deref().is_some_and(|v| v.trim() != "*")
    }

    /// 412 unless the row's current ETag `current` is expected.
    pub fn check(&self, current: &str) -> ApiResult<()> {
        check_if_match(self.0.as_deref(), current)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_match_compares_strongly() {
        let current = etag("game", 7, 3);
        assert_eq!(current, "\"game-7-v3\"");
        assert!(check_if_match(None, &current).is_ok());
        assert!(check_if_match(Some("*"), &current).is_ok());
        assert!(check_if_match(Some("\"game-7-v2\", \"game-7-v3\""), &current).is_ok());
        assert!(check_if_match(Some("\"game-7-v3-gz\""), &current).is_ok());
        assert!(check_if_match(Some("\"game-7-v2-gz\""), &current).is_err());
        // a weak tag never matches If-Match (RFC 9110 13.1.1)
        assert!(check_if_match(Some("W/\"game-7-v3\""), &current).is_err());
        assert!(check_if_match(Some("\"game-7-v2\""), &current).is_err());
    }
}
