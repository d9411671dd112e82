//! Members on board: invitations to an account and accepting them
//! (docs/api-guide.md#invitations-and-your-own-account).

use crate::api::Body;
use crate::auth::{Auth, Leader, hash_password};
use crate::error::{ApiError, ApiResult, Problem};
use crate::ids::UserId;
use crate::services::account_links::{self as svc, Invited};
use crate::services::passwords;
use crate::state::AppState;
use actix_web::{HttpResponse, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Accounts to invite.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"user_ids": [12, 13, 14]}))]
pub struct InviteUsers {
    /// The accounts, 1 to 200, each once.
    #[schema(value_type = Vec<i64>, min_items = 1, max_items = 200)]
    pub user_ids: Vec<UserId>,
}

/// The invitations queued.
#[derive(Debug, Serialize, ToSchema)]
pub struct Invitations {
    /// One per account, in the order asked.
    pub items: Vec<Invited>,
}

/// An invitation's token and the password chosen.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"token": "cca_7Hq2-wEqQ6u0i0mR1yJ4tXbM9cZ5LhD8aVnK2oP1sGf", "password": "a quiet rook on the e-file"}))]
pub struct AcceptInvitation {
    /// The token of the invitation's link (at most 128 characters).
    #[schema(max_length = 128)]
    pub token: String,
    /// The new password: 10 to 200 characters, not one of the common passwords.
    #[schema(min_length = 10, max_length = 200)]
    pub password: String,
}

/// Invites an account: mails its address a link (`PUBLIC_URL/account/invitation?token=…`)
/// that works once and for `INVITE_TTL_HOURS` (default 168) to choose a password. A new
/// invitation ends the links sent before.
#[utoipa::path(tag = "users", params(("id" = i64, Path, description = "User id")),
    responses((status = 202, description = "The invitation is queued in the mail outbox", body = Invited),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Neither admin nor leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such user", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The account is disabled", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin", "leader"])))]
#[post("/users/{id}/invite")]
pub async fn create_invitation(
    _a: Auth<Leader>,
    state: web::Data<AppState>,
    path: web::Path<UserId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let st = state.clone();
    let invited = state
        .tx(move |c| {
            let now = crate::services::date::now_utc();
            svc::invite(c, &st.config.mail, id, now)
        })
        .await?;
    Ok(HttpResponse::Accepted().json(invited))
}

/// Invites several accounts at once (1 to 200): all of them, or none when one of them cannot
/// be invited (the problem names it).
#[utoipa::path(tag = "users", request_body = InviteUsers,
    responses((status = 202, description = "The invitations are queued in the mail outbox", body = Invitations),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Neither admin nor leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such user", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "An account is disabled", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "No accounts, more than 200, or one named twice", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin", "leader"])))]
#[post("/users/invite")]
pub async fn create_invitations(
    _a: Auth<Leader>,
    state: web::Data<AppState>,
    body: Body<InviteUsers>,
) -> ApiResult<HttpResponse> {
    let ids = body.into_inner()?.user_ids;
    if ids.is_empty() || ids.len() > svc::MAX_BULK {
        return Err(ApiError::invalid(
            "user_ids",
            format!("must name 1 to {} accounts", svc::MAX_BULK),
        ));
    }
    let st = state.clone();
    let items = state
        .tx(move |c| {
            let now = crate::services::date::now_utc();
            svc::invite_many(c, &st.config.mail, &ids, now)
        })
        .await?;
    Ok(HttpResponse::Accepted().json(Invitations { items }))
}

/// Accepts an invitation: sets the password, marks the address verified and signs in,
/// answered as a login (without a device token). The link works once and until it expires;
/// a used or expired one is refused naming that.
#[utoipa::path(tag = "auth", request_body = AcceptInvitation,
    responses((status = 200, description = "Signed in", body = crate::api::auth::TokenResponse),
        (status = 422, description = "Unknown, used or expired token, or a password that is too short, too long or too common", body = Problem, content_type = "application/problem+json")))]
#[post("/auth/invitations/accept")]
pub async fn accept_invitation(
    state: web::Data<AppState>,
    body: Body<AcceptInvitation>,
) -> ApiResult<HttpResponse> {
    let b = body.into_inner()?;
    svc::check_token(&b.token)?;
    passwords::check("password", &b.password).map_err(|e| ApiError::validation(vec![e]))?;
    let pw = b.password;
    let hash = web::block(move || hash_password(&pw)).await??;
    let (token, policy) = (b.token, crate::api::auth::policy(&state));
    let issued = state
        .tx(move |c| {
            let now = crate::services::date::now_utc();
            svc::accept(c, &token, &hash, now, &policy)
        })
        .await?;
    crate::api::auth::tokens(&state, issued, None)
}

/// The address of a forgotten password.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"email": "anna@club.example"}))]
pub struct PasswordResetRequest {
    /// The account's e-mail address (at most 254 characters).
    #[schema(max_length = 254)]
    pub email: String,
}

/// A reset link's token and the new password.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"token": "cca_7Hq2-wEqQ6u0i0mR1yJ4tXbM9cZ5LhD8aVnK2oP1sGf", "password": "a quiet rook on the e-file"}))]
pub struct PasswordResetConfirm {
    /// The token of the reset mail's link (at most 128 characters).
    #[schema(max_length = 128)]
    pub token: String,
    /// The new password: 10 to 200 characters, not one of the common passwords.
    #[schema(min_length = 10, max_length = 200)]
    pub password: String,
}

/// Asks for a new password: when an enabled account has this address, it gets a mail with a
/// link (`PUBLIC_URL/account/password-reset?token=…`) that works once and for an hour; at most
/// 3 such mails an hour. Always answered 202, after the same work, so the answer does not tell
/// whether the address has an account.
#[utoipa::path(tag = "auth", request_body = PasswordResetRequest,
    responses((status = 202, description = "Asked; a mail follows when the address has an account"),
        (status = 422, description = "An address longer than 254 characters", body = Problem, content_type = "application/problem+json")))]
#[post("/auth/password-reset")]
pub async fn create_password_reset(
    state: web::Data<AppState>,
    body: Body<PasswordResetRequest>,
) -> ApiResult<HttpResponse> {
    let email = body.into_inner()?.email;
    crate::services::password_reset::check_email(&email)?;
    let st = state.clone();
    state
        .tx(move |c| {
            let now = crate::services::date::now_utc();
            crate::services::password_reset::request(c, &st.config.mail, &email, now)
        })
        .await?;
    Ok(HttpResponse::Accepted().finish())
}

/// Sets a new password with a reset link's token, and ends every session of the account:
/// its refresh tokens are revoked and the access tokens issued before are refused.
#[utoipa::path(tag = "auth", request_body = PasswordResetConfirm,
    responses((status = 204, description = "The password is set; log in with it"),
        (status = 422, description = "Unknown, used or expired token, or a password that is too short, too long or too common", body = Problem, content_type = "application/problem+json")))]
#[post("/auth/password-reset/confirm")]
pub async fn confirm_password_reset(
    state: web::Data<AppState>,
    body: Body<PasswordResetConfirm>,
) -> ApiResult<HttpResponse> {
    let b = body.into_inner()?;
    svc::check_token(&b.token)?;
    passwords::check("password", &b.password).map_err(|e| ApiError::validation(vec![e]))?;
    let pw = b.password;
    let hash = web::block(move || hash_password(&pw)).await??;
    let token = b.token;
    state
        .tx(move |c| {
            let now = crate::services::date::now_utc();
            crate::services::password_reset::confirm(c, &token, &hash, now)
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
