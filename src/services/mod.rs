//! What a request does beyond parsing: load, call the domain, store — in one transaction.

pub mod arbiter;
pub mod attendance;
pub mod competitions;
pub mod demo;
pub mod pages;
pub mod pairing;
pub mod prizes;
pub mod ratings;
pub mod results;
pub mod rounds;
pub mod secrets;
pub mod standings;
pub mod users;
