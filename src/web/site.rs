//! What a site around the pages needs: `/` leads to the club's front page, a page address
//! with a trailing slash leads to the page, `/robots.txt`, `/favicon.ico`, and the
//! stylesheet under a versioned address (its content hash) that a browser keeps for a year,
//! gzip-compressed for a client that accepts it.

use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse};
use std::sync::OnceLock;

/// The favicon: a small SVG (a pawn on the club's green), served as `/favicon.ico` and
/// `/club/favicon.svg`.
pub const FAVICON: &str = include_str!("favicon.svg");

/// `/robots.txt`: the club pages may be indexed; the API, its documentation and the
/// pairing slips are left out.
const ROBOTS: &str = "User-agent: *\nAllow: /club/\nDisallow: /api/\nDisallow: /docs/\n\
Disallow: /club/evenings/*/slips\n";

/// The stylesheet's versioned address and its gzip form, made once.
struct Sheet {
    url: String,
    gzip: Option<bytes::Bytes>,
}

fn sheet() -> &'static Sheet {
    static SHEET: OnceLock<Sheet> = OnceLock::new();
    SHEET.get_or_init(|| {
        let tag = crate::cached::content_etag("s", super::STYLESHEET.as_bytes());
        let hash = tag.trim_matches('"').trim_start_matches("s-");
        Sheet {
            url: format!("/club/style.{}.css", &hash[..hash.len().min(12)]),
            gzip: crate::cache::gzip(super::STYLESHEET.as_bytes()),
        }
    })
}

/// The address the pages link the stylesheet at (`/club/style.<hash>.css`).
pub fn stylesheet_url() -> &'static str {
    &sheet().url
}

/// A permanent redirect to `to` (a path of this site), keeping the request's query string.
pub fn redirect(req: &HttpRequest, to: &str) -> HttpResponse {
    let mut location = to.to_string();
    if !req.query_string().is_empty() {
        location.push('?');
        location.push_str(req.query_string());
    }
    let value = HeaderValue::from_str(&location)
        .or_else(|_| HeaderValue::from_str(to))
        .unwrap_or_else(|_| HeaderValue::from_static("/club/"));
    HttpResponse::PermanentRedirect()
        .insert_header((header::LOCATION, value))
        .finish()
}

/// The page a path with trailing slashes names (`/club/x/` → `/club/x`), for a path under
/// `/club/` other than the front page itself; `None` otherwise.
pub fn without_trailing_slash(path: &str) -> Option<&str> {
    let trimmed = path.trim_end_matches('/');
    (path.ends_with('/') && trimmed.len() > "/club".len() && trimmed.starts_with("/club/"))
        .then_some(trimmed)
}

pub(super) async fn root(req: HttpRequest) -> HttpResponse {
    redirect(&req, "/club/")
}

pub(super) async fn club(req: HttpRequest) -> HttpResponse {
    redirect(&req, "/club/")
}

pub(super) async fn robots() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .content_type("text/plain; charset=utf-8")
        .body(ROBOTS)
}

pub(super) async fn favicon() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "public, max-age=604800"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .content_type("image/svg+xml")
        .body(FAVICON)
}

/// `/club/style.<hash>.css`: the stylesheet, immutable under its address (another hash is
/// another address); `/club/style.css` (the address before versioning) stays, revalidated.
pub(super) async fn stylesheet(
    req: HttpRequest,
    hash: actix_web::web::Path<String>,
) -> HttpResponse {
    let s = sheet();
    let current = format!("/club/style.{}.css", hash.as_str());
    if current != s.url {
        // an older version's address: the current sheet, but not to be kept
        return plain_sheet(&req, "no-cache");
    }
    let gz = crate::cache::accepts_gzip(
        req.headers()
            .get(header::ACCEPT_ENCODING)
            .and_then(|v| v.to_str().ok()),
    );
    let mut b = HttpResponse::Ok();
    b.insert_header((header::CACHE_CONTROL, "public, max-age=31536000, immutable"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::VARY, "Accept-Encoding"))
        .content_type("text/css; charset=utf-8");
    match (&s.gzip, gz) {
        (Some(body), true) => b
            .insert_header((header::CONTENT_ENCODING, HeaderValue::from_static("gzip")))
            .body(body.clone()),
        _ => b.body(super::STYLESHEET),
    }
}

/// `/club/style.css`: the stylesheet with a content ETag, revalidated.
pub(super) async fn stylesheet_unversioned(req: HttpRequest) -> HttpResponse {
    plain_sheet(&req, "no-cache")
}

fn plain_sheet(req: &HttpRequest, cache: &'static str) -> HttpResponse {
    let tag = super::content_etag(super::STYLESHEET);
    if crate::cached::reader_has(req, &tag) {
        return crate::cached::not_modified_response(tag);
    }
    HttpResponse::Ok()
        .insert_header((header::ETAG, tag))
        .insert_header((header::CACHE_CONTROL, cache))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .content_type("text/css; charset=utf-8")
        .body(super::STYLESHEET)
}

#[cfg(test)]
mod tests {
    use super::without_trailing_slash;

    #[test]
    fn a_page_address_with_a_trailing_slash_names_the_page() {
        assert_eq!(
            without_trailing_slash("/club/competitions/3/standings/"),
            Some("/club/competitions/3/standings")
        );
        assert_eq!(
            without_trailing_slash("/club/players/7//"),
            Some("/club/players/7")
        );
        assert_eq!(without_trailing_slash("/club/"), None);
        assert_eq!(without_trailing_slash("/club//"), None);
        assert_eq!(without_trailing_slash("/club/players/7"), None);
    }
}
