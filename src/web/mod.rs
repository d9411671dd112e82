//! The club's published pages under `/club/`: server-rendered HTML (maud templates, checked
//! at compile time), complete without JavaScript, in Dutch or English, printable on A4 and
//! embeddable in an iframe with `?embed=1` (docs/api-guide.md#club-pages). The evening, the
//! standings and the front page load one small script of the service's own that follows the
//! event stream and brings the page up to date (`live`, docs/decisions/0343-live-pages.md).
//!
//! Every page reads through `crate::web::data`. Competition, evening, player and front pages
//! are served from the read cache under the version of what they show, with an ETag per page variant
//! and a 304 for a matching `If-None-Match` (docs/decisions/0363-pages-under-their-json-version.md);
//! the other pages carry an ETag of their content. Errors are
//! HTML pages (a client that asks for `application/problem+json` gets that instead).

mod account;
mod attendance;
mod check_in;
mod competition;
mod errors;
mod evening;
mod front;
pub mod i18n;
mod layout;
mod live;
mod mail_links;
mod numbers;
mod player;
mod qr;
mod report;
mod screen;
mod season;
mod session;
mod site;
mod svg;

use crate::error::ApiError;
use crate::services::reads;
use crate::state::AppState;
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};
pub use i18n::Lang;

/// The served stylesheet (screen, phone and A4 print).
pub const STYLESHEET: &str = include_str!("style.css");

/// GET or HEAD (a HEAD answer has the headers of the GET and no body).
fn get() -> actix_web::Route {
    use actix_web::guard;
    web::route().guard(guard::Any(guard::Get()).or(guard::Head()))
}

/// Registers the pages under `/club`.
///
/// The competition pages, the most requested, come first under a fixed prefix and are told
/// apart by `competition::dispatch`: the router matches a pattern with an `{id}` by a
/// regular expression with captures, which cost a cached page more than the rest of its
/// handling (docs/decisions/0140-club-pages.md).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource(account::PATH)
            .route(get().to(account::page))
            .route(web::post().to(account::submit)),
    );
    cfg.service(
        web::resource(account::RESET_PATH)
            .route(get().to(account::reset_page))
            .route(web::post().to(account::reset_submit)),
    )
    .service(
        web::resource(account::EMAIL_PATH)
            .route(get().to(account::email_page))
            .route(web::post().to(account::email_submit)),
    );
    cfg.service(
        web::resource(mail_links::UNSUBSCRIBE_PATH)
            .route(get().to(mail_links::unsubscribe_page))
            .route(web::post().to(mail_links::unsubscribe_submit)),
    )
    .service(
        web::resource(mail_links::ATTENDANCE_PATH)
            .route(get().to(mail_links::attendance_page))
            .route(web::post().to(mail_links::attendance_submit)),
    );
    cfg.route("/", get().to(site::root))
        .route("/robots.txt", get().to(site::robots))
        .route("/favicon.ico", get().to(site::favicon))
        .service(web::scope("/club/competitions").default_service(web::to(competition::dispatch)))
        .service(
            web::scope("/club")
                .route("", get().to(site::club))
                .route("/", get().to(front::page))
                .route("/style.css", get().to(site::stylesheet_unversioned))
                .route("/style.{hash}.css", get().to(site::stylesheet))
                .route("/favicon.svg", get().to(site::favicon))
                .route("/sign-in", get().to(session::page))
                .route("/sign-in", web::post().to(session::submit))
                .route("/sign-out", web::post().to(session::sign_out))
                .route(
                    screen::PATH.trim_start_matches("/club"),
                    get().to(screen::page),
                )
                .route("/live.{hash}.js", get().to(live::script))
                // each route with an id is tried in turn
                .route("/evenings/{id}", get().to(evening::page))
                .route("/seasons/{id}", get().to(season::archive))
                .route("/seasons/{id}/calendar", get().to(season::calendar))
                .route("/evenings/{id}/slips", get().to(evening::slips))
                .route("/players/{id}", get().to(player::page))
                .route("/evenings/{id}/check-in", get().to(check_in::staff_page))
                .route(
                    "/evenings/{id}/check-in/{code}",
                    get().to(check_in::member_page),
                )
                .route(
                    "/evenings/{id}/check-in/{code}",
                    web::post().to(check_in::member_submit),
                )
                .route("/games/{id}/report", get().to(report::page))
                .route("/games/{id}/report", web::post().to(report::submit))
                .default_service(web::to(not_found)),
        );
}

/// What every page's query string may hold, and the club the page is of.
#[derive(Debug, Clone)]
pub struct PageQuery {
    /// The club's name, website and logo.
    pub site: std::sync::Arc<clubcomp_core::club_site::ClubSite>,
    /// The language (from `lang`, else `Accept-Language`, else Dutch).
    pub lang: Lang,
    /// Whether the language was chosen with `lang` (then the page's links carry it on;
    /// otherwise each page follows `Accept-Language` again, and the links stay short).
    pub lang_chosen: bool,
    /// `embed=1`: without the site chrome, for an iframe.
    pub embed: bool,
    /// `after`: standings after this round (standings page only).
    pub after: Option<u32>,
}

/// The most parameters a query string may hold, its longest text and the longest value of a
/// page's own parameter. Other parameters (`fbclid`, `utm_source`, …, which sites add to a
/// shared link) are ignored, within these bounds (docs/decisions/0362-page-query-parameters.md).
const MAX_PARAMS: usize = 32;
const MAX_QUERY: usize = 4096;
const MAX_VALUE: usize = 16;

/// Reads and checks the query string: `lang` (`nl`, `en`), `embed` (`0`, `1`) and, where
/// `after` is allowed, `after` (1–999); a bad value or a repeated one of these is refused
/// naming the parameter, and any other parameter is ignored. An embedded page follows `lang`
/// (else Dutch), never the visitor's `Accept-Language`: its language is the embedding site's.
pub fn page_query(req: &HttpRequest, allow_after: bool) -> Result<PageQuery, (Lang, ApiError)> {
    let fallback = i18n::from_accept_language(
        req.headers()
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok()),
    );
    let site = req
        .app_data::<web::Data<AppState>>()
        .map(|s| s.club_site.clone())
        .unwrap_or_default();
    let mut q = PageQuery {
        site,
        lang: fallback,
        lang_chosen: false,
        embed: false,
        after: None,
    };
    let raw = req.query_string();
    if raw.is_empty() {
        return Ok(q);
    }
    if raw.len() > MAX_QUERY || raw.split('&').count() > MAX_PARAMS {
        return Err((
            fallback,
            ApiError::invalid(
                "query",
                format!("at most {MAX_PARAMS} parameters and {MAX_QUERY} characters"),
            ),
        ));
    }
    let pairs = web::Query::<Vec<(String, String)>>::from_query(raw)
        .map(|q| q.into_inner())
        .map_err(|e| {
            (
                fallback,
                ApiError::BadRequest(format!("invalid query string: {e}")),
            )
        })?;
    let mut errs = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (k, v) in &pairs {
        let own = matches!(k.as_str(), "lang" | "embed") || (allow_after && k == "after");
        if !own {
            continue;
        }
        if !seen.insert(k.as_str()) {
            errs.push((k.clone(), "given more than once".to_string()));
            continue;
        }
        if v.len() > MAX_VALUE {
            errs.push((k.clone(), format!("at most {MAX_VALUE} characters")));
            continue;
        }
        match k.as_str() {
            "lang" => match Lang::parse(v) {
                Some(l) => {
                    q.lang = l;
                    q.lang_chosen = true;
                }
                None => errs.push(("lang".into(), "must be nl or en".into())),
            },
            "embed" => match v.as_str() {
                "1" => q.embed = true,
                "0" => q.embed = false,
                _ => errs.push(("embed".into(), "must be 0 or 1".into())),
            },
            _ => match v.parse::<u32>() {
                Ok(n) if (1..=999).contains(&n) => q.after = Some(n),
                _ => errs.push((
                    "after".into(),
                    "must be a round number from 1 to 999".into(),
                )),
            },
        }
    }
    if q.embed && !q.lang_chosen {
        q.lang = Lang::Nl;
    }
    if errs.is_empty() {
        Ok(q)
    } else {
        let detail = errs
            .iter()
            .map(|(k, m)| format!("{k}: {m}"))
            .collect::<Vec<_>>()
            .join("; ");
        Err((
            q.lang,
            ApiError::Validation {
                detail: format!("invalid query parameter: {detail}"),
                errors: errs
                    .into_iter()
                    .map(|(k, m)| crate::error::FieldError::new(&k, m))
                    .collect(),
            },
        ))
    }
}

/// A path id: digits only, else the page does not exist.
pub fn path_id(raw: &str) -> Result<i64, ApiError> {
    raw.parse::<i64>()
        .ok()
        .filter(|n| *n > 0 && raw.len() <= 18 && raw.chars().all(|c| c.is_ascii_digit()))
        .ok_or_else(|| ApiError::NotFound(format!("no page for {raw:?}")))
}

/// The Content-Security-Policy of every page: nothing but the served stylesheet, inline
/// SVG and the service's own script (no inline script), which reads the event stream and
/// the page itself from this origin only, and framing only by the configured ancestors.
pub fn csp(frame_ancestors: &str, logo_origin: Option<&str>) -> String {
    let logo = logo_origin.map(|o| format!(" {o}")).unwrap_or_default();
    format!(
        "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; \
         img-src 'self' data:{logo}; base-uri 'none'; form-action 'none'; \
         frame-ancestors {frame_ancestors}"
    )
}

/// Adds the headers every page carries: CSP (whose `frame-ancestors` decides who may frame
/// the page), `nosniff` and `Vary`. The language and the referrer policy are in the page's
/// own markup (`<html lang>`, `<meta name="referrer">`), so every page answer carries no
/// more headers than it needs.
pub fn secure(res: &mut HttpResponse, state: &AppState) {
    let h = res.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, state.page_csp.clone());
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if !h.contains_key(header::VARY) {
        h.insert(header::VARY, HeaderValue::from_static(PAGE_VARY));
    }
}

/// The headers of a competition page answered from the read cache (a 200 or a 304, which
/// carries what the 200 would), besides its media type, `Vary` and ETag: CSP, `nosniff` and
/// `Cache-Control: no-cache` (a browser asks again each time, with the ETag). Made once when
/// the service starts, from the configured CSP.
pub fn cached_page_headers(csp: &HeaderValue) -> [(header::HeaderName, HeaderValue); 3] {
    [
        (header::CONTENT_SECURITY_POLICY, csp.clone()),
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
    ]
}

/// The `Vary` of every page: its language and its compression follow the request.
pub const PAGE_VARY: &str = "Accept-Language, Accept-Encoding";

/// The ETag of a page body: a hash of its content.
pub fn content_etag(body: &str) -> String {
    crate::cached::content_etag("page", body.as_bytes())
}

/// A rendered page with a content ETag: 304 when `If-None-Match` matches.
pub fn html(req: &HttpRequest, state: &AppState, body: String) -> HttpResponse {
    let tag = content_etag(&body);
    let mut res = if crate::cached::reader_has(req, &tag) {
        crate::cached::not_modified_response(tag)
    } else {
        HttpResponse::Ok()
            .insert_header((header::ETAG, tag))
            .insert_header((header::CACHE_CONTROL, "no-cache"))
            .content_type("text/html; charset=utf-8")
            .body(body)
    };
    secure(&mut res, state);
    res
}

/// Whether the client asked for problem+json rather than a page.
fn wants_problem(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| {
            (a.contains("application/problem+json") || a.contains("application/json"))
                && !a.contains("text/html")
        })
}

/// An error as an HTML page in `lang` (or as problem+json to a client that asks for it).
pub fn error_page(req: &HttpRequest, state: &AppState, lang: Lang, err: ApiError) -> HttpResponse {
    use actix_web::ResponseError;
    let status = err.status_code();
    let mut res = if wants_problem(req) {
        err.error_response()
    } else {
        if let ApiError::Internal(_) = &err {
            // the cause of an internal error stays in the log
            tracing::error!(cause = %err, "page failed");
        }
        let detail = errors::detail(lang, &err);
        let body = layout::finish(layout::error(
            lang,
            state.club_site.clone(),
            status,
            detail.as_deref(),
        ));
        let mut b = HttpResponse::build(status);
        b.content_type("text/html; charset=utf-8");
        if status == StatusCode::UNAUTHORIZED {
            b.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
        }
        if let ApiError::Unavailable(_) | ApiError::Busy { .. } = err {
            b.insert_header((header::RETRY_AFTER, "1"));
        }
        b.body(body)
    };
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    secure(&mut res, state);
    res
}

/// The outcome of a page handler.
pub type Page = Result<HttpResponse, (Lang, ApiError)>;

/// Answers a page handler's outcome (an error as an error page).
pub fn answer(req: &HttpRequest, state: &AppState, page: Page) -> HttpResponse {
    match page {
        Ok(r) => r,
        Err((lang, e)) => error_page(req, state, lang, e),
    }
}

async fn not_found(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let lang = page_query(&req, false)
        .map(|q| q.lang)
        .unwrap_or_else(|(l, _)| l);
    if req.method() != actix_web::http::Method::GET && req.method() != actix_web::http::Method::HEAD
    {
        let mut r = error_page(
            &req,
            &state,
            lang,
            ApiError::MethodNotAllowed {
                detail: format!(
                    "{} is not allowed on the club pages; allowed: GET",
                    req.method()
                ),
                allow: "GET".into(),
            },
        );
        r.headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return r;
    }
    if let Some(page) = site::without_trailing_slash(req.path()) {
        return site::redirect(&req, page);
    }
    error_page(
        &req,
        &state,
        lang,
        ApiError::NotFound(format!("no page at {}", req.path())),
    )
}

/// Runs a page's read on the blocking pool in one read transaction (the reads of a page see
/// one snapshot).
pub async fn read<T: Send + 'static>(
    state: &web::Data<AppState>,
    f: impl reads::Work<T>,
) -> crate::error::ApiResult<T> {
    state.db(move |c| reads::snapshot(c, f)).await
}

/// A page about one object named by its id in the path, not cached: the query checked, the
/// id read, the data loaded by `load` in one read transaction and rendered by `render` at the
/// page path `url(id)`, answered with a content ETag (or an HTML error page).
pub async fn id_page<T: Send + 'static>(
    req: &HttpRequest,
    state: &web::Data<AppState>,
    raw: &str,
    url: impl FnOnce(i64) -> String,
    load: impl reads::KeyedWork<i64, T>,
    render: impl FnOnce(&layout::Ctx, &T) -> maud::Markup,
) -> HttpResponse {
    let r = async {
        let q = page_query(req, false)?;
        let id = path_id(raw).map_err(|e| (q.lang, e))?;
        let data = read(state, move |c| load(c, id))
            .await
            .map_err(|e| (q.lang, e))?;
        let ctx = layout::Ctx::new(q, url(id));
        Ok(html(req, state, layout::finish(render(&ctx, &data))))
    }
    .await;
    answer(req, state, r)
}
