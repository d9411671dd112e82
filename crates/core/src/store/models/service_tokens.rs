//! `service_tokens`: long-lived tokens for rating-sync jobs, revocable by an admin.

use crate::ids::{ServiceTokenId, UserId};
use crate::store::schema::service_tokens;
use crate::store::{DbConn, MultiBackend};
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// A stored service token (the JWT itself is never stored).
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = service_tokens, check_for_backend(MultiBackend))]
pub struct ServiceToken {
    /// The token's id.
    pub id: ServiceTokenId,
    /// The name it was given (what uses it).
    pub name: String,
    /// Its roles, comma-separated.
    pub roles: String,
    /// The account that made it.
    pub created_by: Option<UserId>,
    /// When it was made (UTC).
    pub created_at: NaiveDateTime,
    /// When it was revoked, if it was.
    pub revoked_at: Option<NaiveDateTime>,
}

/// Insert form.
#[derive(Debug, Insertable)]
#[diesel(table_name = service_tokens)]
pub struct NewServiceToken<'a> {
    pub name: &'a str,
    pub roles: &'a str,
    pub created_by: Option<UserId>,
    pub created_at: NaiveDateTime,
}

/// Inserts a token record.
pub fn insert(conn: &mut DbConn, new: &NewServiceToken) -> QueryResult<ServiceToken> {
    diesel::insert_into(service_tokens::table)
        .values(new)
        .returning(service_tokens::all_columns)
        .get_result(conn)
}

/// Finds a token record.
pub fn by_id(conn: &mut DbConn, id: ServiceTokenId) -> QueryResult<Option<ServiceToken>> {
    service_tokens::table
        .find(id)
        .select(ServiceToken::as_select())
        .first(conn)
        .optional()
}

/// A page of the token records, newest first (by id): `limit` from `offset`, and how many
/// there are in all.
pub fn page(conn: &mut DbConn, limit: i64, offset: i64) -> QueryResult<(Vec<ServiceToken>, i64)> {
    Ok(crate::page_of!(
        conn,
        service_tokens::table,
        order: service_tokens::id.desc(),
        rows: ServiceToken,
        limit,
        offset
    ))
}

/// Marks a token revoked (idempotent: the first revocation time is kept).
pub fn revoke(conn: &mut DbConn, id: ServiceTokenId, at: NaiveDateTime) -> QueryResult<usize> {
    diesel::update(
        service_tokens::table
            .filter(service_tokens::id.eq(id))
            .filter(service_tokens::revoked_at.is_null()),
    )
    .set(service_tokens::revoked_at.eq(Some(at)))
    .execute(conn)
}
