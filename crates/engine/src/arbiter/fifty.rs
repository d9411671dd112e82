//! The fifty-move rule in chess (FIDE Laws 9.3, docs/rules/arbiter.md): a draw may be claimed by
//! the player to move when the last 50 moves by each player were made without any pawn move
//! and without any capture — (a) after the move he writes down and declares, or (b) just now.
//! The 75-move rule (9.6.2, the arbiter ends the game without a claim) is reported too.

use super::repetition::{ChessMoves, RepetitionError, fen_of, parse_san, read_record, side};
use super::san::to_san;
use super::{Colour, MoveRef, move_number_of};
use serde::{Deserialize, Serialize};

/// A fifty-move claim to check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FiftyMovesClaim {
    /// Start position as FEN (its half-move clock counts); the initial position when absent.
    #[serde(default)]
    pub start_fen: Option<String>,
    /// The moves played so far.
    pub moves: ChessMoves,
    /// Claim (a): the move the claimant writes down and declares (SAN); absent for claim (b).
    #[serde(default)]
    pub declared_move: Option<String>,
}

/// The answer to a fifty-move claim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FiftyMovesVerdict {
    /// Whether the claim is valid (the game is drawn).
    pub valid: bool,
    /// The claimant (the player to move).
    pub claimant: Colour,
    /// Half-moves without pawn move or capture, after the declared move when there is one.
    pub quiet_plies: u32,
    /// The last pawn move or capture in the record (`None` when it lies before the start).
    pub last_pawn_move_or_capture: Option<MoveRef>,
    /// Whether 75 moves each have passed (FIDE 9.6.2: drawn even without a claim).
    pub seventy_five_moves: bool,
    /// FEN of the position judged.
    pub fen: String,
    /// Why the claim fails, when it does.
    pub reason: Option<String>,
}

/// Checks a fifty-move claim. Errors only when the record itself cannot be read.
pub fn check_fifty_moves(claim: &FiftyMovesClaim) -> Result<FiftyMovesVerdict, RepetitionError> {
    let record = read_record(&claim.moves, claim.start_fen.as_deref())?;
    let mut positions = record.positions;
    let mut refs = record.refs;
    let claimant = side(positions[positions.len() - 1].turn());
    if let Some(text) = &claim.declared_move {
        let now = positions[positions.len() - 1].clone();
        let Some(m) = parse_san(&now, text) else {
            return Ok(FiftyMovesVerdict {
                valid: false,
                claimant,
                quiet_plies: now.halfmoves,
                last_pawn_move_or_capture: None,
                seventy_five_moves: false,
                fen: fen_of(&now),
                reason: Some(format!("the declared move '{text}' is not legal")),
            });
        };
        let ply = refs.len() as u32 + 1;
        let (move_number, by) = move_number_of(record.first, record.turn0, ply);
        let notation = to_san(&now, m);
        let mut next = now;
        next.play(m);
        positions.push(next);
        refs.push(MoveRef {
            move_number,
            side: by,
            notation,
            ply,
        });
    }
    let judged = &positions[positions.len() - 1];
    let quiet = judged.halfmoves;
    // the move that last reset the clock: the latest ply whose position has a clock of 0
    let last = (1..positions.len())
        .rev()
        .find(|&i| positions[i].halfmoves == 0)
        .map(|i| refs[i - 1].clone());
    let valid = quiet >= 100;
    Ok(FiftyMovesVerdict {
        valid,
        claimant,
        quiet_plies: quiet,
        last_pawn_move_or_capture: last,
        seventy_five_moves: quiet >= 150,
        fen: fen_of(judged),
        reason: (!valid).then(|| {
            format!("only {quiet} half-moves without pawn move or capture; 100 are needed")
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Knights shuffling from a bare position: 2 plies per cycle per side pair.
    fn shuffle(plies: usize) -> Vec<String> {
        let cycle = ["Nf3", "Nf6", "Ng1", "Ng8"];
        (0..plies).map(|i| cycle[i % 4].to_string()).collect()
    }

    fn check(prefix: &[&str], plies: usize, declared: Option<&str>) -> FiftyMovesVerdict {
        let mut moves: Vec<String> = prefix.iter().map(|s| s.to_string()).collect();
        moves.extend(shuffle(plies));
        check_fifty_moves(&FiftyMovesClaim {
            start_fen: None,
            moves: ChessMoves::San(moves),
            declared_move: declared.map(str::to_string),
        })
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn fifty_moves_each_counted_from_the_last_pawn_move() {
        // 1.e4 e5 then 99 knight moves: 99 quiet half-moves after 1...e5, Black to move:
        // claim (b) is one half-move short; claim (a) with a declared move makes it 100.
        let v = check(&["e4", "e5"], 99, None);
        assert!(!v.valid);
        assert_eq!(v.quiet_plies, 99);
        assert_eq!(v.claimant, Colour::Black);
        let last = v
            .last_pawn_move_or_capture
            .unwrap_or_else(|| panic!("last"));
        assert_eq!(
            (last.move_number, last.side, last.notation.as_str()),
            (1, Colour::Black, "e5")
        );
        // plies 3..101 are the knight moves 2.Nf3 Nf6 3.Ng1 Ng8 ... 51.Ng1; Black is to move
        // with his knight on f6 and declares 51...Ng8 (ply 102): 100 quiet half-moves.
        let w = check(&["e4", "e5"], 99, Some("Ng8"));
        assert!(w.valid, "{w:?}");
        assert_eq!(w.quiet_plies, 100);
        // 100 knight moves: valid claim (b) for White
        let x = check(&["e4", "e5"], 100, None);
        assert!(x.valid);
        assert!(!x.seventy_five_moves);
        let y = check(&["e4", "e5"], 150, None);
        assert!(y.seventy_five_moves);
    }
}
