//! The one integration-test binary: the real application over a fresh database per test.

mod helpers;

mod arbiter;
mod auth;
mod competitions;
mod errors;
mod foundation;
mod players;
mod ratings;
