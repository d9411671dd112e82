//! One middleware for what every answer's representation owes the client
//! ([decision 0214](../docs/decisions/0214-conditional-reads-and-head-everywhere.md),
//! docs/api-guide.md#compression-etags-and-head): a JSON, CSV, iCalendar or TRF answer over
//! [`GZIP_ABOVE`] bytes is gzip-compressed for a client that accepts it (`Vary:
//! Accept-Encoding`), and every successful GET carries an `ETag` and answers `304 Not
//! Modified` to a matching `If-None-Match`. A handler that tags its answer with a version
//! keeps its tag (compressed, the tag gets `-gz`, as the read cache's answers do); any other
//! answer is tagged with a weak tag over its body. Answers compressed already (the read
//! cache's) and streamed answers (the event stream) pass untouched.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderMap, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;

/// Marks a request that came as `HEAD` and is routed as a `GET` (the application's outer
/// layer does it): a handler whose answer is a stream answers its headers only.
#[derive(Debug, Clone, Copy)]
pub struct Head;

/// Answers of more bytes than this are compressed for clients that accept gzip.
pub const GZIP_ABOVE: usize = 1024;

/// The media types compressed and tagged (TRF is `text/plain`).
const TYPES: [&str; 5] = [
    "application/json",
    "application/problem+json",
    "text/csv",
    "text/calendar",
    "text/plain",
];

/// Whether a `Content-Type` value is one of [`TYPES`].
fn compressible(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .is_some_and(|t| TYPES.contains(&t.as_str()))
}

/// The middleware (see the module's documentation).
pub async fn representation<B: MessageBody + 'static>(
    req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let get = req.method() == Method::GET;
    let gzip_ok = crate::cache::accepts_gzip(
        req.headers()
            .get(header::ACCEPT_ENCODING)
            .and_then(|v| v.to_str().ok()),
    );
    let inm = crate::cached::if_none_match(req.request());
    let res = next.call(req).await?;
    let sized = matches!(
        res.response().body().size(),
        actix_web::body::BodySize::Sized(_)
    );
    if !sized
        || !compressible(res.headers())
        || res.headers().contains_key(header::CONTENT_ENCODING)
        || matches!(
            res.status(),
            StatusCode::NOT_MODIFIED | StatusCode::NO_CONTENT
        )
    {
        return Ok(res.map_into_boxed_body());
    }
    let (req, res) = res.into_parts();
    let (mut head, body) = res.into_parts();
    let bytes = match actix_web::body::to_bytes(body).await {
        Ok(b) => b,
        Err(e) => {
            let e: Box<dyn std::error::Error> = e.into();
            tracing::warn!(error = %e, "an answer's body could not be read");
            return Err(actix_web::error::ErrorInternalServerError("internal error"));
        }
    };
    let tagged = get && head.status() == StatusCode::OK;
    let identity_tag = match head.headers().get(header::ETAG) {
        Some(t) => t.to_str().ok().map(str::to_string),
        None if tagged => Some(format!("W/{}", crate::cached::content_etag("body", &bytes))),
        None => None,
    };
    let large = bytes.len() > GZIP_ABOVE;
    let compressed = if large && gzip_ok {
        crate::cache::gzip(&bytes)
    } else {
        None
    };
    let tag = match (&identity_tag, &compressed) {
        // a weak tag names both codings; a strong one names one sequence of bytes
        (Some(t), Some(_)) if !t.starts_with("W/") => Some(crate::cache::gzip_etag(t)),
        (t, _) => t.clone(),
    };
    if large {
        add_vary(head.headers_mut());
    }
    if let Some(t) = tag.as_deref().and_then(|t| HeaderValue::from_str(t).ok()) {
        head.headers_mut().insert(header::ETAG, t);
    }
    if tagged {
        let matches = |t: &Option<String>| {
            t.as_deref()
                .is_some_and(|t| crate::cached::not_modified(inm.as_deref(), t))
        };
        if matches(&tag) || matches(&identity_tag) {
            let mut not = actix_web::HttpResponse::NotModified();
            for name in [header::ETAG, header::VARY, header::CACHE_CONTROL] {
                if let Some(v) = head.headers().get(&name) {
                    not.insert_header((name, v.clone()));
                }
            }
            return Ok(ServiceResponse::new(req, not.finish()));
        }
    }
    let body = match compressed {
        Some(z) => {
            head.headers_mut()
                .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            z
        }
        None => bytes,
    };
    Ok(ServiceResponse::new(
        req,
        head.set_body(body).map_into_boxed_body(),
    ))
}

/// Adds `Accept-Encoding` to the answer's `Vary` unless it names it.
fn add_vary(headers: &mut HeaderMap) {
    let current = headers
        .get(header::VARY)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let value = match current {
        Some(v)
            if v.split(',')
                .any(|t| t.trim().eq_ignore_ascii_case("accept-encoding")) =>
        {
            return;
        }
        Some(v) if !v.trim().is_empty() => format!("{v}, Accept-Encoding"),
        _ => "Accept-Encoding".to_string(),
    };
    if let Ok(v) = HeaderValue::from_str(&value) {
        headers.insert(header::VARY, v);
    }
}
