//! Attendance (docs/rules/keizer.md#attendance-and-deadlines): members sign up and off for themselves, the leader records it for
//! anyone with the channel it came through, the arbiter checks players in (rapid, blitz) and
//! marks presence, absence and force majeure on the night. Every change keeps who, when and
//! through which channel; leaders and arbiters read the full history, a member his own.

use crate::api::Body;
use crate::auth::{Arbiter, Auth, Leader, Principal, Role, RoleSet};
use crate::error::{ApiError, ApiResult, FieldError, Problem};
use crate::ids::{CompetitionId, PlayerId};
use crate::services::attendance::{self as svc, ChangeRequest};
pub use crate::services::attendance::{
    ChangeView, Outcome, OwnRound, PlayerStatus, RoundAttendance,
};
use crate::state::AppState;
use actix_web::{HttpResponse, get, post, put, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Accounts that may sign themselves up or off: every human role (the account must be
/// linked to a player).
#[derive(Debug)]
pub struct Account;

impl RoleSet for Account {
    const ROLES: &'static [Role] = &[Role::Member, Role::Leader, Role::Arbiter, Role::Admin];
}

pub use clubcomp_core::vocab::{AttendanceAction, AttendanceChannel, MarkKind};

/// Round numbers of a sign-up or sign-off: 1 to 100, none twice (schema only).
#[derive(Debug)]
pub struct RoundNumbers;

impl utoipa::PartialSchema for RoundNumbers {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{
            ArrayBuilder, KnownFormat, ObjectBuilder, SchemaFormat, Type,
        };
        ArrayBuilder::new()
            .items(
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int32))),
            )
            .min_items(Some(1))
            .max_items(Some(100))
            .unique_items(true)
            .description(Some(
                "Round numbers of the competition: 1 to 100 of them, none twice.",
            ))
            .into()
    }
}

impl utoipa::ToSchema for RoundNumbers {}

/// A member's own sign-up or sign-off for one or several rounds.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"action": "sign_off", "rounds": [3, 4]}))]
pub struct OwnAttendance {
    /// `sign_up` or `sign_off`.
    pub action: AttendanceAction,
    /// Round numbers of the competition (1 to 100 at once, none twice).
    #[schema(value_type = RoundNumbers)]
    pub rounds: Vec<i32>,
    /// Optional note (at most 500 characters).
    #[schema(max_length = 500)]
    pub note: Option<String>,
}

/// A sign-up or sign-off the leader records on a player's behalf.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"player_id": 7, "action": "sign_off", "rounds": [5], "channel": "phone"}))]
pub struct RecordAttendance {
    /// The player (an entrant of the competition).
    pub player_id: i64,
    /// `sign_up` or `sign_off`.
    pub action: AttendanceAction,
    /// Round numbers (1 to 100 at once, none twice).
    #[schema(value_type = RoundNumbers)]
    pub rounds: Vec<i32>,
    /// How it reached the leader: `email`, `phone` or `in_person`.
    pub channel: AttendanceChannel,
    /// A late sign-off for reasons of force majeure: absent with notice (docs/rules/keizer.md#attendance-and-deadlines); only with
    /// `sign_off`.
    #[serde(default)]
    pub force_majeure: bool,
    /// Optional note (at most 500 characters).
    #[schema(max_length = 500)]
    pub note: Option<String>,
}

/// One mark of the arbiter on the night.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Mark {
    /// The player.
    pub player_id: i64,
    /// `present` (rapid/blitz: checked in), `absent`, or `force_majeure` (a sign-off with
    /// force majeure: absent with notice).
    pub mark: MarkKind,
}

/// The arbiter's marks for one round.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"marks": [{"player_id": 7, "mark": "present"}, {"player_id": 9, "mark": "absent"}]}))]
pub struct CheckIns {
    /// The marks, applied in order (1 to 500).
    #[schema(min_items = 1, max_items = 500)]
    pub marks: Vec<Mark>,
    /// Optional note (at most 500 characters).
    #[schema(max_length = 500)]
    pub note: Option<String>,
}

fn check_note(note: &Option<String>, errs: &mut Vec<FieldError>) {
    if note.as_ref().is_some_and(|n| n.chars().count() > 500) {
        errs.push(FieldError::new("note", "must be at most 500 characters"));
    } else if let Some(Err(e)) = note
        .as_deref()
        .map(|n| crate::services::input::one_line("note", n))
    {
        errs.push(e);
    }
}

fn check_rounds(rounds: &[i32], errs: &mut Vec<FieldError>) {
    if rounds.is_empty() || rounds.len() > 100 {
        errs.push(FieldError::new(
            "rounds",
            "must list 1 to 100 round numbers",
        ));
    }
    let mut seen = std::collections::HashSet::new();
    for (i, r) in rounds.iter().enumerate() {
        if !seen.insert(*r) {
            errs.push(FieldError::new(format!("rounds[{i}]"), "is listed twice"));
        }
    }
}

fn linked_player(p: &Principal) -> ApiResult<PlayerId> {
    p.player_id.ok_or_else(|| {
        ApiError::invalid(
            "account",
            "your account is not linked to a player; ask the leader to record it",
        )
    })
}

/// Signs the caller (the player linked to the account) up or off for one or several rounds.
/// Deadlines apply (docs/rules/keizer.md#attendance-and-deadlines): a late sign-off is absent without notice, a late sign-up is
/// refused (422 naming the deadline).
#[utoipa::path(tag = "attendance", request_body = OwnAttendance,
    params(("id" = i64, Path, description = "Competition id")),
    responses((status = 200, description = "Status per round after the change", body = Vec<Outcome>),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a club account", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A round is completed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid fields, not linked to an entrant, or past the deadline", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["member", "leader", "arbiter", "admin"])))]
#[post("/competitions/{id}/attendance/me")]
pub async fn create_own_attendance(
    auth: Auth<Account>,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
    body: Body<OwnAttendance>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let mut errs = Vec::new();
    check_rounds(&b.rounds, &mut errs);
    check_note(&b.note, &mut errs);
    if !errs.is_empty() {
        return Err(ApiError::validation(errs));
    }
    let player = linked_player(&auth.principal)?;
    let account = auth.principal.label.clone();
    let tz = state.config.club_timezone.name().to_string();
    let out = state
        .tx(move |c| {
            let change = ChangeRequest::own(player, b.action, &account, &b.note);
            svc::record_rounds(c, id, &b.rounds, &change, &tz)
        })
        .await?;
    Ok(HttpResponse::Ok().json(out))
}

/// Records a sign-up or sign-off on a player's behalf (e-mail, phone, in person). The leader
/// may record a late sign-up and grant force majeure for a late sign-off.
#[utoipa::path(tag = "attendance", request_body = RecordAttendance,
    params(("id" = i64, Path, description = "Competition id")),
    responses((status = 200, description = "Status per round after the change", body = Vec<Outcome>),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A round is completed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid fields", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[post("/competitions/{id}/attendance")]
pub async fn create_attendance(
    auth: Auth<Leader>,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
    body: Body<RecordAttendance>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let mut errs = Vec::new();
    check_rounds(&b.rounds, &mut errs);
    check_note(&b.note, &mut errs);
    if b.force_majeure && b.action != AttendanceAction::SignOff {
        errs.push(FieldError::new(
            "force_majeure",
            "applies to a sign-off only",
        ));
    }
    if !errs.is_empty() {
        return Err(ApiError::validation(errs));
    }
    let account = auth.principal.label.clone();
    let tz = state.config.club_timezone.name().to_string();
    let out = state
        .tx(move |c| {
            let change = ChangeRequest::by_leader(
                PlayerId(b.player_id),
                b.action,
                b.force_majeure,
                b.channel,
                &account,
                &b.note,
            );
            svc::record_rounds(c, id, &b.rounds, &change, &tz)
        })
        .await?;
    Ok(HttpResponse::Ok().json(out))
}

/// The arbiter's marks on the night: check-in (`present`) at rapid and blitz rounds — only
/// players checked in 15 minutes before the start are paired —, `absent` (a no-show when the
/// player was expected), and `force_majeure` for a late sign-off (absent with notice).
#[utoipa::path(tag = "attendance", request_body = CheckIns,
    params(("id" = i64, Path, description = "Competition id"), ("number" = i32, Path, description = "Round number")),
    responses((status = 200, description = "Status per player after the marks", body = Vec<Outcome>),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter or leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such round", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The round is completed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid marks, or check-in after the cut-off", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[post("/competitions/{id}/rounds/{number}/check-ins")]
pub async fn create_check_ins(
    auth: Auth<Arbiter>,
    state: web::Data<AppState>,
    path: web::Path<(CompetitionId, i32)>,
    body: Body<CheckIns>,
) -> ApiResult<HttpResponse> {
    let (id, number) = path.into_inner();
    let b = body.into_inner()?;
    let mut errs = Vec::new();
    if b.marks.is_empty() || b.marks.len() > 500 {
        errs.push(FieldError::new("marks", "must list 1 to 500 marks"));
    }
    check_note(&b.note, &mut errs);
    if !errs.is_empty() {
        return Err(ApiError::validation(errs));
    }
    // docs/rules/README.md#people-and-roles: the capacity is the arbiter's when the caller holds that role, else the leader's
    let capacity = if auth.principal.roles.contains(&Role::Arbiter) {
        svc::Capacity::Arbiter
    } else {
        svc::Capacity::Leader
    };
    let account = auth.principal.label.clone();
    let tz = state.config.club_timezone.name().to_string();
    let out = state
        .tx(move |c| {
            let marks: Vec<(PlayerId, MarkKind)> = b
                .marks
                .iter()
                .map(|m| (PlayerId(m.player_id), m.mark))
                .collect();
            svc::check_ins(c, id, number, &marks, capacity, &account, &b.note, &tz)
        })
        .await?;
    Ok(HttpResponse::Ok().json(out))
}

/// The attendance of a round: deadline, every entrant's status and the full history of
/// changes (who, when, channel).
#[utoipa::path(tag = "attendance",
    params(("id" = i64, Path, description = "Competition id"), ("number" = i32, Path, description = "Round number")),
    responses((status = 200, description = "The round's attendance", body = RoundAttendance),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter or leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such round", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[get("/competitions/{id}/rounds/{number}/attendance")]
pub async fn get_round_attendance(
    _a: Auth<Arbiter>,
    state: web::Data<AppState>,
    path: web::Path<(CompetitionId, i32)>,
) -> ApiResult<HttpResponse> {
    let (id, number) = path.into_inner();
    let tz = state.config.club_timezone.name().to_string();
    let view = state
        .db(move |c| svc::round_attendance(c, id, number, &tz))
        .await?;
    Ok(HttpResponse::Ok().json(view))
}

/// The caller's own attendance in every round of a competition (status, deadline, his own
/// changes).
#[utoipa::path(tag = "attendance",
    params(("id" = i64, Path, description = "Competition id")),
    responses((status = 200, description = "Own attendance per round", body = Vec<OwnRound>),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a club account", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The account is not linked to an entrant", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["member", "leader", "arbiter", "admin"])))]
#[get("/competitions/{id}/attendance/me")]
pub async fn get_own_attendance(
    auth: Auth<Account>,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let player = linked_player(&auth.principal)?;
    let tz = state.config.club_timezone.name().to_string();
    let out = state
        .db(move |c| svc::own_rounds(c, id, player, &tz))
        .await?;
    Ok(HttpResponse::Ok().json(out))
}

/// A competition's sign-up/sign-off deadline rule (docs/rules/keizer.md#attendance-and-deadlines).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"days_before": 1, "time": "18:00"}))]
pub struct DeadlineRule {
    /// Days before the evening, 0–7 (default 1: the day before).
    #[schema(minimum = 0, maximum = 7)]
    pub days_before: i32,
    /// Local time of the deadline in the club's time zone, `HH:MM` (default 18:00).
    #[schema(pattern = "^([01][0-9]|2[0-3]):[0-5][0-9]$")]
    pub time: String,
}

/// Sets the competition's sign-up/sign-off deadline (default: the day before at 18:00 in the
/// club's time zone). Applies to every round's attendance, also changes already recorded.
#[utoipa::path(tag = "attendance", request_body = DeadlineRule,
    params(("id" = i64, Path, description = "Competition id")),
    responses((status = 200, description = "The rule now in force", body = DeadlineRule),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid fields", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[put("/competitions/{id}/attendance-deadline")]
pub async fn update_attendance_deadline(
    _a: Auth<Leader>,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
    body: Body<DeadlineRule>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let mut errs = Vec::new();
    if !(0..=7).contains(&b.days_before) {
        errs.push(FieldError::new("days_before", "must be from 0 to 7"));
    }
    let time = chrono::NaiveTime::parse_from_str(&b.time, "%H:%M");
    if time.is_err() || b.time.len() != 5 {
        errs.push(FieldError::new("time", "must be a time HH:MM"));
    }
    if !errs.is_empty() {
        return Err(ApiError::validation(errs));
    }
    let (days_before, time) = (b.days_before, b.time.clone());
    state
        .tx(move |c| svc::set_deadline_rule(c, id, days_before, &time))
        .await?;
    Ok(HttpResponse::Ok().json(b))
}
