//! A minimal FIDE TRF (TRF-16 / TRF-2026) reader for tie-breaks: the player lines (`001`) with
//! their round blocks, and the number of games per round (`192 FIDE_DOUBLESWISS`, or the
//! `XXG 2` extension line). Everything else is ignored.
//!
//! Round block (10 characters from column 92): opponent (4), colour (`w`/`b`/`-`), result:
//! `1 = 0` played, `W D L` played but unrated, `+ -` forfeits, `U` pairing-allocated bye,
//! `F` full-point bye, `H` half-point bye, `Z` or `-` (no opponent) or blank: absent.

use super::model::{Colour, Input, Outcome, PlayerResults, RoundResult, RulesEdition};

/// Why a TRF file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TrfError {
    /// A player line is malformed.
    #[error("line {line}: {reason}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

fn field(chars: &[char], from: usize, to: usize) -> String {
    chars
        .get(from..to.min(chars.len()))
        .map(|s| s.iter().collect::<String>())
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// Reads a TRF text into the tie-break input (rules edition 2024).
pub fn read_trf(text: &str) -> Result<Input, TrfError> {
    let mut players = Vec::new();
    let mut games_per_round = 1u8;
    for (ln, line) in text.split(['\r', '\n']).enumerate() {
        let line_no = ln + 1;
        let err = |reason: String| TrfError::Line {
            line: line_no,
            reason,
        };
        if (line.starts_with("192") || line.starts_with("092"))
            && line.to_ascii_uppercase().contains("DOUBLESWISS")
        {
            games_per_round = 2;
        }
        if let Some(rest) = line.strip_prefix("XXG") {
            games_per_round = rest
                .trim()
                .parse()
                .map_err(|_| err(format!("XXG {:?} is not a number", rest.trim())))?;
        }
        if !line.starts_with("001") {
            continue;
        }
        let chars: Vec<char> = line.chars().collect();
        let id: u32 = field(&chars, 4, 8)
            .parse()
            .map_err(|_| err("starting rank is not a number".into()))?;
        let name = field(&chars, 14, 47);
        let rating = field(&chars, 48, 52).parse().ok().filter(|&r: &u32| r > 0);
        let mut rounds = Vec::new();
        // Blank blocks at the end of a line are padding, not absences.
        let mut last_non_blank = 0;
        let mut start = 91;
        while start < chars.len() {
            let block: Vec<char> = chars[start..(start + 10).min(chars.len())].to_vec();
            if block.iter().any(|c| !c.is_whitespace()) {
                last_non_blank = rounds.len() + 1;
            }
            let opp_text = field(&block, 0, 4);
            let colour = match block.get(5).copied().unwrap_or(' ') {
                'w' | 'W' => Some(Colour::White),
                'b' | 'B' => Some(Colour::Black),
                _ => None,
            };
            let code = block.get(7).copied().unwrap_or(' ');
            let opponent: Option<u32> = if opp_text.is_empty() {
                None
            } else {
                let o: u32 = opp_text.parse().map_err(|_| {
                    err(format!(
                        "round {}: opponent {opp_text:?} is not a number",
                        rounds.len() + 1
                    ))
                })?;
                (o > 0).then_some(o)
            };
            let round = rounds.len() + 1;
            let outcome = match (opponent, code) {
                (Some(_), '1' | 'W') => Outcome::Win,
                (Some(_), '=' | 'D') => Outcome::Draw,
                (Some(_), '0' | 'L') => Outcome::Loss,
                (Some(_), '+') => Outcome::ForfeitWin,
                (Some(_), '-') => Outcome::ForfeitLoss,
                (_, 'U') => Outcome::PairingBye,
                (_, 'F' | '+' | '1' | 'W') => Outcome::FullPointBye,
                (_, 'H' | '=' | 'D') => Outcome::HalfPointBye,
                (_, 'Z' | '-' | '0' | 'L' | ' ') => Outcome::ZeroPointBye,
                (_, c) => return Err(err(format!("round {round}: unknown result code {c:?}"))),
            };
            let opponent = if outcome.is_over_the_board()
                || matches!(outcome, Outcome::ForfeitWin | Outcome::ForfeitLoss)
            {
                opponent
            } else {
                None
            };
            rounds.push(RoundResult {
                opponent,
                colour: if opponent.is_some() { colour } else { None },
                outcome,
            });
            start += 10;
        }
        rounds.truncate(last_non_blank);
        players.push(PlayerResults {
            id,
            name,
            rating,
            rounds,
        });
    }
    Ok(Input {
        players,
        rules: RulesEdition::Fide2024,
        games_per_round,
    })
}
