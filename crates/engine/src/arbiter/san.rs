//! Standard algebraic notation (SAN, FIDE Laws appendix C): reading a move written by a player
//! by matching it against the legal moves of the position, and writing a legal move as SAN.
//!
//! Read: piece letter (none for a pawn), optional disambiguation by file, rank or square,
//! optional `x`, destination, optional promotion (`=Q`, also `Q`), castling `O-O` / `O-O-O`
//! (also with zeros), and any check or mate suffix (`+`, `#`) and annotation (`!`, `?`, `!!`,
//! `??`, `!?`, `?!`) and an `e.p.` mark, which are ignored. A move number glued to the move (`23.Nf3`, `23...Nf6`)
//! is skipped. A written `x` must be a capture; a missing `x` on a capture is accepted. A pawn
//! move without a file is a move straight ahead.

use super::chess::Pos;
use cozy_chess::{File, Move, Piece, Rank, Square};

/// Why a SAN move could not be read in a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SanError {
    /// Not SAN at all.
    Unreadable,
    /// SAN, but no legal move matches.
    Illegal,
    /// Several legal moves match; their SAN.
    Ambiguous(Vec<String>),
}

/// What a SAN string says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Written {
    Castle {
        short: bool,
    },
    Normal {
        piece: Piece,
        file: Option<File>,
        rank: Option<Rank>,
        capture: bool,
        to: Square,
        promotion: Option<Piece>,
    },
}

fn piece_of_letter(c: char) -> Option<Piece> {
    match c {
        'N' => Some(Piece::Knight),
        'B' => Some(Piece::Bishop),
        'R' => Some(Piece::Rook),
        'Q' => Some(Piece::Queen),
        'K' => Some(Piece::King),
        _ => None,
    }
}

fn letter(p: Piece) -> &'static str {
    match p {
        Piece::Pawn => "",
        Piece::Knight => "N",
        Piece::Bishop => "B",
        Piece::Rook => "R",
        Piece::Queen => "Q",
        Piece::King => "K",
    }
}

fn file_of(c: char) -> Option<File> {
    ('a'..='h')
        .contains(&c)
        .then(|| File::index(c as usize - 'a' as usize))
}

fn rank_of(c: char) -> Option<Rank> {
    ('1'..='8')
        .contains(&c)
        .then(|| Rank::index(c as usize - '1' as usize))
}

/// Strips a glued move number, suffixes and annotations.
fn core(text: &str) -> &str {
    let t = text.trim().trim_end_matches(['!', '?', '+', '#']);
    // an en passant capture may be marked "e.p." (FIDE Laws, appendix C)
    let t = t.strip_suffix("e.p.").unwrap_or(t).trim_end();
    let t = t.trim_end_matches(['!', '?', '+', '#']);
    match t.rfind('.') {
        Some(i) if t[..i].chars().all(|c| c.is_ascii_digit() || c == '.') => t[i + 1..].trim(),
        _ => t,
    }
}

fn read(text: &str) -> Option<Written> {
    let t = core(text);
    match t {
        "O-O" | "0-0" => return Some(Written::Castle { short: true }),
        "O-O-O" | "0-0-0" => return Some(Written::Castle { short: false }),
        _ => {}
    }
    let mut cs: Vec<char> = t.chars().collect();
    let piece = match cs.first().copied().and_then(piece_of_letter) {
        Some(p) => {
            cs.remove(0);
            p
        }
        None => Piece::Pawn,
    };
    // promotion at the end: "=Q" or "Q"
    let mut promotion = None;
    if let Some(&last) = cs.last()
        && let Some(p) = piece_of_letter(last)
    {
        if piece != Piece::Pawn || matches!(p, Piece::King) {
            return None;
        }
        promotion = Some(p);
        cs.pop();
        if cs.last() == Some(&'=') {
            cs.pop();
        }
    }
    if cs.len() < 2 {
        return None;
    }
    let to_file = file_of(cs[cs.len() - 2])?;
    let to_rank = rank_of(cs[cs.len() - 1])?;
    let to = Square::new(to_file, to_rank);
    let mut rest = &cs[..cs.len() - 2];
    let capture = rest.last() == Some(&'x') || rest.last() == Some(&':');
    if capture {
        rest = &rest[..rest.len() - 1];
    }
    let (file, rank) = match rest {
        [] => (None, None),
        [c] => match (file_of(*c), rank_of(*c)) {
            (Some(f), _) => (Some(f), None),
            (None, Some(r)) => (None, Some(r)),
            _ => return None,
        },
        [f, r] => (Some(file_of(*f)?), Some(rank_of(*r)?)),
        _ => return None,
    };
    if piece == Piece::Pawn && rank.is_some() && file.is_none() {
        return None;
    }
    Some(Written::Normal {
        piece,
        file,
        rank,
        capture,
        to,
        promotion,
    })
}

/// Whether two SAN texts can name the same move, read without the position
/// (docs/rules/arbiter.md#threefold-repetition-fide-92): the same piece to the same square with the
/// same promotion, a disambiguation written in one and not the other (`Nc6` and `Nbc6`), a
/// capture mark present or not, a pawn without its file moving straight ahead; castling as
/// castling. The departures must be nested — one writing says all the other says about the
/// departure square — so that two writings legal in one position name one move exactly when
/// they agree. `None` when either text is not SAN (a draughts move, say).
pub(crate) fn same_written_move(a: &str, b: &str) -> Option<bool> {
    let (x, y) = (read(a)?, read(b)?);
    Some(match (x, y) {
        (Written::Castle { short: s }, Written::Castle { short: t }) => s == t,
        (
            Written::Normal {
                piece: p,
                file: f,
                rank: r,
                to: t,
                promotion: q,
                ..
            },
            Written::Normal {
                piece: p2,
                file: f2,
                rank: r2,
                to: t2,
                promotion: q2,
                ..
            },
        ) => {
            // a pawn written without its file moves straight ahead: that is its file
            let pawn_file = |f: Option<File>, to: Square| {
                if p == Piece::Pawn {
                    Some(f.unwrap_or(to.file()))
                } else {
                    f
                }
            };
            // one writing says all the other says, and perhaps more: then, both being legal
            // in the position, the more specific one names a move the other names too, which
            // is its only move (`Q3b2` and `Qcb2` are not nested: two queens may be meant)
            let within = |u: Option<File>, v: Option<File>, r: Option<Rank>, s: Option<Rank>| {
                u.is_none_or(|u| v == Some(u)) && r.is_none_or(|r| s == Some(r))
            };
            let (f, f2) = (pawn_file(f, t), pawn_file(f2, t2));
            p == p2 && t == t2 && q == q2 && (within(f, f2, r, r2) || within(f2, f, r2, r))
        }
        _ => false,
    })
}

fn matches(pos: &Pos, w: Written, m: Move) -> bool {
    match w {
        Written::Castle { short } => pos.is_castling(m) && (m.to.file() > m.from.file()) == short,
        Written::Normal {
            piece,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            pos.board.piece_on(m.from) == Some(piece)
                && !pos.is_castling(m)
                && m.to == to
                && m.promotion == promotion
                && (!capture || pos.is_capture(m))
                && file.is_none_or(|f| m.from.file() == f)
                && rank.is_none_or(|r| m.from.rank() == r)
                // a pawn written without its file moves straight ahead
                && (piece != Piece::Pawn || file.is_some() || m.from.file() == to.file())
        }
    }
}

/// Reads a SAN move in `pos`.
pub(crate) fn parse_san(pos: &Pos, text: &str) -> Result<Move, SanError> {
    let w = read(text).ok_or(SanError::Unreadable)?;
    let found: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|&m| matches(pos, w, m))
        .collect();
    match found.as_slice() {
        [] => Err(SanError::Illegal),
        [m] => Ok(*m),
        many => {
            let mut sans: Vec<String> = many.iter().map(|&m| to_san(pos, m)).collect();
            sans.sort();
            Err(SanError::Ambiguous(sans))
        }
    }
}

/// Writes a legal move as SAN, without check or mate suffix: disambiguation by file when that
/// suffices, else by rank, else by square; pawn captures always with their file.
pub(crate) fn to_san(pos: &Pos, m: Move) -> String {
    if pos.is_castling(m) {
        return if m.to.file() > m.from.file() {
            "O-O".into()
        } else {
            "O-O-O".into()
        };
    }
    let Some(piece) = pos.board.piece_on(m.from) else {
        return format!("{}{}", m.from, m.to);
    };
    let capture = pos.is_capture(m);
    let mut s = String::from(letter(piece));
    if piece == Piece::Pawn {
        if capture {
            s.push(char::from(m.from.file()));
        }
    } else {
        let rivals: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|r| {
                r.to == m.to
                    && r.from != m.from
                    && pos.board.piece_on(r.from) == Some(piece)
                    && !pos.is_castling(*r)
            })
            .collect();
        if !rivals.is_empty() {
            if rivals.iter().all(|r| r.from.file() != m.from.file()) {
                s.push(char::from(m.from.file()));
            } else if rivals.iter().all(|r| r.from.rank() != m.from.rank()) {
                s.push(char::from(m.from.rank()));
            } else {
                s.push_str(&m.from.to_string());
            }
        }
    }
    if capture {
        s.push('x');
    }
    s.push_str(&m.to.to_string());
    if let Some(p) = m.promotion {
        s.push('=');
        s.push_str(letter(p));
    }
    s
}

#[cfg(test)]
#[path = "san_tests.rs"]
mod tests;
