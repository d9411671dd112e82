//! Ratings (docs/rules/README.md#players-and-ratings): history per player and source, the rating on a date, the bulk push
//! for rating-sync jobs and the KNSB rating-list CSV import.

use crate::api::{Page, PageParams};
use crate::auth::{Auth, RatingSync};
use crate::error::{ApiError, ApiResult, Problem};
use crate::ids::PlayerId;
use crate::services::ratings::Rating;
use crate::services::ratings::{PushReport, RatingList, RatingSource};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, get, post, put, web};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// One stored rating.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingView {
    /// `KNSB`, `KNSB-rapid`, `FIDE` or `KNDB`.
    pub source: RatingSource,
    /// The rating.
    pub value: i32,
    /// The list's date.
    pub list_date: NaiveDate,
}

impl From<Rating> for RatingView {
    fn from(r: Rating) -> Self {
        RatingView {
            source: r.source,
            value: r.value,
            list_date: r.list_date,
        }
    }
}

crate::api::paged_query! {
    /// History filter.
    #[derive(Debug, Deserialize, IntoParams)]
    #[into_params(parameter_in = Query)]
    #[serde(deny_unknown_fields)]
    pub struct HistoryFilter {
        /// Only this source.
        #[param(value_type = Option<RatingSource>, inline)]
        pub source: Option<String>,
    }
}

/// Rating-on-date query.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OnDate {
    /// The source (`KNSB`, `KNSB-rapid`, `FIDE`, `KNDB`).
    #[param(value_type = RatingSource, inline)]
    pub source: String,
    /// The date (YYYY-MM-DD, years 1900–2200): the newest list dated on or before it counts.
    #[param(value_type = crate::api::date::ApiDate)]
    pub date: String,
}

/// KNSB import query.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ImportQuery {
    /// The list's date (YYYY-MM-DD, years 1900–2200).
    #[param(value_type = crate::api::date::ApiDate)]
    pub list_date: String,
}

fn parse_source(s: &str) -> ApiResult<RatingSource> {
    s.parse().map_err(|_| {
        ApiError::invalid(
            "source",
            format!("must be one of {}", RatingSource::NAMES.join(", ")),
        )
    })
}

fn parse_date(field: &str, s: &str) -> ApiResult<NaiveDate> {
    crate::api::date::parse(field, s)
}

/// A player's rating history, newest list first, then by source (public; a page,
/// docs/api-guide.md#paging).
#[utoipa::path(tag = "ratings", params(("id" = i64, Path, description = "Player id"), HistoryFilter),
    responses((status = 200, description = "History, newest list first", body = Page<RatingView>,
            headers(("Link" = String, description = "RFC 8288 links to the first, previous, next and last pages"))),
        (status = 400, description = "Bad or unknown query parameter", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such player", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Unknown source, or bad paging", body = Problem, content_type = "application/problem+json")))]
#[get("/players/{id}/ratings")]
pub async fn list_player_ratings(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<PlayerId>,
    q: crate::api::Query<HistoryFilter>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let q = q.into_inner();
    let paging = PageParams::of(q.page, q.per_page).paging()?;
    let source = q.source.as_deref().map(parse_source).transpose()?;
    let (rows, total) = state
        .db(move |c| {
            crate::services::ratings::history_page(c, id, source, paging.limit, paging.offset)
        })
        .await?;
    let items = rows.into_iter().map(RatingView::from).collect();
    Ok(paging.answer(&req, total, items))
}

/// A player's rating on a date: the newest list dated on or before it (public).
#[utoipa::path(tag = "ratings", params(("id" = i64, Path, description = "Player id"), OnDate),
    responses((status = 200, description = "The rating", body = RatingView),
        (status = 404, description = "No such player, or no rating on that date", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Bad source or date", body = Problem, content_type = "application/problem+json")))]
#[get("/players/{id}/rating")]
pub async fn get_player_rating(
    state: web::Data<AppState>,
    path: web::Path<PlayerId>,
    q: crate::api::Query<OnDate>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let q = q.into_inner();
    let source = parse_source(&q.source)?;
    let d = parse_date("date", &q.date)?;
    let r = state
        .db(move |c| crate::services::ratings::on_date(c, id, source, d))
        .await?;
    Ok(HttpResponse::Ok().json(RatingView::from(r)))
}

/// Pushes a rating list (atomic, idempotent): by KNSB number or FIDE id. A malformed list is
/// rejected as a whole with row-level errors and changes nothing.
#[utoipa::path(tag = "ratings", request_body = RatingList,
    responses((status = 200, description = "What the push did", body = PushReport),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not rating_sync or admin", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Malformed list (row-level errors); nothing written", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["rating_sync", "admin"])))]
#[put("/ratings")]
pub async fn push_ratings(
    _auth: Auth<RatingSync>,
    state: web::Data<AppState>,
    body: crate::api::Body<RatingList>,
) -> ApiResult<HttpResponse> {
    let list = body.into_inner()?;
    let report = state
        .tx(move |c| crate::services::ratings::push(c, &list))
        .await?;
    Ok(HttpResponse::Ok().json(report))
}

/// Imports a KNSB rating-list CSV (`Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S`,
/// Windows-1252; the body as it is: sent as `application/octet-stream` or `text/csv`) as KNSB
/// ratings of known players, atomically.
#[utoipa::path(tag = "ratings", params(ImportQuery),
    request_body(content = inline(crate::schemas::FileBody), content_type = "application/octet-stream",
        description = "The KNSB rating list as its file's bytes (`text/csv` is taken too)"),
    responses((status = 200, description = "What the import did", body = PushReport),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not rating_sync or admin", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Malformed file (line-level errors); nothing written", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["rating_sync", "admin"])))]
#[post("/ratings/knsb-import")]
pub async fn import_knsb_ratings(
    _auth: Auth<RatingSync>,
    state: web::Data<AppState>,
    q: crate::api::Params<ImportQuery>,
    body: web::Bytes,
) -> ApiResult<HttpResponse> {
    let list_date = q.into_inner()?.list_date;
    parse_date("list_date", &list_date)?;
    let rows = crate::services::ratings::parse_knsb_csv(&body)?;
    if rows.is_empty() {
        return Err(ApiError::invalid("file", "contains no ratings"));
    }
    let list = RatingList {
        source: RatingSource::Knsb.to_string(),
        list_date,
        ratings: rows,
    };
    let report = state
        .tx(move |c| crate::services::ratings::push(c, &list))
        .await?;
    Ok(HttpResponse::Ok().json(report))
}
