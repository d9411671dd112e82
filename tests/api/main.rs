//! The one integration-test binary: the real application over a fresh database per test.

mod support;

mod arbiter;
mod attendance;
mod auth;
mod cache;
mod calc;
mod calendar;
mod check_in;
mod competitions;
mod concurrency;
mod contract;
mod demo;
mod errors;
mod foundation;
mod health;
mod input_checks;
mod limits;
mod pages;
mod pairings;
mod players;
mod playoff;
mod privacy;
mod prizes;
mod processes;
mod ratings;
mod readiness;
mod results;
mod standings;
mod tempo;
mod vocab;
mod whole_season;
mod withdrawal;
