//! Illegal-move claims of the rapid and blitz appendices
//! (docs/rules/arbiter.md#illegal-moves-in-rapid-and-blitz; decision 0275): the opponent of
//! the player who moved claims, before moving, that the move was illegal. With the moves
//! recorded and the move named, the engine (`clubcomp_engine::arbiter::check_illegal_move`)
//! judges it from the position and the claim is decided at once; otherwise it waits for the
//! arbiter. An upheld claim gives the claimant a minute for the first illegal move of the
//! player and ends the game for the second (decision 0284: its result is entered).

use super::claim::Checked;
use super::*;
use clubcomp_engine::arbiter::{
    Appendix, IllegalMoveClaim, IllegalMoveConsequence, check_illegal_move,
    illegal_move_consequence,
};

/// The longest `illegal_move` text, in characters.
pub const MAX_ILLEGAL_MOVE_CHARS: usize = 16;

/// The appendix the game is played under, from the tempo it is played at; 422 naming `kind`
/// for a standard game.
fn appendix(ctx: &GameCtx) -> ApiResult<Appendix> {
    let tempo = crate::services::tempo::effective(&ctx.competition, &ctx.game)?
        .time_control
        .to_engine();
    Appendix::of(&tempo).ok_or_else(|| {
        ApiError::invalid(
            "kind",
            "an illegal-move claim belongs to a rapid or blitz game (FIDE Laws A.4.2, B.3); at \
             a standard tempo the arbiter acts under Article 7.5 and enters the result",
        )
    })
}

/// The ruling a consequence stands for.
fn ruling_of(consequence: IllegalMoveConsequence) -> Ruling {
    match consequence {
        IllegalMoveConsequence::ExtraTime { seconds, .. } => Ruling::ExtraTime { seconds },
        IllegalMoveConsequence::Lost { loser } => Ruling::Upheld {
            outcome: GameEnding::Win {
                side: loser.opposite(),
            },
        },
        IllegalMoveConsequence::Drawn => Ruling::Upheld {
            outcome: GameEnding::Draw,
        },
    }
}

/// Checks an illegal-move claim: against `record` (the recorded moves before the move) when
/// there is one and the move is named, else left to the arbiter.
pub(super) fn check(
    ctx: &GameCtx,
    input: &ClaimInput,
    record: Option<Record>,
    state: &GameState,
) -> ApiResult<Checked> {
    let appendix = appendix(ctx)?;
    let offender = state.to_move;
    let named = input.illegal_move.as_deref().map(str::trim);
    let (Some(Record::Chess { moves, start_fen }), Some(text)) = (record, named) else {
        // the arbiter judges at the board (a move not recorded, two hands, the clock pressed
        // without a move: FIDE 7.5.2–7.5.4)
        let check = serde_json::json!({
            "articles": appendix.articles(),
            "offender": offender,
            "earlier_illegal_moves": state.upheld_illegal_moves(offender),
        });
        // the log stays as it is: no moves to bring it up to
        let have = (state.moves[0] + state.moves[1]) as usize;
        return Ok(Checked {
            claimant: offender.opposite(),
            valid: None,
            check: Some(json(&check)?),
            ruling: None,
            plies: vec![String::new(); have],
            declared: None,
        });
    };
    let plies = read_plies(&Record::Chess {
        moves: moves.clone(),
        start_fen: start_fen.clone(),
    })?;
    let v = check_illegal_move(&IllegalMoveClaim {
        start_fen,
        moves,
        illegal_move: text.to_string(),
        earlier_illegal_moves: state.upheld_illegal_moves(offender),
        appendix,
    })
    .map_err(|e| match e {
        engine::IllegalMoveError::Unreadable(_) => ApiError::invalid("illegal_move", e.to_string()),
        engine::IllegalMoveError::Record(_) => ApiError::invalid("moves", e.to_string()),
    })?;
    Ok(Checked {
        claimant: v.claimant,
        valid: Some(v.valid),
        check: Some(json(&v)?),
        ruling: Some(v.consequence.map_or(Ruling::Rejected, ruling_of)),
        plies,
        declared: None,
    })
}

/// The arbiter's ruling on a pending illegal-move claim by `claimant`: accepted, the first
/// illegal move of the player gives the claimant a minute, the second loses — or draws, when
/// the arbiter names `outcome: draw` (the claimant cannot checkmate by any series of legal
/// moves); rejected, nothing.
pub(super) fn decided(
    input: &DecisionInput,
    state: &GameState,
    claimant: Colour,
) -> ApiResult<Ruling> {
    let offender = claimant.opposite();
    match input.decision {
        DecisionKind::Reject => Ok(Ruling::Rejected),
        DecisionKind::Postpone => Err(ApiError::invalid(
            "decision",
            "an illegal-move claim is accepted or rejected, not postponed",
        )),
        DecisionKind::Accept => {
            let number = state.upheld_illegal_moves(offender) + 1;
            let can_mate = match input.outcome {
                None => true,
                Some(OutcomeInput::Draw) if number > 1 => false,
                Some(_) => {
                    return Err(ApiError::invalid(
                        "outcome",
                        "for an illegal-move claim only `draw`, and only for the player's \
                         second illegal move when the claimant cannot checkmate",
                    ));
                }
            };
            Ok(ruling_of(illegal_move_consequence(
                number, offender, can_mate,
            )))
        }
    }
}
