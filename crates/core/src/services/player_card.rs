//! The player card read model: a player's current ratings and rating history and, per
//! competition they entered, their games, their place and score in the current standings, the
//! Keizer value of that place and their place and score after every Keizer evening. Read in
//! one call by the JSON API (`GET /players/{id}/card`, one season) and by the club's player
//! page (every season). Names and results only, never contact data. The document's version is
//! the player's own version, their ratings and the cache stamps of the season's competitions
//! (docs/decisions/0193-player-card.md).

use crate::error::ApiResult;
use crate::ids::{PlayerId, SeasonId};
use crate::services::{competitions, player_games, standings};
use crate::store::DbConn;
use crate::store::models::competition::{Competition, stamp};
use crate::store::schema::seasons as ss;
use chrono::NaiveDate;
use clubcomp_engine::{CompetitionKind, Half};
use diesel::prelude::*;
use serde::Serialize;
use utoipa::ToSchema;

/// A rating from one rating list.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct CardRating {
    /// The list: `KNSB`, `KNSB-rapid`, `FIDE` or `KNDB`.
    pub source: crate::vocab::RatingSource,
    /// The rating.
    pub value: i32,
    /// The date of the list.
    pub list_date: NaiveDate,
}

/// One game on a player's card.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CardGame {
    /// Round number.
    pub round: i32,
    /// Date (none when the round is not on the calendar).
    #[schema(required = true)]
    pub date: Option<NaiveDate>,
    /// The evening, if on the calendar.
    #[schema(required = true)]
    pub evening_id: Option<i64>,
    /// Board.
    pub board: i32,
    /// Whether the player had white (or the bye).
    pub white: bool,
    /// The opponent's id (none for a bye).
    #[schema(required = true)]
    pub opponent_id: Option<i64>,
    /// The opponent's name (none for a bye).
    #[schema(required = true)]
    pub opponent_name: Option<String>,
    /// The result code, once entered.
    #[schema(value_type = Option<crate::services::results::ResultCode>, required = true)]
    pub result: Option<crate::vocab::ResultCode>,
}

/// A player's place and score after one Keizer evening.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct KeizerEvening {
    /// Evening (round) number within the half.
    pub number: u32,
    /// Place after it.
    pub rank: u32,
    /// Keizer score after it (a number of at most 4 decimals).
    #[serde(serialize_with = "crate::wire::decimal")]
    #[schema(value_type = f64)]
    pub score: String,
    /// The Keizer value of that place.
    pub value: i64,
}

/// A player's record in one competition.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CardCompetition {
    /// Competition id.
    pub competition_id: i64,
    /// Competition name.
    pub competition_name: String,
    /// Season id.
    pub season_id: i64,
    /// `keizer`, `swiss`, `round_robin` or `knockout`.
    #[schema(value_type = crate::schemas::CompetitionKind)]
    pub kind: CompetitionKind,
    /// `winter` or `summer` for a Keizer half.
    #[schema(value_type = Option<crate::schemas::KeizerHalf>)]
    #[schema(required = true)]
    pub half: Option<Half>,
    /// Place in the current standings as printed (`3`, or `3-4` when shared); none before
    /// a round counts or for a knock-out.
    #[schema(required = true)]
    pub place: Option<String>,
    /// Score in the current standings: the Keizer score (4 decimals), the Swiss points or the
    /// round-robin points (a number of at most 4 decimals).
    #[serde(serialize_with = "crate::wire::decimal_opt")]
    #[schema(value_type = Option<f64>)]
    #[schema(required = true)]
    pub score: Option<String>,
    /// Keizer: the value of the player's current place.
    #[schema(required = true)]
    pub keizer_value: Option<i64>,
    /// Keizer: place, score and value after every evening that counts, oldest first.
    pub history: Vec<KeizerEvening>,
    /// Games in round order (published rounds only).
    pub games: Vec<CardGame>,
}

/// A player's card.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlayerCard {
    /// Player id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// The season the competitions are from (none on the club page, which shows every season,
    /// and before the first season exists).
    #[schema(required = true)]
    pub season_id: Option<i64>,
    /// The newest rating per list.
    pub ratings: Vec<CardRating>,
    /// Every rating, oldest list first.
    pub rating_history: Vec<CardRating>,
    /// The competitions the player entered, newest season first, then in creation order.
    pub competitions: Vec<CardCompetition>,
    /// The ETag of this document (the same as the header; empty on the club page).
    pub etag: String,
}

/// Which competitions a card shows.
#[derive(Debug, Clone, Copy)]
pub enum Seasons {
    /// Every season, newest first.
    All,
    /// One season.
    One(SeasonId),
    /// The newest season (by opening date), if there is one.
    Current,
}

/// The season `which` names: none for every season or when there is no season yet; 404 for
/// an unknown season.
pub fn season_of(c: &mut DbConn, which: Seasons) -> ApiResult<Option<SeasonId>> {
    match which {
        Seasons::All => Ok(None),
        Seasons::One(id) => Ok(Some(crate::services::seasons::load(c, id)?.id)),
        Seasons::Current => Ok(ss::table
            .order((ss::opening_date.desc(), ss::id.desc()))
            .select(ss::id)
            .first::<i64>(c)
            .optional()?
            .map(SeasonId)),
    }
}

/// The seasons a card covers, newest first.
fn season_ids(c: &mut DbConn, season: Option<SeasonId>) -> ApiResult<Vec<SeasonId>> {
    Ok(match season {
        Some(s) => vec![s],
        None => ss::table
            .order((ss::opening_date.desc(), ss::id.desc()))
            .select(ss::id)
            .load::<i64>(c)?
            .into_iter()
            .map(SeasonId)
            .collect(),
    })
}

/// The version of player `id`'s card over `season`: the season and a digest of the
/// player's own version, their ratings and the cache stamps of the season's competitions (and
/// of the winter halves summer halves are seeded from). 404 when there is no such player.
pub fn version(c: &mut DbConn, id: PlayerId, season: Option<SeasonId>) -> ApiResult<(i64, i64)> {
    use sha2::Digest;
    let p = crate::services::players::load_visible(c, id)?;
    let mut h = sha2::Sha256::new();
    h.update(format!("player:{}:{};", p.id, p.version).as_bytes());
    for r in crate::store::models::ratings::history(c, p.id, None)? {
        h.update(format!("rating:{}:{}:{};", r.id, r.value, r.list_date).as_bytes());
    }
    for s in season_ids(c, season)? {
        for comp in competitions::of_season(c, s)? {
            for cid in std::iter::once(comp.id).chain(comp.seeded_from) {
                let st = stamp(c, &format!("competition:{cid}"))?;
                h.update(format!("{cid}:{st};").as_bytes());
            }
        }
    }
    let d = h.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&d[..8]);
    Ok((season.map_or(0, |s| s.0), i64::from_be_bytes(first)))
}

/// The ETag of player `id`'s card at `version`.
pub fn etag(id: PlayerId, version: (i64, i64)) -> String {
    format!(
        "\"player-card-{}-s{}-{:016x}\"",
        id.0, version.0, version.1 as u64
    )
}

/// The card of player `id` over `season` (every season when none); 404 when there is no
/// such player. `tag` is the document's ETag, shown in its `etag` field.
pub fn card(
    c: &mut DbConn,
    id: PlayerId,
    season: Option<SeasonId>,
    tag: String,
) -> ApiResult<PlayerCard> {
    let p = crate::services::players::load_visible(c, id)?;
    let rating = |r: crate::store::models::ratings::Rating| CardRating {
        source: r.source,
        value: r.value,
        list_date: r.list_date,
    };
    let mut history = crate::store::models::ratings::history(c, p.id, None)?;
    history.sort_by(|a, b| (a.list_date, a.source.as_str()).cmp(&(b.list_date, b.source.as_str())));
    let current = crate::store::models::ratings::latest_for(c, &[p.id])?;
    let mut out = Vec::new();
    for s in season_ids(c, season)? {
        for comp in competitions::of_season(c, s)? {
            let entrants = competitions::entrants_in_seed_order(c, comp.id)?;
            if entrants.iter().any(|e| e.player_id == p.id) {
                out.push(record(c, id, comp)?);
            }
        }
    }
    Ok(PlayerCard {
        id: p.id.get(),
        name: p.name,
        season_id: season.map(|s| s.0),
        ratings: current.into_iter().map(rating).collect(),
        rating_history: history.into_iter().map(rating).collect(),
        competitions: out,
        etag: tag,
    })
}

/// The player's record in one competition they entered.
fn record(c: &mut DbConn, id: PlayerId, comp: Competition) -> ApiResult<CardCompetition> {
    let filter = player_games::GameFilter {
        competition: Some(comp.id),
        season: None,
    };
    // oldest first (the games come newest first), then in round and board order
    let mut games: Vec<CardGame> = player_games::all(c, id, filter)?
        .into_iter()
        .rev()
        .map(|g| {
            let (opponent_id, opponent_name) = g.opponent.map(|o| (o.id, o.name)).unzip();
            CardGame {
                round: g.round,
                date: g.date,
                evening_id: g.evening_id,
                board: g.board,
                white: g.colour == clubcomp_engine::Colour::White,
                opponent_id,
                opponent_name,
                result: g.result,
            }
        })
        .collect();
    games.sort_by_key(|g| (g.round, g.board));
    let mut history = Vec::new();
    let mut place = None;
    let mut score = None;
    let mut keizer_value = None;
    match comp.kind {
        CompetitionKind::Keizer => {
            let input = standings::keizer_input(c, &comp)?.input;
            let key = id.0.to_string();
            for (i, e) in standings::keizer_compute(&input)?.iter().enumerate() {
                if let Some(r) = e.standings.iter().find(|r| r.id == key) {
                    history.push(KeizerEvening {
                        number: i as u32 + 1,
                        rank: r.rank,
                        score: r.score.to_string(),
                        value: r.value,
                    });
                }
            }
            if let Some(last) = history.last() {
                place = Some(last.rank.to_string());
                score = Some(last.score.clone());
                keizer_value = Some(last.value);
            }
        }
        CompetitionKind::Swiss => {
            let rounds = standings::counted_rounds(c, comp.id)?;
            if !rounds.is_empty() {
                let (mut st, ids) = standings::swiss_compute(c, &comp, &rounds)?;
                crate::services::playoff::apply_to_standings(c, &comp, &mut st, &ids)?;
                let row = st
                    .rows
                    .into_iter()
                    .find(|r| ids.get(r.id as usize - 1) == Some(&id));
                if let Some(r) = row {
                    score = r.values.first().and_then(plain);
                    place = Some(r.place);
                }
            }
        }
        CompetitionKind::RoundRobin => {
            // a table that breaks ties by lots before its drawing is stored shows no place
            let table = standings::round_robin_scenario(c, &comp, None)
                .and_then(|s| standings::round_robin_compute(&s));
            if let Ok(out) = table {
                let key = id.0.to_string();
                if let Some(r) = out.standings.into_iter().find(|r| r.id == key) {
                    place = Some(r.place.to_string());
                    score = Some(r.points.to_string());
                }
            }
        }
        _ => {}
    }
    Ok(CardCompetition {
        competition_id: comp.id.get(),
        competition_name: comp.name,
        season_id: comp.season_id.get(),
        kind: comp.kind,
        half: comp.half,
        place,
        score,
        keizer_value,
        history,
        games,
    })
}

/// A tie-break value as printed (none when the value is missing).
fn plain<T: Serialize>(v: &Option<T>) -> Option<String> {
    match serde_json::to_value(v.as_ref()?).ok()? {
        serde_json::Value::String(s) => Some(s),
        serde_json::Value::Null => None,
        other => Some(other.to_string()),
    }
}
