//! The Keizer internal competition (docs/rules/keizer.md#scoring, docs/rules/keizer.md#pairing, docs/rules/keizer.md#prizes): standings with recalculation until the
//! ranking settles, the scenario format of `clubcomp calc keizer`, pairing, prizes and playoffs.
//!
//! # Keizer standings
//!
//! The worked evening of the rules book (`docs/rules/keizer.md`): Anna and Bram draw, Dirk
//! beats Cor, Eva is excused. The recalculation cycles between two orders, and the scores are
//! averaged over the cycle.
//!
//! ```
//! use clubcomp_engine::keizer::run_scenario_str;
//!
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/formats/examples/keizer-one-evening.json");
//! let text = std::fs::read_to_string(path).expect("the rules book's example file");
//! let out = run_scenario_str(&text).unwrap();
//! let evening = &out.evenings[0];
//! assert!(!evening.converged);
//! assert_eq!(evening.cycle_length, Some(2));
//! assert_eq!(evening.iterations, 4);
//! let table: Vec<(u32, &str, i64, String)> = evening
//!     .standings
//!     .iter()
//!     .map(|r| (r.rank, r.id.as_str(), r.value, r.score.to_string()))
//!     .collect();
//! assert_eq!(
//!     table,
//!     [
//!         (1, "dirk", 60, "56.0000".to_string()),
//!         (2, "bram", 59, "29.2500".to_string()),
//!         (3, "anna", 58, "29.2500".to_string()),
//!         (4, "eva", 57, "18.9981".to_string()),
//!         (5, "cor", 56, "5.0000".to_string()),
//!     ]
//! );
//! ```
//!
//! # Keizer pairing
//!
//! Five present players, one of them (fleur) new and placed by rating; dirk and eva met on
//! evening 11, so the cheapest allowed pairing is bram–dirk and fleur–eva (cost 2² + 2² = 8).
//!
//! ```
//! use clubcomp_engine::keizer::{PairingInput, pair_evening};
//!
//! let input: PairingInput = serde_json::from_value(serde_json::json!({
//!     "evening": 12, "half": "summer", "bye_seed": 20261204,
//!     "ranking": [
//!         {"id": "anna", "rating": 1980, "present": true, "colours": ["W", "B", "W"]},
//!         {"id": "bram", "rating": 1850, "present": true, "colours": ["B", "W", "B"], "byes_this_half": 1},
//!         {"id": "cor", "rating": 1720, "present": false},
//!         {"id": "dirk", "rating": 1690, "present": true, "colours": ["W", "W", "B"]},
//!         {"id": "eva", "rating": 1600, "present": true, "colours": ["B", "B"]},
//!         {"id": "fleur", "rating": 1800, "present": true, "first_time": true}
//!     ],
//!     "history": [
//!         {"a": "anna", "b": "bram", "evening": 8, "half": "winter"},
//!         {"a": "dirk", "b": "eva", "evening": 11, "half": "summer"}
//!     ]
//! }))
//! .unwrap();
//! let p = pair_evening(&input).unwrap();
//! assert_eq!(p.order, ["anna", "bram", "fleur", "dirk", "eva"]);
//! let boards: Vec<(&str, &str)> =
//!     p.boards.iter().map(|b| (b.white.as_str(), b.black.as_str())).collect();
//! assert_eq!(boards, [("bram", "dirk"), ("eva", "fleur")]);
//! assert_eq!(p.bye.unwrap().player, "anna");
//! assert_eq!(p.cost, 8);
//! ```

// The public API of this module.
pub use entry::{insert_entrant, insertion_index};
pub use pairing::{
    Broken, ByeDraw, HandBoard, HandPairing, KeizerBoard, KeizerPairing, Meeting, PairingError,
    PairingInput, PairingRule, PlayerId, RankedPlayer, Rules, Violation, high_gets_white,
    pair_evening, pairing_order, validate_pairing,
};
pub use playoffs::{
    EnteredResult, GroupState, KeizerPlayoffError, MatchId, MatchState, PlayoffDraw,
    PlayoffGameResult, PlayoffGameState, PlayoffGroup, better_seed_has_white, group_state,
    playoff_groups,
};
pub use preview::{
    MAX_PLAYOFF_RESULTS, PlayoffPreview, PlayoffResultInput, PrizePreview, prizes_preview,
};
pub use prizes::{Award, Prize, PrizeCandidate, PrizeOutcome, WithdrawnPrizes, award, candidates};
pub use scenario::{
    KeizerOutput, ScenarioError, parse_result, parse_scenario, run_scenario, run_scenario_str,
    run_scenario_until,
};
pub use standings::{
    Competition, Entrant, EveningStandings, KeizerEvening, KeizerGame, KeizerResult, KeizerRow,
    MAX_STEPS, Params, SeasonCarry, StandingsError, compute_keizer, compute_until, summer_start,
    value_of_place,
};

pub(crate) mod entry;
pub(crate) mod pairing;
pub(crate) mod playoffs;
pub(crate) mod preview;
pub(crate) mod prizes;
pub(crate) mod scenario;
pub(crate) mod standings;
