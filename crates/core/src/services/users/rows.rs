//! The writes of the `users` table: every change of an account row is made here, by the
//! service that owns the table; the rules (who may change what, password checks, tokens) stay
//! with the callers.

use crate::ids::{PlayerId, UserId};
use crate::store::DbConn;
use crate::store::models::users::{NewUser, User, UserUpdate};
use crate::store::schema::users;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// Inserts a user and returns the row.
pub fn insert(conn: &mut DbConn, new: &NewUser) -> QueryResult<User> {
    diesel::insert_into(users::table)
        .values(new)
        .returning(users::all_columns)
        .get_result(conn)
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

/// Marks account `id`'s address as shown to be the owner's at `at`.
pub fn mark_email_verified(conn: &mut DbConn, id: UserId, at: NaiveDateTime) -> QueryResult<usize> {
    diesel::update(users::table.find(id))
        .set(users::email_verified_at.eq(Some(at)))
        .execute(conn)
}

/// Links the account with address `email` to `player` when it is linked to no player yet.
pub fn link_player_if_unlinked(
    conn: &mut DbConn,
    email: &str,
    player: PlayerId,
) -> QueryResult<usize> {
    diesel::update(
        users::table
            .filter(users::email.eq(email))
            .filter(users::player_id.is_null()),
    )
    .set(users::player_id.eq(Some(player)))
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
