//! clubcomp: a competition server for chess and draughts clubs.
//!
//! The pure rule engines (no I/O, no clock, no unseeded randomness) are the crate
//! `clubcomp_engine` (`crates/engine`);
//! the services over their private storage are the crate `clubcomp_core` (`crates/core`,
//! re-exported here under their own names); `cli` is the command-line front that runs the
//! engines without a server; `api` is the HTTP service and `web` the club's published HTML
//! pages (see docs/architecture.md: handler → service → store).

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod api;
pub mod app;
pub mod audience;
pub mod auth;
pub mod cached;
pub mod cli;
pub mod fair;
pub mod night;
pub mod openapi;
pub mod panics;
pub mod reader;
pub mod representation;
pub mod state;
pub mod stream;
pub mod telemetry;
pub mod web;

pub use clubcomp_core::{
    cache, calc_input, config, csv, database, error, ids, limits, schemas, services, text, wire,
};
