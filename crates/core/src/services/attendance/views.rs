//! What the attendance answers with: a player's status after a change, the stored changes,
//! a round's attendance for the staff and a member's own rounds.

use super::{
    entrant_memberships, evaluate, evening, history, local, round_context, split_recorded_by,
};
use crate::error::{ApiError, ApiResult};
use crate::ids::{CompetitionId, PlayerId};
use crate::store::DbConn;
use crate::store::models::competition::Attendance;
use crate::store::models::players;
use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use utoipa::ToSchema;

/// A player's status for one round after a change.
#[derive(Debug, Serialize, ToSchema)]
pub struct Outcome {
    /// Round number.
    pub round: i32,
    /// The player.
    pub player_id: i64,
    /// `expected`, `signed_up`, `not_signed_up`, `excused`, `unexcused`, `present`,
    /// `no_show`, `checked_in` or `not_checked_in`.
    pub status: crate::vocab::AttendanceStatus,
    /// Whether the player is to be paired.
    pub paired: bool,
}

/// One stored change.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChangeView {
    /// Id (order of recording).
    pub id: i64,
    /// The player.
    pub player_id: i64,
    /// `sign_up`, `sign_off`, `force_majeure`, `present` or `absent`.
    pub action: crate::vocab::ChangeAction,
    /// `account`, `email`, `phone` or `in_person`.
    pub channel: crate::vocab::ChangeChannel,
    /// The capacity it was recorded in: `member`, `leader` or `arbiter`.
    pub capacity: crate::vocab::Capacity,
    /// The account that recorded it.
    pub recorded_by: String,
    /// When (UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    pub at: DateTime<Utc>,
    /// Note.
    #[schema(required = true)]
    pub note: Option<String>,
}

/// One entrant's attendance for a round.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerStatus {
    /// The player.
    pub player_id: i64,
    /// Name.
    pub name: String,
    /// `fixed`, `flexible` or `guest`.
    #[schema(value_type = crate::schemas::Membership)]
    pub membership: String,
    /// The attendance status, as in an `Outcome`.
    pub status: crate::vocab::AttendanceStatus,
    /// Whether the player is to be paired.
    pub paired: bool,
}

/// The attendance of one round.
#[derive(Debug, Serialize, ToSchema)]
pub struct RoundAttendance {
    /// Round number.
    pub round: i32,
    /// Date of the evening.
    #[schema(required = true)]
    pub date: Option<NaiveDate>,
    /// Sign-up/sign-off deadline (UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    pub deadline: DateTime<Utc>,
    /// The deadline in the club's time zone.
    pub deadline_local: String,
    /// Check-in cut-off (rapid and blitz; UTC).
    #[serde(serialize_with = "crate::wire::utc_opt")]
    #[schema(required = true)]
    pub check_in_by: Option<DateTime<Utc>>,
    /// Every entrant's status, in seed order.
    pub players: Vec<PlayerStatus>,
    /// Every change, oldest first.
    pub history: Vec<ChangeView>,
}

/// A member's own attendance for one round.
#[derive(Debug, Serialize, ToSchema)]
pub struct OwnRound {
    /// Round number.
    pub round: i32,
    /// Date of the evening.
    #[schema(required = true)]
    pub date: Option<NaiveDate>,
    /// Sign-up/sign-off deadline (UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    pub deadline: DateTime<Utc>,
    /// The attendance status, as in an `Outcome`.
    pub status: crate::vocab::AttendanceStatus,
    /// Whether the member is to be paired.
    pub paired: bool,
    /// The member's own changes, oldest first.
    pub history: Vec<ChangeView>,
}

pub(super) fn status_name(
    s: clubcomp_engine::attendance::Status,
) -> crate::vocab::AttendanceStatus {
    s.into()
}

fn change_view(a: Attendance) -> ChangeView {
    let (cap, acct) = split_recorded_by(&a.recorded_by);
    ChangeView {
        id: a.id.get(),
        player_id: a.player_id.get(),
        action: a.action,
        channel: a.channel,
        capacity: cap,
        recorded_by: acct.to_string(),
        at: DateTime::from_naive_utc_and_offset(a.at, Utc),
        note: a.note.clone(),
    }
}

/// The attendance of round `number` of competition `id`: every entrant's status and every
/// change, in the club's `time_zone`.
pub fn round_attendance(
    c: &mut DbConn,
    id: CompetitionId,
    number: i32,
    time_zone: &str,
) -> ApiResult<RoundAttendance> {
    let comp = crate::services::competitions::load(c, id)?;
    let round = crate::services::rounds::load(c, id, number)?;
    let a = evening(c, &comp, &round, time_zone)?;
    let mut players_out = Vec::new();
    for p in &a.players {
        let pid = PlayerId::from_engine(&p.player)?;
        let row = players::by_id(c, pid)?;
        players_out.push(PlayerStatus {
            player_id: pid.get(),
            name: row.as_ref().map(|r| r.name.clone()).unwrap_or_default(),
            membership: row.map(|r| r.membership.into()).unwrap_or_default(),
            status: status_name(p.status),
            paired: p.paired,
        });
    }
    let history = history(c, round.id)?.into_iter().map(change_view).collect();
    let date = round_context(c, &comp, &round, time_zone)?.date;
    Ok(RoundAttendance {
        round: round.number,
        date: (chrono::Datelike::year(&date) < 9999).then_some(date),
        deadline: a.deadline,
        deadline_local: local(a.deadline, time_zone),
        check_in_by: a.check_in_by,
        players: players_out,
        history,
    })
}

/// Player `player`'s own attendance per round of competition `id` (422 when they are no
/// entrant), in the club's `time_zone`.
pub fn own_rounds(
    c: &mut DbConn,
    id: CompetitionId,
    player: PlayerId,
    time_zone: &str,
) -> ApiResult<Vec<OwnRound>> {
    let comp = crate::services::competitions::load(c, id)?;
    let players = entrant_memberships(c, id)?;
    let Some(&me) = players.iter().find(|(p, _)| *p == player) else {
        return Err(ApiError::invalid(
            "account",
            format!("player {player} is not an entrant of competition {id}"),
        ));
    };
    let mut out = Vec::new();
    for round in crate::services::rounds::list(c, id)? {
        let ctx = round_context(c, &comp, &round, time_zone)?;
        let a = evaluate(c, &ctx, round.id, &[me], None)?;
        let Some(p) = a.players.first() else { continue };
        let history = history(c, round.id)?
            .into_iter()
            .filter(|h| h.player_id == player)
            .map(change_view)
            .collect();
        out.push(OwnRound {
            round: round.number,
            date: round.date,
            deadline: a.deadline,
            status: status_name(p.status),
            paired: p.paired,
            history,
        });
    }
    Ok(out)
}
