//! Login and the caller's own identity.

use crate::app::AppState;
use crate::auth::{AnyRole, Auth, Role, check_password, parse_roles};
use crate::db::models::users;
use crate::error::{ApiError, ApiResult, Problem};
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
}

/// A bearer token.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenResponse {
    /// The JWT to send as `Authorization: Bearer …`.
    pub token: String,
    /// Always `Bearer`.
    pub token_type: &'static str,
    /// Expiry (RFC 3339, UTC).
    #[schema(format = DateTime)]
    pub expires_at: String,
    /// The roles the token carries.
    pub roles: Vec<Role>,
}

/// The caller.
#[derive(Debug, Serialize, ToSchema)]
pub struct Me {
    /// User id (absent for service tokens).
    pub user_id: Option<i64>,
    /// Service-token id (absent for users).
    pub service_token_id: Option<i64>,
    /// E-mail or `service:<name>`.
    pub name: String,
    /// Current roles.
    pub roles: Vec<Role>,
    /// The player linked to the account, if any.
    pub player_id: Option<i64>,
}

/// Logs in with e-mail and password and returns a JWT. Failed attempts are throttled per
/// account and address, per address (both with a growing wait), and per account from all
/// addresses together at a far higher count (429 with `Retry-After`).
#[utoipa::path(tag = "auth", request_body = LoginRequest,
    responses(
        (status = 200, description = "Logged in", body = TokenResponse),
        (status = 401, description = "Wrong e-mail or password", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid body", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many failed attempts", body = Problem, content_type = "application/problem+json")))]
#[post("/auth/login")]
pub async fn create_token(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: crate::api::Body<LoginRequest>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner()?;
    let addr = crate::auth::client_address(
        req.peer_addr().map(|a| a.ip()),
        req.headers()
            .get_all("x-forwarded-for")
            .filter_map(|v| v.to_str().ok()),
        &state.config.trusted_proxies,
    );
    let email = body.email.trim().to_lowercase();
    // count the attempt (shared by every instance) and look the account up, in one
    // transaction: when it fails nothing was counted
    let (st, acct, at) = (state.clone(), email.clone(), addr.clone());
    let (allowed, user) = state
        .tx(move |c| {
            let allowed = st.throttle.attempt(c, &acct, &at, crate::db::now_utc())?;
            let user = users::by_email(c, &acct)?;
            Ok((allowed, user))
        })
        .await?;
    // the rows of windows that are over go away at every login attempt (an indexed read that
    // usually finds none), also during an attack that never logs in
    let st = state.clone();
    state
        .db(move |c| st.throttle.sweep(c, crate::db::now_utc()))
        .await?;
    // Exactly one argon2 verification for every account state (unknown, disabled, throttled,
    // wrong or right password), so the answer's timing does not tell them apart.
    let password = body.password;
    let st = state.clone();
    let ok_user = web::block(move || {
        let hash = user.as_ref().map(|u| u.password_hash.as_str());
        let matches = check_password(&password, hash, Some(&st.password_checks));
        user.filter(|u| matches && u.active && allowed.is_ok())
    })
    .await?;
    if let Err(retry_after) = allowed {
        return Err(ApiError::TooManyRequests {
            detail: "too many failed logins; wait before trying again".into(),
            retry_after,
        });
    }
    // the attempt counts as a failure from its start (Throttle::attempt)
    let Some(user) = ok_user else {
        return Err(ApiError::Unauthorized("wrong e-mail or password".into()));
    };
    let st = state.clone();
    state
        .tx(move |c| st.throttle.forgive(c, &email, &addr, true))
        .await?;

    let roles = parse_roles(&user.roles);
    let (token, exp) = state.jwt.issue_for_user(
        &user,
        roles.clone(),
        chrono::Duration::minutes(state.config.jwt_ttl_minutes),
    )?;
    Ok(HttpResponse::Ok().json(TokenResponse {
        token,
        token_type: "Bearer",
        expires_at: rfc3339(exp),
        roles,
    }))
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
        user_id: p.user_id,
        service_token_id: p.service_token_id,
        name: p.label,
        roles: p.roles,
        player_id: p.player_id,
    })
}
