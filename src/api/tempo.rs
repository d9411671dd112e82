//! A game's own tempo (docs/rules/README.md#time-controls): the time control one game is
//! played at by agreement of both players, set before its result with `If-Match`.

use crate::api::{Body, etag, if_match};
use crate::auth::{Arbiter, Auth, Role};
use crate::error::{ApiResult, Problem};
use crate::ids::GameId;
use crate::services::round_views::{self, GameView};
use crate::services::tempo::TempoInput;
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, put, web};

/// Sets the tempo one game is played at, before its result: the Keizer's alternative (40
/// moves in 90 minutes, then 15 minutes, no increment; approved by the leader, so a leader
/// records it), or in the rapid (Double-Swiss) less time than the competition's but at least
/// 10 minutes per player; `agreed` says both players agreed. Other competitions play their
/// own tempo only. `null` or the competition's own time control clears it. The game's tempo
/// is what the quickplay-finish check reads. `If-Match` (the game's ETag
/// `"game-{id}-v{version}"`) is checked when sent. Every change is audited.
#[utoipa::path(tag = "results", request_body = TempoInput,
    params(("id" = i64, Path, description = "Game id"),
           ("If-Match" = Option<String>, Header, description = "The game's ETag; optional, 412 when stale")),
    responses((status = 200, description = "Stored; the game with the tempo it is played at", body = GameView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter or leader, or the Keizer's alternative tempo set by an arbiter (the leader approves it)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A bye, a game with its result, or a quickplay-finish claim made at the tempo", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "Stale If-Match", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A time control out of bounds, a tempo the competition does not allow, or no agreement (the rule named)", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[put("/games/{id}/time-control")]
pub async fn update_game_time_control(
    a: Auth<Arbiter>,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<GameId>,
    body: Body<TempoInput>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let im = if_match(&req)?;
    let leader = a.principal.has_any(&[Role::Leader, Role::Admin]);
    let actor = a.principal.label.clone();
    let view = state
        .tx(move |c| round_views::set_tempo_and_view(c, id, &im, &b, leader, &actor))
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header(("ETag", etag("game", view.id, view.version)))
        .json(view))
}
