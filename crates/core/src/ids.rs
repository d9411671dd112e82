//! Typed ids. A path segment, a request body or a stored row gives a plain number; the handler
//! or the row reads it into the id of what it names ([`CompetitionId`], [`PlayerId`],
//! [`SeasonId`], [`EveningId`], [`RoundId`], [`EntrantId`], [`AttendanceId`], [`GameId`],
//! [`UserId`], and the arbiter's [`ClaimId`], [`AppealId`] and [`GameEventId`], the
//! [`ServiceTokenId`], a stored rating's [`RatingId`], a webhook's [`WebhookId`] and its
//! deliveries' [`DeliveryId`]), and everything between
//! passes the typed id, so a player id cannot be handed where a competition id belongs. Each is
//! a plain integer in JSON (`#[serde(transparent)]`) and a `BIGINT` in queries, where it is
//! compared with the row's column as it is (`en::competition_id.eq(id)`).
//!
//! The rows of players, seasons, evenings, competitions (with the winter half a summer half is
//! seeded from), rounds, entrants, attendance, games, claims, appeals, game events, moves,
//! ratings, users, refresh tokens, service tokens and webhooks hold their own id and every
//! foreign key typed, and so do the event log's competition, evening and game; a view turns an
//! id into its number with `.get()`. An audit entry's `entity_id` stays a plain number: it
//! names an entity of any kind, with the kind beside it.
//!
//! The engines know a player by text (the decimal id), so an id crosses into an engine as
//! its decimal text (`to_string`) and comes back through [`PlayerId::from_engine`]: a text that
//! is no id is an internal error naming it, never player 0.

use crate::error::{ApiError, ApiResult};
use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql, FromSqlRow};
use diesel::expression::AsExpression;
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::BigInt;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A text that is not a decimal id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} {text:?}, which is not an id")]
pub struct ParseIdError {
    /// What the id names.
    pub what: &'static str,
    /// The text given.
    pub text: String,
}

/// Reads plain decimal digits (no sign, blank or leading `+` that `i64::from_str` takes).
fn parse_digits(what: &'static str, s: &str) -> Result<i64, ParseIdError> {
    let bad = || ParseIdError {
        what,
        text: s.to_string(),
    };
    if s.is_empty() || s.len() > 18 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    s.parse().map_err(|_| bad())
}

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
            AsExpression, FromSqlRow,
        )]
        #[serde(transparent)]
        #[diesel(sql_type = BigInt)]
        pub struct $name(pub i64);

        impl $name {
            /// The number, for a row's column or a view.
            pub fn get(self) -> i64 {
                self.0
            }
        }

        impl From<$name> for i64 {
            fn from(id: $name) -> i64 {
                id.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl FromStr for $name {
            type Err = ParseIdError;

            fn from_str(s: &str) -> Result<$name, ParseIdError> {
                parse_digits($what, s).map($name)
            }
        }

        impl<DB: Backend> ToSql<BigInt, DB> for $name
        where
            i64: ToSql<BigInt, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                self.0.to_sql(out)
            }
        }

        impl<DB: Backend> FromSql<BigInt, DB> for $name
        where
            i64: FromSql<BigInt, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<$name> {
                i64::from_sql(bytes).map($name)
            }
        }
    };
}

id_type!(
    /// The id of a stored player.
    PlayerId,
    "player"
);
id_type!(
    /// The id of a stored competition.
    CompetitionId,
    "competition"
);
id_type!(
    /// The id of a stored season.
    SeasonId,
    "season"
);
id_type!(
    /// The id of a stored club evening.
    EveningId,
    "evening"
);
id_type!(
    /// The id of a stored round (a round is addressed by its competition and number on the
    /// wire; the id joins its games).
    RoundId,
    "round"
);
id_type!(
    /// The id of a stored entrant (a player's entry in one competition).
    EntrantId,
    "entrant"
);
id_type!(
    /// The id of one stored attendance record (a sign-up, sign-off or check-in).
    AttendanceId,
    "attendance"
);
id_type!(
    /// The id of a stored game.
    GameId,
    "game"
);
id_type!(
    /// The id of a stored user account.
    UserId,
    "user"
);
id_type!(
    /// The id of a webhook subscription.
    WebhookId,
    "webhook"
);
id_type!(
    /// The id of one delivery of an event to a webhook subscription.
    DeliveryId,
    "delivery"
);

id_type!(
    /// The id of a claim brought to the arbiter.
    ClaimId,
    "claim"
);
id_type!(
    /// The id of an appeal to the board.
    AppealId,
    "appeal"
);
id_type!(
    /// The id of a protest to the KNDB protest committee.
    ProtestId,
    "protest"
);
id_type!(
    /// The id of one event of a game's arbiter log (an offer, a claim, a decision, time
    /// added).
    GameEventId,
    "event"
);
id_type!(
    /// The id of one stored rating (a player's value on one list of one source).
    RatingId,
    "rating"
);
id_type!(
    /// The id of a service token.
    ServiceTokenId,
    "service token"
);

impl PlayerId {
    /// The id an engine gave back (its input held the decimal ids of stored players): an
    /// internal error when the text is no id.
    pub fn from_engine(text: &str) -> ApiResult<PlayerId> {
        text.parse()
            .map_err(|e: ParseIdError| ApiError::Internal(format!("an engine answered with {e}")))
    }

    /// The ids an engine gave back, in its order: an internal error naming the first text that
    /// is no id (see [`PlayerId::from_engine`]).
    pub fn all_from_engine<S: AsRef<str>>(
        texts: impl IntoIterator<Item = S>,
    ) -> ApiResult<Vec<PlayerId>> {
        texts
            .into_iter()
            .map(|t| PlayerId::from_engine(t.as_ref()))
            .collect()
    }

    /// The numbers of the ids an engine gave back, in its order, for a view (see
    /// [`PlayerId::all_from_engine`]).
    pub fn numbers_from_engine<S: AsRef<str>>(
        texts: impl IntoIterator<Item = S>,
    ) -> ApiResult<Vec<i64>> {
        Ok(PlayerId::all_from_engine(texts)?
            .into_iter()
            .map(PlayerId::get)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_ids_round_trip_through_the_engine_key() {
        for n in [1_i64, 42, 900_719_925_474_099] {
            let id = PlayerId(n);
            assert_eq!(PlayerId::from_engine(&id.to_string()).unwrap(), id);
            assert_eq!(id.to_string(), n.to_string());
        }
    }

    #[test]
    fn an_engine_list_with_one_text_that_is_no_id_is_refused_whole() {
        assert_eq!(
            PlayerId::all_from_engine(["7", "3", "12"]).unwrap(),
            vec![PlayerId(7), PlayerId(3), PlayerId(12)]
        );
        let err = PlayerId::all_from_engine(["7", "bye", "12"]).unwrap_err();
        assert!(err.to_string().contains("\"bye\""), "{err}");
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
    fn each_id_names_what_it_is_when_text_is_no_id() {
        assert_eq!("12".parse::<SeasonId>(), Ok(SeasonId(12)));
        assert_eq!("7".parse::<GameId>(), Ok(GameId(7)));
        let e = "x1".parse::<CompetitionId>().unwrap_err();
        assert_eq!(e.to_string(), "competition \"x1\", which is not an id");
        let e = "-1".parse::<UserId>().unwrap_err();
        assert_eq!(e.to_string(), "user \"-1\", which is not an id");
    }

    #[test]
    fn ids_are_plain_numbers_in_json() {
        assert_eq!(serde_json::to_string(&PlayerId(7)).unwrap(), "7");
        assert_eq!(
            serde_json::from_str::<CompetitionId>("12").unwrap(),
            CompetitionId(12)
        );
        assert_eq!(
            serde_json::to_string(&[RoundId(3), RoundId(4)]).unwrap(),
            "[3,4]"
        );
    }
}
