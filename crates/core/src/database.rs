//! The store handle the root crate holds: the connection pool and its circuit, the connection
//! type the services take (opaque outside this crate: no query can be written on it here), the
//! migrations run at start, and the bounded wait and write transaction the handlers' database
//! work runs in.

pub use crate::store::stamps::{take_raised, write};
pub use crate::store::waits::{
    COMMIT_GRACE, ConnSettings, Deadline, Late, block_until, may_commit, until,
};
pub use crate::store::{
    Backend, Circuit, DbConn, DbTarget, Pool, PoolError, build_pool, build_pool_with,
    run_migrations,
};
