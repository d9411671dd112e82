//! From a TRF file (read by the shared reader, [`crate::swiss::trf`]) to the tie-break
//! input. The result codes map as: `1 = 0` and the unrated `W D L` are games over the board,
//! `+ -` with an opponent are forfeits, `U` is the pairing-allocated bye, `F` the full-point
//! bye, `H` the half-point bye, `Z`, `-` without opponent and blank (no result) are absences;
//! a paired game without a result yet scores 0 and keeps its opponent.
//! Games per round: 2 when the file names the Double-Swiss system (`192`/`092` line with
//! `DOUBLESWISS`) or carries an `XXG 2` line; every match is then two rounds in the file.

use super::model::{
    Colour, EventKind, Input, PlayerResults, RoundOutcome, RoundResult, RulesEdition,
};
use crate::swiss::trf::{self as shared, Line, ResultCode, Tournament};

use shared::TrfError;

fn games_per_round(t: &Tournament) -> u8 {
    let mut g = 1;
    for line in &t.layout {
        if let Line::Raw(text) = line {
            let upper = text.to_ascii_uppercase();
            if (upper.starts_with("192") || upper.starts_with("092"))
                && upper.contains("DOUBLESWISS")
            {
                g = 2;
            }
            if let Some(rest) = upper.strip_prefix("XXG")
                && let Ok(n) = rest.trim().parse()
            {
                g = n;
            }
        }
    }
    g
}

/// Swiss or round robin, decided much as FIDE's reference implementation does: a type line
/// (`092`/`192`) naming a Swiss system (also the Dutch, Dubov, Burstein and Lim systems,
/// which the reference does not recognise), or one naming a round robin (`RR`, `ROBIN`,
/// `BERGER`); without either, a field of as many players as rounds (or one more) is a round
/// robin, as is a double round robin (twice the rounds).
pub fn detect_event(t: &Tournament, games_per_round: u8) -> EventKind {
    let mut kind = None;
    for line in &t.layout {
        if let Line::Raw(text) = line {
            let upper = text.to_ascii_uppercase();
            if upper.starts_with("092") || upper.starts_with("192") {
                let body = &upper[3..];
                let swiss = ["SWISS", "DUTCH", "DUBOV", "BURSTEIN", "LIM"];
                if swiss.iter().any(|w| body.contains(w)) {
                    kind = Some(EventKind::Swiss);
                } else if body.contains("RR") || body.contains("ROBIN") || body.contains("BERGER") {
                    kind = kind.or(Some(EventKind::RoundRobin));
                }
            }
        }
    }
    if let Some(k) = kind {
        return k;
    }
    let players = t.players.len();
    let rounds = (t.total_rounds.map_or(0, |r| r as usize)).max(t.rounds_in_file())
        / usize::from(games_per_round.max(1));
    if players == rounds
        || players == rounds + 1
        || 2 * players == rounds
        || 2 * players == rounds + 1
    {
        EventKind::RoundRobin
    } else {
        EventKind::Swiss
    }
}

/// The start date (`042` line) as `yyyymmdd`, when the file has one.
pub fn start_date(t: &Tournament) -> Option<u32> {
    t.layout.iter().find_map(|line| match line {
        Line::Raw(text) if text.starts_with("042") => {
            let digits: String = text[3..].chars().filter(char::is_ascii_digit).collect();
            digits.get(..8).and_then(|d| d.parse().ok())
        }
        _ => None,
    })
}

/// The edition FIDE's reference implementation picks for a file: 2026 for events starting on
/// or after 1 March 2026, else 2024; without a start date, 2024 (docs/rules/rapid-blitz.md#tie-breaks).
pub fn edition_for(t: &Tournament) -> RulesEdition {
    match start_date(t) {
        // yyyymmdd of 1 March 2026.
        Some(d) if d >= 20_260_301 => RulesEdition::Fide2026,
        _ => RulesEdition::Fide2024,
    }
}

/// Converts one round entry.
fn round(e: &shared::RoundEntry) -> RoundResult {
    let outcome = match (e.opponent, e.result) {
        (Some(_), ResultCode::Win | ResultCode::UnratedWin) => RoundOutcome::Win,
        (Some(_), ResultCode::Draw | ResultCode::UnratedDraw) => RoundOutcome::Draw,
        (Some(_), ResultCode::Loss | ResultCode::UnratedLoss) => RoundOutcome::Loss,
        (Some(_), ResultCode::ForfeitWin) => RoundOutcome::ForfeitWin,
        (Some(_), ResultCode::ForfeitLoss) => RoundOutcome::ForfeitLoss,
        (_, ResultCode::PairingBye) => RoundOutcome::PairingBye,
        (_, ResultCode::FullBye | ResultCode::ForfeitWin | ResultCode::Win) => {
            RoundOutcome::FullPointBye
        }
        (_, ResultCode::UnratedWin) => RoundOutcome::FullPointBye,
        (_, ResultCode::HalfBye | ResultCode::Draw | ResultCode::UnratedDraw) => {
            RoundOutcome::HalfPointBye
        }
        _ => RoundOutcome::ZeroPointBye,
    };
    let keeps_opponent = outcome.is_over_the_board()
        || matches!(
            outcome,
            RoundOutcome::ForfeitWin | RoundOutcome::ForfeitLoss
        );
    let opponent = if keeps_opponent { e.opponent } else { None };
    let colour = opponent.and(e.colour).map(|c| match c {
        shared::Colour::White => Colour::White,
        shared::Colour::Black => Colour::Black,
    });
    RoundResult {
        opponent,
        colour,
        outcome,
    }
}

/// Converts a parsed TRF tournament (rules edition 2024).
pub fn input_from_trf(t: &Tournament) -> Input {
    let games_per_round = games_per_round(t);
    Input {
        players: t
            .players
            .iter()
            .map(|p| PlayerResults {
                id: p.id,
                name: p.name.clone(),
                rating: (p.rating > 0).then_some(p.rating),
                rounds: p.rounds.iter().map(round).collect(),
            })
            .collect(),
        rules: RulesEdition::Fide2024,
        games_per_round,
        event: detect_event(t, games_per_round),
        unrated_rating: None,
    }
}

/// Refuses a file scored other than 1 / ½ / 0: the tie-breaks count a win 1, a draw ½ and a
/// loss 0 (C.07), so a point-system line with another value (`BBW 3.0`, `162 W 3.0`) is
/// refused at its line, never ignored (docs/decisions/0270-point-systems.md).
pub fn standard_scoring(t: &Tournament) -> Result<(), TrfError> {
    match shared::non_standard_point_line(t)? {
        None => Ok(()),
        Some(line) => Err(TrfError::Field {
            line,
            field: "point system",
            message: "the tie-breaks support only the standard scoring (win 1, draw 0.5, \
                      loss 0)"
                .into(),
        }),
    }
}

/// Reads a TRF text into the tie-break input; a file scored other than 1 / ½ / 0 is refused
/// ([`standard_scoring`]).
pub fn read_trf(text: &str) -> Result<Input, TrfError> {
    let t = shared::parse_trf(text)?;
    standard_scoring(&t)?;
    Ok(input_from_trf(&t))
}
