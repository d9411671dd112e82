//! The one integration-test binary: the real application over a fresh database per test.

mod helpers;

mod attendance;
mod auth;
mod competitions;
mod errors;
mod foundation;
mod pairings;
mod players;
mod ratings;
