//! What a request does beyond parsing: load, call the domain, store — in one transaction.

pub mod arbiter;
pub mod attendance;
pub mod calc;
pub mod calendar;
pub mod check_in;
pub mod competitions;
pub mod credentials;
pub mod date;
pub mod demo;
pub mod health;
pub mod input;
pub mod pairing;
pub mod players;
pub mod playoff;
pub mod prizes;
pub mod ratings;
pub mod results;
pub mod rounds;
pub mod seasons;
pub mod secrets;
pub mod service_tokens;
pub mod standings;
pub mod tempo;
pub mod users;
pub mod version;
pub mod withdrawal;
