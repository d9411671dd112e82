//! A member's own privacy (docs/api-guide.md#your-data-and-how-your-name-is-shown): the
//! export of everything the club holds about them, and how their name is shown to the public.

use crate::api::Body;
use crate::auth::{AnyRole, Auth};
use crate::error::{ApiError, ApiResult, Problem};
use crate::services::privacy::{self as svc, MemberExport};
use crate::state::AppState;
use actix_web::{HttpResponse, get, put, web};
use clubcomp_core::publication::Publication;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// How the caller's name is shown to readers who are not officers.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"publication": "initials"}))]
pub struct PublicationChoice {
    /// `full` (the name), `initials` (`J. de V.`) or `hidden` (`Speler 12`, no player page).
    pub publication: Publication,
}

/// Registers the routes.
pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(export_me);
    cfg.service(put_publication);
}

/// Everything the club holds about the caller, as JSON: the account (no password or token
/// hashes), the linked player with contact data and identifiers, ratings, competitions
/// entered, attendance, games, reported results, notification choices, the mails kept for
/// their addresses (no bodies), sessions, single-use links, known devices and the audit
/// entries about them. Each list holds at most 5000 rows, newest first where it grows;
/// `truncated` names a list that was cut. Personal: never cached.
#[utoipa::path(tag = "auth",
    responses((status = 200, description = "The export", body = MemberExport),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin", "leader", "arbiter", "member", "rating_sync"])))]
#[get("/me/export")]
pub async fn export_me(auth: Auth<AnyRole>, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    let user = auth.principal.user_id.ok_or_else(|| {
        ApiError::invalid("account", "a service token has no personal data to export")
    })?;
    let now = chrono::Utc::now();
    let export = state.db(move |c| svc::export(c, user, now)).await?;
    // a weak tag over what the club holds, without the moment of the export: a GET and its
    // HEAD, or two exports of unchanged data, carry the same tag
    let mut held = serde_json::to_value(&export)
        .map_err(|e| ApiError::Internal(format!("the export could not be written: {e}")))?;
    if let Some(m) = held.as_object_mut() {
        m.remove("exported_at");
    }
    let tag = format!(
        "W/{}",
        crate::cached::content_etag("export", held.to_string().as_bytes())
    );
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "private, no-store"))
        .insert_header(("ETag", tag))
        .insert_header((
            "Content-Disposition",
            "attachment; filename=\"clubcomp-export.json\"",
        ))
        .json(export))
}

/// Sets how the caller's own name is shown to readers who are not officers (the public, other
/// members): `full`, `initials` or `hidden`. Audited. Officers and the member see the full
/// name always.
#[utoipa::path(tag = "auth", request_body = PublicationChoice,
    responses((status = 200, description = "The setting", body = PublicationChoice),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A missing or unknown value, or an account not linked to a player", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin", "leader", "arbiter", "member", "rating_sync"])))]
#[put("/me/publication")]
pub async fn put_publication(
    auth: Auth<AnyRole>,
    state: web::Data<AppState>,
    body: Body<PublicationChoice>,
) -> ApiResult<HttpResponse> {
    let b = body.into_inner()?;
    let player = auth.principal.player_id.ok_or_else(|| {
        ApiError::invalid(
            "account",
            "your account is not linked to a player; ask the leader to record it",
        )
    })?;
    let actor = auth.principal.label;
    let publication = state
        .tx(move |c| svc::set_own_publication(c, player, b.publication, &actor))
        .await?;
    Ok(HttpResponse::Ok().json(PublicationChoice { publication }))
}
