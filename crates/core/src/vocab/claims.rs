//! The value lists of claims: what a stored claim is about and where it stands
//! ([decision 0308](../../../../docs/decisions/0308-claim-kinds.md)).

use crate::value_list;
use clubcomp_engine::arbiter::{self as engine, GameKind};

value_list! {
    /// What a stored claim is about: the kinds a claim is brought with (`threefold_repetition`, `fifty_moves`, `quickplay_finish`, `draughts_third_time`, `draughts_can_repeat`, `draughts_twenty_five_moves`, `draughts_endgame_limit`, `draughts_lasting_advantage`, `illegal_move`) and `draughts_repetition` for a claim recorded as a plain event.
    pub ClaimKind, "claim kind" {
        /// Chess, FIDE 9.2: threefold repetition; (a) with `declared_move`, (b) without.
        ThreefoldRepetition = "threefold_repetition",
        /// Chess, FIDE 9.3: fifty moves without pawn move or capture.
        FiftyMoves = "fifty_moves",
        /// Chess, FIDE 10.2: quickplay finish (needs `claimant` and `remaining_ms`).
        QuickplayFinish = "quickplay_finish",
        /// Draughts: the same position with the claimant to move for the third time.
        DraughtsThirdTime = "draughts_third_time",
        /// Draughts: the claimant can make, by a legal move, a position that arose twice
        /// before by his own moves (`declared_move` optional).
        DraughtsCanRepeat = "draughts_can_repeat",
        /// Draughts: a repetition claim recorded as a plain `claim` event, which does not say
        /// which of the two repetitions is meant (the event log's kind for both).
        DraughtsRepetition = "draughts_repetition",
        /// Draughts: 25 moves each without a capture or a man's move.
        DraughtsTwentyFiveMoves = "draughts_twenty_five_moves",
        /// Draughts: the 16-move or 5-move endgame limit reached.
        DraughtsEndgameLimit = "draughts_endgame_limit",
        /// Draughts: a lasting advantage of at least three men (a king counts as two); the
        /// material is checked from the moves, whether it lasts is the arbiter's judgement.
        DraughtsLastingAdvantage = "draughts_lasting_advantage",
        /// Chess, rapid and blitz (FIDE Laws A.4.2, B.3): the move just completed by the
        /// claimant's opponent was illegal.
        IllegalMove = "illegal_move",
    }
}

impl ClaimKind {
    /// The kinds a claim is brought with (`POST /games/{id}/claims`): every kind but
    /// `draughts_repetition`, which only a plain `claim` event records.
    pub const BROUGHT: &'static [ClaimKind] = &[
        ClaimKind::ThreefoldRepetition,
        ClaimKind::FiftyMoves,
        ClaimKind::QuickplayFinish,
        ClaimKind::DraughtsThirdTime,
        ClaimKind::DraughtsCanRepeat,
        ClaimKind::DraughtsTwentyFiveMoves,
        ClaimKind::DraughtsEndgameLimit,
        ClaimKind::DraughtsLastingAdvantage,
        ClaimKind::IllegalMove,
    ];

    /// The wire strings of [`ClaimKind::BROUGHT`], in its order.
    pub fn brought_names() -> Vec<&'static str> {
        ClaimKind::BROUGHT.iter().map(|k| k.as_str()).collect()
    }

    /// Whether a claim may be brought with this kind (see [`ClaimKind::BROUGHT`]).
    pub fn is_brought(self) -> bool {
        self != ClaimKind::DraughtsRepetition
    }

    /// The kind the event log records: the two draughts repetitions are one rule there.
    pub fn event_kind(self) -> engine::ClaimKind {
        match self {
            ClaimKind::ThreefoldRepetition => engine::ClaimKind::ThreefoldRepetition,
            ClaimKind::FiftyMoves => engine::ClaimKind::FiftyMoves,
            ClaimKind::QuickplayFinish => engine::ClaimKind::QuickplayFinish,
            ClaimKind::DraughtsThirdTime
            | ClaimKind::DraughtsCanRepeat
            | ClaimKind::DraughtsRepetition => engine::ClaimKind::DraughtsRepetition,
            ClaimKind::DraughtsTwentyFiveMoves => engine::ClaimKind::DraughtsTwentyFiveMoves,
            ClaimKind::DraughtsEndgameLimit => engine::ClaimKind::DraughtsEndgameLimit,
            ClaimKind::DraughtsLastingAdvantage => engine::ClaimKind::DraughtsLastingAdvantage,
            ClaimKind::IllegalMove => engine::ClaimKind::IllegalMove,
        }
    }

    /// The game the claim belongs to.
    pub fn game(self) -> GameKind {
        self.event_kind().game()
    }
}

/// The stored kind of a claim recorded as a plain `claim` event: the event log's kind.
impl From<engine::ClaimKind> for ClaimKind {
    fn from(k: engine::ClaimKind) -> ClaimKind {
        match k {
            engine::ClaimKind::ThreefoldRepetition => ClaimKind::ThreefoldRepetition,
            engine::ClaimKind::FiftyMoves => ClaimKind::FiftyMoves,
            engine::ClaimKind::QuickplayFinish => ClaimKind::QuickplayFinish,
            engine::ClaimKind::DraughtsRepetition => ClaimKind::DraughtsRepetition,
            engine::ClaimKind::DraughtsTwentyFiveMoves => ClaimKind::DraughtsTwentyFiveMoves,
            engine::ClaimKind::DraughtsEndgameLimit => ClaimKind::DraughtsEndgameLimit,
            engine::ClaimKind::DraughtsLastingAdvantage => ClaimKind::DraughtsLastingAdvantage,
            engine::ClaimKind::IllegalMove => ClaimKind::IllegalMove,
        }
    }
}

value_list! {
    /// A claim's status: `pending`, `postponed`, `upheld` or `rejected` (the last two are final).
    pub ClaimStatus, "claim status" {
        /// Waiting for the arbiter (the game is stopped).
        Pending = "pending",
        /// Quickplay finish postponed (the game goes on).
        Postponed = "postponed",
        /// Final: upheld.
        Upheld = "upheld",
        /// Final: rejected.
        Rejected = "rejected",
    }
}

/// The stored status of the event log's claim.
impl From<engine::ClaimStatus> for ClaimStatus {
    fn from(s: engine::ClaimStatus) -> ClaimStatus {
        match s {
            engine::ClaimStatus::Pending => ClaimStatus::Pending,
            engine::ClaimStatus::Postponed => ClaimStatus::Postponed,
            engine::ClaimStatus::Upheld => ClaimStatus::Upheld,
            engine::ClaimStatus::Rejected => ClaimStatus::Rejected,
        }
    }
}

impl ClaimStatus {
    /// Whether the status is final (upheld or rejected).
    pub fn is_final(self) -> bool {
        matches!(self, ClaimStatus::Upheld | ClaimStatus::Rejected)
    }
}

crate::schemas::string_enum_schema!(
    pub ClaimType,
    "What is claimed (docs/rules/arbiter.md#draughts-claims, docs/rules/arbiter.md).",
    ClaimKind::brought_names()
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stored_claim_kinds_keep_their_ten_wire_strings() {
        assert_eq!(
            ClaimKind::NAMES,
            [
                "threefold_repetition",
                "fifty_moves",
                "quickplay_finish",
                "draughts_third_time",
                "draughts_can_repeat",
                "draughts_repetition",
                "draughts_twenty_five_moves",
                "draughts_endgame_limit",
                "draughts_lasting_advantage",
                "illegal_move",
            ]
        );
        assert!("draughts_repetition".parse::<ClaimKind>().is_ok());
        assert!("repetition".parse::<ClaimKind>().is_err());
    }

    #[test]
    fn a_claim_is_brought_with_every_kind_but_the_plain_draughts_repetition() {
        assert_eq!(ClaimKind::BROUGHT.len(), 9);
        assert!(!ClaimKind::BROUGHT.contains(&ClaimKind::DraughtsRepetition));
        for k in ClaimKind::ALL {
            assert_eq!(k.is_brought(), ClaimKind::BROUGHT.contains(k), "{k}");
        }
    }

    #[test]
    fn both_draughts_repetitions_are_the_event_logs_one_repetition() {
        for k in [
            ClaimKind::DraughtsThirdTime,
            ClaimKind::DraughtsCanRepeat,
            ClaimKind::DraughtsRepetition,
        ] {
            assert_eq!(k.event_kind(), engine::ClaimKind::DraughtsRepetition);
            assert_eq!(k.game(), GameKind::Draughts);
        }
        assert_eq!(
            ClaimKind::from(engine::ClaimKind::DraughtsRepetition),
            ClaimKind::DraughtsRepetition
        );
    }

    #[test]
    fn every_other_kind_is_the_event_logs_kind_of_the_same_name() {
        for k in ClaimKind::ALL.iter().filter(|k| {
            !matches!(
                k,
                ClaimKind::DraughtsThirdTime | ClaimKind::DraughtsCanRepeat
            )
        }) {
            let event = k.event_kind();
            assert_eq!(ClaimKind::from(event), *k);
            // the event log writes the same string
            assert_eq!(
                serde_json::to_value(event).unwrap(),
                serde_json::json!(k.as_str())
            );
        }
        assert_eq!(ClaimKind::IllegalMove.game(), GameKind::Chess);
        assert_eq!(ClaimKind::QuickplayFinish.game(), GameKind::Chess);
    }

    #[test]
    fn the_stored_status_is_the_event_logs_status() {
        assert_eq!(
            ClaimStatus::NAMES,
            ["pending", "postponed", "upheld", "rejected"]
        );
        assert_eq!(
            ClaimStatus::from(engine::ClaimStatus::Postponed),
            ClaimStatus::Postponed
        );
        assert!(ClaimStatus::Upheld.is_final() && ClaimStatus::Rejected.is_final());
        assert!(!ClaimStatus::Pending.is_final() && !ClaimStatus::Postponed.is_final());
    }
}
