//! Who reads a request's answer ([decision 0326](../docs/decisions/0326-player-publication.md)):
//! one middleware resolves the caller once — officers (admins, leaders, arbiters, the rating
//! sync) read every name in full, a member linked to a player reads the public view but their
//! own name, everyone else the public view — and runs the request inside that audience. Every
//! database call of the request ([`crate::state::AppState::db`]) carries it to the store,
//! whose player rows come out as the reader may see them
//! ([`clubcomp_core::publication`]), so no read can forget it.
//!
//! One URL then has a representation per audience: the read cache keeps one per audience,
//! and a reader who is not an officer gets each `ETag` with the audience's mark (`"…~p"`), so
//! a tag of one audience never answers 304 to another. The mark is taken off the reader's
//! `If-None-Match` and `If-Match` again before the handler compares them, and a tag without
//! the reader's mark is dropped from `If-None-Match`.

use crate::auth::{Principal, Role};
use actix_web::HttpMessage;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::middleware::Next;
pub use clubcomp_core::publication::Audience;

tokio::task_local! {
    static AUDIENCE: Audience;
}

/// The audience of the request being answered; on a thread of database work, the one that
/// work runs for; [`Audience::Full`] outside both (the workers, the command line).
pub fn current() -> Audience {
    AUDIENCE
        .try_with(|a| *a)
        .unwrap_or_else(|_| clubcomp_core::publication::current())
}

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
    let mut req = req;
    if audience != Audience::Full {
        let mark = mark(audience);
        unmark_header(req.headers_mut(), header::IF_NONE_MATCH, &mark, true);
        unmark_header(req.headers_mut(), header::IF_MATCH, &mark, false);
    }
    let mut res = AUDIENCE.scope(audience, next.call(req)).await?;
    if audience != Audience::Full {
        let mark = mark(audience);
        let h = res.headers_mut();
        if let Some(tag) = h.get(header::ETAG).and_then(|v| v.to_str().ok())
            && let Some(marked) = marked(tag, &mark)
            && let Ok(v) = HeaderValue::from_str(&marked)
        {
            h.insert(header::ETAG, v);
        }
    }
    Ok(res)
}

fn mark(a: Audience) -> String {
    format!("~{}", a.tag())
}

/// `"abc"` → `"abc~p"` (a weak tag keeps its `W/`).
fn marked(tag: &str, mark: &str) -> Option<String> {
    let body = tag.strip_suffix('"')?;
    Some(format!("{body}{mark}\""))
}

/// `"abc~p"` → `"abc"`; `None` for a tag without the mark.
fn unmarked(tag: &str, mark: &str) -> Option<String> {
    let body = tag.strip_suffix('"')?.strip_suffix(mark)?;
    Some(format!("{body}\""))
}

/// Takes the mark off every tag of a conditional header; with `drop_others`, a tag without
/// the mark is left out (a `*` stays).
fn unmark_header(
    headers: &mut actix_web::http::header::HeaderMap,
    name: HeaderName,
    mark: &str,
    drop_others: bool,
) {
    let Some(v) = headers.get(&name).and_then(|v| v.to_str().ok()) else {
        return;
    };
    let tags: Vec<String> = v
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .filter_map(|t| {
            if t == "*" {
                return Some(t.to_string());
            }
            match unmarked(t, mark) {
                Some(u) => Some(u),
                None if drop_others => None,
                None => Some(t.to_string()),
            }
        })
        .collect();
    if tags.is_empty() {
        headers.remove(&name);
    } else if let Ok(v) = HeaderValue::from_str(&tags.join(", ")) {
        headers.insert(name, v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_is_added_and_taken_off_again() {
        assert_eq!(marked("\"abc\"", "~p").as_deref(), Some("\"abc~p\""));
        assert_eq!(marked("W/\"abc\"", "~m3").as_deref(), Some("W/\"abc~m3\""));
        assert_eq!(unmarked("\"abc~p\"", "~p").as_deref(), Some("\"abc\""));
        assert_eq!(unmarked("\"abc\"", "~p"), None);
        assert_eq!(unmarked("\"abc~m3\"", "~p"), None);
    }

    #[test]
    fn a_tag_of_another_audience_is_dropped_from_if_none_match() {
        let mut h = actix_web::http::header::HeaderMap::new();
        h.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_static("\"a~p\", \"b\""),
        );
        unmark_header(&mut h, header::IF_NONE_MATCH, "~p", true);
        assert_eq!(h.get(header::IF_NONE_MATCH).unwrap(), "\"a\"");
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_static("\"b\""));
        unmark_header(&mut h, header::IF_NONE_MATCH, "~p", true);
        assert!(h.get(header::IF_NONE_MATCH).is_none());
    }
}
