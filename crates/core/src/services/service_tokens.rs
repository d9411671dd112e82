//! Service tokens (docs/operations.md): named, revocable credentials of machine clients.

use crate::error::{ApiError, ApiResult};
use crate::ids::{ServiceTokenId, UserId};
use crate::store::DbConn;
/// A stored service token: the row is the record.
pub use crate::store::models::service_tokens::ServiceToken;
use crate::store::models::service_tokens::{self, NewServiceToken};
use crate::store::now_utc;
use diesel::Connection;

/// Records a new service token with the given roles (as stored).
pub fn create(
    c: &mut DbConn,
    name: &str,
    roles: &str,
    created_by: Option<UserId>,
) -> ApiResult<ServiceToken> {
    Ok(service_tokens::insert(
        c,
        &NewServiceToken {
            name,
            roles,
            created_by,
            created_at: now_utc(),
        },
    )?)
}

/// Revokes a service token (404 when there is none): it stops working at once.
pub fn revoke(c: &mut DbConn, id: ServiceTokenId) -> ApiResult<()> {
    if service_tokens::by_id(c, id)?.is_none() {
        return Err(ApiError::NotFound(format!("no service token {id}")));
    }
    service_tokens::revoke(c, id, now_utc())?;
    Ok(())
}

/// One page of the service tokens, newest first (by id): `limit` records from `offset`, and
/// how many there are in all, read in one transaction so the two agree.
pub fn page(c: &mut DbConn, limit: i64, offset: i64) -> ApiResult<(Vec<ServiceToken>, i64)> {
    Ok(c.transaction(|c| service_tokens::page(c, limit, offset))?)
}
