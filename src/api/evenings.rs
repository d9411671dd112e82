//! The evening page in one call: an evening with every competition's round on it
//! (`GET /evenings/{id}`, `GET /evenings/next`), and the calendar's evenings by date across
//! seasons (`GET /evenings`) (docs/api-guide.md#the-evening-page,
//! docs/decisions/0191-evening-read-models.md).

use crate::api::PageParams;
use crate::api::calendar::EveningView;
use crate::auth::{MaybeAuth, Role};
use crate::error::{ApiError, ApiResult, Problem};
use crate::services::evenings::{self as svc, EveningDetail, EveningFilter, Which};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, get, web};
use clubcomp_engine::EveningKind;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

crate::api::paged_query! {
    /// What a list of evenings may be filtered by.
    #[derive(Debug, Deserialize, IntoParams)]
    #[into_params(parameter_in = Query)]
    #[serde(deny_unknown_fields)]
    pub struct EveningQuery {
        /// The first date (YYYY-MM-DD, years 1900–2200).
        #[param(value_type = Option<crate::api::date::ApiDate>)]
        pub from: Option<String>,
        /// The last date (YYYY-MM-DD); at most 400 days after `from`.
        #[param(value_type = Option<crate::api::date::ApiDate>)]
        pub to: Option<String>,
        /// The kind: `keizer`, `rapid`, `closed`, `playoff`, `blitz` or `free`.
        #[param(value_type = Option<crate::api::calendar::EveningKind>)]
        pub kind: Option<String>,
        /// The season id.
        pub season: Option<i64>,
    }
}

impl EveningQuery {
    /// The filter, every field checked (422 naming each one that does not fit).
    fn filter(&self) -> ApiResult<EveningFilter> {
        let mut errs = Vec::new();
        let mut date = |name: &str, v: &Option<String>| match v {
            Some(text) => match crate::api::date::field(name, text) {
                Ok(d) => Some(d),
                Err(e) => {
                    errs.push(e);
                    None
                }
            },
            None => None,
        };
        let from = date("from", &self.from);
        let to = date("to", &self.to);
        let kind = match self.kind.as_deref().map(str::parse::<EveningKind>) {
            Some(Ok(k)) => Some(k),
            Some(Err(_)) => {
                errs.push(crate::error::FieldError::new(
                    "kind",
                    format!(
                        "must be one of {}",
                        crate::api::calendar::EVENING_KINDS.join(", ")
                    ),
                ));
                None
            }
            None => None,
        };
        if !errs.is_empty() {
            return Err(ApiError::validation(errs));
        }
        let f = EveningFilter {
            from,
            to,
            kind,
            season: self.season,
        };
        f.check()?;
        Ok(f)
    }
}

/// A page of evenings.
#[derive(Debug, Serialize, ToSchema)]
pub struct EveningPage {
    /// The evenings, by date then id.
    pub items: Vec<EveningView>,
    /// Total matching.
    pub total: i64,
    /// Page number.
    pub page: u32,
    /// Page size.
    pub per_page: u32,
}

/// Whether the caller is of the club's staff (sees unpublished pairings and sign-off notes).
fn insider(auth: &MaybeAuth) -> bool {
    auth.0
        .as_ref()
        .is_some_and(|p| p.has_any(&[Role::Leader, Role::Arbiter, Role::Admin]))
}

/// The evening a read names, served from the read cache under its version.
async fn serve(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    which: Which,
    insider: bool,
) -> ApiResult<HttpResponse> {
    let tz = state.config.club_timezone.name().to_string();
    let doc = if insider {
        "evening-staff"
    } else {
        "evening-public"
    };
    crate::cached::serve_versioned(
        state,
        req,
        doc,
        move |c| {
            let e = svc::find(c, which)?;
            let v = svc::version(c, &e)?;
            Ok((e.id.get(), v, svc::etag(e.id.get(), v, insider), e))
        },
        move |c, e, tag| {
            let view = svc::detail(c, e, insider, &tz, tag)?;
            serde_json::to_vec(&view).map_err(|e| ApiError::Internal(e.to_string()))
        },
    )
    .await
}

/// One evening with every competition's round played on it: boards with names and ratings,
/// byes, absentees, results (public; the boards of an unpublished round and sign-off notes
/// for leaders, arbiters and admins only). Served from the read cache; `ETag` from the
/// evening's version and its season's competitions, `If-None-Match` → 304.
#[utoipa::path(tag = "seasons",
    params(("id" = i64, Path, description = "Evening id"),
           ("If-None-Match" = Option<String>, Header, description = "ETag of a previous read")),
    responses((status = 200, description = "The evening", body = EveningDetail,
            headers(("ETag" = String, description = "The document's version"))),
        (status = 304, description = "Not modified",
            headers(("ETag" = String, description = "The document's version"))),
        (status = 404, description = "No such evening", body = Problem, content_type = "application/problem+json")))]
#[get("/evenings/{id}")]
pub async fn get_evening(
    auth: MaybeAuth,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    serve(
        &state,
        &req,
        Which::Id(crate::ids::EveningId(path.into_inner())),
        insider(&auth),
    )
    .await
}

/// The next evening: the first one on or after today (in the club's time zone) that is not
/// closed, as `GET /evenings/{id}` answers it. 404 when the calendar has none.
#[utoipa::path(tag = "seasons",
    params(("If-None-Match" = Option<String>, Header, description = "ETag of a previous read")),
    responses((status = 200, description = "The next evening", body = EveningDetail,
            headers(("ETag" = String, description = "The document's version"))),
        (status = 304, description = "Not modified",
            headers(("ETag" = String, description = "The document's version"))),
        (status = 404, description = "No evening to come", body = Problem, content_type = "application/problem+json")))]
#[get("/evenings/next")]
pub async fn get_next_evening(
    auth: MaybeAuth,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let today = state.today();
    serve(&state, &req, Which::OnOrAfter(today), insider(&auth)).await
}

/// The calendar's evenings by date then id, across seasons (public), filtered by date range
/// (at most 400 days), kind and season, a page at a time.
#[utoipa::path(tag = "seasons", params(EveningQuery),
    responses((status = 200, description = "Evenings", body = EveningPage,
            headers(("Link" = String, description = "RFC 8288 links to the first, previous, next and last pages"))),
        (status = 400, description = "Bad or unknown query parameter", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Bad date, kind, range or paging", body = Problem, content_type = "application/problem+json")))]
#[get("/evenings")]
pub async fn list_all_evenings(
    req: HttpRequest,
    state: web::Data<AppState>,
    q: crate::api::Query<EveningQuery>,
) -> ApiResult<HttpResponse> {
    let (limit, offset, page, per_page) = PageParams::of(q.page, q.per_page).resolve()?;
    let f = q.filter()?;
    let (rows, total) = state.db(move |c| svc::list(c, &f, limit, offset)).await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Link", crate::api::page_links(&req, page, per_page, total)))
        .json(EveningPage {
            items: rows.into_iter().map(EveningView::from).collect(),
            total,
            page,
            per_page,
        }))
}
