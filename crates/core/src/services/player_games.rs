//! A player's games across competitions, newest first: the read model of
//! `GET /players/{id}/games` and of the games on the club's player card. Public rounds only
//! (published or completed, `services::rounds::is_public`); names only, no contact data.

use crate::error::{ApiError, ApiResult};
use crate::ids::{CompetitionId, EveningId, PlayerId};
use crate::services::{calendar, standings};
use crate::store::DbConn;
use crate::store::models::competition::{Game, Round};
use crate::store::schema::{competitions as cm, games as gm, rounds as rd};
use crate::vocab::RoundStatus;
use chrono::NaiveDate;
use diesel::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use utoipa::ToSchema;

/// The other player of a game.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct Opponent {
    /// Player id.
    pub id: i64,
    /// Name.
    pub name: String,
}

/// One game of a player.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlayerGame {
    /// The game's id.
    pub game_id: i64,
    /// The competition.
    pub competition_id: i64,
    /// Its name.
    pub competition_name: String,
    /// Its season.
    pub season_id: i64,
    /// Round number.
    pub round: i32,
    /// The date: the round's, else its calendar evening's.
    #[schema(required = true)]
    pub date: Option<NaiveDate>,
    /// The calendar evening, if any.
    #[schema(required = true)]
    pub evening_id: Option<i64>,
    /// Board number.
    pub board: i32,
    /// Game number within the pairing (two-game rounds: 1 and 2).
    pub game_no: i32,
    /// `white` or `black` (a bye is shown as white without an opponent).
    #[schema(value_type = crate::services::arbiter::doc::Colour)]
    pub colour: clubcomp_engine::Colour,
    /// The opponent (none for a bye).
    #[schema(required = true)]
    pub opponent: Option<Opponent>,
    /// Result code, once entered (white's score first).
    #[schema(value_type = Option<crate::services::results::ResultCode>, required = true)]
    pub result: Option<crate::vocab::ResultCode>,
}

/// What a player's games are filtered by.
#[derive(Debug, Clone, Copy, Default)]
pub struct GameFilter {
    /// One competition.
    pub competition: Option<CompetitionId>,
    /// One season.
    pub season: Option<i64>,
}

/// Every public game of `player` matching `f`, newest first (date descending, games without a
/// date last, then game id descending). 404 when there is no such player.
pub fn all(c: &mut DbConn, player: PlayerId, f: GameFilter) -> ApiResult<Vec<PlayerGame>> {
    let p = player;
    crate::services::players::load_visible(c, p)?;
    let mut q = gm::table
        .inner_join(rd::table.inner_join(cm::table))
        .filter(gm::white_id.eq(p).or(gm::black_id.eq(p)))
        .filter(rd::status.eq_any([RoundStatus::Published, RoundStatus::Completed]))
        .into_boxed();
    if let Some(comp) = f.competition {
        q = q.filter(cm::id.eq(comp.0));
    }
    if let Some(s) = f.season {
        q = q.filter(cm::season_id.eq(s));
    }
    let rows: Vec<(Game, Round, (String, i64))> = q
        .select((
            Game::as_select(),
            Round::as_select(),
            (cm::name, cm::season_id),
        ))
        .load(c)?;
    let opponents = standings::names(
        c,
        rows.iter()
            .flat_map(|(g, _, _)| [g.white_id, g.black_id])
            .flatten()
            .filter(|&id| id != p),
    )?;
    let mut evening_dates: HashMap<EveningId, NaiveDate> = HashMap::new();
    let mut out = Vec::with_capacity(rows.len());
    for (g, r, (name, season_id)) in rows {
        let date = match (r.date, r.evening_id) {
            (Some(d), _) => Some(d),
            (None, Some(e)) => match evening_dates.get(&e) {
                Some(d) => Some(*d),
                None => {
                    let d = calendar::load_evening(c, e)?.date;
                    evening_dates.insert(e, d);
                    Some(d)
                }
            },
            (None, None) => None,
        };
        let white = g.white_id == Some(p);
        let other = if white { g.black_id } else { g.white_id };
        out.push(PlayerGame {
            game_id: g.id.get(),
            competition_id: r.competition_id.get(),
            competition_name: name,
            season_id,
            round: r.number,
            date,
            evening_id: r.evening_id.map(EveningId::get),
            board: g.board,
            game_no: g.game_no,
            colour: if white {
                clubcomp_engine::Colour::White
            } else {
                clubcomp_engine::Colour::Black
            },
            opponent: other.map(|id| Opponent {
                id: id.get(),
                name: opponents.get(&id).cloned().unwrap_or_default(),
            }),
            result: g.result,
        });
    }
    out.sort_by(|a, b| {
        b.date
            .is_some()
            .cmp(&a.date.is_some())
            .then(b.date.cmp(&a.date))
            .then(b.game_id.cmp(&a.game_id))
    });
    Ok(out)
}

/// A page of [`all`]: `limit` games from `offset`, and how many there are in all.
pub fn page(
    c: &mut DbConn,
    player: PlayerId,
    f: GameFilter,
    limit: i64,
    offset: i64,
) -> ApiResult<(Vec<PlayerGame>, i64)> {
    let games = all(c, player, f)?;
    let total = i64::try_from(games.len()).map_err(|e| ApiError::Internal(e.to_string()))?;
    let skip = usize::try_from(offset).unwrap_or(usize::MAX);
    let take = usize::try_from(limit).unwrap_or(0);
    Ok((games.into_iter().skip(skip).take(take).collect(), total))
}
