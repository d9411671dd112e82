//! A forgotten password ([decision 0321](../../../../docs/decisions/0321-account-links.md)):
//! a request for an address answers the same whether or not an account has it, after the same
//! work (a token made and hashed either way); an enabled account gets a mail with a link that
//! works once and for an hour. At most [`MAX_PER_HOUR`] such mails go to one account in an
//! hour, however many requests come. Confirming sets the password and ends every session and
//! every access token issued before.

use crate::error::{ApiError, ApiResult};
use crate::mail_config::MailSettings;
use crate::services::account_links;
use crate::services::mail::templates::{self, Content, Language};
use crate::services::mail::{self, Mail};
use crate::store::DbConn;
use crate::store::models::users;
use crate::store::schema::account_tokens as at;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// The purpose of a reset's token.
pub const PASSWORD_RESET: &str = "password_reset";
/// How long a reset link works.
pub const TTL_MINUTES: i64 = 60;
/// The most reset mails one account gets in an hour.
pub const MAX_PER_HOUR: i64 = 3;
/// The longest address a request may hold.
pub const MAX_EMAIL_LEN: usize = 254;

/// Asks for a reset of the password of the account with `email` (in the caller's
/// transaction). Nothing tells the caller whether there is one.
pub fn request(
    c: &mut DbConn,
    settings: &MailSettings,
    email: &str,
    now: NaiveDateTime,
) -> ApiResult<()> {
    // the token is made and hashed whether or not it is stored, so both answers cost the same
    let (token, hash) = account_links::make_token()?;
    let Some(user) = users::by_email(c, email.trim())?.filter(|u| u.active) else {
        return Ok(());
    };
    let recent: i64 = at::table
        .filter(at::user_id.eq(user.id))
        .filter(at::purpose.eq(PASSWORD_RESET))
        .filter(at::created_at.gt(now - chrono::Duration::hours(1)))
        .count()
        .get_result(c)?;
    if recent >= MAX_PER_HOUR {
        return Ok(());
    }
    let expires_at = now + chrono::Duration::minutes(TTL_MINUTES);
    account_links::store_token(c, user.id, PASSWORD_RESET, &hash, None, now, expires_at)?;
    let lang = account_links::mail_language(c, &user)?;
    let club = templates::club_name(settings, lang);
    let url = format!(
        "{}/account/password-reset?token={token}",
        settings.public_url
    );
    let (paragraphs, button) = match lang {
        Language::Nl => (
            vec![
                format!(
                    "Er is gevraagd om een nieuw wachtwoord voor je account ({}) bij {club}.",
                    user.email
                ),
                "Kies een nieuw wachtwoord met de link hieronder. Hij werkt één keer en een \
                 uur lang. Heb je dit niet gevraagd? Dan hoef je niets te doen."
                    .to_string(),
            ],
            "Nieuw wachtwoord kiezen",
        ),
        Language::En => (
            vec![
                format!(
                    "A new password was asked for your account ({}) at {club}.",
                    user.email
                ),
                "Choose a new password with the link below. It works once, for an hour. \
                 Did you not ask for this? Then you need not do anything."
                    .to_string(),
            ],
            "Choose a new password",
        ),
    };
    let content = Content {
        name: String::new(),
        paragraphs,
        link: Some((button.into(), url)),
        footer: None,
    };
    let (text, html) = templates::layout(lang, &club, &content);
    mail::enqueue(
        c,
        settings,
        &Mail {
            kind: PASSWORD_RESET,
            event: format!("{}:{hash}", user.id),
            to: user.email.clone(),
            to_name: String::new(),
            subject: match lang {
                Language::Nl => format!("Nieuw wachtwoord voor je account bij {club}"),
                Language::En => format!("New password for your account at {club}"),
            },
            text,
            html,
            unsubscribe_url: None,
        },
    )?;
    Ok(())
}

/// Confirms a reset (in the caller's transaction): the token must be a reset's, unused and
/// unexpired, of an enabled account. Sets the password (its argon2 `hash`) and ends every
/// session and access token issued before.
pub fn confirm(c: &mut DbConn, token: &str, hash: &str, now: NaiveDateTime) -> ApiResult<()> {
    let user = account_links::spend(
        c,
        token,
        PASSWORD_RESET,
        now,
        account_links::Refusals {
            unknown: "is not a valid password-reset link",
            used: "the link was used already (or a newer one was sent); ask for a new one",
            expired: "the link has expired; ask for a new one",
        },
    )?;
    crate::services::users::set_password_hash(c, user, hash)
}

/// Checks the address of a request (422 naming `email`).
pub fn check_email(email: &str) -> ApiResult<()> {
    if email.len() > MAX_EMAIL_LEN || email.trim().is_empty() {
        return Err(ApiError::invalid(
            "email",
            format!("must be an address of at most {MAX_EMAIL_LEN} characters"),
        ));
    }
    Ok(())
}
