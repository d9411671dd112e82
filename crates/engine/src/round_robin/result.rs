//! Result codes of chess and draughts games (docs/rules/README.md#results, docs/rules/draughts-championship.md#the-40-move-rule), their scores, their cross-table
//! notation, and the draughts rule that a draw agreed before both players made 40 moves is
//! lost for both (0-0).

use serde::{Deserialize, Serialize};

pub(crate) use crate::vocab::Discipline;

/// A game result, the same for both disciplines (only the notation differs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundRobinResult {
    /// White won over the board.
    WhiteWins,
    /// Black won over the board.
    BlackWins,
    /// A plain draw.
    Draw,
    /// Draughts: a draw with a plusremise for white (`1+-1-`).
    WhitePlusremise,
    /// Draughts: a draw with a plusremise for black (`1--1+`).
    BlackPlusremise,
    /// Draughts: the game was declared lost for both (`0-0`).
    BothLost,
    /// White wins by forfeit (`+/-`).
    WhiteForfeitWin,
    /// Black wins by forfeit (`-/+`).
    BlackForfeitWin,
    /// Both forfeited (`-/-`).
    DoubleForfeit,
}

/// What one side got out of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SideOutcome {
    /// Won over the board.
    Win,
    /// Won by forfeit (counts as a win, docs/rules/draughts-championship.md#scoring-2-1-0-plusremise-and-minremise Decision).
    ForfeitWin,
    /// A plain draw.
    Draw,
    /// A draw with a plusremise (1+).
    Plusremise,
    /// A draw with a minremise (1−).
    Minremise,
    /// Lost over the board, or declared lost (0-0).
    Loss,
    /// Lost by forfeit.
    ForfeitLoss,
}

impl SideOutcome {
    /// Score in half-units of the discipline's draw: 2 for a win, 1 for a draw, 0 for a loss.
    /// (Draughts: that is the points; chess: half-points.)
    pub fn units(self) -> i64 {
        match self {
            SideOutcome::Win | SideOutcome::ForfeitWin => 2,
            SideOutcome::Draw | SideOutcome::Plusremise | SideOutcome::Minremise => 1,
            SideOutcome::Loss | SideOutcome::ForfeitLoss => 0,
        }
    }

    /// Counts as a win (forfeit wins included, docs/rules/draughts-championship.md#scoring-2-1-0-plusremise-and-minremise Decision).
    pub fn is_win(self) -> bool {
        matches!(self, SideOutcome::Win | SideOutcome::ForfeitWin)
    }

    /// Counts as a draw (plus- and minremises included: they are draws with an advantage).
    pub fn is_draw(self) -> bool {
        matches!(
            self,
            SideOutcome::Draw | SideOutcome::Plusremise | SideOutcome::Minremise
        )
    }

    /// The cross-table notation of this outcome in `discipline`.
    pub fn notation(self, discipline: Discipline) -> &'static str {
        match (discipline, self) {
            (_, SideOutcome::ForfeitWin) => "+",
            (_, SideOutcome::ForfeitLoss) => "-",
            (Discipline::Chess, SideOutcome::Win) => "1",
            (
                Discipline::Chess,
                SideOutcome::Draw | SideOutcome::Plusremise | SideOutcome::Minremise,
            ) => "½",
            (Discipline::Chess, SideOutcome::Loss) => "0",
            (Discipline::Draughts, SideOutcome::Win) => "2",
            (Discipline::Draughts, SideOutcome::Draw) => "1",
            (Discipline::Draughts, SideOutcome::Plusremise) => "1+",
            (Discipline::Draughts, SideOutcome::Minremise) => "1-",
            (Discipline::Draughts, SideOutcome::Loss) => "0",
        }
    }
}

impl RoundRobinResult {
    /// Reads a result code of `discipline`; blanks are ignored (`1+ - 1-` reads as `1+-1-`).
    /// `None` when the code does not belong to the discipline.
    pub fn parse(discipline: Discipline, code: &str) -> Option<RoundRobinResult> {
        let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
        let r = match (discipline, code.as_str()) {
            (_, "+/-") => RoundRobinResult::WhiteForfeitWin,
            (_, "-/+") => RoundRobinResult::BlackForfeitWin,
            (_, "-/-") => RoundRobinResult::DoubleForfeit,
            (Discipline::Chess, "1-0") => RoundRobinResult::WhiteWins,
            (Discipline::Chess, "0-1") => RoundRobinResult::BlackWins,
            (Discipline::Chess, "1/2-1/2" | "½-½") => RoundRobinResult::Draw,
            (Discipline::Draughts, "2-0") => RoundRobinResult::WhiteWins,
            (Discipline::Draughts, "0-2") => RoundRobinResult::BlackWins,
            (Discipline::Draughts, "1-1") => RoundRobinResult::Draw,
            (Discipline::Draughts, "1+-1-") => RoundRobinResult::WhitePlusremise,
            (Discipline::Draughts, "1--1+") => RoundRobinResult::BlackPlusremise,
            (Discipline::Draughts, "0-0") => RoundRobinResult::BothLost,
            _ => return None,
        };
        Some(r)
    }

    /// The canonical code of this result in `discipline` (`None` for draughts-only results in
    /// chess).
    pub fn code(self, discipline: Discipline) -> Option<&'static str> {
        let c = match (discipline, self) {
            (_, RoundRobinResult::WhiteForfeitWin) => "+/-",
            (_, RoundRobinResult::BlackForfeitWin) => "-/+",
            (_, RoundRobinResult::DoubleForfeit) => "-/-",
            (Discipline::Chess, RoundRobinResult::WhiteWins) => "1-0",
            (Discipline::Chess, RoundRobinResult::BlackWins) => "0-1",
            (Discipline::Chess, RoundRobinResult::Draw) => "1/2-1/2",
            (Discipline::Draughts, RoundRobinResult::WhiteWins) => "2-0",
            (Discipline::Draughts, RoundRobinResult::BlackWins) => "0-2",
            (Discipline::Draughts, RoundRobinResult::Draw) => "1-1",
            (Discipline::Draughts, RoundRobinResult::WhitePlusremise) => "1+-1-",
            (Discipline::Draughts, RoundRobinResult::BlackPlusremise) => "1--1+",
            (Discipline::Draughts, RoundRobinResult::BothLost) => "0-0",
            (Discipline::Chess, _) => return None,
        };
        Some(c)
    }

    /// The outcomes for (white, black).
    pub fn outcomes(self) -> (SideOutcome, SideOutcome) {
        use SideOutcome::*;
        match self {
            RoundRobinResult::WhiteWins => (Win, Loss),
            RoundRobinResult::BlackWins => (Loss, Win),
            RoundRobinResult::Draw => (Draw, Draw),
            RoundRobinResult::WhitePlusremise => (Plusremise, Minremise),
            RoundRobinResult::BlackPlusremise => (Minremise, Plusremise),
            RoundRobinResult::BothLost => (Loss, Loss),
            RoundRobinResult::WhiteForfeitWin => (ForfeitWin, ForfeitLoss),
            RoundRobinResult::BlackForfeitWin => (ForfeitLoss, ForfeitWin),
            RoundRobinResult::DoubleForfeit => (ForfeitLoss, ForfeitLoss),
        }
    }

    /// A draw of any kind (plain, plusremise for either side).
    pub fn is_draw(self) -> bool {
        matches!(
            self,
            RoundRobinResult::Draw
                | RoundRobinResult::WhitePlusremise
                | RoundRobinResult::BlackPlusremise
        )
    }
}

/// How a game ended, as far as the result rules care.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    /// The players agreed the result (draw, plusremise).
    Agreed,
    /// Any other ending (moves on the board, claim, time, resignation, adjudication); any
    /// other word in the JSON reads as this.
    #[serde(other)]
    Other,
}

/// The result to store for a game, and why it differs from the one reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Conversion {
    /// The result to store.
    pub result: RoundRobinResult,
    /// Its canonical code in the discipline (`1/2-1/2` for a chess draw given as `½-½`).
    pub code: &'static str,
    /// Set when the reported result was converted, saying why.
    pub note: Option<String>,
}

/// Why a reported result cannot be stored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResultError {
    /// Not a result code of the discipline.
    #[error("result `{code}` is not a {discipline:?} result code")]
    UnknownCode {
        /// The discipline.
        discipline: Discipline,
        /// The code as given.
        code: String,
    },
    /// An agreed draughts draw needs the move count to apply the 40-move rule.
    #[error("result `{code}` was agreed: the number of moves is needed (40-move rule)")]
    MovesRequired {
        /// The code as given.
        code: String,
    },
}

/// Moves each player must have made before a draughts draw may be agreed (docs/rules/draughts-championship.md#the-40-move-rule).
pub const AGREED_DRAW_MIN_MOVES: u32 = 40;

/// Applies the draughts rule "a draw agreed before both players made 40 moves is lost for both"
/// (docs/rules/draughts-championship.md#the-40-move-rule) to a reported result. `moves` is the number of moves BOTH players completed
/// (so 39 means black has not yet made his 40th move).
///
/// Decisions (docs/decisions/0004-round-robin.md): a plusremise is a draw with an advantage
/// (docs/rules/draughts-championship.md#the-40-move-rule), so an agreed plusremise before move 40 is converted too; the rule is a draughts rule and
/// leaves chess results unchanged; an agreed draughts draw without a move count is an error.
pub fn convert_result(
    discipline: Discipline,
    code: &str,
    termination: Option<Termination>,
    moves: Option<u32>,
) -> Result<Conversion, ResultError> {
    let result =
        RoundRobinResult::parse(discipline, code).ok_or_else(|| ResultError::UnknownCode {
            discipline,
            code: code.to_string(),
        })?;
    let (stored, note) =
        apply_forty_move_rule(discipline, result, termination, moves).map_err(|()| {
            ResultError::MovesRequired {
                code: code.to_string(),
            }
        })?;
    let canonical = stored
        .code(discipline)
        .ok_or_else(|| ResultError::UnknownCode {
            discipline,
            code: code.to_string(),
        })?;
    Ok(Conversion {
        result: stored,
        code: canonical,
        note,
    })
}

/// The parsed form of [`convert_result`]: `Err(())` when the move count is missing.
pub(crate) fn apply_forty_move_rule(
    discipline: Discipline,
    result: RoundRobinResult,
    termination: Option<Termination>,
    moves: Option<u32>,
) -> Result<(RoundRobinResult, Option<String>), ()> {
    if discipline != Discipline::Draughts
        || termination != Some(Termination::Agreed)
        || !result.is_draw()
    {
        return Ok((result, None));
    }
    let moves = moves.ok_or(())?;
    if moves >= AGREED_DRAW_MIN_MOVES {
        return Ok((result, None));
    }
    let note = format!(
        "draw agreed after {moves} moves, before both players made {AGREED_DRAW_MIN_MOVES}: \
         lost for both (0-0)"
    );
    Ok((RoundRobinResult::BothLost, Some(note)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_reads_back_as_itself() {
        for (d, codes) in [
            (
                Discipline::Chess,
                &["1-0", "0-1", "1/2-1/2", "+/-", "-/+", "-/-"][..],
            ),
            (
                Discipline::Draughts,
                &[
                    "2-0", "0-2", "1-1", "1+-1-", "1--1+", "0-0", "+/-", "-/+", "-/-",
                ][..],
            ),
        ] {
            for c in codes {
                let r = RoundRobinResult::parse(d, c).unwrap();
                assert_eq!(r.code(d), Some(*c));
            }
        }
        assert_eq!(
            RoundRobinResult::parse(Discipline::Chess, "½-½"),
            Some(RoundRobinResult::Draw)
        );
        assert_eq!(
            RoundRobinResult::parse(Discipline::Draughts, "1+ - 1-"),
            Some(RoundRobinResult::WhitePlusremise)
        );
        assert_eq!(RoundRobinResult::parse(Discipline::Chess, "2-0"), None);
        assert_eq!(RoundRobinResult::parse(Discipline::Draughts, "1-0"), None);
        assert_eq!(RoundRobinResult::parse(Discipline::Chess, "0-0"), None);
    }

    #[test]
    fn scores_and_notation() {
        // 1+ - 1-: both score 1 point, white books the plusremise.
        let (w, b) = RoundRobinResult::WhitePlusremise.outcomes();
        assert_eq!((w.units(), b.units()), (1, 1));
        assert_eq!(w.notation(Discipline::Draughts), "1+");
        assert_eq!(b.notation(Discipline::Draughts), "1-");
        // forfeit win is a win worth 2 (draughts points / chess half-points)
        let (w, b) = RoundRobinResult::WhiteForfeitWin.outcomes();
        assert!(w.is_win() && !b.is_win());
        assert_eq!((w.units(), b.units()), (2, 0));
        assert_eq!(
            (w.notation(Discipline::Chess), b.notation(Discipline::Chess)),
            ("+", "-")
        );
        let (w, _) = RoundRobinResult::Draw.outcomes();
        assert_eq!(w.notation(Discipline::Chess), "½");
        let (w, b) = RoundRobinResult::BothLost.outcomes();
        assert_eq!((w.units(), b.units()), (0, 0));
    }

    #[test]
    fn any_other_termination_reads_as_other() {
        let t: Termination = serde_json::from_str("\"resignation\"").unwrap();
        assert_eq!(t, Termination::Other);
        let t: Termination = serde_json::from_str("\"agreed\"").unwrap();
        assert_eq!(t, Termination::Agreed);
    }

    #[test]
    fn forty_move_rule() {
        let d = Discipline::Draughts;
        let a = Some(Termination::Agreed);
        // agreed after 39 moves each: converted to 0-0
        let c = convert_result(d, "1-1", a, Some(39)).unwrap();
        assert_eq!(c.code, "0-0");
        assert!(c.note.unwrap().contains("39"));
        // agreed plusremise after 12 moves: a draw too, converted
        assert_eq!(convert_result(d, "1--1+", a, Some(12)).unwrap().code, "0-0");
        // 40 moves made by both: stands
        let c = convert_result(d, "1-1", a, Some(40)).unwrap();
        assert_eq!((c.code, c.note), ("1-1", None));
        // not agreed (e.g. a claim), or not a draw: stands
        assert_eq!(
            convert_result(d, "1-1", Some(Termination::Other), Some(5))
                .unwrap()
                .code,
            "1-1"
        );
        assert_eq!(convert_result(d, "2-0", a, Some(5)).unwrap().code, "2-0");
        assert_eq!(convert_result(d, "1-1", None, Some(5)).unwrap().code, "1-1");
        // chess: not a chess rule
        assert_eq!(
            convert_result(Discipline::Chess, "½-½", a, Some(5))
                .unwrap()
                .code,
            "1/2-1/2"
        );
        // errors
        assert!(matches!(
            convert_result(d, "1-1", a, None),
            Err(ResultError::MovesRequired { .. })
        ));
        assert!(matches!(
            convert_result(d, "1-0", None, None),
            Err(ResultError::UnknownCode { .. })
        ));
    }
}
