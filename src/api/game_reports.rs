//! Results reported by the two players of a game (docs/rules/arbiter.md#results-reported-by-the-players):
//! either player's member account reports; two agreeing reports enter the result, two
//! different ones leave the game disputed for the arbiter.

use crate::api::Body;
use crate::api::attendance::Account;
use crate::auth::Auth;
use crate::error::{ApiResult, Problem};
use crate::ids::GameId;
use crate::services::game_reports::{self as svc, Reported, Reporter};
use crate::state::AppState;
use actix_web::{HttpResponse, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

/// A player's report of their game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"result": "1-0"}))]
pub struct GameReport {
    /// A result code of the competition's discipline, from White's side (chess `1-0 0-1 ½-½
    /// 1/2-1/2`; draughts `2-0 0-2 1-1 1+-1- 1--1+ 0-0`); forfeits are the arbiter's.
    #[schema(value_type = crate::services::results::ResultCode, max_length = 16)]
    pub result: String,
}

/// Reports the result of the caller's own game (the player linked to the account, White or
/// Black). When the opponent reported the same, the result is entered as by the arbiter and
/// audited with both reporters; when they reported another, the game is disputed and the
/// arbiter decides. A player may report again while the game has no result. Each game of a
/// two-game pairing is reported on its own.
#[utoipa::path(tag = "results", request_body = GameReport,
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "Recorded: waiting for the opponent, entered, or disputed", body = Reported),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not one of the game's two players", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game has a result already, is a bye, or its round is not published or is completed (the reason named)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A code the competition does not take, or a forfeit", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "More than 10 reports a minute from the account", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["member", "leader", "arbiter", "admin"])))]
#[post("/games/{id}/report")]
pub async fn create_game_report(
    auth: Auth<Account>,
    state: web::Data<AppState>,
    path: web::Path<GameId>,
    body: Body<GameReport>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let account = auth.principal.label.clone();
    state.night.take_report(&account)?;
    if b.result.chars().count() > 16 {
        return Err(crate::error::ApiError::invalid(
            "result",
            "must be at most 16 characters",
        ));
    }
    let player = auth.principal.player_id;
    let mail = state.config.mail.clone();
    let key = state.unsubscribe.clone();
    let out = state
        .tx(move |c| {
            let who = Reporter {
                player,
                account: &account,
                result: &b.result,
                notifier: (&mail, &key),
            };
            svc::report(c, id, &who)
        })
        .await?;
    Ok(HttpResponse::Ok().json(out))
}
