//! The member page in one call (`GET /me`; docs/api-guide.md#the-member-page).

use crate::auth::{AnyRole, Auth};
use crate::error::{ApiError, ApiResult, Problem};
use crate::services::member::{self as svc, MemberPage};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, get, web};

/// The caller's member page: their player, their next evening and their game on it (once
/// published), their attendance for the rounds to come of every competition they are in,
/// and their last ten results. An account not linked to a player gets `player: null` and
/// empty lists. Personal: not cached; the `ETag` is a digest of the answer, `If-None-Match`
/// → 304.
#[utoipa::path(tag = "auth",
    params(("If-None-Match" = Option<String>, Header, description = "ETag of a previous read")),
    responses(
        (status = 200, description = "The member page", body = MemberPage,
            headers(("ETag" = String, description = "A digest of the answer"))),
        (status = 304, description = "Not modified",
            headers(("ETag" = String, description = "A digest of the answer"))),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin", "leader", "arbiter", "member", "rating_sync"])))]
#[get("/me")]
pub async fn get_member_page(
    auth: Auth<AnyRole>,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let player = auth.principal.player_id;
    let today = state.today();
    let tz = state.config.club_timezone.name().to_string();
    let page = state.db(move |c| svc::page(c, player, today, &tz)).await?;
    let body = serde_json::to_vec(&page).map_err(|e| ApiError::Internal(e.to_string()))?;
    let tag = crate::cached::content_etag("me", &body);
    if crate::cached::reader_has(&req, &tag) {
        return Ok(HttpResponse::NotModified()
            .insert_header(("ETag", tag))
            .insert_header(("Cache-Control", "private, no-cache"))
            .finish());
    }
    Ok(HttpResponse::Ok()
        .insert_header(("ETag", tag))
        .insert_header(("Cache-Control", "private, no-cache"))
        .content_type("application/json")
        .body(body))
}
