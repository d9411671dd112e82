//! Roles, password hashes and tokens: what an account holds and how a caller proves it,
//! shared by the account service, the login and the request authentication. Passwords are
//! argon2id hashes; tokens are HS256 JWTs with an explicit validation (algorithm, `exp`,
//! `iss`), checked against the database on use ([`authenticate`]): a disabled user or a
//! revoked service token stops working at once.

use crate::error::ApiError;
use crate::store::models::{service_tokens, users};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

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

/// A valid argon2id hash of a random password, made with the same parameters as every stored
/// hash: logins that cannot succeed (unknown account, malformed hash) verify against it, so
/// they take as long as the others.
fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| hash_password(&uuid::Uuid::new_v4().to_string()).unwrap_or_default())
}

/// Checks a password against a stored hash (false on any mismatch or malformed hash).
pub fn verify_password(password: &str, hash: &str) -> bool {
    check_password(password, Some(hash), None)
}

/// Runs one argon2 verification of `password`: against `hash`, or against a dummy hash when
/// there is none (or it is malformed), which never matches. Every call costs the same, and
/// `runs` (when given) counts the verifications.
pub fn check_password(
    password: &str,
    hash: Option<&str>,
    runs: Option<&std::sync::atomic::AtomicU64>,
) -> bool {
    use argon2::PasswordVerifier;
    use argon2::password_hash::phc::PasswordHash;
    let (parsed, real) = match hash.map(PasswordHash::new) {
        Some(Ok(p)) => (p, true),
        _ => match PasswordHash::new(dummy_hash()) {
            Ok(p) => (p, false),
            Err(_) => return false,
        },
    };
    if let Some(runs) = runs {
        runs.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
    let ok = argon2::Argon2::default()
        .verify_password(password.as_bytes(), &parsed)
        .is_ok();
    ok && real
}

/// Clock skew allowed between instances for `iat` and `nbf` (seconds).
pub const CLOCK_LEEWAY_SECS: i64 = 60;

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
    /// Not before (seconds since the epoch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nbf: Option<i64>,
    /// The user's token generation at issue time (user tokens); a token of an older
    /// generation is refused. Absent counts as generation 0.
    #[serde(rename = "gen", default, skip_serializing_if = "Option::is_none")]
    pub generation: Option<i64>,
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
        self.issue_claims(sub, roles, ttl, None, chrono::Utc::now().timestamp())
    }

    /// Issues a user's token, carrying the user's token generation.
    pub fn issue_for_user(
        &self,
        user: &users::User,
        roles: Vec<Role>,
        ttl: chrono::Duration,
    ) -> Result<(String, i64), ApiError> {
        self.issue_for_user_at(user, roles, ttl, chrono::Utc::now().timestamp())
    }

    /// [`JwtKeys::issue_for_user`] as issued at `iat` (seconds since the epoch): the same
    /// claims give the same token.
    pub fn issue_for_user_at(
        &self,
        user: &users::User,
        roles: Vec<Role>,
        ttl: chrono::Duration,
        iat: i64,
    ) -> Result<(String, i64), ApiError> {
        self.issue_claims(
            format!("user:{}", user.id),
            roles,
            ttl,
            Some(user.token_generation),
            iat,
        )
    }

    fn issue_claims(
        &self,
        sub: String,
        roles: Vec<Role>,
        ttl: chrono::Duration,
        generation: Option<i64>,
        now: i64,
    ) -> Result<(String, i64), ApiError> {
        let exp = now + ttl.num_seconds();
        let claims = Claims {
            sub,
            iss: self.issuer.clone(),
            iat: now,
            exp,
            nbf: Some(now),
            generation,
            roles,
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.enc)
            .map(|t| (t, exp))
            .map_err(|e| ApiError::Internal(format!("token signing failed: {e}")))
    }

    /// Verifies signature (HS256 only), expiry (no leeway), issuer, and that the token was
    /// neither issued in the future nor is valid only later (`iat`, `nbf`, with
    /// [`CLOCK_LEEWAY_SECS`]).
    pub fn verify(&self, token: &str) -> Result<Claims, ApiError> {
        self.verify_at(token, chrono::Utc::now().timestamp())
    }

    fn verify_at(&self, token: &str, now: i64) -> Result<Claims, ApiError> {
        let mut v = Validation::new(Algorithm::HS256);
        v.set_issuer(&[&self.issuer]);
        v.set_required_spec_claims(&["exp", "iss", "sub", "iat"]);
        v.leeway = 0;
        v.validate_nbf = false;
        let claims = jsonwebtoken::decode::<Claims>(token, &self.dec, &v)
            .map(|d| d.claims)
            .map_err(|e| ApiError::Unauthorized(format!("invalid token: {e}")))?;
        if claims.iat > now + CLOCK_LEEWAY_SECS {
            return Err(ApiError::Unauthorized(
                "invalid token: issued in the future".into(),
            ));
        }
        if claims.nbf.is_some_and(|nbf| nbf > now + CLOCK_LEEWAY_SECS) {
            return Err(ApiError::Unauthorized(
                "invalid token: not valid yet".into(),
            ));
        }
        Ok(claims)
    }
}

/// Who is calling, after the token was checked against the database.
#[derive(Debug, Clone)]
pub struct Principal {
    /// The user id, for user tokens.
    pub user_id: Option<crate::ids::UserId>,
    /// The service-token id, for service tokens.
    pub service_token_id: Option<crate::ids::ServiceTokenId>,
    /// A label for audits (`e-mail` or `service:<name>`).
    pub label: String,
    /// Current roles.
    pub roles: Vec<Role>,
    /// The player linked to the user account, if any.
    pub player_id: Option<crate::ids::PlayerId>,
}

impl Principal {
    /// Whether the principal holds any of `roles`.
    pub fn has_any(&self, roles: &[Role]) -> bool {
        self.roles.iter().any(|r| roles.contains(r))
    }
}

/// The principal of user `id` signed in at token generation `generation` (a token's or a
/// club page's sign-in): 401 when the account is disabled or gone, or its generation moved on
/// (a password reset or an account change ends every sign-in).
pub fn user_principal(
    conn: &mut crate::store::DbConn,
    id: crate::ids::UserId,
    generation: i64,
) -> Result<Principal, ApiError> {
    let user = users::by_id(conn, id)?
        .filter(|u| u.active)
        .ok_or_else(|| ApiError::Unauthorized("the account is disabled or gone".into()))?;
    // the row is read on every request anyway, so the generation check costs nothing and
    // holds in every instance at once
    if generation != user.token_generation {
        return Err(ApiError::Unauthorized(
            "the token was ended by a password reset or an account change; log in again".into(),
        ));
    }
    Ok(Principal {
        user_id: Some(user.id),
        service_token_id: None,
        label: user.email.clone(),
        roles: parse_roles(&user.roles),
        player_id: user.player_id,
    })
}

/// Resolves a bearer token to a principal (401 on any failure).
pub fn authenticate(
    conn: &mut crate::store::DbConn,
    keys: &JwtKeys,
    token: &str,
) -> Result<Principal, ApiError> {
    let claims = keys.verify(token)?;
    if let Some(id) = claims.sub.strip_prefix("user:") {
        let id: crate::ids::UserId = id
            .parse()
            .map_err(|_| ApiError::Unauthorized("invalid token subject".into()))?;
        return user_principal(conn, id, claims.generation.unwrap_or(0));
    }
    if let Some(id) = claims.sub.strip_prefix("service:") {
        let id: crate::ids::ServiceTokenId = id
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn tokens_issued_in_the_future_or_not_yet_valid_are_refused() {
        let k = JwtKeys::new(b"0123456789abcdef0123456789abcdef", "clubcomp").unwrap();
        let now = chrono::Utc::now().timestamp();
        let token = |iat: i64, nbf: Option<i64>| {
            let claims = Claims {
                sub: "user:1".into(),
                iss: "clubcomp".into(),
                iat,
                exp: now + 600,
                nbf,
                generation: None,
                roles: vec![],
            };
            jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &k.enc).unwrap()
        };
        assert!(k.verify_at(&token(now, Some(now)), now).is_ok());
        // clocks a minute apart still agree
        assert!(k.verify_at(&token(now + 60, Some(now + 60)), now).is_ok());
        assert!(k.verify_at(&token(now + 61, None), now).is_err(), "iat");
        assert!(
            k.verify_at(&token(now, Some(now + 61)), now).is_err(),
            "nbf"
        );
        // what issue() writes
        let (t, _) = k
            .issue("user:1".into(), vec![], chrono::Duration::minutes(5))
            .unwrap();
        let c = k.verify(&t).unwrap();
        assert_eq!(c.nbf, Some(c.iat));
    }

    #[test]
    fn every_password_check_runs_argon2() {
        let runs = std::sync::atomic::AtomicU64::new(0);
        let h = hash_password("correct horse").unwrap();
        assert!(check_password("correct horse", Some(&h), Some(&runs)));
        assert!(!check_password("correct horse", None, Some(&runs)));
        assert!(!check_password("x", Some("not a hash"), Some(&runs)));
        assert!(!check_password("", Some(""), Some(&runs)));
        assert_eq!(runs.load(std::sync::atomic::Ordering::Relaxed), 4);
    }

    #[test]
    fn password_hash_verifies() {
        let h = hash_password("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("wrong", &h));
    }
}
