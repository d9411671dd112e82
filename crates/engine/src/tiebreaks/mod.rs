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
//! - when cutting the lowest value, a voluntarily unplayed round of the player is cut first;
//! - the rating-based tie-breaks count games over the board; with an unrated player in the
//!   field and no rating fixed for unrated players they have no value.

mod compute;
mod de;
mod model;
mod prepared;
mod rating;
pub mod trf;

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

pub use model::{
    Colour, Cut, Error, EventKind, Input, MAX_CUT, PlayerResults, RoundOutcome, RoundResult,
    RulesEdition, Separation, StandingRow, Standings, Tiebreak, Value,
};

pub use compute::compute_tiebreaks;
pub(crate) use compute::separations;

/// Parses a comma-separated list such as `PTS,DE,BH-M1,SB`.
pub fn parse_tiebreaks(list: &str) -> Result<Vec<Tiebreak>, Error> {
    list.split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| Tiebreak::parse(s).ok_or_else(|| Error::UnknownTiebreak(s.trim().to_string())))
        .collect()
}
