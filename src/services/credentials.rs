//! Roles and password hashes: what an account holds, shared by the account service and the
//! request authentication.

use crate::error::ApiError;
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
