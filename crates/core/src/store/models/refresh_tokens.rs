//! `refresh_tokens`: the SHA-256 of every refresh token issued, grouped in families (one per
//! login), with expiry, spending and revocation (docs/decisions/0215-refresh-tokens.md).

use crate::ids::UserId;
use crate::store::schema::refresh_tokens;
use crate::store::{DbConn, MultiBackend};
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// A stored refresh token (the token itself is never stored, only its hash).
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = refresh_tokens, check_for_backend(MultiBackend))]
pub struct RefreshToken {
    pub id: i64,
    pub user_id: UserId,
    /// The family: every token descended from one login.
    pub family: String,
    /// Lower-case hex SHA-256 of the token.
    pub token_hash: String,
    /// The user's token generation when the family started.
    pub generation: i64,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    /// When the token was exchanged for its successor.
    pub spent_at: Option<NaiveDateTime>,
    /// When its family was ended (logout, reuse, too many sessions, account change).
    pub revoked_at: Option<NaiveDateTime>,
    /// The random value its successor was derived from (set when it is spent), so that a
    /// retry within the grace period answers the same successor.
    pub successor_seed: Option<String>,
}

/// Insert form.
#[derive(Debug, Insertable)]
#[diesel(table_name = refresh_tokens)]
pub struct NewRefreshToken<'a> {
    pub user_id: UserId,
    pub family: &'a str,
    pub token_hash: &'a str,
    pub generation: i64,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
}

/// Inserts a token record.
pub fn insert(conn: &mut DbConn, new: &NewRefreshToken) -> QueryResult<usize> {
    diesel::insert_into(refresh_tokens::table)
        .values(new)
        .execute(conn)
}

/// Finds a token record by the hash of the token.
pub fn by_hash(conn: &mut DbConn, hash: &str) -> QueryResult<Option<RefreshToken>> {
    refresh_tokens::table
        .filter(refresh_tokens::token_hash.eq(hash))
        .select(RefreshToken::as_select())
        .first(conn)
        .optional()
}

/// Spends the token with hash `hash` if it is live at `now` (neither spent nor revoked nor
/// expired), recording `seed`, the value its successor is derived from: one conditional
/// update, so of two concurrent callers exactly one sees 1.
pub fn spend(conn: &mut DbConn, hash: &str, now: NaiveDateTime, seed: &str) -> QueryResult<usize> {
    diesel::update(
        refresh_tokens::table
            .filter(refresh_tokens::token_hash.eq(hash))
            .filter(refresh_tokens::spent_at.is_null())
            .filter(refresh_tokens::revoked_at.is_null())
            .filter(refresh_tokens::expires_at.gt(now)),
    )
    .set((
        refresh_tokens::spent_at.eq(Some(now)),
        refresh_tokens::successor_seed.eq(Some(seed)),
    ))
    .execute(conn)
}

/// Revokes every token of a family not revoked yet; the number of rows changed.
pub fn revoke_family(conn: &mut DbConn, family: &str, now: NaiveDateTime) -> QueryResult<usize> {
    diesel::update(
        refresh_tokens::table
            .filter(refresh_tokens::family.eq(family))
            .filter(refresh_tokens::revoked_at.is_null()),
    )
    .set(refresh_tokens::revoked_at.eq(Some(now)))
    .execute(conn)
}

/// Revokes every token of a user not revoked yet; the number of rows changed.
pub fn revoke_user(conn: &mut DbConn, user_id: UserId, now: NaiveDateTime) -> QueryResult<usize> {
    diesel::update(
        refresh_tokens::table
            .filter(refresh_tokens::user_id.eq(user_id))
            .filter(refresh_tokens::revoked_at.is_null()),
    )
    .set(refresh_tokens::revoked_at.eq(Some(now)))
    .execute(conn)
}

/// The families of a user that hold a live token at `now`, least recently used first (each
/// live family holds exactly one unspent token).
pub fn live_families(
    conn: &mut DbConn,
    user_id: UserId,
    now: NaiveDateTime,
) -> QueryResult<Vec<String>> {
    refresh_tokens::table
        .filter(refresh_tokens::user_id.eq(user_id))
        .filter(refresh_tokens::spent_at.is_null())
        .filter(refresh_tokens::revoked_at.is_null())
        .filter(refresh_tokens::expires_at.gt(now))
        .order(refresh_tokens::id.asc())
        .select(refresh_tokens::family)
        .load(conn)
}

/// Deletes the spent tokens of a family but the newest `keep` (the older ones are refused
/// as unknown, without ending the family); the number deleted.
pub fn trim_family(conn: &mut DbConn, family: &str, keep: i64) -> QueryResult<usize> {
    let cut: Option<i64> = refresh_tokens::table
        .filter(refresh_tokens::family.eq(family))
        .filter(refresh_tokens::spent_at.is_not_null())
        .order(refresh_tokens::id.desc())
        .offset(keep)
        .select(refresh_tokens::id)
        .first(conn)
        .optional()?;
    match cut {
        Some(cut) => diesel::delete(
            refresh_tokens::table
                .filter(refresh_tokens::family.eq(family))
                .filter(refresh_tokens::spent_at.is_not_null())
                .filter(refresh_tokens::id.le(cut)),
        )
        .execute(conn),
        None => Ok(0),
    }
}

/// Deletes at most `limit` tokens that expired before `now`; the number deleted.
pub fn purge_expired(conn: &mut DbConn, now: NaiveDateTime, limit: i64) -> QueryResult<usize> {
    let old: Vec<i64> = refresh_tokens::table
        .filter(refresh_tokens::expires_at.le(now))
        .order(refresh_tokens::id.asc())
        .limit(limit)
        .select(refresh_tokens::id)
        .load(conn)?;
    if old.is_empty() {
        return Ok(0);
    }
    diesel::delete(refresh_tokens::table.filter(refresh_tokens::id.eq_any(old))).execute(conn)
}
