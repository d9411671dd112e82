//! A chess position for the arbiter engines, on top of `cozy-chess` (legal move generation):
//! uncapped move clocks, a lenient FEN reader, FEN output with the en passant square only when
//! an en passant capture is legal, and FIDE's "same position" key (Laws 9.2.2).

use cozy_chess::{
    BitBoard, Board, BoardBuilder, CastleRights, Color, File, Move, Piece, Rank, Square,
    get_pawn_attacks,
};

/// A position with its move clocks. `cozy-chess` caps the half-move clock at 100 and the move
/// number at `u16::MAX`; the fifty- and seventy-five-move rules need more, so both are kept
/// here, uncapped.
#[derive(Debug, Clone)]
pub(crate) struct Pos {
    /// The board (pieces, side to move, castling rights, pseudo e.p. file).
    pub board: Board,
    /// Half-moves since the last pawn move or capture.
    pub halfmoves: u32,
    /// The move number (as on the score sheet).
    pub fullmoves: u32,
}

/// FIDE's "same position" (Laws 9.2.2): the same pieces on the same squares, the same side to
/// move, the same castling RIGHTS, and the en passant file only when an en passant capture is
/// legal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    pieces: [BitBoard; 6],
    colors: [BitBoard; 2],
    turn: Color,
    castling: [CastleRights; 2],
    ep: Option<File>,
}

impl Default for Pos {
    fn default() -> Self {
        Pos {
            board: Board::default(),
            halfmoves: 0,
            fullmoves: 1,
        }
    }
}

impl Pos {
    /// The side to move.
    pub fn turn(&self) -> Color {
        self.board.side_to_move()
    }

    /// All legal moves (castling encoded king-takes-own-rook, as in `cozy-chess`).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.board.generate_moves(|pm| {
            out.extend(pm);
            false
        });
        out
    }

    /// Whether `m` (legal here) is a castling move.
    pub fn is_castling(&self, m: Move) -> bool {
        self.board.colors(self.turn()).has(m.to)
    }

    /// Whether `m` (legal here) captures: onto an enemy piece, or a pawn changing file (e.p.).
    pub fn is_capture(&self, m: Move) -> bool {
        self.board.colors(!self.turn()).has(m.to)
            || (self.board.piece_on(m.from) == Some(Piece::Pawn) && m.from.file() != m.to.file())
    }

    /// Plays a legal move, updating the uncapped clocks.
    pub fn play(&mut self, m: Move) {
        let pawn = self.board.piece_on(m.from) == Some(Piece::Pawn);
        let reset = pawn || self.is_capture(m);
        if self.turn() == Color::Black {
            self.fullmoves += 1;
        }
        self.halfmoves = if reset { 0 } else { self.halfmoves + 1 };
        self.board.play_unchecked(m);
    }

    /// The en passant file, only when an en passant capture is legal.
    pub fn legal_ep(&self) -> Option<File> {
        let file = self.board.en_passant()?;
        let us = self.turn();
        let to = Square::new(file, Rank::Sixth.relative_to(us));
        // our pawns that attack the e.p. square are those a pawn of theirs there would attack
        let ours = self.board.colored_pieces(us, Piece::Pawn);
        (get_pawn_attacks(to, !us) & ours)
            .into_iter()
            .any(|from| {
                self.board.is_legal(Move {
                    from,
                    to,
                    promotion: None,
                })
            })
            .then_some(file)
    }

    /// FIDE's "same position" key.
    pub fn key(&self) -> Key {
        let b = &self.board;
        Key {
            pieces: Piece::ALL.map(|p| b.pieces(p)),
            colors: Color::ALL.map(|c| b.colors(c)),
            turn: b.side_to_move(),
            castling: Color::ALL.map(|c| *b.castle_rights(c)),
            ep: self.legal_ep(),
        }
    }

    /// FEN with the e.p. square only when an e.p. capture is legal, and the uncapped clocks.
    pub fn fen(&self) -> String {
        let shown = self.board.to_string();
        let fields: Vec<&str> = shown.split(' ').collect();
        let ep = match self.legal_ep() {
            Some(f) => Square::new(f, Rank::Sixth.relative_to(self.turn())).to_string(),
            None => "-".to_string(),
        };
        format!(
            "{} {} {} {ep} {} {}",
            fields.first().copied().unwrap_or("8/8/8/8/8/8/8/8"),
            fields.get(1).copied().unwrap_or("w"),
            fields.get(2).copied().unwrap_or("-"),
            self.halfmoves,
            self.fullmoves
        )
    }

    /// Reads a FEN leniently (docs/rules/arbiter.md#threefold-repetition-fide-92, decision in docs/decisions/0007-arbiter-engines.md): missing trailing
    /// fields take their defaults (`- - 0 1`), castling rights the board cannot have (king or
    /// rook not on its original square, or a Shredder rook file other than a or h) are dropped,
    /// and an e.p. square that no double step can
    /// have produced is ignored. The board itself must be a legal chess board.
    pub fn from_fen(fen: &str) -> Result<Pos, String> {
        let mut fields = fen.split_whitespace();
        let placement = fields.next().ok_or("the FEN is empty")?;
        let turn = fields.next().unwrap_or("w");
        let castling = fields.next().unwrap_or("-");
        let ep = fields.next().unwrap_or("-");
        let half = fields.next().unwrap_or("0");
        let full = fields.next().unwrap_or("1");
        if fields.next().is_some() {
            return Err("the FEN has too many fields".into());
        }
        let mut bb = BoardBuilder::empty();
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != 8 {
            return Err(format!("the board has {} ranks, not 8", rows.len()));
        }
        for (i, row) in rows.iter().enumerate() {
            let rank = Rank::index(7 - i);
            let mut file = 0usize;
            for c in row.chars() {
                if let Some(n) = c.to_digit(10).filter(|n| (1..=8).contains(n)) {
                    file += n as usize;
                    continue;
                }
                let piece = Piece::try_from(c.to_ascii_lowercase())
                    .map_err(|_| format!("'{c}' is not a piece"))?;
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let f = File::try_index(file).ok_or(format!("rank {} is too long", 8 - i))?;
                *bb.square_mut(Square::new(f, rank)) = Some((piece, color));
                file += 1;
            }
            if file != 8 {
                return Err(format!("rank {} does not have 8 squares", 8 - i));
            }
        }
        bb.side_to_move = match turn {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            _ => return Err(format!("'{turn}' is not a side to move")),
        };
        bb.halfmove_clock = 0;
        bb.fullmove_number = 1;
        if bb.build().is_err() {
            return Err("the board is not a legal chess position".into());
        }
        if castling != "-" {
            for c in castling.chars() {
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let back = Rank::First.relative_to(color);
                // KQkq, or the rook files of Shredder/X-FEN (only a and h: standard chess)
                let rook_file = match c.to_ascii_lowercase() {
                    'k' | 'h' => File::H,
                    'q' | 'a' => File::A,
                    'b'..='g' => continue,
                    _ => return Err(format!("'{c}' is not a castling right")),
                };
                let king_home = bb.square(Square::new(File::E, back)) == Some((Piece::King, color));
                let rook_home =
                    bb.square(Square::new(rook_file, back)) == Some((Piece::Rook, color));
                if king_home && rook_home {
                    let r = bb.castle_rights_mut(color);
                    if rook_file == File::H {
                        r.short = Some(File::H);
                    } else {
                        r.long = Some(File::A);
                    }
                }
            }
        }
        if ep != "-" {
            let sq: Square = ep
                .parse()
                .map_err(|_| format!("'{ep}' is not an en passant square"))?;
            let mut with_ep = bb.clone();
            with_ep.en_passant = Some(sq);
            if with_ep.build().is_ok() {
                bb = with_ep;
            }
        }
        let halfmoves: u32 = half
            .parse()
            .map_err(|_| format!("'{half}' is not a half-move clock"))?;
        let fullmoves: u32 = full
            .parse()
            .map_err(|_| format!("'{full}' is not a move number"))?;
        let board = bb
            .build()
            .map_err(|_| "the board is not a legal chess position".to_string())?;
        Ok(Pos {
            board,
            halfmoves,
            fullmoves: fullmoves.max(1),
        })
    }
}
