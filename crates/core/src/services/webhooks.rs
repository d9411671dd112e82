//! Webhooks ([decision 0222](../../../../docs/decisions/0222-webhooks.md)): admins subscribe URLs to
//! events of the log; the delivery worker ([`worker`]) queues one delivery per subscription
//! and public event, and sends them, signed as Standard Webhooks, in order per subscription,
//! retrying with exponential backoff up to a number of attempts.

pub mod client;
pub mod guard;
pub mod signature;
pub mod worker;

use crate::error::{ApiError, ApiResult, FieldError};
use crate::ids::{DeliveryId, WebhookId};
use crate::services::events::EventView;
use crate::store::models::events::{self, EventKind, Filter, Visibility};
use crate::store::models::webhooks::{
    self as rows, Attempt, Delivery, NewDelivery, NewWebhook, Webhook, WebhookChanges,
};
use crate::store::{DbConn, now_utc};
use chrono::{DateTime, NaiveDateTime, Utc};
use serde::Serialize;
use std::time::Duration;
use utoipa::ToSchema;

/// The most subscriptions kept.
pub const MAX_WEBHOOKS: i64 = 100;
/// The longest URL accepted, in bytes.
pub const MAX_URL_BYTES: usize = 2000;
/// The longest description accepted, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 500;
/// The longest error text kept of an attempt, in characters.
pub const MAX_ERROR_CHARS: usize = 300;
/// The most events one subscription's cursor moves over in one pass of the worker.
pub const QUEUE_BATCH: i64 = 500;

pub use crate::vocab::DeliveryStatus;

/// A subscription as admins see it (never its secret).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct WebhookView {
    /// Id.
    #[schema(value_type = i64)]
    pub id: WebhookId,
    /// Where deliveries are sent (`POST`).
    pub url: String,
    /// What it is for.
    pub description: String,
    /// The event types delivered; empty: every type.
    #[schema(value_type = Vec<crate::vocab::EventType>)]
    pub event_types: Vec<String>,
    /// Whether deliveries are queued and sent.
    pub enabled: bool,
    /// Created (UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: DateTime<Utc>,
    /// Last changed (UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: DateTime<Utc>,
}

impl WebhookView {
    fn of(w: Webhook) -> WebhookView {
        WebhookView {
            id: w.id,
            url: w.url,
            description: w.description,
            event_types: w
                .event_types
                .split(',')
                .filter(|t| !t.is_empty())
                .map(str::to_string)
                .collect(),
            enabled: w.enabled,
            created_at: w.created_at.and_utc(),
            updated_at: w.updated_at.and_utc(),
        }
    }
}

/// A subscription just created, with its secret (shown only now).
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedWebhook {
    /// The subscription.
    #[serde(flatten)]
    pub webhook: WebhookView,
    /// The signing secret (`whsec_<base64>`): shown only in this answer.
    pub secret: String,
}

/// One delivery of an event to a subscription.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryView {
    /// Id.
    #[schema(value_type = i64)]
    pub id: DeliveryId,
    /// The subscription.
    #[schema(value_type = i64)]
    pub webhook_id: WebhookId,
    /// The event delivered: also the `webhook-id` header of every attempt.
    pub event_id: i64,
    /// The event's type.
    #[serde(rename = "event_type")]
    pub event_type: crate::vocab::EventType,
    /// `pending`, `delivered` or `failed`.
    pub status: DeliveryStatus,
    /// Attempts made.
    pub attempts: i32,
    /// When the next attempt is due (pending deliveries only).
    #[serde(serialize_with = "crate::wire::utc_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    #[schema(required = true)]
    pub next_attempt_at: Option<DateTime<Utc>>,
    /// When the last attempt was made.
    #[serde(serialize_with = "crate::wire::utc_opt")]
    #[schema(value_type = Option<String>, format = DateTime)]
    #[schema(required = true)]
    pub last_attempt_at: Option<DateTime<Utc>>,
    /// The status code the receiver answered the last attempt with.
    #[schema(required = true)]
    pub last_status_code: Option<i32>,
    /// Why the last attempt got no answer (a time-out, a refused address, …).
    #[schema(required = true)]
    pub last_error: Option<String>,
    /// Queued (UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: DateTime<Utc>,
}

impl DeliveryView {
    fn of(d: Delivery) -> DeliveryView {
        DeliveryView {
            id: d.id,
            webhook_id: d.webhook_id,
            event_id: d.event_id,
            event_type: d.event_type,
            next_attempt_at: (d.status == DeliveryStatus::Pending)
                .then(|| d.next_attempt_at.and_utc()),
            status: d.status,
            attempts: d.attempts,
            last_attempt_at: d.last_attempt_at.map(|t| t.and_utc()),
            last_status_code: d.last_status_code,
            last_error: d.last_error,
            created_at: d.created_at.and_utc(),
        }
    }
}

/// A subscription's fields as a request gives them (each checked by [`check`]).
#[derive(Debug, Default, Clone)]
pub struct Draft {
    /// The URL.
    pub url: Option<String>,
    /// Event types.
    pub event_types: Option<Vec<String>>,
    /// A secret chosen by the admin.
    pub secret: Option<String>,
    /// Enabled.
    pub enabled: Option<bool>,
    /// Description.
    pub description: Option<String>,
}

/// A checked draft.
#[derive(Debug, Default)]
pub struct Checked {
    url: Option<String>,
    event_types: Option<String>,
    secret: Option<String>,
    enabled: Option<bool>,
    description: Option<String>,
}

/// Checks a URL: `http` or `https`, a host, no user name or password, no fragment, at most
/// [`MAX_URL_BYTES`]; an address literal must be public unless `allow_private`. Returns it
/// normalised.
pub fn check_url(field: &str, text: &str, allow_private: bool) -> Result<String, FieldError> {
    let bad = |m: &str| FieldError::new(field, m);
    let text = text.trim();
    if text.len() > MAX_URL_BYTES {
        return Err(bad(&format!("must be at most {MAX_URL_BYTES} bytes")));
    }
    let url = url::Url::parse(text).map_err(|_| bad("must be an absolute http or https URL"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(bad("must be an http or https URL"));
    }
    if url.host().is_none() {
        return Err(bad("must name a host"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(bad("must not hold a user name or password"));
    }
    if url.fragment().is_some() {
        return Err(bad("must not hold a fragment (#…)"));
    }
    let literal = match url.host() {
        Some(url::Host::Ipv4(ip)) => Some(std::net::IpAddr::V4(ip)),
        Some(url::Host::Ipv6(ip)) => Some(std::net::IpAddr::V6(ip)),
        _ => None,
    };
    if !allow_private
        && let Some(ip) = literal
        && let Some(why) = guard::refusal(ip)
    {
        return Err(bad(&why));
    }
    let out = url.to_string();
    if out.len() > MAX_URL_BYTES {
        return Err(bad(&format!("must be at most {MAX_URL_BYTES} bytes")));
    }
    Ok(out)
}

/// Checks event types: each a known type (at most one of each); stored comma-separated.
fn check_types(field: &str, list: &[String]) -> Result<String, FieldError> {
    let mut kinds: Vec<EventKind> = Vec::new();
    for (i, t) in list.iter().enumerate() {
        match t.parse::<EventKind>() {
            Ok(k) if !kinds.contains(&k) => kinds.push(k),
            Ok(_) => {}
            Err(_) => {
                return Err(FieldError::new(
                    format!("{field}[{i}]"),
                    format!(
                        "unknown event type {:?}; known: {}",
                        t.chars().take(40).collect::<String>(),
                        EventKind::ALL
                            .iter()
                            .map(|k| k.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
        }
    }
    kinds.sort();
    Ok(kinds
        .iter()
        .map(|k| k.as_str())
        .collect::<Vec<_>>()
        .join(","))
}

/// Checks every field of a draft; 422 naming each bad one.
pub fn check(d: Draft, allow_private: bool) -> ApiResult<Checked> {
    let mut errs = Vec::new();
    let mut out = Checked {
        enabled: d.enabled,
        ..Checked::default()
    };
    if let Some(u) = d.url {
        match check_url("url", &u, allow_private) {
            Ok(u) => out.url = Some(u),
            Err(e) => errs.push(e),
        }
    }
    if let Some(list) = d.event_types {
        if list.len() > EventKind::ALL.len() {
            errs.push(FieldError::new(
                "event_types",
                format!("must list at most {} types", EventKind::ALL.len()),
            ));
        } else {
            match check_types("event_types", &list) {
                Ok(t) => out.event_types = Some(t),
                Err(e) => errs.push(e),
            }
        }
    }
    if let Some(s) = d.secret {
        match signature::key(&s) {
            Ok(_) => out.secret = Some(s),
            Err(m) => errs.push(FieldError::new("secret", m)),
        }
    }
    if let Some(text) = d.description {
        let text = text.trim().to_string();
        if text.chars().count() > MAX_DESCRIPTION_CHARS {
            errs.push(FieldError::new(
                "description",
                format!("must be at most {MAX_DESCRIPTION_CHARS} characters"),
            ));
        } else if let Err(e) = crate::services::input::one_line("description", &text) {
            errs.push(e);
        } else {
            out.description = Some(text);
        }
    }
    if errs.is_empty() {
        Ok(out)
    } else {
        Err(ApiError::validation(errs))
    }
}

/// Creates a subscription (at most [`MAX_WEBHOOKS`]); it receives the events recorded from
/// now on. Its secret is the one given, or a new one; the answer is the only one that shows it.
pub fn create(c: &mut DbConn, d: Checked) -> ApiResult<CreatedWebhook> {
    let url = d
        .url
        .ok_or_else(|| ApiError::invalid("url", "is required"))?;
    if rows::count(c)? >= MAX_WEBHOOKS {
        return Err(ApiError::Conflict(format!(
            "at most {MAX_WEBHOOKS} webhook subscriptions are kept (the limit); delete one first"
        )));
    }
    let secret = match d.secret {
        Some(s) => s,
        None => signature::generate().map_err(ApiError::Internal)?,
    };
    let now = now_utc();
    let cursor = events::last_id(c)?;
    let w = rows::insert(
        c,
        &NewWebhook {
            url: &url,
            description: d.description.as_deref().unwrap_or(""),
            event_types: d.event_types.as_deref().unwrap_or(""),
            secret: &secret,
            enabled: d.enabled.unwrap_or(true),
            last_event_id: cursor,
            created_at: now,
            updated_at: now,
        },
    )?;
    Ok(CreatedWebhook {
        webhook: WebhookView::of(w),
        secret,
    })
}

fn found(c: &mut DbConn, id: WebhookId) -> ApiResult<Webhook> {
    rows::by_id(c, id)?.ok_or_else(|| ApiError::NotFound(format!("no webhook {id}")))
}

/// One subscription.
pub fn get(c: &mut DbConn, id: WebhookId) -> ApiResult<WebhookView> {
    found(c, id).map(WebhookView::of)
}

/// One page of the subscriptions, by id, and how many there are.
pub fn list(c: &mut DbConn, limit: i64, offset: i64) -> ApiResult<(Vec<WebhookView>, i64)> {
    crate::store::snapshot(c, |c| {
        let total = rows::count(c)?;
        let items = rows::page(c, limit, offset)?;
        Ok((items.into_iter().map(WebhookView::of).collect(), total))
    })
}

/// Changes a subscription. One enabled again receives the events recorded from now on (those
/// recorded while it was disabled are not queued).
pub fn update(c: &mut DbConn, id: WebhookId, d: Checked) -> ApiResult<WebhookView> {
    let before = found(c, id)?;
    let enabling = d.enabled == Some(true) && !before.enabled;
    let changes = WebhookChanges {
        url: d.url,
        description: d.description,
        event_types: d.event_types,
        secret: d.secret,
        enabled: d.enabled,
        last_event_id: if enabling {
            Some(events::last_id(c)?.max(before.last_event_id))
        } else {
            None
        },
        updated_at: Some(now_utc()),
    };
    rows::update(c, id, &changes)?
        .map(WebhookView::of)
        .ok_or_else(|| ApiError::NotFound(format!("no webhook {id}")))
}

/// Deletes a subscription and its delivery log.
pub fn delete(c: &mut DbConn, id: WebhookId) -> ApiResult<()> {
    if rows::delete(c, id)? {
        Ok(())
    } else {
        Err(ApiError::NotFound(format!("no webhook {id}")))
    }
}

/// Reads a status filter.
pub fn check_status(field: &str, text: &str) -> ApiResult<DeliveryStatus> {
    text.parse()
        .map_err(|_| ApiError::invalid(field, "must be pending, delivered or failed"))
}

/// One page of a subscription's deliveries, newest first, and how many there are.
pub fn deliveries(
    c: &mut DbConn,
    id: WebhookId,
    status: Option<DeliveryStatus>,
    limit: i64,
    offset: i64,
) -> ApiResult<(Vec<DeliveryView>, i64)> {
    crate::store::snapshot(c, |c| {
        found(c, id)?;
        let (items, total) = rows::deliveries(c, id, status, limit, offset)?;
        Ok((items.into_iter().map(DeliveryView::of).collect(), total))
    })
}

/// Queues a fresh delivery of the event of delivery `of` (the same body and `webhook-id`),
/// after the subscription's other pending deliveries.
pub fn redeliver(c: &mut DbConn, id: WebhookId, of: DeliveryId) -> ApiResult<DeliveryView> {
    found(c, id)?;
    let d = rows::delivery(c, id, of)?
        .ok_or_else(|| ApiError::NotFound(format!("no delivery {of} of webhook {id}")))?;
    let now = now_utc();
    rows::insert_deliveries(
        c,
        &[NewDelivery {
            webhook_id: d.webhook_id,
            event_id: d.event_id,
            event_type: d.event_type,
            body: &d.body,
            status: DeliveryStatus::Pending,
            attempts: 0,
            next_attempt_at: now,
            created_at: now,
        }],
    )?;
    let (latest, _) = rows::deliveries(c, id, None, 1, 0)?;
    latest
        .into_iter()
        .next()
        .map(DeliveryView::of)
        .ok_or_else(|| ApiError::Internal("the queued delivery is not there".into()))
}

/// Queues the deliveries of the public events recorded after each enabled subscription's
/// cursor (at most [`QUEUE_BATCH`] per subscription), each subscription in a write
/// transaction of its own; returns how many were queued.
pub fn queue_new_events(c: &mut DbConn) -> ApiResult<usize> {
    let newest = events::last_id(c)?;
    let mut queued = 0;
    // a write transaction only for the subscriptions behind the log
    for w in rows::enabled(c)?
        .into_iter()
        .filter(|w| w.last_event_id < newest)
    {
        queued += crate::store::stamps::write(c, |c| queue_for(c, &w))?;
    }
    Ok(queued)
}

fn queue_for(c: &mut DbConn, w: &Webhook) -> ApiResult<usize> {
    // the newest id first: every event up to it is committed (ids commit in order), so the
    // cursor may move to it when the page below holds every event after the cursor
    let newest = events::last_id(c)?;
    if newest <= w.last_event_id {
        return Ok(0);
    }
    let kinds = w
        .event_types
        .split(',')
        .filter_map(|t| t.parse::<EventKind>().ok())
        .collect();
    let filter = Filter {
        kinds,
        clearance: Some(Visibility::Public),
        ..Filter::default()
    };
    let found = events::after(c, w.last_event_id, &filter, QUEUE_BATCH)?;
    let cursor = if found.len() as i64 >= QUEUE_BATCH {
        found.last().map_or(newest, |e| e.id)
    } else {
        found.last().map_or(newest, |e| e.id.max(newest))
    };
    let now = now_utc();
    let bodies: Vec<(i64, EventKind, String)> = found
        .into_iter()
        .map(|e| {
            let (id, kind) = (e.id, e.kind);
            let body = serde_json::to_string(&EventView::of(e))
                .map_err(|e| ApiError::Internal(e.to_string()))?;
            Ok((id, kind, body))
        })
        .collect::<ApiResult<_>>()?;
    let new: Vec<NewDelivery> = bodies
        .iter()
        .map(|(id, kind, body)| NewDelivery {
            webhook_id: w.id,
            event_id: *id,
            event_type: *kind,
            body,
            status: DeliveryStatus::Pending,
            attempts: 0,
            next_attempt_at: now,
            created_at: now,
        })
        .collect();
    let n = rows::insert_deliveries(c, &new)?;
    rows::advance(c, w.id, cursor)?;
    Ok(n)
}

/// How deliveries are retried.
#[derive(Debug, Clone, Copy)]
pub struct RetryPolicy {
    /// The wait after the first failed attempt; each further one doubles it.
    pub base: Duration,
    /// The longest wait.
    pub cap: Duration,
    /// Attempts before a delivery is marked failed.
    pub max_attempts: i32,
}

impl RetryPolicy {
    /// The wait after `attempts` failed attempts: `base × 2^(attempts − 1)`, at most `cap`.
    pub fn backoff(&self, attempts: i32) -> Duration {
        let doublings = attempts.saturating_sub(1).clamp(0, 30) as u32;
        self.base
            .checked_mul(1u32 << doublings)
            .unwrap_or(self.cap)
            .min(self.cap)
    }
}

/// The next delivery of each enabled subscription that is due at `now` (the oldest pending
/// one of each, when its attempt is due): deliveries of one subscription go out in order.
pub fn due(c: &mut DbConn, now: NaiveDateTime) -> ApiResult<Vec<Delivery>> {
    let enabled: std::collections::HashSet<WebhookId> =
        rows::enabled(c)?.into_iter().map(|w| w.id).collect();
    Ok(rows::heads(c)?
        .into_iter()
        .filter(|d| d.next_attempt_at <= now && enabled.contains(&d.webhook_id))
        .collect())
}

/// What a delivery needs to be sent: the subscription's URL and secret, if it is still
/// enabled, and the delivery if it is still pending.
pub fn sendable(c: &mut DbConn, d: &Delivery) -> ApiResult<Option<(Webhook, Delivery)>> {
    let Some(w) = rows::by_id(c, d.webhook_id)?.filter(|w| w.enabled) else {
        return Ok(None);
    };
    let Some(now) =
        rows::delivery(c, d.webhook_id, d.id)?.filter(|d| d.status == DeliveryStatus::Pending)
    else {
        return Ok(None);
    };
    Ok(Some((w, now)))
}

/// Records an attempt: a 2xx answer delivers; anything else is retried after the backoff,
/// until the last attempt marks the delivery failed.
pub fn record_attempt(
    c: &mut DbConn,
    d: &Delivery,
    outcome: Result<u16, String>,
    policy: &RetryPolicy,
) -> ApiResult<()> {
    let now = now_utc();
    let attempts = d.attempts.saturating_add(1);
    let (code, error) = match outcome {
        Ok(code) => (Some(i32::from(code)), None),
        Err(e) => (None, Some(e.chars().take(MAX_ERROR_CHARS).collect())),
    };
    let delivered = code.is_some_and(|c| (200..300).contains(&c));
    let status = if delivered {
        DeliveryStatus::Delivered
    } else if attempts >= policy.max_attempts {
        DeliveryStatus::Failed
    } else {
        DeliveryStatus::Pending
    };
    let wait = chrono::Duration::from_std(policy.backoff(attempts))
        .unwrap_or_else(|_| chrono::Duration::hours(1));
    crate::store::stamps::write(c, |c| {
        rows::record_attempt(
            c,
            d.id,
            &Attempt {
                status,
                attempts,
                next_attempt_at: if status == DeliveryStatus::Pending {
                    now + wait
                } else {
                    now
                },
                last_attempt_at: Some(now),
                last_status_code: code,
                last_error: error,
            },
        )?;
        ApiResult::Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let p = RetryPolicy {
            base: Duration::from_secs(5),
            cap: Duration::from_secs(60),
            max_attempts: 10,
        };
        let waits: Vec<u64> = (1..=6).map(|n| p.backoff(n).as_secs()).collect();
        assert_eq!(waits, vec![5, 10, 20, 40, 60, 60]);
        assert_eq!(p.backoff(1000).as_secs(), 60);
    }

    #[test]
    fn urls_are_http_with_a_host() {
        assert_eq!(
            check_url("url", "https://hooks.example/in", false).unwrap(),
            "https://hooks.example/in"
        );
        for bad in [
            "ftp://hooks.example/",
            "hooks.example/in",
            "http://user:pw@hooks.example/",
            "http://hooks.example/#x",
            "http://127.0.0.1/",
            "http://[::1]:8080/",
            "http://10.1.2.3/",
        ] {
            let e = check_url("url", bad, false).unwrap_err();
            assert_eq!(e.field, "url", "{bad}");
        }
        assert!(check_url("url", "http://127.0.0.1:9/", true).is_ok());
        let long = format!("https://hooks.example/{}", "a".repeat(MAX_URL_BYTES));
        assert!(check_url("url", &long, false).is_err());
    }

    #[test]
    fn event_types_are_known_and_stored_once_each() {
        let list = ["result.entered", "pairing.published", "result.entered"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            check_types("event_types", &list).unwrap(),
            "pairing.published,result.entered"
        );
        let e = check_types("event_types", &["result".to_string()]).unwrap_err();
        assert_eq!(e.field, "event_types[0]");
    }
}
