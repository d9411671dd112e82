//! What the tests share: the application under test ([`app`]), the URLs ([`paths`]), the
//! typed client over them ([`client`]) the fixture builders ([`builders`]), a webhook
//! receiver ([`receiver`]), the database faults ([`faults`]: the 503 they answer, a proxy
//! that silences the network) and the walk over the demo club's public GETs ([`walk`]) and the demo club of the club-page
//! tests ([`club_pages`]); signing in on the club pages ([`page_session`]); a championship's
//! claims and protests ([`disputes`]); a player's place on the season page and the cards
//! ([`places`]). A test module takes its fixtures from here, never from another test module.

mod app;
mod builders;
mod client;
pub mod club_pages;
mod demo;
mod disputes;
mod faults;
mod outbox;
mod page_session;
pub mod paths;
mod places;
mod process;
mod receiver;
mod smtp;
mod sse;
mod walk;

pub use app::*;
pub use builders::*;
pub use demo::*;
pub use disputes::*;
pub use faults::*;
pub use outbox::*;
pub use page_session::*;
pub use places::*;
pub use process::*;
pub use receiver::*;
pub use smtp::*;
pub use sse::*;
pub use walk::*;
