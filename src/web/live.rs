//! Live pages (docs/decisions/0343-live-pages.md): the one script the pages load,
//! `/club/live.<hash>.js`, kept for a year under its versioned address like the stylesheet,
//! and the event streams the pages follow. A page that follows one names it on its `<body>`
//! (`data-live-stream`, made here) and marks the regions that may change with `data-live`;
//! the script fetches the page again on an event of the named types and replaces the
//! regions whose HTML changed. The page is complete without it. An embedded page also loads
//! `/club/embed.<hash>.js`, which tells the embedding page its height.

use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse};
use std::sync::OnceLock;

/// The served script.
pub const SCRIPT: &str = include_str!("live.js");
/// The iframe sizing script of an embedded page (docs/decisions/0367-iframe-sizing.md).
pub const EMBED_SCRIPT: &str = include_str!("embed.js");

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

/// A script's versioned address and its gzip form, made once.
struct Asset {
    url: String,
    gzip: Option<bytes::Bytes>,
}

/// A script of the service's own: its name (`/club/<name>.<hash>.js`) and its text.
struct Script {
    name: &'static str,
    text: &'static str,
    made: OnceLock<Asset>,
}

impl Script {
    fn asset(&self) -> &Asset {
        self.made.get_or_init(|| {
            let tag = crate::cached::content_etag("j", self.text.as_bytes());
            let hash = tag.trim_matches('"').trim_start_matches("j-");
            Asset {
                url: format!("/club/{}.{}.js", self.name, &hash[..hash.len().min(12)]),
                gzip: crate::cache::gzip(self.text.as_bytes()),
            }
        })
    }
}

static LIVE: Script = Script {
    name: "live",
    text: SCRIPT,
    made: OnceLock::new(),
};

static EMBED: Script = Script {
    name: "embed",
    text: EMBED_SCRIPT,
    made: OnceLock::new(),
};

/// The address the pages load the script from (`/club/live.<hash>.js`).
pub fn script_url() -> &'static str {
    &LIVE.asset().url
}

/// The address an embedded page (`?embed=1`) loads the iframe sizing script from
/// (`/club/embed.<hash>.js`; docs/decisions/0367-iframe-sizing.md).
pub fn embed_script_url() -> &'static str {
    &EMBED.asset().url
}

/// `/club/live.<hash>.js`: the script, immutable under its address; the address of another
/// version answers the current script, revalidated, so a page cached before an upgrade still
/// runs.
pub(super) async fn script(req: HttpRequest, hash: actix_web::web::Path<String>) -> HttpResponse {
    serve(&req, &LIVE, hash.as_str())
}

/// `/club/embed.<hash>.js`: the iframe sizing script, served as the live script is.
pub(super) async fn embed_script(
    req: HttpRequest,
    hash: actix_web::web::Path<String>,
) -> HttpResponse {
    serve(&req, &EMBED, hash.as_str())
}

fn serve(req: &HttpRequest, s: &Script, hash: &str) -> HttpResponse {
    let a = s.asset();
    let current = format!("/club/{}.{hash}.js", s.name);
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
        _ => b.body(s.text),
    }
}
