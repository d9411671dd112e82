//! Prizes and playoffs (docs/rules/keizer.md#prizes, docs/rules/keizer.md#playoffs, docs/rules/draughts-championship.md#master-points): the prize list of a Keizer half
//! (`clubcomp_engine::keizer::prizes`) or a round robin (points tables, prize money and rights of the
//! round-robin engine), its finalization, and the Keizer playoffs (`clubcomp_engine::keizer::playoffs`):
//! groups, colours by lot from a stored seed, and the games that become due as results come in.
//!
//! Playoff games are stored as ordinary games of a `knockout` competition: round 1 holds the
//! semi-finals, round 2 the finals; `board = group × 10 + match` (1 = semi 1–4, 2 = semi 2–3,
//! 3 = final) and `game_no` 1 for the game, 2 for the decider.

use crate::db::DbConn;
use crate::db::models::competition::{Competition, Game, NewGame, Round, bump_stamp};
use crate::db::now_utc;
use crate::db::schema::games;
use crate::error::{ApiError, ApiResult};
use crate::services::rounds;
use crate::services::standings as st;
use clubcomp_engine::keizer::playoffs::{
    EnteredResult, GroupState, MatchId, Outcome, PlayoffDraw, group_state,
};
use clubcomp_engine::keizer::prizes::{self, Half, PrizeOutcome};
use diesel::prelude::*;
use serde::{Deserialize, Serialize};

/// The computed prizes of a Keizer half (ids are decimal player ids).
pub fn keizer_prizes(c: &mut DbConn, comp: &Competition) -> ApiResult<(Half, PrizeOutcome)> {
    let input = st::keizer_input(c, comp)?.input;
    let out = st::keizer_compute(&input)?;
    // a Keizer competition without a half is treated as a winter half (docs/decisions)
    let half = if comp.half.as_deref() == Some("summer") {
        Half::Summer
    } else {
        Half::Winter
    };
    Ok((half, prizes::award(half, &prizes::candidates(&input, &out))))
}

/// 409 unless the competition has rounds and every one is completed.
pub fn require_finished(c: &mut DbConn, comp: &Competition) -> ApiResult<()> {
    let rs = rounds::list(c, comp.id)?;
    if rs.is_empty() {
        return Err(ApiError::Conflict(format!(
            "competition {} has no rounds yet",
            comp.id
        )));
    }
    if let Some(r) = rs.iter().find(|r| r.status != "completed") {
        return Err(ApiError::Conflict(format!(
            "round {} of competition {} is {}; every round must be completed",
            r.number, comp.id, r.status
        )));
    }
    Ok(())
}

/// Playoff settings stored in the knockout competition's params.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlayoffParams {
    /// The summer half the playoffs come from.
    pub summer_competition: i64,
    /// Seed of the colour lots (decision, docs/rules/keizer.md#playoffs).
    pub colour_seed: u64,
    /// The groups and the player without a group.
    pub draw: PlayoffDraw,
}

/// Reads the playoff params of a knockout competition (409 when it is not a playoff).
pub fn playoff_params(comp: &Competition) -> ApiResult<PlayoffParams> {
    if comp.kind != "knockout" {
        return Err(ApiError::Conflict(format!(
            "competition {} is a {}, not playoffs",
            comp.id, comp.kind
        )));
    }
    serde_json::from_str(&comp.params).map_err(|_| {
        ApiError::Conflict(format!(
            "competition {} is a knockout without a playoff draw",
            comp.id
        ))
    })
}

fn match_no(m: MatchId) -> i32 {
    match m {
        MatchId::Semi1 => 1,
        MatchId::Semi2 => 2,
        MatchId::Final => 3,
    }
}

fn match_of(n: i32) -> Option<MatchId> {
    match n {
        1 => Some(MatchId::Semi1),
        2 => Some(MatchId::Semi2),
        3 => Some(MatchId::Final),
        _ => None,
    }
}

fn outcome(code: &str) -> Option<Outcome> {
    Some(match code {
        "1-0" | "+/-" => Outcome::WhiteWins,
        "0-1" | "-/+" => Outcome::BlackWins,
        "1/2-1/2" => Outcome::Draw,
        _ => return None,
    })
}

/// The state of every group from the stored games, with the games by (group, match, game).
pub fn playoff_states(
    c: &mut DbConn,
    comp: &Competition,
) -> ApiResult<(PlayoffParams, Vec<GroupState>, Vec<Game>)> {
    let p = playoff_params(comp)?;
    let mut all = Vec::new();
    for r in rounds::list(c, comp.id)? {
        all.extend(rounds::games_of(c, r.id)?);
    }
    let mut states = Vec::new();
    for g in &p.draw.groups {
        let mut results = Vec::new();
        for game in all.iter().filter(|x| x.board / 10 == g.number as i32) {
            if let (Some(m), Some(o)) = (
                match_of(game.board % 10),
                game.result.as_deref().and_then(outcome),
            ) {
                results.push(EnteredResult {
                    match_id: m,
                    game: game.game_no as u8,
                    outcome: o,
                });
            }
        }
        states.push(
            group_state(g, p.colour_seed, &results)
                .map_err(|e| ApiError::Conflict(format!("playoffs: {e}")))?,
        );
    }
    Ok((p, states, all))
}

/// Brings the stored playoff games in line with the group states: games that became due
/// (deciders, finals) are created, games no longer due and without a result are removed; a
/// correction that would leave a played later game stranded is refused (409).
pub fn sync_playoff_games(c: &mut DbConn, comp: &Competition) -> ApiResult<()> {
    let (_, states, stored) = playoff_states(c, comp)?;
    let rs: Vec<Round> = rounds::list(c, comp.id)?;
    let mut wanted = Vec::new();
    for s in &states {
        for m in &s.matches {
            for g in &m.games {
                let white: i64 = g.white.parse().unwrap_or_default();
                let black: i64 = g.black.parse().unwrap_or_default();
                wanted.push((
                    s.group as i32 * 10 + match_no(m.id),
                    i32::from(g.game),
                    white,
                    black,
                    m.id,
                ));
            }
        }
    }
    for g in &stored {
        let ok = wanted.iter().any(|w| {
            w.0 == g.board && w.1 == g.game_no && Some(w.2) == g.white_id && Some(w.3) == g.black_id
        });
        if !ok {
            if g.result.is_some() {
                return Err(ApiError::Conflict(format!(
                    "this change would strand the played game {} (board {}, game {}); correct that game first",
                    g.id, g.board, g.game_no
                )));
            }
            diesel::delete(games::table.find(g.id)).execute(c)?;
        }
    }
    for (board, game_no, white, black, m) in wanted {
        let exists = stored.iter().any(|g| {
            g.board == board
                && g.game_no == game_no
                && g.white_id == Some(white)
                && g.black_id == Some(black)
        });
        if exists {
            continue;
        }
        let number = if m == MatchId::Final { 2 } else { 1 };
        let Some(round) = rs.iter().find(|r| r.number == number) else {
            return Err(ApiError::Conflict(format!(
                "playoff round {number} is missing"
            )));
        };
        diesel::insert_into(games::table)
            .values(&NewGame {
                round_id: round.id,
                board,
                game_no,
                white_id: Some(white),
                black_id: Some(black),
                result: None,
                termination: None,
                move_count: None,
                version: 1,
                updated_at: now_utc(),
            })
            .execute(c)?;
    }
    bump_stamp(c, &format!("competition:{}", comp.id))?;
    Ok(())
}
