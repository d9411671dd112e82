//! Check-in of the blitz championship (docs/rules/rapid-blitz.md#the-blitz-championship): the
//! arbiter or leader checks in the players present, members by their player id and guests by
//! name (a guest becomes a player without membership); each becomes an entrant. Check-in is
//! refused from the closing time of the evening (club time) and once it is closed; closing it
//! fixes the number of rounds from the participants with the engine's rule
//! (`clubcomp_engine::blitz::swiss_rounds`) and stores it as the competition's planned rounds.
//!
//! Storage: the participants are the competition's entrants (in order of check-in); the
//! closure is one row of `check_in_closures` per competition. Both writes are audited.

use crate::error::{ApiError, ApiResult, FieldError};
use crate::ids::{CompetitionId, PlayerId};
use crate::services::competitions::{self as comps, BlitzParams, CompetitionParams, SwissParams};
use crate::store::DbConn;
use crate::store::models::competition::{Competition, NewAuditEntry, audit};
use crate::store::models::events::{EventKind, NewEvent, Visibility};
use crate::store::models::players::{self, NewPlayer};
use crate::store::now_utc;
use crate::store::schema::{check_in_closures as cl, entrants as en};
use crate::store::stamps::Scope;
use chrono::{DateTime, NaiveDateTime, Utc};
use clubcomp_engine::Membership;
use diesel::prelude::*;
use serde::Serialize;
use utoipa::ToSchema;

/// Who is checked in.
#[derive(Debug, Clone)]
pub enum Arrival {
    /// A registered player (member, or a guest of an earlier year), by id.
    Player(PlayerId),
    /// A walk-in guest: a new player without membership.
    Guest {
        /// The name as given (checked here: 1–200 characters after trimming).
        name: String,
        /// The rating the arbiter takes for seeding, 0–3500.
        rating: Option<i32>,
    },
}

/// The longest guest name (the players' bound).
const GUEST_NAME_MAX: usize = 200;

/// One player checked in.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CheckedIn {
    /// Name.
    pub name: String,
    /// Player id (leaders and arbiters only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player_id: Option<i64>,
    /// True for a player without club membership (leaders and arbiters only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guest: Option<bool>,
    /// The rating the player is seeded with (leaders and arbiters only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<i32>,
    /// When the player was checked in, UTC (leaders and arbiters only).
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::wire::utc_opt"
    )]
    pub checked_in_at: Option<DateTime<Utc>>,
}

/// The check-in of a blitz championship.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CheckInView {
    /// Competition id.
    pub competition_id: i64,
    /// The blitz settings: the evening, the closing time and the rounds rule.
    pub blitz: BlitzParams,
    /// The closing time on the evening (UTC), from the closing time in the club's time zone: a
    /// player checked in within that minute is on time, from the next minute check-in is closed.
    #[serde(serialize_with = "crate::wire::utc")]
    pub closes_at: DateTime<Utc>,
    /// `open`, or `closed` (by the arbiter or leader; the number of rounds is fixed).
    pub status: crate::vocab::CheckInStatus,
    /// Players checked in.
    pub participants: usize,
    /// The number of rounds fixed when check-in was closed.
    #[schema(required = true)]
    pub rounds: Option<i32>,
    /// The players in order of check-in; the public sees names only.
    pub players: Vec<CheckedIn>,
}

/// The stored closure of a competition's check-in.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = cl, check_for_backend(crate::store::MultiBackend))]
struct Closure {
    #[allow(dead_code)]
    competition_id: i64,
    participants: i32,
    rounds: i32,
    #[allow(dead_code)]
    closed_by: String,
    closed_at: NaiveDateTime,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = cl)]
struct NewClosure {
    competition_id: i64,
    participants: i32,
    rounds: i32,
    closed_by: String,
    closed_at: NaiveDateTime,
}

/// The blitz settings of a competition, or 409: check-in belongs to the blitz championship.
pub fn blitz_of(comp: &Competition) -> ApiResult<BlitzParams> {
    match comps::stored_params(comp)?.typed {
        CompetitionParams::Swiss(SwissParams { blitz: Some(b) }) => Ok(b),
        _ => Err(ApiError::Conflict(format!(
            "competition {} is not a blitz championship: check-in is for a Swiss of the Dutch \
             system with blitz parameters (params.blitz)",
            comp.id
        ))),
    }
}

pub use comps::is_blitz;

fn closure(c: &mut DbConn, id: CompetitionId) -> ApiResult<Option<Closure>> {
    Ok(cl::table
        .find(id)
        .select(Closure::as_select())
        .first(c)
        .optional()?)
}

/// The instant check-in closes: the closing time on the evening in `time_zone`.
fn closes_at(b: &BlitzParams, time_zone: &str) -> ApiResult<DateTime<Utc>> {
    clubcomp_engine::attendance::local_to_utc(b.date, b.check_in_closes, time_zone)
        .map_err(|e| ApiError::Internal(format!("check-in closing time: {e}")))
}

/// 409 unless the check-in of a blitz championship is closed: its rounds are paired only once
/// the number of rounds is fixed from the participants. Other competitions pass.
pub fn require_closed(c: &mut DbConn, comp: &Competition) -> ApiResult<()> {
    if is_blitz(comp)? && closure(c, comp.id)?.is_none() {
        return Err(ApiError::Conflict(format!(
            "the check-in of competition {} is still open: a blitz round is paired once \
             check-in is closed and the number of rounds is fixed from the participants",
            comp.id
        )));
    }
    Ok(())
}

/// The participants of a blitz championship paired in `round`: the check-in of the evening
/// covers every round, so every entrant plays unless withdrawn by the round or marked absent
/// for it by the arbiter (the round's last mark for the player is `absent`).
pub fn present_for_round(
    c: &mut DbConn,
    comp: &Competition,
    round: &crate::store::models::competition::Round,
) -> ApiResult<std::collections::HashSet<PlayerId>> {
    use crate::store::schema::attendance as at;
    let withdrawn = crate::store::models::competition::withdrawals(c, comp.id)?;
    use crate::vocab::ChangeAction;
    let marks: Vec<(PlayerId, ChangeAction)> = at::table
        .filter(at::round_id.eq(round.id))
        .filter(at::action.eq_any([ChangeAction::Present, ChangeAction::Absent]))
        .order((at::at, at::id))
        .select((at::player_id, at::action))
        .load(c)?;
    let mut last = std::collections::HashMap::new();
    for (p, action) in marks {
        last.insert(p, action);
    }
    let entrants: Vec<PlayerId> = en::table
        .filter(en::competition_id.eq(comp.id))
        .select(en::player_id)
        .load(c)?;
    Ok(entrants
        .into_iter()
        .filter(|p| !crate::services::withdrawal::gone(&withdrawn, *p, round.number))
        .filter(|p| last.get(p).is_none_or(|a| *a != ChangeAction::Absent))
        .collect())
}

/// The check-in of a blitz championship; `insider` (leader, arbiter, admin) also sees ids,
/// memberships, ratings and times.
pub fn view(
    c: &mut DbConn,
    id: CompetitionId,
    time_zone: &str,
    insider: bool,
) -> ApiResult<CheckInView> {
    let comp = comps::load(c, id)?;
    let blitz = blitz_of(&comp)?;
    let closes_at = closes_at(&blitz, time_zone)?;
    let closed = closure(c, id)?;
    let rows: Vec<(PlayerId, Option<i32>, NaiveDateTime)> = en::table
        .filter(en::competition_id.eq(id))
        .order(en::seed)
        .select((en::player_id, en::rating, en::created_at))
        .load(c)?;
    let mut out = Vec::with_capacity(rows.len());
    for (player_id, rating, at) in rows {
        let p = players::by_id(c, player_id)?
            .ok_or_else(|| ApiError::Internal(format!("entrant {player_id} has no player")))?;
        out.push(CheckedIn {
            name: p.name,
            player_id: insider.then_some(player_id.get()),
            guest: insider.then_some(p.membership == Membership::Guest),
            rating: if insider { rating } else { None },
            checked_in_at: insider.then(|| at.and_utc()),
        });
    }
    Ok(CheckInView {
        competition_id: id.get(),
        blitz,
        closes_at,
        status: if closed.is_some() {
            crate::vocab::CheckInStatus::Closed
        } else {
            crate::vocab::CheckInStatus::Open
        },
        participants: out.len(),
        rounds: closed.map(|k| k.rounds),
        players: out,
    })
}

/// Checks a player in, in the caller's transaction: a registered player by id, or a guest
/// created here (membership `guest`) with the rating given; the player becomes an entrant.
/// 409 when the competition is not a blitz championship, when check-in is closed (by the
/// clock at `now`, or by the arbiter), or when the player (a guest: the name) is checked in
/// already; 422 naming the field for an unknown or inactive player, a bad name or rating, or
/// more entrants than `limits` allow. Answers the check-in after as the club's staff see it.
pub fn check_in_and_view(
    c: &mut DbConn,
    id: CompetitionId,
    arrival: &Arrival,
    now: DateTime<Utc>,
    time_zone: &str,
    limits: &crate::limits::WorkLimits,
    actor: &str,
) -> ApiResult<CheckInView> {
    // the content first: a bad field is a 422 whatever the state
    if let Arrival::Guest { name, rating } = arrival {
        let mut errs = Vec::new();
        if let Err(e) = crate::services::input::bounded_name("name", name, GUEST_NAME_MAX) {
            errs.push(e);
        }
        let max = crate::services::ratings::MAX_RATING;
        if rating.is_some_and(|r| !(0..=max).contains(&r)) {
            errs.push(FieldError::new(
                "rating",
                format!("must be from 0 to {max}"),
            ));
        }
        if !errs.is_empty() {
            return Err(ApiError::validation(errs));
        }
    }
    let comp = comps::load(c, id)?;
    let blitz = blitz_of(&comp)?;
    // queue concurrent check-ins of one competition (row lock on Postgres)
    crate::store::stamps::touch_now(c, Scope::Competition(id))?;
    if let Some(k) = closure(c, id)? {
        return Err(ApiError::Conflict(format!(
            "the check-in of competition {id} was closed at {} UTC with {} participants and \
             {} rounds; nobody is checked in after that",
            k.closed_at.format("%Y-%m-%d %H:%M"),
            k.participants,
            k.rounds
        )));
    }
    let closes = closes_at(&blitz, time_zone)?;
    if !clubcomp_engine::blitz::checked_in_on_time(now, closes) {
        return Err(ApiError::Conflict(format!(
            "check-in of competition {id} closed at the end of {} {time_zone} on {}: the \
             blitz championship is open to the players present by then",
            blitz.check_in_closes.format("%H:%M"),
            blitz.date
        )));
    }
    let (player_id, rating) = match arrival {
        Arrival::Player(pid) => {
            let p = players::by_id(c, *pid)?
                .ok_or_else(|| ApiError::invalid("player_id", format!("no player {pid}")))?;
            if !p.active {
                return Err(ApiError::invalid(
                    "player_id",
                    format!(
                        "{} (player {pid}) is inactive and cannot be checked in",
                        p.name
                    ),
                ));
            }
            let entered: i64 = en::table
                .filter(en::competition_id.eq(id))
                .filter(en::player_id.eq(pid))
                .count()
                .get_result(c)?;
            if entered > 0 {
                return Err(ApiError::Conflict(format!(
                    "{} (player {pid}) is checked in already; a player is checked in once",
                    p.name
                )));
            }
            (*pid, None)
        }
        Arrival::Guest { name, rating } => {
            let name = name.trim().to_string();
            let taken: Vec<(PlayerId, String)> = en::table
                .inner_join(crate::store::schema::players::table)
                .filter(en::competition_id.eq(id))
                .select((
                    crate::store::schema::players::id,
                    crate::store::schema::players::name,
                ))
                .load(c)?;
            if let Some((other, _)) = taken
                .iter()
                .find(|(_, n)| n.to_lowercase() == name.to_lowercase())
            {
                return Err(ApiError::Conflict(format!(
                    "a player named {name} is checked in already (player {other}); a guest is \
                     checked in once, and two players of one name could not be told apart"
                )));
            }
            let now = now_utc();
            let p = crate::services::players::create(c, &NewPlayer::guest(name, now))?;
            (p.id, *rating)
        }
    };
    comps::enter(
        c,
        id,
        &[comps::Entry {
            player_id,
            joins_at: None,
            excused_before: None,
        }],
        limits,
    )?;
    if let Some(r) = rating {
        crate::services::competitions::rows::set_entrant_rating(c, id, player_id, r)?;
    }
    audit(
        c,
        &NewAuditEntry {
            entity: crate::vocab::AuditEntity::Competition,
            entity_id: id.get(),
            action: "checked_in".into(),
            actor: actor.to_string(),
            at: now_utc(),
            old_value: None,
            new_value: Some(
                serde_json::json!({
                    "player_id": player_id,
                    "guest": matches!(arrival, Arrival::Guest { .. }),
                })
                .to_string(),
            ),
            reason: None,
        },
    )?;
    crate::store::stamps::touch(c, Scope::Competition(id))?;
    crate::store::stamps::record(
        c,
        NewEvent::new(EventKind::AttendanceChanged, Visibility::Leader)
            .competition(id)
            .payload(serde_json::json!({"player": player_id, "action": "check_in"})),
    )?;
    view(c, id, time_zone, true)
}

/// Closes the check-in, in the caller's transaction: the number of rounds follows from the
/// participants by the competition's rounds rule and is stored as its planned rounds; audited.
/// 409 when the competition is not a blitz championship, when check-in is closed already, or
/// with fewer than two participants. Answers the check-in after as the club's staff see it, in
/// the club's `time_zone`.
pub fn close_and_view(
    c: &mut DbConn,
    id: CompetitionId,
    actor: &str,
    time_zone: &str,
) -> ApiResult<CheckInView> {
    let comp = comps::load(c, id)?;
    let blitz = blitz_of(&comp)?;
    crate::store::stamps::touch_now(c, Scope::Competition(id))?;
    if let Some(k) = closure(c, id)? {
        return Err(ApiError::Conflict(format!(
            "the check-in of competition {id} is closed already (at {} UTC, {} participants, \
             {} rounds); it is closed once",
            k.closed_at.format("%Y-%m-%d %H:%M"),
            k.participants,
            k.rounds
        )));
    }
    let n: i64 = en::table
        .filter(en::competition_id.eq(id))
        .count()
        .get_result(c)?;
    if n < 2 {
        return Err(ApiError::Conflict(format!(
            "competition {id} has {n} participants checked in; a Swiss needs at least 2 to \
             close check-in and fix the number of rounds"
        )));
    }
    let participants = u32::try_from(n).unwrap_or(u32::MAX);
    let rounds = clubcomp_engine::blitz::swiss_rounds(participants, blitz.rounds_rule());
    let rounds = i32::try_from(rounds).unwrap_or(i32::MAX);
    let now = now_utc();
    diesel::insert_into(cl::table)
        .values(&NewClosure {
            competition_id: id.get(),
            participants: i32::try_from(n).unwrap_or(i32::MAX),
            rounds,
            closed_by: actor.to_string(),
            closed_at: now,
        })
        .execute(c)?;
    crate::services::competitions::rows::set_rounds_planned(c, id, rounds)?;
    audit(
        c,
        &NewAuditEntry {
            entity: crate::vocab::AuditEntity::Competition,
            entity_id: id.get(),
            action: "check_in_closed".into(),
            actor: actor.to_string(),
            at: now,
            old_value: comp.rounds_planned.map(|r| r.to_string()),
            new_value: Some(serde_json::json!({"participants": n, "rounds": rounds}).to_string()),
            reason: None,
        },
    )?;
    crate::store::stamps::touch(c, Scope::Competition(id))?;
    view(c, id, time_zone, true)
}
