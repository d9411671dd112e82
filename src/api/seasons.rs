//! Seasons (docs/rules/keizer.md#calendar). The calendar lives in `calendar.rs`.

use crate::api::Body;
use crate::api::{Page, PageParams};
use crate::auth::{Auth, Leader};
use crate::error::{ApiResult, Problem};
use crate::ids::SeasonId;
use crate::services::seasons as svc;
use crate::services::seasons::Season;
pub use crate::services::seasons::load;
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A season.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeasonView {
    /// Id.
    pub id: i64,
    /// Name, e.g. `2026-2027`.
    pub name: String,
    /// The season opening (Schaak-Off).
    pub opening_date: NaiveDate,
}

impl From<Season> for SeasonView {
    fn from(x: Season) -> Self {
        SeasonView {
            id: x.id.get(),
            name: x.name,
            opening_date: x.opening_date,
        }
    }
}

/// A new season.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "2026-2027", "opening_date": "2026-09-04"}))]
pub struct CreateSeason {
    /// Name (unique; 1–100 characters, not only blanks; leading and trailing blanks are
    /// dropped).
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub name: String,
    /// The season opening date (YYYY-MM-DD, years 1900–2200).
    #[schema(value_type = crate::api::date::ApiDate)]
    pub opening_date: String,
}

/// Creates a season.
#[utoipa::path(tag = "seasons", request_body = CreateSeason,
    responses((status = 201, description = "Created", body = SeasonView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Name taken", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid fields", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[post("/seasons")]
pub async fn create_season(
    _a: Auth<Leader>,
    state: web::Data<AppState>,
    body: Body<CreateSeason>,
) -> ApiResult<HttpResponse> {
    let b = body.into_inner()?;
    let name = crate::services::input::checked_name("name", &b.name)?;
    let opening = crate::api::date::parse("opening_date", &b.opening_date)?;
    let season = state.tx(move |c| svc::create(c, name, opening)).await?;
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/api/v1/seasons/{}", season.id)))
        .json(SeasonView::from(season)))
}

/// Lists seasons, newest first: by opening date, then id, descending (public; a page,
/// docs/api-guide.md#paging).
#[utoipa::path(tag = "seasons", params(PageParams),
    responses((status = 200, description = "Seasons, newest first", body = Page<SeasonView>,
            headers(("Link" = String, description = "RFC 8288 links to the first, previous, next and last pages"))),
        (status = 400, description = "Unknown query parameter", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Bad paging", body = Problem, content_type = "application/problem+json")))]
#[get("/seasons")]
pub async fn list_seasons(
    req: HttpRequest,
    state: web::Data<AppState>,
    q: crate::api::Params<PageParams>,
) -> ApiResult<HttpResponse> {
    let paging = q.into_inner()?.paging()?;
    let (rows, total) = state
        .db(move |c| svc::page(c, paging.limit, paging.offset))
        .await?;
    let items: Vec<SeasonView> = rows.into_iter().map(SeasonView::from).collect();
    Ok(paging.answer(&req, total, items))
}

/// One season (public).
#[utoipa::path(tag = "seasons", params(("id" = i64, Path, description = "Season id")),
    responses((status = 200, description = "The season", body = SeasonView),
        (status = 404, description = "No such season", body = Problem, content_type = "application/problem+json")))]
#[get("/seasons/{id}")]
pub async fn get_season(
    state: web::Data<AppState>,
    path: web::Path<SeasonId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let season = state.db(move |c| load(c, id)).await?;
    Ok(HttpResponse::Ok().json(SeasonView::from(season)))
}
