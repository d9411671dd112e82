//! Attendance per round (docs/rules/keizer.md#attendance-and-deadlines): the history of sign-ups, sign-offs, presence marks and
//! check-ins, and each player's status for the evening, computed by the attendance engine
//! (`clubcomp_engine::attendance`) from the stored changes. The clock is read here (`now`) and passed
//! to the engine; deadlines are evaluated in the club's time zone.
//!
//! CONTRACT used by pairing and standings: [`statuses`] gives every listed player's status for
//! a round as [`Status`] (`Playing`, `Excused`, `Unexcused`); [`evening`] gives the engine's
//! full answer (deadline, check-in cut-off, the detailed status of each entrant).
//!
//! Storage (the `attendance` table, one row per change and round, never updated):
//! - `action`: `sign_up`, `sign_off`, `force_majeure` (a sign-off with force majeure, leader
//!   or arbiter only), `present`, `absent`;
//! - `channel`: `account`, `email`, `phone`, `in_person`, `venue_code` (a self check-in with the
//!   code shown at the venue, `services::presence`);
//! - `recorded_by`: `<capacity>:<account>`, the capacity being `member`, `leader` or
//!   `arbiter` (how the engine treats the change) and the account the e-mail address of the
//!   user who made it;
//! - `at`: when (UTC); `note`: free text.

use crate::error::{ApiError, ApiResult};
use crate::ids::{AttendanceId, CompetitionId, PlayerId, RoundId};
use crate::store::DbConn;
use crate::store::models::competition::{Attendance, Competition, NewAttendance, Round};
use crate::store::models::events::{EventKind, NewEvent, Visibility};
use crate::store::models::players;
use crate::store::schema::attendance as at;
use crate::store::schema::rounds;
use crate::store::stamps::Scope;
use crate::vocab::{AttendanceAction, AttendanceChannel, MarkKind, RoundStatus};
use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use clubcomp_engine::Membership;
use clubcomp_engine::attendance::{
    self as engine, Action, AttendanceInput, Attendee, Change, Channel, DeadlineRule, EveningType,
    Recorder,
};
use clubcomp_engine::{CompetitionKind, PairingSystem};
use diesel::prelude::*;
use std::collections::HashMap;

/// A player's status for one round (the contract of pairing and standings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Expected / signed up / present / checked in: to be paired.
    Playing,
    /// Absent with notice (excused).
    Excused,
    /// Absent without notice (also: a flexible player who did not sign up, a no-show, a
    /// player not checked in at a rapid or blitz round).
    Unexcused,
}

impl From<engine::Status> for Status {
    fn from(s: engine::Status) -> Status {
        if s.paired() {
            Status::Playing
        } else if s == engine::Status::Excused {
            Status::Excused
        } else {
            Status::Unexcused
        }
    }
}

pub use crate::vocab::{Capacity, ChangeAction, ChangeChannel};

/// When a round is played and how attendance works for it.
#[derive(Debug, Clone)]
pub struct RoundContext {
    /// Keizer (sign-up/sign-off with a deadline) or rapid/blitz (check-in).
    pub kind: EveningType,
    /// The date of the evening.
    pub date: NaiveDate,
    /// Local start time.
    pub start: NaiveTime,
    /// The deadline rule.
    pub rule: DeadlineRule,
}

/// The club time zone for callers without the configuration at hand: `CLUB_TIMEZONE` as the
/// configuration reads it, else Europe/Amsterdam.
pub fn default_time_zone() -> String {
    std::env::var("CLUB_TIMEZONE")
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| s.parse::<chrono_tz::Tz>().is_ok())
        .unwrap_or_else(|| "Europe/Amsterdam".to_string())
}

/// How attendance works for a competition (docs/rules/keizer.md#attendance-and-deadlines, docs/rules/rapid-blitz.md#the-rapid-competition): Keizer-style sign-up/sign-off for
/// Keizer, round-robin and knockout rounds; check-in for the rapid (Double-Swiss) and for
/// other Swiss competitions. The blitz championship's pairing takes its participants from the
/// check-in of the evening instead (`services::check_in::present_for_round`), and a mark for
/// a round only keeps an absent player out.
pub fn evening_type(comp: &Competition) -> EveningType {
    match (comp.kind, comp.system) {
        (CompetitionKind::Swiss, Some(PairingSystem::DoubleSwiss)) => EveningType::Rapid,
        (CompetitionKind::Swiss, _) => EveningType::Blitz,
        (CompetitionKind::Keizer | CompetitionKind::RoundRobin | CompetitionKind::Knockout, _) => {
            EveningType::Keizer
        }
    }
}

/// The attendance context of a round: date and start time from the round and its calendar
/// evening, the deadline rule of docs/rules/keizer.md#attendance-and-deadlines (the day before at 18:00) in `time_zone`.
///
/// docs/rules/keizer.md#attendance-and-deadlines is silent on rounds without a date: such a round has no deadline yet, so every
/// change counts as on time (the date used is far in the future). Without a calendar evening
/// the start is 20:15 (20:30 for the rapid), docs/rules/keizer.md#calendar.
pub fn round_context(
    c: &mut DbConn,
    comp: &Competition,
    round: &Round,
    time_zone: &str,
) -> ApiResult<RoundContext> {
    let kind = evening_type(comp);
    let default_start = if kind == EveningType::Rapid {
        clubcomp_engine::calendar::rapid_start()
    } else {
        clubcomp_engine::calendar::playing_start()
    };
    let mut date = round.date;
    let mut start = default_start;
    if let Some(e) = round.evening_id
        && let Ok(ev) = crate::services::calendar::load_evening(c, e)
    {
        date = date.or(Some(ev.date));
        start = NaiveTime::parse_from_str(&ev.start_time, "%H:%M").unwrap_or(default_start);
    }
    let date = date.unwrap_or(NaiveDate::from_ymd_opt(9999, 12, 30).unwrap_or(NaiveDate::MAX));
    let rule = deadline_rule(c, comp.id, time_zone)?;
    Ok(RoundContext {
        kind,
        date,
        start,
        rule,
    })
}

/// The deadline rule of a competition: its own (`attendance_deadlines`) or docs/rules/keizer.md#attendance-and-deadlines's default,
/// the day before at 18:00, in the club's time zone.
pub fn deadline_rule(
    c: &mut DbConn,
    competition: CompetitionId,
    time_zone: &str,
) -> ApiResult<DeadlineRule> {
    use crate::store::schema::attendance_deadlines as ad;
    let own: Option<(i32, String)> = ad::table
        .find(competition)
        .select((ad::days_before, ad::deadline_time))
        .first(c)
        .optional()?;
    let mut rule = DeadlineRule {
        time_zone: time_zone.to_string(),
        ..DeadlineRule::default()
    };
    if let Some((days, time)) = own {
        rule.days_before = days.max(0) as u32;
        if let Ok(t) = NaiveTime::parse_from_str(&time, "%H:%M") {
            rule.time = t;
        }
    }
    Ok(rule)
}

/// Sets a competition's own deadline rule (replacing an earlier one); 404 when there is no
/// such competition.
pub fn set_deadline_rule(
    c: &mut DbConn,
    competition: CompetitionId,
    days_before: i32,
    time: &str,
) -> ApiResult<()> {
    use crate::store::schema::attendance_deadlines as ad;
    crate::services::competitions::load(c, competition)?;
    diesel::delete(ad::table.find(competition)).execute(c)?;
    diesel::insert_into(ad::table)
        .values((
            ad::competition_id.eq(competition),
            ad::days_before.eq(days_before),
            ad::deadline_time.eq(time),
        ))
        .execute(c)?;
    crate::store::stamps::touch(c, Scope::Competition(competition))?;
    Ok(())
}

/// The attendance history of a round, oldest first.
pub fn history(c: &mut DbConn, round: RoundId) -> ApiResult<Vec<Attendance>> {
    Ok(at::table
        .filter(at::round_id.eq(round))
        .order(at::id)
        .select(Attendance::as_select())
        .load(c)?)
}

/// Splits a stored `recorded_by` into (capacity, account): `<capacity>:<account>`, or an
/// account alone (a member's own change) when the text names no capacity before a colon.
pub fn split_recorded_by(s: &str) -> (Capacity, &str) {
    s.split_once(':')
        .and_then(|(cap, account)| Some((cap.parse().ok()?, account)))
        .unwrap_or((Capacity::Member, s))
}

fn recorder_of(s: &str) -> Recorder {
    match split_recorded_by(s).0 {
        Capacity::Leader => Recorder::Leader,
        Capacity::Arbiter => Recorder::Arbiter,
        Capacity::Member => Recorder::Member,
    }
}

fn channel_of(c: ChangeChannel) -> Channel {
    match c {
        ChangeChannel::Account => Channel::Account,
        ChangeChannel::Email => Channel::Email,
        ChangeChannel::Phone => Channel::Phone,
        ChangeChannel::InPerson => Channel::InPerson,
        ChangeChannel::VenueCode => Channel::VenueCode,
    }
}

fn action_of(a: ChangeAction) -> (Action, bool) {
    match a {
        ChangeAction::SignUp => (Action::SignUp, false),
        ChangeAction::SignOff => (Action::SignOff, false),
        ChangeAction::ForceMajeure => (Action::SignOff, true),
        ChangeAction::Present => (Action::MarkPresent, false),
        ChangeAction::Absent => (Action::MarkAbsent, false),
        ChangeAction::CheckIn => (Action::CheckIn, false),
    }
}

fn to_change(a: &Attendance, date: NaiveDate) -> Change {
    let (action, force_majeure) = action_of(a.action);
    Change {
        player: a.player_id.to_string(),
        at: DateTime::from_naive_utc_and_offset(a.at, Utc),
        action,
        recorded_by: recorder_of(&a.recorded_by),
        channel: channel_of(a.channel),
        force_majeure,
        evenings: vec![date],
    }
}

/// Runs the engine over the stored changes of `round` for `players` (plus `extra`, a change
/// not stored yet, appended last).
pub fn evaluate(
    c: &mut DbConn,
    ctx: &RoundContext,
    round: RoundId,
    players: &[(PlayerId, Membership)],
    extra: Option<Change>,
) -> ApiResult<engine::Attendance> {
    let known: std::collections::HashSet<String> =
        players.iter().map(|(id, _)| id.to_string()).collect();
    let mut changes: Vec<Change> = history(c, round)?
        .iter()
        .map(|a| to_change(a, ctx.date))
        .filter(|ch| known.contains(&ch.player))
        .collect();
    changes.extend(extra);
    let input = AttendanceInput {
        date: ctx.date,
        start_time: ctx.start,
        kind: ctx.kind,
        deadline: ctx.rule.clone(),
        check_in_minutes: 15,
        players: players
            .iter()
            .map(|(id, m)| Attendee {
                id: id.to_string(),
                membership: *m,
            })
            .collect(),
        changes,
    };
    engine::attendance(&input).map_err(|e| ApiError::Internal(format!("attendance: {e}")))
}

/// The entrants of a competition with their membership, in seed order.
pub fn entrant_memberships(
    c: &mut DbConn,
    competition: CompetitionId,
) -> ApiResult<Vec<(PlayerId, Membership)>> {
    let mut out = Vec::new();
    for e in crate::services::competitions::entrants_in_seed_order(c, competition)? {
        let m = players::by_id(c, e.player_id)?
            .map(|p| p.membership)
            .unwrap_or(Membership::Fixed);
        out.push((e.player_id, m));
    }
    Ok(out)
}

/// The engine's full answer for a round: deadline, check-in cut-off and the detailed status
/// of every entrant who has not withdrawn by the round.
pub fn evening(
    c: &mut DbConn,
    comp: &Competition,
    round: &Round,
    time_zone: &str,
) -> ApiResult<engine::Attendance> {
    let ctx = round_context(c, comp, round, time_zone)?;
    // a player who withdrew by this round is no longer expected, nor paired
    let withdrawn = crate::store::models::competition::withdrawals(c, comp.id)?;
    let players: Vec<(PlayerId, Membership)> = entrant_memberships(c, comp.id)?
        .into_iter()
        .filter(|(p, _)| !crate::services::withdrawal::gone(&withdrawn, *p, round.number))
        .collect();
    evaluate(c, &ctx, round.id, &players, None)
}

/// Each listed player's status for the round (`(player_id, is_flexible)`; a flexible player —
/// or guest — is absent without notice unless they signed up in time; others are expected
/// unless they signed off). Uses the club time zone of [`default_time_zone`].
pub fn statuses(
    c: &mut DbConn,
    round: RoundId,
    players: &[(PlayerId, bool)],
) -> ApiResult<HashMap<PlayerId, Status>> {
    statuses_in(c, round, players, &default_time_zone())
}

/// [`statuses`] with an explicit club time zone.
pub fn statuses_in(
    c: &mut DbConn,
    round: RoundId,
    players: &[(PlayerId, bool)],
    time_zone: &str,
) -> ApiResult<HashMap<PlayerId, Status>> {
    let r: Round = rounds::table
        .find(round)
        .select(Round::as_select())
        .first(c)
        .optional()?
        .ok_or_else(|| ApiError::NotFound(format!("no round {round}")))?;
    let comp = crate::services::competitions::load(c, r.competition_id)?;
    let ctx = round_context(c, &comp, &r, time_zone)?;
    let list: Vec<(PlayerId, Membership)> = players
        .iter()
        .map(|&(id, flexible)| {
            (
                id,
                if flexible {
                    Membership::Flexible
                } else {
                    Membership::Fixed
                },
            )
        })
        .collect();
    let a = evaluate(c, &ctx, r.id, &list, None)?;
    a.players
        .iter()
        .map(|p| Ok((PlayerId::from_engine(&p.player)?, p.status.into())))
        .collect()
}

/// One change to record.
#[derive(Debug, Clone)]
pub struct NewChange {
    /// The player.
    pub player_id: PlayerId,
    /// What changed.
    pub action: ChangeAction,
    /// How it reached the club.
    pub channel: ChangeChannel,
    /// The capacity it is recorded in.
    pub capacity: Capacity,
    /// The account making it.
    pub account: String,
    /// Note.
    pub note: Option<String>,
}

/// Names the minute of a UTC instant in the club's time zone as the blitz's closing names it,
/// e.g. `19:45 Europe/Amsterdam on 2026-09-10`.
fn local_minute(t: DateTime<Utc>, time_zone: &str) -> String {
    match time_zone.parse::<chrono_tz::Tz>() {
        Ok(tz) => {
            let l = t.with_timezone(&tz);
            format!(
                "{} {time_zone} on {}",
                l.format("%H:%M"),
                l.format("%Y-%m-%d")
            )
        }
        Err(_) => t.format("%H:%M UTC on %Y-%m-%d").to_string(),
    }
}

/// Formats a UTC instant in the club's time zone, e.g. `2026-09-10 18:00 Europe/Amsterdam`.
pub fn local(t: DateTime<Utc>, time_zone: &str) -> String {
    match time_zone.parse::<chrono_tz::Tz>() {
        Ok(tz) => format!(
            "{} {time_zone}",
            t.with_timezone(&tz).format("%Y-%m-%d %H:%M")
        ),
        Err(_) => t.format("%Y-%m-%d %H:%M UTC").to_string(),
    }
}

/// Records one change for one round after the engine accepted it (at `now`). A refused change
/// is a 422 naming the rule and the deadline; nothing is stored then. Returns the player's
/// outcome after the change.
#[allow(clippy::too_many_arguments)]
pub fn record(
    c: &mut DbConn,
    comp: &Competition,
    round: &Round,
    players: &[(PlayerId, Membership)],
    ch: &NewChange,
    now: DateTime<Utc>,
    time_zone: &str,
    field: &str,
) -> ApiResult<engine::PlayerAttendance> {
    if round.status == RoundStatus::Completed {
        return Err(ApiError::Conflict(format!(
            "round {} is completed; its attendance is closed",
            round.number
        )));
    }
    // a player withdrawn by this round is never paired in it: no attendance change can put
    // them back (docs/rules/README.md#withdrawal)
    let withdrawn = crate::store::models::competition::withdrawals(c, comp.id)?;
    if let Some(&from) = withdrawn
        .get(&ch.player_id)
        .filter(|&&from| from <= round.number)
    {
        return Err(ApiError::invalid(
            field,
            format!(
                "player {} withdrew from competition {} from round {from} on and is not paired \
                 in round {}; attendance for it is not recorded",
                ch.player_id, comp.id, round.number
            ),
        ));
    }
    let ctx = round_context(c, comp, round, time_zone)?;
    let probe = Attendance {
        id: AttendanceId(0),
        round_id: round.id,
        player_id: ch.player_id,
        action: ch.action,
        channel: ch.channel,
        recorded_by: format!("{}:{}", ch.capacity, ch.account),
        at: {
            use chrono::SubsecRound;
            now.naive_utc().trunc_subsecs(6)
        },
        note: None,
    };
    let change = to_change(&probe, ctx.date);
    let result = evaluate(c, &ctx, round.id, players, Some(change))?;
    let idx = history(c, round.id)?
        .iter()
        .filter(|a| players.iter().any(|(p, _)| *p == a.player_id))
        .count();
    let pa = result
        .players
        .into_iter()
        .find(|p| p.player == ch.player_id.to_string())
        .ok_or_else(|| ApiError::invalid(field, "the player is not an entrant"))?;
    if let Some(r) = pa.refused.iter().find(|r| r.change == idx) {
        let when = match ctx.kind {
            EveningType::Keizer => format!(
                "the deadline of round {} was {}",
                round.number,
                local(result.deadline, time_zone)
            ),
            // the cut-off minute counts, as the blitz's (docs/decisions/0341-one-presence-model-and-the-cut-off-minute.md)
            _ => format!(
                "check-in for round {} closed at the end of {}",
                round.number,
                result
                    .check_in_by
                    .map(|t| local_minute(t, time_zone))
                    .unwrap_or_default()
            ),
        };
        return Err(ApiError::invalid(field, format!("{}; {when}", r.reason)));
    }
    diesel::insert_into(at::table)
        .values(&NewAttendance {
            round_id: round.id,
            player_id: ch.player_id,
            action: ch.action,
            channel: ch.channel,
            recorded_by: probe.recorded_by.clone(),
            at: probe.at,
            note: ch.note.clone(),
        })
        .execute(c)?;
    crate::store::stamps::touch(c, Scope::Competition(comp.id))?;
    crate::store::stamps::record(c, attendance_event(round, ch.player_id, ch.action))?;
    Ok(pa)
}

/// The event of an attendance change: for the staff only (the attendance view is the
/// leader's, [decision 0141](../../../../docs/decisions/0141-attendance-view-for-the-leader.md)).
pub fn attendance_event(round: &Round, player: PlayerId, action: ChangeAction) -> NewEvent {
    NewEvent::new(EventKind::AttendanceChanged, Visibility::Leader)
        .competition(round.competition_id)
        .evening(round.evening_id)
        .payload(serde_json::json!({"round": round.number, "player": player, "action": action}))
}

/// A change of one player's attendance as a request states it.
#[derive(Debug, Clone, Copy)]
pub struct ChangeRequest<'a> {
    /// The player.
    pub player: PlayerId,
    /// What changes.
    pub action: ChangeAction,
    /// How it reached the club.
    pub channel: ChangeChannel,
    /// The capacity it is recorded in.
    pub capacity: Capacity,
    /// The account that records it.
    pub account: &'a str,
    /// Note.
    pub note: &'a Option<String>,
}

impl<'a> ChangeRequest<'a> {
    /// A member's own sign-up or sign-off, from their account.
    pub fn own(
        player: PlayerId,
        action: AttendanceAction,
        account: &'a str,
        note: &'a Option<String>,
    ) -> Self {
        ChangeRequest {
            player,
            action: action.into(),
            channel: ChangeChannel::Account,
            capacity: Capacity::Member,
            account,
            note,
        }
    }

    /// A sign-up or sign-off the leader records on a player's behalf, told through `channel`;
    /// a sign-off with `force_majeure` granted is recorded as `force_majeure`.
    pub fn by_leader(
        player: PlayerId,
        action: AttendanceAction,
        force_majeure: bool,
        channel: AttendanceChannel,
        account: &'a str,
        note: &'a Option<String>,
    ) -> Self {
        ChangeRequest {
            player,
            action: if force_majeure {
                ChangeAction::ForceMajeure
            } else {
                action.into()
            },
            channel: channel.into(),
            capacity: Capacity::Leader,
            account,
            note,
        }
    }
}

/// The rounds numbered `numbers` of a competition (422 naming every number without a round).
fn load_rounds(c: &mut DbConn, comp: CompetitionId, numbers: &[i32]) -> ApiResult<Vec<Round>> {
    let mut out = Vec::new();
    let mut errs = Vec::new();
    for (i, &n) in numbers.iter().enumerate() {
        match crate::services::rounds::load(c, comp, n) {
            Ok(r) => out.push(r),
            Err(ApiError::NotFound(m)) => {
                errs.push(crate::error::FieldError::new(format!("rounds[{i}]"), m))
            }
            Err(e) => return Err(e),
        }
    }
    if errs.is_empty() {
        Ok(out)
    } else {
        Err(ApiError::validation(errs))
    }
}

/// Records `change` for each of the rounds numbered `numbers` of competition `id` (404 when
/// there is none; 422 for a round that does not exist or a player who is no entrant) in the
/// club's `time_zone`, and answers the player's status per round after it.
pub fn record_rounds(
    c: &mut DbConn,
    id: CompetitionId,
    numbers: &[i32],
    change: &ChangeRequest<'_>,
    time_zone: &str,
) -> ApiResult<Vec<Outcome>> {
    let comp = crate::services::competitions::load(c, id)?;
    let rounds = load_rounds(c, id, numbers)?;
    let player = change.player;
    let players = entrant_memberships(c, id)?;
    if !players.iter().any(|(p, _)| *p == player) {
        return Err(ApiError::invalid(
            "player_id",
            format!(
                "player {player} is not an entrant of competition {}",
                comp.id
            ),
        ));
    }
    let now = Utc::now();
    let mut out = Vec::new();
    for (i, r) in rounds.iter().enumerate() {
        let ch = NewChange {
            player_id: player,
            action: change.action,
            channel: change.channel,
            capacity: change.capacity,
            account: change.account.to_string(),
            note: change.note.clone(),
        };
        let pa = record(
            c,
            &comp,
            r,
            &players,
            &ch,
            now,
            time_zone,
            &format!("rounds[{i}]"),
        )?;
        out.push(Outcome {
            round: r.number,
            player_id: player.get(),
            status: status_name(pa.status),
            paired: pa.paired,
        });
    }
    Ok(out)
}

/// Records the check-in `marks` (player, `present`, `absent` or `force_majeure`) of round
/// `number` in `capacity` by `account`, in order, and answers each player's status after it
/// (422 naming a mark of a player who is no entrant).
#[allow(clippy::too_many_arguments)]
pub fn check_ins(
    c: &mut DbConn,
    id: CompetitionId,
    number: i32,
    marks: &[(PlayerId, MarkKind)],
    capacity: Capacity,
    account: &str,
    note: &Option<String>,
    time_zone: &str,
) -> ApiResult<Vec<Outcome>> {
    let comp = crate::services::competitions::load(c, id)?;
    let round = crate::services::rounds::load(c, id, number)?;
    let players = entrant_memberships(c, id)?;
    let now = Utc::now();
    let mut out = Vec::new();
    for (i, &(player, mark)) in marks.iter().enumerate() {
        if !players.iter().any(|(p, _)| *p == player) {
            return Err(ApiError::invalid(
                &format!("marks[{i}].player_id"),
                format!("player {player} is not an entrant"),
            ));
        }
        let ch = NewChange {
            player_id: player,
            action: mark.into(),
            channel: ChangeChannel::InPerson,
            capacity,
            account: account.to_string(),
            note: note.clone(),
        };
        let pa = record(
            c,
            &comp,
            &round,
            &players,
            &ch,
            now,
            time_zone,
            &format!("marks[{i}]"),
        )?;
        out.push(Outcome {
            round: number,
            player_id: player.get(),
            status: status_name(pa.status),
            paired: pa.paired,
        });
    }
    Ok(out)
}

mod views;
use views::status_name;
pub use views::{
    ChangeView, Outcome, OwnRound, PlayerStatus, RoundAttendance, own_rounds, round_attendance,
};
