//! The season calendar (docs/rules/keizer.md#calendar): evenings with date, start time and kind; edited by the
//! leader. Generation of a proposed calendar and the iCalendar feed live here too.

use crate::api::date::{self, ApiDate, in_range};
use crate::api::{Body, check_if_match, etag, if_match};
use crate::app::AppState;
use crate::auth::{Auth, Leader};
use crate::db::DbConn;
use crate::db::models::competition::{Evening, NewEvening};
use crate::db::schema::evenings as ev;
use crate::error::{ApiError, ApiResult, FieldError, Problem};
use actix_web::{HttpRequest, HttpResponse, get, patch, post, web};
use chrono::NaiveDate;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Evening kinds.
pub const EVENING_KINDS: [&str; 6] = ["keizer", "rapid", "closed", "playoff", "blitz", "free"];

crate::openapi::string_enum_schema!(
    pub EveningKind,
    "An evening kind: `keizer`, `rapid`, `closed`, `playoff`, `blitz` or `free`.",
    EVENING_KINDS
);

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
        Some(d) => match date::field("date", d) {
            Ok(x) => Some(x),
            Err(e) => {
                errs.push(e);
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

/// What a proposed calendar is generated from (docs/rules/keizer.md#calendar); the opening date is the season's.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"knsb_round_dates": ["2026-09-26", "2026-10-17"], "closed_dates": ["2026-12-25"]}))]
pub struct GenerateCalendar {
    /// Dates of the KNSB competition rounds (YYYY-MM-DD, years 1900–2200, at most 400); the
    /// last Friday before each is a rapid evening.
    #[serde(default)]
    #[schema(value_type = Vec<ApiDate>, max_items = 400)]
    pub knsb_round_dates: Vec<String>,
    /// Dates on which the venue is closed (YYYY-MM-DD, years 1900–2200, at most 400).
    #[serde(default)]
    #[schema(value_type = Vec<ApiDate>, max_items = 400)]
    pub closed_dates: Vec<String>,
    /// Further rapid evenings named by the arbiter (YYYY-MM-DD, years 1900–2200, at most 400).
    #[serde(default)]
    #[schema(value_type = Vec<ApiDate>, max_items = 400)]
    pub extra_rapid_dates: Vec<String>,
    /// Last date of the season, inclusive (years 1900–2200; default 30 June after the
    /// opening; at most two years after the opening).
    #[schema(value_type = Option<ApiDate>)]
    pub season_end: Option<String>,
    /// Replace an existing calendar (allowed only while no round uses one of its evenings).
    #[serde(default)]
    pub replace: bool,
}

/// At most this many dates per list, and a season of at most two years (one evening row per
/// Friday is written).
const MAX_DATES: usize = 400;
const MAX_SEASON_DAYS: i64 = 731;

fn parse_dates(field: &str, v: &[String], errs: &mut Vec<FieldError>) -> Vec<NaiveDate> {
    if v.len() > MAX_DATES {
        errs.push(FieldError::new(field, format!("at most {MAX_DATES} dates")));
        return vec![];
    }
    v.iter()
        .enumerate()
        .filter_map(|(i, d)| match date::field(&format!("{field}[{i}]"), d) {
            Ok(x) => Some(x),
            Err(e) => {
                errs.push(e);
                None
            }
        })
        .collect()
}

/// The default season end: 30 June of the year after an opening in July–December, else of
/// the opening's year (decision, docs/rules/keizer.md#calendar is silent; `docs/decisions/0010-calculators-calendar-demo.md`).
pub fn default_season_end(opening: NaiveDate) -> NaiveDate {
    use chrono::Datelike;
    let year = if opening.month() >= 7 {
        opening.year() + 1
    } else {
        opening.year()
    };
    NaiveDate::from_ymd_opt(year, 6, 30).unwrap_or(opening)
}

/// Checks a generation request against the season's opening date: the engine's input, or 422
/// naming every bad field.
pub fn calendar_input(
    opening: NaiveDate,
    b: &GenerateCalendar,
) -> ApiResult<clubcomp_engine::calendar::CalendarInput> {
    let mut errs = Vec::new();
    if !in_range(opening) {
        return Err(ApiError::invalid(
            "opening_date",
            "the season opens outside the years 1900–2200",
        ));
    }
    let knsb_rounds = parse_dates("knsb_round_dates", &b.knsb_round_dates, &mut errs);
    let closed = parse_dates("closed_dates", &b.closed_dates, &mut errs);
    let extra_rapid = parse_dates("extra_rapid_dates", &b.extra_rapid_dates, &mut errs);
    let season_end = match &b.season_end {
        None => default_season_end(opening),
        Some(d) => match date::field("season_end", d) {
            Ok(x) => x,
            Err(e) => {
                errs.push(e);
                opening
            }
        },
    };
    if (season_end - opening).num_days() > MAX_SEASON_DAYS {
        errs.push(FieldError::new(
            "season_end",
            "a season lasts at most two years from its opening",
        ));
    }
    if !errs.is_empty() {
        return Err(ApiError::validation(errs));
    }
    Ok(clubcomp_engine::calendar::CalendarInput {
        opening,
        season_end,
        knsb_rounds,
        closed,
        extra_rapid,
        evenings_per_half: 10,
    })
}

/// The rows of a proposed calendar: the engine's evenings as stored (kind keizer, rapid,
/// closed, playoff or free; the opening evening is `free` with a note).
pub fn proposed_rows(
    season_id: i64,
    input: &clubcomp_engine::calendar::CalendarInput,
) -> ApiResult<Vec<NewEvening>> {
    use clubcomp_engine::calendar::{EveningKind, is_first_friday_of_january, propose_calendar};
    use clubcomp_engine::keizer::pairing::Half;
    let proposal =
        propose_calendar(input).map_err(|e| ApiError::invalid("season_end", e.to_string()))?;
    let mut rapid_no = 0;
    Ok(proposal
        .into_iter()
        .map(|e| {
            let (kind, note) = match e.kind {
                EveningKind::Keizer => ("keizer", None),
                EveningKind::Rapid => ("rapid", None),
                EveningKind::Closed => ("closed", Some("The venue is closed".to_string())),
                EveningKind::Playoff => ("playoff", None),
                EveningKind::Opening => ("free", Some("Season opening (Schaak-Off)".to_string())),
                EveningKind::Free if is_first_friday_of_january(e.date) => (
                    "free",
                    Some("First Friday of January: the summer half may not start here".to_string()),
                ),
                EveningKind::Free => ("free", None),
            };
            // rapid evenings are numbered through the season (decision, docs/rules/keizer.md#calendar, docs/rules/rapid-blitz.md#double-swiss)
            let number = match e.kind {
                EveningKind::Rapid => {
                    rapid_no += 1;
                    Some(rapid_no)
                }
                _ => e.number_in_half.map(|n| n as i32),
            };
            let start = e
                .start_time
                .unwrap_or_else(clubcomp_engine::calendar::playing_start);
            NewEvening {
                season_id,
                date: e.date,
                start_time: start.format("%H:%M").to_string(),
                kind: kind.to_string(),
                half: e.half.map(|h| match h {
                    Half::Winter => "winter".to_string(),
                    Half::Summer => "summer".to_string(),
                }),
                number,
                note,
                version: 1,
            }
        })
        .collect())
}

/// Stores a proposed calendar for a season in the caller's transaction: 409 when the season
/// has evenings and `replace` is false, or when a round uses one of them.
pub fn store_calendar(
    c: &mut DbConn,
    season_id: i64,
    rows: &[NewEvening],
    replace: bool,
) -> ApiResult<Vec<Evening>> {
    use crate::db::schema::rounds;
    // the season's stamp first: its row lock (Postgres; SQLite holds the write lock already)
    // queues concurrent generations, so the later ones see the calendar stored before them
    // (409, or replaced with `replace`) instead of failing on its unique dates
    crate::db::models::competition::bump_stamp(c, &format!("season:{season_id}"))?;
    let existing: Vec<i64> = ev::table
        .filter(ev::season_id.eq(season_id))
        .select(ev::id)
        .load(c)?;
    if !existing.is_empty() {
        if !replace {
            return Err(ApiError::Conflict(format!(
                "season {season_id} already has {} evenings; send replace: true to replace them",
                existing.len()
            )));
        }
        let used: i64 = rounds::table
            .filter(rounds::evening_id.eq_any(&existing))
            .count()
            .get_result(c)?;
        if used > 0 {
            return Err(ApiError::Conflict(format!(
                "{used} rounds use evenings of season {season_id}; its calendar cannot be replaced (edit the evenings instead)"
            )));
        }
        diesel::delete(ev::table.filter(ev::season_id.eq(season_id))).execute(c)?;
    }
    for r in rows {
        diesel::insert_into(ev::table).values(r).execute(c)?;
    }
    evenings_of(c, season_id)
}

/// Generates the proposed calendar of a season (docs/rules/keizer.md#calendar) from its opening date, the KNSB round
/// dates and the closed dates, and stores its evenings (Fridays: Keizer 20:15, rapid 20:30,
/// closed, playoff, free). 409 when the season already has a calendar, unless `replace` is
/// true and no round uses one of its evenings.
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
    path: web::Path<i64>,
    body: Body<GenerateCalendar>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let rows = state
        .tx(move |c| {
            let season = crate::api::seasons::load(c, id)?;
            let input = calendar_input(season.opening_date, &b)?;
            // the engine is pure; should it panic on odd dates, answer 422 rather than 500
            let rows =
                std::panic::catch_unwind(|| proposed_rows(id, &input)).unwrap_or_else(|_| {
                    Err(ApiError::invalid(
                        "body",
                        "no calendar can be proposed for these dates",
                    ))
                })?;
            store_calendar(c, id, &rows, b.replace)
        })
        .await?;
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
    path: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let (season, rows) = state
        .db(move |c| {
            let s = crate::api::seasons::load(c, id)?;
            Ok((s, evenings_of(c, id)?))
        })
        .await?;
    let stamp = crate::db::now_utc().format("%Y%m%dT%H%M%SZ").to_string();
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
    let half = match e.half.as_deref() {
        Some("winter") => " winter",
        Some("summer") => " summer",
        _ => "",
    };
    let no = e.number.map(|n| format!(" {n}")).unwrap_or_default();
    match e.kind.as_str() {
        "keizer" => format!("Keizer{half} evening{no}"),
        "rapid" => format!("Rapid evening{no}"),
        "playoff" => format!("Playoffs round{no}"),
        "blitz" => "Blitz championship".to_string(),
        "closed" => "Club closed".to_string(),
        _ => "Club evening".to_string(),
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
            "UID:evening-{}-season-{}@clubcomp",
            e.id, e.season_id
        ));
        line(&format!("DTSTAMP:{dtstamp}"));
        let date = e.date.format("%Y%m%d");
        let time = chrono::NaiveTime::parse_from_str(&e.start_time, "%H:%M").ok();
        match (e.kind.as_str(), time) {
            ("closed", _) | (_, None) => {
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
