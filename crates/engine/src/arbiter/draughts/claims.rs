//! Draughts claims from the notation (docs/rules/arbiter.md#draughts-claims, seed 000): (a) the same position with the
//! claimant to move for the third time; (b) the claimant can make, by a legal move, a position
//! that arose twice before by his own moves; (c) on both sides the last 25 consecutive moves
//! without a capture or a man's move. A valid claim ends the game in a plusremise/minremise
//! when a player is at least 3 men ahead (a king counts as 2), otherwise in a draw. Also the
//! counters of the 16-move (1 king vs 3 pieces incl. a king) and 5-move (1 king vs at most 2
//! pieces incl. a king) endgames.

use super::board::{Colour, Piece, Position};
use super::movegen::{Move, legal_moves, play};
use super::pdn::{DraughtsGame, PdnError, match_move, read_game};
use crate::arbiter::{MoveRef, Occurrence};
use serde::{Deserialize, Serialize};

/// Which claim the player to move makes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "claim")]
pub enum DraughtsClaim {
    /// (a) The claimant has been to move in this same position twice before.
    ThirdTime,
    /// (b) The claimant can make, by a legal move, a position that arose twice before by his
    /// own moves. `declared_move` (PDN) is the move he shows; when absent every legal move is
    /// tried and the first that works is reported.
    CanRepeat {
        /// The move the claimant declares, if any.
        #[serde(default)]
        declared_move: Option<String>,
    },
    /// (c) On both sides the last 25 consecutive moves were made without a capture or a man
    /// being moved.
    TwentyFiveMoves,
}

/// A claim to check against a recorded game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DraughtsClaimRequest {
    /// Start position (PDN FEN); the initial position when absent.
    #[serde(default)]
    pub start_fen: Option<String>,
    /// The PDN movetext of the game up to the claim.
    pub movetext: String,
    /// The claim.
    pub claim: DraughtsClaim,
}

/// The result a valid claim (or an endgame limit) gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "result")]
pub enum DraughtsVerdict {
    /// A draw: 1-1.
    Draw,
    /// A plusremise for `side` (1+) and a minremise for the other (1-).
    Plusremise {
        /// The side booking the plusremise.
        side: Colour,
    },
    /// 16-move endgame with two of the three pieces still men: plusremise for the stronger
    /// side unless the minority can permanently prevent their promotion, which the arbiter
    /// judges on the board.
    ArbiterToJudgePromotion {
        /// The side with three pieces.
        side: Colour,
    },
}

/// The answer to a draughts claim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimCheck {
    /// Whether the claim is valid (the game ends with `verdict`).
    pub valid: bool,
    /// The claimant (the player to move).
    pub claimant: Colour,
    /// (a)/(b): times the position stood (a: including now; b: earlier times by his moves).
    pub occurrences: u32,
    /// (a)/(b): the earlier occurrences, in game order.
    pub earlier: Vec<Occurrence>,
    /// (b): the legal move that makes the position again (PDN, full notation).
    pub repeating_move: Option<String>,
    /// (c): number of consecutive half-moves at the end without capture or man move.
    pub quiet_plies: u32,
    /// The result of the game when the claim is valid: plusremise when a player is at least
    /// three men ahead (king = 2), else a draw.
    pub verdict: Option<DraughtsVerdict>,
    /// Material in men (king = 2) of White and Black in the position judged.
    pub material: [u32; 2],
    /// The 16- or 5-move endgame counter, when such an endgame is on the board.
    pub endgame: Option<EndgameCounter>,
    /// Why the claim fails, when it does.
    pub reason: Option<String>,
}

/// The two counted endgames of docs/rules/draughts-championship.md#scoring-2-1-0-plusremise-and-minremise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndgameKind {
    /// One king against three pieces including a king: 16 more moves each.
    SixteenMoves,
    /// One king against at most two pieces including a king: 5 more moves each.
    FiveMoves,
}

/// How far a counted endgame has gone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndgameCounter {
    /// Which endgame.
    pub kind: EndgameKind,
    /// The side with the lone king.
    pub lone_king: Colour,
    /// The move that brought the endgame about; `None` when it stood from the start position.
    pub since: Option<MoveRef>,
    /// Half-moves played in this endgame.
    pub plies: u32,
    /// Moves played by the lone-king side and by the other side in this endgame.
    pub moves_lone_king: u32,
    /// Moves played by the side with more pieces in this endgame.
    pub moves_other: u32,
    /// The limit of moves each (16 or 5).
    pub limit: u32,
    /// Whether both sides have made the limit of moves: the game is over.
    pub limit_reached: bool,
    /// The result when the limit is (or will be) reached, for the position now.
    pub verdict_at_limit: DraughtsVerdict,
    /// Men among the pieces of the side with more pieces.
    pub men_of_other: u32,
}

/// The result of a valid claim in `pos` (docs/rules/arbiter.md#draughts-claims): plusremise for a side at least 3 men ahead
/// (king = 2), otherwise a draw.
pub fn claim_verdict(pos: &Position) -> DraughtsVerdict {
    let w = pos.material(Colour::White);
    let b = pos.material(Colour::Black);
    if w >= b + 3 {
        DraughtsVerdict::Plusremise {
            side: Colour::White,
        }
    } else if b >= w + 3 {
        DraughtsVerdict::Plusremise {
            side: Colour::Black,
        }
    } else {
        DraughtsVerdict::Draw
    }
}

/// Classifies a position as a counted endgame: (kind, lone-king side).
fn classify(pos: &Position) -> Option<(EndgameKind, Colour)> {
    for lone in [Colour::White, Colour::Black] {
        let other = lone.opposite();
        let (lm, lk) = pos.count(lone);
        let (om, ok) = pos.count(other);
        if lm != 0 || lk != 1 || ok == 0 {
            continue;
        }
        match om + ok {
            3 => return Some((EndgameKind::SixteenMoves, lone)),
            1 | 2 => return Some((EndgameKind::FiveMoves, lone)),
            _ => {}
        }
    }
    None
}

fn move_ref(game: &DraughtsGame, ply: usize) -> MoveRef {
    let (move_number, side) = game.move_ref(ply);
    MoveRef {
        move_number,
        side,
        notation: game.moves[ply - 1].notation(),
        ply: ply as u32,
    }
}

fn occurrence(game: &DraughtsGame, idx: usize) -> Occurrence {
    Occurrence {
        after: (idx > 0).then(|| move_ref(game, idx)),
    }
}

/// The counted endgame on the board at the end of `game`, if any: when it arose (the last
/// time the classification changed) and how many moves each side has played in it. A capture
/// that changes the material (e.g. from the 16-move into the 5-move endgame) starts a new
/// count; a man's move or a promotion within the same class does not.
pub fn endgame_status(game: &DraughtsGame) -> Option<EndgameCounter> {
    let positions = game.positions();
    let last = positions.len() - 1;
    let (kind, lone) = classify(&positions[last])?;
    let mut start = last;
    while start > 0 && classify(&positions[start - 1]) == Some((kind, lone)) {
        start -= 1;
    }
    let plies = (last - start) as u32;
    // Moves in the endgame alternate starting with the side to move in positions[start].
    let first_mover = positions[start].turn;
    let first_count = plies.div_ceil(2);
    let second_count = plies / 2;
    let (moves_lone_king, moves_other) = if first_mover == lone {
        (first_count, second_count)
    } else {
        (second_count, first_count)
    };
    let limit = match kind {
        EndgameKind::SixteenMoves => 16,
        EndgameKind::FiveMoves => 5,
    };
    let other = lone.opposite();
    let (men_of_other, _) = positions[last].count(other);
    let verdict_at_limit = match kind {
        // docs/rules/draughts-championship.md#scoring-2-1-0-plusremise-and-minremise: plusremise for the side with three pieces, unless two of them are still
        // men whose promotion the minority can permanently prevent — a judgement on the board
        // left to the arbiter.
        EndgameKind::SixteenMoves if men_of_other >= 2 => {
            DraughtsVerdict::ArbiterToJudgePromotion { side: other }
        }
        EndgameKind::SixteenMoves => DraughtsVerdict::Plusremise { side: other },
        EndgameKind::FiveMoves => DraughtsVerdict::Draw,
    };
    Some(EndgameCounter {
        kind,
        lone_king: lone,
        since: (start > 0).then(|| move_ref(game, start)),
        plies,
        moves_lone_king,
        moves_other,
        limit,
        limit_reached: moves_lone_king >= limit && moves_other >= limit,
        verdict_at_limit,
        men_of_other,
    })
}

fn is_quiet(pos: &Position, m: &Move) -> bool {
    !m.is_capture() && matches!(pos.squares[m.from as usize], Piece::King(_))
}

/// Checks a draughts claim against the recorded game. Errors only when the game record itself
/// cannot be read.
pub fn check_draughts_claim(req: &DraughtsClaimRequest) -> Result<ClaimCheck, PdnError> {
    let game = read_game(req.start_fen.as_deref(), &req.movetext)?;
    let positions = game.positions();
    let last = positions.len() - 1;
    let now = &positions[last];
    let claimant = now.turn;
    let mut check = ClaimCheck {
        valid: false,
        claimant,
        occurrences: 0,
        earlier: Vec::new(),
        repeating_move: None,
        quiet_plies: 0,
        verdict: None,
        material: [now.material(Colour::White), now.material(Colour::Black)],
        endgame: endgame_status(&game),
        reason: None,
    };
    match &req.claim {
        DraughtsClaim::ThirdTime => {
            check.earlier = (0..last)
                .filter(|&i| positions[i] == *now)
                .map(|i| occurrence(&game, i))
                .collect();
            check.occurrences = check.earlier.len() as u32 + 1;
            check.valid = check.occurrences >= 3;
            if !check.valid {
                check.reason = Some(format!(
                    "the claimant has been to move in this position {} time(s) in all, not 3",
                    check.occurrences
                ));
            }
        }
        DraughtsClaim::CanRepeat { declared_move } => {
            let candidates: Vec<Move> = match declared_move {
                Some(text) => match match_move(now, text) {
                    Ok(Some(m)) => vec![m],
                    _ => {
                        check.reason = Some(format!(
                            "the declared move '{text}' is not a legal move in {}",
                            now.to_fen()
                        ));
                        return Ok(check);
                    }
                },
                None => legal_moves(now),
            };
            // positions that arose by a move of the claimant: after plies he made
            let by_him = |i: usize| i > 0 && positions[i - 1].turn == claimant;
            let mut best: Option<(Move, Vec<usize>)> = None;
            for m in candidates {
                let next = play(now, &m);
                let hits: Vec<usize> = (1..=last)
                    .filter(|&i| by_him(i) && positions[i] == next)
                    .collect();
                if best.as_ref().is_none_or(|(_, h)| hits.len() > h.len()) {
                    best = Some((m, hits));
                }
            }
            if let Some((m, hits)) = best {
                check.occurrences = hits.len() as u32;
                check.earlier = hits.iter().map(|&i| occurrence(&game, i)).collect();
                check.valid = hits.len() >= 2;
                check.repeating_move = Some(m.long_notation());
            }
            if !check.valid {
                check.reason = Some(format!(
                    "no legal move makes a position that arose twice before by the claimant's \
                     moves (best: {} time(s))",
                    check.occurrences
                ));
            }
        }
        DraughtsClaim::TwentyFiveMoves => {
            let quiet = (1..=last)
                .rev()
                .take_while(|&i| is_quiet(&positions[i - 1], &game.moves[i - 1]))
                .count() as u32;
            check.quiet_plies = quiet;
            // "aan weerszijden de laatste 25 opeenvolgende zetten": 25 moves by each = 50 plies
            check.valid = quiet >= 50;
            if !check.valid {
                check.reason = Some(format!(
                    "only the last {quiet} half-moves were without capture or man move, 50 \
                     (25 each) are needed"
                ));
            }
        }
    }
    if check.valid {
        check.verdict = Some(claim_verdict(now));
    }
    Ok(check)
}

#[cfg(test)]
#[path = "claims_tests.rs"]
mod tests;
