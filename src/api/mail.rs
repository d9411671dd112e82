//! The mail delivery log (admin only; docs/api-guide.md#mail).

use crate::api::{Page, PageParams, Params};
use crate::auth::{Admin, Auth};
use crate::error::{ApiResult, Problem};
use crate::services::mail::{self as svc, MailStatus, MailView};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, get, web};
use serde::Deserialize;
use utoipa::IntoParams;

crate::api::paged_query! {
    /// The mail log's query.
    #[derive(Debug, Deserialize, IntoParams)]
    #[into_params(parameter_in = Query)]
    #[serde(deny_unknown_fields)]
    pub struct MailFilter {
        /// Only mails of this status.
        #[param(value_type = Option<MailStatus>)]
        pub status: Option<String>,
    }
}

/// The mails queued and sent, newest first: recipient, subject, status, attempts and the last
/// error (never the bodies, which may hold single-use links and are cleared once sent).
#[utoipa::path(tag = "mail", params(MailFilter),
    responses((status = 200, description = "Mails, newest first", body = Page<MailView>,
            headers(("Link" = String, description = "RFC 8288 links to the first, previous, next and last pages"))),
        (status = 400, description = "Bad query", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Bad status or paging", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin"])))]
#[get("/mail/deliveries")]
pub async fn list_mail_deliveries(
    req: HttpRequest,
    _a: Auth<Admin>,
    state: web::Data<AppState>,
    q: Params<MailFilter>,
) -> ApiResult<HttpResponse> {
    let f = q.into_inner()?;
    let paging = PageParams::of(f.page, f.per_page).paging()?;
    let status = match f.status.as_deref() {
        Some(s) => Some(svc::check_status("status", s)?),
        None => None,
    };
    let (items, total) = state
        .db(move |c| svc::deliveries(c, status, paging.limit, paging.offset))
        .await?;
    Ok(paging.answer(&req, total, items))
}
