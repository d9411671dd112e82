//! Attendance for one evening (docs/rules/keizer.md#attendance-and-deadlines): the sign-up/sign-off deadline as a UTC instant, and
//! each player's status from the time-ordered list of changes (who, when, through which
//! channel, recorded by whom). Pure: the caller passes the changes and the time zone; the
//! engine has no clock.
//!
//! Rules and decisions (also in `docs/decisions/0003-keizer-pairing-calendar-attendance.md`):
//! - Deadline: `days_before` days before the evening (default 1) at `time` (default 18:00) in
//!   `time_zone` (default Europe/Amsterdam), converted to UTC with chrono-tz, so DST weeks are
//!   right. "Vóór 18.00" is strictly before: a change at exactly the deadline is late. A
//!   local deadline inside a DST gap is moved one hour on; inside a fold the earlier instant
//!   is taken.
//! - Fixed player: expected by default. Sign-off on time → excused; late → unexcused, unless a
//!   leader or arbiter records it with force majeure → excused (a force-majeure flag set by
//!   the member is ignored).
//! - Flexible player: not signed up by default (counts as absent without notice); a sign-up on
//!   time → signed up (paired). A late sign-up is refused unless a leader records it. A
//!   flexible player may sign off with the same effect as a fixed player (decision, docs/rules/keizer.md#attendance-and-deadlines).
//! - A late sign-up of a fixed player who had signed off is treated like a flexible player's:
//!   refused unless a leader records it (the pairing is published after the deadline).
//! - Guests (blitz only) are treated like flexible players.
//! - On the night the arbiter (or leader) marks players present or absent at any time. A
//!   player who was to be paired and is marked absent is a no-show: absent without notice
//!   (docs/rules/keizer.md#scoring). Marks by a member are refused.
//! - Rapid and blitz evenings: only check-ins count. A player is paired only when checked in by
//!   an arbiter or leader, or by themselves with the venue's check-in code
//!   ([`Channel::VenueCode`]), by `check_in_minutes` (default 15) before the start; the minute
//!   of the cut-off counts as a whole (round at 20:00: 19:45:59 is on time, 19:46:00 late,
//!   docs/rules/rapid-blitz.md#self-check-in); a later check-in is refused; no check-in →
//!   absent, not paired.
//! - Changes are applied in time order; equal times keep the order given. The last valid
//!   change wins. Refused changes are listed with the reason and change nothing.
//!
//! # Example
//!
//! The default deadline: the day before the evening at 18:00 in the club's time zone. For
//! Friday 4 December 2026 that is Thursday 18:00 in Amsterdam, 17:00 UTC (winter time).
//!
//! ```
//! use chrono::{NaiveDate, TimeZone, Utc};
//! use clubcomp_engine::attendance::{DeadlineRule, deadline};
//!
//! let evening = NaiveDate::from_ymd_opt(2026, 12, 4).unwrap();
//! let at = deadline(evening, &DeadlineRule::default()).unwrap();
//! assert_eq!(at, Utc.with_ymd_and_hms(2026, 12, 3, 17, 0, 0).unwrap());
//! ```

use chrono::{DateTime, Duration, NaiveDate, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

use crate::keizer::pairing::PlayerId;

pub(crate) use crate::vocab::Membership;

/// Who recorded a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Recorder {
    /// The member through their own account.
    Member,
    /// The competition leader (also on a player's behalf).
    Leader,
    /// The arbiter of the evening.
    Arbiter,
}

/// Through which channel the change came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    /// The member's own account.
    Account,
    /// E-mail to the leader.
    Email,
    /// Phone call to the leader.
    Phone,
    /// In person at the club.
    InPerson,
    /// The member's own account with the check-in code shown at the venue: a self check-in
    /// (docs/rules/rapid-blitz.md#self-check-in).
    VenueCode,
}

/// What a change does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Sign up (to be paired).
    SignUp,
    /// Sign off (not to be paired).
    SignOff,
    /// Marked present on the night.
    MarkPresent,
    /// Marked absent on the night.
    MarkAbsent,
    /// Checked in by the arbiter (rapid and blitz).
    CheckIn,
}

/// One change, as stored: who, when, what, through which channel, recorded by whom.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Change {
    /// The player concerned.
    pub player: PlayerId,
    /// When it was made (UTC).
    pub at: DateTime<Utc>,
    /// What it does.
    pub action: Action,
    /// Who recorded it.
    pub recorded_by: Recorder,
    /// Through which channel.
    pub channel: Channel,
    /// A sign-off after the deadline for reasons of force majeure (leader or arbiter only).
    #[serde(default)]
    pub force_majeure: bool,
    /// The evenings it applies to (one or several at once).
    pub evenings: Vec<NaiveDate>,
}

/// The kind of evening, for attendance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EveningType {
    /// A Keizer evening: sign-up/sign-off with a deadline.
    Keizer,
    /// A rapid evening: check-in only.
    Rapid,
    /// The blitz championship: check-in only.
    Blitz,
}

/// The deadline rule (docs/rules/keizer.md#attendance-and-deadlines), configurable per competition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DeadlineRule {
    /// Days before the evening (1: the day before).
    pub days_before: u32,
    /// Local time of the deadline.
    pub time: NaiveTime,
    /// IANA time zone of the club.
    pub time_zone: String,
}

impl Default for DeadlineRule {
    fn default() -> Self {
        DeadlineRule {
            days_before: 1,
            time: NaiveTime::from_hms_opt(18, 0, 0).unwrap_or(NaiveTime::MIN),
            time_zone: "Europe/Amsterdam".into(),
        }
    }
}

/// One player the evening concerns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attendee {
    /// The player.
    pub id: PlayerId,
    /// Membership.
    pub membership: Membership,
}

/// Everything the attendance of one evening depends on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttendanceInput {
    /// Date of the evening.
    pub date: NaiveDate,
    /// Local start time of the evening (or of the round, for check-in).
    pub start_time: NaiveTime,
    /// Kind of evening.
    pub kind: EveningType,
    /// Deadline rule.
    #[serde(default)]
    pub deadline: DeadlineRule,
    /// Minutes before the start by which players must be checked in (rapid, blitz).
    #[serde(default = "fifteen")]
    pub check_in_minutes: u32,
    /// The players.
    pub players: Vec<Attendee>,
    /// All changes (any order; applied in time order).
    pub changes: Vec<Change>,
}

fn fifteen() -> u32 {
    15
}

/// A player's status for the evening.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// A fixed player expected to play (paired).
    Expected,
    /// A flexible player (or guest) who signed up (paired).
    SignedUp,
    /// A flexible player who did not sign up: not paired; absent without notice.
    NotSignedUp,
    /// Signed off in time, or late with force majeure: absent with notice.
    Excused,
    /// Signed off late: absent without notice.
    Unexcused,
    /// Marked present on the night (paired).
    Present,
    /// Marked absent on the night although expected: a no-show, absent without notice.
    NoShow,
    /// Checked in for a rapid or blitz round (paired).
    CheckedIn,
    /// Not checked in for a rapid or blitz round (not paired).
    NotCheckedIn,
}

impl Status {
    /// Whether the player is paired with this status.
    pub fn paired(self) -> bool {
        matches!(
            self,
            Status::Expected | Status::SignedUp | Status::Present | Status::CheckedIn
        )
    }

    /// Whether this counts as absent without notice (docs/rules/keizer.md#scoring, docs/rules/keizer.md#prizes).
    pub fn without_notice(self) -> bool {
        matches!(
            self,
            Status::NotSignedUp | Status::Unexcused | Status::NoShow
        )
    }
}

/// A change that was refused, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttendanceRefusal {
    /// Index of the change in the input list.
    pub change: usize,
    /// Why it was refused.
    pub reason: String,
}

/// The outcome for one player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerAttendance {
    /// The player.
    pub player: PlayerId,
    /// The status for the evening.
    pub status: Status,
    /// Whether the player is paired.
    pub paired: bool,
    /// Index of the change that set the status (none: the default).
    pub decided_by: Option<usize>,
    /// Refused changes of this player.
    pub refused: Vec<AttendanceRefusal>,
}

/// The attendance of one evening.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attendance {
    /// The sign-up/sign-off deadline (UTC).
    pub deadline: DateTime<Utc>,
    /// The check-in cut-off (UTC), for rapid and blitz.
    pub check_in_by: Option<DateTime<Utc>>,
    /// Per player, in input order.
    pub players: Vec<PlayerAttendance>,
}

/// Why the attendance could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum AttendanceError {
    /// The time zone is not a known IANA zone.
    #[error("unknown time zone {time_zone:?}")]
    UnknownTimeZone {
        /// The zone given.
        time_zone: String,
    },
    /// A change names a player not in the list.
    #[error("change {change} names unknown player {player}")]
    UnknownPlayer {
        /// Index of the change.
        change: usize,
        /// The player.
        player: PlayerId,
    },
    /// A local time that cannot be placed on the time line.
    #[error("the local time {local} does not exist in {time_zone}")]
    NoSuchLocalTime {
        /// The local date and time.
        local: String,
        /// The zone.
        time_zone: String,
    },
}

/// The UTC instant of a local date and time in `zone`: in a DST fold the earlier instant, in a
/// DST gap the same wall-clock time one hour later.
pub fn local_to_utc(
    date: NaiveDate,
    time: NaiveTime,
    zone: &str,
) -> Result<DateTime<Utc>, AttendanceError> {
    let tz: Tz = zone.parse().map_err(|_| AttendanceError::UnknownTimeZone {
        time_zone: zone.to_string(),
    })?;
    let local = date.and_time(time);
    tz.from_local_datetime(&local)
        .earliest()
        .or_else(|| {
            tz.from_local_datetime(&(local + Duration::hours(1)))
                .earliest()
        })
        .map(|t| t.with_timezone(&Utc))
        .ok_or_else(|| AttendanceError::NoSuchLocalTime {
            local: local.to_string(),
            time_zone: zone.to_string(),
        })
}

/// The sign-up/sign-off deadline of the evening on `date` (docs/rules/keizer.md#attendance-and-deadlines), as a UTC instant.
pub fn deadline(date: NaiveDate, rule: &DeadlineRule) -> Result<DateTime<Utc>, AttendanceError> {
    let day = date - Duration::days(i64::from(rule.days_before));
    local_to_utc(day, rule.time, &rule.time_zone)
}

fn default_status(kind: EveningType, m: Membership) -> Status {
    match (kind, m) {
        (EveningType::Rapid | EveningType::Blitz, _) => Status::NotCheckedIn,
        (EveningType::Keizer, Membership::Fixed) => Status::Expected,
        (EveningType::Keizer, _) => Status::NotSignedUp,
    }
}

/// Applies one change to a status; `Err(reason)` when it is refused.
fn apply(
    kind: EveningType,
    status: Status,
    c: &Change,
    late: bool,
    check_in_late: bool,
) -> Result<Status, String> {
    let official = matches!(c.recorded_by, Recorder::Leader | Recorder::Arbiter);
    if kind != EveningType::Keizer {
        return match c.action {
            Action::CheckIn if !official && c.channel == Channel::VenueCode => {
                if check_in_late {
                    Err("checked in after the cut-off: not paired this round".into())
                } else {
                    Ok(Status::CheckedIn)
                }
            }
            Action::CheckIn | Action::MarkPresent if !official => Err(
                "only the arbiter or leader checks players in, or the player with the venue's \
                 check-in code"
                    .into(),
            ),
            Action::CheckIn | Action::MarkPresent if check_in_late => {
                Err("checked in after the cut-off: not paired this round".into())
            }
            Action::CheckIn | Action::MarkPresent => Ok(Status::CheckedIn),
            Action::MarkAbsent if official => Ok(Status::NotCheckedIn),
            Action::MarkAbsent => Err("only the arbiter or leader marks players absent".into()),
            Action::SignUp | Action::SignOff => {
                Err("rapid and blitz rounds use check-in, not sign-up".into())
            }
        };
    }
    match c.action {
        Action::SignOff if !late => Ok(Status::Excused),
        Action::SignOff if c.force_majeure && official => Ok(Status::Excused),
        // late: a paired player becomes absent without notice; a force-majeure flag set by
        // a member is ignored (only the leader or arbiter can grant it)
        Action::SignOff => Ok(if status.paired() {
            Status::Unexcused
        } else {
            status
        }),
        // already to be paired: a (late) sign-up changes nothing and is not refused
        Action::SignUp if status.paired() => Ok(status),
        Action::SignUp if late && c.recorded_by != Recorder::Leader => {
            Err("sign-up after the deadline; only the leader can record it".into())
        }
        Action::SignUp => Ok(Status::SignedUp),
        Action::MarkPresent if official => Ok(Status::Present),
        Action::MarkAbsent if official => Ok(if status.paired() {
            Status::NoShow
        } else {
            status
        }),
        Action::MarkPresent | Action::MarkAbsent => {
            Err("only the arbiter or leader marks presence".into())
        }
        Action::CheckIn => Err("check-in is for rapid and blitz rounds".into()),
    }
}

/// Whether a check-in at `at` is on time for the cut-off `check_in_by`: the cut-off is a
/// time named to the minute, and the whole of that minute counts
/// (docs/rules/rapid-blitz.md#self-check-in): for a cut-off at 19:45, 19:45:59.999 is on time
/// and 19:46:00 is late.
pub fn on_time_for_check_in(at: DateTime<Utc>, check_in_by: DateTime<Utc>) -> bool {
    at < check_in_by + Duration::minutes(1)
}

/// Each player's status for the evening from the changes (docs/rules/keizer.md#attendance-and-deadlines).
pub fn attendance(input: &AttendanceInput) -> Result<Attendance, AttendanceError> {
    let dl = deadline(input.date, &input.deadline)?;
    let start = local_to_utc(input.date, input.start_time, &input.deadline.time_zone)?;
    let check_in_by = start - Duration::minutes(i64::from(input.check_in_minutes));
    let mut players: Vec<PlayerAttendance> = input
        .players
        .iter()
        .map(|p| PlayerAttendance {
            player: p.id.clone(),
            status: default_status(input.kind, p.membership),
            paired: false,
            decided_by: None,
            refused: Vec::new(),
        })
        .collect();
    let mut order: Vec<usize> = (0..input.changes.len())
        .filter(|&i| input.changes[i].evenings.contains(&input.date))
        .collect();
    order.sort_by_key(|&i| input.changes[i].at); // stable: equal times keep their order
    for i in order {
        let c = &input.changes[i];
        let Some(pi) = input.players.iter().position(|p| p.id == c.player) else {
            return Err(AttendanceError::UnknownPlayer {
                change: i,
                player: c.player.clone(),
            });
        };
        let pa = &mut players[pi];
        let check_in_late = !on_time_for_check_in(c.at, check_in_by);
        match apply(input.kind, pa.status, c, c.at >= dl, check_in_late) {
            Ok(s) => {
                pa.status = s;
                pa.decided_by = Some(i);
            }
            Err(reason) => pa.refused.push(AttendanceRefusal { change: i, reason }),
        }
    }
    for p in &mut players {
        p.paired = p.status.paired();
    }
    Ok(Attendance {
        deadline: dl,
        check_in_by: (input.kind != EveningType::Keizer).then_some(check_in_by),
        players,
    })
}

#[cfg(test)]
#[path = "attendance/tests.rs"]
mod tests;
