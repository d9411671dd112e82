//! `users`: accounts with argon2id password hashes and a comma-separated role list.

use crate::ids::{PlayerId, UserId};
use crate::store::schema::users;
use crate::store::{DbConn, MultiBackend};
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// A stored user.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = users, check_for_backend(MultiBackend))]
pub struct User {
    /// The account's id.
    pub id: UserId,
    /// The login address, lower-case.
    pub email: String,
    /// The argon2id hash of the password (or a marker for an account without one).
    pub password_hash: String,
    /// The roles, comma-separated.
    pub roles: String,
    /// Whether the account may log in.
    pub active: bool,
    /// When it was created (UTC).
    pub created_at: NaiveDateTime,
    /// When it was changed last (UTC).
    pub updated_at: NaiveDateTime,
    /// The player the account belongs to, for a member.
    pub player_id: Option<PlayerId>,
    /// Raised by a password reset, disabling and re-enabling: tokens of an older generation
    /// are refused.
    pub token_generation: i64,
    /// When the address was shown to be the owner's (an invitation accepted, a change of
    /// address confirmed).
    pub email_verified_at: Option<NaiveDateTime>,
}

/// Insert form.
#[derive(Debug, Insertable)]
#[diesel(table_name = users)]
pub struct NewUser<'a> {
    pub email: &'a str,
    pub password_hash: &'a str,
    pub roles: &'a str,
    pub active: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// Finds a user by e-mail (case-insensitive: e-mails are stored lower-case).
pub fn by_email(conn: &mut DbConn, email: &str) -> QueryResult<Option<User>> {
    users::table
        .filter(users::email.eq(email.to_lowercase()))
        .select(User::as_select())
        .first(conn)
        .optional()
}

/// Finds a user by id.
pub fn by_id(conn: &mut DbConn, id: UserId) -> QueryResult<Option<User>> {
    users::table
        .find(id)
        .select(User::as_select())
        .first(conn)
        .optional()
}

/// All users, by id.
pub fn list(conn: &mut DbConn, limit: i64, offset: i64) -> QueryResult<(Vec<User>, i64)> {
    let total = users::table.count().get_result(conn)?;
    let rows = users::table
        .order(users::id)
        .limit(limit)
        .offset(offset)
        .select(User::as_select())
        .load(conn)?;
    Ok((rows, total))
}

/// Whether any admin account exists.
#[cfg_attr(
    not(feature = "test-support"),
    allow(dead_code, reason = "no caller in this crate")
)]
pub fn count(conn: &mut DbConn) -> QueryResult<i64> {
    users::table.count().get_result(conn)
}

/// The fields an account change writes.
#[derive(Debug)]
pub struct UserUpdate {
    pub token_generation: i64,
    pub player_id: Option<PlayerId>,
    pub roles: String,
    pub active: bool,
    pub updated_at: NaiveDateTime,
}

/// The accounts linked to `player`.
pub fn of_player(conn: &mut DbConn, player: PlayerId) -> QueryResult<Vec<User>> {
    users::table
        .filter(users::player_id.eq(player))
        .select(User::as_select())
        .load(conn)
}
