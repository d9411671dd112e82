//! The rotating check-in code of an evening
//! ([decision 0340](../../../../../docs/decisions/0340-rotating-check-in-code.md)): six
//! characters of Crockford's base-32 alphabet, the first 30 bits of
//! `HMAC-SHA256(key, "<evening id>:<minute>")`, the minute counted in whole minutes since
//! 1970-01-01 00:00 UTC. The key is derived from the server's secret, so every instance
//! sharing it shows and accepts the same code. Pure: the caller passes the instant.

use crate::error::FieldError;
use crate::ids::EveningId;
use chrono::{DateTime, Utc};

/// The characters of a code (Crockford's base 32: no I, L, O or U).
pub const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// The length of a code.
pub const CODE_LEN: usize = 6;
/// The longest text a request may send as a code (blanks and hyphens are dropped).
pub const INPUT_MAX: usize = 16;
/// A code older than this many minutes (and not accepted) is called expired; older still, up
/// to [`REPLAY_MINUTES`], replayed.
pub const EXPIRED_MINUTES: i64 = 10;
/// How far back a refused code is recognised as one the evening showed.
pub const REPLAY_MINUTES: i64 = 12 * 60;

/// The key the codes are made with.
#[derive(Clone)]
pub struct CodeKey([u8; 32]);

impl std::fmt::Debug for CodeKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CodeKey(..)")
    }
}

use crate::services::secrets::hmac_sha256 as hmac;

impl CodeKey {
    /// The code key of a server secret (the JWT secret): a key of its own, so a code never
    /// reveals anything signed with the secret itself.
    pub fn from_secret(secret: &[u8]) -> CodeKey {
        CodeKey(hmac(secret, b"clubcomp evening check-in code v1"))
    }

    /// The code of `evening` during `minute` (see [`minute_of`]).
    pub fn code(&self, evening: EveningId, minute: i64) -> String {
        let mac = hmac(&self.0, format!("{}:{minute}", evening.get()).as_bytes());
        let bits = u32::from_be_bytes([mac[0], mac[1], mac[2], mac[3]]) >> 2;
        (0..CODE_LEN)
            .map(|i| {
                let shift = 5 * (CODE_LEN - 1 - i);
                ALPHABET[((bits >> shift) & 31) as usize] as char
            })
            .collect()
    }

    /// What a (normalised) `code` is for `evening` at `now`.
    pub fn judge(&self, evening: EveningId, code: &str, now: DateTime<Utc>) -> Verdict {
        let m = minute_of(now);
        if self.code(evening, m) == code || self.code(evening, m - 1) == code {
            return Verdict::Current;
        }
        for back in 2..=REPLAY_MINUTES {
            if self.code(evening, m - back) == code {
                let shown = minute_start(m - back);
                return if back <= EXPIRED_MINUTES {
                    Verdict::Expired { shown }
                } else {
                    Verdict::Replayed { shown }
                };
            }
        }
        Verdict::Unknown
    }
}

/// What a code is for an evening.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The code of this minute or the one before: accepted.
    Current,
    /// A code the evening showed a few minutes ago (at `shown`).
    Expired {
        /// The start of the minute it was shown.
        shown: DateTime<Utc>,
    },
    /// A code the evening showed long ago (at `shown`), sent again.
    Replayed {
        /// The start of the minute it was shown.
        shown: DateTime<Utc>,
    },
    /// Not a code this evening showed in the last [`REPLAY_MINUTES`] minutes.
    Unknown,
}

/// The minute of `t`: whole minutes since 1970-01-01 00:00 UTC.
pub fn minute_of(t: DateTime<Utc>) -> i64 {
    t.timestamp().div_euclid(60)
}

/// The instant a minute starts.
pub fn minute_start(minute: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(minute.saturating_mul(60), 0).unwrap_or(DateTime::<Utc>::MIN_UTC)
}

/// The code as typed, normalised: blanks and hyphens dropped, upper case, the letters Crockford
/// reads as digits (O as 0, I and L as 1). 422 naming `field` for a text longer than
/// [`INPUT_MAX`] or anything but [`CODE_LEN`] characters of the alphabet.
pub fn normalise(field: &str, input: &str) -> Result<String, FieldError> {
    if input.chars().count() > INPUT_MAX {
        return Err(FieldError::new(
            field,
            format!("must be at most {INPUT_MAX} characters"),
        ));
    }
    let code: String = input
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            u => u,
        })
        .collect();
    if code.chars().count() != CODE_LEN || !code.bytes().all(|b| ALPHABET.contains(&b)) {
        return Err(FieldError::new(
            field,
            format!(
                "must be the {CODE_LEN} characters shown at the venue (digits and letters \
                 other than I, L, O and U)"
            ),
        ));
    }
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    /// The code of the scheme of decision 0340 computed outside the program (Python's hmac
    /// module): key = HMAC-SHA256("secret", "clubcomp evening check-in code v1"), then the
    /// first 30 bits of HMAC-SHA256(key, "7:29400000") in Crockford's base 32.
    #[test]
    fn the_code_is_thirty_bits_of_the_hmac_in_crockford_base_32() {
        let key = CodeKey::from_secret(b"secret");
        let code = key.code(EveningId(7), 29_400_000);
        assert_eq!(code, "4QGQ0A");
        // another evening, another minute or another secret gives another code
        assert_ne!(key.code(EveningId(8), 29_400_000), code);
        assert_ne!(key.code(EveningId(7), 29_400_001), code);
        assert_ne!(
            CodeKey::from_secret(b"other").code(EveningId(7), 29_400_000),
            code
        );
    }

    #[test]
    fn the_current_and_the_previous_minute_are_accepted_and_older_codes_named() {
        let key = CodeKey::from_secret(b"secret");
        let e = EveningId(3);
        let now = at("2026-11-27T19:30:20Z");
        let m = minute_of(now);
        assert_eq!(minute_of(at("2026-11-27T19:30:00Z")), m);
        assert_eq!(minute_of(at("2026-11-27T19:29:59Z")), m - 1);
        assert_eq!(key.judge(e, &key.code(e, m), now), Verdict::Current);
        assert_eq!(key.judge(e, &key.code(e, m - 1), now), Verdict::Current);
        assert_eq!(
            key.judge(e, &key.code(e, m - 2), now),
            Verdict::Expired {
                shown: at("2026-11-27T19:28:00Z")
            }
        );
        assert_eq!(
            key.judge(e, &key.code(e, m - 11), now),
            Verdict::Replayed {
                shown: at("2026-11-27T19:19:00Z")
            }
        );
        // a code of the next minute is not accepted before its minute
        assert_ne!(key.judge(e, &key.code(e, m + 1), now), Verdict::Current);
        assert_eq!(
            key.judge(e, &key.code(EveningId(4), m), now),
            Verdict::Unknown
        );
    }

    #[test]
    fn a_typed_code_is_normalised_and_bad_ones_are_named() {
        assert_eq!(normalise("code", " ab-c 0o1 ").unwrap(), "ABC001");
        assert_eq!(normalise("code", "il1234").unwrap(), "111234");
        assert!(normalise("code", "ABCDE").is_err());
        assert!(normalise("code", "ABCDEFG").is_err());
        assert!(normalise("code", "ABCDEU").is_err());
        assert!(normalise("code", "ABCDÉ1").is_err());
        let long = "A".repeat(17);
        let e = normalise("code", &long).unwrap_err();
        assert!(format!("{e:?}").contains("16"));
    }
}
