//! The rules an event can break, named so the API can answer 422 (or 409 for conflicts with
//! a state that can no longer change).

use super::{ClaimStatus, GameEnding, GameKind, ProposalKind};
use crate::arbiter::Colour;
use serde::{Deserialize, Serialize};

/// The rule an event breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "rule")]
pub enum EventRule {
    /// An illegal-move claim by the player who made the move.
    #[error(
        "an illegal-move claim is made by the opponent of the player who moved ({by:?} is to \
         move), before making their own move"
    )]
    IllegalMoveClaimByMover {
        /// The player named as claimant.
        by: Colour,
    },
    /// Extra time as a ruling belongs to an illegal-move claim.
    #[error("claim {claim}: extra time as a ruling is for an illegal-move claim only")]
    ExtraTimeOnlyForIllegalMoves {
        /// Log index of the claim.
        claim: usize,
    },
    /// The game has already ended.
    #[error("the game has already ended")]
    GameOver,
    /// A move by the player not to move.
    #[error("{by:?} is not to move")]
    MoveOutOfTurn {
        /// Who tried to move.
        by: Colour,
    },
    /// A move while a claim waits for the arbiter.
    #[error("a claim (event {claim}) waits for the arbiter's decision")]
    ClaimAwaitingDecision {
        /// Log index of the claim.
        claim: usize,
    },
    /// Draw offers are for chess, proposals for draughts; or a claim of the other game.
    #[error("this event does not belong to a {game:?} game")]
    WrongGame {
        /// The game of the log.
        game: GameKind,
    },
    /// FIDE 9.5.3: after a claim (a) the claimant must play the move declared in it.
    #[error("FIDE 9.5.3: {by:?} declared {declared} in the claim and must play it, not {played}")]
    DeclaredMoveNotPlayed {
        /// The claimant.
        by: Colour,
        /// The declared move.
        declared: String,
        /// The move recorded instead.
        played: String,
    },
    /// Only chess repetition and fifty-move claims declare a move.
    #[error("a {kind:?} claim does not declare a move")]
    NoDeclaredMove {
        /// The kind of claim.
        kind: super::ClaimKind,
    },
    /// An offer or proposal is already waiting for an answer.
    #[error("an offer or proposal (event {event}) is still waiting for an answer")]
    OfferPending {
        /// Log index of the pending offer.
        event: usize,
    },
    /// KNDB: a rejected proposal may not be repeated unless the opponent made it since.
    #[error(
        "KNDB: {by:?}'s proposal of {kind:?} was rejected and the opponent has not made \
         that same proposal since"
    )]
    RepeatedRejectedProposal {
        /// The proposer.
        by: Colour,
        /// The kind of proposal.
        kind: ProposalKind,
    },
    /// Nothing to accept or reject.
    #[error("there is no offer or proposal to answer")]
    NothingToAnswer,
    /// Only the opponent answers an offer.
    #[error("{by:?} cannot answer their own offer or proposal")]
    OwnOffer {
        /// Who tried.
        by: Colour,
    },
    /// Offers and proposals cannot be withdrawn.
    #[error("an offer or proposal cannot be withdrawn (FIDE 9.1.2.2, KNDB)")]
    CannotWithdraw,
    /// Claims are made by the player to move.
    #[error("{by:?} is not to move and cannot claim")]
    ClaimNotOnMove {
        /// The claimant.
        by: Colour,
    },
    /// A claim of this kind is already open.
    #[error("a claim (event {claim}) is still open")]
    ClaimOpen {
        /// Log index of the open claim.
        claim: usize,
    },
    /// The decision refers to no claim.
    #[error("event {claim} is not a claim")]
    UnknownClaim {
        /// The index given.
        claim: usize,
    },
    /// A decision is final.
    #[error("the claim (event {claim}) was already decided ({status:?}); the decision is final")]
    AlreadyDecided {
        /// Log index of the claim.
        claim: usize,
        /// Its final status.
        status: ClaimStatus,
    },
    /// Only a quickplay-finish claim may be postponed, and once.
    #[error("the claim (event {claim}) cannot be postponed")]
    CannotPostpone {
        /// Log index of the claim.
        claim: usize,
    },
    /// A plusremise or 0-0 in a chess game.
    #[error("{outcome:?} is not a result in a {game:?} game")]
    OutcomeNotInGame {
        /// The outcome.
        outcome: GameEnding,
        /// The game.
        game: GameKind,
    },
    /// Time added must be positive.
    #[error("time added must be more than 0 seconds")]
    NoTimeAdded,
    /// More time added in one event than an arbiter gives (FIDE gives two minutes as the
    /// usual amount; an hour is far beyond any ruling).
    #[error("at most {max} seconds can be added in one event")]
    TooMuchTimeAdded {
        /// The most one event may add.
        max: u32,
    },
}

impl EventRule {
    /// Whether the event conflicts with a state that can no longer change (a final decision
    /// or a finished game) rather than with the rules of play: the API answers these 409.
    pub fn is_conflict(&self) -> bool {
        matches!(self, EventRule::AlreadyDecided { .. } | EventRule::GameOver)
    }
}

/// An event that breaks a rule: which event (log index) and which rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("event {event}: {rule}")]
pub struct RuleViolation {
    /// Log index of the offending event.
    pub event: usize,
    /// The rule broken.
    pub rule: EventRule,
}
