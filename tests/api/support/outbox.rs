//! The mail outbox as the account tests read it: the queued mails of a kind, and the token of
//! a link in a mail's text.

use super::TestApp;

/// The queued mails of `kind` (any status), oldest first, as (recipient, plain-text body).
pub async fn queued_mails(app: &TestApp, kind: &str) -> Vec<(String, String)> {
    let kind = kind.to_string();
    app.with_conn(move |c| {
        use clubcomp_core::test_store::schema::mail_outbox as mo;
        use diesel::prelude::*;
        mo::table
            .filter(mo::kind.eq(kind))
            .order(mo::id)
            .select((mo::recipient, mo::body_text))
            .load(c)
            .unwrap()
    })
    .await
}

/// The token of the link to `path` (`/account/…`) in a mail's text; panics when there is none.
pub fn link_token(text: &str, path: &str) -> String {
    let key = format!("{path}?token=");
    let at = text
        .find(&key)
        .unwrap_or_else(|| panic!("no link to {path} in {text}"));
    text[at + key.len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

/// The (recipient, token) of every queued mail of `kind` with a link to `path`, oldest first.
pub async fn mailed_links(app: &TestApp, kind: &str, path: &str) -> Vec<(String, String)> {
    queued_mails(app, kind)
        .await
        .into_iter()
        .map(|(to, text)| (to, link_token(&text, path)))
        .collect()
}
