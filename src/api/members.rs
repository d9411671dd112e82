//! The member list in one go (docs/api-guide.md#importing-the-members).

use crate::auth::{Auth, Leader};
use crate::error::{ApiError, ApiResult, Problem};
use crate::services::member_import::{self as svc, ImportReport, MemberRow};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

/// The members of a JSON import.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"members": [{"name": "Anna de Vries", "email": "anna@club.example",
    "knsb_number": "8401234", "membership": "fixed", "rating": 1834, "language": "nl"}]}))]
pub struct MemberList {
    /// The rows, 1 to 1,000.
    #[schema(min_items = 1, max_items = 1000)]
    pub members: Vec<MemberRow>,
}

/// How to import.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ImportOptions {
    /// Answer what the import would do, and write nothing.
    #[serde(default)]
    pub dry_run: bool,
    /// Invite every account of the list that has no password and no live invitation yet.
    #[serde(default)]
    pub invite: bool,
}

/// Imports the member list: a CSV (`text/csv`, or its bytes as `application/octet-stream`: a header naming the columns `name`, `email`,
/// `membership` and optionally `knsb_number`, `rating`, `language`; comma or semicolon; UTF-8)
/// or JSON. Each row's player is found by KNSB number, then by address, or created, and gets
/// a member account of the row's address linked to it, without a password (an invitation
/// sets it). All rows or none: every bad row is named with its line (or index) and column.
/// The same list imported again changes nothing.
#[utoipa::path(tag = "users", params(ImportOptions),
    request_body(content(
        (MemberList = "application/json"),
        (inline(crate::schemas::FileBody) = "application/octet-stream", example = json!("name,email,knsb_number,membership,rating,language\r\nAnna de Vries,anna@club.example,8401234,fixed,1834,nl\r\n")))),
    responses((status = 200, description = "What the import did, or would do", body = ImportReport),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Neither admin nor leader", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "A body larger than `MAX_BODY_BYTES`", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Neither CSV (text/csv, application/octet-stream) nor application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Bad rows, each named; nothing written", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin", "leader"])))]
#[post("/members/import")]
pub async fn import_members(
    _a: Auth<Leader>,
    req: HttpRequest,
    state: web::Data<AppState>,
    q: crate::api::Params<ImportOptions>,
    body: web::Bytes,
) -> ApiResult<HttpResponse> {
    let opts = q.into_inner()?;
    let media = req
        .headers()
        .get(actix_web::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let rows = if media.starts_with("text/csv") || media.starts_with("application/octet-stream") {
        svc::parse_csv(&body)?
    } else if media.starts_with("application/json") {
        svc::from_json(crate::api::json_bytes::<MemberList>(&body)?.members)?
    } else {
        return Err(ApiError::UnsupportedMediaType(
            "expected Content-Type: text/csv, application/octet-stream or application/json".into(),
        ));
    };
    let (st, today) = (state.clone(), state.today());
    let report = state
        .tx(move |c| {
            let now = crate::services::date::now_utc();
            svc::import(
                c,
                &st.config.mail,
                &rows,
                (opts.dry_run, opts.invite),
                today,
                now,
            )
        })
        .await?;
    Ok(HttpResponse::Ok().json(report))
}
