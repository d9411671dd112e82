//! Legal move generation for international draughts (FMJD rules as used by the KNDB): men move
//! one square diagonally forward and capture forwards and backwards; kings fly (any distance
//! along a free diagonal, and capture at a distance landing on any free square beyond); capture
//! is mandatory and the sequence taking the MOST pieces must be chosen (kings count as one
//! piece for this rule); captured pieces are removed only after the whole move, so a piece can
//! not be jumped twice and still blocks the way (the Turkish strike rule); a man promotes only
//! when it ENDS its move on the far row.

use super::board::{Colour, NEIGHBOUR, Piece, Position};
use serde::{Deserialize, Serialize};

/// One legal move.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    /// The square the piece starts on.
    pub from: u8,
    /// The square the piece ends on.
    pub to: u8,
    /// Every square the piece lands on, in order, ending with `to` (one entry for a plain move).
    pub path: Vec<u8>,
    /// The squares of the captured pieces, in the order they were jumped.
    pub captured: Vec<u8>,
}

impl Move {
    /// Whether the move captures.
    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    /// Short PDN notation: `32-28` or `28x19` (from and to only).
    pub fn notation(&self) -> String {
        let sep = if self.is_capture() { 'x' } else { '-' };
        format!("{}{sep}{}", self.from, self.to)
    }

    /// Full PDN notation with every landing square: `28x19x10`.
    pub fn long_notation(&self) -> String {
        if !self.is_capture() {
            return self.notation();
        }
        let mut s = self.from.to_string();
        for sq in &self.path {
            s.push('x');
            s.push_str(&sq.to_string());
        }
        s
    }
}

fn forward_dirs(c: Colour) -> [usize; 2] {
    match c {
        Colour::White => [0, 1],
        Colour::Black => [2, 3],
    }
}

fn promotes(c: Colour, sq: u8) -> bool {
    match c {
        Colour::White => sq <= 5,
        Colour::Black => sq >= 46,
    }
}

/// The legal moves of the side to move.
// `d` indexes the direction column of the neighbour table at several squares.
#[allow(clippy::needless_range_loop)]
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    let caps = captures(pos);
    if !caps.is_empty() {
        return caps;
    }
    let me = pos.turn;
    let mut out = Vec::new();
    for from in 1..=50u8 {
        match pos.squares[from as usize] {
            Piece::Man(c) if c == me => {
                for d in forward_dirs(me) {
                    let to = NEIGHBOUR[from as usize][d];
                    if to != 0 && pos.squares[to as usize] == Piece::Empty {
                        out.push(simple(from, to));
                    }
                }
            }
            Piece::King(c) if c == me => {
                for d in 0..4 {
                    let mut to = NEIGHBOUR[from as usize][d];
                    while to != 0 && pos.squares[to as usize] == Piece::Empty {
                        out.push(simple(from, to));
                        to = NEIGHBOUR[to as usize][d];
                    }
                }
            }
            _ => {}
        }
    }
    out
}

fn simple(from: u8, to: u8) -> Move {
    Move {
        from,
        to,
        path: vec![to],
        captured: Vec::new(),
    }
}

struct Search<'a> {
    board: [Piece; 51],
    me: Colour,
    king: bool,
    from: u8,
    path: Vec<u8>,
    captured: Vec<u8>,
    best: usize,
    out: &'a mut Vec<Move>,
}

impl Search<'_> {
    fn is_enemy(&self, sq: u8) -> bool {
        self.board[sq as usize].colour() == Some(self.me.opposite()) && !self.captured.contains(&sq)
    }

    fn record(&mut self) {
        let n = self.captured.len();
        if n == 0 || n < self.best {
            return;
        }
        if n > self.best {
            self.best = n;
            self.out.clear();
        }
        let to = *self.path.last().unwrap_or(&self.from);
        let mut set = self.captured.clone();
        set.sort_unstable();
        // The same start, end and set of captured pieces is one and the same move, whatever
        // the order of the jumps (it gives the same position and the same PDN notation).
        let dup = self.out.iter().any(|m| {
            m.from == self.from && m.to == to && {
                let mut s = m.captured.clone();
                s.sort_unstable();
                s == set
            }
        });
        if !dup {
            self.out.push(Move {
                from: self.from,
                to,
                path: self.path.clone(),
                captured: self.captured.clone(),
            });
        }
    }

    // `d` indexes the direction column of the neighbour table at several squares.
    #[allow(clippy::needless_range_loop)]
    fn go(&mut self, at: u8) {
        let mut extended = false;
        for d in 0..4 {
            if self.king {
                let mut sq = NEIGHBOUR[at as usize][d];
                while sq != 0 && self.board[sq as usize] == Piece::Empty {
                    sq = NEIGHBOUR[sq as usize][d];
                }
                if sq == 0 || !self.is_enemy(sq) {
                    continue;
                }
                let mut land = NEIGHBOUR[sq as usize][d];
                while land != 0 && self.board[land as usize] == Piece::Empty {
                    extended = true;
                    self.captured.push(sq);
                    self.path.push(land);
                    self.go(land);
                    self.path.pop();
                    self.captured.pop();
                    land = NEIGHBOUR[land as usize][d];
                }
            } else {
                let sq = NEIGHBOUR[at as usize][d];
                if sq == 0 || !self.is_enemy(sq) {
                    continue;
                }
                let land = NEIGHBOUR[sq as usize][d];
                if land != 0 && self.board[land as usize] == Piece::Empty {
                    extended = true;
                    self.captured.push(sq);
                    self.path.push(land);
                    self.go(land);
                    self.path.pop();
                    self.captured.pop();
                }
            }
        }
        if !extended {
            self.record();
        }
    }
}

/// All maximal capture sequences of the side to move (empty when no capture is possible).
fn captures(pos: &Position) -> Vec<Move> {
    let me = pos.turn;
    let mut out = Vec::new();
    let mut best = 0;
    for from in 1..=50u8 {
        let king = match pos.squares[from as usize] {
            Piece::Man(c) if c == me => false,
            Piece::King(c) if c == me => true,
            _ => continue,
        };
        let mut board = pos.squares;
        // the moving piece leaves its square: it may pass over or land on it again
        board[from as usize] = Piece::Empty;
        let mut s = Search {
            board,
            me,
            king,
            from,
            path: Vec::new(),
            captured: Vec::new(),
            best,
            out: &mut out,
        };
        s.go(from);
        best = s.best;
    }
    out
}

/// The position after `m` (which must be legal in `pos`): captured pieces are removed, a man
/// ending on the far row becomes a king, and the turn passes.
pub fn play(pos: &Position, m: &Move) -> Position {
    let mut next = pos.clone();
    let piece = next.squares[m.from as usize];
    next.squares[m.from as usize] = Piece::Empty;
    for sq in &m.captured {
        next.squares[*sq as usize] = Piece::Empty;
    }
    next.squares[m.to as usize] = match piece {
        Piece::Man(c) if promotes(c, m.to) => Piece::King(c),
        p => p,
    };
    next.turn = pos.turn.opposite();
    next
}

/// Number of leaf positions `depth` plies from `pos` (perft).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|m| perft(&play(pos, m), depth - 1)).sum()
}
