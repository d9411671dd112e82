//! The demo's 12-player draughts round robin on the Berger schedule, a round a week: the six
//! rounds before the demo's day completed, the seventh on the day itself published, the last
//! four planned.

use super::{competition, insert_competition, insert_entrant, insert_game, insert_round};
use crate::error::{ApiError, ApiResult};
use crate::ids::SeasonId;
use crate::store::DbConn;
use crate::store::models::players::{self, NewPlayer};
use crate::store::now_utc;
use crate::store::stamps::Scope;
use crate::vocab::RoundStatus;
use chrono::NaiveDate;
use clubcomp_engine::{CompetitionKind, Discipline, PairingSystem};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const DRAUGHTS_PLAYERS: [&str; 12] = [
    "Wouter Kuipers",
    "Ruben Dekker",
    "Sanne Hoekstra",
    "Jelle Postma",
    "Marit Veenstra",
    "Thijs Brouwer",
    "Fenna Kok",
    "Jorrit Dijkstra",
    "Ilse Prins",
    "Hidde Wijnja",
    "Lieke Sikkema",
    "Bart Boersma",
];

/// The round played on the demo's day.
const ROUND_TODAY: u64 = 7;

/// A draughts player's demo address: `wouter.kuipers@club.example`.
pub(super) fn address(name: &str) -> String {
    format!("{}@club.example", name.to_lowercase().replace(' ', "."))
}

/// Seeds the round robin; a summary line.
pub(super) fn seed(c: &mut DbConn, season_id: SeasonId, today: NaiveDate) -> ApiResult<String> {
    let tc = serde_json::json!({"periods": [{"moves": 50, "minutes": 120}, {"moves": 25, "minutes": 60}, {"minutes": 0}],
        "increment_seconds": 20, "increment_from_move": 76});
    let first = today
        .checked_sub_days(chrono::Days::new(7 * (ROUND_TODAY - 1)))
        .unwrap_or(today);
    let comp = insert_competition(
        c,
        competition(
            season_id,
            &format!(
                "Clubkampioenschap dammen {}",
                chrono::Datelike::year(&first)
            ),
            CompetitionKind::RoundRobin,
            Discipline::Draughts,
            Some(PairingSystem::Single),
            None,
            &tc,
            Some(11),
        ),
    )?;
    let mut ids = Vec::new();
    for (i, name) in DRAUGHTS_PLAYERS.iter().enumerate() {
        let mut new = NewPlayer::guest((*name).into(), now_utc());
        new.email = Some(address(name));
        let p = players::insert(c, &new)?;
        insert_entrant(c, comp.id, p.id, i as i32 + 1, None)?;
        ids.push(p.id);
    }
    let table = clubcomp_engine::round_robin::berger_table(ids.len() as u32)
        .map_err(|e| ApiError::Internal(format!("demo schedule: {e}")))?;
    let mut rng = ChaCha8Rng::seed_from_u64(20_270_403);
    let mut completed = 0;
    for (r, boards) in table.iter().enumerate() {
        let date = first.checked_add_days(chrono::Days::new(7 * r as u64));
        let status = match date {
            Some(d) if d < today => RoundStatus::Completed,
            Some(d) if d == today => RoundStatus::Published,
            _ => RoundStatus::Planned,
        };
        let round = insert_round(c, comp.id, r as i32 + 1, None, date, status, None)?;
        if status == RoundStatus::Planned {
            continue;
        }
        completed += usize::from(status == RoundStatus::Completed);
        for (b, board) in boards.iter().enumerate() {
            use crate::vocab::ResultCode as Code;
            let result = match rng.random_range(0..20) {
                0..=5 => Code::DraughtsWhiteWins,
                6..=9 => Code::DraughtsBlackWins,
                10..=17 => Code::DraughtsDraw,
                18 => Code::WhitePlusremise,
                _ => Code::BlackPlusremise,
            };
            insert_game(
                c,
                round.id,
                b as i32 + 1,
                1,
                Some(ids[board.white as usize - 1]),
                Some(ids[board.black as usize - 1]),
                (status == RoundStatus::Completed).then_some(result),
            )?;
        }
    }
    crate::store::stamps::touch(c, Scope::Competition(comp.id))?;
    Ok(format!(
        "draughts: {} players, {completed} of {} rounds completed, round {ROUND_TODAY} published",
        ids.len(),
        table.len()
    ))
}
