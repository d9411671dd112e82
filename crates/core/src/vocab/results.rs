//! The result codes of a game and the lists of a game's report, as Rust types
//! ([decision 0305](../../../../docs/decisions/0305-result-codes-as-a-type.md)).

use clubcomp_engine::keizer::{MatchId, PlayoffGameResult};
use clubcomp_engine::round_robin::{RoundRobinResult, SideOutcome};
use clubcomp_engine::{Colour, Discipline};

crate::value_list! {
    /// A result code (which ones a game takes depends on its discipline): chess `1-0`, `0-1`, `1/2-1/2`, `½-½`; draughts `2-0`, `0-2`, `1-1`, `1+-1-`, `1--1+`, `0-0`; both `+/-`, `-/+`, `-/-`; `bye` for a pairing bye.
    pub ResultCode, "result code" {
        /// Chess: white won.
        WhiteWins = "1-0",
        /// Chess: black won.
        BlackWins = "0-1",
        /// Chess: a draw.
        Draw = "1/2-1/2",
        /// Chess: a draw, written with halves (kept as written; the same as `1/2-1/2`).
        DrawHalves = "½-½",
        /// Draughts: white won.
        DraughtsWhiteWins = "2-0",
        /// Draughts: black won.
        DraughtsBlackWins = "0-2",
        /// Draughts: a draw.
        DraughtsDraw = "1-1",
        /// Draughts: a draw with a plusremise for white.
        WhitePlusremise = "1+-1-",
        /// Draughts: a draw with a plusremise for black.
        BlackPlusremise = "1--1+",
        /// Draughts: lost for both.
        BothLost = "0-0",
        /// White won by forfeit.
        WhiteForfeitWin = "+/-",
        /// Black won by forfeit.
        BlackForfeitWin = "-/+",
        /// Both forfeited.
        DoubleForfeit = "-/-",
        /// A pairing bye (a game without black).
        Bye = "bye",
    }
}

impl ResultCode {
    /// The code the engine's result has in `discipline` (`None` for a draughts-only result in
    /// chess).
    pub fn from_result(discipline: Discipline, result: RoundRobinResult) -> Option<ResultCode> {
        use RoundRobinResult as R;
        let code = match (discipline, result) {
            (_, R::WhiteForfeitWin) => ResultCode::WhiteForfeitWin,
            (_, R::BlackForfeitWin) => ResultCode::BlackForfeitWin,
            (_, R::DoubleForfeit) => ResultCode::DoubleForfeit,
            (Discipline::Chess, R::WhiteWins) => ResultCode::WhiteWins,
            (Discipline::Chess, R::BlackWins) => ResultCode::BlackWins,
            (Discipline::Chess, R::Draw) => ResultCode::Draw,
            (Discipline::Draughts, R::WhiteWins) => ResultCode::DraughtsWhiteWins,
            (Discipline::Draughts, R::BlackWins) => ResultCode::DraughtsBlackWins,
            (Discipline::Draughts, R::Draw) => ResultCode::DraughtsDraw,
            (Discipline::Draughts, R::WhitePlusremise) => ResultCode::WhitePlusremise,
            (Discipline::Draughts, R::BlackPlusremise) => ResultCode::BlackPlusremise,
            (Discipline::Draughts, R::BothLost) => ResultCode::BothLost,
            (Discipline::Chess, _) => return None,
        };
        Some(code)
    }

    /// The engine's result of a played (or forfeited) game; `None` for a bye.
    pub fn result(self) -> Option<RoundRobinResult> {
        use RoundRobinResult as R;
        Some(match self {
            ResultCode::WhiteWins | ResultCode::DraughtsWhiteWins => R::WhiteWins,
            ResultCode::BlackWins | ResultCode::DraughtsBlackWins => R::BlackWins,
            ResultCode::Draw | ResultCode::DrawHalves | ResultCode::DraughtsDraw => R::Draw,
            ResultCode::WhitePlusremise => R::WhitePlusremise,
            ResultCode::BlackPlusremise => R::BlackPlusremise,
            ResultCode::BothLost => R::BothLost,
            ResultCode::WhiteForfeitWin => R::WhiteForfeitWin,
            ResultCode::BlackForfeitWin => R::BlackForfeitWin,
            ResultCode::DoubleForfeit => R::DoubleForfeit,
            ResultCode::Bye => return None,
        })
    }

    /// The discipline whose code this is; `None` for the codes of both (forfeits, a bye).
    pub fn discipline(self) -> Option<Discipline> {
        match self {
            ResultCode::WhiteWins
            | ResultCode::BlackWins
            | ResultCode::Draw
            | ResultCode::DrawHalves => Some(Discipline::Chess),
            ResultCode::DraughtsWhiteWins
            | ResultCode::DraughtsBlackWins
            | ResultCode::DraughtsDraw
            | ResultCode::WhitePlusremise
            | ResultCode::BlackPlusremise
            | ResultCode::BothLost => Some(Discipline::Draughts),
            ResultCode::WhiteForfeitWin
            | ResultCode::BlackForfeitWin
            | ResultCode::DoubleForfeit
            | ResultCode::Bye => None,
        }
    }

    /// Whether this is a code of `discipline` (the forfeits and the bye are codes of both).
    pub fn belongs_to(self, discipline: Discipline) -> bool {
        self.discipline().is_none_or(|d| d == discipline)
    }

    /// What (white, black) got; `None` for a bye.
    pub fn outcomes(self) -> Option<(SideOutcome, SideOutcome)> {
        self.result().map(RoundRobinResult::outcomes)
    }

    /// The colour that won, over the board or by forfeit; `None` for a draw of any kind, a
    /// game lost for both, a double forfeit and a bye.
    pub fn winner(self) -> Option<Colour> {
        match self.outcomes()? {
            (w, _) if w.is_win() => Some(Colour::White),
            (_, b) if b.is_win() => Some(Colour::Black),
            _ => None,
        }
    }

    /// Whether one side won (over the board or by forfeit).
    pub fn is_decisive(self) -> bool {
        self.winner().is_some()
    }

    /// Whether one side won over the board (`1-0`, `0-1`, `2-0`, `0-2`).
    pub fn is_decisive_over_the_board(self) -> bool {
        matches!(
            self,
            ResultCode::WhiteWins
                | ResultCode::BlackWins
                | ResultCode::DraughtsWhiteWins
                | ResultCode::DraughtsBlackWins
        )
    }

    /// A draw of any kind (plain, with halves, a plusremise for either side).
    pub fn is_draw(self) -> bool {
        self.result().is_some_and(RoundRobinResult::is_draw)
    }

    /// A plain draw (`1/2-1/2`, `½-½`, `1-1`): no plusremise.
    pub fn is_plain_draw(self) -> bool {
        matches!(
            self,
            ResultCode::Draw | ResultCode::DrawHalves | ResultCode::DraughtsDraw
        )
    }

    /// A forfeit (`+/-`, `-/+`, `-/-`).
    pub fn is_forfeit(self) -> bool {
        matches!(
            self,
            ResultCode::WhiteForfeitWin | ResultCode::BlackForfeitWin | ResultCode::DoubleForfeit
        )
    }

    /// Whether this is the same result as `other`: `½-½` and `1/2-1/2` are one draw.
    pub fn same_as(self, other: ResultCode) -> bool {
        self.canonical() == other.canonical()
    }

    /// The code in its canonical spelling (`1/2-1/2` for `½-½`).
    pub fn canonical(self) -> ResultCode {
        match self {
            ResultCode::DrawHalves => ResultCode::Draw,
            other => other,
        }
    }

    /// The code as the pages show it: a chess draw with halves (`½-½`), every other code as
    /// it is.
    pub fn shown(self) -> &'static str {
        match self {
            ResultCode::Draw => ResultCode::DrawHalves.as_str(),
            other => other.as_str(),
        }
    }
}

crate::value_list! {
    /// What a player's report did: `waiting` (the opponent has not reported yet), `entered` (both reports agree; the result is entered) or `disputed` (the reports differ; the arbiter decides).
    pub ReportOutcome, "report outcome" {
        /// The opponent has not reported yet.
        Waiting = "waiting",
        /// Both reports agree; the result is entered.
        Entered = "entered",
        /// The reports differ; the arbiter decides.
        Disputed = "disputed",
    }
}

crate::value_list! {
    /// The outcome of a playoff game: `white_wins`, `black_wins` or `draw`.
    pub PlayoffOutcome, "playoff outcome" {
        /// White won.
        WhiteWins = "white_wins",
        /// Black won.
        BlackWins = "black_wins",
        /// Drawn.
        Draw = "draw",
    }
}

impl PlayoffOutcome {
    /// The outcome as a chess result code.
    pub fn code(self) -> ResultCode {
        match self {
            PlayoffOutcome::WhiteWins => ResultCode::WhiteWins,
            PlayoffOutcome::BlackWins => ResultCode::BlackWins,
            PlayoffOutcome::Draw => ResultCode::DrawHalves,
        }
    }
}

impl From<PlayoffGameResult> for PlayoffOutcome {
    fn from(r: PlayoffGameResult) -> PlayoffOutcome {
        match r {
            PlayoffGameResult::WhiteWins => PlayoffOutcome::WhiteWins,
            PlayoffGameResult::BlackWins => PlayoffOutcome::BlackWins,
            PlayoffGameResult::Draw => PlayoffOutcome::Draw,
        }
    }
}

crate::value_list! {
    /// A match of a playoff group: `semi1` (1–4), `semi2` (2–3) or `final`.
    pub PlayoffMatch, "playoff match" {
        /// The semi-final of the first and the fourth seed.
        Semi1 = "semi1",
        /// The semi-final of the second and the third seed.
        Semi2 = "semi2",
        /// The final.
        Final = "final",
    }
}

impl From<MatchId> for PlayoffMatch {
    fn from(m: MatchId) -> PlayoffMatch {
        match m {
            MatchId::Semi1 => PlayoffMatch::Semi1,
            MatchId::Semi2 => PlayoffMatch::Semi2,
            MatchId::Final => PlayoffMatch::Final,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_result_code_reads_and_writes_its_wire_string() {
        let names = [
            "1-0", "0-1", "1/2-1/2", "½-½", "2-0", "0-2", "1-1", "1+-1-", "1--1+", "0-0", "+/-",
            "-/+", "-/-", "bye",
        ];
        assert_eq!(ResultCode::NAMES, names);
        for (v, name) in ResultCode::ALL.iter().zip(names) {
            assert_eq!(name.parse::<ResultCode>().unwrap(), *v);
            assert_eq!(serde_json::to_value(v).unwrap(), serde_json::json!(name));
        }
        assert!("1:0".parse::<ResultCode>().is_err());
    }

    #[test]
    fn a_code_maps_to_the_engines_result_and_back_in_its_discipline() {
        for d in [Discipline::Chess, Discipline::Draughts] {
            for code in ResultCode::ALL.iter().filter(|c| c.belongs_to(d)) {
                let Some(r) = code.result() else {
                    assert_eq!(*code, ResultCode::Bye);
                    continue;
                };
                assert_eq!(ResultCode::from_result(d, r), Some(code.canonical()));
                assert_eq!(r.code(d), Some(code.canonical().as_str()));
            }
        }
        assert_eq!(
            ResultCode::from_result(Discipline::Chess, RoundRobinResult::BothLost),
            None
        );
    }

    #[test]
    fn the_winner_and_the_draws() {
        assert_eq!(ResultCode::WhiteWins.winner(), Some(Colour::White));
        assert_eq!(ResultCode::DraughtsBlackWins.winner(), Some(Colour::Black));
        assert_eq!(ResultCode::BlackForfeitWin.winner(), Some(Colour::Black));
        assert_eq!(ResultCode::WhitePlusremise.winner(), None);
        assert_eq!(ResultCode::BothLost.winner(), None);
        assert_eq!(ResultCode::DoubleForfeit.winner(), None);
        assert_eq!(ResultCode::Bye.winner(), None);
        assert!(ResultCode::DrawHalves.is_draw() && ResultCode::BlackPlusremise.is_draw());
        assert!(!ResultCode::BlackPlusremise.is_plain_draw());
        assert!(ResultCode::DrawHalves.same_as(ResultCode::Draw));
        assert_eq!(ResultCode::Draw.shown(), "½-½");
        assert_eq!(ResultCode::DraughtsDraw.shown(), "1-1");
    }

    #[test]
    fn the_playoff_lists_read_the_engines_values() {
        assert_eq!(
            PlayoffOutcome::from(PlayoffGameResult::Draw).as_str(),
            "draw"
        );
        assert_eq!(PlayoffOutcome::BlackWins.code(), ResultCode::BlackWins);
        assert_eq!(PlayoffMatch::from(MatchId::Semi2).as_str(), "semi2");
        // the engine's serde form is the same text
        for m in [MatchId::Semi1, MatchId::Semi2, MatchId::Final] {
            assert_eq!(
                serde_json::to_value(m).unwrap(),
                serde_json::to_value(PlayoffMatch::from(m)).unwrap()
            );
        }
    }
}
