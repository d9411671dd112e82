//! International draughts (10×10) for the arbiter: board and PDN FEN, a legal move generator,
//! PDN movetext, and the claim checks of docs/rules/arbiter.md#draughts-claims (repetition, 25 moves, the 16- and 5-move
//! endgames).

pub mod board;
pub mod claims;
pub mod movegen;
pub mod pdn;

pub use board::{Colour, FenError, Piece, Position};
pub use claims::{
    ClaimCheck, DraughtsClaim, DraughtsClaimRequest, DraughtsVerdict, EndgameCounter, EndgameKind,
    check_claim,
};
pub use movegen::{Move, legal_moves, perft, play};
pub use pdn::{Game, PdnError, read_game};

#[cfg(test)]
mod tests;
