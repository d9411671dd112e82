//! Authorization as extractors: a handler states its roles in its signature (`Auth<Leader>`),
//! and the bearer token is resolved to a principal against the database on every request
//! (`services::credentials::authenticate`), so a disabled user or a revoked service token
//! stops working at once. Passwords, tokens and roles are the account service's
//! ([`crate::services::credentials`]), failed-login throttling is
//! [`crate::services::throttle`]; what the handlers use of them is named here too.

use crate::error::ApiError;
use crate::services::credentials::authenticate;
use crate::state::AppState;
use actix_web::{FromRequest, HttpRequest, dev::Payload, web};
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;

pub use crate::services::credentials::{
    JwtKeys, Principal, Role, check_password, format_roles, hash_password, parse_roles,
};
pub use crate::services::throttle::client_address;

/// The client address of a request ([`client_address`]: the peer's, or the one a trusted
/// proxy forwarded).
pub fn request_address(req: &HttpRequest, trusted: &[std::net::IpAddr]) -> String {
    client_address(
        req.peer_addr().map(|a| a.ip()),
        req.headers()
            .get_all("x-forwarded-for")
            .filter_map(|v| v.to_str().ok()),
        trusted,
    )
}

/// Whether the request carries a bearer token that resolves to a principal (a signed-in
/// user or a service token); a missing or invalid one is not.
pub async fn signed_in(req: &HttpRequest) -> bool {
    bearer(req).is_some() && matches!(principal_from(req).await, Ok(Some(_)))
}

fn bearer(req: &HttpRequest) -> Option<String> {
    let h = req.headers().get(actix_web::http::header::AUTHORIZATION)?;
    let s = h.to_str().ok()?;
    let (scheme, token) = s.split_once(' ')?;
    if scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty() {
        Some(token.trim().to_string())
    } else {
        None
    }
}

/// The principal the request's audience was resolved from ([`crate::audience`]), kept for
/// the extractors so a token is checked once per request.
#[derive(Debug, Clone)]
pub struct Resolved(pub Principal);

/// The caller of a request, or `None` when it carries no token or one that does not resolve
/// (the extractors then answer the 401).
pub async fn resolve(req: &HttpRequest) -> Option<Principal> {
    bearer(req)?;
    principal_from(req).await.ok().flatten()
}

async fn principal_from(req: &HttpRequest) -> Result<Option<Principal>, ApiError> {
    if let Some(Resolved(p)) = actix_web::HttpMessage::extensions(req).get::<Resolved>() {
        return Ok(Some(p.clone()));
    }
    let Some(token) = bearer(req) else {
        if req
            .headers()
            .contains_key(actix_web::http::header::AUTHORIZATION)
        {
            return Err(ApiError::Unauthorized(
                "expected 'Authorization: Bearer <token>'".into(),
            ));
        }
        return Ok(None);
    };
    let state = req
        .app_data::<web::Data<AppState>>()
        .ok_or_else(|| ApiError::Internal("app state missing".into()))?
        .clone();
    let st = state.clone();
    let p = state
        .db(move |conn| authenticate(conn, &st.jwt, &token))
        .await?;
    Ok(Some(p))
}

/// A set of roles that may call an operation.
pub trait RoleSet {
    /// The roles, any of which suffices.
    const ROLES: &'static [Role];
}

macro_rules! role_set {
    ($(#[$m:meta])* $name:ident => [$($r:ident),+]) => {
        $(#[$m])*
        #[derive(Debug)]
        pub struct $name;
        impl RoleSet for $name {
            const ROLES: &'static [Role] = &[$(Role::$r),+];
        }
    };
}

role_set!(/// Admins only.
    Admin => [Admin]);
role_set!(/// Competition leaders (and admins).
    Leader => [Leader, Admin]);
role_set!(/// Arbiters and leaders (and admins).
    Arbiter => [Arbiter, Leader, Admin]);
role_set!(/// Rating-sync jobs (and admins).
    RatingSync => [RatingSync, Admin]);
role_set!(/// Any authenticated account.
    AnyRole => [Admin, Leader, Arbiter, Member, RatingSync]);

/// Extractor: the request carries a valid token holding one of `R::ROLES` (401 / 403 otherwise).
#[derive(Debug)]
pub struct Auth<R: RoleSet> {
    /// The caller.
    pub principal: Principal,
    _roles: PhantomData<R>,
}

impl<R: RoleSet + 'static> FromRequest for Auth<R> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let p = principal_from(&req)
                .await?
                .ok_or_else(|| ApiError::Unauthorized("a bearer token is required".into()))?;
            if !p.has_any(R::ROLES) {
                let names: Vec<&str> = R::ROLES.iter().map(|r| r.as_str()).collect();
                return Err(ApiError::Forbidden(format!(
                    "this operation needs one of the roles: {}",
                    names.join(", ")
                )));
            }
            Ok(Auth {
                principal: p,
                _roles: PhantomData,
            })
        })
    }
}

/// Extractor for public operations that show more to some roles: `None` without a token;
/// an invalid token is still a 401.
#[derive(Debug)]
pub struct MaybeAuth(pub Option<Principal>);

impl FromRequest for MaybeAuth {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { Ok(MaybeAuth(principal_from(&req).await?)) })
    }
}

/// A login whose password matched: the account, its e-mail address as looked up, and where
/// the attempt came from.
pub(crate) struct Matched {
    /// The account.
    pub user: crate::services::users::User,
    /// Its e-mail address, trimmed and in lower case.
    pub email: String,
    /// Where the attempt came from.
    pub origin: crate::services::refresh_tokens::Origin,
}

/// Checks an e-mail address and a password as every login does (the API's and the club
/// pages'): the attempt counted by the throttle, one password verification for every account
/// state; 429 when throttled, 401 when wrong. The caller completes the login.
pub(crate) async fn check_credentials(
    req: &HttpRequest,
    state: &web::Data<AppState>,
    email: &str,
    password: String,
    device: Option<String>,
) -> crate::error::ApiResult<Matched> {
    let addr = crate::auth::request_address(req, &state.config.trusted_proxies);
    let email = email.trim().to_lowercase();
    // count the attempt (shared by every instance) and look the account up, in one
    // transaction: when it fails nothing was counted
    let (st, acct, at, dev) = (state.clone(), email.clone(), addr.clone(), device.clone());
    let (known, allowed, user) = state
        .tx(move |c| {
            let now = crate::services::date::now_utc();
            crate::services::users::attempt_login(c, &st.throttle, &acct, &at, dev.as_deref(), now)
        })
        .await?;
    // the rows of windows that are over go away at every login attempt (an indexed read that
    // usually finds none), also during an attack that never logs in
    let st = state.clone();
    state
        .db(move |c| st.throttle.sweep(c, crate::services::date::now_utc()))
        .await?;
    // Exactly one argon2 verification for every account state (unknown, disabled, throttled,
    // wrong or right password), so the answer's timing does not tell them apart.
    let st = state.clone();
    let ok_user = actix_web::web::block(move || {
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
    Ok(Matched {
        user,
        email,
        origin: crate::services::refresh_tokens::Origin {
            address: addr,
            device,
            known,
        },
    })
}
