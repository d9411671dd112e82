//! The cached and conditional reads of the HTTP layer, which the handlers (`crate::api`) and
//! the club pages (`crate::web`) answer with (docs/api-guide.md#versions-etags-and-conditional-requests,
//! docs/operations.md#the-read-cache-and-read_version_reuse_us).
//!
//! What the read cache guarantees: a read never shows less than every write answered before
//! it arrived, in any process sharing the database ([decision 0009](../docs/decisions/0009-read-cache.md)).
//! A competition's version (its stamps) comes from a lookup that started after the read
//! arrived, coalesced with the concurrent reads of that competition
//! ([`competition_version`]); a cached body is stored under the version it was computed with,
//! in one snapshot, and served while that version is current ([`serve_cached`]). A document
//! that is not one competition's looks its version up in the same snapshot as its body
//! ([`serve_versioned`]).
//!
//! The ETag: a competition's document is tagged with its version ([`etag_of`]: the
//! competition, its stamp, the winter half's stamp, the document's name and the round it is
//! read after), unless the document has a tag of its own; a gzip answer has a tag of its own
//! too. `If-None-Match` is compared weakly ([`not_modified`]): when it names the current tag
//! (either variant's), the answer is a 304 with the `ETag`, the `Vary` and the document's
//! further headers, and no body.
//!
//! This module sits below the handlers and the club pages and above the state and the
//! services: it answers HTTP requests (304, gzip, headers), which the read cache
//! (`crate::cache`) does not know of, and it names no storage
//! ([decision 0246](../docs/decisions/0246-cached-reads-module.md)).

use crate::cache::CompetitionVersion;
use crate::error::{ApiError, ApiResult};
use crate::services::reads::{self, Conditional};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, web};
use std::sync::Arc;

/// The ETag of document `doc` (after round `after`) of a competition version.
pub fn etag_of(v: &CompetitionVersion, doc: &str, after: Option<u32>) -> String {
    let a = after.map_or("last".to_string(), |a| a.to_string());
    format!("\"{doc}-{}-s{}-w{}-a{a}\"", v.id, v.stamp, v.winter)
}

/// The current version of competition `id`, from a lookup that started after this call
/// (coalesced with concurrent reads of the same competition, see [`crate::cache::Coalescer`]):
/// never older than the last write committed before the call. 404 when there is no such
/// competition.
pub async fn competition_version(
    state: &web::Data<AppState>,
    id: i64,
) -> ApiResult<Arc<CompetitionVersion>> {
    // a lookup started less than the reuse time ago (writes wait that long before they
    // answer, so it already shows every write answered before this read arrived)
    if let Some((v, refresh)) = state.versions.db.reusable(id) {
        if refresh {
            // past half its reuse time: look up the next version in the background, so the
            // reads after this one find it instead of waiting for a lookup
            state
                .versions
                .flights
                .start_if_idle(id, version_lookup(state, id));
        }
        return Ok(v);
    }
    // SQLite: nothing committed since this competition's last lookup started, so its result
    // is still the current version (no query)
    if let Some(v) = state.versions.db.unchanged(id) {
        return Ok(v);
    }
    let lookup = state.versions.flights.get(id, version_lookup(state, id));
    // bounded like every database wait of a request (docs/operations.md#bounded-database-waits)
    actix_web::rt::time::timeout(state.config.db_query_timeout, lookup)
        .await
        .map_err(|_| ApiError::Unavailable(crate::error::UNAVAILABLE.into()))?
        .map_err(|e| reissue(&e))
}

/// A lookup of competition `id`'s version (for [`crate::cache::Coalescer`]): its stamps, from
/// a query that starts when the lookup does.
fn version_lookup(
    state: &web::Data<AppState>,
    id: i64,
) -> impl FnOnce() -> futures_util::future::BoxFuture<'static, crate::cache::VersionLookup> + use<>
{
    let db = state.versions.db.clone();
    move || {
        use futures_util::FutureExt;
        async move {
            let work = move |db: &crate::cache::LookupDb| {
                let started = std::time::Instant::now();
                let header = db.wal_header();
                let v = db
                    .with_conn(|c| {
                        let known = db.seed(id);
                        let v = reads::current_version(c, id, known)?;
                        if known.is_none() {
                            // first read of this competition: it exists, and its fixed seed
                            db.remember_seed(id, v.seeded_from);
                        }
                        Ok(v)
                    })
                    .map(Arc::new)?;
                db.record(id, header, &v);
                db.record_recent(id, started, &v);
                Ok(v)
            };
            let r = if db.inline() {
                work(&db)
            } else {
                web::block(move || work(&db))
                    .await
                    .unwrap_or_else(|e| Err(ApiError::from(e)))
            };
            r.map_err(Arc::new)
        }
        .boxed()
    }
}

/// The same error again (a coalesced lookup's error is shared by every read that joined it).
fn reissue(e: &ApiError) -> ApiError {
    match e {
        ApiError::NotFound(s) => ApiError::NotFound(s.clone()),
        ApiError::Conflict(s) => ApiError::Conflict(s.clone()),
        ApiError::Unavailable(s) => ApiError::Unavailable(s.clone()),
        ApiError::Internal(s) => ApiError::Internal(s.clone()),
        other => ApiError::Internal(other.to_string()),
    }
}

/// The `If-None-Match` header's value, if readable.
pub fn if_none_match(req: &HttpRequest) -> Option<String> {
    req.headers()
        .get(actix_web::http::header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// The ETag of a body made for one reader (a page, a member's own page): `"<kind>-<hex>"`,
/// the first 12 bytes of the body's SHA-256 in hex.
pub fn content_etag(kind: &str, body: &[u8]) -> String {
    use sha2::Digest;
    let d = sha2::Sha256::digest(body);
    let hex: String = d.iter().take(12).map(|b| format!("{b:02x}")).collect();
    format!("\"{kind}-{hex}\"")
}

/// Whether the request's `If-None-Match` names `etag` (see [`not_modified`]): the reader
/// holds the current document, and a 304 answers it.
pub fn reader_has(req: &HttpRequest, etag: &str) -> bool {
    not_modified(if_none_match(req).as_deref(), etag)
}

/// Whether an `If-None-Match` value matches the current ETag: weak comparison (RFC 9110
/// 13.1.2), so `W/"x"` matches `"x"`.
pub fn not_modified(inm: Option<&str>, etag: &str) -> bool {
    crate::cache::none_match(inm, etag)
}

/// A conditional read of competition `id`'s document `doc` (after round `after`): its
/// ETag, and what `f` makes of the competition unless `If-None-Match` names that tag.
pub async fn conditional_read<T: Send + 'static>(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    id: i64,
    doc: &'static str,
    after: Option<u32>,
    f: impl reads::CompetitionWork<T>,
) -> ApiResult<Conditional<T>> {
    let inm = if_none_match(req);
    state
        .db(move |c| {
            reads::conditional(
                c,
                id,
                |v| etag_of(v, doc, after),
                |tag| not_modified(inm.as_deref(), tag),
                f,
            )
        })
        .await
}

/// A 304 with the `ETag` `etag`.
pub fn not_modified_response(etag: String) -> HttpResponse {
    HttpResponse::NotModified()
        .insert_header(("ETag", etag))
        .finish()
}

/// Serves a computed JSON document from the read cache while its competition's version
/// (from the database's cache stamps) is unchanged; the version comes from a coalesced lookup
/// that started after this read arrived ([`competition_version`]), so the answer is never
/// older than a write committed before the read. On a miss, `compute` makes the body (and,
/// when the document has an ETag of its own, that tag; otherwise [`etag_of`] the version) in
/// one transaction together with the version it is stored under. Answers 304 for a matching
/// `If-None-Match`, and gzip to clients that accept it (`Vary: Accept-Encoding`).
pub async fn serve_cached(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    key: crate::cache::Key,
    compute: impl reads::DocumentWork<(Vec<u8>, Option<String>)>,
) -> ApiResult<HttpResponse> {
    serve_cached_as(state, req, key, CachedType::JSON, compute).await
}

/// The media type, `Vary` and further headers of a cached document's answer.
#[derive(Debug, Clone, Copy)]
pub struct CachedType<'a> {
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The `Vary` (it names `Accept-Encoding`: the answer may be gzip-compressed).
    pub vary: &'static str,
    /// Headers the answer carries besides those (on a 304 too, as the 200 would), made
    /// once when the service starts.
    pub headers: &'a [(
        actix_web::http::header::HeaderName,
        actix_web::http::header::HeaderValue,
    )],
}

impl CachedType<'static> {
    /// A JSON document.
    pub const JSON: CachedType<'static> = CachedType {
        content_type: "application/json",
        vary: "Accept-Encoding",
        headers: &[],
    };
}

/// [`serve_cached`] for a document of another media type.
pub async fn serve_cached_as(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    key: crate::cache::Key,
    kind: CachedType<'_>,
    compute: impl reads::DocumentWork<(Vec<u8>, Option<String>)>,
) -> ApiResult<HttpResponse> {
    let id = key.competition;
    let version = competition_version(state, id).await?;
    let entry = match state.cache.get(&key, version.stamps()) {
        Some(e) => e,
        None => {
            let after = key.arg.and_then(|a| u32::try_from(a).ok());
            let entry = state
                .db(move |c| {
                    // the version is looked up again inside the same snapshot as the body
                    reads::document(c, id, move |c, comp, v| {
                        let (body, tag) = compute(c, comp, v)?;
                        let tag = tag.unwrap_or_else(|| etag_of(v, key.doc, after));
                        Ok(crate::cache::Entry::new(body, v.stamps(), &tag))
                    })
                })
                .await?;
            state.cache.put(key, entry)
        }
    };
    Ok(answer_entry(req, &entry, kind))
}

/// The answer of a cached document: 304 when `If-None-Match` names either of its tags,
/// else the body (gzip to a client that accepts it), with `ETag`, `Vary` and `kind`'s headers.
pub fn answer_entry(
    req: &HttpRequest,
    entry: &crate::cache::Entry,
    kind: CachedType<'_>,
) -> HttpResponse {
    use actix_web::http::header::{self, HeaderValue};
    let gz = crate::cache::accepts_gzip(
        req.headers()
            .get(header::ACCEPT_ENCODING)
            .and_then(|v| v.to_str().ok()),
    );
    let tag = if gz && entry.gzip.is_some() {
        &entry.gz_tag
    } else {
        &entry.tag
    };
    let vary = (header::VARY, HeaderValue::from_static(kind.vary));
    if let Some(inm) = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
    {
        let matches = |t: &HeaderValue| t.to_str().is_ok_and(|t| not_modified(Some(inm), t));
        if matches(&entry.tag) || matches(&entry.gz_tag) {
            let res = HttpResponse::NotModified()
                .insert_header((header::ETAG, tag.clone()))
                .insert_header(vary)
                .finish();
            return with_headers(res, kind.headers);
        }
    }
    let mut res = HttpResponse::Ok();
    res.insert_header(vary)
        .insert_header((header::ETAG, tag.clone()))
        .insert_header((
            header::CONTENT_TYPE,
            HeaderValue::from_static(kind.content_type),
        ));
    let res = match (&entry.gzip, gz) {
        (Some(z), true) => res
            .insert_header((header::CONTENT_ENCODING, HeaderValue::from_static("gzip")))
            .body(z.clone()),
        _ => res.body(entry.body.clone()),
    };
    with_headers(res, kind.headers)
}

/// Serves a JSON document that is not one competition's from the read cache: `version` looks
/// up, in the same snapshot as the body, which object the read names (its id goes into the
/// cache key with `doc`), the version the document is valid for and its ETag; `compute`
/// makes the body on a miss. Every read looks the version up in the database, so a document
/// is never older than a write committed before the read arrived. Answers as
/// [`answer_entry`].
pub async fn serve_versioned<V: Send + 'static>(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    doc: &'static str,
    version: impl reads::Work<(i64, (i64, i64), String, V)>,
    compute: impl reads::VersionedWork<V, Vec<u8>>,
) -> ApiResult<HttpResponse> {
    serve_versioned_as(state, req, doc, CachedType::JSON, version, compute).await
}

/// What a versioned read found: the cached (or just made) entry, or, when the reader already
/// holds the current version and nothing is cached for it, the tag to answer 304 with.
enum Versioned {
    Entry(Arc<crate::cache::Entry>),
    Unchanged(String),
}

/// [`serve_versioned`] for a document of another media type (a club page). A reader whose
/// `If-None-Match` names the current version is answered 304 before anything is rendered,
/// whether or not the cache holds the body.
pub async fn serve_versioned_as<V: Send + 'static>(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    doc: &'static str,
    kind: CachedType<'_>,
    version: impl reads::Work<(i64, (i64, i64), String, V)>,
    compute: impl reads::VersionedWork<V, Vec<u8>>,
) -> ApiResult<HttpResponse> {
    let st = state.clone();
    let inm = if_none_match(req);
    let found = state
        .db(move |c| {
            reads::snapshot(c, move |c| {
                let (id, v, tag, found) = version(c)?;
                let key = crate::cache::Key {
                    competition: id,
                    doc,
                    arg: None,
                    audience: crate::reader::current(),
                };
                if let Some(e) = st.cache.get(&key, v) {
                    return Ok(Versioned::Entry(e));
                }
                if let Some(inm) = inm.as_deref() {
                    let gz = crate::cache::gzip_etag(&tag);
                    if not_modified(Some(inm), &gz) {
                        return Ok(Versioned::Unchanged(gz));
                    }
                    if not_modified(Some(inm), &tag) {
                        return Ok(Versioned::Unchanged(tag));
                    }
                }
                let body = compute(c, found, tag.clone())?;
                let entry = crate::cache::Entry::new(body, v, &tag);
                Ok(Versioned::Entry(st.cache.put(key, entry)))
            })
        })
        .await?;
    match found {
        Versioned::Entry(entry) => Ok(answer_entry(req, &entry, kind)),
        Versioned::Unchanged(tag) => {
            use actix_web::http::header::{self, HeaderValue};
            let res = HttpResponse::NotModified()
                .insert_header((header::ETAG, tag))
                .insert_header((header::VARY, HeaderValue::from_static(kind.vary)))
                .finish();
            Ok(with_headers(res, kind.headers))
        }
    }
}

/// `res` with `headers` added (straight into its header map: they are valid already).
fn with_headers(
    mut res: HttpResponse,
    headers: &[(
        actix_web::http::header::HeaderName,
        actix_web::http::header::HeaderValue,
    )],
) -> HttpResponse {
    let map = res.headers_mut();
    for (name, value) in headers {
        map.insert(name.clone(), value.clone());
    }
    res
}
