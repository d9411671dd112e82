//! The application: the route table (every API route registered through utoipa-actix-web so
//! the OpenAPI document comes from the same code), middleware, the JSON and query error
//! handlers, 404/405 answers, the docs UI, building the shared state ([`AppState`]) and the
//! server start-up. It wires the layers below and nothing below uses it.

use crate::api;
use crate::config::Config;
use crate::error::{ApiError, ApiResult};
use crate::services::credentials::JwtKeys;
use crate::services::throttle::Throttle;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::middleware::{Next, from_fn};
use actix_web::{App, HttpMessage, HttpRequest, HttpResponse, web};
use std::sync::Arc;
use utoipa::OpenApi as _;
use utoipa_actix_web::{AppExt, scope};

use crate::state::AppState;

/// Registers every `/api/v1` operation (the scope adds the prefix).
pub fn configure_api(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    api::configure(cfg);
}

/// The OpenAPI document, generated from the registered routes.
pub fn openapi() -> utoipa::openapi::OpenApi {
    let (_, spec) = App::new()
        .into_utoipa_app()
        .openapi(crate::openapi::ApiDoc::openapi())
        .service(api::health::healthz)
        .service(api::health::readyz)
        .service(scope("/api/v1").configure(configure_api))
        .split_for_parts();
    crate::openapi::finish(spec)
}

/// Route templates with their methods, from the OpenAPI document.
pub fn route_table(spec: &utoipa::openapi::OpenApi) -> Vec<(String, Vec<String>)> {
    let v = serde_json::to_value(spec).unwrap_or_default();
    let mut out = Vec::new();
    if let Some(paths) = v.get("paths").and_then(|p| p.as_object()) {
        for (path, item) in paths {
            let methods = item
                .as_object()
                .map(|o| {
                    o.keys()
                        .filter(|k| {
                            ["get", "post", "put", "patch", "delete", "head", "options"]
                                .contains(&k.as_str())
                        })
                        .map(|k| k.to_uppercase())
                        .collect()
                })
                .unwrap_or_default();
            out.push((path.clone(), methods));
        }
    }
    out
}

fn template_matches(template: &str, path: &str) -> bool {
    let t: Vec<&str> = template.split('/').collect();
    let p: Vec<&str> = path.split('/').collect();
    t.len() == p.len()
        && t.iter()
            .zip(&p)
            .all(|(a, b)| (a.starts_with('{') && a.ends_with('}') && !b.is_empty()) || a == b)
}

async fn not_found_or_405(req: HttpRequest, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    let path = req.path();
    // a known route asked with a trailing slash: sent on to the route itself
    if path.len() > 1 && path.ends_with('/') {
        let trimmed = path.trim_end_matches('/');
        if !trimmed.is_empty()
            && state
                .routes
                .iter()
                .any(|(t, _)| template_matches(t, trimmed))
        {
            let location = match req.query_string() {
                "" => trimmed.to_string(),
                q => format!("{trimmed}?{q}"),
            };
            return Ok(HttpResponse::PermanentRedirect()
                .insert_header(("Location", location))
                .finish());
        }
    }
    for (template, methods) in &state.routes {
        if template_matches(template, path) {
            return Err(ApiError::MethodNotAllowed {
                detail: format!(
                    "{} is not allowed on {template}; allowed: {}",
                    req.method(),
                    methods.join(", ")
                ),
                allow: methods.join(", "),
            });
        }
    }
    Err(ApiError::NotFound(format!("no route for {path}")))
}

/// The request id of a request (from `X-Request-Id` or generated).
#[derive(Debug, Clone)]
pub struct RequestId(pub String);

async fn request_context(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let id = req
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 128 && v.chars().all(|c| c.is_ascii_graphic()))
        .map(str::to_string)
        .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    req.extensions_mut().insert(RequestId(id.clone()));
    let method = req.method().to_string();
    let path = req.path().to_string();
    let started = std::time::Instant::now();
    let span = tracing::info_span!("request", request_id = %id, %method, %path);
    let _enter = span.enter();
    drop(_enter);
    let mut res = {
        use tracing::Instrument;
        next.call(req).instrument(span.clone()).await?
    };
    let status = res.status().as_u16();
    let line = match res.request().app_data::<web::Data<AppState>>() {
        Some(state) => state.access_log.decide(status, unix_second()),
        None => crate::fair::LogLine::Write,
    };
    if let crate::fair::LogLine::WriteAfterDropped(dropped) = line {
        tracing::info!(dropped, "access log lines left out (ACCESS_LOG)");
    }
    if line != crate::fair::LogLine::Drop {
        span.in_scope(|| {
            tracing::info!(
                status,
                elapsed_ms = started.elapsed().as_millis() as u64,
                "request"
            )
        });
    }
    if let Ok(v) = actix_web::http::header::HeaderValue::from_str(&id) {
        res.headers_mut().insert(
            actix_web::http::header::HeaderName::from_static("x-request-id"),
            v,
        );
    }
    Ok(res)
}

/// The current second since the epoch, the access log's clock.
fn unix_second() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The fair shares of the requests anyone may send
/// ([decision 0258](../docs/decisions/0258-fair-shares-per-address.md)): logins and
/// refreshes per client address (`LOGIN_RATE_PER_MINUTE`), and calculator requests without a
/// valid token per address (`CALC_ANON_RATE_PER_MINUTE`), answered 429 with `Retry-After`
/// before anything else is done; an anonymous calculator request also gets the smaller body
/// limit (`CALC_ANON_MAX_BODY_BYTES`: 413 at once when its `Content-Length` says more).
async fn fair_shares<B: MessageBody + 'static>(
    req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<actix_web::body::EitherBody<B>>, actix_web::Error> {
    let path = req.path();
    let calc = path.starts_with("/api/v1/calc/");
    let login = path == "/api/v1/auth/login"
        || path == "/api/v1/auth/refresh"
        || (path == "/club/sign-in" && req.method() == actix_web::http::Method::POST);
    let state = req.app_data::<web::Data<AppState>>().cloned();
    let refusal = match state {
        Some(state) if calc || login => {
            let address = crate::services::throttle::address_key(&crate::auth::request_address(
                req.request(),
                &state.config.trusted_proxies,
            ));
            if login {
                refuse_over_rate(
                    &state.login_buckets,
                    &address,
                    "logins and refreshes",
                    "LOGIN_RATE_PER_MINUTE",
                )
            } else if crate::auth::signed_in(req.request()).await {
                None
            } else {
                let limit = state
                    .config
                    .calc_anon_max_body_bytes
                    .min(state.config.max_body_bytes);
                let length = req
                    .headers()
                    .get(actix_web::http::header::CONTENT_LENGTH)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.parse::<u64>().ok());
                req.extensions_mut().insert(crate::fair::BodyLimit(limit));
                refuse_over_rate(
                    &state.calc_buckets,
                    &address,
                    "calculator requests without a token",
                    "CALC_ANON_RATE_PER_MINUTE",
                )
                .or_else(|| {
                    length.filter(|n| *n > limit as u64).map(|n| {
                        ApiError::PayloadTooLarge(format!(
                            "the body ({n} bytes) is larger than {limit} bytes, the limit of a \
                             calculator request without a token (CALC_ANON_MAX_BODY_BYTES)"
                        ))
                    })
                })
            }
        }
        _ => None,
    };
    if let Some(e) = refusal {
        use actix_web::ResponseError;
        return Ok(req.into_response(e.error_response()).map_into_right_body());
    }
    Ok(next.call(req).await?.map_into_left_body())
}

/// 429 naming `setting` when `address` has used up its bucket of `what`.
fn refuse_over_rate(
    buckets: &crate::fair::Buckets,
    address: &str,
    what: &str,
    setting: &str,
) -> Option<ApiError> {
    buckets
        .take(address, std::time::Instant::now())
        .err()
        .map(|retry_after| ApiError::TooManyRequests {
            detail: format!(
                "at most {} {what} a minute from one address ({setting}); wait before trying \
                 again",
                buckets.per_minute()
            ),
            retry_after,
        })
}

/// Answers `HEAD` wherever `GET` is answered: the request is routed as a `GET` (marked
/// [`crate::representation::Head`]), and the HTTP layer sends the answer's headers without its body (it knows the
/// request was a `HEAD`).
async fn head_as_get<B: MessageBody + 'static>(
    mut req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<B>, actix_web::Error> {
    if req.method() == actix_web::http::Method::HEAD {
        req.head_mut().method = actix_web::http::Method::GET;
        req.extensions_mut().insert(crate::representation::Head);
    }
    next.call(req).await
}

/// Answers a CORS preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`)
/// that the CORS layer would refuse with a problem of our own: 403 when its origin is not one
/// of `CORS_ORIGINS` (none when it is unset), 400 naming the method or headers otherwise.
async fn cors_refusals<B: MessageBody + 'static>(
    req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<actix_web::body::EitherBody<B>>, actix_web::Error> {
    use actix_web::ResponseError;
    use actix_web::http::header;
    let h = req.headers();
    let preflight = req.method() == actix_web::http::Method::OPTIONS
        && h.contains_key(header::ORIGIN)
        && h.contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
    if !preflight {
        return Ok(next.call(req).await?.map_into_left_body());
    }
    let origin = h
        .get(header::ORIGIN)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let method = h
        .get(header::ACCESS_CONTROL_REQUEST_METHOD)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let allowed = req
        .app_data::<web::Data<AppState>>()
        .is_some_and(|s| s.config.cors_origins.contains(&origin));
    if !allowed {
        let e = ApiError::Forbidden(format!(
            "cross-origin requests from {origin:?} are not allowed: the origin is not one of              CORS_ORIGINS"
        ));
        return Ok(req.into_response(e.error_response()).map_into_right_body());
    }
    let res = next.call(req).await?;
    if res.status() != actix_web::http::StatusCode::BAD_REQUEST {
        return Ok(res.map_into_left_body());
    }
    let e = ApiError::BadRequest(format!(
        "the preflight asks for method {method:?} or for request headers that are not allowed;          allowed methods: {CORS_METHODS}",
        CORS_METHODS = CORS_METHODS.join(", ")
    ));
    let (req, _) = res.into_parts();
    Ok(ServiceResponse::new(req, e.error_response()).map_into_right_body())
}

/// The methods a cross-origin request may use.
const CORS_METHODS: [&str; 6] = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/// Refuses a request whose path or query string holds an encoded NUL character (422 naming
/// the parameter) before any handler sees it; JSON bodies are checked as they are read
/// ([`api::Body`]).
async fn refuse_nul<B: MessageBody + 'static>(
    req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<actix_web::body::EitherBody<B>>, actix_web::Error> {
    if let Some(e) = api::nul_in_uri(req.path(), req.query_string()) {
        use actix_web::ResponseError;
        return Ok(req.into_response(e.error_response()).map_into_right_body());
    }
    Ok(next.call(req).await?.map_into_left_body())
}

/// The Content-Security-Policy of the interactive documentation (`/docs/`): Swagger UI's
/// own scripts, styles and images from this origin (its styles also set inline, and its icons
/// as `data:` images), the document fetched from this origin, and no framing.
pub const DOCS_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self' \
     'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; \
     base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// Adds to every answer under `/docs` and `/api-docs` a Content-Security-Policy
/// ([`DOCS_CSP`]), `X-Content-Type-Options: nosniff` and `X-Frame-Options: DENY`.
async fn docs_headers<B: MessageBody + 'static>(
    req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<B>, actix_web::Error> {
    use actix_web::http::header::{self, HeaderValue};
    let docs = req.path() == "/docs"
        || req.path().starts_with("/docs/")
        || req.path().starts_with("/api-docs/");
    let mut res = next.call(req).await?;
    if docs {
        let h = res.headers_mut();
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(DOCS_CSP),
        );
        h.insert(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    }
    Ok(res)
}

fn json_config(limit: usize) -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(limit)
        .error_handler(|err, _req| api::json_error(err).into())
}

fn query_config() -> web::QueryConfig {
    web::QueryConfig::default().error_handler(|err, _req| {
        let message = match err {
            actix_web::error::QueryPayloadError::Deserialize(e) => {
                crate::error::plain_serde_message(&e.to_string())
            }
            _ => "cannot be read".to_string(),
        };
        ApiError::BadRequest(format!("invalid query string: {message}")).into()
    })
}

fn path_config() -> web::PathConfig {
    web::PathConfig::default().error_handler(|_err, req| path_error(req).into())
}

/// A path whose id segment is no id: 404 naming the segment (ids are decimal digits).
fn path_error(req: &HttpRequest) -> ApiError {
    // a literal route (`/evenings/next`) asked with a method only its `{id}` sibling has
    if let Some(state) = req.app_data::<web::Data<AppState>>()
        && let Some((template, methods)) = state.routes.iter().find(|(t, _)| t == req.path())
    {
        return ApiError::MethodNotAllowed {
            detail: format!(
                "{} is not allowed on {template}; allowed: {}",
                req.method(),
                methods.join(", ")
            ),
            allow: methods.join(", "),
        };
    }
    let bad = req.match_info().iter().find(|(_, value)| {
        value.is_empty() || value.len() > 18 || !value.bytes().all(|b| b.is_ascii_digit())
    });
    match bad {
        Some((name, value)) => ApiError::NotFound(format!(
            "no such resource: path parameter `{name}` is {value:?}, which is not an id"
        )),
        None => ApiError::NotFound("no such resource".into()),
    }
}

/// Builds the whole application over shared state.
pub fn build_app(
    state: web::Data<AppState>,
    spec: Arc<utoipa::openapi::OpenApi>,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let limit = state.config.max_body_bytes;
    let cors = {
        let mut c = actix_cors::Cors::default()
            .allow_any_header()
            .allowed_methods(CORS_METHODS)
            .expose_headers(["ETag", "X-Request-Id", "Location", "Link", "Retry-After"])
            .max_age(3600);
        for o in &state.config.cors_origins {
            c = c.allowed_origin(o);
        }
        c
    };
    let (app, _) = App::new()
        .into_utoipa_app()
        .openapi(crate::openapi::ApiDoc::openapi())
        .app_data(state.clone())
        .app_data(json_config(limit))
        .app_data(query_config())
        .app_data(path_config())
        .app_data(web::PayloadConfig::new(limit))
        .service(api::health::healthz)
        .service(api::health::readyz)
        .service(scope("/api/v1").configure(configure_api))
        .split_for_parts();
    // the club pages before the interactive documentation: its pattern is tried on every
    // path that reaches it
    app.configure(crate::web::configure)
        .service(
            utoipa_swagger_ui::SwaggerUi::new("/docs/{_:.*}")
                .url("/api-docs/openapi.json", (*spec).clone()),
        )
        .route(
            "/docs",
            web::get().to(|| async {
                HttpResponse::PermanentRedirect()
                    .insert_header(("Location", "/docs/"))
                    .finish()
            }),
        )
        .default_service(web::to(not_found_or_405))
        .wrap(from_fn(docs_headers))
        .wrap(from_fn(fair_shares))
        .wrap(from_fn(refuse_nul))
        .wrap(from_fn(crate::representation::representation))
        .wrap(from_fn(crate::audience::audience))
        .wrap(from_fn(head_as_get))
        .wrap(cors)
        .wrap(from_fn(cors_refusals))
        .wrap(from_fn(crate::panics::catch_panics))
        .wrap(from_fn(request_context))
}

/// Builds the shared state: pool, migrations, JWT key, bootstrap admin.
pub fn build_state(config: Config) -> Result<web::Data<AppState>, String> {
    let pool = crate::database::build_pool_with(
        &config.database_url,
        config.db_pool_size,
        config.db_pool_timeout,
        config.db_conn,
    )?;
    {
        let mut conn = pool.get().map_err(|e| e.to_string())?;
        let applied = crate::database::run_migrations(&mut conn)?;
        if !applied.is_empty() {
            tracing::info!(?applied, "migrations applied");
        }
        if let Some((email, password)) = &config.bootstrap_admin {
            crate::services::users::bootstrap_admin(&mut conn, email, password)
                .map_err(|e| format!("bootstrap admin: {e}"))?;
        }
    }
    let secret = crate::services::secrets::jwt_secret(&config)?;
    let jwt = JwtKeys::new(&secret, &config.jwt_issuer)?;
    let spec = openapi();
    let routes = route_table(&spec);
    let versions = crate::cache::Versions::new(
        &config.database_url,
        config.db_conn,
        config.read_version_reuse,
    )?;
    let page_csp = actix_web::http::header::HeaderValue::from_str(&crate::web::csp(
        &config.frame_ancestors,
        config.club_site.logo_origin().as_deref(),
    ))
    .map_err(|_| "FRAME_ANCESTORS makes an invalid header".to_string())?;
    let hub = crate::stream::Hub::new(
        pool.clone(),
        &config.database_url,
        config.stream_buffer,
        config.stream_max_clients,
        crate::stream::Shares {
            anon_per_address: config.stream_max_anon_per_address,
            signed_in_slots: config.stream_signed_in_slots,
        },
    )?;
    Ok(web::Data::new(AppState {
        night: crate::night::Night::new(&secret),
        unsubscribe: crate::services::unsubscribe::UnsubscribeKey::from_secret(&secret),
        attendance_links: crate::services::reminders::AttendanceLinkKey::from_secret(&secret),
        hub,
        pool,
        jwt,
        throttle: Throttle::new(config.login_max_failures),
        login_buckets: crate::fair::Buckets::new(config.login_rate_per_minute),
        calc_buckets: crate::fair::Buckets::new(config.calc_anon_rate_per_minute),
        access_log: crate::fair::AccessLog::new(config.access_log),
        calc: crate::limits::CalcPool::new(
            config.calc_workers,
            config.calc_queue,
            config.calc_time_budget,
        ),
        password_checks: std::sync::atomic::AtomicU64::new(0),
        page_headers: crate::web::cached_page_headers(&page_csp),
        club_site: std::sync::Arc::new(config.club_site.clone()),
        page_csp,
        config,
        routes,
        cache: crate::cache::ReadCache::new(1024),
        write_queue: versions
            .db
            .inline()
            .then(|| Arc::new(tokio::sync::Mutex::new(()))),
        versions,
    }))
}

/// Purges expired events once a minute, at most a batch at a time
/// (docs/decisions/0220-event-log.md); a failed purge is logged and tried again a minute later.
async fn purge_events(state: web::Data<AppState>) {
    let retention = chrono::Duration::days(i64::from(state.config.event_retention_days));
    loop {
        actix_web::rt::time::sleep(std::time::Duration::from_secs(60)).await;
        match state
            .db(move |c| crate::services::events::purge_expired(c, retention))
            .await
        {
            Ok(0) => {}
            Ok(n) => tracing::info!(purged = n, "expired events purged"),
            Err(e) => tracing::warn!(error = %e, "purging expired events failed"),
        }
    }
}

/// Queues the reminders that are due once a minute
/// (docs/decisions/0329-reminders-with-attendance-links.md); a failed pass is logged and tried
/// again a minute later. A reminder is queued once per player and round, so several
/// instances running this queue none twice.
async fn remind(state: web::Data<AppState>) {
    loop {
        let st = state.clone();
        let pass = state
            .tx(move |c| {
                let keys = crate::services::reminders::Keys {
                    settings: &st.config.mail,
                    unsubscribe: &st.unsubscribe,
                    links: &st.attendance_links,
                };
                let tz = st.config.club_timezone.name();
                crate::services::reminders::remind(c, keys, chrono::Utc::now(), tz)
            })
            .await;
        match pass {
            Ok(0) => {}
            Ok(n) => tracing::info!(queued = n, "reminders queued"),
            Err(e) => tracing::warn!(error = %e, "queueing the reminders failed"),
        }
        actix_web::rt::time::sleep(std::time::Duration::from_secs(60)).await;
    }
}

/// Runs the HTTP server until SIGINT/SIGTERM: then the event streams end at once and the
/// requests in flight get [`SHUTDOWN_GRACE_SECS`] to finish.
pub async fn serve(config: Config) -> std::io::Result<()> {
    let addr = config.bind_addr;
    let state = build_state(config).map_err(std::io::Error::other)?;
    let spec = Arc::new(openapi());
    actix_web::rt::spawn(purge_events(state.clone()));
    actix_web::rt::spawn(remind(state.clone()));
    // held until the server stops: dropping it stops the worker
    let _webhooks = state.config.webhooks.then(|| {
        crate::services::webhooks::worker::Worker::start(
            state.pool.clone(),
            crate::services::webhooks::worker::WorkerConfig::of(&state.config),
        )
    });
    // held until the server stops, like the webhook worker
    let _mail = crate::services::mail::worker::MailWorker::start(
        state.pool.clone(),
        crate::services::mail::worker::MailWorkerConfig::of(&state.config),
    )
    .map_err(std::io::Error::other)?;
    tracing::info!(%addr, "clubcomp listening; docs at /docs/");
    let hub = state.hub.clone();
    let server = actix_web::HttpServer::new(move || build_app(state.clone(), spec.clone()))
        .bind(addr)?
        .disable_signals()
        .shutdown_timeout(SHUTDOWN_GRACE_SECS)
        .run();
    let handle = server.handle();
    actix_web::rt::spawn(async move {
        stop_signal().await;
        tracing::info!("shutting down: the event streams end, requests in flight finish");
        hub.close();
        handle.stop(true).await;
    });
    server.await
}

/// How long requests in flight may take to finish once the service is asked to stop (the
/// event streams end at once), in seconds
/// ([decision 0386](../docs/decisions/0386-shutdown-ends-the-streams.md)).
pub const SHUTDOWN_GRACE_SECS: u64 = 1;

/// Resolves on the first SIGTERM or SIGINT (Ctrl-C).
async fn stop_signal() {
    #[cfg(unix)]
    {
        use actix_web::rt::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                let interrupt = std::pin::pin!(actix_web::rt::signal::ctrl_c());
                let term = std::pin::pin!(term.recv());
                futures_util::future::select(interrupt, term).await;
            }
            Err(e) => {
                tracing::warn!(error = %e, "SIGTERM cannot be handled; stopping on SIGINT only");
                let _ = actix_web::rt::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = actix_web::rt::signal::ctrl_c().await;
    }
}

#[cfg(test)]
mod tests {
    use super::{request_context, template_matches};
    use std::sync::{Arc, Mutex};

    /// The log lines written while a test runs.
    #[derive(Clone, Default)]
    struct Lines(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Lines {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    async fn boom() -> actix_web::HttpResponse {
        panic!("an index out of bounds\nwith a second line");
    }

    /// A panic in a handler, behind the application's own request context and panic
    /// middleware: answered 500, and logged in one line that carries the request id.
    #[actix_web::test]
    async fn a_panic_is_answered_500_and_logged_once_with_the_request_id() {
        use actix_web::{App, middleware::from_fn, test, web};
        let lines = Lines::default();
        let writer = lines.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_ansi(false)
            .with_writer(move || writer.clone())
            .finish();
        let _default = tracing::subscriber::set_default(subscriber);
        crate::panics::install_hook();
        let app = test::init_service(
            App::new()
                .route("/boom", web::get().to(boom))
                .wrap(from_fn(crate::panics::catch_panics))
                .wrap(from_fn(request_context)),
        )
        .await;
        let req = test::TestRequest::get()
            .uri("/boom")
            .insert_header(("x-request-id", "req-4711"))
            .to_request();
        // the middleware hands the panic up as the 500 problem the server renders
        let err = test::try_call_service(&app, req)
            .await
            .err()
            .ok_or("a panic answers an error, not a response")
            .unwrap();
        let res = err.error_response();
        assert_eq!(res.status(), 500);
        let bytes = actix_web::body::to_bytes(res.into_body()).await.unwrap();
        let body = String::from_utf8(bytes.to_vec()).unwrap();
        assert!(!body.contains("index"), "{body}");
        let log = String::from_utf8(lines.0.lock().unwrap().clone()).unwrap();
        let panics: Vec<&str> = log.lines().filter(|l| l.contains("panicked")).collect();
        assert_eq!(panics.len(), 1, "{log}");
        assert!(panics[0].contains("request_id=req-4711"), "{log}");
        assert!(
            panics[0].contains("an index out of bounds\\nwith a second line"),
            "{log}"
        );
    }

    #[test]
    fn templates_match_segments() {
        assert!(template_matches(
            "/api/v1/players/{id}",
            "/api/v1/players/12"
        ));
        assert!(!template_matches("/api/v1/players/{id}", "/api/v1/players"));
        assert!(!template_matches("/api/v1/players", "/api/v1/players/"));
        assert!(template_matches("/healthz", "/healthz"));
    }
}
