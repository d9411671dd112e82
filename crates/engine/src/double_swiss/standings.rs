//! The Double-Swiss results as input for the tie-break engine: every match becomes two game
//! rounds (game 1, then game 2 with reversed colours), as in TRF, and every bye covers both
//! games (C.04.5 Preface: byes apply only to matches).

use super::{ByeKind, DoubleSwissError, DoubleSwissResult, State};
use crate::Colour;
use crate::tiebreaks::{EventKind, Input, PlayerResults, RoundOutcome, RoundResult, RulesEdition};
use std::collections::HashMap;

fn outcomes(g: DoubleSwissResult) -> (RoundOutcome, RoundOutcome) {
    match g {
        DoubleSwissResult::WhiteWins => (RoundOutcome::Win, RoundOutcome::Loss),
        DoubleSwissResult::Draw => (RoundOutcome::Draw, RoundOutcome::Draw),
        DoubleSwissResult::BlackWins => (RoundOutcome::Loss, RoundOutcome::Win),
        DoubleSwissResult::WhiteForfeitWin => (RoundOutcome::ForfeitWin, RoundOutcome::ForfeitLoss),
        DoubleSwissResult::BlackForfeitWin => (RoundOutcome::ForfeitLoss, RoundOutcome::ForfeitWin),
        DoubleSwissResult::DoubleForfeit => (RoundOutcome::ForfeitLoss, RoundOutcome::ForfeitLoss),
    }
}

impl State {
    /// The tie-break input of the rounds played so far (two games per round, Swiss, rules
    /// edition 2024). Players not named in a round were absent.
    pub fn tiebreak_input(&self) -> Result<Input, DoubleSwissError> {
        let mut index = HashMap::new();
        for (i, p) in self.players.iter().enumerate() {
            if index.insert(p.id, i).is_some() {
                return Err(DoubleSwissError::DuplicatePlayer(p.id));
            }
        }
        let games = self.rounds.len() * 2;
        let mut rows: Vec<Vec<RoundResult>> = vec![vec![RoundResult::ABSENT; games]; index.len()];
        for (r, round) in self.rounds.iter().enumerate() {
            let rno = r as u32 + 1;
            let at = |id: u32| {
                index
                    .get(&id)
                    .copied()
                    .ok_or(DoubleSwissError::UnknownPlayer {
                        round: rno,
                        player: id,
                    })
            };
            for m in &round.matches {
                let (w, b) = (at(m.white)?, at(m.black)?);
                for (k, (game, white, black)) in
                    [(m.game1, w, b), (m.game2, b, w)].into_iter().enumerate()
                {
                    let (ow, ob) = outcomes(game);
                    let (wid, bid) = (self.players[white].id, self.players[black].id);
                    rows[white][2 * r + k] = RoundResult {
                        opponent: Some(bid),
                        colour: Some(Colour::White),
                        outcome: ow,
                    };
                    rows[black][2 * r + k] = RoundResult {
                        opponent: Some(wid),
                        colour: Some(Colour::Black),
                        outcome: ob,
                    };
                }
            }
            for bye in &round.byes {
                let i = at(bye.player)?;
                let outcome = match bye.kind {
                    ByeKind::Pairing => RoundOutcome::PairingBye,
                    ByeKind::Full => RoundOutcome::FullPointBye,
                    ByeKind::Half => RoundOutcome::HalfPointBye,
                    ByeKind::Zero => RoundOutcome::ZeroPointBye,
                };
                let entry = RoundResult {
                    opponent: None,
                    colour: None,
                    outcome,
                };
                rows[i][2 * r] = entry;
                rows[i][2 * r + 1] = entry;
            }
        }
        Ok(Input {
            players: self
                .players
                .iter()
                .zip(rows)
                .map(|(p, rounds)| PlayerResults {
                    id: p.id,
                    name: p.name.clone(),
                    rating: p.rating,
                    rounds,
                })
                .collect(),
            rules: RulesEdition::Fide2024,
            games_per_round: 2,
            event: EventKind::Swiss,
            unrated_rating: None,
        })
    }
}
