//! PDN movetext for draughts: moves `32-28`, captures `28x19` or with every landing square
//! `28x19x10`, move numbers (`1.`, `12...`), results, `{comments}`, `(variations)` and
//! annotation marks are read; each move is matched against the legal moves.

use super::board::Position;
use super::movegen::{Move, legal_moves, play};
use serde::{Deserialize, Serialize};

/// Why a PDN game could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum PdnError {
    /// The start FEN is invalid.
    #[error("{0}")]
    Fen(String),
    /// A token is not a move.
    #[error("ply {ply} (move {move_number}): '{token}' is not a draughts move")]
    NotAMove {
        /// 1-based ply.
        ply: usize,
        /// Move number in the game.
        move_number: u32,
        /// The token.
        token: String,
    },
    /// The move is not legal in the position.
    #[error("ply {ply} (move {move_number}): '{token}' is not legal in {fen}")]
    Illegal {
        /// 1-based ply.
        ply: usize,
        /// Move number in the game.
        move_number: u32,
        /// The move as written.
        token: String,
        /// The position (PDN FEN) in which it was tried.
        fen: String,
    },
    /// The move matches several legal moves.
    #[error("ply {ply} (move {move_number}): '{token}' is ambiguous: {candidates:?}")]
    Ambiguous {
        /// 1-based ply.
        ply: usize,
        /// Move number in the game.
        move_number: u32,
        /// The move as written.
        token: String,
        /// The matching legal moves in full notation.
        candidates: Vec<String>,
    },
    /// The movetext has more half-moves than a record may hold.
    #[error("the game has {plies} half-moves; a record holds at most {limit}")]
    TooLong {
        /// Half-moves found.
        plies: usize,
        /// The limit ([`crate::arbiter::MAX_PLIES`]).
        limit: usize,
    },
}

/// A written move reduced to its squares.
struct Written {
    squares: Vec<u8>,
    capture: bool,
}

fn parse_written(token: &str) -> Option<Written> {
    let t = token.trim_end_matches(['!', '?', '+', '#', '*']);
    let capture = t.contains(['x', 'X', ':']);
    let mut squares = Vec::new();
    for part in t.split(['-', 'x', 'X', ':']) {
        let n: u8 = part.parse().ok()?;
        if !(1..=50).contains(&n) {
            return None;
        }
        squares.push(n);
    }
    if squares.len() < 2 || (!capture && squares.len() != 2) {
        return None;
    }
    Some(Written { squares, capture })
}

/// Finds the legal move meant by `token` in `pos`. `Ok(None)` when it is not a move at all.
/// Intermediate squares given (`28x19x10`) must be landing squares of the move, in order.
pub fn match_move(pos: &Position, token: &str) -> Result<Option<Move>, Vec<Move>> {
    let Some(w) = parse_written(token) else {
        return Ok(None);
    };
    let first = w.squares[0];
    let last = w.squares[w.squares.len() - 1];
    let cands: Vec<Move> = legal_moves(pos)
        .into_iter()
        .filter(|m| m.from == first && m.to == last && (m.is_capture() || !w.capture))
        .filter(|m| {
            let mut it = m.path.iter();
            w.squares[1..w.squares.len() - 1]
                .iter()
                .all(|s| it.any(|p| p == s))
        })
        .collect();
    match cands.len() {
        1 => Ok(cands.into_iter().next()),
        _ => Err(cands),
    }
}

/// Whether a token is a PDN result (`2-0`, `1-1`, `0-2`, `0-0`, `1-0`, `0-1`, `*`, ...).
fn is_result(t: &str) -> bool {
    matches!(
        t,
        "2-0" | "0-2" | "1-1" | "0-0" | "1-0" | "0-1" | "*" | "1/2-1/2" | "2-2"
    )
}

/// Removes PDN tag pairs (`[Event "..."]`), returning the rest and the `FEN` tag, if any.
fn strip_tags(text: &str) -> (String, Option<String>) {
    let mut rest = String::new();
    let mut fen = None;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c != '[' {
            rest.push(c);
            continue;
        }
        let end = text[i..].find(']').map(|e| i + e);
        let Some(end) = end else {
            break;
        };
        let tag = text[i + 1..end].trim();
        if let Some(v) = tag.strip_prefix("FEN") {
            fen = Some(v.trim().trim_matches('"').to_string());
        }
        while chars.peek().is_some_and(|(j, _)| *j <= end) {
            chars.next();
        }
        rest.push(' ');
    }
    (rest, fen)
}

/// Splits movetext into move tokens, dropping comments, variations, numbers and results.
fn tokens(movetext: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth_brace = 0u32;
    let mut depth_paren = 0u32;
    let mut cur = String::new();
    let flush = |cur: &mut String, out: &mut Vec<String>| {
        if !cur.is_empty() {
            out.push(std::mem::take(cur));
        }
    };
    for ch in movetext.chars() {
        match ch {
            '{' => {
                flush(&mut cur, &mut out);
                depth_brace += 1;
            }
            '}' => depth_brace = depth_brace.saturating_sub(1),
            _ if depth_brace > 0 => {}
            '(' => {
                flush(&mut cur, &mut out);
                depth_paren += 1;
            }
            ')' => depth_paren = depth_paren.saturating_sub(1),
            _ if depth_paren > 0 => {}
            c if c.is_whitespace() => flush(&mut cur, &mut out),
            c => cur.push(c),
        }
    }
    flush(&mut cur, &mut out);
    out.into_iter()
        .filter_map(|t| {
            // "12." or "12..." alone, or glued to the move: "12.32-28"
            let t = match t.find('.') {
                Some(i) if t[..i].chars().all(|c| c.is_ascii_digit()) => {
                    t[i..].trim_start_matches('.').to_string()
                }
                _ => t,
            };
            if t.is_empty() || is_result(&t) || t.starts_with('$') {
                None
            } else {
                Some(t)
            }
        })
        .collect()
}

/// A game read from PDN: the start position and every legal move in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraughtsGame {
    /// The start position.
    pub start: Position,
    /// The moves in order.
    pub moves: Vec<Move>,
    /// The number of the first move (from the start position; 1 for a normal game).
    pub first_move_number: u32,
}

impl DraughtsGame {
    /// The positions of the game: `positions()[0]` is the start, `[i]` the position after ply `i`.
    pub fn positions(&self) -> Vec<Position> {
        let mut v = Vec::with_capacity(self.moves.len() + 1);
        v.push(self.start.clone());
        for m in &self.moves {
            let next = play(&v[v.len() - 1], m);
            v.push(next);
        }
        v
    }

    /// Move number and side of ply `i` (1-based ply).
    pub fn move_ref(&self, ply: usize) -> (u32, super::board::Colour) {
        move_ref(&self.start, self.first_move_number, ply)
    }
}

/// Move number and side for 1-based `ply` counted from `start`.
pub(crate) fn move_ref(start: &Position, first: u32, ply: usize) -> (u32, super::board::Colour) {
    crate::arbiter::move_number_of(first, start.turn, ply as u32)
}

/// Reads a game: optional start FEN (default: a `[FEN]` tag in the text, else the initial
/// position) and PDN movetext (tag pairs are skipped).
pub fn read_game(start_fen: Option<&str>, movetext: &str) -> Result<DraughtsGame, PdnError> {
    let (movetext, tag_fen) = strip_tags(movetext);
    let movetext = movetext.as_str();
    let start = match start_fen.or(tag_fen.as_deref()) {
        Some(f) => Position::from_fen(f).map_err(|e| PdnError::Fen(e.to_string()))?,
        None => Position::initial(),
    };
    let mut game = DraughtsGame {
        start: start.clone(),
        moves: Vec::new(),
        first_move_number: 1,
    };
    let tokens = tokens(movetext);
    if tokens.len() > crate::arbiter::MAX_PLIES {
        return Err(PdnError::TooLong {
            plies: tokens.len(),
            limit: crate::arbiter::MAX_PLIES,
        });
    }
    let mut pos = start;
    for (i, tok) in tokens.into_iter().enumerate() {
        let ply = i + 1;
        let (move_number, _) = game.move_ref(ply);
        match match_move(&pos, &tok) {
            Ok(Some(m)) => {
                pos = play(&pos, &m);
                game.moves.push(m);
            }
            Ok(None) => {
                return Err(PdnError::NotAMove {
                    ply,
                    move_number,
                    token: tok,
                });
            }
            Err(c) if c.is_empty() => {
                return Err(PdnError::Illegal {
                    ply,
                    move_number,
                    token: tok,
                    fen: pos.to_fen(),
                });
            }
            Err(c) => {
                return Err(PdnError::Ambiguous {
                    ply,
                    move_number,
                    token: tok,
                    candidates: c.iter().map(Move::long_notation).collect(),
                });
            }
        }
    }
    Ok(game)
}
