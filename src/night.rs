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
}

impl Night {
    /// The night's state for the server secret `secret`.
    pub fn new(secret: &[u8]) -> Night {
        Night {
            code_key: CodeKey::from_secret(secret),
            check_ins: crate::fair::Buckets::new(CHECK_INS_PER_MINUTE),
            reports: crate::fair::Buckets::new(REPORTS_PER_MINUTE),
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
