//! The season calendar (docs/rules/keizer.md#calendar): its evenings, their edits, and the
//! generation and storage of a proposed calendar.

use crate::error::{ApiError, ApiResult, FieldError};
use crate::ids::{EveningId, SeasonId};
use crate::services::date::{self, ApiDate, in_range};
use crate::store::DbConn;
/// A stored evening of the calendar: the row is the record.
pub use crate::store::models::competition::Evening;
use crate::store::models::competition::NewEvening;
use crate::store::schema::evenings as ev;
use crate::store::stamps::Scope;
use crate::vocab::RoundStatus;
use chrono::NaiveDate;
use diesel::prelude::*;
use serde::Deserialize;
use utoipa::ToSchema;

/// Evening kinds.
pub const EVENING_KINDS: &[&str] = clubcomp_engine::EveningKind::NAMES;

/// Loads an evening or 404.
pub fn load_evening(c: &mut DbConn, id: EveningId) -> ApiResult<Evening> {
    ev::table
        .find(id)
        .select(Evening::as_select())
        .first(c)
        .optional()?
        .ok_or_else(|| ApiError::NotFound(format!("no evening {id}")))
}

/// The evenings of a season by date.
pub fn evenings_of(c: &mut DbConn, season: SeasonId) -> ApiResult<Vec<Evening>> {
    // on the concrete backend connection, so the prepared statement is cached (the front
    // page's version reads it on every request)
    Ok(crate::per_backend!(c, |b| ev::table
        .filter(ev::season_id.eq(season))
        .order(ev::date)
        .select(Evening::as_select())
        .load(b))?)
}

/// A season (404 when there is none) with its evenings in date order: its calendar.
pub fn season_calendar(
    c: &mut DbConn,
    id: SeasonId,
) -> ApiResult<(crate::services::seasons::Season, Vec<Evening>)> {
    let season = crate::services::seasons::load(c, id)?;
    Ok((season, evenings_of(c, id)?))
}

/// Checks `HH:MM`.
pub fn valid_time(s: &str) -> bool {
    chrono::NaiveTime::parse_from_str(s, "%H:%M").is_ok() && s.len() == 5
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
    season_id: SeasonId,
    input: &clubcomp_engine::calendar::CalendarInput,
) -> ApiResult<Vec<NewEvening>> {
    use clubcomp_engine::EveningKind;
    use clubcomp_engine::calendar::{FridayKind, is_first_friday_of_january, propose_calendar};
    let proposal =
        propose_calendar(input).map_err(|e| ApiError::invalid("season_end", e.to_string()))?;
    let mut rapid_no = 0;
    Ok(proposal
        .into_iter()
        .map(|e| {
            let (kind, note) = match e.kind {
                FridayKind::Keizer => (EveningKind::Keizer, None),
                FridayKind::Rapid => (EveningKind::Rapid, None),
                FridayKind::Closed => {
                    (EveningKind::Closed, Some("The venue is closed".to_string()))
                }
                FridayKind::Playoff => (EveningKind::Playoff, None),
                FridayKind::Opening => (
                    EveningKind::Free,
                    Some("Season opening (Schaak-Off)".to_string()),
                ),
                FridayKind::Free if is_first_friday_of_january(e.date) => (
                    EveningKind::Free,
                    Some("First Friday of January: the summer half may not start here".to_string()),
                ),
                FridayKind::Free => (EveningKind::Free, None),
            };
            // rapid evenings are numbered through the season (decision, docs/rules/keizer.md#calendar, docs/rules/rapid-blitz.md#double-swiss)
            let number = match e.kind {
                FridayKind::Rapid => {
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
                kind: kind.into(),
                half: e.half.map(String::from),
                number,
                note,
                version: 1,
            }
        })
        .collect())
}

/// Stores a proposed calendar for a season in the caller's transaction, with the planned
/// rounds of its Keizer halves (`services::schedule`): 409 when the season has evenings and
/// `replace` is false, or when a paired round or a sign-up or sign-off uses one of them.
pub fn store_calendar(
    c: &mut DbConn,
    season_id: SeasonId,
    rows: &[NewEvening],
    replace: bool,
) -> ApiResult<Vec<Evening>> {
    use crate::store::schema::{attendance, rounds};
    // the season's stamp first: its row lock (Postgres; SQLite holds the write lock already)
    // queues concurrent generations, so the later ones see the calendar stored before them
    // (409, or replaced with `replace`) instead of failing on its unique dates
    crate::store::stamps::touch_now(c, Scope::Season(season_id))?;
    let existing: Vec<EveningId> = ev::table
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
        // the planned rounds made from the calendar are made again from the new one; a round
        // that was paired, or that holds a sign-up or sign-off, keeps its evening
        let used: i64 = rounds::table
            .filter(rounds::evening_id.eq_any(&existing))
            .filter(rounds::status.ne(RoundStatus::Planned))
            .count()
            .get_result(c)?;
        let signed: i64 = attendance::table
            .inner_join(rounds::table)
            .filter(rounds::evening_id.eq_any(&existing))
            .count()
            .get_result(c)?;
        if used > 0 || signed > 0 {
            return Err(ApiError::Conflict(format!(
                "{} of season {season_id} use its evenings; its calendar cannot be replaced (edit the evenings instead)",
                if used > 0 {
                    format!("{used} paired rounds")
                } else {
                    format!("{signed} sign-ups and sign-offs for rounds")
                }
            )));
        }
        crate::services::round_rows::delete_rounds_of_evenings(c, &existing)?;
        diesel::delete(ev::table.filter(ev::season_id.eq(season_id))).execute(c)?;
    }
    for r in rows {
        diesel::insert_into(ev::table).values(r).execute(c)?;
    }
    // the Keizer halves of the season take their rounds from the new evenings
    crate::services::schedule::sync_season(c, season_id)?;
    evenings_of(c, season_id)
}

/// Changes to an evening, checked.
#[derive(Debug)]
pub struct EveningChanges {
    /// New date.
    pub date: Option<NaiveDate>,
    /// New start time (HH:MM).
    pub start_time: Option<String>,
    /// New kind.
    pub kind: Option<clubcomp_engine::EveningKind>,
    /// New note (`Some(None)` clears).
    pub note: Option<Option<String>>,
}

/// Edits an evening in the caller's transaction (412 on a stale `If-Match`). A new date or kind
/// moves, drops or adds the planned rounds of the Keizer halves on it (`services::schedule`);
/// 409 when a round on it was paired, or when it would move a planned round on or before a
/// paired one.
pub fn update_evening(
    c: &mut DbConn,
    id: EveningId,
    expected: &crate::services::version::ExpectedVersion,
    ch: EveningChanges,
) -> ApiResult<Evening> {
    use crate::services::schedule;
    let cur = load_evening(c, id)?;
    expected.check(&crate::services::version::etag(
        "evening",
        cur.id,
        cur.version,
    ))?;
    schedule::lock_season(c, cur.season_id)?;
    let kind = ch.kind.unwrap_or(cur.kind);
    let moved = ch.date.is_some_and(|d| d != cur.date);
    if moved || kind != cur.kind {
        schedule::check_evening_change(c, &cur, ch.date)?;
    }
    let date = ch.date.unwrap_or(cur.date);
    // an evening that becomes a Keizer evening joins a half (services::schedule::half_for)
    let half = match cur.half {
        None if kind == clubcomp_engine::EveningKind::Keizer => {
            schedule::half_for(c, cur.season_id, date)?
        }
        h => h,
    };
    diesel::update(ev::table.find(id))
        .set((
            ev::date.eq(date),
            ev::start_time.eq(ch.start_time.unwrap_or(cur.start_time)),
            ev::kind.eq(kind.as_str()),
            ev::half.eq(half.map(|h| h.as_str())),
            ev::note.eq(ch.note.unwrap_or(cur.note)),
            ev::version.eq(ev::version + 1),
        ))
        .execute(c)?;
    if moved || kind != cur.kind {
        // the Keizer halves' rounds follow the evenings (docs/rules/keizer.md#rounds-from-the-calendar)
        schedule::sync_season(c, cur.season_id)?;
    }
    crate::store::stamps::touch(c, Scope::Season(cur.season_id))?;
    load_evening(c, id)
}

/// Generates and stores the proposed calendar of season `id` in the caller's transaction.
pub fn generate(c: &mut DbConn, id: SeasonId, b: &GenerateCalendar) -> ApiResult<Vec<Evening>> {
    let season = crate::services::seasons::load(c, id)?;
    let input = calendar_input(season.opening_date, b)?;
    // the engine is pure; should it panic on odd dates, answer 422 rather than 500
    let rows = std::panic::catch_unwind(|| proposed_rows(id, &input)).unwrap_or_else(|_| {
        Err(ApiError::invalid(
            "body",
            "no calendar can be proposed for these dates",
        ))
    })?;
    store_calendar(c, id, &rows, b.replace)
}

/// A page of a season's evenings by date then id, and how many it has in all, read in one
/// transaction (404 for no such season).
pub fn page_of_season(
    c: &mut DbConn,
    id: SeasonId,
    limit: i64,
    offset: i64,
) -> ApiResult<(Vec<Evening>, i64)> {
    crate::store::snapshot(c, |c| {
        crate::services::seasons::load(c, id)?;
        let total: i64 = ev::table
            .filter(ev::season_id.eq(id))
            .count()
            .get_result(c)?;
        let rows = ev::table
            .filter(ev::season_id.eq(id))
            .order((ev::date, ev::id))
            .limit(limit)
            .offset(offset)
            .select(Evening::as_select())
            .load(c)?;
        Ok((rows, total))
    })
}

/// The evenings of season `id` by date (404 when there is no such season).
pub fn of_season(c: &mut DbConn, id: SeasonId) -> ApiResult<Vec<Evening>> {
    crate::services::seasons::load(c, id)?;
    evenings_of(c, id)
}
