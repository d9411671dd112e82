//! A player's card in one call (`GET /players/{id}/card`): ratings, and per competition of a
//! season the place, score, Keizer value, history per evening and games
//! (docs/api-guide.md#a-player-card, docs/decisions/0193-player-card.md).

use crate::error::{ApiError, ApiResult, Problem};
use crate::ids::{PlayerId, SeasonId};
use crate::services::player_card::{self as svc, PlayerCard, Seasons};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, get, web};
use serde::Deserialize;
use utoipa::IntoParams;

/// Which season a card shows.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct CardQuery {
    /// The season id (default: the newest season).
    #[param(minimum = 1)]
    pub season: Option<i64>,
}

/// A player's card: the newest rating per list and the rating history, and per competition
/// of the season (default the newest) the player entered: place and score in the current
/// standings, the Keizer value of the place, place and score after every Keizer evening, and
/// the published games. Public, no contact data. Served from the read cache; `ETag` from the
/// player, their ratings and the season's competitions, `If-None-Match` → 304.
#[utoipa::path(tag = "players",
    params(("id" = i64, Path, description = "Player id"), CardQuery,
           ("If-None-Match" = Option<String>, Header, description = "ETag of a previous read")),
    responses((status = 200, description = "The card", body = PlayerCard,
            headers(("ETag" = String, description = "The document's version"))),
        (status = 304, description = "Not modified",
            headers(("ETag" = String, description = "The document's version"))),
        (status = 400, description = "Bad or unknown query parameter", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such player or season", body = Problem, content_type = "application/problem+json")))]
#[get("/players/{id}/card")]
pub async fn get_player_card(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    q: crate::api::Query<CardQuery>,
) -> ApiResult<HttpResponse> {
    let player = PlayerId(path.into_inner());
    let which = q
        .season
        .map_or(Seasons::Current, |s| Seasons::One(SeasonId(s)));
    crate::cached::serve_versioned(
        &state,
        &req,
        "player-card",
        move |c| {
            let season = svc::season_of(c, which)?;
            let v = svc::version(c, player, season)?;
            Ok((player.0, v, svc::etag(player, v), season))
        },
        move |c, season, tag| {
            let view = svc::card(c, player, season, tag)?;
            serde_json::to_vec(&view).map_err(|e| ApiError::Internal(e.to_string()))
        },
    )
    .await
}
