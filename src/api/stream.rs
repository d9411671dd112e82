//! The live event stream (docs/api-guide.md#the-live-event-stream): the event log pushed as
//! Server-Sent Events, replayed from a cursor and then followed as it grows
//! ([decision 0221](../../docs/decisions/0221-event-stream.md)).

use crate::auth::MaybeAuth;
use crate::error::{ApiError, ApiResult, Problem};
use crate::ids::{CompetitionId, EveningId};
use crate::services::events as svc;
use crate::services::events::Filter;
use crate::state::AppState;
use crate::stream::{self as hub, ClientSlot};
use actix_web::{HttpMessage, HttpRequest, HttpResponse, get, web};
use bytes::Bytes;
use futures_util::future::{Either, select};
use serde::Deserialize;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::{self, error::RecvError};
use utoipa::IntoParams;

/// The reconnection delay the stream proposes to `EventSource` clients (the `retry:` field).
pub const RETRY_MS: u64 = 3000;
/// The last comment of a stream the service's shutdown ends.
const SHUTTING_DOWN: &str = "the service is shutting down; reconnect with Last-Event-ID";
/// The most messages one chunk of the answer holds.
const MAX_BATCH: usize = 256;
/// The most events `max_events` may ask for.
pub const MAX_EVENTS: u32 = 1000;

/// The stream's query.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct StreamQuery {
    /// Only the events of this competition.
    #[param(value_type = Option<i64>, minimum = 1)]
    pub competition: Option<String>,
    /// Only the events of this club evening.
    #[param(value_type = Option<i64>, minimum = 1)]
    pub evening: Option<String>,
    /// Only these event types (all when absent): repeat the parameter
    /// (`types=pairing.published&types=result.entered`) or give a comma list
    /// (`types=pairing.published,result.entered`); at most 400 characters in all.
    #[param(value_type = Option<Vec<clubcomp_core::vocab::EventType>>, style = Form, explode)]
    pub types: Option<String>,
    /// Resume after this event id (for clients that cannot send `Last-Event-ID`; the header
    /// wins when both are given). Absent: only events from now on.
    #[param(value_type = Option<String>, pattern = "^[0-9]{1,18}$")]
    pub after: Option<String>,
    /// End the stream once this many events were sent (1 to 1000), for a client that reads
    /// the answer whole, such as a generated one: with `after`, one call reads the next events
    /// and returns. Absent: no such end.
    #[param(value_type = Option<u32>, minimum = 1, maximum = 1000)]
    pub max_events: Option<String>,
    /// End the stream after this many seconds (1 to `STREAM_MAX_SECONDS`), whether or not
    /// `max_events` were sent. Absent: `STREAM_MAX_SECONDS`.
    #[param(value_type = Option<u32>, minimum = 1)]
    pub max_seconds: Option<String>,
}

/// A whole number from 1 to `max` (422 naming `field`).
fn bounded_field(field: &str, text: &str, max: u64) -> ApiResult<u64> {
    let t = text.trim();
    match t.parse::<u64>() {
        Ok(n) if (1..=max).contains(&n) && t.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(ApiError::invalid(
            field,
            format!("must be a whole number from 1 to {max}"),
        )),
    }
}

/// An id filter: a positive whole number (422 naming `field`).
fn id_field(field: &str, text: &str) -> ApiResult<i64> {
    let t = text.trim();
    match t.parse::<i64>() {
        Ok(n) if n > 0 && t.len() <= 18 && t.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(ApiError::invalid(
            field,
            "must be an id (a whole number from 1)",
        )),
    }
}

/// The events as they are recorded, as `text/event-stream`: each message carries the event's
/// id (`id:`), its type (`event:`) and the event as the changes feed lists it (`data:`, one
/// line of JSON). Anyone sees the public events; a bearer token of an arbiter, leader or admin
/// adds the events of that role. With `Last-Event-ID` (or `after`) the stream first replays
/// the events after that id from the log, then follows new ones, without gap or duplicate.
/// A comment line (`: keep-alive`) is sent when nothing else was for `STREAM_HEARTBEAT_SECS`;
/// a client that falls behind is cut off, and the stream ends after `STREAM_MAX_SECONDS`:
/// reconnect with the last id received.
#[utoipa::path(tag = "events",
    params(StreamQuery,
        ("Last-Event-ID" = Option<String>, Header, description = "Resume after this event id (sent by `EventSource` when it reconnects)", pattern = "^[0-9]{1,18}$")),
    responses(
        (status = 200, description = "The event stream, text that goes on until `max_events` were sent, `max_seconds` passed or `STREAM_MAX_SECONDS` (Server-Sent Events, read it line by line as it comes): each message is an `id:` line (the event id, decimal digits; send it as `Last-Event-ID` to resume), an `event:` line (the event type) and a `data:` line (the event as the changes feed lists it, a `LoggedEvent` as one line of JSON), then an empty line; lines starting with `:` are keep-alive comments and a `retry:` line is the reconnect delay in milliseconds", body = String, content_type = "text/event-stream"),
        (status = 400, description = "An unknown query parameter", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A token was sent and is not valid", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`competition` or `evening` is no id; an unknown type in `types`, or `types` too long; the cursor (`Last-Event-ID` or `after`) is no event id, is ahead of the log or below the events purged; `max_events` or `max_seconds` out of range", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`STREAM_MAX_ANON_PER_ADDRESS` streams without a token are open from the caller's address; try again after `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
        (status = 503, description = "`STREAM_MAX_CLIENTS` streams are open, or, for a caller without a token, all but the `STREAM_SIGNED_IN_SLOTS` kept for signed-in callers; try again after `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait")))))]
#[get("/stream")]
pub async fn get_stream(
    req: HttpRequest,
    auth: MaybeAuth,
    state: web::Data<AppState>,
    q: crate::api::ListQuery<StreamQuery>,
) -> ApiResult<HttpResponse> {
    let q = q.into_inner();
    let competition = q
        .competition
        .as_deref()
        .map(|t| id_field("competition", t))
        .transpose()?;
    let evening = q
        .evening
        .as_deref()
        .map(|t| id_field("evening", t))
        .transpose()?;
    let max_events = q
        .max_events
        .as_deref()
        .map(|t| bounded_field("max_events", t, u64::from(MAX_EVENTS)))
        .transpose()?;
    let longest = state.config.stream_max_duration;
    let duration = match q.max_seconds.as_deref() {
        Some(t) => Duration::from_secs(bounded_field("max_seconds", t, longest.as_secs().max(1))?),
        None => longest,
    };
    let kinds = match q.types.as_deref() {
        Some(t) => svc::parse_kinds("types", t)?,
        None => Vec::new(),
    };
    let header = req
        .headers()
        .get("last-event-id")
        .map(|v| v.to_str().unwrap_or("\u{fffd}").to_string());
    // both are checked; the header, sent by a reconnecting `EventSource`, wins
    let after = q
        .after
        .as_deref()
        .map(|a| svc::parse_cursor("after", a))
        .transpose()?;
    let cursor = match (header.as_deref(), after) {
        (Some(h), _) => Some(("Last-Event-ID", svc::parse_cursor("Last-Event-ID", h)?)),
        (None, Some(a)) => Some(("after", a)),
        (None, None) => None,
    };
    let filter = Filter {
        kinds,
        competition: competition.map(CompetitionId),
        evening: evening.map(EveningId),
        clearance: Some(svc::clearance(
            auth.0.as_ref().map_or(&[][..], |p| &p.roles[..]),
        )),
    };
    let caller = match &auth.0 {
        Some(_) => hub::Caller::SignedIn,
        None => hub::Caller::Anonymous(crate::services::throttle::address_key(
            &crate::auth::request_address(&req, &state.config.trusted_proxies),
        )),
    };
    if req
        .extensions()
        .get::<crate::representation::Head>()
        .is_some()
    {
        // a `HEAD`: the stream's headers, at once, and no place among the open streams
        return Ok(stream_headers(&mut HttpResponse::Ok()).finish());
    }
    let slot = state.hub.admit(caller)?;
    // subscribed before the log is read: what the log does not hold yet, the hub will send
    let rx = state.hub.subscribe();
    let h = state.hub.clone();
    let start = state
        .db(move |c| svc::stream_start(c, cursor, |c| h.ensure_started(c)))
        .await?;
    let session = Session {
        deadline: actix_web::rt::time::Instant::now() + duration,
        remaining: max_events.map_or(usize::MAX, |n| n as usize),
        heartbeat: state.config.stream_heartbeat,
        next_beat: actix_web::rt::time::Instant::now() + state.config.stream_heartbeat,
        state: state.clone(),
        closing: state.hub.closing(),
        rx,
        filter: Arc::new(filter),
        last: start,
        replaying: cursor.is_some(),
        greeted: false,
        done: false,
        _slot: slot,
    };
    Ok(
        stream_headers(&mut HttpResponse::Ok()).streaming(futures_util::stream::unfold(
            session,
            |mut s| async move {
                s.next_chunk()
                    .await
                    .map(|b| (Ok::<_, actix_web::Error>(b), s))
            },
        )),
    )
}

/// The headers of the stream's answer.
fn stream_headers(res: &mut actix_web::HttpResponseBuilder) -> &mut actix_web::HttpResponseBuilder {
    res.content_type("text/event-stream")
        .insert_header(("Cache-Control", "no-cache, no-store"))
        .insert_header(("X-Accel-Buffering", "no"))
}

/// One open stream.
struct Session {
    state: web::Data<AppState>,
    rx: broadcast::Receiver<Arc<crate::services::events::EventView>>,
    /// Changes when the hub closes (the service shuts down): the stream ends.
    closing: tokio::sync::watch::Receiver<bool>,
    filter: Arc<Filter>,
    /// The highest event id sent or passed over: only later ones are sent.
    last: i64,
    /// Still reading the log after the client's cursor.
    replaying: bool,
    greeted: bool,
    done: bool,
    heartbeat: Duration,
    next_beat: actix_web::rt::time::Instant,
    deadline: actix_web::rt::time::Instant,
    /// The events still to send before the stream ends (`max_events`).
    remaining: usize,
    _slot: ClientSlot,
}

impl Session {
    /// The next chunk of the answer, or `None` when the stream ends.
    async fn next_chunk(&mut self) -> Option<Bytes> {
        if self.done {
            return None;
        }
        if *self.closing.borrow() {
            return Some(self.end(SHUTTING_DOWN));
        }
        if self.remaining == 0 {
            return Some(self.end("the events asked for (max_events) were sent"));
        }
        if !self.greeted {
            self.greeted = true;
            return Some(self.sent(format!(
                "retry: {RETRY_MS}\n: events after {}\n\n",
                self.last
            )));
        }
        if self.replaying {
            let (after, filter) = (self.last, self.filter.clone());
            let size = hub::PAGE.min(i64::try_from(self.remaining).unwrap_or(hub::PAGE));
            let page = self
                .state
                .db(move |c| svc::read_after(c, after, &filter, size))
                .await;
            let rows = match page {
                Ok(rows) => rows,
                Err(e) => {
                    tracing::warn!(error = %e, "the event stream could not replay the log");
                    return Some(
                        self.end("the log cannot be read now; reconnect with Last-Event-ID"),
                    );
                }
            };
            if (rows.len() as i64) < size {
                self.replaying = false;
            }
            if !rows.is_empty() {
                let mut out = String::new();
                for e in &rows {
                    out.push_str(&hub::message(e));
                }
                self.last = rows.last().map_or(self.last, |e| e.id);
                self.remaining -= rows.len();
                return Some(self.sent(out));
            }
        }
        loop {
            let now = actix_web::rt::time::Instant::now();
            if now >= self.deadline {
                return Some(self.end("the stream's time is up; reconnect with Last-Event-ID"));
            }
            let until = self.next_beat.min(self.deadline);
            let got = {
                let wait = std::pin::pin!(actix_web::rt::time::sleep_until(until));
                let recv = std::pin::pin!(self.rx.recv());
                let closed = std::pin::pin!(self.closing.wait_for(|c| *c));
                match select(select(recv, wait), closed).await {
                    Either::Left((Either::Left((r, _)), _)) => Some(r),
                    Either::Left((Either::Right(((), _)), _)) => None,
                    Either::Right(_) => {
                        self.done = true;
                        return Some(Bytes::from(format!(": {SHUTTING_DOWN}\n\n")));
                    }
                }
            };
            match got {
                Some(Ok(e)) => {
                    let mut out = String::new();
                    self.take(&e, &mut out);
                    // what else is waiting goes in the same chunk
                    let mut n = 1;
                    while n < MAX_BATCH && self.remaining > 0 {
                        match self.rx.try_recv() {
                            Ok(e) => {
                                self.take(&e, &mut out);
                                n += 1;
                            }
                            Err(broadcast::error::TryRecvError::Lagged(_)) => {
                                return Some(self.lagged(out));
                            }
                            Err(_) => break,
                        }
                    }
                    if !out.is_empty() {
                        return Some(self.sent(out));
                    }
                }
                Some(Err(RecvError::Lagged(_))) => {
                    return Some(self.lagged(String::new()));
                }
                Some(Err(RecvError::Closed)) => return None,
                None => {
                    if actix_web::rt::time::Instant::now() < self.deadline {
                        return Some(self.sent(": keep-alive\n\n".to_string()));
                    }
                }
            }
        }
    }

    /// Adds `e` to `out` when it is new and the filter lets it through.
    fn take(&mut self, e: &crate::services::events::EventView, out: &mut String) {
        if e.id <= self.last {
            return;
        }
        self.last = e.id;
        if self.remaining > 0 && hub::admits(&self.filter, e) {
            out.push_str(&hub::message(e));
            self.remaining -= 1;
        }
    }

    fn sent(&mut self, text: String) -> Bytes {
        self.next_beat = actix_web::rt::time::Instant::now() + self.heartbeat;
        Bytes::from(text)
    }

    /// The last chunk: `out` and a comment saying why the stream ends.
    fn lagged(&mut self, mut out: String) -> Bytes {
        out.push_str(": this client fell behind the stream; reconnect with Last-Event-ID\n\n");
        self.done = true;
        Bytes::from(out)
    }

    fn end(&mut self, why: &str) -> Bytes {
        self.done = true;
        Bytes::from(format!(": {why}\n\n"))
    }
}
