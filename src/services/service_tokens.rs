//! Service tokens (docs/operations.md): named, revocable credentials of machine clients.

use crate::db::DbConn;
use crate::db::models::service_tokens::{self, NewServiceToken, ServiceToken};
use crate::db::now_utc;
use crate::error::{ApiError, ApiResult};

/// Records a new service token with the given roles (as stored).
pub fn create(
    c: &mut DbConn,
    name: &str,
    roles: &str,
    created_by: Option<i64>,
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
pub fn revoke(c: &mut DbConn, id: i64) -> ApiResult<()> {
    if service_tokens::by_id(c, id)?.is_none() {
        return Err(ApiError::NotFound(format!("no service token {id}")));
    }
    service_tokens::revoke(c, id, now_utc())?;
    Ok(())
}
