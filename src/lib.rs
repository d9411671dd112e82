//! clubcomp: a competition server for chess and draughts clubs.
//!
//! `domain` holds the pure rule engines (no I/O, no clock, no unseeded randomness);
//! `cli` is the command-line front that runs them without a server.

pub mod cli;
pub mod domain;
