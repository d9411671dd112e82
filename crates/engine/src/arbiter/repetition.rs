//! Threefold repetition in chess (FIDE Laws 9.2, docs/rules/arbiter.md#threefold-repetition-fide-92). A claim is valid when the same
//! position stands for at least the third time (not necessarily in a row): (a) after the move
//! the claimant has written down and declares, or (b) just now with the claimant to move.
//!
//! "The same position" (FIDE 9.2.2): the same player to move, the same kinds and colours of
//! pieces on the same squares, and the same possible moves. So a position is keyed by board,
//! side to move, castling RIGHTS (a right lost for good differs, a castling only prevented for
//! the moment does not), and the en passant square ONLY when an en passant capture is actually
//! legal (a double pawn step that no pawn can legally take does not make a new position).

use super::chess::{Key, Pos};
use super::{Colour, MoveRef, Occurrence, move_number_of};
use super::{pgn, san};
use cozy_chess::{Color, Move};
use serde::{Deserialize, Serialize};

/// The moves of the game as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChessMoves {
    /// PGN movetext (headers, move numbers, comments, variations, NAGs and results are
    /// skipped; a `[FEN "..."]` header is used as the start when no start FEN is given).
    Pgn(String),
    /// A list of moves in SAN, e.g. `["e4", "e5", "Nf3"]`.
    San(Vec<String>),
}

/// A threefold-repetition claim to check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepetitionClaim {
    /// Start position as FEN; the standard initial position when absent.
    #[serde(default)]
    pub start_fen: Option<String>,
    /// The moves played so far (up to the claim).
    pub moves: ChessMoves,
    /// Claim (a): the move the claimant has written down and declares (SAN). Absent for
    /// claim (b), the position just now on the board with the claimant to move.
    #[serde(default)]
    pub declared_move: Option<String>,
}

/// Which of the two claims of FIDE 9.2.1 was checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RepetitionKind {
    /// 9.2.1.1: the position about to appear after the declared move.
    AfterDeclaredMove,
    /// 9.2.1.2: the position that has just appeared, claimant to move.
    CurrentPosition,
}

/// Why a claim is not valid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "reason")]
pub enum InvalidReason {
    /// The position occurs fewer than three times.
    TooFewOccurrences {
        /// How many times it occurs (including the claimed one).
        occurrences: u32,
    },
    /// The declared move is not a legal move (or not a move at all) in the current position.
    IllegalDeclaredMove {
        /// The move as written.
        declared: String,
    },
}

/// The arbiter's answer to a repetition claim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepetitionVerdict {
    /// Whether the claim is valid (the game is drawn).
    pub valid: bool,
    /// Which claim was checked.
    pub kind: RepetitionKind,
    /// The claimant: the player to move when claiming.
    pub claimant: Colour,
    /// How many times the claimed position has stood on the board, the claimed time included.
    pub occurrences: u32,
    /// The earlier occurrences (all but the claimed one), in game order.
    pub earlier: Vec<Occurrence>,
    /// The claimed occurrence (after the declared move, or after the last move played);
    /// `None` when the declared move is illegal.
    pub claimed: Option<Occurrence>,
    /// FEN of the claimed position.
    pub fen: String,
    /// Why the claim fails, when it does.
    pub invalid: Option<InvalidReason>,
}

/// The game record could not be read (the claim itself is then not judged).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum RepetitionError {
    /// The start FEN is invalid.
    #[error("start FEN '{fen}' is invalid: {why}")]
    BadFen {
        /// The FEN given.
        fen: String,
        /// What is wrong.
        why: String,
    },
    /// A recorded move is not SAN or not legal where it was played.
    #[error("move {move_number} ({side:?}) '{san}' at ply {ply} is not a legal move")]
    IllegalMove {
        /// 1-based ply.
        ply: u32,
        /// Move number.
        move_number: u32,
        /// Who played it.
        side: Colour,
        /// The move as recorded.
        san: String,
    },
    /// A recorded move matches several legal moves (e.g. `Nd7` with knights on b8 and f6).
    #[error(
        "move {move_number} ({side:?}) '{san}' at ply {ply} is ambiguous: it can be {}",
        candidates.join(" or ")
    )]
    AmbiguousMove {
        /// 1-based ply.
        ply: u32,
        /// Move number.
        move_number: u32,
        /// Who played it.
        side: Colour,
        /// The move as recorded.
        san: String,
        /// The legal moves it matches, in SAN.
        candidates: Vec<String>,
    },
    /// The PGN text cannot be read.
    #[error("the PGN cannot be read: {why}")]
    BadPgn {
        /// What is wrong.
        why: String,
    },
    /// The record has more half-moves than a record may hold.
    #[error("the game has {plies} half-moves; a record holds at most {limit}")]
    TooLong {
        /// Half-moves found.
        plies: usize,
        /// The limit ([`crate::arbiter::MAX_PLIES`]).
        limit: usize,
    },
}

pub(crate) fn side(c: Color) -> Colour {
    match c {
        Color::White => Colour::White,
        Color::Black => Colour::Black,
    }
}

/// Reads a SAN move in `pos` (see [`super::san`]); `None` when unreadable, illegal or
/// ambiguous.
pub(crate) fn parse_san(pos: &Pos, text: &str) -> Option<Move> {
    san::parse_san(pos, text).ok()
}

/// A recorded game replayed: every position and the move that led to each.
pub(crate) struct Record {
    /// `positions[0]` is the start, `positions[i]` the position after ply `i`.
    pub positions: Vec<Pos>,
    /// `refs[i]` cites ply `i + 1`.
    pub refs: Vec<MoveRef>,
    /// Move number of the start position.
    pub first: u32,
    /// Side to move at the start.
    pub turn0: Colour,
}

/// Reads and replays a chess record (PGN or SAN list) and gives its half-moves in order, each
/// with its move number, side and SAN; an illegal or unreadable move is an error.
pub fn record_moves(
    moves: &ChessMoves,
    start_fen: Option<&str>,
) -> Result<Vec<MoveRef>, RepetitionError> {
    read_record(moves, start_fen).map(|rec| rec.refs)
}

/// Reads and replays the recorded moves from the start FEN (or the PGN's `[FEN]` tag, or the
/// initial position).
pub(crate) fn read_record(
    moves: &ChessMoves,
    start_fen: Option<&str>,
) -> Result<Record, RepetitionError> {
    let (tokens, header_fen) = match moves {
        ChessMoves::Pgn(text) => {
            let game = pgn::read_pgn(text).map_err(|why| RepetitionError::BadPgn { why })?;
            (game.moves, game.fen)
        }
        ChessMoves::San(list) => (list.clone(), None),
    };
    if tokens.len() > super::MAX_PLIES {
        return Err(RepetitionError::TooLong {
            plies: tokens.len(),
            limit: super::MAX_PLIES,
        });
    }
    let fen_text = start_fen.map(str::to_string).or(header_fen);
    let start = match &fen_text {
        None => Pos::default(),
        Some(f) => Pos::from_fen(f).map_err(|why| RepetitionError::BadFen {
            fen: f.clone(),
            why,
        })?,
    };
    let first = start.fullmoves;
    let turn0 = side(start.turn());
    let mut positions = vec![start];
    let mut refs = Vec::with_capacity(tokens.len());
    for (i, tok) in tokens.iter().enumerate() {
        let ply = i as u32 + 1;
        let (move_number, by) = move_number_of(first, turn0, ply);
        let mut pos = positions[i].clone();
        let m = san::parse_san(&pos, tok).map_err(|e| match e {
            san::SanError::Ambiguous(candidates) => RepetitionError::AmbiguousMove {
                ply,
                move_number,
                side: by,
                san: tok.clone(),
                candidates,
            },
            san::SanError::Unreadable | san::SanError::Illegal => RepetitionError::IllegalMove {
                ply,
                move_number,
                side: by,
                san: tok.clone(),
            },
        })?;
        let notation = san::to_san(&pos, m);
        pos.play(m);
        positions.push(pos);
        refs.push(MoveRef {
            move_number,
            side: by,
            notation,
            ply,
        });
    }
    Ok(Record {
        positions,
        refs,
        first,
        turn0,
    })
}

/// Checks a threefold-repetition claim (FIDE 9.2). Errors only when the recorded game itself
/// cannot be read; an illegal declared move gives an invalid verdict.
pub fn check_repetition(claim: &RepetitionClaim) -> Result<RepetitionVerdict, RepetitionError> {
    let record = read_record(&claim.moves, claim.start_fen.as_deref())?;
    let (first, turn0) = (record.first, record.turn0);
    let pos = record.positions[record.positions.len() - 1].clone();
    let mut seen: Vec<(Key, Occurrence)> = record
        .positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let after = (i > 0).then(|| record.refs[i - 1].clone());
            (p.key(), Occurrence { after })
        })
        .collect();
    let claimant = side(pos.turn());
    let (kind, claimed_key, claimed, fen) = match &claim.declared_move {
        None => {
            let (k, o) = seen[seen.len() - 1].clone();
            seen.pop();
            (RepetitionKind::CurrentPosition, k, o, fen_of(&pos))
        }
        Some(text) => {
            let kind = RepetitionKind::AfterDeclaredMove;
            let Some(m) = parse_san(&pos, text) else {
                return Ok(RepetitionVerdict {
                    valid: false,
                    kind,
                    claimant,
                    occurrences: 0,
                    earlier: Vec::new(),
                    claimed: None,
                    fen: fen_of(&pos),
                    invalid: Some(InvalidReason::IllegalDeclaredMove {
                        declared: text.clone(),
                    }),
                });
            };
            let ply = record.refs.len() as u32 + 1;
            let (move_number, by) = move_number_of(first, turn0, ply);
            let notation = san::to_san(&pos, m);
            let mut next = pos.clone();
            next.play(m);
            let o = Occurrence {
                after: Some(MoveRef {
                    move_number,
                    side: by,
                    notation,
                    ply,
                }),
            };
            (kind, next.key(), o, fen_of(&next))
        }
    };
    let earlier: Vec<Occurrence> = seen
        .into_iter()
        .filter(|(k, _)| *k == claimed_key)
        .map(|(_, o)| o)
        .collect();
    let occurrences = earlier.len() as u32 + 1;
    let valid = occurrences >= 3;
    Ok(RepetitionVerdict {
        valid,
        kind,
        claimant,
        occurrences,
        earlier,
        claimed: Some(claimed),
        fen,
        invalid: (!valid).then_some(InvalidReason::TooFewOccurrences { occurrences }),
    })
}

/// FEN of a position, with the e.p. square only when an e.p. capture is legal.
pub(crate) fn fen_of(p: &Pos) -> String {
    p.fen()
}

#[cfg(test)]
#[path = "repetition_tests.rs"]
mod tests;
