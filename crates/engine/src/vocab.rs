//! The shared vocabulary of the engines and the service: piece colours, season halves,
//! disciplines, memberships, competition kinds, pairing systems and the kinds of stored
//! evenings. Each is an enum with one
//! wire string per value (`as_str`, `FromStr`, `Display` and serde agree), so a value is parsed
//! once where it enters and compared as an enum everywhere else.
//!
//! ```
//! use clubcomp_engine::{CompetitionKind, Half};
//!
//! let kind: CompetitionKind = "round_robin".parse().unwrap();
//! assert_eq!(kind, CompetitionKind::RoundRobin);
//! assert_eq!(kind.as_str(), "round_robin");
//! assert_eq!(Half::Summer.to_string(), "summer");
//! assert!("autumn".parse::<Half>().is_err());
//! ```

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A text that names no value of a vocabulary.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} {value:?} (expected one of {expected})")]
pub struct UnknownValue {
    /// What was parsed, e.g. `competition kind`.
    pub what: &'static str,
    /// The text given.
    pub value: String,
    /// The accepted texts, comma-separated.
    pub expected: String,
}

macro_rules! vocabulary {
    (
        $(#[$meta:meta])*
        $name:ident, $what:literal {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum $name {
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

        impl FromStr for $name {
            type Err = UnknownValue;

            fn from_str(s: &str) -> Result<$name, UnknownValue> {
                match s {
                    $($text => Ok($name::$variant),)+
                    _ => Err(UnknownValue {
                        what: $what,
                        value: s.to_string(),
                        expected: $name::NAMES.join(", "),
                    }),
                }
            }
        }

        impl TryFrom<&str> for $name {
            type Error = UnknownValue;

            fn try_from(s: &str) -> Result<$name, UnknownValue> {
                s.parse()
            }
        }

        impl TryFrom<String> for $name {
            type Error = UnknownValue;

            fn try_from(s: String) -> Result<$name, UnknownValue> {
                s.parse()
            }
        }

        impl From<$name> for String {
            fn from(v: $name) -> String {
                v.as_str().to_string()
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

vocabulary! {
    /// A player's colour in a game (chess or draughts); White moves first in both.
    Colour, "colour" {
        /// White.
        White = "white",
        /// Black.
        Black = "black",
    }
}

impl Colour {
    /// The other colour.
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    /// The one-letter form of the Keizer pairing input (`W`, `B`).
    pub fn letter(self) -> char {
        match self {
            Colour::White => 'W',
            Colour::Black => 'B',
        }
    }
}

/// Serde for a list of colours in their one-letter form (`["W", "B"]`), as the Keizer pairing
/// input writes them.
pub mod colour_letters {
    use super::Colour;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    enum Letter {
        W,
        B,
    }

    /// Writes the colours as letters.
    pub fn serialize<S: Serializer>(colours: &[Colour], s: S) -> Result<S::Ok, S::Error> {
        let letters: Vec<Letter> = colours
            .iter()
            .map(|c| match c {
                Colour::White => Letter::W,
                Colour::Black => Letter::B,
            })
            .collect();
        letters.serialize(s)
    }

    /// Reads letters into colours.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Colour>, D::Error> {
        Ok(Vec::<Letter>::deserialize(d)?
            .into_iter()
            .map(|l| match l {
                Letter::W => Colour::White,
                Letter::B => Colour::Black,
            })
            .collect())
    }
}

vocabulary! {
    /// A half of the Keizer season (docs/rules/keizer.md#season-halves).
    Half, "half" {
        /// The winter half (first ten Keizer evenings): champion, silver, bronze, best of the rest.
        Winter = "winter",
        /// The summer half (second ten Keizer evenings): champion and playoff places.
        Summer = "summer",
    }
}

vocabulary! {
    /// The game played: decides the result codes and the scoring.
    Discipline, "discipline" {
        /// Chess: 1-½-0, codes `1-0`, `0-1`, `1/2-1/2` (or `½-½`), `+/-`, `-/+`, `-/-`.
        Chess = "chess",
        /// Draughts: 2-1-0, codes `2-0`, `0-2`, `1-1`, `1+-1-`, `1--1+`, `0-0`, `+/-`, `-/+`, `-/-`.
        Draughts = "draughts",
    }
}

vocabulary! {
    /// Who may take the title of the blitz championship, open to guests
    /// (docs/rules/rapid-blitz.md#guests-and-the-title).
    GuestTitle, "guest title" {
        /// The regulation's literal reading: whoever finishes first is champion, a guest too.
        Eligible = "eligible",
        /// The title goes to the best member: guests keep their places in the table but play
        /// no play-off for first and take no title.
        MembersOnly = "members_only",
    }
}

vocabulary! {
    /// Club membership (docs/rules/README.md#players-and-ratings).
    Membership, "membership" {
        /// Vaste Speler: expected every evening.
        Fixed = "fixed",
        /// Flexibele Speler: plays after signing up.
        Flexible = "flexible",
        /// A non-member (open blitz championship).
        Guest = "guest",
    }
}

vocabulary! {
    /// The kind of a competition (docs/rules/README.md).
    CompetitionKind, "competition kind" {
        /// A Keizer half.
        Keizer = "keizer",
        /// A Swiss: the Dutch system, the Burstein system or Double-Swiss.
        Swiss = "swiss",
        /// A round robin (Berger schedules).
        RoundRobin = "round_robin",
        /// A knockout (the Keizer playoffs).
        Knockout = "knockout",
    }
}

impl CompetitionKind {
    /// The pairing systems a competition of this kind may have (none: it has no system).
    pub fn systems(self) -> &'static [PairingSystem] {
        match self {
            CompetitionKind::Swiss => &[
                PairingSystem::Dutch,
                PairingSystem::Burstein,
                PairingSystem::DoubleSwiss,
            ],
            CompetitionKind::RoundRobin => &[PairingSystem::Single, PairingSystem::Double],
            CompetitionKind::Keizer | CompetitionKind::Knockout => &[],
        }
    }
}

vocabulary! {
    /// The pairing system of a Swiss or a round robin.
    PairingSystem, "pairing system" {
        /// Swiss: the FIDE Dutch system.
        Dutch = "dutch",
        /// Swiss: the Burstein system, as bbpPairings pairs it (not FIDE-endorsed).
        Burstein = "burstein",
        /// Swiss: the FIDE Double-Swiss system (two games per round).
        DoubleSwiss = "double_swiss",
        /// Round robin: every pair meets once.
        Single = "single",
        /// Round robin: every pair meets twice.
        Double = "double",
    }
}

vocabulary! {
    /// The kind of a stored evening of the season calendar.
    EveningKind, "evening kind" {
        /// A Keizer evening of the winter or summer half.
        Keizer = "keizer",
        /// A rapid evening.
        Rapid = "rapid",
        /// The venue is closed.
        Closed = "closed",
        /// A playoff evening.
        Playoff = "playoff",
        /// A blitz evening.
        Blitz = "blitz",
        /// A playing evening without a round of a competition.
        Free = "free",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trips<T>(all: &[T], names: &[&str])
    where
        T: Copy + PartialEq + fmt::Debug + FromStr<Err = UnknownValue> + fmt::Display,
        T: Serialize + for<'de> Deserialize<'de>,
    {
        assert_eq!(all.len(), names.len());
        for (v, name) in all.iter().zip(names) {
            assert_eq!(&v.to_string(), name);
            assert_eq!(name.parse::<T>().unwrap(), *v);
            assert_eq!(serde_json::to_value(v).unwrap(), serde_json::json!(name));
            assert_eq!(
                serde_json::from_value::<T>(serde_json::json!(name)).unwrap(),
                *v
            );
        }
        for bad in ["", "Winter", "WHITE", "round-robin", "x"] {
            if names.contains(&bad) {
                continue;
            }
            let e = bad.parse::<T>().unwrap_err();
            assert_eq!(e.value, bad);
            assert!(serde_json::from_value::<T>(serde_json::json!(bad)).is_err());
        }
    }

    #[test]
    fn colour() {
        round_trips(Colour::ALL, &["white", "black"]);
        assert_eq!(Colour::White.opposite(), Colour::Black);
        assert_eq!(Colour::Black.opposite(), Colour::White);
        assert_eq!(Colour::Black.letter(), 'B');
    }

    #[test]
    fn colour_letters_round_trip() {
        #[derive(Debug, PartialEq, Serialize, Deserialize)]
        struct P {
            #[serde(with = "colour_letters")]
            colours: Vec<Colour>,
        }
        let p: P = serde_json::from_str(r#"{"colours": ["W", "B", "W"]}"#).unwrap();
        assert_eq!(p.colours, [Colour::White, Colour::Black, Colour::White]);
        assert_eq!(
            serde_json::to_string(&p).unwrap(),
            r#"{"colours":["W","B","W"]}"#
        );
        assert!(serde_json::from_str::<P>(r#"{"colours": ["white"]}"#).is_err());
    }

    #[test]
    fn half() {
        round_trips(Half::ALL, &["winter", "summer"]);
    }

    #[test]
    fn discipline() {
        round_trips(Discipline::ALL, &["chess", "draughts"]);
    }

    #[test]
    fn membership() {
        round_trips(Membership::ALL, &["fixed", "flexible", "guest"]);
    }

    #[test]
    fn competition_kind() {
        round_trips(
            CompetitionKind::ALL,
            &["keizer", "swiss", "round_robin", "knockout"],
        );
        assert_eq!(
            CompetitionKind::Swiss.systems(),
            [
                PairingSystem::Dutch,
                PairingSystem::Burstein,
                PairingSystem::DoubleSwiss
            ]
        );
        assert!(CompetitionKind::Keizer.systems().is_empty());
    }

    #[test]
    fn evening_kind() {
        round_trips(
            EveningKind::ALL,
            &["keizer", "rapid", "closed", "playoff", "blitz", "free"],
        );
    }

    #[test]
    fn pairing_system() {
        round_trips(
            PairingSystem::ALL,
            &["dutch", "burstein", "double_swiss", "single", "double"],
        );
    }

    #[test]
    fn unknown_value_names_what_and_the_choices() {
        let e = "blitz".parse::<CompetitionKind>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown competition kind \"blitz\" (expected one of keizer, swiss, round_robin, knockout)"
        );
    }
}

vocabulary! {
    /// A Keizer prize (docs/rules/keizer.md).
    Prize, "prize" {
        /// Winter champion (1st).
        WinterChampion = "winter_champion",
        /// Silver (2nd).
        Silver = "silver",
        /// Bronze (3rd).
        Bronze = "bronze",
        /// Best of the rest: highest game score.
        BestOfTheRest = "best_of_the_rest",
        /// Summer champion (1st).
        SummerChampion = "summer_champion",
    }
}
