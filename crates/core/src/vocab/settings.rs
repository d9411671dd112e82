//! The value lists of a competition's settings: its tie-breaks and a Dutch Swiss's
//! acceleration ([decision 0307](../../../../docs/decisions/0307-tiebreak-names-as-types.md)).
//!
//! A tie-break is the engine's own type (`clubcomp_engine::tiebreaks::Tiebreak` for a Swiss,
//! `clubcomp_engine::round_robin::RoundRobinTiebreak` for a round robin), read once from the
//! request or the stored row and written back as the same text.
//!
//! ```
//! use clubcomp_core::vocab::CompetitionTiebreak;
//! use clubcomp_engine::tiebreaks::Tiebreak;
//!
//! let t = CompetitionTiebreak::parse_swiss("bh/c1").unwrap();
//! assert_eq!(t, CompetitionTiebreak::Fide(Tiebreak::BH_C1));
//! assert_eq!(t.name(), "BH-C1");
//! assert!(CompetitionTiebreak::parse_swiss("BH-C3").is_err());
//! assert!(CompetitionTiebreak::parse_round_robin("BH").is_err());
//! ```

use crate::value_list;
use clubcomp_engine::CompetitionKind;
use clubcomp_engine::round_robin::RoundRobinTiebreak;
use clubcomp_engine::tiebreaks::{Tiebreak, parse_tiebreaks};

value_list! {
    /// A Dutch Swiss's acceleration: `none` or `baku` (FIDE's Baku method).
    pub SwissAcceleration, "acceleration" {
        /// No virtual points.
        None = "none",
        /// FIDE's Baku method, from the field and the planned number of rounds.
        Baku = "baku",
    }
}

#[allow(
    clippy::derivable_impls,
    reason = "value_list! writes the enum's derives, and Default is not among them"
)]
impl Default for SwissAcceleration {
    fn default() -> SwissAcceleration {
        SwissAcceleration::None
    }
}

/// The largest n of a Cut-n or Median-n a competition's list takes (the calculators read up to
/// the engine's `MAX_CUT`).
pub const MAX_COMPETITION_CUT: u8 = 2;

/// One tie-break of a competition's list: a FIDE tie-break of a Swiss (C.07, with Cut-n and
/// Median-n for n up to [`MAX_COMPETITION_CUT`]) or a criterion of a round robin. Written as
/// the acronym (`BH-C1`) or the criterion's name (`direct_encounter`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CompetitionTiebreak {
    /// A Swiss's tie-break.
    Fide(Tiebreak),
    /// A round robin's criterion.
    RoundRobin(RoundRobinTiebreak),
}

impl CompetitionTiebreak {
    /// The text written to JSON and to the stored list.
    pub fn name(self) -> String {
        match self {
            CompetitionTiebreak::Fide(t) => t.acronym(),
            CompetitionTiebreak::RoundRobin(t) => t.name().to_string(),
        }
    }

    /// Reads a Swiss's tie-break in any spelling the engine reads (`bh/c1`, `BH-C1`), or says
    /// why a competition cannot hold it: not one FIDE tie-break, or a cut or median beyond
    /// [`MAX_COMPETITION_CUT`].
    pub fn parse_swiss(s: &str) -> Result<CompetitionTiebreak, String> {
        match parse_tiebreaks(s).as_deref() {
            Ok([one]) => {
                let cut = one.cut();
                if cut.low <= MAX_COMPETITION_CUT && cut.high <= MAX_COMPETITION_CUT {
                    Ok(CompetitionTiebreak::Fide(*one))
                } else {
                    Err(format!(
                        "{s:?} ({}) is not a tie-break a competition takes: Cut-n and Median-n \
                         only for n = 1 or 2",
                        one.acronym()
                    ))
                }
            }
            _ => Err(format!("unknown FIDE tie-break {s:?}")),
        }
    }

    /// Reads a round robin's criterion, written exactly as its name.
    pub fn parse_round_robin(s: &str) -> Result<CompetitionTiebreak, String> {
        RoundRobinTiebreak::parse(s)
            .map(CompetitionTiebreak::RoundRobin)
            .ok_or_else(|| format!("unknown round-robin tie-break {s:?}"))
    }

    /// Reads a tie-break of a competition of `kind`; a kind without a tie-break list takes
    /// none.
    pub fn parse_for(kind: CompetitionKind, s: &str) -> Result<CompetitionTiebreak, String> {
        match kind {
            CompetitionKind::Swiss => CompetitionTiebreak::parse_swiss(s),
            CompetitionKind::RoundRobin => CompetitionTiebreak::parse_round_robin(s),
            other => Err(format!("a {other} competition has no tie-break list")),
        }
    }

    /// The FIDE tie-break, when it is one.
    pub fn fide(self) -> Option<Tiebreak> {
        match self {
            CompetitionTiebreak::Fide(t) => Some(t),
            CompetitionTiebreak::RoundRobin(_) => None,
        }
    }

    /// The round robin's criterion, when it is one.
    pub fn criterion(self) -> Option<RoundRobinTiebreak> {
        match self {
            CompetitionTiebreak::Fide(_) => None,
            CompetitionTiebreak::RoundRobin(t) => Some(t),
        }
    }
}

impl std::fmt::Display for CompetitionTiebreak {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

impl serde::Serialize for CompetitionTiebreak {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

impl utoipa::PartialSchema for CompetitionTiebreak {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some(
                "A tie-break of a competition: a FIDE acronym for a Swiss (see `TiebreakAcronym`; any n up to 30 of Cut-n and Median-n, lower case and `/` for `-` are read too), or a criterion for a round robin (`wins`, `plusremise_balance`, `plusremises`, `mutual`, `ranking_order`, `sonneborn_berger`, `direct_encounter`, `lots`).",
            ))
            .enum_values(Some(crate::schemas::competition_tiebreaks()))
            .into()
    }
}

impl utoipa::ToSchema for CompetitionTiebreak {}

#[cfg(test)]
mod tests {
    use super::*;
    use clubcomp_engine::tiebreaks::Cut;

    #[test]
    fn a_swiss_takes_the_listed_acronyms_and_nothing_else() {
        // the document's list: cuts and medians up to 2; the standings name up to 30
        for a in crate::schemas::standings_tiebreaks() {
            let listed = crate::schemas::TIEBREAK_ACRONYMS.contains(&a.as_str());
            assert_eq!(CompetitionTiebreak::parse_swiss(&a).is_ok(), listed, "{a}");
        }
        assert_eq!(
            CompetitionTiebreak::parse_swiss("sb/m2"),
            Ok(CompetitionTiebreak::Fide(Tiebreak::Sb(Cut::median_n(2))))
        );
        assert_eq!(
            CompetitionTiebreak::parse_swiss("BH-M3"),
            Err(
                "\"BH-M3\" (BH-M3) is not a tie-break a competition takes: Cut-n and Median-n \
                 only for n = 1 or 2"
                    .to_string()
            )
        );
        assert!(CompetitionTiebreak::parse_swiss("wins").is_err());
        assert!(CompetitionTiebreak::parse_swiss("BH,SB").is_err());
    }

    #[test]
    fn a_round_robin_takes_its_criteria_written_exactly() {
        assert_eq!(
            CompetitionTiebreak::parse_round_robin("sonneborn_berger"),
            Ok(CompetitionTiebreak::RoundRobin(
                RoundRobinTiebreak::SonnebornBerger
            ))
        );
        assert_eq!(
            CompetitionTiebreak::parse_round_robin("Wins"),
            Err("unknown round-robin tie-break \"Wins\"".to_string())
        );
        assert!(CompetitionTiebreak::parse_round_robin("SB").is_err());
        assert!(CompetitionTiebreak::parse_for(CompetitionKind::Keizer, "wins").is_err());
    }

    #[test]
    fn a_tiebreak_is_written_as_its_acronym_or_name() {
        let list = [
            CompetitionTiebreak::Fide(Tiebreak::De),
            CompetitionTiebreak::Fide(Tiebreak::BH_M1),
            CompetitionTiebreak::RoundRobin(RoundRobinTiebreak::PlusremiseBalance),
        ];
        assert_eq!(
            serde_json::to_string(&list).ok().as_deref(),
            Some(r#"["DE","BH-M1","plusremise_balance"]"#)
        );
        assert_eq!(
            "baku".parse::<SwissAcceleration>().ok(),
            Some(SwissAcceleration::Baku)
        );
        assert!("Baku".parse::<SwissAcceleration>().is_err());
    }
}
