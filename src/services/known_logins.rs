//! The devices and addresses an account signed in from
//! ([decision 0257](../../docs/decisions/0257-no-lock-out-from-a-known-device.md)): a login
//! from one of them is not held back by the account-wide count of failed logins
//! ([`crate::services::throttle`]), so strangers guessing from many addresses cannot lock the
//! owner out. A device proves itself with the device token its last login handed out (a
//! cookie, or the value sent back in the body or `X-Device-Token`); a client that keeps
//! neither is recognised by its address (an IPv6 address by its /64). Only SHA-256 hashes
//! are kept, at most [`MAX_PER_ACCOUNT`] per account, each for [`KEEP_DAYS`] after its last
//! sign-in.

use crate::db::DbConn;
use crate::db::schema::known_logins as kl;
use crate::error::{ApiError, ApiResult};
use crate::services::throttle::address_key;
use base64::Engine as _;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// The most devices and addresses kept per account; a sign-in beyond it forgets the one
/// seen longest ago.
pub const MAX_PER_ACCOUNT: i64 = 20;
/// How long a device or address stays known after its last sign-in, in days.
pub const KEEP_DAYS: i64 = 90;
/// The longest device token accepted (the ones handed out are 47 characters).
pub const MAX_TOKEN_LEN: usize = 128;
/// The prefix of a device token.
const PREFIX: &str = "ccd_";

/// Lower-case hex SHA-256.
fn hash(text: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn account_key(account: &str) -> String {
    hash(&format!("account|{}", account.to_lowercase()))
}

fn device_key(account: &str, token: &str) -> String {
    hash(&format!("device|{}|{token}", account.to_lowercase()))
}

fn address_row_key(account: &str, address: &str) -> String {
    hash(&format!(
        "address|{}|{}",
        account.to_lowercase(),
        address_key(address)
    ))
}

/// What a login attempt proved about where it comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Known {
    /// The device token sent is one this account handed out and still knows.
    pub device: bool,
    /// The address (its /64 for IPv6) signed in to this account before.
    pub address: bool,
}

impl Known {
    /// Either one: the account-wide count does not hold the attempt back.
    pub fn any(self) -> bool {
        self.device || self.address
    }
}

fn live(c: &mut DbConn, key: &str, now: NaiveDateTime) -> ApiResult<bool> {
    let n: i64 = kl::table
        .filter(kl::key.eq(key))
        .filter(kl::expires.gt(now))
        .count()
        .get_result(c)?;
    Ok(n > 0)
}

/// Whether `device` (a device token, if one was sent) and `address` are known for `account`
/// at `now`.
pub fn known(
    c: &mut DbConn,
    account: &str,
    device: Option<&str>,
    address: &str,
    now: NaiveDateTime,
) -> ApiResult<Known> {
    let device = match device {
        Some(t) if t.len() <= MAX_TOKEN_LEN && t.starts_with(PREFIX) => {
            live(c, &device_key(account, t), now)?
        }
        _ => false,
    };
    let address = live(c, &address_row_key(account, address), now)?;
    Ok(Known { device, address })
}

fn touch(c: &mut DbConn, key: &str, account: &str, now: NaiveDateTime) -> ApiResult<()> {
    let expires = now + chrono::Duration::days(KEEP_DAYS);
    let updated = diesel::update(kl::table.find(key))
        .set((kl::last_seen.eq(now), kl::expires.eq(expires)))
        .execute(c)?;
    if updated == 0 {
        diesel::insert_into(kl::table)
            .values((
                kl::key.eq(key),
                kl::account.eq(account),
                kl::last_seen.eq(now),
                kl::expires.eq(expires),
            ))
            .execute(c)?;
    }
    Ok(())
}

/// Records a successful sign-in to `account` from `address` (in the login's transaction): the
/// address is known from now on, and so is the device, by the token it sent when that one is
/// known (`known.device`), else by a new one. Returns the device token to hand back. The
/// account keeps its [`MAX_PER_ACCOUNT`] most recently seen devices and addresses; expired
/// ones go.
pub fn remember(
    c: &mut DbConn,
    account: &str,
    device: Option<&str>,
    known: Known,
    address: &str,
    now: NaiveDateTime,
) -> ApiResult<String> {
    let token = match device {
        Some(t) if known.device => t.to_string(),
        _ => new_token()?,
    };
    let acct = account_key(account);
    touch(c, &address_row_key(account, address), &acct, now)?;
    touch(c, &device_key(account, &token), &acct, now)?;
    diesel::delete(
        kl::table
            .filter(kl::account.eq(&acct))
            .filter(kl::expires.le(now)),
    )
    .execute(c)?;
    let keep: Vec<String> = kl::table
        .filter(kl::account.eq(&acct))
        .order((kl::last_seen.desc(), kl::key))
        .select(kl::key)
        .limit(MAX_PER_ACCOUNT)
        .load(c)?;
    diesel::delete(
        kl::table
            .filter(kl::account.eq(&acct))
            .filter(kl::key.ne_all(keep)),
    )
    .execute(c)?;
    Ok(token)
}

/// The devices and addresses kept for `account` now.
pub fn count(c: &mut DbConn, account: &str) -> ApiResult<i64> {
    Ok(kl::table
        .filter(kl::account.eq(account_key(account)))
        .count()
        .get_result(c)?)
}

fn new_token() -> ApiResult<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| ApiError::Internal(format!("no randomness for a device token: {e}")))?;
    Ok(format!(
        "{PREFIX}{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
    ))
}
