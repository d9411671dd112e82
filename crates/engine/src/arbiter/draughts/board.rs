//! The 10×10 international draughts board: square numbering 1–50 (PDN standard, square 1 in
//! Black's top-left corner, White plays up the board from 31–50), pieces, positions and the
//! PDN FEN (`W:W31,32,K46:B1,2`) reader and writer.

use std::fmt;

/// The two colours (the arbiter's [`Colour`](crate::arbiter::Side)). White moves
/// first, plays from squares 31–50 and promotes on 1–5; Black promotes on 46–50.
pub(crate) use crate::vocab::Colour;

/// What stands on a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Piece {
    /// No piece.
    #[default]
    Empty,
    /// A man (schijf).
    Man(Colour),
    /// A king (dam).
    King(Colour),
}

impl Piece {
    /// The colour of the piece, if any.
    pub fn colour(self) -> Option<Colour> {
        match self {
            Piece::Empty => None,
            Piece::Man(c) | Piece::King(c) => Some(c),
        }
    }
}

/// Diagonal directions: towards Black's side (`up`, rows decreasing) and towards White's side.
pub(crate) const DIRS: [(i8, i8); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

/// Row (0 = Black's back row, squares 1–5) and column (0–9) of square `sq` (1–50).
pub(crate) const fn coords(sq: u8) -> (i8, i8) {
    let r = (sq - 1) / 5;
    let i = (sq - 1) % 5;
    let c = if r & 1 == 0 { 2 * i + 1 } else { 2 * i };
    (r as i8, c as i8)
}

const fn square_at(r: i8, c: i8) -> u8 {
    if r < 0 || r > 9 || c < 0 || c > 9 || (r + c) % 2 == 0 {
        0
    } else {
        (r * 5 + c / 2 + 1) as u8
    }
}

const fn neighbour_table() -> [[u8; 4]; 51] {
    let mut t = [[0u8; 4]; 51];
    let mut sq = 1;
    while sq <= 50 {
        let (r, c) = coords(sq as u8);
        let mut d = 0;
        while d < 4 {
            t[sq][d] = square_at(r + DIRS[d].0, c + DIRS[d].1);
            d += 1;
        }
        sq += 1;
    }
    t
}

/// `NEIGHBOUR[sq][dir]`: the next square from `sq` in direction `dir` (index into [`DIRS`]),
/// or 0 when off the board.
pub(crate) const NEIGHBOUR: [[u8; 4]; 51] = neighbour_table();

/// A position: the 50 squares (index 0 unused) and the side to move.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    /// Squares 1–50 (index 0 is unused and always empty).
    pub squares: [Piece; 51],
    /// The side to move.
    pub turn: Colour,
}

/// Why a FEN could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The FEN does not have the form `W:W..:B..`.
    #[error("FEN '{fen}' is malformed: {why}")]
    Malformed {
        /// The FEN as given.
        fen: String,
        /// What is wrong.
        why: String,
    },
    /// A square number outside 1–50 or listed twice.
    #[error("FEN '{fen}' names square '{square}' that is out of range or used twice")]
    BadSquare {
        /// The FEN as given.
        fen: String,
        /// The offending square text.
        square: String,
    },
}

impl Position {
    /// The international starting position: Black on 1–20, White on 31–50, White to move.
    pub fn initial() -> Position {
        let mut squares = [Piece::Empty; 51];
        for (i, p) in squares.iter_mut().enumerate().skip(1) {
            if i <= 20 {
                *p = Piece::Man(Colour::Black);
            } else if i >= 31 {
                *p = Piece::Man(Colour::White);
            }
        }
        Position {
            squares,
            turn: Colour::White,
        }
    }

    /// Material in men for `c`: a man counts 1, a king 2 (docs/rules/draughts-championship.md#scoring-2-1-0-plusremise-and-minremise).
    pub fn material(&self, c: Colour) -> u32 {
        self.squares
            .iter()
            .map(|p| match p {
                Piece::Man(x) if *x == c => 1,
                Piece::King(x) if *x == c => 2,
                _ => 0,
            })
            .sum()
    }

    /// (men, kings) of colour `c`.
    pub fn count(&self, c: Colour) -> (u32, u32) {
        let mut men = 0;
        let mut kings = 0;
        for p in &self.squares {
            match p {
                Piece::Man(x) if *x == c => men += 1,
                Piece::King(x) if *x == c => kings += 1,
                _ => {}
            }
        }
        (men, kings)
    }

    /// Reads a PDN FEN such as `W:W31,32,K46:B1,2,3` (ranges like `31-35` are accepted).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mal = |why: &str| FenError::Malformed {
            fen: fen.to_string(),
            why: why.to_string(),
        };
        let text: String = fen
            .trim()
            .trim_end_matches('.')
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '"')
            .collect();
        let mut parts = text.split(':');
        let turn = match parts.next() {
            Some("W") | Some("w") => Colour::White,
            Some("B") | Some("b") => Colour::Black,
            _ => return Err(mal("must start with W or B (side to move)")),
        };
        let mut squares = [Piece::Empty; 51];
        for part in parts {
            let mut chars = part.chars();
            let colour = match chars.next() {
                Some('W') | Some('w') => Colour::White,
                Some('B') | Some('b') => Colour::Black,
                _ => return Err(mal("each piece list must start with W or B")),
            };
            let list = chars.as_str();
            if list.is_empty() {
                continue;
            }
            for item in list.split(',') {
                let bad = || FenError::BadSquare {
                    fen: fen.to_string(),
                    square: item.to_string(),
                };
                let (king, num) = match item.strip_prefix(['K', 'k']) {
                    Some(rest) => (true, rest),
                    None => (false, item),
                };
                let (a, b) = match num.split_once('-') {
                    Some((a, b)) => (a, b),
                    None => (num, num),
                };
                let a: u8 = a.parse().map_err(|_| bad())?;
                let b: u8 = b.parse().map_err(|_| bad())?;
                if a == 0 || b > 50 || a > b {
                    return Err(bad());
                }
                for sq in a..=b {
                    if squares[sq as usize] != Piece::Empty {
                        return Err(bad());
                    }
                    squares[sq as usize] = if king {
                        Piece::King(colour)
                    } else {
                        Piece::Man(colour)
                    };
                }
            }
        }
        Ok(Position { squares, turn })
    }

    /// Writes the position as a PDN FEN (`W:W31,32,K46:B1,2`), squares in increasing order.
    pub fn to_fen(&self) -> String {
        let list = |c: Colour| {
            let mut v = Vec::new();
            for sq in 1..=50usize {
                match self.squares[sq] {
                    Piece::Man(x) if x == c => v.push(sq.to_string()),
                    Piece::King(x) if x == c => v.push(format!("K{sq}")),
                    _ => {}
                }
            }
            v.join(",")
        };
        let t = match self.turn {
            Colour::White => "W",
            Colour::Black => "B",
        };
        format!("{t}:W{}:B{}", list(Colour::White), list(Colour::Black))
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_matches_the_standard_numbering() {
        // square 1 is row 0 column 1; square 6 is row 1 column 0; 46 is row 9 column 0
        assert_eq!(coords(1), (0, 1));
        assert_eq!(coords(6), (1, 0));
        assert_eq!(coords(46), (9, 0));
        assert_eq!(coords(50), (9, 8));
        // 32 (row 6, col 2): up-left 27, up-right 28, down-left 37, down-right 38
        assert_eq!(NEIGHBOUR[32], [27, 28, 37, 38]);
        // 6 is on the left edge: no left neighbours
        assert_eq!(NEIGHBOUR[6], [0, 1, 0, 11]);
        // 5 is the top-right corner: only down-left 10
        assert_eq!(NEIGHBOUR[5], [0, 0, 10, 0]);
    }

    #[test]
    fn fen_round_trip_and_ranges() {
        let p = Position::from_fen("W:W31-50:B1-20").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p, Position::initial());
        let q = Position::from_fen("B:WK46,33:B3,K12").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(q.to_fen(), "B:W33,K46:B3,K12");
        assert_eq!(q.squares[46], Piece::King(Colour::White));
        assert_eq!(q.material(Colour::White), 3);
        assert!(Position::from_fen("W:W51:B1").is_err());
        assert!(Position::from_fen("W:W1:B1").is_err());
        assert!(Position::from_fen("X:W1:B2").is_err());
    }
}
