//! The illegal-move procedure of the rapid and blitz appendices
//! (docs/rules/arbiter.md#illegal-moves-in-rapid-and-blitz): the player who did not make the
//! move claims, before making their own move, that the move just completed was illegal; the
//! position before it decides whether it was. An upheld claim has the consequence of FIDE Laws
//! 7.5.5, which Appendix A.4.2 (rapid, inadequate supervision) and, through the Competition
//! Rules, B.3 (blitz with one arbiter per game) apply: the first completed illegal move of a
//! player gives the opponent extra time, the second loses the game — unless the opponent
//! cannot checkmate by any series of legal moves, then the game is drawn.
//!
//! The extra time is one minute in both: Appendix B.2 makes the blitz penalties one minute,
//! and the club applies one minute in the rapid too (decision 0275).

use super::chess::Pos;
use super::quickplay::TimeControl;
use super::repetition::{ChessMoves, RepetitionError, read_record, side};
use super::{Colour, MoveRef, move_number_of, san};
use cozy_chess::{BitBoard, Color, Move, Piece, Square};

use serde::{Deserialize, Serialize};

/// The extra time an upheld first illegal move gives the opponent, in seconds.
pub const ILLEGAL_MOVE_EXTRA_SECONDS: u32 = 60;

/// Which appendix of the Laws governs a game, from its tempo (FIDE Laws A.1 and B.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Appendix {
    /// Rapid: more than 10 and less than 60 minutes per player (A.1); the club applies A.4.
    Rapid,
    /// Blitz: 10 minutes or less per player (B.1); the club applies B.3 where one arbiter
    /// supervises the game, else A.4 (B.4) — the consequences of an illegal move are the same.
    Blitz,
}

impl Appendix {
    /// The appendix of a game played at `tempo`: the time of every period plus 60 times the
    /// increment (A.1, B.1); `None` for a standard game (60 minutes or more), where the
    /// arbiter acts under Article 7.5 of the Competition Rules.
    pub fn of(tempo: &TimeControl) -> Option<Appendix> {
        let base: u64 = tempo
            .periods
            .iter()
            .map(|p| u64::from(p.minutes) * 60)
            .sum();
        let increment = tempo
            .increment
            .as_ref()
            .map_or(0, |i| u64::from(i.seconds) * 60);
        match base + increment {
            0..=600 => Some(Appendix::Blitz),
            601..=3599 => Some(Appendix::Rapid),
            _ => None,
        }
    }

    /// The articles applied, as the verdict cites them.
    pub fn articles(self) -> &'static str {
        match self {
            Appendix::Rapid => "FIDE Laws A.4.2 and 7.5.5",
            Appendix::Blitz => "FIDE Laws B.2, B.3 and 7.5.5",
        }
    }
}

/// A claim that the last move was illegal, to check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IllegalMoveClaim {
    /// Start position as FEN; the standard initial position when absent.
    #[serde(default)]
    pub start_fen: Option<String>,
    /// The moves recorded before the move claimed illegal.
    pub moves: ChessMoves,
    /// The move claimed illegal, as made: SAN (`Ke2`, `O-O`) or its squares (`e1g1`, `e7e8q`).
    pub illegal_move: String,
    /// Completed illegal moves of the same player already upheld in this game.
    pub earlier_illegal_moves: u32,
    /// The appendix of the game.
    pub appendix: Appendix,
}

/// Why the move was illegal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IllegalReason {
    /// The square the move starts from holds no piece of the player (moves given by squares).
    NoOwnPiece,
    /// The player's king is in check and the move does not parry it.
    LeavesKingInCheck,
    /// No legal move of the position is this move (a piece moved as it cannot, a king moved
    /// into check, a castling that is not allowed, a promotion missing or to a king).
    NotALegalMove,
}

/// What the upheld claim does to the game (FIDE Laws 7.5.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "consequence")]
pub enum IllegalMoveConsequence {
    /// The first completed illegal move: the position before it is reinstated, the player
    /// makes a legal move instead and the opponent gets `seconds` more.
    ExtraTime {
        /// Who gets the time (the claimant).
        to: Colour,
        /// Seconds added.
        seconds: u32,
    },
    /// The second: the player loses.
    Lost {
        /// The player who made the illegal moves.
        loser: Colour,
    },
    /// The second, but the opponent cannot checkmate the player's king by any series of legal
    /// moves: drawn.
    Drawn,
}

/// The checked claim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IllegalMoveVerdict {
    /// True when the move was illegal: the claim is right.
    pub valid: bool,
    /// The claimant (the player who did not make the move).
    pub claimant: Colour,
    /// The player who made the move.
    pub offender: Colour,
    /// Where the move stands in the game (its move number and side; notation as claimed).
    pub at: MoveRef,
    /// The move as SAN when it was legal (the claim is wrong).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal_as: Option<String>,
    /// Why it was illegal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<IllegalReason>,
    /// Whether the claimant could still checkmate the offender's king in the position before
    /// the move.
    pub claimant_can_checkmate: bool,
    /// What an upheld claim does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consequence: Option<IllegalMoveConsequence>,
    /// The articles applied.
    pub articles: String,
}

/// Why a claim cannot be checked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMoveError {
    /// The recorded moves cannot be read.
    #[error(transparent)]
    Record(#[from] RepetitionError),
    /// The claimed move is no move at all.
    #[error(
        "{0:?} is not a move: write it in SAN (Ke2, O-O, exd8=Q) or by its squares (e1e2, e7e8q)"
    )]
    Unreadable(String),
}

/// The consequence of a `number`-th upheld completed illegal move (1 = the first) by
/// `offender` (FIDE Laws 7.5.5), given whether the opponent can still checkmate.
pub fn illegal_move_consequence(
    number: u32,
    offender: Colour,
    opponent_can_checkmate: bool,
) -> IllegalMoveConsequence {
    if number <= 1 {
        IllegalMoveConsequence::ExtraTime {
            to: offender.opposite(),
            seconds: ILLEGAL_MOVE_EXTRA_SECONDS,
        }
    } else if opponent_can_checkmate {
        IllegalMoveConsequence::Lost { loser: offender }
    } else {
        IllegalMoveConsequence::Drawn
    }
}

/// Checks an illegal-move claim against the recorded moves: the position after them, with the
/// offender to move, decides whether the claimed move is one of its legal moves.
pub fn check_illegal_move(
    claim: &IllegalMoveClaim,
) -> Result<IllegalMoveVerdict, IllegalMoveError> {
    let rec = read_record(&claim.moves, claim.start_fen.as_deref())?;
    let pos = rec.positions.last().cloned().unwrap_or_else(Pos::default);
    let offender = side(pos.turn());
    let claimant = offender.opposite();
    let ply = rec.refs.len() as u32 + 1;
    let (move_number, _) = move_number_of(rec.first, rec.turn0, ply);
    let text = claim.illegal_move.trim();
    let judged = judge(&pos, text)?;
    let can_mate = can_checkmate(&pos, !pos.turn());
    let valid = judged.is_err();
    Ok(IllegalMoveVerdict {
        valid,
        claimant,
        offender,
        at: MoveRef {
            move_number,
            side: offender,
            notation: text.to_string(),
            ply,
        },
        legal_as: judged.as_ref().ok().cloned(),
        reason: judged.err(),
        claimant_can_checkmate: can_mate,
        consequence: valid
            .then(|| illegal_move_consequence(claim.earlier_illegal_moves + 1, offender, can_mate)),
        articles: claim.appendix.articles().to_string(),
    })
}

/// The legal move `text` names in `pos` as SAN (`Ok`), or why it names none (`Err`); an error
/// when it is no move at all.
fn judge(pos: &Pos, text: &str) -> Result<Result<String, IllegalReason>, IllegalMoveError> {
    let in_check = !pos.board.checkers().is_empty();
    let illegal = |why| {
        Ok(Err(if in_check && why == IllegalReason::NotALegalMove {
            IllegalReason::LeavesKingInCheck
        } else {
            why
        }))
    };
    if let Some((from, to, promotion)) = squares(text) {
        if !pos.board.colors(pos.turn()).has(from) {
            return illegal(IllegalReason::NoOwnPiece);
        }
        let found = pos.legal_moves().into_iter().find(|m| {
            m.from == from && m.promotion == promotion && (m.to == to || castles_to(pos, *m, to))
        });
        return match found {
            Some(m) => Ok(Ok(san::to_san(pos, m))),
            None => illegal(IllegalReason::NotALegalMove),
        };
    }
    match san::parse_san(pos, text) {
        Ok(m) => Ok(Ok(san::to_san(pos, m))),
        // several legal moves fit the writing: whichever was made, it was legal
        Err(san::SanError::Ambiguous(candidates)) => Ok(Ok(candidates.join(" or "))),
        Err(san::SanError::Illegal) => illegal(IllegalReason::NotALegalMove),
        Err(san::SanError::Unreadable) => Err(IllegalMoveError::Unreadable(text.to_string())),
    }
}

/// A castling given by the king's squares (`e1g1`): `cozy-chess` writes it king-takes-rook.
fn castles_to(pos: &Pos, m: Move, to: Square) -> bool {
    pos.is_castling(m) && {
        let file = if m.to.file() > m.from.file() {
            cozy_chess::File::G
        } else {
            cozy_chess::File::C
        };
        to == Square::new(file, m.from.rank())
    }
}

/// A move written by its squares: `e2e4`, `e2-e4`, `e7e8q`, `e7e8=Q`.
fn squares(text: &str) -> Option<(Square, Square, Option<Piece>)> {
    let t: String = text
        .chars()
        .filter(|c| !matches!(c, '-' | 'x' | '=' | '+' | '#'))
        .collect::<String>()
        .to_ascii_lowercase();
    let cs: Vec<char> = t.chars().collect();
    if !(cs.len() == 4 || cs.len() == 5) {
        return None;
    }
    let sq = |f: char, r: char| -> Option<Square> {
        let file = ('a'..='h')
            .contains(&f)
            .then(|| f as usize - 'a' as usize)?;
        let rank = ('1'..='8')
            .contains(&r)
            .then(|| r as usize - '1' as usize)?;
        Some(Square::new(
            cozy_chess::File::index(file),
            cozy_chess::Rank::index(rank),
        ))
    };
    let from = sq(cs[0], cs[1])?;
    let to = sq(cs[2], cs[3])?;
    let promotion = match cs.get(4) {
        None => None,
        Some('q') => Some(Piece::Queen),
        Some('r') => Some(Piece::Rook),
        Some('b') => Some(Piece::Bishop),
        Some('n') => Some(Piece::Knight),
        Some('k') => Some(Piece::King),
        Some(_) => return None,
    };
    Some((from, to, promotion))
}

/// Whether `attacker` could checkmate the other king by some series of legal moves, judged
/// from the material (docs/rules/arbiter.md#illegal-moves-in-rapid-and-blitz): not with the
/// king alone; not with one knight, or bishops all on squares of one colour, against a bare
/// king; not with bishops of one square colour against bishops of that colour only. Every
/// other material can mate with the help of the other side's pieces; a position locked by
/// pawns is the arbiter's judgement.
pub(crate) fn can_checkmate(pos: &Pos, attacker: Color) -> bool {
    let b = &pos.board;
    let own = |p: Piece| b.colored_pieces(attacker, p);
    let theirs = |p: Piece| b.colored_pieces(!attacker, p);
    let heavy = own(Piece::Queen) | own(Piece::Rook) | own(Piece::Pawn);
    if !heavy.is_empty() {
        return true;
    }
    let knights = own(Piece::Knight).len();
    let bishops = own(Piece::Bishop);
    let defender_bare = (b.colors(!attacker) & !b.pieces(Piece::King)).is_empty();
    match (knights, bishops.is_empty()) {
        (0, true) => false,
        (1, true) => !defender_bare,
        (0, false) => {
            let colour = square_colours(bishops);
            if colour.is_none() {
                return true; // bishops on both colours
            }
            let others = b.colors(!attacker) & !b.pieces(Piece::King) & !theirs(Piece::Bishop);
            !(others.is_empty() && {
                let t = theirs(Piece::Bishop);
                t.is_empty() || square_colours(t) == colour
            })
        }
        _ => true,
    }
}

/// `Some(true)` when every square of `bb` is light, `Some(false)` when every one is dark,
/// `None` when both occur.
fn square_colours(bb: BitBoard) -> Option<bool> {
    let light = |s: Square| (s.file() as usize + s.rank() as usize) % 2 == 1;
    let mut it = bb.iter().map(light);
    let first = it.next()?;
    it.all(|l| l == first).then_some(first)
}

#[cfg(test)]
#[path = "illegal_tests.rs"]
mod tests;
