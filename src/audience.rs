//! Who reads a request's answer ([decision 0326](../docs/decisions/0326-player-publication.md)):
//! one middleware resolves the caller once — officers (admins, leaders, arbiters, the rating
//! sync) read every name in full, a member linked to a player reads the public view but their
//! own name, everyone else the public view — and runs the request inside that audience. Every
//! database call of the request ([`crate::state::AppState::db`]) carries it to the store,
//! whose player rows come out as the reader may see them
//! ([`clubcomp_core::publication`]), so no read can forget it.
//!
//! One URL then has a representation per audience: the read cache keeps one per audience
//! (its key names it). The `ETag`s stay those of the document's version, so a client that
//! keeps its own copies keys them by its token as well as the URL
//! (docs/api-guide.md#your-data-and-how-your-name-is-shown).

use crate::auth::{Principal, Role};
pub use crate::reader::Audience;
use actix_web::HttpMessage;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;

/// The audience of a caller: `None` is an anonymous one.
pub fn of(principal: Option<&Principal>) -> Audience {
    match principal {
        Some(p) if p.has_any(&[Role::Admin, Role::Leader, Role::Arbiter, Role::RatingSync]) => {
            Audience::Full
        }
        Some(p) => p.player_id.map_or(Audience::Public, Audience::Member),
        None => Audience::Public,
    }
}

/// The middleware: resolves the caller (a token that does not resolve reads as the public;
/// the handler still refuses it), keeps the principal for the handler's extractor, and runs
/// the request in its audience.
pub async fn audience<B: MessageBody + 'static>(
    req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<B>, actix_web::Error> {
    let principal = crate::auth::resolve(req.request()).await;
    let audience = of(principal.as_ref());
    if let Some(p) = principal {
        req.extensions_mut().insert(crate::auth::Resolved(p));
    }
    crate::reader::scope(audience, next.call(req)).await
}
