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
    pub id: UserId,
    pub email: String,
    pub password_hash: String,
    pub roles: String,
    pub active: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
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

/// Inserts a user and returns the row.
pub fn insert(conn: &mut DbConn, new: &NewUser) -> QueryResult<User> {
    diesel::insert_into(users::table)
        .values(new)
        .returning(users::all_columns)
        .get_result(conn)
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

/// Writes an account change; returns the number of rows changed.
pub fn update(conn: &mut DbConn, id: UserId, u: &UserUpdate) -> QueryResult<usize> {
    diesel::update(users::table.find(id))
        .set((
            users::token_generation.eq(u.token_generation),
            users::player_id.eq(u.player_id),
            users::roles.eq(&u.roles),
            users::active.eq(u.active),
            users::updated_at.eq(u.updated_at),
        ))
        .execute(conn)
}

/// Sets a password hash and raises the token generation (every older token ends); returns the
/// number of rows changed.
pub fn set_password_hash(
    conn: &mut DbConn,
    id: UserId,
    hash: &str,
    at: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(users::table.find(id))
        .set((
            users::password_hash.eq(hash),
            users::token_generation.eq(users::token_generation + 1),
            users::updated_at.eq(at),
        ))
        .execute(conn)
}

/// Sets an account's e-mail address, verified at `at`; returns the number of rows changed.
pub fn set_email(
    conn: &mut DbConn,
    id: UserId,
    email: &str,
    at: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(users::table.find(id))
        .set((
            users::email.eq(email),
            users::email_verified_at.eq(Some(at)),
            users::updated_at.eq(at),
        ))
        .execute(conn)
}

/// Erases an account: the address becomes `placeholder`, the password one no login matches,
/// no roles, disabled, unlinked from its player; every older token ends. Returns the number
/// of rows changed.
pub fn erase(
    conn: &mut DbConn,
    id: UserId,
    placeholder: &str,
    at: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(users::table.find(id))
        .set((
            users::email.eq(placeholder),
            users::email_verified_at.eq(None::<NaiveDateTime>),
            users::password_hash.eq("!"),
            users::roles.eq(""),
            users::active.eq(false),
            users::player_id.eq(None::<PlayerId>),
            users::token_generation.eq(users::token_generation + 1),
            users::updated_at.eq(at),
        ))
        .execute(conn)
}

/// The accounts linked to `player`.
pub fn of_player(conn: &mut DbConn, player: PlayerId) -> QueryResult<Vec<User>> {
    users::table
        .filter(users::player_id.eq(player))
        .select(User::as_select())
        .load(conn)
}
