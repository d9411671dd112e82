//! The changes feed (docs/api-guide.md#the-changes-feed): the event log after a cursor, for
//! sync jobs (service tokens) and admins, one page at a time.

use crate::auth::{Auth, RatingSync};
use crate::error::{ApiResult, Problem};
use crate::services::events::Filter;
use crate::services::events::{self as svc, ChangesPage};
use crate::state::AppState;
use actix_web::{HttpResponse, get, web};
use serde::Deserialize;
use utoipa::IntoParams;

/// The feed's query.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ChangesQuery {
    /// The cursor: the `next` of the previous page, or an event id (0, the default: from the
    /// oldest event kept).
    #[param(value_type = Option<String>, pattern = "^[0-9]{1,18}$")]
    pub after: Option<String>,
    /// Only these event types (all when absent): repeat the parameter
    /// (`types=result.entered&types=result.corrected`) or give a comma list
    /// (`types=result.entered,result.corrected`); at most 400 characters in all.
    #[param(value_type = Option<Vec<clubcomp_core::vocab::EventType>>, style = Form, explode)]
    pub types: Option<String>,
    /// The most events on the page: 1 to 1000 (default 100).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 1000)]
    pub limit: Option<String>,
}

/// The events after a cursor, oldest first, with the cursor of the next page. A service token
/// sees the public events; an admin sees all. Follow it by asking again with `after` set to
/// `next` until a page comes back empty.
#[utoipa::path(tag = "events",
    params(ChangesQuery),
    responses((status = 200, description = "A page of events", body = ChangesPage),
        (status = 400, description = "An unknown query parameter", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a service token or an admin", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`after` is no event id, is ahead of the log or below the events purged; an unknown type in `types`, or `types` longer than 400 characters; `limit` out of range", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["rating_sync", "admin"])))]
#[get("/changes")]
pub async fn get_changes(
    a: Auth<RatingSync>,
    state: web::Data<AppState>,
    q: crate::api::ListQuery<ChangesQuery>,
) -> ApiResult<HttpResponse> {
    let q = q.into_inner();
    let after = match q.after.as_deref() {
        Some(t) => svc::parse_cursor("after", t)?,
        None => 0,
    };
    let kinds = match q.types.as_deref() {
        Some(t) => svc::parse_kinds("types", t)?,
        None => Vec::new(),
    };
    let limit = svc::parse_limit(q.limit.as_deref())?;
    let filter = Filter {
        kinds,
        clearance: Some(svc::clearance(&a.principal.roles)),
        ..Filter::default()
    };
    let page = state
        .db(move |c| svc::changes(c, after, &filter, limit))
        .await?;
    Ok(HttpResponse::Ok().json(page))
}
