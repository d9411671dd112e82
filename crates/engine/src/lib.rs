//! Pure rule engines: plain data in, plain data out. No actix, no diesel, no clock, and
//! randomness only from a seed passed in, so every rule can be tested without a server and
//! reused by the command line.

pub mod arbiter;
pub mod attendance;
pub mod calendar;
pub mod double_swiss;
pub mod fixed;
pub mod keizer;
#[cfg(test)]
mod parser_fuzz;
pub mod round_robin;
pub mod stop;
pub mod swiss;
pub mod tiebreaks;
