//! Presence on a club night, one model for every competition that uses it
//! (docs/rules/rapid-blitz.md#self-check-in): the club's staff open the self check-in of an
//! evening, the venue shows a code that changes every minute ([`code`]), and a member who
//! sends it is checked in for each of that evening's competitions that take check-in:
//!
//! - a blitz championship held on the evening's date: the member becomes a participant, as
//!   when the arbiter checks them in (`services::check_in`, its closing time and closure);
//! - a rapid (Double-Swiss) or other Swiss round played on the evening that the member is an
//!   entrant of: a `check_in` change of the round's attendance through the channel
//!   `venue_code` (`services::attendance`, its cut-off: 15 minutes before the round, the
//!   whole minute counting), so the pairing of that round takes them.
//!
//! The staff still check anyone in or out and add guests through the competition's own
//! check-in and the round's marks; both land in the same storage as the self check-in.
//!
//! Storage: one row of `evening_check_ins` per evening whose self check-in was ever opened,
//! open while `closed_at` is empty. Opening and closing are audited.

pub mod code;

use crate::error::{ApiError, ApiResult};
use crate::ids::{EveningId, PlayerId};
use crate::services::{attendance, calendar, check_in, competitions};
use crate::store::DbConn;
use crate::store::models::competition::{Competition, Evening, NewAuditEntry, Round, audit};
use crate::store::now_utc;
use crate::store::schema::{evening_check_ins as ec, rounds as rd};
use crate::vocab::CheckInOutcome;
use crate::vocab::RoundStatus;
use chrono::{DateTime, NaiveDateTime, Utc};
use clubcomp_engine::attendance::{EveningType, Status};
use code::{CodeKey, Verdict};
use diesel::prelude::*;
use serde::Serialize;
use utoipa::ToSchema;

/// The stored self check-in of an evening.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = ec, check_for_backend(crate::store::MultiBackend))]
struct Opening {
    #[allow(dead_code)]
    evening_id: i64,
    opened_by: String,
    opened_at: NaiveDateTime,
    closed_at: Option<NaiveDateTime>,
}

/// Whether an evening's self check-in is open.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CheckInState {
    /// Evening id.
    pub evening_id: i64,
    /// Whether members can check themselves in with the venue's code.
    pub open: bool,
    /// When it was last opened (UTC).
    #[serde(serialize_with = "crate::wire::utc_opt")]
    #[schema(required = true)]
    pub opened_at: Option<DateTime<Utc>>,
    /// Who opened it.
    #[schema(required = true)]
    pub opened_by: Option<String>,
    /// When it was closed (UTC), if it is.
    #[serde(serialize_with = "crate::wire::utc_opt")]
    #[schema(required = true)]
    pub closed_at: Option<DateTime<Utc>>,
}

/// The code the venue shows now.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CheckInCode {
    /// Evening id.
    pub evening_id: i64,
    /// The code: six characters (digits and letters other than I, L, O and U).
    #[schema(example = "4QGQ0A")]
    pub code: String,
    /// When the code was first shown (the start of its minute, UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    pub shown_from: DateTime<Utc>,
    /// When the next code replaces it on the screen (UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    pub rotates_at: DateTime<Utc>,
    /// Until when the code is accepted: the end of the minute after its own (UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    pub accepted_until: DateTime<Utc>,
}

/// What a self check-in did for one competition of the evening.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CompetitionCheckIn {
    /// Competition id.
    pub competition_id: i64,
    /// Competition name.
    pub competition_name: String,
    /// The round checked in for (none for a blitz championship, whose check-in covers the
    /// evening).
    #[schema(required = true)]
    pub round: Option<i32>,
    /// `checked_in`, `already_checked_in` or `refused`.
    pub outcome: CheckInOutcome,
    /// Why it was refused.
    #[schema(required = true)]
    pub reason: Option<String>,
}

/// The answer to a self check-in.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SelfCheckIn {
    /// Evening id.
    pub evening_id: i64,
    /// The player checked in.
    pub player_id: i64,
    /// Each competition of the evening that takes check-in and that the player plays in.
    pub competitions: Vec<CompetitionCheckIn>,
}

fn opening(c: &mut DbConn, evening: EveningId) -> ApiResult<Option<Opening>> {
    Ok(ec::table
        .find(evening.get())
        .select(Opening::as_select())
        .first(c)
        .optional()?)
}

fn state_of(evening: EveningId, o: Option<Opening>) -> CheckInState {
    CheckInState {
        evening_id: evening.get(),
        open: o.as_ref().is_some_and(|o| o.closed_at.is_none()),
        opened_at: o.as_ref().map(|o| o.opened_at.and_utc()),
        opened_by: o.as_ref().map(|o| o.opened_by.clone()),
        closed_at: o.and_then(|o| o.closed_at).map(|t| t.and_utc()),
    }
}

/// Whether the self check-in of evening `id` is open (404 when there is no such evening).
pub fn state(c: &mut DbConn, id: EveningId) -> ApiResult<CheckInState> {
    calendar::load_evening(c, id)?;
    let o = opening(c, id)?;
    Ok(state_of(id, o))
}

fn audit_evening(c: &mut DbConn, id: EveningId, action: &str, actor: &str) -> ApiResult<()> {
    audit(
        c,
        &NewAuditEntry {
            entity: crate::vocab::AuditEntity::Evening,
            entity_id: id.get(),
            action: action.into(),
            actor: actor.to_string(),
            at: now_utc(),
            old_value: None,
            new_value: None,
            reason: None,
        },
    )?;
    Ok(())
}

/// Opens the self check-in of evening `id` (404 when there is none); opening an open one
/// changes nothing. Audited.
pub fn open(c: &mut DbConn, id: EveningId, actor: &str) -> ApiResult<CheckInState> {
    calendar::load_evening(c, id)?;
    match opening(c, id)? {
        Some(o) if o.closed_at.is_none() => return Ok(state_of(id, Some(o))),
        Some(_) => {
            diesel::update(ec::table.find(id.get()))
                .set((
                    ec::opened_by.eq(actor),
                    ec::opened_at.eq(now_utc()),
                    ec::closed_at.eq(None::<NaiveDateTime>),
                ))
                .execute(c)?;
        }
        None => {
            diesel::insert_into(ec::table)
                .values((
                    ec::evening_id.eq(id.get()),
                    ec::opened_by.eq(actor),
                    ec::opened_at.eq(now_utc()),
                ))
                .execute(c)?;
        }
    }
    audit_evening(c, id, "check_in_opened", actor)?;
    state(c, id)
}

/// Closes the self check-in of evening `id`: codes are refused from then on (the staff still
/// check players in). 409 when it is not open. Audited.
pub fn close(c: &mut DbConn, id: EveningId, actor: &str) -> ApiResult<CheckInState> {
    calendar::load_evening(c, id)?;
    if opening(c, id)?.is_none_or(|o| o.closed_at.is_some()) {
        return Err(not_open(id));
    }
    diesel::update(ec::table.find(id.get()))
        .set(ec::closed_at.eq(Some(now_utc())))
        .execute(c)?;
    audit_evening(c, id, "check_in_closed", actor)?;
    state(c, id)
}

fn not_open(id: EveningId) -> ApiError {
    ApiError::Conflict(format!(
        "the self check-in of evening {id} is not open; the arbiter or leader opens it on the \
         night (POST /api/v1/evenings/{id}/check-in/open)"
    ))
}

/// The code evening `id` shows at `now`; 409 while its self check-in is not open.
pub fn current_code(
    c: &mut DbConn,
    key: &CodeKey,
    id: EveningId,
    now: DateTime<Utc>,
) -> ApiResult<CheckInCode> {
    if !state(c, id)?.open {
        return Err(not_open(id));
    }
    let m = code::minute_of(now);
    Ok(CheckInCode {
        evening_id: id.get(),
        code: key.code(id, m),
        shown_from: code::minute_start(m),
        rotates_at: code::minute_start(m + 1),
        accepted_until: code::minute_start(m + 2),
    })
}

/// The 422 for a code the evening does not accept, naming why: another open evening's code,
/// an expired one, one replayed long after it was shown, or none the evening showed.
fn refuse_code(
    c: &mut DbConn,
    key: &CodeKey,
    id: EveningId,
    code: &str,
    now: DateTime<Utc>,
    time_zone: &str,
) -> ApiResult<ApiError> {
    let message = match key.judge(id, code, now) {
        Verdict::Current => return Err(ApiError::Internal("an accepted code refused".into())),
        Verdict::Expired { shown } => format!(
            "has expired: it was shown at {}, and a code is accepted for its own minute and the \
             next; scan the screen again",
            attendance::local(shown, time_zone)
        ),
        Verdict::Replayed { shown } => format!(
            "was shown at {}, long ago; a code sent again after it rotated is not accepted",
            attendance::local(shown, time_zone)
        ),
        Verdict::Unknown => {
            let others: Vec<i64> = ec::table
                .filter(ec::closed_at.is_null())
                .filter(ec::evening_id.ne(id.get()))
                .select(ec::evening_id)
                .load(c)?;
            match others
                .into_iter()
                .find(|o| key.judge(EveningId(*o), code, now) == Verdict::Current)
            {
                Some(o) => format!(
                    "is the check-in code of evening {o}, not of evening {id}; scan the screen \
                     of the evening you play"
                ),
                None => format!("is not a check-in code of evening {id}"),
            }
        }
    };
    Ok(ApiError::invalid("code", message))
}

/// What a competition of the evening takes check-in for.
enum Taker {
    /// A blitz championship on the evening's date.
    Blitz(Competition),
    /// A round on the evening of a competition whose rounds take check-in.
    Round(Competition, Round),
}

fn takers(c: &mut DbConn, evening: &Evening) -> ApiResult<Vec<Taker>> {
    let mut out = Vec::new();
    for comp in competitions::of_season(c, evening.season_id)? {
        if check_in::is_blitz(&comp)? {
            if check_in::blitz_of(&comp)?.date == evening.date {
                out.push(Taker::Blitz(comp));
            }
            continue;
        }
        if attendance::evening_type(&comp) == EveningType::Keizer {
            continue;
        }
        let on: Vec<Round> = rd::table
            .filter(rd::competition_id.eq(comp.id))
            .filter(rd::evening_id.eq(evening.id))
            .filter(rd::status.ne(RoundStatus::Completed))
            .order(rd::number)
            .select(Round::as_select())
            .load(c)?;
        for r in on {
            out.push(Taker::Round(comp.clone(), r));
        }
    }
    Ok(out)
}

/// The reason of a refusal a member may read, or the error itself when it is no refusal.
fn refusal(e: ApiError) -> ApiResult<String> {
    match e {
        ApiError::Conflict(m) => Ok(m),
        ApiError::Validation { errors, detail } => Ok(if errors.is_empty() {
            detail
        } else {
            errors
                .into_iter()
                .map(|f| f.message)
                .collect::<Vec<_>>()
                .join("; ")
        }),
        other => Err(other),
    }
}

/// One self check-in's context: who, when, and the club's settings.
#[derive(Debug, Clone)]
pub struct Arrival<'a> {
    /// The player linked to the member's account.
    pub player: PlayerId,
    /// The account (recorded with the check-in).
    pub account: &'a str,
    /// The code as sent.
    pub code: &'a str,
    /// When it arrived.
    pub now: DateTime<Utc>,
    /// The club's time zone.
    pub time_zone: &'a str,
    /// The work limits (the blitz championship's entrants).
    pub limits: &'a crate::limits::WorkLimits,
}

/// Checks the member in for each competition of evening `id` that takes check-in: 404 without
/// such an evening; 422 naming `code` for a malformed code or one the evening does not accept
/// now (expired, replayed, another evening's: the reason named); 409 while the self check-in
/// is not open, when the player plays in none of the evening's competitions with check-in, or
/// when every one of them refused (each reason named). A competition checked in already is
/// `already_checked_in`; nothing is recorded twice.
pub fn check_in_self(
    c: &mut DbConn,
    key: &CodeKey,
    id: EveningId,
    a: &Arrival<'_>,
) -> ApiResult<SelfCheckIn> {
    let code = code::normalise("code", a.code).map_err(|e| ApiError::validation(vec![e]))?;
    let evening = calendar::load_evening(c, id)?;
    if !state(c, id)?.open {
        return Err(not_open(id));
    }
    if key.judge(id, &code, a.now) != Verdict::Current {
        return Err(refuse_code(c, key, id, &code, a.now, a.time_zone)?);
    }
    let mut out = Vec::new();
    for t in takers(c, &evening)? {
        let row = match t {
            Taker::Blitz(comp) => blitz(c, &comp, a)?,
            Taker::Round(comp, round) => round_check_in(c, &comp, &round, a)?,
        };
        out.extend(row);
    }
    if out.is_empty() {
        return Err(ApiError::Conflict(format!(
            "player {} plays in none of the competitions of evening {id} that take check-in",
            a.player
        )));
    }
    if out.iter().all(|r| r.outcome == CheckInOutcome::Refused) {
        let reasons: Vec<String> = out
            .iter()
            .map(|r| {
                format!(
                    "{}: {}",
                    r.competition_name,
                    r.reason.clone().unwrap_or_default()
                )
            })
            .collect();
        return Err(ApiError::Conflict(format!(
            "not checked in: {}",
            reasons.join("; ")
        )));
    }
    Ok(SelfCheckIn {
        evening_id: id.get(),
        player_id: a.player.get(),
        competitions: out,
    })
}

fn row(
    comp: &Competition,
    round: Option<i32>,
    outcome: CheckInOutcome,
    reason: Option<String>,
) -> CompetitionCheckIn {
    CompetitionCheckIn {
        competition_id: comp.id.get(),
        competition_name: comp.name.clone(),
        round,
        outcome,
        reason,
    }
}

fn blitz(
    c: &mut DbConn,
    comp: &Competition,
    a: &Arrival<'_>,
) -> ApiResult<Option<CompetitionCheckIn>> {
    if competitions::entrants_in_seed_order(c, comp.id)?
        .iter()
        .any(|e| e.player_id == a.player)
    {
        return Ok(Some(row(
            comp,
            None,
            CheckInOutcome::AlreadyCheckedIn,
            None,
        )));
    }
    let arrival = check_in::Arrival::Player(a.player);
    let actor = format!("member:{}", a.account);
    match check_in::check_in_and_view(c, comp.id, &arrival, a.now, a.time_zone, a.limits, &actor) {
        Ok(_) => Ok(Some(row(comp, None, CheckInOutcome::CheckedIn, None))),
        Err(e) => Ok(Some(row(
            comp,
            None,
            CheckInOutcome::Refused,
            Some(refusal(e)?),
        ))),
    }
}

fn round_check_in(
    c: &mut DbConn,
    comp: &Competition,
    round: &Round,
    a: &Arrival<'_>,
) -> ApiResult<Option<CompetitionCheckIn>> {
    let players = attendance::entrant_memberships(c, comp.id)?;
    if !players.iter().any(|(p, _)| *p == a.player) {
        return Ok(None);
    }
    let now_status = attendance::evening(c, comp, round, a.time_zone)?;
    let me = a.player.to_string();
    if now_status
        .players
        .iter()
        .any(|p| p.player == me && p.status == Status::CheckedIn)
    {
        return Ok(Some(row(
            comp,
            Some(round.number),
            CheckInOutcome::AlreadyCheckedIn,
            None,
        )));
    }
    if round.status != RoundStatus::Planned {
        return Ok(Some(row(
            comp,
            Some(round.number),
            CheckInOutcome::Refused,
            Some(format!(
                "round {} is paired already; the arbiter decides who is added",
                round.number
            )),
        )));
    }
    let ch = attendance::NewChange {
        player_id: a.player,
        action: crate::vocab::ChangeAction::CheckIn,
        channel: crate::vocab::ChangeChannel::VenueCode,
        capacity: crate::vocab::Capacity::Member,
        account: a.account.to_string(),
        note: None,
    };
    match attendance::record(c, comp, round, &players, &ch, a.now, a.time_zone, "code") {
        Ok(_) => Ok(Some(row(
            comp,
            Some(round.number),
            CheckInOutcome::CheckedIn,
            None,
        ))),
        Err(e) => Ok(Some(row(
            comp,
            Some(round.number),
            CheckInOutcome::Refused,
            Some(refusal(e)?),
        ))),
    }
}
