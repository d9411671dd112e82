//! clubcomp: a competition server for chess and draughts clubs.
//!
//! The pure rule engines (no I/O, no clock, no unseeded randomness) are the crate
//! `clubcomp_engine` (`crates/engine`);
//! `cli` is the command-line front that runs them without a server; `api`, `services` and
//! `db` are the HTTP service and `web` the club's published HTML pages (see docs/architecture.md: HTTP → services → the engine crate, db).

pub mod api;
pub mod app;
pub mod auth;
pub mod cache;
pub mod cached;
pub mod calc_input;
pub mod cli;
pub mod config;
pub mod csv;
pub mod db;
pub mod error;
pub mod fair;
pub mod ids;
pub mod limits;
pub mod openapi;
pub mod panics;
pub mod schemas;
pub mod services;
pub mod state;
pub mod stream;
pub mod telemetry;
pub mod text;
pub mod web;
pub mod wire;
