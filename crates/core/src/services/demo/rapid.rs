//! The demo's rapid (Double-Swiss): 21 players, a round on every rapid evening; the rounds
//! before the demo's day paired by the engine and completed, the next one published, the
//! later ones planned.

use super::{competition, insert_competition, insert_entrant, insert_game, insert_round};
use crate::error::{ApiError, ApiResult};
use crate::ids::SeasonId;
use crate::store::DbConn;
use crate::store::models::competition::Evening;
use crate::store::models::players::Player;
use crate::store::stamps::Scope;
use crate::vocab::{ResultCode, RoundStatus};
use chrono::NaiveDate;
use clubcomp_engine::double_swiss::{self as ds, DoubleSwissResult as G};
use clubcomp_engine::{CompetitionKind, Discipline, EveningKind, Half, PairingSystem};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Players of the rapid.
const RAPID_PLAYERS: usize = 21;
/// The most rounds of the rapid.
const RAPID_ROUNDS: usize = 9;

/// Seeds the rapid; a summary line.
pub(super) fn seed(
    c: &mut DbConn,
    season_id: SeasonId,
    club: &[Player],
    evenings: &[Evening],
    today: NaiveDate,
) -> ApiResult<String> {
    let tc = serde_json::json!({"periods": [{"minutes": 25}], "increment_seconds": 0, "increment_from_move": 1});
    let rapid: Vec<&Evening> = evenings
        .iter()
        .filter(|e| e.kind == EveningKind::Rapid)
        .take(RAPID_ROUNDS)
        .collect();
    let year = rapid
        .first()
        .map(|e| chrono::Datelike::year(&e.date))
        .unwrap_or_default();
    let comp = insert_competition(
        c,
        competition(
            season_id,
            &format!("Rapid {year}"),
            CompetitionKind::Swiss,
            Discipline::Chess,
            Some(PairingSystem::DoubleSwiss),
            Some(Half::Winter),
            &tc,
            Some(rapid.len() as i32),
        ),
    )?;
    // every other club player, strongest first: pairing numbers 1 … 21
    let field: Vec<&Player> = club.iter().step_by(2).take(RAPID_PLAYERS).collect();
    for (i, p) in field.iter().enumerate() {
        insert_entrant(c, comp.id, p.id, i as i32 + 1, None)?;
    }
    let mut state = ds::State {
        players: (1..=field.len() as u32)
            .map(|id| ds::DoubleSwissPlayer {
                id,
                name: String::new(),
                rating: None,
            })
            .collect(),
        rounds: vec![],
        absent: vec![],
    };
    let mut rng = ChaCha8Rng::seed_from_u64(20_260_925);
    let game = |rng: &mut ChaCha8Rng| match rng.random_range(0..10) {
        0..=3 => (G::WhiteWins, ResultCode::WhiteWins),
        4..=6 => (G::BlackWins, ResultCode::BlackWins),
        _ => (G::Draw, ResultCode::DrawHalves),
    };
    let completed = rapid.iter().filter(|e| e.date < today).count();
    for (k, ev) in rapid.iter().enumerate() {
        let number = k as i32 + 1;
        if k > completed {
            insert_round(
                c,
                comp.id,
                number,
                Some(ev),
                None,
                RoundStatus::Planned,
                None,
            )?;
            continue;
        }
        let published = k == completed;
        let next = ds::pair_next_round(&state)
            .map_err(|e| ApiError::Internal(format!("demo rapid: {e}")))?;
        let round = insert_round(
            c,
            comp.id,
            next.round as i32,
            Some(ev),
            None,
            if published {
                RoundStatus::Published
            } else {
                RoundStatus::Completed
            },
            Some(serde_json::json!({"engine": "double_swiss", "pairing": next}).to_string()),
        )?;
        let id = |tpn: u32| field[tpn as usize - 1].id;
        let mut rec = ds::RoundRecord::default();
        for p in &next.pairings {
            let (g1, r1) = game(&mut rng);
            let (g2, r2) = game(&mut rng);
            let (r1, r2) = if published {
                (None, None)
            } else {
                (Some(r1), Some(r2))
            };
            let (w, b) = (Some(id(p.white)), Some(id(p.black)));
            insert_game(c, round.id, p.board as i32, 1, w, b, r1)?;
            insert_game(c, round.id, p.board as i32, 2, b, w, r2)?;
            rec.matches.push(ds::Match {
                white: p.white,
                black: p.black,
                game1: g1,
                game2: g2,
            });
        }
        if let Some(b) = next.bye {
            let (board, bye) = (next.pairings.len() as i32 + 1, Some(ResultCode::Bye));
            insert_game(c, round.id, board, 1, Some(id(b)), None, bye)?;
            rec.byes.push(ds::Bye {
                player: b,
                kind: ds::ByeKind::Pairing,
            });
        }
        state.rounds.push(rec);
    }
    crate::store::stamps::touch(c, Scope::Competition(comp.id))?;
    let published = usize::from(completed < rapid.len());
    Ok(format!(
        "rapid: {RAPID_PLAYERS} players, {} rounds completed, {published} published",
        completed.min(rapid.len())
    ))
}
