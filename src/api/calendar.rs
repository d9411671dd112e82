//! The season calendar (SPEC §5): evenings with date, start time and kind; edited by the
//! leader. Generation of a proposed calendar and the iCalendar feed live here too.

use crate::api::{Body, check_if_match, etag, if_match};
use crate::app::AppState;
use crate::auth::{Auth, Leader};
use crate::db::DbConn;
use crate::db::models::competition::Evening;
use crate::db::schema::evenings as ev;
use crate::error::{ApiError, ApiResult, FieldError, Problem};
use actix_web::{HttpRequest, HttpResponse, get, patch, web};
use chrono::NaiveDate;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Evening kinds.
pub const EVENING_KINDS: [&str; 6] = ["keizer", "rapid", "closed", "playoff", "blitz", "free"];

/// An evening as shown.
#[derive(Debug, Serialize, ToSchema)]
pub struct EveningView {
    /// Id.
    pub id: i64,
    /// The season.
    pub season_id: i64,
    /// Date.
    pub date: NaiveDate,
    /// Local start time (HH:MM, club time zone).
    pub start_time: String,
    /// `keizer`, `rapid`, `closed`, `playoff`, `blitz` or `free`.
    pub kind: String,
    /// `winter` or `summer` for Keizer evenings.
    pub half: Option<String>,
    /// Number within the half (Keizer) or the series (rapid, playoff).
    pub number: Option<i32>,
    /// Note.
    pub note: Option<String>,
    /// Version (ETag).
    pub version: i64,
}

impl From<Evening> for EveningView {
    fn from(e: Evening) -> Self {
        EveningView {
            id: e.id,
            season_id: e.season_id,
            date: e.date,
            start_time: e.start_time,
            kind: e.kind,
            half: e.half,
            number: e.number,
            note: e.note,
            version: e.version,
        }
    }
}

/// Changes to an evening.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateEvening {
    /// New date (YYYY-MM-DD).
    pub date: Option<String>,
    /// New start time (HH:MM).
    pub start_time: Option<String>,
    /// New kind.
    pub kind: Option<String>,
    /// Note (null clears).
    #[serde(default, deserialize_with = "crate::api::double_option")]
    #[schema(value_type = Option<String>)]
    pub note: Option<Option<String>>,
}

/// Loads an evening or 404.
pub fn load_evening(c: &mut DbConn, id: i64) -> ApiResult<Evening> {
    ev::table
        .find(id)
        .select(Evening::as_select())
        .first(c)
        .optional()?
        .ok_or_else(|| ApiError::NotFound(format!("no evening {id}")))
}

/// The evenings of a season by date.
pub fn evenings_of(c: &mut DbConn, season: i64) -> ApiResult<Vec<Evening>> {
    Ok(ev::table
        .filter(ev::season_id.eq(season))
        .order(ev::date)
        .select(Evening::as_select())
        .load(c)?)
}

/// Checks `HH:MM`.
pub fn valid_time(s: &str) -> bool {
    chrono::NaiveTime::parse_from_str(s, "%H:%M").is_ok() && s.len() == 5
}

/// The season calendar as JSON (public).
#[utoipa::path(tag = "seasons", params(("id" = i64, Path, description = "Season id")),
    responses((status = 200, description = "Evenings by date", body = Vec<EveningView>),
        (status = 404, description = "No such season", body = Problem, content_type = "application/problem+json")))]
#[get("/seasons/{id}/evenings")]
pub async fn list_evenings(
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let rows = state
        .db(move |c| {
            crate::api::seasons::load(c, id)?;
            evenings_of(c, id)
        })
        .await?;
    Ok(HttpResponse::Ok().json(rows.into_iter().map(EveningView::from).collect::<Vec<_>>()))
}

/// Edits an evening (date, start time, kind, note).
#[utoipa::path(tag = "seasons", request_body = UpdateEvening,
    params(("id" = i64, Path, description = "Evening id"),
           ("If-Match" = Option<String>, Header, description = "ETag from a previous read")),
    responses((status = 200, description = "Updated", body = EveningView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such evening", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Another evening has that date", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "Stale If-Match", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid fields", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[patch("/evenings/{id}")]
pub async fn update_evening(
    _a: Auth<Leader>,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    body: Body<UpdateEvening>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let mut errs = Vec::new();
    let date = match &b.date {
        Some(d) => match NaiveDate::parse_from_str(d, "%Y-%m-%d") {
            Ok(x) => Some(x),
            Err(_) => {
                errs.push(FieldError::new("date", "must be a date YYYY-MM-DD"));
                None
            }
        },
        None => None,
    };
    if b.start_time.as_deref().is_some_and(|t| !valid_time(t)) {
        errs.push(FieldError::new("start_time", "must be HH:MM"));
    }
    if b.kind
        .as_deref()
        .is_some_and(|k| !EVENING_KINDS.contains(&k))
    {
        errs.push(FieldError::new(
            "kind",
            format!("must be one of {}", EVENING_KINDS.join(", ")),
        ));
    }
    if !errs.is_empty() {
        return Err(ApiError::validation(errs));
    }
    let im = if_match(&req)?;
    let e = state
        .tx(move |c| {
            let cur = load_evening(c, id)?;
            check_if_match(im.as_deref(), &etag("evening", cur.id, cur.version))?;
            diesel::update(ev::table.find(id))
                .set((
                    ev::date.eq(date.unwrap_or(cur.date)),
                    ev::start_time.eq(b.start_time.unwrap_or(cur.start_time)),
                    ev::kind.eq(b.kind.unwrap_or(cur.kind)),
                    ev::note.eq(b.note.unwrap_or(cur.note)),
                    ev::version.eq(ev::version + 1),
                ))
                .execute(c)?;
            crate::db::models::competition::bump_stamp(c, &format!("season:{}", cur.season_id))?;
            load_evening(c, id)
        })
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header(("ETag", etag("evening", e.id, e.version)))
        .json(EveningView::from(e)))
}
