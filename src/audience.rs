//! Who reads a request's answer ([decision 0326](../docs/decisions/0326-player-publication.md)):
//! one middleware resolves the caller once — officers (admins, leaders, arbiters, the rating
//! sync) read every name in full, a member linked to a player reads the public view but their
//! own name, everyone else the public view — and runs the request inside that audience. Every
//! database call of the request ([`crate::state::AppState::db`]) carries it to the store,
//! whose player rows come out as the reader may see them
//! ([`clubcomp_core::publication`]), so no read can forget it.
//!
//! One URL then has a representation per audience: the read cache keeps one per audience
//! (its key names it), every answer to a GET carries `Vary: Authorization`, and the `ETag`s an
//! officer or a member gets carry a mark of their audience ([`mark`]: `"…~o"`, `"…~m12"`),
//! while the public's stay those of the document's version (the ones the event log and the
//! webhooks name). The middleware takes the mark off the `If-None-Match` and `If-Match` tags a
//! request sends when it is its own audience's, and drops the tags of another audience, so a
//! tag revalidates only the body of the audience it was given to.

use crate::auth::{Principal, Role};
pub use crate::reader::Audience;
use actix_web::HttpMessage;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderMap, HeaderValue};
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
    let mut req = req;
    let principal = crate::auth::resolve(req.request()).await;
    let audience = of(principal.as_ref());
    if let Some(p) = principal {
        req.extensions_mut().insert(crate::auth::Resolved(p));
    }
    let read = matches!(
        *req.method(),
        actix_web::http::Method::GET | actix_web::http::Method::HEAD
    );
    // a 304 only for the reader's own copy; a write's condition names the version, so an
    // unmarked tag (the event log's, or one a client made of a version) still holds there
    unmark_header(req.headers_mut(), &header::IF_NONE_MATCH, audience, true);
    unmark_header(req.headers_mut(), &header::IF_MATCH, audience, false);
    let mut res = crate::reader::scope(audience, next.call(req)).await?;
    let headers = res.headers_mut();
    let marked = headers
        .get(header::ETAG)
        .and_then(|t| t.to_str().ok())
        .map(|t| mark(t, audience));
    if let Some(v) = marked.and_then(|t| HeaderValue::from_str(&t).ok()) {
        headers.insert(header::ETAG, v);
    }
    if read {
        add_vary_authorization(headers);
    }
    Ok(res)
}

/// The mark of an audience's tags: none for the public, `~o` for officers, `~m{id}` for a
/// member.
fn suffix(audience: Audience) -> String {
    match audience {
        Audience::Public => String::new(),
        Audience::Full => "~o".to_string(),
        Audience::Member(id) => format!("~m{id}"),
    }
}

/// `tag` (an entity tag, strong or weak) as given to `audience`: its mark before the closing
/// quote (`"standings-1-s3-w0-alast"` → `"standings-1-s3-w0-alast~o"` for an officer).
pub fn mark(tag: &str, audience: Audience) -> String {
    let mark = suffix(audience);
    match tag.strip_suffix('"') {
        Some(open) if !mark.is_empty() => format!("{open}{mark}\""),
        _ => tag.to_string(),
    }
}

/// The tag a client sent, as the handlers know it: without the mark of `audience`, or `None`
/// when it is another audience's; when `strict`, a public tag (unmarked) is an officer's or
/// member's no more than theirs is the public's.
pub fn unmark(tag: &str, audience: Audience, strict: bool) -> Option<String> {
    let tag = tag.trim();
    if tag == "*" {
        return Some(tag.to_string());
    }
    let inner = tag.strip_suffix('"')?;
    let mark = suffix(audience);
    let marked = inner.rfind('~').filter(|at| {
        let rest = &inner[at + 1..];
        rest == "o"
            || rest
                .strip_prefix('m')
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    });
    match marked {
        Some(at) if !mark.is_empty() && inner[at..] == mark => Some(format!("{}\"", &inner[..at])),
        None if mark.is_empty() || !strict => Some(tag.to_string()),
        _ => None,
    }
}

/// Rewrites the list of tags of header `name` with [`unmark`]; a list left empty becomes a
/// tag no answer has, so the condition still names something.
fn unmark_header(
    headers: &mut HeaderMap,
    name: &header::HeaderName,
    audience: Audience,
    strict: bool,
) {
    let Some(sent) = headers.get(name).and_then(|v| v.to_str().ok()) else {
        return;
    };
    let kept: Vec<String> = sent
        .split(',')
        .filter(|t| !t.trim().is_empty())
        .filter_map(|t| unmark(t, audience, strict))
        .collect();
    let value = if kept.is_empty() {
        "\"~\"".to_string()
    } else {
        kept.join(", ")
    };
    if let Ok(v) = HeaderValue::from_str(&value) {
        headers.insert(name.clone(), v);
    }
}

/// Adds `Authorization` to the answer's `Vary` unless it names it (or `*`).
fn add_vary_authorization(headers: &mut HeaderMap) {
    let current = headers
        .get(header::VARY)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let named = current.split(',').any(|t| {
        let t = t.trim();
        t == "*" || t.eq_ignore_ascii_case("authorization")
    });
    if named {
        return;
    }
    let value = if current.trim().is_empty() {
        "Authorization".to_string()
    } else {
        format!("{current}, Authorization")
    };
    if let Ok(v) = HeaderValue::from_str(&value) {
        headers.insert(header::VARY, v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::PlayerId;

    #[test]
    fn a_tag_revalidates_only_for_the_audience_it_was_given_to() {
        let public = "\"standings-1-s3-w0-alast\"";
        let officer = mark(public, Audience::Full);
        assert_eq!(officer, "\"standings-1-s3-w0-alast~o\"");
        assert_eq!(
            mark("W/\"page-ab\"", Audience::Member(PlayerId(12))),
            "W/\"page-ab~m12\""
        );
        assert_eq!(mark(public, Audience::Public), public);
        assert_eq!(
            unmark(&officer, Audience::Full, true).as_deref(),
            Some(public)
        );
        assert_eq!(unmark(&officer, Audience::Public, true), None);
        assert_eq!(unmark(&officer, Audience::Member(PlayerId(12)), true), None);
        assert_eq!(unmark(public, Audience::Full, true), None);
        assert_eq!(
            unmark(public, Audience::Public, true).as_deref(),
            Some(public)
        );
        assert_eq!(
            unmark("\"x~m12\"", Audience::Member(PlayerId(12)), true).as_deref(),
            Some("\"x\"")
        );
        assert_eq!(
            unmark("\"x~m12\"", Audience::Member(PlayerId(1)), true),
            None
        );
        assert_eq!(unmark("*", Audience::Full, true).as_deref(), Some("*"));
        // a write's condition: an unmarked version tag holds for anyone, a marked one for its own
        assert_eq!(
            unmark(public, Audience::Full, false).as_deref(),
            Some(public)
        );
        assert_eq!(unmark(&officer, Audience::Public, false), None);
    }
}
