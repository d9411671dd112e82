//! The mail outbox ([decision 0320](../../../../docs/decisions/0320-mail-outbox.md)): a service
//! that causes a mail queues it with [`enqueue`] in its own transaction, so the mail exists
//! exactly when the change does; the worker ([`worker`]) sends what is due, one mail to one
//! recipient at a time, over SMTP or into `.eml` files ([`transport`]). A temporary failure is
//! tried again after a doubling wait, a permanent one (an SMTP 5xx) marks the mail failed. The
//! `Message-ID` is derived from the event and the recipient, so an event queued twice mails
//! once and a mail sent again after a crash carries the same id.

pub mod templates;
pub mod transport;
pub mod worker;

use crate::error::{ApiError, ApiResult, FieldError};
use crate::mail_config::{MailSettings, header_safe};
use crate::store::schema::mail_outbox as mo;
use crate::store::{DbConn, MultiBackend, now_utc};
use chrono::{DateTime, NaiveDateTime, Utc};
use diesel::prelude::*;
use serde::Serialize;
use std::time::Duration;
use utoipa::ToSchema;

/// The longest error text kept of an attempt, in characters.
pub const MAX_ERROR_CHARS: usize = 300;
/// The longest subject, in characters.
pub const MAX_SUBJECT_CHARS: usize = 200;
/// The longest body (plain text or HTML), in bytes.
pub const MAX_BODY_BYTES: usize = 64 << 10;
/// The longest wait between two attempts.
pub const BACKOFF_CAP: Duration = Duration::from_secs(3600);

pub use crate::vocab::MailStatus;

/// A mail to queue: one recipient, both bodies.
#[derive(Debug, Clone)]
pub struct Mail {
    /// What it is: invitation, password_reset, …
    pub kind: &'static str,
    /// The event it tells of, unique with the kind and the recipient (its `Message-ID`).
    pub event: String,
    /// The recipient's address.
    pub to: String,
    /// The recipient's name (may be empty).
    pub to_name: String,
    /// The subject.
    pub subject: String,
    /// The plain-text body.
    pub text: String,
    /// The HTML body.
    pub html: String,
    /// The one-click unsubscribe link (RFC 8058), when the mail has one.
    pub unsubscribe_url: Option<String>,
}

/// A stored mail.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = mo, check_for_backend(MultiBackend))]
pub struct Outgoing {
    /// Id.
    pub id: i64,
    /// The `Message-ID` (with its angle brackets).
    pub message_id: String,
    /// What it is.
    pub kind: String,
    /// The recipient's address.
    pub recipient: String,
    /// The recipient's name.
    pub recipient_name: String,
    /// The subject.
    pub subject: String,
    /// The plain-text body (empty once sent).
    pub body_text: String,
    /// The HTML body (empty once sent).
    pub body_html: String,
    /// The one-click unsubscribe link.
    pub unsubscribe_url: Option<String>,
    /// `pending`, `sent` or `failed`.
    pub status: MailStatus,
    /// Attempts made.
    pub attempts: i32,
    /// When the next attempt is due.
    pub next_attempt_at: NaiveDateTime,
    /// When the last attempt was made.
    pub last_attempt_at: Option<NaiveDateTime>,
    /// Why the last attempt failed.
    pub last_error: Option<String>,
    /// Queued.
    pub created_at: NaiveDateTime,
    /// Sent.
    pub sent_at: Option<NaiveDateTime>,
}

#[derive(Insertable)]
#[diesel(table_name = mo)]
// a missing link is written as NULL, not as DEFAULT, which SQLite's multi-row VALUES lacks
#[diesel(treat_none_as_default_value = false)]
struct NewOutgoing<'a> {
    message_id: &'a str,
    kind: &'a str,
    recipient: &'a str,
    recipient_name: &'a str,
    subject: &'a str,
    body_text: &'a str,
    body_html: &'a str,
    unsubscribe_url: Option<&'a str>,
    status: MailStatus,
    attempts: i32,
    next_attempt_at: NaiveDateTime,
    created_at: NaiveDateTime,
}

/// A mail as admins see it in the delivery log (never its bodies).
#[derive(Debug, Serialize, ToSchema)]
pub struct MailView {
    /// Id.
    pub id: i64,
    /// The `Message-ID` header (one per event and recipient).
    pub message_id: String,
    /// What it is: invitation, password_reset, …
    pub kind: String,
    /// The recipient's address.
    pub recipient: String,
    /// The subject.
    pub subject: String,
    /// `pending`, `sent` or `failed`.
    pub status: MailStatus,
    /// Attempts made.
    pub attempts: i32,
    /// When the next attempt is due (pending mails only).
    #[serde(serialize_with = "crate::wire::utc_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    #[schema(required = true)]
    pub next_attempt_at: Option<DateTime<Utc>>,
    /// When the last attempt was made.
    #[serde(serialize_with = "crate::wire::utc_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    #[schema(required = true)]
    pub last_attempt_at: Option<DateTime<Utc>>,
    /// Why the last attempt failed (the SMTP server's answer, a refused connection, …).
    #[schema(required = true)]
    pub last_error: Option<String>,
    /// Queued (UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: DateTime<Utc>,
    /// Sent (UTC).
    #[serde(serialize_with = "crate::wire::utc_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    #[schema(required = true)]
    pub sent_at: Option<DateTime<Utc>>,
}

impl MailView {
    fn of(m: Outgoing) -> MailView {
        MailView {
            id: m.id,
            message_id: m.message_id,
            kind: m.kind,
            recipient: m.recipient,
            subject: m.subject,
            next_attempt_at: (m.status == MailStatus::Pending).then(|| m.next_attempt_at.and_utc()),
            status: m.status,
            attempts: m.attempts,
            last_attempt_at: m.last_attempt_at.map(|t| t.and_utc()),
            last_error: m.last_error,
            created_at: m.created_at.and_utc(),
            sent_at: m.sent_at.map(|t| t.and_utc()),
        }
    }
}

/// Lower-case hex SHA-256.
fn sha256_hex(text: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The domain of the sender's address (`localhost` when it cannot be read).
fn sender_domain(from: &str) -> String {
    from.parse::<lettre::message::Mailbox>()
        .map(|m| m.email.domain().to_string())
        .unwrap_or_else(|_| "localhost".into())
}

/// The `Message-ID` of the mail of `event` of `kind` to `to`: the same every time.
pub fn message_id(settings: &MailSettings, kind: &str, event: &str, to: &str) -> String {
    let key = sha256_hex(&format!("{kind}|{event}|{}", to.to_lowercase()));
    format!("<{}.{kind}@{}>", &key[..32], sender_domain(&settings.from))
}

/// Checks a mail before it is queued: an address lettre reads, a name and a subject of one
/// line (no CR or LF can reach a header), bounded bodies.
pub fn check(m: &Mail) -> Result<(), FieldError> {
    if !header_safe(&m.to) || m.to.parse::<lettre::Address>().is_err() {
        return Err(FieldError::new("email", "is not a valid e-mail address"));
    }
    if !header_safe(&m.to_name) || m.to_name.chars().count() > 100 {
        return Err(FieldError::new(
            "name",
            "must be one line of at most 100 characters",
        ));
    }
    if !header_safe(&m.subject) || m.subject.chars().count() > MAX_SUBJECT_CHARS {
        return Err(FieldError::new("subject", "must be one line"));
    }
    if m.text.len() > MAX_BODY_BYTES || m.html.len() > MAX_BODY_BYTES {
        return Err(FieldError::new("body", "is too long"));
    }
    if let Some(u) = &m.unsubscribe_url
        && !header_safe(u)
    {
        return Err(FieldError::new("unsubscribe_url", "must be one line"));
    }
    Ok(())
}

/// Queues a mail in the caller's transaction; false when the mail of this event to this
/// recipient was queued before (nothing is added).
pub fn enqueue(c: &mut DbConn, settings: &MailSettings, m: &Mail) -> ApiResult<bool> {
    Ok(enqueue_all(c, settings, std::slice::from_ref(m))? == 1)
}

/// Mails looked up and inserted at once: one `IN` list of at most this many message ids, and
/// one `INSERT` of at most this many rows (12 values each, well within the parameters either
/// database takes in one statement).
const INSERT_CHUNK: usize = 200;

/// Queues mails in the caller's transaction, with one read (for those queued before) and one
/// insert per `INSERT_CHUNK` mails; how many were new (a mail of an event to a recipient queued before
/// is left out).
pub fn enqueue_all(c: &mut DbConn, settings: &MailSettings, mails: &[Mail]) -> ApiResult<usize> {
    for m in mails {
        check(m).map_err(|e| ApiError::validation(vec![e]))?;
    }
    let now = now_utc();
    let keyed: Vec<(String, String, &Mail)> = mails
        .iter()
        .map(|m| {
            (
                message_id(settings, m.kind, &m.event, &m.to),
                m.to.to_lowercase(),
                m,
            )
        })
        .collect();
    let mut added = 0;
    for chunk in keyed.chunks(INSERT_CHUNK) {
        let ids: Vec<&str> = chunk.iter().map(|(id, _, _)| id.as_str()).collect();
        let queued: std::collections::HashSet<String> = mo::table
            .filter(mo::message_id.eq_any(&ids))
            .select(mo::message_id)
            .load::<String>(c)?
            .into_iter()
            .collect();
        let mut seen = std::collections::HashSet::new();
        let rows: Vec<NewOutgoing<'_>> = chunk
            .iter()
            .filter(|(id, _, _)| !queued.contains(id) && seen.insert(id.as_str()))
            .map(|(id, to, m)| NewOutgoing {
                message_id: id,
                kind: m.kind,
                recipient: to,
                recipient_name: &m.to_name,
                subject: &m.subject,
                body_text: &m.text,
                body_html: &m.html,
                unsubscribe_url: m.unsubscribe_url.as_deref(),
                status: MailStatus::Pending,
                attempts: 0,
                next_attempt_at: now,
                created_at: now,
            })
            .collect();
        added += insert_rows(c, &rows)?;
    }
    Ok(added)
}

/// Inserts `rows` with one multi-row `INSERT`. The store's connection spans both databases
/// and has no multi-row insert of its own, so the statement is made for the connection
/// underneath.
fn insert_rows(c: &mut DbConn, rows: &[NewOutgoing<'_>]) -> QueryResult<usize> {
    if rows.is_empty() {
        return Ok(0);
    }
    let insert = diesel::insert_into(mo::table).values(rows);
    match c {
        DbConn::Pg(pg) => insert.execute(pg),
        DbConn::Sqlite(lite) => insert.execute(lite),
    }
}

/// Reads a status filter.
pub fn check_status(field: &str, text: &str) -> ApiResult<MailStatus> {
    text.parse()
        .map_err(|_| ApiError::invalid(field, "must be pending, sent or failed"))
}

/// One page of the mails, newest first, and how many there are; only those of `status` when
/// given.
pub fn deliveries(
    c: &mut DbConn,
    status: Option<MailStatus>,
    limit: i64,
    offset: i64,
) -> ApiResult<(Vec<MailView>, i64)> {
    crate::store::snapshot(c, |c| {
        let filtered = || {
            let q = mo::table.into_boxed::<MultiBackend>();
            match status {
                Some(s) => q.filter(mo::status.eq(s)),
                None => q,
            }
        };
        let total: i64 = filtered().count().get_result(c)?;
        let rows: Vec<Outgoing> = filtered()
            .order(mo::id.desc())
            .limit(limit)
            .offset(offset)
            .select(Outgoing::as_select())
            .load(c)?;
        Ok((rows.into_iter().map(MailView::of).collect(), total))
    })
}

/// The pending mails due at `now`, oldest first, at most `limit`.
pub fn due(c: &mut DbConn, now: NaiveDateTime, limit: i64) -> ApiResult<Vec<Outgoing>> {
    Ok(mo::table
        .filter(mo::status.eq(MailStatus::Pending))
        .filter(mo::next_attempt_at.le(now))
        .order(mo::id)
        .limit(limit)
        .select(Outgoing::as_select())
        .load(c)?)
}

/// How an attempt ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Accepted by the server, or written to its file.
    Sent,
    /// Worth trying again (a refused connection, a 4xx answer, a full disk…).
    Temporary(String),
    /// Refused for good (a 5xx answer).
    Permanent(String),
}

/// The wait after `attempts` failed attempts: `base × 2^(attempts − 1)`, at most an hour.
pub fn backoff(base: Duration, attempts: i32) -> Duration {
    let doublings = attempts.saturating_sub(1).clamp(0, 30) as u32;
    base.checked_mul(1u32 << doublings)
        .unwrap_or(BACKOFF_CAP)
        .min(BACKOFF_CAP)
}

/// Records an attempt of mail `m`: a sent mail keeps its header fields but not its bodies;
/// a temporary failure is tried again after the backoff until the last attempt, which marks
/// it failed, as a permanent failure does at once.
pub fn record_attempt(
    c: &mut DbConn,
    m: &Outgoing,
    outcome: &Outcome,
    settings: &MailSettings,
) -> ApiResult<()> {
    let now = now_utc();
    let attempts = m.attempts.saturating_add(1);
    let cut = |e: &str| e.chars().take(MAX_ERROR_CHARS).collect::<String>();
    let target = mo::table
        .filter(mo::id.eq(m.id))
        .filter(mo::status.eq(MailStatus::Pending));
    match outcome {
        Outcome::Sent => diesel::update(target)
            .set((
                mo::status.eq(MailStatus::Sent),
                mo::attempts.eq(attempts),
                mo::last_attempt_at.eq(Some(now)),
                mo::last_error.eq(None::<String>),
                mo::sent_at.eq(Some(now)),
                mo::body_text.eq(""),
                mo::body_html.eq(""),
            ))
            .execute(c)?,
        Outcome::Temporary(e) | Outcome::Permanent(e) => {
            let give_up =
                matches!(outcome, Outcome::Permanent(_)) || attempts >= settings.max_attempts;
            let wait = chrono::Duration::from_std(backoff(settings.backoff_base, attempts))
                .unwrap_or_else(|_| chrono::Duration::hours(1));
            diesel::update(target)
                .set((
                    mo::status.eq(if give_up {
                        MailStatus::Failed
                    } else {
                        MailStatus::Pending
                    }),
                    mo::attempts.eq(attempts),
                    mo::last_attempt_at.eq(Some(now)),
                    mo::last_error.eq(Some(cut(e))),
                    mo::next_attempt_at.eq(if give_up { now } else { now + wait }),
                ))
                .execute(c)?
        }
    };
    Ok(())
}

/// Forgets every mail queued or sent to `address` (compared as stored, in lower case): the
/// rows go, with their subjects and bodies (an erased member: [`crate::services::erasure`]).
pub fn forget_recipient(c: &mut DbConn, address: &str) -> ApiResult<usize> {
    Ok(diesel::delete(mo::table.filter(mo::recipient.eq(address.to_lowercase()))).execute(c)?)
}

/// Deletes every mail sent, or failed for good, longer than `retention` before `now`
/// (`MAIL_RETENTION_DAYS`, docs/operations.md#retention): its address, subject and bodies are
/// kept only as long as a delivery question can come up. Pending mails stay. Answers how many
/// went.
pub fn purge(c: &mut DbConn, now: NaiveDateTime, retention: chrono::Duration) -> ApiResult<usize> {
    let before = now - retention;
    let sent = mo::status.eq(MailStatus::Sent).and(mo::sent_at.lt(before));
    let failed = mo::status.eq(MailStatus::Failed).and(
        mo::last_attempt_at
            .lt(before)
            .or(mo::last_attempt_at.is_null().and(mo::created_at.lt(before))),
    );
    Ok(diesel::delete(mo::table.filter(sent.or(failed))).execute(c)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_an_hour() {
        let waits: Vec<u64> = (1..=4)
            .map(|n| backoff(Duration::from_secs(30), n).as_secs())
            .collect();
        assert_eq!(waits, vec![30, 60, 120, 240]);
        assert_eq!(backoff(Duration::from_secs(30), 40).as_secs(), 3600);
    }

    #[test]
    fn the_message_id_is_one_per_event_and_recipient() {
        let s = MailSettings {
            from: "De Toren <wedstrijd@club.example>".into(),
            ..MailSettings::default()
        };
        let a = message_id(&s, "invitation", "user:7", "Ann@club.example");
        assert_eq!(
            a,
            message_id(&s, "invitation", "user:7", "ann@club.example")
        );
        assert_ne!(
            a,
            message_id(&s, "invitation", "user:8", "ann@club.example")
        );
        assert_ne!(
            a,
            message_id(&s, "invitation", "user:7", "bob@club.example")
        );
        assert!(
            a.starts_with('<') && a.ends_with(".invitation@club.example>"),
            "{a}"
        );
    }

    fn mail(to: &str, name: &str, subject: &str) -> Mail {
        Mail {
            kind: "invitation",
            event: "x".into(),
            to: to.into(),
            to_name: name.into(),
            subject: subject.into(),
            text: "t".into(),
            html: "h".into(),
            unsubscribe_url: None,
        }
    }

    #[test]
    fn no_line_break_can_reach_a_header() {
        assert!(check(&mail("ann@club.example", "Ann", "Welkom")).is_ok());
        for (m, field) in [
            (
                mail("ann@club.example\r\nBcc: x@y.example", "Ann", "s"),
                "email",
            ),
            (
                mail("ann@club.example", "Ann\nBcc: x@y.example", "s"),
                "name",
            ),
            (
                mail("ann@club.example", "Ann", "s\r\nBcc: x@y.example"),
                "subject",
            ),
            (mail("not an address", "Ann", "s"), "email"),
        ] {
            assert_eq!(check(&m).unwrap_err().field, field);
        }
    }
}
