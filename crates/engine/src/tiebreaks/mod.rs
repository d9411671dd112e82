//! FIDE tie-breaks (C.07, the edition in force since 1 August 2024;
//! docs/rules/rapid-blitz.md#tie-breaks) for individual events: points, direct encounter,
//! wins, games won, games played and won with Black, rounds elected to play, progressive
//! scores, Koya, Buchholz, Fore Buchholz, average of opponents' Buchholz, Sonneborn-Berger
//! and the rating-based ARO, TPR, PTP, APRO and APPO, with the Cut-n and Median-n modifiers
//! and the rules for unplayed rounds (art. 16). Pure: results in, standings with every value
//! out. Exact arithmetic in ten-thousandths.
//!
//! Reading of the text (also in `docs/decisions/0006-tiebreaks-and-double-swiss.md` and
//! `docs/decisions/0130-every-individual-tiebreak.md`), as FIDE's reference implementation
//! computes it:
//! - a player's own unplayed rounds (byes, forfeits, absences) count in Buchholz and
//!   Sonneborn-Berger as a game against a dummy opponent whose score is the player's own final
//!   score (16.4); under the 2026 amendment that score is capped;
//! - in an opponent's score, requested byes and absences after the opponent's last round that
//!   was not voluntarily unplayed count as draws (16.2.5 / 16.3); every other round counts
//!   with the points actually scored;
//! - when cutting the lowest value, a voluntarily unplayed round of the player is cut first,
//!   unless the least significant value contributes more (possible in Sonneborn-Berger only);
//! - the rating-based tie-breaks count games over the board; with an unrated player in the
//!   field and no rating fixed for unrated players they have no value.
//!
//! # Tie-breaks
//!
//! Two rounds of four players: 1 beats 3 and draws with 2; 2 also draws with 4; 3 beats 4.
//! Players 2 and 3 both have 1 point; Sonneborn-Berger puts 2 (two draws against 0.5 and
//! 1.5 points: 0.25 + 0.75) above 3 (a win against 0.5 points).
//!
//! ```
//! use clubcomp_engine::tiebreaks::{Input, compute_tiebreaks, parse_tiebreaks};
//!
//! let game = |opponent: u32, colour: &str, outcome: &str| {
//!     serde_json::json!({"opponent": opponent, "colour": colour, "outcome": outcome})
//! };
//! let input: Input = serde_json::from_value(serde_json::json!({"players": [
//!     {"id": 1, "rounds": [game(3, "white", "win"), game(2, "black", "draw")]},
//!     {"id": 2, "rounds": [game(4, "white", "draw"), game(1, "white", "draw")]},
//!     {"id": 3, "rounds": [game(1, "black", "loss"), game(4, "white", "win")]},
//!     {"id": 4, "rounds": [game(2, "black", "draw"), game(3, "black", "loss")]}
//! ]}))
//! .unwrap();
//! let standings = compute_tiebreaks(&input, &parse_tiebreaks("PTS,SB").unwrap()).unwrap();
//! let rows: Vec<(u32, String, String)> = standings
//!     .rows
//!     .iter()
//!     .map(|r| (r.id, r.values[0].unwrap().to_string(), r.values[1].unwrap().to_string()))
//!     .collect();
//! assert_eq!(
//!     rows,
//!     [
//!         (1, "1.5000".to_string(), "1.5000".to_string()),
//!         (2, "1.0000".to_string(), "1.0000".to_string()),
//!         (3, "1.0000".to_string(), "0.5000".to_string()),
//!         (4, "0.5000".to_string(), "0.5000".to_string()),
//!     ]
//! );
//! ```

// The public API of this module.
pub use trf::standard_scoring;
pub use trf::{detect_event, edition_for, input_from_trf, read_trf, start_date};

mod compute;
mod de;
mod model;
mod prepared;
mod rating;
pub(crate) mod trf;

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

pub use model::{
    Cut, EventKind, Input, MAX_CUT, PlayerResults, RoundOutcome, RoundResult, RulesEdition,
    Separation, Standings, Tiebreak, TiebreakError, TiebreakRow, Value,
};

pub use compute::compute_tiebreaks;
pub(crate) use compute::separations;

/// Parses a comma-separated list such as `PTS,DE,BH-M1,SB`.
pub fn parse_tiebreaks(list: &str) -> Result<Vec<Tiebreak>, TiebreakError> {
    list.split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| {
            Tiebreak::parse(s).ok_or_else(|| TiebreakError::UnknownTiebreak(s.trim().to_string()))
        })
        .collect()
}
