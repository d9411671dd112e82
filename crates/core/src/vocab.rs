//! The value lists the services own, as Rust types: each is an enum with one wire string per
//! value, parsed once where it enters (a request, a stored row) and compared as an enum
//! everywhere else ([decision 0301](../../../docs/decisions/0301-vocabulary-as-types.md)).
//!
//! Every enum here writes the same string to JSON (serde), to the database (a TEXT column,
//! through diesel's `ToSql`/`FromSql`) and to text (`Display`, `as_str`); reading a row whose
//! column names no value fails the query with an error that names the column's list and the
//! stored text. The OpenAPI schema is made from the type (`utoipa::ToSchema`: its doc comment and
//! `NAMES`), so the document lists exactly the values the code knows. The engine's vocabulary
//! (`clubcomp_engine::CompetitionKind`, …) has the same shape without diesel or utoipa.
//!
//! ```
//! use clubcomp_core::vocab::RoundStatus;
//!
//! let s: RoundStatus = "published".parse().unwrap();
//! assert_eq!(s, RoundStatus::Published);
//! assert!(s.is_public());
//! assert_eq!(RoundStatus::Planned.as_str(), "planned");
//! assert!("done".parse::<RoundStatus>().is_err());
//! ```

pub use clubcomp_engine::UnknownValue;
use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql};
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::Text;

mod claims;
pub use claims::*;
mod night;
pub use night::*;
mod results;
pub use results::*;
mod settings;
pub use settings::*;

/// Declares a value list: the enum with serde, diesel (TEXT) and OpenAPI forms that agree,
/// `ALL`, `NAMES`, `as_str`, `FromStr` (an [`UnknownValue`] naming `$what`) and `Display`.
#[macro_export]
macro_rules! value_list {
    (
        $(#[doc = $doc:literal])*
        $vis:vis $name:ident, $what:literal {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord,
            serde::Serialize, serde::Deserialize,
            diesel::expression::AsExpression, diesel::deserialize::FromSqlRow,
        )]
        #[diesel(sql_type = diesel::sql_types::Text)]
        $vis enum $name {
            $( $(#[$vmeta])* #[serde(rename = $text)] $variant ),+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// The wire string of every value, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            /// The wire string.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::vocab::UnknownValue;

            fn from_str(s: &str) -> Result<$name, $crate::vocab::UnknownValue> {
                match s {
                    $($text => Ok($name::$variant),)+
                    _ => Err($crate::vocab::UnknownValue {
                        what: $what,
                        value: s.to_string(),
                        expected: $name::NAMES.join(", "),
                    }),
                }
            }
        }

        // the schema lists `NAMES`, the strings serde writes, and the doc comment
        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                let doc: &[&str] = &[$($doc),*];
                let description: Vec<&str> = doc.iter().map(|l| l.trim()).collect();
                utoipa::openapi::schema::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .description(Some(description.join("\n")))
                    .enum_values(Some($name::NAMES.iter().copied()))
                    .into()
            }
        }

        impl utoipa::ToSchema for $name {}

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl $crate::vocab::TextValue for $name {
            fn text(&self) -> &'static str {
                self.as_str()
            }

            fn parse_text(s: &str) -> Result<$name, $crate::vocab::UnknownValue> {
                s.parse()
            }
        }

        impl<DB: diesel::backend::Backend> diesel::serialize::ToSql<diesel::sql_types::Text, DB>
            for $name
        where
            str: diesel::serialize::ToSql<diesel::sql_types::Text, DB>,
        {
            fn to_sql<'b>(
                &'b self,
                out: &mut diesel::serialize::Output<'b, '_, DB>,
            ) -> diesel::serialize::Result {
                $crate::vocab::text_to_sql(self, out)
            }
        }

        impl<DB: diesel::backend::Backend> diesel::deserialize::FromSql<diesel::sql_types::Text, DB>
            for $name
        where
            String: diesel::deserialize::FromSql<diesel::sql_types::Text, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> diesel::deserialize::Result<$name> {
                $crate::vocab::text_from_sql(bytes)
            }
        }
    };
}

pub use crate::value_list;

value_list! {
    /// A rating source: `KNSB`, `KNSB-rapid`, `FIDE` or `KNDB`.
    pub RatingSource, "rating source" {
        /// The KNSB's standard rating list.
        Knsb = "KNSB",
        /// The KNSB's rapid rating list.
        KnsbRapid = "KNSB-rapid",
        /// The FIDE rating list.
        Fide = "FIDE",
        /// The KNDB's (draughts) rating list.
        Kndb = "KNDB",
    }
}

/// A value of a list with one text per value (what [`value_list!`] declares): the one place
/// the database conversions are written.
pub trait TextValue: Sized {
    /// The value's text.
    fn text(&self) -> &'static str;
    /// The value a text names.
    fn parse_text(s: &str) -> Result<Self, UnknownValue>;
}

/// Writes a value as its text (a TEXT column).
pub fn text_to_sql<'b, T: TextValue, DB: Backend>(
    v: &'b T,
    out: &mut Output<'b, '_, DB>,
) -> serialize::Result
where
    str: ToSql<Text, DB>,
{
    <str as ToSql<Text, DB>>::to_sql(v.text(), out)
}

/// Reads a value from its text; a text of no value is an error naming the list and the text.
pub fn text_from_sql<T: TextValue, DB: Backend>(bytes: DB::RawValue<'_>) -> deserialize::Result<T>
where
    String: FromSql<Text, DB>,
{
    let s = <String as FromSql<Text, DB>>::from_sql(bytes)?;
    Ok(T::parse_text(&s)?)
}

value_list! {
    /// How a player's name is shown to readers who are not officers
    /// ([decision 0326](../../../docs/decisions/0326-player-publication.md)): `full` (the
    /// default), `initials` (`J. de V.`) or `hidden` (a neutral label, no player page).
    pub Publication, "publication" {
        /// The full name.
        Full = "full",
        /// The initials of every name, the lower-case particles kept.
        Initials = "initials",
        /// A neutral label (`Speler 12`); the player page is not found.
        Hidden = "hidden",
    }
}

value_list! {
    /// How a Swiss's first place is settled: `standings`, `playoff` or `pending`.
    pub TitleDecidedBy, "title decision" {
        /// Alone in first place.
        Standings = "standings",
        /// The play-off's winner, on points or by the arbiter.
        Playoff = "playoff",
        /// No round counted yet, or first place shared and the play-off not decided.
        Pending = "pending",
    }
}

value_list! {
    /// A mail's status: `pending` (to be sent, or sent again after a temporary failure), `sent`
    /// (the SMTP server accepted it, or its `.eml` file was written) or `failed` (refused for
    /// good, or every attempt failed).
    pub MailStatus, "mail status" {
        /// To be sent, or sent again after a temporary failure.
        Pending = "pending",
        /// The SMTP server accepted it, or its `.eml` file was written.
        Sent = "sent",
        /// Refused for good, or every attempt failed.
        Failed = "failed",
    }
}

value_list! {
    /// A webhook delivery's status: `pending` (to be sent, or sent again after a failed attempt),
    /// `delivered` (a receiver answered 2xx) or `failed` (every attempt failed).
    pub DeliveryStatus, "delivery status" {
        /// To be sent, or sent again after a failed attempt.
        Pending = "pending",
        /// A receiver answered 2xx.
        Delivered = "delivered",
        /// Every attempt failed.
        Failed = "failed",
    }
}

value_list! {
    /// A round's status: `planned`, `paired`, `published` or `completed`.
    pub RoundStatus, "round status" {
        /// Not paired yet.
        Planned = "planned",
        /// Paired; the pairing is not public yet.
        Paired = "paired",
        /// The pairing is public; results are being entered.
        Published = "published",
        /// Every game has a result; the round counts in the standings.
        Completed = "completed",
    }
}

impl RoundStatus {
    /// Whether the public may see the round's games (published or completed).
    pub fn is_public(self) -> bool {
        matches!(self, RoundStatus::Published | RoundStatus::Completed)
    }
}

value_list! {
    /// How a list of rounds is shown: `full` (each round with its games) or `summary` (without
    /// the games, with their counts).
    pub RoundListView, "round list view" {
        /// Each round with its games.
        Full = "full",
        /// Each round without its games: boards, games and results entered counted.
        Summary = "summary",
    }
}

value_list! {
    /// A kind of notification mail a member can turn on or off: `pairing`, `reminder`,
    /// `result`, `decision` or `prizes`.
    pub NotifyKind, "notification kind" {
        /// A round's pairing was published.
        Pairing = "pairing",
        /// The sign-up deadline of an evening is near.
        Reminder = "reminder",
        /// A result of their own game was entered or corrected.
        Result = "result",
        /// A decision on a claim, an appeal or a protest in their game.
        Decision = "decision",
        /// The prizes of a half were finalised.
        Prizes = "prizes",
    }
}

value_list! {
    /// The state of the process: `ok` whenever it answers.
    pub HealthStatus, "health status" {
        /// The process answers.
        Up = "ok",
    }
}

value_list! {
    /// The kind of an access token: always `Bearer`.
    pub TokenType, "token type" {
        /// Sent as `Authorization: Bearer …`.
        Bearer = "Bearer",
    }
}

value_list! {
    /// The state of a check-in: `open` or `closed`.
    pub CheckInStatus, "check-in status" {
        /// Players may check in.
        Open = "open",
        /// Closed by the arbiter or leader; the number of rounds is fixed.
        Closed = "closed",
    }
}

value_list! {
    /// The board's ruling on an appeal: `upheld` or `dismissed`.
    pub AppealRuling, "appeal ruling" {
        /// The arbiter's decision is set aside.
        Upheld = "upheld",
        /// The arbiter's decision stands.
        Dismissed = "dismissed",
    }
}

value_list! {
    /// A player's attendance status for a round: `expected`, `signed_up`, `not_signed_up`, `excused`, `unexcused`, `present`, `no_show`, `checked_in` or `not_checked_in`.
    pub AttendanceStatus, "attendance status" {
        /// A fixed player expected to play.
        Expected = "expected",
        /// Signed up.
        SignedUp = "signed_up",
        /// A flexible player who did not sign up.
        NotSignedUp = "not_signed_up",
        /// Absent with notice.
        Excused = "excused",
        /// Absent without notice.
        Unexcused = "unexcused",
        /// Marked present on the night.
        Present = "present",
        /// Marked absent on the night although expected.
        NoShow = "no_show",
        /// Checked in for a rapid or blitz round.
        CheckedIn = "checked_in",
        /// Not checked in for a rapid or blitz round.
        NotCheckedIn = "not_checked_in",
    }
}

impl From<clubcomp_engine::attendance::Status> for AttendanceStatus {
    fn from(s: clubcomp_engine::attendance::Status) -> AttendanceStatus {
        use clubcomp_engine::attendance::Status as E;
        match s {
            E::Expected => AttendanceStatus::Expected,
            E::SignedUp => AttendanceStatus::SignedUp,
            E::NotSignedUp => AttendanceStatus::NotSignedUp,
            E::Excused => AttendanceStatus::Excused,
            E::Unexcused => AttendanceStatus::Unexcused,
            E::Present => AttendanceStatus::Present,
            E::NoShow => AttendanceStatus::NoShow,
            E::CheckedIn => AttendanceStatus::CheckedIn,
            E::NotCheckedIn => AttendanceStatus::NotCheckedIn,
        }
    }
}

value_list! {
    /// The state of a play-off for first: `pending`, `champion`, `arbiter_decides` or `decided`.
    pub FirstPlaceStatus, "play-off status" {
        /// Games without a result.
        Pending = "pending",
        /// Decided on play-off points.
        Champion = "champion",
        /// Still tied after every game: the arbiter decides.
        ArbiterDecides = "arbiter_decides",
        /// Decided by the arbiter.
        Decided = "decided",
    }
}

value_list! {
    /// The KNDB protest committee's ruling on a protest: `upheld`, `dismissed` or
    /// `inadmissible`.
    pub ProtestRuling, "protest ruling" {
        /// The tournament direction's decision is set aside.
        Upheld = "upheld",
        /// The decision stands.
        Dismissed = "dismissed",
        /// The dispute does not qualify for a protest; the decision stands.
        Inadmissible = "inadmissible",
    }
}

value_list! {
    /// What an audit entry is about: `game`, `round`, `entrant`, `competition`, `evening`,
    /// `appeal`, `protest` or `player` (an erasure).
    pub AuditEntity, "audit entity" {
        /// A game's result, tempo or arbiter record.
        Game = "game",
        /// A round's pairing.
        Round = "round",
        /// An entrant's withdrawal.
        Entrant = "entrant",
        /// A competition's prizes, play-offs or check-in.
        Competition = "competition",
        /// A club evening's presence.
        Evening = "evening",
        /// An appeal lodged or decided.
        Appeal = "appeal",
        /// A protest lodged or decided.
        Protest = "protest",
        /// A player erased, or their publication setting changed.
        Player = "player",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_status_reads_and_writes_its_wire_string() {
        let names = ["planned", "paired", "published", "completed"];
        assert_eq!(RoundStatus::NAMES, names);
        for (v, name) in RoundStatus::ALL.iter().zip(names) {
            assert_eq!(v.to_string(), name);
            assert_eq!(name.parse::<RoundStatus>().unwrap(), *v);
            assert_eq!(serde_json::to_value(v).unwrap(), serde_json::json!(name));
            assert_eq!(
                serde_json::from_value::<RoundStatus>(name.into()).unwrap(),
                *v
            );
        }
    }

    #[test]
    fn the_schema_of_a_value_list_lists_the_wire_strings_and_the_doc_comment() {
        let schema =
            serde_json::to_value(<RoundStatus as utoipa::PartialSchema>::schema()).unwrap();
        assert_eq!(
            schema["enum"],
            serde_json::json!(["planned", "paired", "published", "completed"])
        );
        assert_eq!(schema["type"], "string");
        assert_eq!(
            schema["description"],
            "A round's status: `planned`, `paired`, `published` or `completed`."
        );
    }

    #[test]
    fn an_unknown_round_status_names_the_list_and_the_text() {
        let e = "Planned".parse::<RoundStatus>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown round status \"Planned\" (expected one of planned, paired, published, completed)"
        );
        assert!(serde_json::from_value::<RoundStatus>("done".into()).is_err());
    }
}
