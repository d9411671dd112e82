//! The value lists of the string fields the answers show, as OpenAPI schemas: each field
//! whose values are a closed set names one of these (`#[schema(value_type = ...)]`), so that
//! a generated client gets an enum instead of a plain string (docs/api-guide.md#value-lists).
//! The vocabulary of the engine crate keeps its own wire strings (`NAMES`); the schemas here
//! list them without the engine crate knowing of OpenAPI.
//! A value list a service owns is declared in that service with `string_enum_schema!`; this
//! module uses nothing of the crate, so every service may name its lists.

/// Declares a schema-only string type listing `$values` (a `[&str; N]`): for a request field
/// the handler reads as a `String` and checks against that list itself (with its own 422),
/// so that the document names the values while the handler's answers stay as they are. Use it
/// as `#[schema(value_type = Name)]`.
#[macro_export]
macro_rules! string_enum_schema {
    ($(#[$attr:meta])* $vis:vis $name:ident, $description:literal, $values:expr) => {
        $(#[$attr])*
        #[doc = $description]
        #[derive(Debug)]
        $vis struct $name;

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::schema::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .description(Some($description))
                    .enum_values(Some($values.iter().copied()))
                    .into()
            }
        }

        impl utoipa::ToSchema for $name {}
    };
}

pub use crate::string_enum_schema;

/// A request body taken as it is, as bytes (`type: string`, `format: binary`): a file the
/// handler reads itself (a TRF, a CSV list), documented as `application/octet-stream`
/// (docs/decisions/0384-file-bodies-as-bytes.md).
#[derive(Debug)]
pub struct FileBody;

impl utoipa::PartialSchema for FileBody {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
            .into()
    }
}

impl utoipa::ToSchema for FileBody {}

string_enum_schema!(
    pub CompetitionKind,
    "A competition kind: `keizer`, `swiss`, `round_robin` or `knockout`.",
    clubcomp_engine::CompetitionKind::NAMES
);

string_enum_schema!(
    pub Discipline,
    "A discipline: `chess` or `draughts`.",
    clubcomp_engine::Discipline::NAMES
);

string_enum_schema!(
    pub Colour,
    "A colour: `white` or `black`.",
    clubcomp_engine::Colour::NAMES
);

string_enum_schema!(
    pub PairingSystem,
    "A pairing system: `dutch`, `burstein` or `double_swiss` for a swiss, `single` or `double` for a round robin.",
    clubcomp_engine::PairingSystem::NAMES
);

string_enum_schema!(
    pub KeizerHalf,
    "A half of a Keizer season: `winter` or `summer`.",
    clubcomp_engine::Half::NAMES
);

string_enum_schema!(
    pub EveningKind,
    "An evening kind: `keizer`, `rapid`, `closed`, `playoff`, `blitz` or `free`.",
    clubcomp_engine::EveningKind::NAMES
);

string_enum_schema!(
    pub Membership,
    "A membership type: `fixed`, `flexible` or `guest`.",
    clubcomp_engine::Membership::NAMES
);

string_enum_schema!(
    pub Prize,
    "A Keizer prize: `winter_champion`, `silver`, `bronze`, `best_of_the_rest` or `summer_champion`.",
    clubcomp_engine::keizer::Prize::NAMES
);

/// The kinds of competition with a prize list, in the document's order.
pub const PRIZE_LIST_KINDS: [clubcomp_engine::CompetitionKind; 3] = [
    clubcomp_engine::CompetitionKind::Keizer,
    clubcomp_engine::CompetitionKind::RoundRobin,
    clubcomp_engine::CompetitionKind::Swiss,
];

string_enum_schema!(
    pub PrizeListKind,
    "The kind of a prize list: `keizer`, `round_robin` or `swiss`.",
    PRIZE_LIST_KINDS.map(clubcomp_engine::CompetitionKind::as_str)
);

/// The kinds of competition with a table, in the document's order.
pub const STANDINGS_KINDS: [clubcomp_engine::CompetitionKind; 3] = [
    clubcomp_engine::CompetitionKind::Keizer,
    clubcomp_engine::CompetitionKind::Swiss,
    clubcomp_engine::CompetitionKind::RoundRobin,
];

string_enum_schema!(
    pub StandingsKind,
    "The kind of a table: `keizer`, `swiss` or `round_robin`.",
    STANDINGS_KINDS.map(clubcomp_engine::CompetitionKind::as_str)
);

/// The FIDE tie-break acronyms the document lists (C.07, individual events; Cut-n and
/// Median-n for n = 1 and 2).
pub const TIEBREAK_ACRONYMS: [&str; 37] = [
    "PTS", "DE", "WIN", "WON", "BPG", "BWG", "REP", "GE", "PS", "PS-C1", "PS-C2", "KS", "BH",
    "BH-C1", "BH-C2", "BH-M1", "BH-M2", "FB", "FB-C1", "FB-C2", "FB-M1", "FB-M2", "SB", "SB-C1",
    "SB-C2", "SB-M1", "SB-M2", "AOB", "ARO", "ARO-C1", "ARO-C2", "ARO-M1", "ARO-M2", "TPR", "PTP",
    "APRO", "APPO",
];

/// The round-robin tie-break criteria by name, as a competition's tie-break list holds them
/// (the engine's `RoundRobinTiebreak`, in its order).
pub fn round_robin_tiebreaks() -> Vec<&'static str> {
    clubcomp_engine::round_robin::RoundRobinTiebreak::ALL
        .iter()
        .map(|t| t.name())
        .collect()
}

/// Every tie-break a competition's list may name (`clubcomp_core::vocab::CompetitionTiebreak`):
/// the FIDE acronyms (a Swiss) and the round-robin criteria.
pub fn competition_tiebreaks() -> Vec<&'static str> {
    TIEBREAK_ACRONYMS
        .iter()
        .copied()
        .chain(round_robin_tiebreaks())
        .collect()
}

/// Every acronym a Swiss's standings can name: the plain tie-breaks and each Cut-n and
/// Median-n the engine reads, n from 1 to its largest cut, as the engine writes them.
pub fn standings_tiebreaks() -> Vec<String> {
    use clubcomp_engine::tiebreaks::{MAX_CUT, Tiebreak};
    let plain = [
        "PTS", "DE", "WIN", "WON", "BPG", "BWG", "REP", "GE", "PS", "KS", "BH", "FB", "SB", "AOB",
        "ARO", "TPR", "PTP", "APRO", "APPO",
    ];
    let mut candidates: Vec<String> = plain.iter().map(|n| n.to_string()).collect();
    for name in ["PS", "BH", "FB", "SB", "ARO"] {
        for kind in ['C', 'M'] {
            candidates.extend((1..=MAX_CUT).map(|n| format!("{name}-{kind}{n}")));
        }
    }
    candidates
        .into_iter()
        .filter(|c| Tiebreak::parse(c).map(Tiebreak::acronym).as_ref() == Some(c))
        .collect()
}

/// A tie-break a Swiss's standings apply, as the standings name it.
#[derive(Debug)]
pub struct StandingsTiebreak;

impl utoipa::PartialSchema for StandingsTiebreak {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some(
                "A tie-break a Swiss's standings apply, as they name it: a FIDE acronym (C.07) in upper case, with its Cut-n (`-Cn`) or Median-n (`-Mn`), n from 1 to 30.",
            ))
            .enum_values(Some(standings_tiebreaks()))
            .into()
    }
}

impl utoipa::ToSchema for StandingsTiebreak {}

/// The round-robin criteria that can separate two rows of the final order (the engine's
/// `Separator`: `points`, then each criterion).
pub fn round_robin_separators() -> Vec<&'static str> {
    clubcomp_engine::round_robin::Separator::all()
        .map(|x| x.name())
        .collect()
}

string_enum_schema!(
    pub RoundRobinDecidedBy,
    "What separated a row of a round robin's final order from the next: `points`, or a criterion of the tie-break chain (`wins`, `plusremise_balance`, `plusremises`, `mutual`, `ranking_order`, `sonneborn_berger`, `direct_encounter`, `lots`).",
    round_robin_separators()
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_round_robin_criteria_are_the_engines() {
        // the engine's serde names, read independently of `name()`
        for name in round_robin_tiebreaks() {
            let parsed: Result<clubcomp_engine::round_robin::RoundRobinTiebreak, _> =
                serde_json::from_value(serde_json::Value::String(name.into()));
            assert!(parsed.is_ok(), "{name}");
        }
        assert_eq!(competition_tiebreaks().len(), 37 + 8);
        assert_eq!(
            round_robin_separators(),
            [
                "points",
                "wins",
                "plusremise_balance",
                "plusremises",
                "mutual",
                "ranking_order",
                "sonneborn_berger",
                "direct_encounter",
                "lots"
            ]
        );
    }

    #[test]
    fn the_standings_name_every_cut_and_median_up_to_thirty() {
        let all = standings_tiebreaks();
        // 19 plain, PS with 30 cuts, BH/FB/SB/ARO with 30 cuts and 30 medians each
        assert_eq!(all.len(), 19 + 30 + 4 * 60);
        for a in ["PTS", "BH-C1", "BH-M30", "PS-C30", "ARO-M2"] {
            assert!(all.iter().any(|x| x == a), "{a}");
        }
        for a in ["PS-M1", "BH-C31", "bh-c1", "TPR-C1"] {
            assert!(!all.iter().any(|x| x == a), "{a}");
        }
    }
}
