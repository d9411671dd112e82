//! What the tests share: the application under test ([`app`]), the URLs ([`paths`]), the
//! typed client over them ([`client`]) and the fixture builders ([`builders`]). A test module
//! takes its fixtures from here, never from another test module.

mod app;
mod builders;
mod client;
pub mod paths;

pub use app::*;
pub use builders::*;
