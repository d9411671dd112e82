//! Readiness: the database answers, carries every migration this build expects, and accepts
//! writes.

use crate::error::{ApiError, ApiResult};

/// The readiness checks, inside a write transaction.
pub fn check(c: &mut crate::store::DbConn) -> ApiResult<()> {
    use crate::store::schema::users;
    use diesel::migration::MigrationSource;
    use diesel::prelude::*;
    use diesel::result::Error::RollbackTransaction;
    use diesel_migrations::MigrationHarness;
    let expected = crate::store::migrations_for(c);
    let expected = MigrationSource::<crate::store::MultiBackend>::migrations(&expected)
        .map_err(|e| ApiError::Internal(format!("embedded migrations: {e}")))?;
    let applied = c
        .applied_migrations()
        .map_err(|e| ApiError::Internal(format!("applied migrations: {e}")))?;
    let missing: Vec<String> = expected
        .iter()
        .map(|m| m.name().version().to_string())
        .filter(|v| !applied.iter().any(|a| a.to_string() == *v))
        .collect();
    if !missing.is_empty() {
        return Err(ApiError::Internal(format!(
            "the database lacks the migrations {missing:?}"
        )));
    }
    users::table.select(users::id).first::<i64>(c).optional()?;
    // a write that is rolled back: refused by a read-only file or server
    let now = crate::store::now_utc();
    let written = c.transaction::<(), _, _>(|c| {
        crate::services::throttle::write_readiness_probe(c, now)?;
        Err(RollbackTransaction)
    });
    match written {
        Err(RollbackTransaction) => Ok(()),
        Err(e) => Err(e.into()),
        Ok(()) => Ok(()),
    }
}
