//! Staying signed in: refresh tokens, rotated at every use, in families that end together
//! (docs/decisions/0215-refresh-tokens.md), with a grace period for a retried refresh
//! (docs/decisions/0387-refresh-grace.md). A login's token is 256 bits from the operating
//! system's random source; a successor is derived from the token it replaces and a fresh
//! random seed, which the spent token's row keeps, so that a retry within the grace period
//! answers the same successor. Only SHA-256 hashes of tokens are stored. Every function takes
//! the time `now` from its caller, so expiry and the grace period are tested without waiting.

use crate::error::{ApiError, ApiResult};
use crate::ids::UserId;
use crate::services::known_logins;
use crate::services::throttle::Throttle;
use crate::store::DbConn;
use crate::store::models::refresh_tokens::{self, NewRefreshToken};
use crate::store::models::users::{self, User};
use base64::Engine;
use chrono::NaiveDateTime;

/// The prefix of every refresh token (it tells a refresh token from a JWT at a glance).
pub const PREFIX: &str = "ccr_";

/// The longest `refresh_token` a request may hold (an issued one has 47 characters).
pub const MAX_TOKEN_LEN: usize = 128;

/// Spent tokens kept per family for reuse detection; an older one is refused as unknown.
pub const KEEP_SPENT: i64 = 16;

/// Expired tokens deleted at most per login.
pub const PURGE_BATCH: i64 = 500;

/// How long a token lives and how many sessions an account may hold.
#[derive(Debug, Clone, Copy)]
pub struct Policy {
    /// Lifetime of each token from its issue (`REFRESH_TTL_DAYS`); a refresh issues a new
    /// one, so an app used within this time stays signed in.
    pub ttl: chrono::Duration,
    /// Live families (signed-in devices) per account (`REFRESH_MAX_SESSIONS`); a login
    /// beyond it ends the least recently used one.
    pub max_sessions: usize,
    /// How long after a refresh the token it spent still answers its successor
    /// (`REFRESH_GRACE_SECONDS`; zero: not at all).
    pub grace: chrono::Duration,
}

/// A refresh token just issued, and the account it is for.
#[derive(Debug)]
pub struct Issued {
    /// The account (as stored now: roles and token generation for the access token).
    pub user: User,
    /// The token, shown to the client once.
    pub token: String,
    /// When it expires.
    pub expires_at: NaiveDateTime,
    /// When it was issued (the access token answered with it is issued then too, so that a
    /// retry within the grace period answers the same access token).
    pub issued_at: NaiveDateTime,
}

/// Why a refresh is refused (401); what the refusal ended is committed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Unknown, expired or ended token, or an account that changed; the reason in words.
    Invalid(&'static str),
    /// A token that was already exchanged: its family is ended.
    Reused,
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        match r {
            Refusal::Invalid(why) => ApiError::RefreshTokenInvalid(why.into()),
            Refusal::Reused => ApiError::RefreshTokenReused(
                "refresh token used twice: every session of this login is ended; log in again"
                    .into(),
            ),
        }
    }
}

/// The stored form of a token: lower-case hex SHA-256.
pub fn hash(token: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// 32 random bytes in unpadded base64url.
fn random_text() -> ApiResult<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| ApiError::Internal(format!("no randomness for a refresh token: {e}")))?;
    Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes))
}

/// The successor of refresh token `spent` under `seed`: the SHA-256 of both, as a token.
/// Without the spent token (never stored) the seed tells nothing of it.
fn successor(spent: &str, seed: &str) -> String {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    h.update(b"clubcomp refresh successor\0");
    h.update(seed.as_bytes());
    h.update(b"\0");
    h.update(spent.as_bytes());
    format!(
        "{PREFIX}{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(h.finalize())
    )
}

fn issue(
    c: &mut DbConn,
    user: User,
    family: &str,
    generation: i64,
    now: NaiveDateTime,
    policy: &Policy,
    token: String,
) -> ApiResult<Issued> {
    let expires_at = now + policy.ttl;
    refresh_tokens::insert(
        c,
        &NewRefreshToken {
            user_id: user.id,
            family,
            token_hash: &hash(&token),
            generation,
            created_at: now,
            expires_at,
        },
    )?;
    Ok(Issued {
        user,
        token,
        expires_at,
        issued_at: now,
    })
}

/// Starts a new family for user `user_id` after a login (in the caller's transaction): ends
/// the least recently used families beyond `policy.max_sessions` and deletes up to
/// [`PURGE_BATCH`] expired tokens of any account.
pub fn start(
    c: &mut DbConn,
    user_id: UserId,
    now: NaiveDateTime,
    policy: &Policy,
) -> ApiResult<Issued> {
    let user = users::by_id(c, user_id)?
        .filter(|u| u.active)
        .ok_or_else(|| ApiError::Unauthorized("the account is disabled or gone".into()))?;
    refresh_tokens::purge_expired(c, now, PURGE_BATCH)?;
    let live = refresh_tokens::live_families(c, user.id, now)?;
    let over = (live.len() + 1).saturating_sub(policy.max_sessions.max(1));
    for family in live.iter().take(over) {
        refresh_tokens::revoke_family(c, family, now)?;
    }
    let family = uuid::Uuid::new_v4().simple().to_string();
    let generation = user.token_generation;
    issue(
        c,
        user,
        &family,
        generation,
        now,
        policy,
        format!("{PREFIX}{}", random_text()?),
    )
}

/// Where a login whose password matched came from: the client's address, the device token
/// it sent (if any) and what [`crate::services::users::attempt_login`] found of them.
#[derive(Debug)]
pub struct Origin {
    /// The client address the attempt was counted against.
    pub address: String,
    /// The device token sent, if any.
    pub device: Option<String>,
    /// Whether the device and the address were known.
    pub known: known_logins::Known,
}

/// Completes a login whose password matched, in the caller's transaction: the attempt
/// `throttle` counted is taken back as a success ([`Throttle::forgive`]), the device and the
/// address are remembered ([`known_logins::remember`]) and a new family starts for user
/// `user_id` ([`start`]). Returns the tokens and the device token to hand back.
pub fn complete_login(
    c: &mut DbConn,
    throttle: &Throttle,
    account: &str,
    origin: &Origin,
    user_id: UserId,
    now: NaiveDateTime,
    policy: &Policy,
) -> ApiResult<(Issued, String)> {
    throttle.forgive(c, account, &origin.address, origin.known.any(), true)?;
    let device = known_logins::remember(
        c,
        account,
        origin.device.as_deref(),
        origin.known,
        &origin.address,
        now,
    )?;
    Ok((start(c, user_id, now, policy)?, device))
}

/// Completes a club page's sign-in whose password matched, in the caller's transaction: as
/// [`complete_login`], without a refresh token (the page's cookie is the sign-in,
/// docs/decisions/0347-signing-in-on-the-club-pages.md).
pub fn complete_page_login(
    c: &mut DbConn,
    throttle: &Throttle,
    account: &str,
    origin: &Origin,
    now: NaiveDateTime,
) -> ApiResult<()> {
    throttle.forgive(c, account, &origin.address, origin.known.any(), true)?;
    known_logins::remember(
        c,
        account,
        origin.device.as_deref(),
        origin.known,
        &origin.address,
        now,
    )?;
    Ok(())
}

/// [`refresh`] from `address`, counted by `throttle` ([`Throttle::attempt_refresh`]): a
/// refusal counts as a failure of the address, a success is taken back. `Err(seconds)` when
/// the address has used up its failed refreshes (nothing else happens then).
pub fn refresh_from(
    c: &mut DbConn,
    throttle: &Throttle,
    address: &str,
    token: &str,
    now: NaiveDateTime,
    policy: &Policy,
) -> ApiResult<Result<Result<Issued, Refusal>, u64>> {
    if let Err(wait) = throttle.attempt_refresh(c, address, now)? {
        return Ok(Err(wait));
    }
    let outcome = refresh(c, token, now, policy)?;
    if outcome.is_ok() {
        throttle.forgive_refresh(c, address)?;
    }
    Ok(Ok(outcome))
}

/// Exchanges a refresh token for its successor (in the caller's transaction). The token is
/// spent by one conditional update, so of two concurrent exchanges one spends it; the other,
/// and any retry within `policy.grace` of the exchange, answers the same successor while it is
/// unspent. Any other use of a spent token ends the whole family
/// ([`Refusal::Reused`]). A token of an account that was disabled, or whose password was
/// reset, since the login is refused and its family ended. The refusal is returned as a value
/// so that the caller commits what it ended.
pub fn refresh(
    c: &mut DbConn,
    token: &str,
    now: NaiveDateTime,
    policy: &Policy,
) -> ApiResult<Result<Issued, Refusal>> {
    let h = hash(token);
    let seed = random_text()?;
    if refresh_tokens::spend(c, &h, now, &seed)? == 0 {
        let Some(row) = refresh_tokens::by_hash(c, &h)? else {
            return Ok(Err(Refusal::Invalid("unknown refresh token; log in again")));
        };
        if row.revoked_at.is_some() {
            return Ok(Err(Refusal::Invalid("the session has ended; log in again")));
        }
        let Some(spent_at) = row.spent_at else {
            return Ok(Err(Refusal::Invalid(
                "the refresh token has expired; log in again",
            )));
        };
        if policy.grace > chrono::Duration::zero()
            && now - spent_at <= policy.grace
            && let Some(again) = retried(c, token, &row, now)?
        {
            return Ok(Ok(again));
        }
        refresh_tokens::revoke_family(c, &row.family, now)?;
        return Ok(Err(Refusal::Reused));
    }
    let row = refresh_tokens::by_hash(c, &h)?
        .ok_or_else(|| ApiError::Internal("a spent refresh token vanished".into()))?;
    let user =
        users::by_id(c, row.user_id)?.filter(|u| u.active && u.token_generation == row.generation);
    let Some(user) = user else {
        refresh_tokens::revoke_family(c, &row.family, now)?;
        return Ok(Err(Refusal::Invalid(
            "the account was disabled or its password was reset; log in again",
        )));
    };
    let next = successor(token, &seed);
    let issued = issue(c, user, &row.family, row.generation, now, policy, next)?;
    refresh_tokens::trim_family(c, &row.family, KEEP_SPENT)?;
    Ok(Ok(issued))
}

/// A refresh retried with the token `spent` (its row `row`), which was exchanged within the
/// grace period: its successor as it was issued, while that successor is unspent and live and
/// the account unchanged; `None` otherwise (the retry is a reuse then).
fn retried(
    c: &mut DbConn,
    spent: &str,
    row: &refresh_tokens::RefreshToken,
    now: NaiveDateTime,
) -> ApiResult<Option<Issued>> {
    let Some(seed) = row.successor_seed.as_deref() else {
        return Ok(None);
    };
    let token = successor(spent, seed);
    let Some(next) = refresh_tokens::by_hash(c, &hash(&token))? else {
        return Ok(None);
    };
    if next.spent_at.is_some() || next.revoked_at.is_some() || next.expires_at <= now {
        return Ok(None);
    }
    let user = users::by_id(c, next.user_id)?
        .filter(|u| u.active && u.token_generation == next.generation);
    Ok(user.map(|user| Issued {
        user,
        token,
        expires_at: next.expires_at,
        issued_at: next.created_at,
    }))
}

/// Ends the family of `token` (in the caller's transaction); nothing happens for a token
/// that is not known, so the answer does not tell whether it was.
pub fn logout(c: &mut DbConn, token: &str, now: NaiveDateTime) -> ApiResult<()> {
    if let Some(row) = refresh_tokens::by_hash(c, &hash(token))? {
        refresh_tokens::revoke_family(c, &row.family, now)?;
    }
    Ok(())
}

/// Ends every refresh-token family of user `user_id` (in the caller's transaction): no
/// device can refresh any more. Access tokens already issued run out within
/// `JWT_TTL_MINUTES` (docs/decisions/0215-refresh-tokens.md).
pub fn logout_all(c: &mut DbConn, user_id: UserId, now: NaiveDateTime) -> ApiResult<()> {
    refresh_tokens::revoke_user(c, user_id, now)?;
    Ok(())
}
