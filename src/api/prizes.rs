//! Prizes (docs/rules/keizer.md#prizes, docs/rules/draughts-championship.md#prize-money) and the Keizer playoffs (docs/rules/keizer.md#playoffs).

use crate::auth::{Auth, Leader};
use crate::error::{ApiResult, Problem};
use crate::ids::{CompetitionId, SeasonId};
use crate::services::prize_list;
pub use crate::services::prize_list::{
    AwardView, KeizerPrizes, Named, PlayoffGameView, PlayoffGroupView, PlayoffMatchView,
    PlayoffsView, PrizeList, RoundRobinPrize,
};
use crate::state::AppState;
use actix_web::{HttpResponse, get, post, web};

/// The prizes of a competition (public): the finalized list once stored, else computed from
/// the current standings. Keizer winter: champion, silver, bronze, best of the rest; summer:
/// champion and playoff places. Round robin: points tables, prize money and rights from the
/// competition's params. Swiss (the rapid, the blitz championship): the champion, first in the
/// final standings or the play-off's winner.
#[utoipa::path(tag = "prizes", params(("id" = i64, Path, description = "Competition id")),
    responses((status = 200, description = "Prize list", body = PrizeList),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No prize rules for this kind, or data that cannot be computed", body = Problem, content_type = "application/problem+json")))]
#[get("/competitions/{id}/prizes")]
pub async fn get_prizes(
    auth: crate::auth::MaybeAuth,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let mut list = state.tx(move |c| prize_list::current(c, id)).await?;
    // who finalized the list is an account (an e-mail address): for the club's staff only
    let staff = auth.0.as_ref().is_some_and(|p| {
        p.has_any(&[
            crate::auth::Role::Leader,
            crate::auth::Role::Arbiter,
            crate::auth::Role::Admin,
        ])
    });
    if !staff {
        list.finalized_by = None;
    }
    Ok(HttpResponse::Ok().json(list))
}

/// Finalizes the prize list (leader): every round must be completed; the computed list is
/// stored and from then on returned by GET. A second finalize is 409.
#[utoipa::path(tag = "prizes", params(("id" = i64, Path, description = "Competition id")),
    responses((status = 201, description = "Stored", body = PrizeList),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Already finalized, rounds not completed, or no prize rules", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[post("/competitions/{id}/prizes/finalize")]
pub async fn finalize_prizes(
    a: Auth<Leader>,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let actor = a.principal.label.clone();
    let mail = state.config.mail.clone();
    let key = state.unsubscribe.clone();
    let list = state
        .tx(move |c| prize_list::finalize(c, (&mail, &key), id, &actor))
        .await?;
    Ok(HttpResponse::Created().json(list))
}

/// Creates the season's playoffs (leader) from the summer half's final standings and prize
/// eligibility: a `knockout` competition with the groups of four (colour seed stored), round
/// 1 with the semi-finals and round 2 for the finals (a group of two plays only the final).
/// Results are entered with `PUT /games/{id}/result`; deciders and finals appear as they
/// become due.
#[utoipa::path(tag = "prizes", params(("id" = i64, Path, description = "Season id")),
    responses((status = 201, description = "Created", body = PlayoffsView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such season", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No finished summer half, too few eligible players, or playoffs exist", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[post("/seasons/{id}/playoffs")]
pub async fn create_playoffs(
    a: Auth<Leader>,
    state: web::Data<AppState>,
    path: web::Path<SeasonId>,
) -> ApiResult<HttpResponse> {
    let season = path.into_inner();
    let actor = a.principal.label.clone();
    let view = state
        .tx(move |c| prize_list::create_playoffs(c, season, &actor))
        .await?;
    Ok(HttpResponse::Created()
        .insert_header((
            "Location",
            format!("/api/v1/competitions/{}/playoffs", view.competition_id),
        ))
        .json(view))
}

/// The playoffs of a knockout competition (public): groups, matches with colours drawn by
/// lot, the games to play next, deciders, winners and the club champion.
#[utoipa::path(tag = "prizes", params(("id" = i64, Path, description = "Competition id")),
    responses((status = 200, description = "Playoffs", body = PlayoffsView),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not a playoff competition", body = Problem, content_type = "application/problem+json")))]
#[get("/competitions/{id}/playoffs")]
pub async fn get_playoffs(
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let view = state.db(move |c| prize_list::playoffs(c, id)).await?;
    Ok(HttpResponse::Ok().json(view))
}
