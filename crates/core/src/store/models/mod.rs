//! Rows, insert forms and queries, one file per table. Rows are not API types.

pub mod competition;
pub mod events;
pub mod players;
pub mod ratings;
pub mod refresh_tokens;
pub mod service_tokens;
pub mod users;
pub mod webhooks;
