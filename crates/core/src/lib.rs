//! clubcomp's core: the services (the competitions, their rounds, results and prizes, the
//! members, the event log, the tokens) over the storage they alone reach, the read cache, the
//! ids and the error type every answer is made from.
//!
//! The storage (the schema, the models, the write transaction and its cache stamps, the bounded
//! waits) is a private module: the HTTP handlers and the club pages of the root crate call the
//! services and hold a [`database`] handle, and cannot name a table. This does not compile:
//!
//! ```compile_fail
//! use clubcomp_core::store::schema::games;
//! ```
//!
//! The layer order is `docs/architecture.md`'s: handler → service → store, and the services
//! call the rule engines (`clubcomp_engine`).

// the store's rows are public API only through the services; the integration tests' view of the
// whole store (`test_store`) is not
#![cfg_attr(not(feature = "test-support"), warn(missing_docs))]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod cache;
pub mod calc_input;
pub mod calendar_names;
pub mod club_site;
pub mod config;
pub mod csv;
pub mod database;
pub mod error;
pub mod ids;
pub mod limits;
pub mod mail_config;
pub mod publication;
pub mod schemas;
pub mod services;
mod store;
pub mod text;
pub mod vocab;
pub mod wire;

/// The storage, public for the integration tests of the root crate (feature `test-support`,
/// a dev-dependency only): they set up rows no endpoint writes and read what one wrote.
#[cfg(feature = "test-support")]
pub mod test_store {
    pub use crate::store::*;
}
