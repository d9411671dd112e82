//! A member's own account: a new password, a new address
//! (docs/api-guide.md#invitations-and-your-own-account).

use crate::api::Body;
use crate::auth::{AnyRole, Auth, check_password, hash_password};
use crate::error::{ApiError, ApiResult, Problem};
use crate::services::own_account::{self as svc, EmailChange};
use crate::services::{account_links, passwords};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, post, put, web};
use serde::Deserialize;
use utoipa::ToSchema;

/// The current password and the new one.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"current": "demo-password", "new": "a quiet rook on the e-file"}))]
pub struct PasswordChange {
    /// The current password (at most 200 characters).
    #[schema(max_length = 200)]
    pub current: String,
    /// The new password: 10 to 200 characters, not one of the common passwords.
    #[schema(min_length = 10, max_length = 200)]
    pub new: String,
}

/// The new address.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"email": "anna.devries@club.example"}))]
pub struct NewEmail {
    /// The address to use from now on, also as the login name (at most 254 characters).
    #[schema(max_length = 254)]
    pub email: String,
}

/// An address-confirmation link's token.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"token": "cca_7Hq2-wEqQ6u0i0mR1yJ4tXbM9cZ5LhD8aVnK2oP1sGf"}))]
pub struct EmailConfirmation {
    /// The token of the confirmation mail's link (at most 128 characters).
    #[schema(max_length = 128)]
    pub token: String,
}

/// Changes the caller's password, given the current one. Every session of the account ends
/// (other devices sign in again) and the answer is a new login for this one. Wrong current
/// passwords count as failed logins of the account from this address (429 when used up).
#[utoipa::path(tag = "auth", request_body = PasswordChange,
    responses((status = 200, description = "The password is changed; the new tokens", body = crate::api::auth::TokenResponse),
        (status = 401, description = "No valid token, or a disabled account", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "A service token (it has no password)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The password was changed meanwhile", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The current password is wrong, or the new one is too short, too long or too common", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many wrong current passwords", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait")))),
    security(("bearer" = ["admin", "leader", "arbiter", "member", "rating_sync"])))]
#[put("/me/password")]
pub async fn change_password(
    auth: Auth<AnyRole>,
    req: HttpRequest,
    state: web::Data<AppState>,
    body: Body<PasswordChange>,
) -> ApiResult<HttpResponse> {
    let user = auth
        .principal
        .user_id
        .ok_or_else(|| ApiError::Forbidden("a service token has no password".into()))?;
    let b = body.into_inner()?;
    if b.current.len() > passwords::MAX_CHARS {
        return Err(ApiError::invalid(
            "current",
            format!("must be at most {} characters", passwords::MAX_CHARS),
        ));
    }
    passwords::check("new", &b.new).map_err(|e| ApiError::validation(vec![e]))?;
    let addr = crate::auth::request_address(&req, &state.config.trusted_proxies);
    let (st, at) = (state.clone(), addr.clone());
    let (stored, _email) = state
        .tx(move |c| {
            let now = crate::services::date::now_utc();
            svc::begin_password_change(c, &st.throttle, user, &at, now)
        })
        .await?;
    let (st, checked) = (state.clone(), stored.clone());
    let new_hash = web::block(move || {
        if !check_password(&b.current, Some(&checked), Some(&st.password_checks)) {
            return Err(ApiError::invalid(
                "current",
                "is not the account's password",
            ));
        }
        hash_password(&b.new)
    })
    .await??;
    let (st, policy) = (state.clone(), crate::api::auth::policy(&state));
    let issued = state
        .tx(move |c| {
            let now = crate::services::date::now_utc();
            svc::change_password(
                c,
                &st.throttle,
                (user, &addr),
                (&stored, &new_hash),
                now,
                &policy,
            )
        })
        .await?;
    crate::api::auth::tokens(&state, issued, None)
}

/// Asks to change the caller's address (also the login name): a link that works once and for
/// 24 hours is mailed to the new address, and the old one is told. The address changes when
/// the link is opened (`POST /auth/email/confirm`); until then the old one holds.
#[utoipa::path(tag = "auth", request_body = NewEmail,
    responses((status = 202, description = "The confirmation mail is queued", body = EmailChange),
        (status = 401, description = "No valid token, or a disabled account", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "A service token (it has no address)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Another account has the address", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Not an address, or the account's own", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin", "leader", "arbiter", "member", "rating_sync"])))]
#[put("/me/email")]
pub async fn change_email(
    auth: Auth<AnyRole>,
    state: web::Data<AppState>,
    body: Body<NewEmail>,
) -> ApiResult<HttpResponse> {
    let user = auth
        .principal
        .user_id
        .ok_or_else(|| ApiError::Forbidden("a service token has no address".into()))?;
    let email = body.into_inner()?.email;
    crate::services::password_reset::check_email(&email)?;
    let st = state.clone();
    let change = state
        .tx(move |c| {
            let now = crate::services::date::now_utc();
            svc::request_email_change(c, &st.config.mail, user, &email, now)
        })
        .await?;
    Ok(HttpResponse::Accepted().json(change))
}

/// Confirms an address change with the token of its link: the account takes the new
/// address, verified. The link works once and for 24 hours.
#[utoipa::path(tag = "auth", request_body = EmailConfirmation,
    responses((status = 204, description = "The address is changed; log in with it"),
        (status = 409, description = "Another account took the address meanwhile", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Unknown, used or expired token", body = Problem, content_type = "application/problem+json")))]
#[post("/auth/email/confirm")]
pub async fn confirm_email(
    state: web::Data<AppState>,
    body: Body<EmailConfirmation>,
) -> ApiResult<HttpResponse> {
    let token = body.into_inner()?.token;
    account_links::check_token(&token)?;
    state
        .tx(move |c| {
            let now = crate::services::date::now_utc();
            svc::confirm_email_change(c, &token, now)
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
