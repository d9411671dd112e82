//! Typed ids. The engines know a player by text (the decimal id), so an id crosses into an
//! engine as [`PlayerId::key`] and comes back through [`PlayerId::from_engine`]: a text that is
//! no id is an internal error naming it, never player 0.

use crate::error::{ApiError, ApiResult};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The id of a stored player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub i64);

impl PlayerId {
    /// The id as the engines know it (decimal text).
    pub fn key(self) -> String {
        self.0.to_string()
    }

    /// The id an engine gave back (its input held the decimal ids of stored players): an
    /// internal error when the text is no id.
    pub fn from_engine(text: &str) -> ApiResult<PlayerId> {
        text.parse()
            .map_err(|e: ParseIdError| ApiError::Internal(format!("an engine answered with {e}")))
    }
}

impl From<PlayerId> for i64 {
    fn from(id: PlayerId) -> i64 {
        id.0
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A text that is not a decimal id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} {text:?}, which is not an id")]
pub struct ParseIdError {
    /// What the id names.
    pub what: &'static str,
    /// The text given.
    pub text: String,
}

impl FromStr for PlayerId {
    type Err = ParseIdError;

    fn from_str(s: &str) -> Result<PlayerId, ParseIdError> {
        // only plain decimal digits: no sign, blank or leading `+` that `i64::from_str` takes
        if s.is_empty() || s.len() > 18 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseIdError {
                what: "player",
                text: s.to_string(),
            });
        }
        s.parse().map(PlayerId).map_err(|_| ParseIdError {
            what: "player",
            text: s.to_string(),
        })
    }
}

/// The id of a stored competition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CompetitionId(pub i64);

impl From<CompetitionId> for i64 {
    fn from(id: CompetitionId) -> i64 {
        id.0
    }
}

impl fmt::Display for CompetitionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_ids_round_trip_through_the_engine_key() {
        for n in [1_i64, 42, 900_719_925_474_099] {
            let id = PlayerId(n);
            assert_eq!(PlayerId::from_engine(&id.key()).unwrap(), id);
            assert_eq!(id.to_string(), n.to_string());
        }
    }

    #[test]
    fn a_text_that_is_no_id_is_an_error_not_zero() {
        for bad in [
            "",
            "abc",
            "-3",
            "+3",
            " 3",
            "3 ",
            "1.5",
            "99999999999999999999",
        ] {
            assert!(bad.parse::<PlayerId>().is_err(), "{bad:?}");
            match PlayerId::from_engine(bad) {
                Err(ApiError::Internal(cause)) => assert!(cause.contains("not an id"), "{cause}"),
                other => panic!("{bad:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn ids_are_plain_numbers_in_json() {
        assert_eq!(serde_json::to_string(&PlayerId(7)).unwrap(), "7");
        assert_eq!(
            serde_json::from_str::<CompetitionId>("12").unwrap(),
            CompetitionId(12)
        );
    }
}
