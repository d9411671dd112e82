//! Standings (public) as JSON and CSV, and the FIDE TRF export (docs/rules/keizer.md#scoring, docs/rules/rapid-blitz.md#the-dutch-system, docs/rules/rapid-blitz.md#tie-breaks, docs/rules/draughts-championship.md#scoring-2-1-0-plusremise-and-minremise, docs/rules/README.md#exchange-with-other-programs, docs/api-guide.md#versions-etags-and-conditional-requests).
//! Every answer carries an ETag from the competition's cache stamp; `If-None-Match` → 304.

use crate::cache::CompetitionVersion;
use crate::error::{ApiError, ApiResult, Problem};
use crate::ids::CompetitionId;
use crate::services::reads::{self, Conditional};
use crate::services::standings as svc;
pub use crate::services::standings_view::{
    KeizerRow, KeizerStandings, RoundRobinRow, RoundRobinStandings, StandingsView, SwissRow,
    SwissStandings, standings_view,
};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, get, web};
use serde::Deserialize;
use serde_json::Value;
use std::sync::Arc;
use utoipa::IntoParams;

/// Query of a standings read.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StandingsQuery {
    /// Standings after this round / evening, from 1 (default: the last one that counts).
    #[param(minimum = 1)]
    pub after: Option<u32>,
}

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
    lookup.await.map_err(|e| reissue(&e))
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

/// Whether an `If-None-Match` value matches the current ETag: weak comparison (RFC 9110
/// 13.1.2), so `W/"x"` matches `"x"`.
pub fn not_modified(inm: Option<&str>, etag: &str) -> bool {
    crate::cache::none_match(inm, etag)
}

/// A conditional read of competition `id`'s document `doc` (after round `after`): its
/// ETag, and what `f` makes of the competition unless `If-None-Match` names that tag.
async fn read<T: Send + 'static>(
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

fn not_modified_response(etag: String) -> HttpResponse {
    HttpResponse::NotModified()
        .insert_header(("ETag", etag))
        .finish()
}

/// Standings after the last counting round, or after round `after` (public). Keizer: rank,
/// value, score, converged flag and cycle length of that evening, prize eligibility. Round
/// robin: the draughts/chess chain with tie-break values, `decided_by` and `shared_with`.
/// Swiss: the FIDE tie-break list. `ETag` from the competition's cache stamp; send it as
/// `If-None-Match` for a 304.
#[utoipa::path(tag = "standings",
    params(("id" = i64, Path, description = "Competition id"), StandingsQuery,
           ("If-None-Match" = Option<String>, Header, description = "ETag of a previous read")),
    responses((status = 200, description = "Standings", body = StandingsView),
        (status = 304, description = "Not modified"),
        (status = 400, description = "Bad query string", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No standings for this kind, or stored data that cannot be computed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`after` out of range", body = Problem, content_type = "application/problem+json")))]
#[get("/competitions/{id}/standings")]
pub async fn get_standings(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
    q: crate::api::Params<StandingsQuery>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let after = q.into_inner()?.after;
    let key = crate::cache::Key {
        competition: id.get(),
        doc: "standings",
        arg: after.map(i64::from),
    };
    serve_cached(&state, &req, key, move |c, comp, _| {
        let view = standings_view(c, comp, after)?;
        let body = serde_json::to_vec(&view).map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok((body, None))
    })
    .await
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
    let st = state.clone();
    let entry = state
        .db(move |c| {
            reads::snapshot(c, move |c| {
                let (id, v, tag, found) = version(c)?;
                let key = crate::cache::Key {
                    competition: id,
                    doc,
                    arg: None,
                };
                if let Some(e) = st.cache.get(&key, v) {
                    return Ok(e);
                }
                let body = compute(c, found, tag.clone())?;
                Ok(st.cache.put(key, crate::cache::Entry::new(body, v, &tag)))
            })
        })
        .await?;
    Ok(answer_entry(req, &entry, CachedType::JSON))
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

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn csv_line(fields: &[String]) -> String {
    let mut l = fields
        .iter()
        .map(|f| csv_field(f))
        .collect::<Vec<_>>()
        .join(",");
    l.push_str("\r\n");
    l
}

fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The standings as CSV (RFC 4180: comma, CRLF, header line).
pub fn to_csv(v: &StandingsView) -> String {
    let mut out = String::new();
    if let Some(k) = &v.keizer {
        out.push_str(&csv_line(
            &[
                "rank",
                "player_id",
                "name",
                "value",
                "score",
                "played",
                "game_points",
                "byes",
                "excused",
                "unexcused",
                "eligible",
            ]
            .map(String::from),
        ));
        for r in &k.rows {
            out.push_str(&csv_line(&[
                r.rank.to_string(),
                r.player_id.to_string(),
                r.name.clone(),
                r.value.to_string(),
                // the CSV keeps the engine's four decimals
                format!("{:.4}", r.score),
                r.played.to_string(),
                format!("{:.4}", r.game_points),
                r.byes.to_string(),
                r.excused.to_string(),
                r.unexcused.to_string(),
                r.eligible.to_string(),
            ]));
        }
    }
    if let Some(t) = &v.round_robin {
        let tb: Vec<String> = t
            .rows
            .first()
            .and_then(|r| r.tiebreaks.as_object())
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default();
        let mut head: Vec<String> = [
            "place",
            "player_id",
            "name",
            "points",
            "games",
            "wins",
            "draws",
            "losses",
        ]
        .map(String::from)
        .to_vec();
        head.extend(tb.iter().cloned());
        head.extend(["prize_money", "rights", "shared_with"].map(String::from));
        out.push_str(&csv_line(&head));
        for r in &t.rows {
            let mut f = vec![
                r.place.to_string(),
                r.player_id.to_string(),
                r.name.clone(),
                r.points.to_string(),
                r.games.to_string(),
                r.wins.to_string(),
                r.draws.to_string(),
                r.losses.to_string(),
            ];
            f.extend(
                tb.iter()
                    .map(|k| r.tiebreaks.get(k).map(plain).unwrap_or_default()),
            );
            f.push(r.prize_money.clone());
            f.push(r.rights.join(" "));
            f.push(
                r.shared_with
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(" "),
            );
            out.push_str(&csv_line(&f));
        }
    }
    if let Some(s) = &v.swiss {
        let mut head: Vec<String> = ["rank", "place", "player_id", "name"]
            .map(String::from)
            .to_vec();
        head.extend(s.tiebreaks.iter().cloned());
        out.push_str(&csv_line(&head));
        for r in &s.rows {
            let mut f = vec![
                r.rank.to_string(),
                r.place.clone(),
                r.player_id.to_string(),
                r.name.clone(),
            ];
            f.extend(
                s.tiebreaks
                    .iter()
                    .map(|k| r.values.get(k).map(plain).unwrap_or_default()),
            );
            out.push_str(&csv_line(&f));
        }
    }
    out
}

/// The standings as CSV (public; same rows and ETag rules as the JSON).
#[utoipa::path(tag = "standings",
    params(("id" = i64, Path, description = "Competition id"), StandingsQuery,
           ("If-None-Match" = Option<String>, Header, description = "ETag of a previous read")),
    responses((status = 200, description = "CSV with a header line", body = String, content_type = "text/csv"),
        (status = 304, description = "Not modified"),
        (status = 400, description = "Bad query string", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No standings for this kind", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`after` out of range", body = Problem, content_type = "application/problem+json")))]
#[get("/competitions/{id}/standings.csv")]
pub async fn get_standings_csv(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
    q: crate::api::Params<StandingsQuery>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let after = q.into_inner()?.after;
    match read(
        &state,
        &req,
        id.get(),
        "standings-csv",
        after,
        move |c, comp| Ok(to_csv(&standings_view(c, comp, after)?)),
    )
    .await?
    {
        Conditional::Unchanged(e) => Ok(not_modified_response(e)),
        Conditional::Fresh(e, body) => Ok(HttpResponse::Ok()
            .insert_header(("ETag", e))
            .insert_header((
                "Content-Disposition",
                format!("attachment; filename=\"standings-{id}.csv\""),
            ))
            .content_type("text/csv; charset=utf-8")
            .body(body)),
    }
}

/// FIDE TRF-16 export of a Swiss or round robin (public): the published and completed
/// rounds; a pairing-allocated bye is `U` (never `F`), an absence `Z`, a game still without a
/// result is blank; a Double-Swiss round takes two TRF rounds.
#[utoipa::path(tag = "standings",
    params(("id" = i64, Path, description = "Competition id"),
           ("If-None-Match" = Option<String>, Header, description = "ETag of a previous read")),
    responses((status = 200, description = "TRF-16 text", body = String, content_type = "text/plain"),
        (status = 304, description = "Not modified"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not a Swiss or round robin", body = Problem, content_type = "application/problem+json")))]
#[get("/competitions/{id}/trf")]
pub async fn get_competition_trf(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    match read(&state, &req, id.get(), "trf", None, move |c, comp| {
        svc::trf_export(c, comp)
    })
    .await?
    {
        Conditional::Unchanged(e) => Ok(not_modified_response(e)),
        Conditional::Fresh(e, body) => Ok(HttpResponse::Ok()
            .insert_header(("ETag", e))
            .content_type("text/plain; charset=utf-8")
            .body(body)),
    }
}
