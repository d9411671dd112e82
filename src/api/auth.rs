//! Login, staying signed in (refresh tokens, docs/api-guide.md#staying-signed-in), logout
//! and the caller's own identity.

use crate::auth::{AnyRole, Auth, Role, parse_roles};
use crate::error::{ApiError, ApiResult, Problem};
use crate::ids::ServiceTokenId;
use crate::services::known_logins;
use crate::services::refresh_tokens::{self, Issued, MAX_TOKEN_LEN, Policy};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Login credentials.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"email": "leader@club.example", "password": "correct horse battery"}))]
pub struct LoginRequest {
    /// E-mail address.
    pub email: String,
    /// Password.
    pub password: String,
    /// The device token a previous login on this device returned (at most 128 characters);
    /// it may also be sent as the `X-Device-Token` header or comes as the device cookie. A
    /// login from a known device is not held back when strangers' failed logins have used
    /// up the account's count (docs/api-guide.md#logging-in).
    #[schema(max_length = 128)]
    pub device_token: Option<String>,
}

/// A refresh token, to exchange for new tokens or to log out with.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"refresh_token": "ccr_3q2-7wEqQ6u0i0mR1yJ4tXbM9cZ5LhD8aVnK2oP1sGf"}))]
pub struct RefreshRequest {
    /// The refresh token of the last login or refresh (at most 128 characters).
    #[schema(max_length = 128)]
    pub refresh_token: String,
}

/// An access token and the refresh token that renews it.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenResponse {
    /// The access token (a JWT) to send as `Authorization: Bearer …`.
    pub token: String,
    /// Always `Bearer`.
    pub token_type: clubcomp_core::vocab::TokenType,
    /// Expiry of the access token (RFC 3339, UTC): `JWT_TTL_MINUTES` after issue.
    #[schema(format = DateTime)]
    pub expires_at: String,
    /// The roles the token carries.
    pub roles: Vec<Role>,
    /// The refresh token: exchange it at `POST /auth/refresh` for new tokens before
    /// `refresh_expires_at`. It works once; keep it secret, like a password.
    pub refresh_token: String,
    /// Expiry of the refresh token (RFC 3339, UTC): `REFRESH_TTL_DAYS` after issue.
    #[schema(format = DateTime)]
    pub refresh_expires_at: String,
    /// The device token of this device (logins only): keep it and send it with the next
    /// login, in the body or as the X-Device-Token header; it is also set as an HttpOnly
    /// cookie.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub device_token: Option<String>,
}

/// The name of the device cookie.
pub const DEVICE_COOKIE: &str = "clubcomp_device";

/// The caller.
#[derive(Debug, Serialize, ToSchema)]
pub struct Me {
    /// User id (absent for service tokens).
    #[schema(required = true)]
    pub user_id: Option<i64>,
    /// Service-token id (absent for users).
    #[schema(required = true)]
    pub service_token_id: Option<i64>,
    /// E-mail or `service:<name>`.
    pub name: String,
    /// Current roles.
    pub roles: Vec<Role>,
    /// The player linked to the account, if any.
    #[schema(required = true)]
    pub player_id: Option<i64>,
}

/// The device token of a login: the body's `device_token`, else the `X-Device-Token` header,
/// else the device cookie; longer than 128 characters is refused (422 naming it).
fn device_token(req: &HttpRequest, body: Option<String>) -> ApiResult<Option<String>> {
    let (field, token) = if let Some(t) = body {
        ("device_token", Some(t))
    } else if let Some(h) = req.headers().get("x-device-token") {
        let t = h.to_str().map_err(|_| {
            ApiError::invalid("X-Device-Token", "must be a device token (visible ASCII)")
        })?;
        ("X-Device-Token", Some(t.to_string()))
    } else {
        let cookie = req.cookie(DEVICE_COOKIE).map(|c| c.value().to_string());
        (DEVICE_COOKIE, cookie)
    };
    match token {
        Some(t) if t.len() > known_logins::MAX_TOKEN_LEN => Err(ApiError::invalid(
            field,
            format!("must be at most {} characters", known_logins::MAX_TOKEN_LEN),
        )),
        t => Ok(t.filter(|t| !t.is_empty())),
    }
}

/// Logs in with e-mail and password and returns an access token (a JWT), a refresh token
/// that starts a new session (docs/api-guide.md#staying-signed-in) and the device's token.
/// Failed attempts are throttled per account and address, per address (an IPv6 address by
/// its /64; both with a growing wait), and per account from all addresses together at a far
/// higher count (429 with `Retry-After`). The account-wide count does not hold back a login
/// from a device or an address that signed in to the account before (the device token, sent
/// in the body, as `X-Device-Token` or as the device cookie), so strangers cannot lock the
/// owner out (docs/api-guide.md#logging-in). Logins from one address are also limited by
/// `LOGIN_RATE_PER_MINUTE` (429 naming it).
#[utoipa::path(tag = "auth", request_body = LoginRequest,
    params(("X-Device-Token" = Option<String>, Header, description = "The device token a previous login on this device returned (instead of `device_token`)", max_length = 128)),
    responses(
        (status = 200, description = "Logged in; the device token is also set as the HttpOnly cookie `clubcomp_device`", body = TokenResponse,
            headers(("Set-Cookie" = String, description = "The device cookie"))),
        (status = 401, description = "Wrong e-mail or password", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid body, or a device token longer than 128 characters", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many failed attempts, or too many logins from this address (`LOGIN_RATE_PER_MINUTE`)", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait")))))]
#[post("/auth/login")]
pub async fn create_token(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: crate::api::Body<LoginRequest>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner()?;
    let device = device_token(&req, body.device_token)?;
    let crate::auth::Matched {
        user,
        email,
        origin,
    } = crate::auth::check_credentials(&req, &state, &body.email, body.password, device).await?;
    let (st, policy) = (state.clone(), policy(&state));
    let (issued, device) = state
        .tx(move |c| {
            let now = crate::services::date::now_utc();
            refresh_tokens::complete_login(c, &st.throttle, &email, &origin, user.id, now, &policy)
        })
        .await?;
    let secure = req.connection_info().scheme() == "https";
    let cookie = actix_web::cookie::Cookie::build(DEVICE_COOKIE, device.clone())
        .path("/api/v1/auth")
        .max_age(actix_web::cookie::time::Duration::days(
            known_logins::KEEP_DAYS,
        ))
        .http_only(true)
        .secure(secure)
        .same_site(actix_web::cookie::SameSite::Strict)
        .finish();
    let mut res = tokens(&state, issued, Some(device))?;
    res.add_cookie(&cookie)
        .map_err(|_| ApiError::Internal("the device cookie cannot be set".into()))?;
    Ok(res)
}

pub(crate) fn policy(state: &AppState) -> Policy {
    Policy {
        ttl: state.config.refresh_ttl,
        max_sessions: state.config.refresh_max_sessions,
        grace: state.config.refresh_grace,
    }
}

/// The answer to a login or a refresh: a new access token for the account as it is now, and
/// the refresh token just issued.
pub(crate) fn tokens(
    state: &AppState,
    issued: Issued,
    device: Option<String>,
) -> ApiResult<HttpResponse> {
    let roles = parse_roles(&issued.user.roles);
    let (token, exp) = state.jwt.issue_for_user_at(
        &issued.user,
        roles.clone(),
        chrono::Duration::minutes(state.config.jwt_ttl_minutes),
        issued.issued_at.and_utc().timestamp(),
    )?;
    Ok(HttpResponse::Ok()
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .json(TokenResponse {
            token,
            token_type: clubcomp_core::vocab::TokenType::Bearer,
            expires_at: rfc3339(exp),
            roles,
            refresh_token: issued.token,
            refresh_expires_at: rfc3339(issued.expires_at.and_utc().timestamp()),
            device_token: device,
        }))
}

/// The refresh token of a body, bounded (422 naming `refresh_token`).
fn bounded_refresh_token(body: crate::api::Body<RefreshRequest>) -> ApiResult<String> {
    let token = body.into_inner()?.refresh_token;
    if token.len() > MAX_TOKEN_LEN {
        return Err(ApiError::invalid(
            "refresh_token",
            format!("must be at most {MAX_TOKEN_LEN} characters"),
        ));
    }
    Ok(token)
}

/// Exchanges a refresh token for a new access token and a new refresh token; the one sent is
/// spent. The same refresh retried within `REFRESH_GRACE_SECONDS` (default 30) answers the
/// same new tokens, while the new refresh token is unused. Any other use of a spent token
/// ends every token of its login (`refresh-token-reused`): a copy of it is in other hands.
#[utoipa::path(tag = "auth", request_body = RefreshRequest,
    responses(
        (status = 200, description = "New tokens; the refresh token sent is spent (a retry within `REFRESH_GRACE_SECONDS` answers the same tokens)", body = TokenResponse),
        (status = 401, description = "Unknown, expired or ended refresh token (`refresh-token-invalid`), or one used twice (`refresh-token-reused`: its login is ended)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid body (`refresh_token` longer than 128 characters)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many failed refreshes from this address (four times `LOGIN_MAX_FAILURES` in 15 minutes, with a growing wait), or too many requests from it (`LOGIN_RATE_PER_MINUTE`)", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait")))))]
#[post("/auth/refresh")]
pub async fn refresh_session(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: crate::api::Body<RefreshRequest>,
) -> ApiResult<HttpResponse> {
    let token = bounded_refresh_token(body)?;
    let addr = crate::auth::request_address(&req, &state.config.trusted_proxies);
    let (st, policy) = (state.clone(), policy(&state));
    // what a refusal ends (a reused token's family) is committed before it is answered, and
    // so is the failure it counts against the address
    let outcome = state
        .tx(move |c| {
            let now = crate::services::date::now_utc();
            refresh_tokens::refresh_from(c, &st.throttle, &addr, &token, now, &policy)
        })
        .await?;
    match outcome {
        Err(retry_after) => Err(ApiError::TooManyRequests {
            detail: "too many failed refreshes from this address; wait before trying again".into(),
            retry_after,
        }),
        Ok(outcome) => tokens(&state, outcome?, None),
    }
}

/// Logs out: ends the session of a refresh token (every refresh token of its login). The
/// access token runs out by itself within `JWT_TTL_MINUTES`. Answered 204 whether or not the
/// token was known.
#[utoipa::path(tag = "auth", request_body = RefreshRequest,
    responses(
        (status = 204, description = "The session has ended"),
        (status = 422, description = "Invalid body (`refresh_token` longer than 128 characters)", body = Problem, content_type = "application/problem+json")))]
#[post("/auth/logout")]
pub async fn delete_session(
    state: web::Data<AppState>,
    body: crate::api::Body<RefreshRequest>,
) -> ApiResult<HttpResponse> {
    let token = bounded_refresh_token(body)?;
    state
        .tx(move |c| refresh_tokens::logout(c, &token, crate::services::date::now_utc()))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Logs out everywhere: ends every session of the caller's account, so no device can refresh
/// any more. Access tokens already issued run out within `JWT_TTL_MINUTES`. Service tokens
/// have no sessions (403; an admin revokes them).
#[utoipa::path(tag = "auth",
    responses(
        (status = 204, description = "Every session of the account has ended"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "A service token", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin", "leader", "arbiter", "member", "rating_sync"])))]
#[post("/auth/logout-all")]
pub async fn delete_all_sessions(
    state: web::Data<AppState>,
    auth: Auth<AnyRole>,
) -> ApiResult<HttpResponse> {
    let Some(user_id) = auth.principal.user_id else {
        return Err(ApiError::Forbidden(
            "a service token has no sessions; an admin revokes it".into(),
        ));
    };
    state
        .tx(move |c| refresh_tokens::logout_all(c, user_id, crate::services::date::now_utc()))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Formats seconds since the epoch as RFC 3339 UTC.
pub fn rfc3339(secs: i64) -> String {
    chrono::DateTime::from_timestamp(secs, 0)
        .map(crate::wire::timestamp)
        .unwrap_or_default()
}

/// The caller's identity and current roles.
#[utoipa::path(tag = "auth", operation_id = "get_me",
    responses(
        (status = 200, description = "The caller", body = Me),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin", "leader", "arbiter", "member", "rating_sync"])))]
#[get("/auth/me")]
pub async fn get_me(auth: Auth<AnyRole>) -> HttpResponse {
    let p = auth.principal;
    HttpResponse::Ok().json(Me {
        user_id: p.user_id.map(crate::ids::UserId::get),
        service_token_id: p.service_token_id.map(ServiceTokenId::get),
        name: p.label,
        roles: p.roles,
        player_id: p.player_id.map(crate::ids::PlayerId::get),
    })
}
