//! What the requests of a club night share: the key of the evenings' check-in codes
//! ([decision 0340](../docs/decisions/0340-rotating-check-in-code.md)) and the per-account
//! limits on self check-ins and result reports. Each instance keeps its limiter in memory; the key is derived
//! from the server's secret, so every instance on it shows and accepts the same codes.

use crate::error::ApiError;
use crate::services::presence::code::CodeKey;

/// Self check-ins one account may send a minute (a code is six characters of 32: the limit
/// keeps guessing out of reach, and a member scanning twice is well inside it).
pub const CHECK_INS_PER_MINUTE: u32 = 10;

/// Result reports one account may send a minute (a player reports a game or two a round).
pub const REPORTS_PER_MINUTE: u32 = 10;

/// The club night's shared state.
#[derive(Debug)]
pub struct Night {
    /// The key of the check-in codes.
    pub code_key: CodeKey,
    /// Self check-ins per account.
    pub check_ins: crate::fair::Buckets,
    /// Result reports per account.
    pub reports: crate::fair::Buckets,
    /// The key of the club pages' sign-in cookie and its forms' tokens.
    pub page_key: PageKey,
}

/// The key the club pages sign their sign-in cookie and form tokens with
/// ([decision 0347](../docs/decisions/0347-signing-in-on-the-club-pages.md)): derived from the
/// server's secret, a key of its own.
#[derive(Clone)]
pub struct PageKey([u8; 32]);

impl std::fmt::Debug for PageKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PageKey(..)")
    }
}

impl PageKey {
    /// The page key of a server secret.
    pub fn from_secret(secret: &[u8]) -> PageKey {
        PageKey(crate::services::secrets::hmac_sha256(
            secret,
            b"clubcomp club page sign-in v1",
        ))
    }

    /// The signature of `message`, as URL-safe base 64 without padding.
    pub fn sign(&self, message: &str) -> String {
        use base64::Engine;
        let mac = crate::services::secrets::hmac_sha256(&self.0, message.as_bytes());
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(mac)
    }

    /// Whether `signature` is [`PageKey::sign`] of `message` (compared in constant time).
    pub fn verify(&self, message: &str, signature: &str) -> bool {
        let good = self.sign(message);
        good.len() == signature.len()
            && good
                .bytes()
                .zip(signature.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0
    }
}

impl Night {
    /// The night's state for the server secret `secret`.
    pub fn new(secret: &[u8]) -> Night {
        Night {
            code_key: CodeKey::from_secret(secret),
            check_ins: crate::fair::Buckets::new(CHECK_INS_PER_MINUTE),
            reports: crate::fair::Buckets::new(REPORTS_PER_MINUTE),
            page_key: PageKey::from_secret(secret),
        }
    }

    /// Takes one self check-in of `account`: 429 naming the limit when it has used its minute.
    pub fn take_check_in(&self, account: &str) -> Result<(), ApiError> {
        self.check_ins
            .take(account, std::time::Instant::now())
            .map_err(|retry_after| ApiError::TooManyRequests {
                detail: format!(
                    "at most {CHECK_INS_PER_MINUTE} check-ins a minute from one account; wait \
                     before trying again"
                ),
                retry_after,
            })
    }

    /// Takes one result report of `account`: 429 naming the limit when it has used its minute.
    pub fn take_report(&self, account: &str) -> Result<(), ApiError> {
        self.reports
            .take(account, std::time::Instant::now())
            .map_err(|retry_after| ApiError::TooManyRequests {
                detail: format!(
                    "at most {REPORTS_PER_MINUTE} result reports a minute from one account; \
                     wait before trying again"
                ),
                retry_after,
            })
    }
}
