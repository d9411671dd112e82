//! A member's own privacy ([decision 0327](../../../../docs/decisions/0327-member-data-export.md)):
//! everything the club holds about them in one JSON document (`GET /me/export`), and their
//! own publication setting (`PUT /me/publication`,
//! [decision 0326](../../../../docs/decisions/0326-player-publication.md)).
//!
//! The export's rows carry the names of their table's columns, so a test can hold each
//! table's columns against it; what is left out is left out on purpose (password and token
//! hashes, a mail's bodies) and named in the decision.

use crate::error::{ApiError, ApiResult};
use crate::ids::{PlayerId, UserId};
use crate::publication::Publication;
use crate::services::players::{self, PlayerChanges};
use crate::services::version::ExpectedVersion;
use crate::store::DbConn;
use crate::store::schema::{
    account_tokens as at, attendance as att, audit_log as al, competitions as cm, entrants as en,
    game_reports as gr, games as gm, known_logins as kl, mail_outbox as mo,
    member_preferences as mp, ratings as rt, refresh_tokens as rf, rounds as rd,
};
use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use diesel::prelude::*;
use serde::Serialize;
use utoipa::ToSchema;

/// The most rows of one list in an export; a list cut there is named in `truncated`.
pub const MAX_ROWS: i64 = 5000;

/// Everything the club holds about the caller.
#[derive(Debug, Serialize, ToSchema)]
pub struct MemberExport {
    /// When the export was made (UTC).
    pub exported_at: DateTime<Utc>,
    /// The account (without its password hash).
    pub account: ExportAccount,
    /// The player the account is linked to, with contact data and identifiers.
    #[schema(required = true)]
    pub player: Option<ExportPlayer>,
    /// Every rating list entry of the player.
    pub ratings: Vec<ExportRating>,
    /// Every competition the player is or was entered in.
    pub entrants: Vec<ExportEntrant>,
    /// Every sign-up, sign-off and check-in recorded for the player.
    pub attendance: Vec<ExportAttendance>,
    /// Every game of the player, with its result.
    pub games: Vec<ExportGame>,
    /// Every result the player reported themselves.
    pub game_reports: Vec<ExportGameReport>,
    /// The player's own notification choices (`null`: the club's defaults).
    #[schema(required = true)]
    pub member_preferences: Option<ExportPreferences>,
    /// Every mail queued or kept for the account's or the player's address (without bodies).
    pub mails: Vec<ExportMail>,
    /// The account's sessions (refresh tokens, without their hashes).
    pub sessions: Vec<ExportSession>,
    /// The account's single-use links (invitations, resets, address changes; no hashes).
    pub account_tokens: Vec<ExportAccountToken>,
    /// The devices the account signed in from before (for the new-login mail).
    pub known_logins: Vec<ExportKnownLogin>,
    /// The audit entries about the player or the account, and those they made.
    pub audit: Vec<ExportAudit>,
    /// The lists cut at 5000 rows (empty: everything is in).
    pub truncated: Vec<String>,
}

/// The account.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportAccount {
    /// Id.
    pub id: i64,
    /// Login address.
    pub email: String,
    /// Roles, comma-separated.
    pub roles: String,
    /// Whether it may log in.
    pub active: bool,
    /// Created (UTC).
    #[serde(serialize_with = "crate::wire::naive_utc")]
    pub created_at: NaiveDateTime,
    /// Changed last (UTC).
    #[serde(serialize_with = "crate::wire::naive_utc")]
    pub updated_at: NaiveDateTime,
    /// The linked player.
    #[schema(required = true)]
    pub player_id: Option<i64>,
    /// Raised when every session of the account was ended.
    pub token_generation: i64,
    /// When the address was confirmed.
    #[schema(required = true)]
    #[serde(serialize_with = "crate::wire::naive_utc_opt")]
    pub email_verified_at: Option<NaiveDateTime>,
}

/// The player row, in full.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportPlayer {
    /// Id.
    pub id: i64,
    /// Full name.
    pub name: String,
    /// KNSB number.
    #[schema(required = true)]
    pub knsb_number: Option<String>,
    /// FIDE id.
    #[schema(required = true)]
    pub fide_id: Option<String>,
    /// Membership.
    pub membership: String,
    /// Whether playing.
    pub active: bool,
    /// E-mail address.
    #[schema(required = true)]
    pub email: Option<String>,
    /// Telephone number.
    #[schema(required = true)]
    pub phone: Option<String>,
    /// How the name is published.
    pub publication: Publication,
    /// Version.
    pub version: i64,
    /// Added (UTC).
    #[serde(serialize_with = "crate::wire::naive_utc")]
    pub created_at: NaiveDateTime,
    /// Changed last (UTC).
    #[serde(serialize_with = "crate::wire::naive_utc")]
    pub updated_at: NaiveDateTime,
}

/// A rating list entry.
#[derive(Debug, Serialize, Queryable, ToSchema)]
pub struct ExportRating {
    /// Id.
    pub id: i64,
    /// The rating list it comes from (the federation's or FIDE's), as stored.
    pub source: String,
    /// The rating.
    pub value: i32,
    /// The list's date.
    pub list_date: NaiveDate,
    /// Recorded (UTC).
    #[serde(serialize_with = "crate::wire::naive_utc")]
    pub created_at: NaiveDateTime,
    /// Changed last (UTC).
    #[serde(serialize_with = "crate::wire::naive_utc")]
    pub updated_at: NaiveDateTime,
}

/// An entry in a competition.
#[derive(Debug, Serialize, Queryable, ToSchema)]
pub struct ExportEntrant {
    /// Id.
    pub id: i64,
    /// The competition.
    pub competition_id: i64,
    /// Its name.
    pub competition: String,
    /// Start number.
    pub seed: i32,
    /// Rating at entry.
    #[schema(required = true)]
    pub rating: Option<i32>,
    /// The first round played.
    pub joins_at: i32,
    /// Rounds excused before joining.
    pub excused_before: i32,
    /// Entered (UTC).
    #[serde(serialize_with = "crate::wire::naive_utc")]
    pub created_at: NaiveDateTime,
    /// The round from which withdrawn.
    #[schema(required = true)]
    pub withdrawn_from: Option<i32>,
}

/// An attendance record.
#[derive(Debug, Serialize, Queryable, ToSchema)]
pub struct ExportAttendance {
    /// Id.
    pub id: i64,
    /// The round.
    pub round_id: i64,
    /// What was recorded (a sign-up, a sign-off, a check-in), as stored.
    pub action: String,
    /// How it came in.
    pub channel: String,
    /// Who recorded it.
    pub recorded_by: String,
    /// When (UTC).
    #[serde(serialize_with = "crate::wire::naive_utc")]
    pub at: NaiveDateTime,
    /// The note given.
    #[schema(required = true)]
    pub note: Option<String>,
}

/// A game.
#[derive(Debug, Serialize, Queryable, ToSchema)]
pub struct ExportGame {
    /// Id.
    pub id: i64,
    /// The round.
    pub round_id: i64,
    /// The competition.
    pub competition_id: i64,
    /// The round's number.
    pub round: i32,
    /// Board.
    pub board: i32,
    /// Game of the pairing.
    pub game_no: i32,
    /// White.
    #[schema(required = true)]
    pub white_id: Option<i64>,
    /// Black.
    #[schema(required = true)]
    pub black_id: Option<i64>,
    /// Result.
    #[schema(required = true)]
    pub result: Option<String>,
    /// How it ended.
    #[schema(required = true)]
    pub termination: Option<String>,
    /// Moves played.
    #[schema(required = true)]
    pub move_count: Option<i32>,
    /// Time control.
    #[schema(required = true)]
    pub time_control: Option<String>,
}

/// A result the player reported.
#[derive(Debug, Serialize, Queryable, ToSchema)]
pub struct ExportGameReport {
    /// The game.
    pub game_id: i64,
    /// The account that reported.
    pub account: String,
    /// The result reported.
    pub result: String,
    /// When (UTC).
    #[serde(serialize_with = "crate::wire::naive_utc")]
    pub reported_at: NaiveDateTime,
}

/// The notification choices (`null`: the club's default).
#[derive(Debug, Serialize, Queryable, ToSchema)]
pub struct ExportPreferences {
    /// Language of mails.
    #[schema(required = true)]
    pub language: Option<String>,
    /// Pairing mails.
    #[schema(required = true)]
    pub pairing: Option<bool>,
    /// Reminders.
    #[schema(required = true)]
    pub reminder: Option<bool>,
    /// Result mails.
    #[schema(required = true)]
    pub result: Option<bool>,
    /// Decisions on claims, appeals and protests.
    #[schema(required = true)]
    pub decision: Option<bool>,
    /// Prize mails.
    #[schema(required = true)]
    pub prizes: Option<bool>,
    /// Changed last (UTC).
    #[serde(serialize_with = "crate::wire::naive_utc")]
    pub updated_at: NaiveDateTime,
}

/// A mail to the member (its bodies are left out: they are the club's texts with the links).
#[derive(Debug, Serialize, Queryable, ToSchema)]
pub struct ExportMail {
    /// Id.
    pub id: i64,
    /// Its `Message-ID`.
    pub message_id: String,
    /// What it is.
    pub kind: String,
    /// To.
    pub recipient: String,
    /// The name it was addressed to.
    pub recipient_name: String,
    /// Subject.
    pub subject: String,
    /// Whether it is waiting, sent, or failed for good, as stored.
    pub status: String,
    /// Attempts made.
    pub attempts: i32,
    /// Queued (UTC).
    #[serde(serialize_with = "crate::wire::naive_utc")]
    pub created_at: NaiveDateTime,
    /// Sent (UTC).
    #[schema(required = true)]
    #[serde(serialize_with = "crate::wire::naive_utc_opt")]
    pub sent_at: Option<NaiveDateTime>,
    /// The next attempt of a pending mail (UTC).
    #[serde(serialize_with = "crate::wire::naive_utc")]
    pub next_attempt_at: NaiveDateTime,
    /// The last attempt (UTC).
    #[schema(required = true)]
    #[serde(serialize_with = "crate::wire::naive_utc_opt")]
    pub last_attempt_at: Option<NaiveDateTime>,
    /// Why the last attempt failed.
    #[schema(required = true)]
    pub last_error: Option<String>,
}

/// A session (refresh token).
#[derive(Debug, Serialize, Queryable, ToSchema)]
pub struct ExportSession {
    /// Id.
    pub id: i64,
    /// Started (UTC).
    #[serde(serialize_with = "crate::wire::naive_utc")]
    pub created_at: NaiveDateTime,
    /// Ends (UTC).
    #[serde(serialize_with = "crate::wire::naive_utc")]
    pub expires_at: NaiveDateTime,
    /// Used up (UTC).
    #[schema(required = true)]
    #[serde(serialize_with = "crate::wire::naive_utc_opt")]
    pub spent_at: Option<NaiveDateTime>,
    /// Ended (UTC).
    #[schema(required = true)]
    #[serde(serialize_with = "crate::wire::naive_utc_opt")]
    pub revoked_at: Option<NaiveDateTime>,
}

/// A single-use link.
#[derive(Debug, Serialize, Queryable, ToSchema)]
pub struct ExportAccountToken {
    /// Id.
    pub id: i64,
    /// What the link was for (an invitation, a password reset, an address change), as stored.
    pub purpose: String,
    /// The new address of an address change.
    #[schema(required = true)]
    pub new_email: Option<String>,
    /// Made (UTC).
    #[serde(serialize_with = "crate::wire::naive_utc")]
    pub created_at: NaiveDateTime,
    /// Ends (UTC).
    #[serde(serialize_with = "crate::wire::naive_utc")]
    pub expires_at: NaiveDateTime,
    /// Used (UTC).
    #[schema(required = true)]
    #[serde(serialize_with = "crate::wire::naive_utc_opt")]
    pub used_at: Option<NaiveDateTime>,
}

/// A device the account signed in from.
#[derive(Debug, Serialize, Queryable, ToSchema)]
pub struct ExportKnownLogin {
    /// The account's address.
    pub account: String,
    /// Seen last (UTC).
    #[serde(serialize_with = "crate::wire::naive_utc")]
    pub last_seen: NaiveDateTime,
    /// Forgotten (UTC).
    #[serde(serialize_with = "crate::wire::naive_utc")]
    pub expires: NaiveDateTime,
}

/// An audit entry.
#[derive(Debug, Serialize, Queryable, ToSchema)]
pub struct ExportAudit {
    /// Id.
    pub id: i64,
    /// What was changed.
    pub entity: String,
    /// Its id.
    pub entity_id: i64,
    /// The change.
    pub action: String,
    /// Who.
    pub actor: String,
    /// When (UTC).
    #[serde(serialize_with = "crate::wire::naive_utc")]
    pub at: NaiveDateTime,
    /// The value before.
    #[schema(required = true)]
    pub old_value: Option<String>,
    /// The value after.
    #[schema(required = true)]
    pub new_value: Option<String>,
    /// Why.
    #[schema(required = true)]
    pub reason: Option<String>,
}

/// Cuts `rows` at [`MAX_ROWS`] (they were loaded with one more), noting `what` when cut.
fn capped<T>(mut rows: Vec<T>, what: &str, truncated: &mut Vec<String>) -> Vec<T> {
    if rows.len() as i64 > MAX_ROWS {
        rows.truncate(MAX_ROWS as usize);
        truncated.push(what.to_string());
    }
    rows
}

/// Everything the club holds about account `user` (and the player linked to it), read in one
/// snapshot at `now`.
pub fn export(c: &mut DbConn, user: UserId, now: DateTime<Utc>) -> ApiResult<MemberExport> {
    crate::store::snapshot(c, |c| {
        let u = crate::store::models::users::by_id(c, user)?
            .ok_or_else(|| ApiError::NotFound(format!("no account {user}")))?;
        let player = match u.player_id {
            Some(p) => crate::store::models::players::by_id(c, p)?,
            None => None,
        };
        let pid = u.player_id.unwrap_or(PlayerId(0));
        let mut addresses = vec![u.email.to_lowercase()];
        if let Some(e) = player.as_ref().and_then(|p| p.email.clone()) {
            addresses.push(e.to_lowercase());
        }
        let mut out = MemberExport {
            exported_at: now,
            account: ExportAccount {
                id: u.id.get(),
                email: u.email.clone(),
                roles: u.roles.clone(),
                active: u.active,
                created_at: u.created_at,
                updated_at: u.updated_at,
                player_id: u.player_id.map(PlayerId::get),
                token_generation: u.token_generation,
                email_verified_at: u.email_verified_at,
            },
            player: player.map(|p| ExportPlayer {
                id: p.id.get(),
                name: p.name,
                knsb_number: p.knsb_number,
                fide_id: p.fide_id,
                membership: p.membership.as_str().to_string(),
                active: p.active,
                email: p.email,
                phone: p.phone,
                publication: p.publication,
                version: p.version,
                created_at: p.created_at,
                updated_at: p.updated_at,
            }),
            ratings: vec![],
            entrants: vec![],
            attendance: vec![],
            games: vec![],
            game_reports: vec![],
            member_preferences: None,
            mails: vec![],
            sessions: vec![],
            account_tokens: vec![],
            known_logins: vec![],
            audit: vec![],
            truncated: vec![],
        };
        of_player(c, pid, &mut out)?;
        of_account(c, user, &u.email, &addresses, &mut out)?;
        Ok(out)
    })
}

/// The lists of player `pid`: ratings, entries, attendance, games, reports, choices.
fn of_player(c: &mut DbConn, pid: PlayerId, out: &mut MemberExport) -> ApiResult<()> {
    let limit = MAX_ROWS + 1;
    let cut = &mut out.truncated;
    let rows = rt::table
        .filter(rt::player_id.eq(pid))
        .order((rt::list_date.desc(), rt::id))
        .select((
            rt::id,
            rt::source,
            rt::value,
            rt::list_date,
            rt::created_at,
            rt::updated_at,
        ))
        .limit(limit)
        .load(c)?;
    out.ratings = capped(rows, "ratings", cut);
    let rows = en::table
        .inner_join(cm::table)
        .filter(en::player_id.eq(pid))
        .order(en::id)
        .select((
            en::id,
            en::competition_id,
            cm::name,
            en::seed,
            en::rating,
            en::joins_at,
            en::excused_before,
            en::created_at,
            en::withdrawn_from,
        ))
        .limit(limit)
        .load(c)?;
    out.entrants = capped(rows, "entrants", cut);
    let rows = att::table
        .filter(att::player_id.eq(pid))
        .order(att::id)
        .select((
            att::id,
            att::round_id,
            att::action,
            att::channel,
            att::recorded_by,
            att::at,
            att::note,
        ))
        .limit(limit)
        .load(c)?;
    out.attendance = capped(rows, "attendance", cut);
    let rows = gm::table
        .inner_join(rd::table)
        .filter(gm::white_id.eq(pid).or(gm::black_id.eq(pid)))
        .order(gm::id)
        .select((
            gm::id,
            gm::round_id,
            rd::competition_id,
            rd::number,
            gm::board,
            gm::game_no,
            gm::white_id,
            gm::black_id,
            gm::result,
            gm::termination,
            gm::move_count,
            gm::time_control,
        ))
        .limit(limit)
        .load(c)?;
    out.games = capped(rows, "games", cut);
    let rows = gr::table
        .filter(gr::player_id.eq(pid))
        .order(gr::game_id)
        .select((gr::game_id, gr::account, gr::result, gr::reported_at))
        .limit(limit)
        .load(c)?;
    out.game_reports = capped(rows, "game_reports", cut);
    out.member_preferences = mp::table
        .filter(mp::player_id.eq(pid))
        .select((
            mp::language,
            mp::pairing,
            mp::reminder,
            mp::result,
            mp::decision,
            mp::prizes,
            mp::updated_at,
        ))
        .first(c)
        .optional()?;
    Ok(())
}

/// The lists of account `user` (address `email`; mails to any of `addresses`): mails,
/// sessions, single-use links, known devices, audit entries.
fn of_account(
    c: &mut DbConn,
    user: UserId,
    email: &str,
    addresses: &[String],
    out: &mut MemberExport,
) -> ApiResult<()> {
    let limit = MAX_ROWS + 1;
    let cut = &mut out.truncated;
    let rows = mo::table
        .filter(mo::recipient.eq_any(addresses))
        .order(mo::id.desc())
        .select((
            mo::id,
            mo::message_id,
            mo::kind,
            mo::recipient,
            mo::recipient_name,
            mo::subject,
            mo::status,
            mo::attempts,
            mo::created_at,
            mo::sent_at,
            mo::next_attempt_at,
            mo::last_attempt_at,
            mo::last_error,
        ))
        .limit(limit)
        .load(c)?;
    out.mails = capped(rows, "mails", cut);
    let rows = rf::table
        .filter(rf::user_id.eq(user))
        .order(rf::id.desc())
        .select((
            rf::id,
            rf::created_at,
            rf::expires_at,
            rf::spent_at,
            rf::revoked_at,
        ))
        .limit(limit)
        .load(c)?;
    out.sessions = capped(rows, "sessions", cut);
    let rows = at::table
        .filter(at::user_id.eq(user))
        .order(at::id.desc())
        .select((
            at::id,
            at::purpose,
            at::new_email,
            at::created_at,
            at::expires_at,
            at::used_at,
        ))
        .limit(limit)
        .load(c)?;
    out.account_tokens = capped(rows, "account_tokens", cut);
    let rows = kl::table
        .filter(kl::account.eq(email))
        .order(kl::last_seen.desc())
        .select((kl::account, kl::last_seen, kl::expires))
        .limit(limit)
        .load(c)?;
    out.known_logins = capped(rows, "known_logins", cut);
    let pid = out.account.player_id.unwrap_or(0);
    let rows = al::table
        .filter(
            al::entity
                .eq(crate::vocab::AuditEntity::Player)
                .and(al::entity_id.eq(pid))
                .or(al::actor.eq(email)),
        )
        .order(al::id.desc())
        .select((
            al::id,
            al::entity,
            al::entity_id,
            al::action,
            al::actor,
            al::at,
            al::old_value,
            al::new_value,
            al::reason,
        ))
        .limit(limit)
        .load(c)?;
    out.audit = capped(rows, "audit", cut);
    Ok(())
}

/// Sets the publication setting of `player` (the caller's own, audited with `actor`) in the
/// caller's transaction; answers it.
pub fn set_own_publication(
    c: &mut DbConn,
    player: PlayerId,
    publication: Publication,
    actor: &str,
) -> ApiResult<Publication> {
    let before = players::load(c, player)?.publication;
    let changes = PlayerChanges {
        publication: Some(publication),
        ..PlayerChanges::default()
    };
    let p = players::change(c, player, &ExpectedVersion::any(), &changes)?;
    players::audit_publication(c, player, before, p.publication, actor)?;
    Ok(p.publication)
}
