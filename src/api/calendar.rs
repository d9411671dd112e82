//! The season calendar (docs/rules/keizer.md#calendar): evenings with date, start time and kind; edited by the
//! leader. Generation of a proposed calendar and the iCalendar feed live here too.

use crate::api::date::{self, ApiDate};
use crate::api::{Body, etag, if_match};
use crate::auth::{Auth, Leader};
use crate::error::{ApiError, ApiResult, FieldError, Problem};
use crate::ids::{EveningId, SeasonId};
use crate::services::calendar as svc;
use crate::services::calendar::Evening;
pub use crate::services::calendar::{
    EVENING_KINDS, GenerateCalendar, calendar_input, default_season_end, evenings_of, load_evening,
    proposed_rows, store_calendar, valid_time,
};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, get, patch, post, web};
use chrono::NaiveDate;
use clubcomp_engine::EveningKind as StoredEveningKind;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use crate::schemas::EveningKind;

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
    #[schema(value_type = EveningKind)]
    pub kind: String,
    /// `winter` or `summer` for Keizer evenings.
    #[schema(value_type = Option<crate::api::competitions::KeizerHalf>)]
    #[schema(required = true)]
    pub half: Option<String>,
    /// Number within the half (Keizer) or the series (rapid, playoff).
    #[schema(required = true)]
    pub number: Option<i32>,
    /// Note.
    #[schema(required = true)]
    pub note: Option<String>,
    /// Version (ETag).
    pub version: i64,
    /// The version as the `ETag` a write sends back in `If-Match` (the same as the header).
    pub etag: String,
}

impl From<Evening> for EveningView {
    fn from(e: Evening) -> Self {
        EveningView {
            id: e.id.get(),
            season_id: e.season_id.get(),
            date: e.date,
            start_time: e.start_time,
            kind: e.kind.into(),
            half: e.half.map(String::from),
            number: e.number,
            note: e.note,
            version: e.version,
            etag: crate::services::version::etag("evening", e.id, e.version),
        }
    }
}

/// Changes to an evening.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateEvening {
    /// New date (YYYY-MM-DD, years 1900–2200).
    #[schema(value_type = Option<ApiDate>)]
    pub date: Option<String>,
    /// New start time (HH:MM, 00:00–23:59).
    #[schema(pattern = "^([01][0-9]|2[0-3]):[0-5][0-9]$")]
    pub start_time: Option<String>,
    /// New kind: `keizer`, `rapid`, `closed`, `playoff`, `blitz` or `free`.
    #[schema(value_type = Option<EveningKind>)]
    pub kind: Option<String>,
    /// Note (null clears).
    #[serde(default, deserialize_with = "crate::api::double_option")]
    #[schema(value_type = Option<String>)]
    pub note: Option<Option<String>>,
}

/// The season calendar as JSON, by date then id (public; a page, docs/api-guide.md#paging).
#[utoipa::path(tag = "seasons", params(("id" = i64, Path, description = "Season id"), crate::api::PageParams),
    responses((status = 200, description = "Evenings by date", body = crate::api::Page<EveningView>,
            headers(("Link" = String, description = "RFC 8288 links to the first, previous, next and last pages"))),
        (status = 400, description = "Unknown query parameter", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such season", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Bad paging", body = Problem, content_type = "application/problem+json")))]
#[get("/seasons/{id}/evenings")]
pub async fn list_evenings(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<SeasonId>,
    q: crate::api::Params<crate::api::PageParams>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let paging = q.into_inner()?.paging()?;
    let (rows, total) = state
        .db(move |c| svc::page_of_season(c, id, paging.limit, paging.offset))
        .await?;
    let items: Vec<EveningView> = rows.into_iter().map(EveningView::from).collect();
    Ok(paging.answer(&req, total, items))
}

/// Edits an evening (date, start time, kind, note). A new date or kind moves, drops or adds the
/// planned rounds of the Keizer halves on it (docs/rules/keizer.md#rounds-from-the-calendar).
#[utoipa::path(tag = "seasons", request_body = UpdateEvening,
    params(("id" = i64, Path, description = "Evening id"),
           ("If-Match" = Option<String>, Header, description = "ETag from a previous read")),
    responses((status = 200, description = "Updated", body = EveningView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such evening", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Another evening has that date, a round on it was paired, or a planned round would move on or before a paired one", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "Stale If-Match", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid fields", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[patch("/evenings/{id}")]
pub async fn update_evening(
    _a: Auth<Leader>,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<EveningId>,
    body: Body<UpdateEvening>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let mut errs = Vec::new();
    let date = match &b.date {
        Some(d) => match date::field("date", d) {
            Ok(x) => Some(x),
            Err(e) => {
                errs.push(e);
                None
            }
        },
        None => None,
    };
    if let Some(Some(Err(e))) = b.note.as_ref().map(|n| {
        n.as_deref()
            .map(|n| crate::services::input::one_line("note", n))
    }) {
        errs.push(e);
    }
    if b.start_time.as_deref().is_some_and(|t| !valid_time(t)) {
        errs.push(FieldError::new("start_time", "must be HH:MM"));
    }
    let kind = match b.kind.as_deref().map(str::parse::<StoredEveningKind>) {
        Some(Ok(k)) => Some(k),
        Some(Err(_)) => {
            errs.push(FieldError::new(
                "kind",
                format!("must be one of {}", EVENING_KINDS.join(", ")),
            ));
            None
        }
        None => None,
    };
    if !errs.is_empty() {
        return Err(ApiError::validation(errs));
    }
    let im = if_match(&req)?;
    let changes = svc::EveningChanges {
        date,
        start_time: b.start_time,
        kind,
        note: b.note,
    };
    let e = state
        .tx(move |c| svc::update_evening(c, id, &im, changes))
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header(("ETag", etag("evening", e.id, e.version)))
        .json(EveningView::from(e)))
}

/// Generates the proposed calendar of a season (docs/rules/keizer.md#calendar) from its opening date, the KNSB round
/// dates and the closed dates, and stores its evenings (Fridays: Keizer 20:15, rapid 20:30,
/// closed, playoff, free), with the planned rounds of the season's Keizer halves
/// (docs/rules/keizer.md#rounds-from-the-calendar). 409 when the season already has a
/// calendar, unless `replace` is true and no round on its evenings was paired or holds a
/// sign-up or sign-off.
#[utoipa::path(tag = "seasons", request_body = GenerateCalendar,
    params(("id" = i64, Path, description = "Season id")),
    responses((status = 201, description = "The stored calendar, by date", body = Vec<EveningView>),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such season", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The season already has a calendar, or a round uses it", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid dates, or no calendar fits the season", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[post("/seasons/{id}/calendar")]
pub async fn create_calendar(
    _a: Auth<Leader>,
    state: web::Data<AppState>,
    path: web::Path<SeasonId>,
    body: Body<GenerateCalendar>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let rows = state.tx(move |c| svc::generate(c, id, &b)).await?;
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/api/v1/seasons/{id}/evenings")))
        .json(rows.into_iter().map(EveningView::from).collect::<Vec<_>>()))
}

/// The season calendar as iCalendar (RFC 5545, public): one VEVENT per evening, local times
/// in Europe/Amsterdam with its VTIMEZONE, a UID that stays the same for an evening.
#[utoipa::path(tag = "seasons", params(("id" = i64, Path, description = "Season id")),
    responses((status = 200, description = "The calendar", body = String, content_type = "text/calendar"),
        (status = 404, description = "No such season", body = Problem, content_type = "application/problem+json")))]
#[get("/seasons/{id}/calendar.ics")]
pub async fn get_calendar_ics(
    state: web::Data<AppState>,
    path: web::Path<SeasonId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let (season, rows) = state.db(move |c| svc::season_calendar(c, id)).await?;
    let stamp = crate::services::date::now_utc()
        .format("%Y%m%dT%H%M%SZ")
        .to_string();
    let body = ics(&season.name, &rows, &stamp);
    Ok(HttpResponse::Ok()
        .content_type("text/calendar; charset=utf-8")
        .insert_header((
            "Content-Disposition",
            format!("inline; filename=\"season-{id}.ics\""),
        ))
        .body(body))
}

const VTIMEZONE_AMSTERDAM: [&str; 16] = [
    "BEGIN:VTIMEZONE",
    "TZID:Europe/Amsterdam",
    "BEGIN:DAYLIGHT",
    "TZOFFSETFROM:+0100",
    "TZOFFSETTO:+0200",
    "TZNAME:CEST",
    "DTSTART:19810329T020000",
    "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
    "END:DAYLIGHT",
    "BEGIN:STANDARD",
    "TZOFFSETFROM:+0200",
    "TZOFFSETTO:+0100",
    "TZNAME:CET",
    "DTSTART:19961027T030000",
    "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
    "END:STANDARD",
];

/// Escapes an iCalendar TEXT value (RFC 5545 §3.3.11).
pub fn ics_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Folds a content line at 75 octets (RFC 5545 §3.1): CRLF plus one space, never inside a
/// UTF-8 character; appends the line's CRLF.
pub fn ics_fold(line: &str, out: &mut String) {
    let mut used = 0;
    for ch in line.chars() {
        let n = ch.len_utf8();
        if used + n > 75 {
            out.push_str("\r\n ");
            used = 1;
        }
        out.push(ch);
        used += n;
    }
    out.push_str("\r\n");
}

/// The summary of an evening by kind.
pub fn ics_summary(e: &Evening) -> String {
    let half = e.half.map(|h| format!(" {h}")).unwrap_or_default();
    let no = e.number.map(|n| format!(" {n}")).unwrap_or_default();
    match e.kind {
        StoredEveningKind::Keizer => format!("Keizer{half} evening{no}"),
        StoredEveningKind::Rapid => format!("Rapid evening{no}"),
        StoredEveningKind::Playoff => format!("Playoffs round{no}"),
        StoredEveningKind::Blitz => "Blitz championship".to_string(),
        StoredEveningKind::Closed => "Club closed".to_string(),
        StoredEveningKind::Free => "Club evening".to_string(),
    }
}

/// The calendar as iCalendar text (CRLF line endings, folded lines). Closed evenings are
/// all-day, transparent events; the others start at their local time in Europe/Amsterdam and
/// last 3 h 45 min (decision: `docs/decisions/0010-calculators-calendar-demo.md`).
pub fn ics(name: &str, rows: &[Evening], dtstamp: &str) -> String {
    let mut out = String::new();
    let mut line = |s: &str| ics_fold(s, &mut out);
    line("BEGIN:VCALENDAR");
    line("VERSION:2.0");
    line(&format!(
        "PRODID:-//clubcomp//clubcomp {}//EN",
        env!("CARGO_PKG_VERSION")
    ));
    line("CALSCALE:GREGORIAN");
    line("METHOD:PUBLISH");
    line(&format!("X-WR-CALNAME:{}", ics_escape(name)));
    line("X-WR-TIMEZONE:Europe/Amsterdam");
    for l in VTIMEZONE_AMSTERDAM {
        line(l);
    }
    line("END:VTIMEZONE");
    for e in rows {
        line("BEGIN:VEVENT");
        line(&format!(
            "UID:clubcomp-evening-{}-season-{}",
            e.id, e.season_id
        ));
        line(&format!("DTSTAMP:{dtstamp}"));
        let date = e.date.format("%Y%m%d");
        let time = chrono::NaiveTime::parse_from_str(&e.start_time, "%H:%M").ok();
        match (e.kind, time) {
            (StoredEveningKind::Closed, _) | (_, None) => {
                line(&format!("DTSTART;VALUE=DATE:{date}"));
                let next = e.date.succ_opt().unwrap_or(e.date).format("%Y%m%d");
                line(&format!("DTEND;VALUE=DATE:{next}"));
                line("TRANSP:TRANSPARENT");
            }
            (_, Some(t)) => {
                line(&format!(
                    "DTSTART;TZID=Europe/Amsterdam:{date}T{}",
                    t.format("%H%M%S")
                ));
                line("DURATION:PT3H45M");
            }
        }
        line(&format!("SEQUENCE:{}", (e.version - 1).max(0)));
        line(&format!("SUMMARY:{}", ics_escape(&ics_summary(e))));
        if let Some(n) = &e.note {
            line(&format!("DESCRIPTION:{}", ics_escape(n)));
        }
        line("END:VEVENT");
    }
    line("END:VCALENDAR");
    out
}
