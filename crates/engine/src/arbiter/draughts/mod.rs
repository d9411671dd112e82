//! International draughts (10×10): board and FEN, legal moves, PDN movetext, and the
//! claim checks (repetition, 25 moves, the 16- and 5-move endgames).
//!
//! International draughts (10×10) for the arbiter: board and PDN FEN, a legal move generator,
//! PDN movetext, and the claim checks of docs/rules/arbiter.md#draughts-claims (repetition, 25 moves, the 16- and 5-move
//! endgames).
//!
//! # Example
//!
//! From the starting position White has nine moves, and each of them leaves Black nine: 81
//! positions after one move each, 658 after three half-moves (the published perft counts of
//! international draughts).
//!
//! ```
//! use clubcomp_engine::arbiter::draughts::{Position, legal_moves, perft};
//!
//! let start = Position::initial();
//! assert_eq!(legal_moves(&start).len(), 9);
//! assert_eq!(perft(&start, 2), 81);
//! assert_eq!(perft(&start, 3), 658);
//! ```

// The public API of this module.
pub use claims::{claim_verdict, endgame_status};

pub(crate) mod board;
pub(crate) mod claims;
pub(crate) mod movegen;
pub(crate) mod pdn;

pub use board::{FenError, Piece, Position};
pub use claims::{
    ClaimCheck, DraughtsClaim, DraughtsClaimRequest, DraughtsVerdict, EndgameCounter, EndgameKind,
    check_draughts_claim,
};
pub use movegen::{Move, legal_moves, perft, play};
pub use pdn::{DraughtsGame, PdnError, read_game};

#[cfg(test)]
mod tests;
