//! A player's games across competitions, newest first, a page at a time
//! (`GET /players/{id}/games`; docs/api-guide.md#a-players-games).

use crate::api::PageParams;
use crate::error::{ApiResult, Problem};
use crate::ids::{CompetitionId, PlayerId};
use crate::services::player_games::{self as svc, GameFilter, PlayerGame};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, get, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

crate::api::paged_query! {
    /// What a player's games may be filtered by.
    #[derive(Debug, Deserialize, IntoParams)]
    #[into_params(parameter_in = Query)]
    #[serde(deny_unknown_fields)]
    pub struct PlayerGamesQuery {
        /// Only the games of this competition.
        pub competition: Option<i64>,
        /// Only the games of this season.
        pub season: Option<i64>,
    }
}

/// A page of a player's games.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerGamePage {
    /// The games, newest first (date descending, then game id descending).
    pub items: Vec<PlayerGame>,
    /// Total matching.
    pub total: i64,
    /// Page number.
    pub page: u32,
    /// Page size.
    pub per_page: u32,
}

/// A player's games in published and completed rounds (public), newest first: date
/// descending (games without a date last), then game id descending; filtered by
/// competition and season, a page at a time.
#[utoipa::path(tag = "players",
    params(("id" = i64, Path, description = "Player id"), PlayerGamesQuery),
    responses((status = 200, description = "The games", body = PlayerGamePage,
            headers(("Link" = String, description = "RFC 8288 links to the first, previous, next and last pages"))),
        (status = 400, description = "Bad or unknown query parameter", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such player", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Bad paging", body = Problem, content_type = "application/problem+json")))]
#[get("/players/{id}/games")]
pub async fn list_player_games(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    q: crate::api::Query<PlayerGamesQuery>,
) -> ApiResult<HttpResponse> {
    let player = PlayerId(path.into_inner());
    let q = q.into_inner();
    let (limit, offset, page, per_page) = PageParams::of(q.page, q.per_page).resolve()?;
    let f = GameFilter {
        competition: q.competition.map(CompetitionId),
        season: q.season,
    };
    let (items, total) = state
        .db(move |c| svc::page(c, player, f, limit, offset))
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Link", crate::api::page_links(&req, page, per_page, total)))
        .json(PlayerGamePage {
            items,
            total,
            page,
            per_page,
        }))
}
