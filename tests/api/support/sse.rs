//! A reader of the live event stream (`GET /stream`): the answer's body read chunk by chunk as
//! it arrives, cut into Server-Sent Events messages. Every wait is bounded by a failure guard
//! (a stream that sends nothing fails the test instead of hanging it); no test measures time.

use super::app::{Resp, TestApp};
use super::paths;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::http::StatusCode;
use actix_web::test;
use serde_json::Value;
use std::time::Duration;

/// How long a test waits for the next chunk before it fails.
pub const GUARD: Duration = Duration::from_secs(20);

/// One message of the stream.
#[derive(Debug, Clone, PartialEq)]
pub enum Sse {
    /// An event: its `id`, its `event` (type) and its `data` (JSON).
    Event { id: i64, kind: String, data: Value },
    /// A comment line (`: …`), a heartbeat or the reason the stream ends.
    Comment(String),
    /// A `retry:` hint in milliseconds.
    Retry(u64),
}

/// An open stream.
pub struct SseStream {
    pub headers: actix_web::http::header::HeaderMap,
    body: BoxBody,
    buf: String,
    ended: bool,
}

/// What opening a stream gave: the stream, or the refusal read whole.
pub enum Opened {
    Stream(SseStream),
    Refused(Resp),
}

impl Opened {
    /// The open stream (panics with the refusal otherwise).
    pub fn stream(self) -> SseStream {
        match self {
            Opened::Stream(s) => s,
            Opened::Refused(r) => panic!("the stream was refused: {} {}", r.status, r.text),
        }
    }

    /// The refusal (panics when the stream opened).
    pub fn refused(self) -> Resp {
        match self {
            Opened::Stream(_) => panic!("the stream opened"),
            Opened::Refused(r) => r,
        }
    }
}

impl TestApp {
    /// `GET /stream?{query}` as the holder of `token`, with `Last-Event-ID` when given.
    pub async fn open_stream(
        &self,
        query: &str,
        token: Option<&str>,
        last_event_id: Option<&str>,
    ) -> Opened {
        let mut r = test::TestRequest::get().uri(&paths::stream(query));
        if let Some(t) = token {
            r = r.insert_header(("Authorization", format!("Bearer {t}")));
        }
        if let Some(l) = last_event_id {
            r = r.insert_header(("Last-Event-ID", l));
        }
        let res = test::call_service(&self.svc, r.to_request()).await;
        let status = res.status();
        let headers = res.headers().clone();
        if status != StatusCode::OK {
            let bytes = test::read_body(res).await;
            let text = String::from_utf8_lossy(&bytes).to_string();
            return Opened::Refused(Resp {
                status,
                headers,
                body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
                text,
            });
        }
        Opened::Stream(SseStream {
            headers,
            body: res.into_body(),
            buf: String::new(),
            ended: false,
        })
    }
}

impl SseStream {
    /// The next message, or `None` when the stream ended.
    pub async fn next(&mut self) -> Option<Sse> {
        loop {
            if let Some(at) = self.buf.find("\n\n") {
                let block: String = self.buf.drain(..at + 2).collect();
                if let Some(m) = parse(&block) {
                    return Some(m);
                }
                continue;
            }
            if self.ended {
                return None;
            }
            let chunk = actix_web::rt::time::timeout(
                GUARD,
                std::future::poll_fn(|cx| std::pin::Pin::new(&mut self.body).poll_next(cx)),
            )
            .await
            .expect("the stream sent nothing within the guard");
            match chunk {
                Some(Ok(b)) => self.buf.push_str(std::str::from_utf8(&b).expect("UTF-8")),
                Some(Err(e)) => panic!("the stream failed: {e}"),
                None => self.ended = true,
            }
        }
    }

    /// The next event, passing over comments and hints; `None` when the stream ended.
    pub async fn next_event(&mut self) -> Option<(i64, String, Value)> {
        while let Some(m) = self.next().await {
            if let Sse::Event { id, kind, data } = m {
                return Some((id, kind, data));
            }
        }
        None
    }

    /// The events up to and including the first with id `last` (or a later one).
    pub async fn events_through(&mut self, last: i64) -> Vec<(i64, String, Value)> {
        let mut out = Vec::new();
        while let Some(e) = self.next_event().await {
            let id = e.0;
            out.push(e);
            if id >= last {
                return out;
            }
        }
        panic!("the stream ended before event {last}: {out:?}");
    }

    /// Every message until the stream ends.
    pub async fn rest(&mut self) -> Vec<Sse> {
        let mut out = Vec::new();
        while let Some(m) = self.next().await {
            out.push(m);
        }
        out
    }
}

/// One message from its lines (`None` for an empty block).
fn parse(block: &str) -> Option<Sse> {
    let (mut id, mut kind, mut data, mut comment, mut retry) = (None, None, None, None, None);
    for line in block.lines().filter(|l| !l.is_empty()) {
        if let Some(c) = line.strip_prefix(':') {
            comment.get_or_insert(c.trim().to_string());
        } else if let Some((field, value)) = line.split_once(':') {
            let value = value.strip_prefix(' ').unwrap_or(value);
            match field {
                "id" => id = Some(value.parse::<i64>().expect("numeric id")),
                "event" => kind = Some(value.to_string()),
                "data" => data = Some(serde_json::from_str(value).expect("JSON data")),
                "retry" => retry = Some(value.parse::<u64>().expect("numeric retry")),
                other => panic!("unknown field {other}"),
            }
        }
    }
    match (id, kind, data) {
        (Some(id), Some(kind), Some(data)) => Some(Sse::Event { id, kind, data }),
        (None, None, None) => retry.map(Sse::Retry).or(comment.map(Sse::Comment)),
        other => panic!("an incomplete event: {other:?}"),
    }
}
