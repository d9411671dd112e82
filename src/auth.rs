//! Authentication and authorization: argon2id password hashes, HS256 JWTs with an explicit
//! validation (algorithm, `exp`, `iss`), and role checks as extractors, so that a handler
//! states its roles in its signature (`Auth<Leader>`). Every token is checked against the
//! database on use: a disabled user or a revoked service token stops working at once.

use crate::app::AppState;
use crate::db::models::{service_tokens, users};
use crate::error::ApiError;
use actix_web::{FromRequest, HttpRequest, dev::Payload, web};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::time::Duration;

/// A role (docs/rules/README.md#people-and-roles). A user can hold several.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
    PartialOrd,
    Ord,
)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The operator: users, roles, service tokens.
    Admin,
    /// The competition leader.
    Leader,
    /// The arbiter on the night.
    Arbiter,
    /// A club member.
    Member,
    /// A rating-sync job.
    RatingSync,
}

impl Role {
    /// All roles.
    pub const ALL: [Role; 5] = [
        Role::Admin,
        Role::Leader,
        Role::Arbiter,
        Role::Member,
        Role::RatingSync,
    ];

    /// The role's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Leader => "leader",
            Role::Arbiter => "arbiter",
            Role::Member => "member",
            Role::RatingSync => "rating_sync",
        }
    }

    /// Parses a role name.
    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == s.trim())
    }
}

/// Parses a stored comma-separated role list (unknown names are ignored).
pub fn parse_roles(s: &str) -> Vec<Role> {
    let mut v: Vec<Role> = s.split(',').filter_map(Role::parse).collect();
    v.sort();
    v.dedup();
    v
}

/// Formats roles for storage.
pub fn format_roles(roles: &[Role]) -> String {
    let mut v = roles.to_vec();
    v.sort();
    v.dedup();
    v.iter().map(|r| r.as_str()).collect::<Vec<_>>().join(",")
}

/// Hashes a password with argon2id (random salt).
pub fn hash_password(password: &str) -> Result<String, ApiError> {
    use argon2::PasswordHasher;
    argon2::Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| ApiError::Internal(format!("password hashing failed: {e}")))
}

/// Checks a password against a stored hash (false on any mismatch or malformed hash).
pub fn verify_password(password: &str, hash: &str) -> bool {
    use argon2::PasswordVerifier;
    use argon2::password_hash::phc::PasswordHash;
    match PasswordHash::new(hash) {
        Ok(parsed) => argon2::Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    }
}

/// The claims of a clubcomp token.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claims {
    /// `user:<id>` or `service:<id>`.
    pub sub: String,
    /// Issuer.
    pub iss: String,
    /// Issued at (seconds since the epoch).
    pub iat: i64,
    /// Expires at (seconds since the epoch).
    pub exp: i64,
    /// Roles at issue time (informative; the database is authoritative).
    pub roles: Vec<Role>,
}

/// Signing and verification keys.
#[derive(Clone)]
pub struct JwtKeys {
    enc: EncodingKey,
    dec: DecodingKey,
    issuer: String,
}

impl std::fmt::Debug for JwtKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwtKeys")
            .field("issuer", &self.issuer)
            .finish_non_exhaustive()
    }
}

impl JwtKeys {
    /// Keys from a secret.
    pub fn new(secret: &[u8], issuer: &str) -> Result<JwtKeys, String> {
        Ok(JwtKeys {
            enc: EncodingKey::from_secret(secret).map_err(|e| format!("JWT key: {e}"))?,
            dec: DecodingKey::from_secret(secret).map_err(|e| format!("JWT key: {e}"))?,
            issuer: issuer.to_string(),
        })
    }

    /// Issues a token for a subject with a lifetime.
    pub fn issue(
        &self,
        sub: String,
        roles: Vec<Role>,
        ttl: chrono::Duration,
    ) -> Result<(String, i64), ApiError> {
        let now = chrono::Utc::now().timestamp();
        let exp = now + ttl.num_seconds();
        let claims = Claims {
            sub,
            iss: self.issuer.clone(),
            iat: now,
            exp,
            roles,
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.enc)
            .map(|t| (t, exp))
            .map_err(|e| ApiError::Internal(format!("token signing failed: {e}")))
    }

    /// Verifies signature (HS256 only), expiry and issuer.
    pub fn verify(&self, token: &str) -> Result<Claims, ApiError> {
        let mut v = Validation::new(Algorithm::HS256);
        v.set_issuer(&[&self.issuer]);
        v.set_required_spec_claims(&["exp", "iss", "sub", "iat"]);
        v.leeway = 0;
        jsonwebtoken::decode::<Claims>(token, &self.dec, &v)
            .map(|d| d.claims)
            .map_err(|e| ApiError::Unauthorized(format!("invalid token: {e}")))
    }
}

/// Who is calling, after the token was checked against the database.
#[derive(Debug, Clone)]
pub struct Principal {
    /// The user id, for user tokens.
    pub user_id: Option<i64>,
    /// The service-token id, for service tokens.
    pub service_token_id: Option<i64>,
    /// A label for audits (`e-mail` or `service:<name>`).
    pub label: String,
    /// Current roles.
    pub roles: Vec<Role>,
    /// The player linked to the user account, if any.
    pub player_id: Option<i64>,
}

impl Principal {
    /// Whether the principal holds any of `roles`.
    pub fn has_any(&self, roles: &[Role]) -> bool {
        self.roles.iter().any(|r| roles.contains(r))
    }
}

/// Resolves a bearer token to a principal (401 on any failure).
pub fn authenticate(
    conn: &mut crate::db::DbConn,
    keys: &JwtKeys,
    token: &str,
) -> Result<Principal, ApiError> {
    let claims = keys.verify(token)?;
    if let Some(id) = claims.sub.strip_prefix("user:") {
        let id: i64 = id
            .parse()
            .map_err(|_| ApiError::Unauthorized("invalid token subject".into()))?;
        let user = users::by_id(conn, id)?
            .filter(|u| u.active)
            .ok_or_else(|| ApiError::Unauthorized("the account is disabled or gone".into()))?;
        return Ok(Principal {
            user_id: Some(user.id),
            service_token_id: None,
            label: user.email.clone(),
            roles: parse_roles(&user.roles),
            player_id: user.player_id,
        });
    }
    if let Some(id) = claims.sub.strip_prefix("service:") {
        let id: i64 = id
            .parse()
            .map_err(|_| ApiError::Unauthorized("invalid token subject".into()))?;
        let t = service_tokens::by_id(conn, id)?
            .filter(|t| t.revoked_at.is_none())
            .ok_or_else(|| ApiError::Unauthorized("the service token is revoked".into()))?;
        return Ok(Principal {
            user_id: None,
            service_token_id: Some(t.id),
            label: format!("service:{}", t.name),
            roles: parse_roles(&t.roles),
            player_id: None,
        });
    }
    Err(ApiError::Unauthorized("invalid token subject".into()))
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

async fn principal_from(req: &HttpRequest) -> Result<Option<Principal>, ApiError> {
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
    let p = web::block(move || -> Result<Principal, ApiError> {
        let mut conn = state.pool.get()?;
        authenticate(&mut conn, &state.jwt, &token)
    })
    .await??;
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

/// Failed-login throttling per account and per client address, kept in the database
/// (`login_attempts`), so every instance on it counts the same attempts.
#[derive(Debug)]
pub struct Throttle {
    window: Duration,
    max_per_account: u32,
    max_per_address: u32,
}

/// The client's address for throttling: the peer's, unless the peer is a trusted proxy
/// (`TRUSTED_PROXIES`); then the nearest address in `X-Forwarded-For` (read from the right,
/// as each proxy appends the address it saw) that is not itself a trusted proxy. Entries a
/// client wrote itself lie to the left of that one and are never used, so an untrusted client
/// cannot choose its address; without trusted proxies the header is ignored.
pub fn client_address<'a>(
    peer: Option<std::net::IpAddr>,
    forwarded_for: impl Iterator<Item = &'a str>,
    trusted: &[std::net::IpAddr],
) -> String {
    let Some(peer) = peer else {
        return "unknown".into();
    };
    if !trusted.contains(&peer) {
        return peer.to_string();
    }
    let hops: Vec<&str> = forwarded_for
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    let mut client = peer;
    for hop in hops.iter().rev() {
        match hop.parse::<std::net::IpAddr>() {
            Ok(ip) => {
                client = ip;
                if !trusted.contains(&ip) {
                    break;
                }
            }
            // unreadable: stop at the last address a trusted proxy vouched for
            Err(_) => break,
        }
    }
    client.to_string()
}

impl Throttle {
    /// A throttle allowing `max_per_account` failures per account and 4× that per address
    /// within 15 minutes.
    pub fn new(max_per_account: u32) -> Throttle {
        Throttle {
            window: Duration::from_secs(15 * 60),
            max_per_account,
            max_per_address: max_per_account.saturating_mul(4),
        }
    }

    fn keys(account: &str, address: &str) -> [String; 2] {
        [
            format!("acct:{}", account.to_lowercase()),
            format!("addr:{address}"),
        ]
    }

    /// Starts a login attempt at `now` (run it in a transaction): `Ok(Err(seconds))` when the
    /// account or the address has used up its failures in the window; else the attempt is
    /// counted as a failure at once (until [`Throttle::forgive`]). Each key's row is locked by
    /// the first statement (a row lock on Postgres; SQLite holds the write lock), so concurrent
    /// attempts, in any instance, cannot all pass the check before any of them failed.
    pub fn attempt(
        &self,
        c: &mut crate::db::DbConn,
        account: &str,
        address: &str,
        now: chrono::NaiveDateTime,
    ) -> crate::error::ApiResult<Result<(), u64>> {
        use crate::db::schema::login_attempts as la;
        use diesel::prelude::*;
        let window = chrono::Duration::from_std(self.window).unwrap_or(chrono::Duration::MAX);
        let cutoff = now - window;
        let keys = Self::keys(account, address);
        let maxes = [self.max_per_account, self.max_per_address];
        let mut blocked = None;
        for (key, max) in keys.iter().zip(maxes) {
            // lock (or create) the key's row: a no-op update, else an insert that loses to a
            // concurrent one (unique key) inside a savepoint and then locks the row it made
            let locked = diesel::update(la::table.find(key))
                .set(la::attempts.eq(la::attempts))
                .execute(c)?;
            if locked == 0 {
                let made = c.transaction(|c| {
                    diesel::insert_into(la::table)
                        .values((la::key.eq(key), la::attempts.eq(0), la::since.eq(now)))
                        .execute(c)
                });
                if made.is_err() {
                    diesel::update(la::table.find(key))
                        .set(la::attempts.eq(la::attempts))
                        .execute(c)?;
                }
            }
            let (mut n, mut since): (i32, chrono::NaiveDateTime) = la::table
                .find(key)
                .select((la::attempts, la::since))
                .first(c)?;
            if since <= cutoff {
                // its window is over: a new one starts now
                diesel::update(la::table.find(key))
                    .set((la::attempts.eq(0), la::since.eq(now)))
                    .execute(c)?;
                (n, since) = (0, now);
            }
            if i64::from(n) >= i64::from(max) {
                let left = (since + window - now).num_seconds().max(1);
                blocked = Some(blocked.map_or(left, |b: i64| b.max(left)));
            }
        }
        if let Some(left) = blocked {
            return Ok(Err(u64::try_from(left).unwrap_or(1)));
        }
        diesel::update(la::table.filter(la::key.eq_any(&keys)))
            .set(la::attempts.eq(la::attempts + 1))
            .execute(c)?;
        Ok(Ok(()))
    }

    /// Deletes the rows whose window ended before `now` (at most 500), one row per statement
    /// and outside a transaction: a sweep never holds one row's lock while it waits for
    /// another's, so it cannot deadlock with a login attempt.
    pub fn sweep(
        &self,
        c: &mut crate::db::DbConn,
        now: chrono::NaiveDateTime,
    ) -> crate::error::ApiResult<usize> {
        use crate::db::schema::login_attempts as la;
        use diesel::prelude::*;
        let cutoff = now - chrono::Duration::from_std(self.window).unwrap_or(chrono::Duration::MAX);
        let old: Vec<String> = la::table
            .filter(la::since.le(cutoff))
            .select(la::key)
            .limit(500)
            .load(c)?;
        let mut gone = 0;
        for key in old {
            gone += diesel::delete(la::table.find(&key).filter(la::since.le(cutoff))).execute(c)?;
        }
        Ok(gone)
    }

    /// Takes back an attempt that did not fail: after a successful login (`success`: the
    /// account's failures are cleared as well), or when it could not be checked at all.
    pub fn forgive(
        &self,
        c: &mut crate::db::DbConn,
        account: &str,
        address: &str,
        success: bool,
    ) -> crate::error::ApiResult<()> {
        use crate::db::schema::login_attempts as la;
        use diesel::prelude::*;
        let [acct, addr] = Self::keys(account, address);
        if success {
            diesel::delete(la::table.find(&acct)).execute(c)?;
        }
        let take_back: Vec<&String> = if success {
            vec![&addr]
        } else {
            vec![&acct, &addr]
        };
        diesel::update(
            la::table
                .filter(la::key.eq_any(take_back))
                .filter(la::attempts.gt(0)),
        )
        .set(la::attempts.eq(la::attempts - 1))
        .execute(c)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_address_trusts_only_configured_proxies() {
        let ip = |s: &str| s.parse::<std::net::IpAddr>().unwrap();
        let proxy = ip("10.0.0.1");
        let trusted = [proxy, ip("10.0.0.2")];
        let addr = |peer: &str, xff: &[&str], t: &[std::net::IpAddr]| {
            client_address(Some(ip(peer)), xff.iter().copied(), t)
        };
        // no trusted proxies: the header is ignored
        assert_eq!(addr("10.0.0.1", &["203.0.113.9"], &[]), "10.0.0.1");
        // a client that is not a proxy cannot name its address
        assert_eq!(
            addr("198.51.100.7", &["203.0.113.9"], &trusted),
            "198.51.100.7"
        );
        // through the proxy: the address it appended
        assert_eq!(addr("10.0.0.1", &["203.0.113.9"], &trusted), "203.0.113.9");
        // a client's own entries lie left of what the proxies appended
        assert_eq!(
            addr("10.0.0.1", &["1.2.3.4, 203.0.113.9", "10.0.0.2"], &trusted),
            "203.0.113.9"
        );
        assert_eq!(
            addr("10.0.0.1", &["bogus, 203.0.113.9"], &trusted),
            "203.0.113.9"
        );
        // an unreadable hop next to the proxy: the proxy itself
        assert_eq!(
            addr("10.0.0.1", &["203.0.113.9, bogus"], &trusted),
            "10.0.0.1"
        );
        // no header: the proxy
        assert_eq!(addr("10.0.0.1", &[], &trusted), "10.0.0.1");
        assert_eq!(
            client_address(None, std::iter::empty(), &trusted),
            "unknown"
        );
        assert_eq!(addr("::1", &["2001:db8::5"], &[ip("::1")]), "2001:db8::5");
    }

    #[test]
    fn roles_round_trip() {
        let r = parse_roles("leader,admin,bogus,leader");
        assert_eq!(r, vec![Role::Admin, Role::Leader]);
        assert_eq!(format_roles(&r), "admin,leader");
    }

    #[test]
    fn tokens_verify_and_reject_tampering() {
        let k = JwtKeys::new(b"0123456789abcdef0123456789abcdef", "clubcomp").unwrap();
        let (t, _) = k
            .issue(
                "user:1".into(),
                vec![Role::Admin],
                chrono::Duration::minutes(5),
            )
            .unwrap();
        assert_eq!(k.verify(&t).unwrap().sub, "user:1");
        let other = JwtKeys::new(b"another-secret-another-secret-xx", "clubcomp").unwrap();
        assert!(other.verify(&t).is_err());
        let (expired, _) = k
            .issue("user:1".into(), vec![], chrono::Duration::seconds(-10))
            .unwrap();
        assert!(k.verify(&expired).is_err());
    }

    #[test]
    fn throttle_blocks_after_limit() {
        let dir = std::env::temp_dir().join(format!("throttle-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}", dir.join("t.sqlite3").display());
        let mut c = crate::db::DbTarget::parse(&url).unwrap().connect().unwrap();
        crate::db::run_migrations(&mut c).unwrap();
        let t0 = chrono::NaiveDate::from_ymd_opt(2026, 11, 27)
            .unwrap()
            .and_hms_opt(20, 0, 0)
            .unwrap();
        let at = |m: i64| t0 + chrono::Duration::minutes(m);
        let t = Throttle::new(2);
        let mut go = |acct: &str, addr: &str, m: i64| t.attempt(&mut c, acct, addr, at(m)).unwrap();
        // two attempts (account names are case-insensitive) use up the account
        assert!(go("a@x", "1.2.3.4", 0).is_ok());
        assert!(go("A@x", "1.2.3.4", 1).is_ok());
        assert_eq!(
            go("a@x", "9.9.9.9", 5),
            Err(10 * 60),
            "from any address, 10 min left"
        );
        assert!(go("b@x", "1.2.3.4", 5).is_ok(), "another account");
        // the window ends 15 minutes after its first attempt
        assert!(go("a@x", "9.9.9.9", 15).is_ok());
        let t = Throttle::new(2);
        let mut go = |acct: &str, addr: &str, m: i64| t.attempt(&mut c, acct, addr, at(m)).unwrap();
        assert!(
            go("a@x", "9.9.9.9", 16).is_ok(),
            "the second of the new window"
        );
        assert!(go("a@x", "9.9.9.9", 16).is_err());
        // a success clears its account and gives its address the attempt back
        t.forgive(&mut c, "a@x", "9.9.9.9", true).unwrap();
        let mut go = |acct: &str, addr: &str, m: i64| t.attempt(&mut c, acct, addr, at(m)).unwrap();
        assert!(go("a@x", "9.9.9.9", 16).is_ok());
        // an attempt that could not be checked is taken back
        t.forgive(&mut c, "a@x", "9.9.9.9", false).unwrap();
        let mut go = |acct: &str, addr: &str, m: i64| t.attempt(&mut c, acct, addr, at(m)).unwrap();
        assert!(go("a@x", "9.9.9.9", 16).is_ok());
        assert!(go("a@x", "9.9.9.9", 16).is_ok());
        assert!(go("a@x", "9.9.9.9", 16).is_err());
        // old windows are swept away; current ones stay
        assert_eq!(
            t.sweep(&mut c, at(16)).unwrap(),
            1,
            "1.2.3.4's, from minute 0"
        );
        assert!(t.sweep(&mut c, at(40)).unwrap() >= 3);
        let mut go = |acct: &str, addr: &str, m: i64| t.attempt(&mut c, acct, addr, at(m)).unwrap();
        assert!(go("a@x", "9.9.9.9", 40).is_ok());
        // the address limit is four times the account limit
        let t = Throttle::new(1);
        for i in 0..4 {
            let r = t.attempt(&mut c, &format!("u{i}@x"), "5.5.5.5", at(20));
            assert!(r.unwrap().is_ok());
        }
        assert!(
            t.attempt(&mut c, "u9@x", "5.5.5.5", at(20))
                .unwrap()
                .is_err()
        );
        assert!(
            t.attempt(&mut c, "u9@x", "6.6.6.6", at(20))
                .unwrap()
                .is_ok()
        );
        drop(c);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn password_hash_verifies() {
        let h = hash_password("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("wrong", &h));
    }
}
