//! Accounts: creation with validated e-mail, password and roles; the bootstrap admin.

use crate::error::{ApiError, ApiResult, FieldError};
use crate::ids::{PlayerId, UserId};
use crate::services::credentials::{Role, format_roles, hash_password};
use crate::services::known_logins::{self, Known};
use crate::services::throttle::Throttle;
/// A stored account: the row is the record.
pub use crate::store::models::users::User;
use crate::store::models::users::{self, NewUser};
use crate::store::{DbConn, now_utc};
use chrono::NaiveDateTime;

pub mod rows;

/// Minimum password length.
pub const MIN_PASSWORD: usize = 8;

/// Checks an e-mail address loosely (one `@`, a dot in the domain, no spaces).
pub fn valid_email(email: &str) -> bool {
    let e = email.trim();
    match e.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !e.contains(char::is_whitespace)
                && e.len() <= 254
                && !domain.contains('@')
        }
        None => false,
    }
}

/// Validates and creates a user (422 naming each bad field; 409 when the e-mail is taken).
pub fn create_user(
    conn: &mut DbConn,
    email: &str,
    password: &str,
    roles: &[String],
) -> ApiResult<User> {
    let mut errs = Vec::new();
    if !valid_email(email) {
        errs.push(FieldError::new("email", "is not a valid e-mail address"));
    }
    if password.chars().count() < MIN_PASSWORD {
        errs.push(FieldError::new(
            "password",
            format!("must be at least {MIN_PASSWORD} characters"),
        ));
    }
    let parsed = parse_role_names(roles, &mut errs);
    if !errs.is_empty() {
        return Err(ApiError::validation(errs));
    }
    let email = email.trim().to_lowercase();
    if users::by_email(conn, &email)?.is_some() {
        return Err(ApiError::AlreadyExists {
            field: "email",
            detail: format!("email: a user with e-mail {email} exists"),
        });
    }
    let hash = hash_password(password)?;
    let now = now_utc();
    Ok(rows::insert(
        conn,
        &NewUser {
            email: &email,
            password_hash: &hash,
            roles: &format_roles(&parsed),
            active: true,
            created_at: now,
            updated_at: now,
        },
    )?)
}

/// Parses role names, adding a field error for each unknown one and for an empty list.
pub fn parse_role_names(roles: &[String], errs: &mut Vec<FieldError>) -> Vec<Role> {
    let mut out = Vec::new();
    if roles.is_empty() {
        errs.push(FieldError::new("roles", "must name at least one role"));
    }
    for (i, r) in roles.iter().enumerate() {
        match Role::parse(r) {
            Some(role) => out.push(role),
            None => errs.push(FieldError::new(
                format!("roles[{i}]"),
                format!("unknown role {r:?} (admin, leader, arbiter, member, rating_sync)"),
            )),
        }
    }
    out
}

/// The password of the demo club's accounts (`clubcomp demo`). It is printed and documented,
/// so an account that still holds it is open to anyone.
pub const DEMO_PASSWORD: &str = "demo-password";

/// Creates the bootstrap admin when no account with that e-mail exists yet. An account of
/// that e-mail that still holds the public demo password (the demo club was seeded before the
/// first start) takes the bootstrap password and the admin role, so the configured password
/// works whichever ran first (docs/decisions/0380-demo-around-today.md); any other existing
/// account is left as it is.
pub fn bootstrap_admin(conn: &mut DbConn, email: &str, password: &str) -> ApiResult<()> {
    let Some(u) = users::by_email(conn, email)? else {
        create_user(conn, email, password, &["admin".to_string()])?;
        tracing::info!(email = %email.to_lowercase(), "bootstrap admin created");
        return Ok(());
    };
    if password == DEMO_PASSWORD
        || !crate::services::credentials::verify_password(DEMO_PASSWORD, &u.password_hash)
    {
        return Ok(());
    }
    let mut roles = crate::services::credentials::parse_roles(&u.roles);
    if !roles.contains(&Role::Admin) {
        roles.push(Role::Admin);
    }
    let now = now_utc();
    rows::set_password_hash(conn, u.id, &hash_password(password)?, now)?;
    rows::update(
        conn,
        u.id,
        &users::UserUpdate {
            // the password change above raised the generation: keep it
            token_generation: u.token_generation + 1,
            player_id: u.player_id,
            roles: format_roles(&roles),
            active: true,
            updated_at: now,
        },
    )?;
    tracing::info!(email = %u.email, "bootstrap admin took over the demo account");
    Ok(())
}

/// Changes to an account, as requested.
#[derive(Debug, Default)]
pub struct UserChanges {
    /// New role names (replace the old list).
    pub roles: Option<Vec<String>>,
    /// Enable or disable the account.
    pub active: Option<bool>,
    /// Link to a player (`Some(None)` unlinks).
    pub player_id: Option<Option<PlayerId>>,
}

/// Changes an account in the caller's transaction; `me` is the admin making the change, who
/// cannot disable or demote their own account (409). Disabling and re-enabling end every
/// token issued before, refresh tokens included; a role change ends none (roles are read from
/// the account at every request and every refresh).
pub fn update_user(
    c: &mut DbConn,
    id: UserId,
    me: Option<UserId>,
    ch: UserChanges,
) -> ApiResult<User> {
    let mut errs: Vec<FieldError> = Vec::new();
    let roles = ch.roles.as_ref().map(|r| parse_role_names(r, &mut errs));
    if !errs.is_empty() {
        return Err(ApiError::validation(errs));
    }
    let existing =
        users::by_id(c, id)?.ok_or_else(|| ApiError::NotFound(format!("no user {id}")))?;
    if me == Some(id)
        && (ch.active == Some(false) || roles.as_ref().is_some_and(|r| !r.contains(&Role::Admin)))
    {
        return Err(ApiError::Conflict(
            "an admin cannot disable or demote their own account".into(),
        ));
    }
    if let Some(Some(pid)) = ch.player_id
        && crate::store::models::players::by_id(c, pid)?.is_none()
    {
        return Err(ApiError::invalid("player_id", format!("no player {pid}")));
    }
    // disabling and re-enabling end every token issued before
    let active = ch.active.unwrap_or(existing.active);
    let generation = existing.token_generation + i64::from(active != existing.active);
    if generation != existing.token_generation {
        crate::store::models::refresh_tokens::revoke_user(c, existing.id, now_utc())?;
    }
    rows::update(
        c,
        existing.id,
        &users::UserUpdate {
            token_generation: generation,
            player_id: ch.player_id.unwrap_or(existing.player_id),
            roles: roles.map(|r| format_roles(&r)).unwrap_or(existing.roles),
            active,
            updated_at: now_utc(),
        },
    )?;
    users::by_id(c, id)?.ok_or_else(|| ApiError::NotFound(format!("no user {id}")))
}

/// Sets an account's password hash and ends every token issued to it before, refresh tokens
/// included (404 when there is no such account).
pub fn set_password_hash(c: &mut DbConn, id: UserId, hash: &str) -> ApiResult<()> {
    let now = now_utc();
    if rows::set_password_hash(c, id, hash, now)? == 0 {
        return Err(ApiError::NotFound(format!("no user {id}")));
    }
    crate::store::models::refresh_tokens::revoke_user(c, id, now)?;
    Ok(())
}

/// One page of the accounts and their total, from one snapshot so the page agrees.
pub fn page(c: &mut DbConn, limit: i64, offset: i64) -> ApiResult<(Vec<User>, i64)> {
    crate::store::snapshot(c, |c| Ok(users::list(c, limit, offset)?))
}

/// The account with this e-mail address, if any.
pub fn by_email(c: &mut DbConn, email: &str) -> ApiResult<Option<User>> {
    Ok(users::by_email(c, email)?)
}

/// Starts a login to `account` from `address` at `now` (run it in a transaction, committed
/// before the password is checked), with the device token the client sent, if any: whether
/// the device or the address signed in to the account before
/// ([`crate::services::known_logins`]), the attempt counted by `throttle`
/// ([`Throttle::attempt`]: `Err(seconds)` when refused; a known one is not held back by the
/// account-wide count) and the account, if there is one.
pub fn attempt_login(
    c: &mut DbConn,
    throttle: &Throttle,
    account: &str,
    address: &str,
    device: Option<&str>,
    now: NaiveDateTime,
) -> ApiResult<(Known, Result<(), u64>, Option<User>)> {
    let known = known_logins::known(c, account, device, address, now)?;
    let allowed = throttle.attempt(c, account, address, known.any(), now)?;
    let user = by_email(c, account)?;
    Ok((known, allowed, user))
}
