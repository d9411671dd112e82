//! Live pages (docs/decisions/0343-live-pages.md): the one script the pages load,
//! `/club/live.<hash>.js`, kept for a year under its versioned address like the stylesheet,
//! and the event streams the pages follow. A page that follows one names it on its `<body>`
//! (`data-live-stream`, made here) and marks the regions that may change with `data-live`;
//! the script fetches the page again on an event of the named types and replaces the
//! regions whose HTML changed. The page is complete without it.

use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse};
use std::sync::OnceLock;

/// The served script.
pub const SCRIPT: &str = include_str!("live.js");

/// The events that change an evening's pairing list: its pairings, results and rounds.
const EVENING_TYPES: &str = "pairing.published,pairing.withdrawn,result.entered,\
result.corrected,result.disputed,round.completed";
/// The events that change a competition's standings (raised by every change of its version).
const STANDINGS_TYPES: &str = "standings.changed";
/// The events that change the front page: what is played on the next evening.
const FRONT_TYPES: &str = "pairing.published,pairing.withdrawn,round.completed,result.entered";

/// The stream an evening's page follows.
pub fn evening_stream(id: i64) -> String {
    format!("/api/v1/stream?evening={id}&types={EVENING_TYPES}")
}

/// The stream a competition's standings page follows.
pub fn standings_stream(id: i64) -> String {
    format!("/api/v1/stream?competition={id}&types={STANDINGS_TYPES}")
}

/// The stream the front page follows.
pub fn front_stream() -> String {
    format!("/api/v1/stream?types={FRONT_TYPES}")
}

/// The script's versioned address and its gzip form, made once.
struct Asset {
    url: String,
    gzip: Option<bytes::Bytes>,
}

fn asset() -> &'static Asset {
    static ASSET: OnceLock<Asset> = OnceLock::new();
    ASSET.get_or_init(|| {
        let tag = crate::cached::content_etag("j", SCRIPT.as_bytes());
        let hash = tag.trim_matches('"').trim_start_matches("j-");
        Asset {
            url: format!("/club/live.{}.js", &hash[..hash.len().min(12)]),
            gzip: crate::cache::gzip(SCRIPT.as_bytes()),
        }
    })
}

/// The address the pages load the script from (`/club/live.<hash>.js`).
pub fn script_url() -> &'static str {
    &asset().url
}

/// `/club/live.<hash>.js`: the script, immutable under its address; the address of another
/// version answers the current script, revalidated, so a page cached before an upgrade still
/// runs.
pub(super) async fn script(req: HttpRequest, hash: actix_web::web::Path<String>) -> HttpResponse {
    let a = asset();
    let current = format!("/club/live.{}.js", hash.as_str());
    let mut b = HttpResponse::Ok();
    b.insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::VARY, "Accept-Encoding"))
        .content_type("text/javascript; charset=utf-8");
    if current == a.url {
        b.insert_header((header::CACHE_CONTROL, "public, max-age=31536000, immutable"));
    } else {
        b.insert_header((header::CACHE_CONTROL, "no-cache"));
    }
    let gz = crate::cache::accepts_gzip(
        req.headers()
            .get(header::ACCEPT_ENCODING)
            .and_then(|v| v.to_str().ok()),
    );
    match (&a.gzip, gz) {
        (Some(body), true) => b
            .insert_header((header::CONTENT_ENCODING, HeaderValue::from_static("gzip")))
            .body(body.clone()),
        _ => b.body(SCRIPT),
    }
}
