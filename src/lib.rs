//! clubcomp: a competition server for chess and draughts clubs.
//!
//! `domain` holds the pure rule engines (no I/O, no clock, no unseeded randomness);
//! `cli` is the command-line front that runs them without a server; `api`, `services` and
//! `db` are the HTTP service (see DESIGN: HTTP → services → domain, db).

pub mod api;
pub mod app;
pub mod auth;
pub mod cache;
pub mod calc_input;
pub mod cli;
pub mod config;
pub mod db;
pub mod error;
pub mod limits;
pub mod openapi;
pub mod services;
pub mod telemetry;
