//! What a request does beyond parsing: load, call the domain, store — in one transaction.

pub mod competitions;
pub mod demo;
pub mod ratings;
pub mod secrets;
pub mod users;
