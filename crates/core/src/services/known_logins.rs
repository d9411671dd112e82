//! The devices and addresses an account signed in from
//! ([decision 0257](../../docs/decisions/0257-no-lock-out-from-a-known-device.md)): a login
//! from one of them is not held back by the account-wide count of failed logins
//! ([`crate::services::throttle`]), so strangers guessing from many addresses cannot lock the
//! owner out. A device proves itself with the device token its last login handed out (a
//! cookie, or the value sent back in the body or `X-Device-Token`); a client that keeps
//! neither is recognised by its address (an IPv6 address by its /64). Only SHA-256 hashes
//! are kept, at most [`MAX_PER_ACCOUNT`] per account, each for [`KEEP_DAYS`] after its last
//! sign-in.

use crate::error::{ApiError, ApiResult};
use crate::services::throttle::address_key;
use crate::store::DbConn;
use crate::store::schema::known_logins as kl;
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
    let update = |c: &mut DbConn| {
        diesel::update(kl::table.find(key))
            .set((kl::last_seen.eq(now), kl::expires.eq(expires)))
            .execute(c)
    };
    if update(c)? == 0 {
        // a concurrent sign-in of the same device may insert it first (unique key): the
        // insert runs in a savepoint, and the row it lost to is updated instead
        let made = c.transaction(|c| {
            diesel::insert_into(kl::table)
                .values((
                    kl::key.eq(key),
                    kl::account.eq(account),
                    kl::last_seen.eq(now),
                    kl::expires.eq(expires),
                ))
                .execute(c)
        });
        if made.is_err() {
            update(c)?;
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn db() -> (tempfile::TempDir, DbConn) {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("k.sqlite3").display());
        let mut c = crate::store::DbTarget::parse(&url)
            .unwrap()
            .connect()
            .unwrap();
        crate::store::run_migrations(&mut c).unwrap();
        (dir, c)
    }

    /// Minute `m` of an evening.
    fn at(m: i64) -> NaiveDateTime {
        chrono::NaiveDate::from_ymd_opt(2026, 11, 27)
            .unwrap()
            .and_hms_opt(20, 0, 0)
            .unwrap()
            + chrono::Duration::minutes(m)
    }

    const NONE: Known = Known {
        device: false,
        address: false,
    };

    #[test]
    fn a_device_and_an_address_are_known_after_a_sign_in_for_that_account_only() {
        let (_d, mut c) = db();
        let k = known(&mut c, "a@x", None, "192.0.2.1", at(0)).unwrap();
        assert_eq!(k, NONE);
        let token = remember(&mut c, "A@x", None, k, "192.0.2.1", at(0)).unwrap();
        assert!(token.starts_with(PREFIX) && token.len() == 47, "{token}");
        let k = known(&mut c, "a@x", Some(&token), "198.51.100.1", at(1)).unwrap();
        assert_eq!((k.device, k.address), (true, false));
        let k = known(&mut c, "a@x", None, "192.0.2.1", at(1)).unwrap();
        assert_eq!((k.device, k.address), (false, true));
        // another account knows neither
        let k = known(&mut c, "b@x", Some(&token), "192.0.2.1", at(1)).unwrap();
        assert_eq!(k, NONE);
        // a known device keeps its token; an address of the same /64 is the same address
        let k = known(&mut c, "a@x", Some(&token), "192.0.2.1", at(2)).unwrap();
        assert_eq!(
            remember(&mut c, "a@x", Some(&token), k, "2001:db8::1", at(2)).unwrap(),
            token
        );
        let k = known(&mut c, "a@x", None, "2001:db8:0:0:ffff::2", at(3)).unwrap();
        assert!(k.address);
        // only hashes are stored
        let keys: Vec<(String, String)> = kl::table
            .select((kl::key, kl::account))
            .load(&mut c)
            .unwrap();
        for (key, account) in keys {
            assert_eq!((key.len(), account.len()), (64, 64));
            assert!(!key.contains("192.0.2") && !account.contains('@'));
        }
    }

    #[test]
    fn an_account_keeps_its_twenty_latest_and_forgets_them_after_ninety_days() {
        let (_d, mut c) = db();
        // 15 sign-ins from 15 addresses: 30 devices and addresses seen, 20 kept
        for i in 0..15 {
            let addr = format!("192.0.2.{}", i + 1);
            remember(&mut c, "a@x", None, NONE, &addr, at(i)).unwrap();
        }
        assert_eq!(count(&mut c, "a@x").unwrap(), MAX_PER_ACCOUNT);
        let knows = |c: &mut DbConn, addr: &str, m: i64| {
            known(c, "a@x", None, addr, at(m)).unwrap().address
        };
        assert!(!knows(&mut c, "192.0.2.1", 20), "the oldest went");
        assert!(knows(&mut c, "192.0.2.15", 20));
        let day = 24 * 60;
        assert!(knows(&mut c, "192.0.2.15", 14 + KEEP_DAYS * day - 1));
        assert!(!knows(&mut c, "192.0.2.15", 14 + KEEP_DAYS * day));
    }
}
