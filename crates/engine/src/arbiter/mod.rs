//! Arbiter rule engines (docs/rules/rapid-blitz.md, docs/rules/draughts-championship.md#scoring-2-1-0-plusremise-and-minremise, docs/rules/arbiter.md#threefold-repetition-fide-92): the per-game event log and its validator, the
//! chess threefold-repetition (FIDE 9.2) and fifty-move (9.3) checks, the quickplay-finish
//! claim (FIDE 10.2), the tempo a game may be played at, international draughts (move
//! generation, PDN, claim checks) and appeals against arbiter decisions. Pure: plain serde
//! data in and out, no clock, no I/O.
//!
//! # Arbiter claims
//!
//! Both knights go out and back twice: the starting position stands on the board for the
//! third time, with White to move, so White's claim (FIDE 9.2, claim (b)) is valid.
//!
//! ```
//! use clubcomp_engine::arbiter::{ChessMoves, RepetitionClaim, check_repetition};
//!
//! let moves = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"];
//! let claim = RepetitionClaim {
//!     start_fen: None,
//!     moves: ChessMoves::San(moves.iter().map(|m| m.to_string()).collect()),
//!     declared_move: None,
//! };
//! let verdict = check_repetition(&claim).unwrap();
//! assert!(verdict.valid);
//! assert_eq!(verdict.occurrences, 3);
//! assert_eq!(verdict.earlier.len(), 2);
//! ```

#![warn(missing_docs)]

use serde::{Deserialize, Serialize};

// The public API of this module.
pub use appeals::APPEAL_DAYS;
pub use events::{ClaimRecord, ClaimStatus, Declared, MAX_TIME_ADDED, Pending};
pub use repetition::{InvalidReason, RepetitionKind, record_moves};

pub(crate) mod appeals;
mod chess;
pub mod draughts;
pub(crate) mod events;
pub(crate) mod fifty;
pub(crate) mod illegal;
pub(crate) mod pgn;
pub mod quickplay;
mod record;
pub(crate) mod repetition;
mod san;
pub mod tempo;

pub use appeals::{
    Appeal, AppealError, AppealWindow, BoardRuling, appeal_window, board_decides, lodge_appeal,
};
pub use events::{
    ClaimKind, EventLog, EventRule, GameEnding, GameEvent, GameKind, GameState, ProposalKind,
    RuleViolation, Ruling, apply, replay,
};
pub use fifty::{FiftyMovesClaim, FiftyMovesVerdict, check_fifty_moves};
pub use illegal::{
    Appendix, ILLEGAL_MOVE_EXTRA_SECONDS, IllegalMoveClaim, IllegalMoveConsequence,
    IllegalMoveError, IllegalMoveVerdict, IllegalReason, check_illegal_move,
    illegal_move_consequence,
};
#[cfg(test)]
use quickplay::{QuickplayClaim, check_quickplay_claim};
pub use record::{RecordConflict, chess_record_with, logged_moves, one_record};
pub use repetition::{
    ChessMoves, RepetitionClaim, RepetitionError, RepetitionVerdict, check_repetition,
};

/// The most half-moves a game record may hold: 1,000 moves for each side. The longest
/// games played over the board have fewer than 300 moves each, so a real record is well
/// inside it; it bounds the work of reading a record and checking a claim on it, which is
/// linear in the number of half-moves.
pub const MAX_PLIES: usize = 2000;

pub(crate) use crate::vocab::Colour;

/// A move of the game named the way an arbiter cites it: "move 23, Black, Nf6".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRef {
    /// The move number (as on the score sheet).
    pub move_number: u32,
    /// Who made the move.
    pub side: Colour,
    /// The move as notation (SAN for chess, PDN for draughts).
    pub notation: String,
    /// 1-based half-move index counted from the start position.
    pub ply: u32,
}

/// One time a position stood on the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Occurrence {
    /// The move that produced it; `None` for the start position.
    pub after: Option<MoveRef>,
}

/// Move number and side of the 1-based `ply`, for a game whose start position has `first`
/// as its move number and `turn` to move.
pub fn move_number_of(first: u32, turn: Colour, ply: u32) -> (u32, Colour) {
    let k = ply.saturating_sub(1) + u32::from(turn == Colour::Black);
    let side = if k.is_multiple_of(2) {
        Colour::White
    } else {
        Colour::Black
    };
    (first + k / 2, side)
}

#[cfg(test)]
mod json_tests {
    //! The JSON shapes the service will expose, read from literal documents.
    use super::*;

    #[test]
    fn requests_read_from_json() {
        let r: RepetitionClaim = serde_json::from_str(
            r#"{"moves": {"san": ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]},
                "declared_move": "Ng8"}"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let v = check_repetition(&r).unwrap_or_else(|e| panic!("{e}"));
        let out = serde_json::to_value(&v).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out["valid"], true);
        assert_eq!(out["kind"], "after_declared_move");
        assert_eq!(out["earlier"][1]["after"]["move_number"], 2);
        assert_eq!(out["earlier"][1]["after"]["side"], "black");

        let d: draughts::DraughtsClaimRequest = serde_json::from_str(
            r#"{"start_fen": "W:WK47:BK4", "movetext": "47-42 4-10 42-47 10-4",
                "claim": {"claim": "can_repeat", "declared_move": null}}"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(draughts::check_draughts_claim(&d).is_ok());

        let log: Vec<GameEvent> = serde_json::from_str(
            r#"[{"type": "move", "by": "white"},
                {"type": "proposal", "by": "white", "kind": "plusremise"},
                {"type": "reject", "by": "black"},
                {"type": "time_added", "to": "black", "seconds": 120}]"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let s = replay(GameKind::Draughts, &log).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.added_seconds, [0, 120]);
        let e = apply(
            GameKind::Draughts,
            &log,
            &GameEvent::Withdraw { by: Colour::White },
        )
        .unwrap_err();
        let j = serde_json::to_value(&e).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(j["event"], 4);
        assert_eq!(j["rule"]["rule"], "cannot_withdraw");

        let q: QuickplayClaim = serde_json::from_str(
            r#"{"claimant": "white", "remaining_ms": 90000, "move_number": 50,
                "competition_applies_rule": true,
                "time_control": {"periods": [{"moves": 40, "minutes": 90}, {"minutes": 30}]}}"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(check_quickplay_claim(&q).is_ok());
    }
}
