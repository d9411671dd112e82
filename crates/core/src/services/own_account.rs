//! A member's own account ([decision 0322](../../../../docs/decisions/0322-own-account.md)):
//! a new password given with the current one, and a new e-mail address that takes effect only
//! when a link mailed to it is opened. Changing the password ends every session and starts a
//! new one for the device that changed it; the old address is told of an address change.

use crate::error::{ApiError, ApiResult};
use crate::ids::UserId;
use crate::mail_config::MailSettings;
use crate::services::account_links::{self, Refusals};
use crate::services::mail::templates::{self, Content, Language};
use crate::services::mail::{self, Mail};
use crate::services::refresh_tokens::{self, Issued, Policy};
use crate::services::throttle::Throttle;
use crate::store::DbConn;
use crate::store::models::users;
use chrono::NaiveDateTime;

/// The purpose of an address change's token.
pub const EMAIL_CHANGE: &str = "email_change";
/// How long an address change's link works.
pub const EMAIL_TTL_HOURS: i64 = 24;
/// The kind of the mail that tells the old address of a change.
pub const EMAIL_CHANGED_NOTICE: &str = "email_change_notice";

/// Starts a password change from `address` (in a transaction of its own, committed before the
/// slow password check): the attempt is counted by the login throttle of the account and
/// address until [`change_password`] takes it back, so guessing the current password is held
/// back as guessing it at login is (429 when used up). Answers the stored hash to check the
/// current password against, and the account's address (401 for an account that is gone or
/// disabled).
pub fn begin_password_change(
    c: &mut DbConn,
    throttle: &Throttle,
    user: UserId,
    address: &str,
    now: NaiveDateTime,
) -> ApiResult<(String, String)> {
    let account = users::by_id(c, user)?
        .filter(|u| u.active)
        .ok_or_else(|| ApiError::Unauthorized("the account is disabled".into()))?;
    if let Err(retry_after) = throttle.attempt(c, &account.email, address, true, now)? {
        return Err(ApiError::TooManyRequests {
            detail: "too many wrong current passwords; wait before trying again".into(),
            retry_after,
        });
    }
    Ok((account.password_hash, account.email))
}

/// The checked password change (in the caller's transaction), after the current password was
/// verified against `checked`: when the stored hash is still that one (a change in between is
/// a 409), sets the new one, takes the counted attempt back, ends every session and access
/// token of the account and starts a new session for the caller.
pub fn change_password(
    c: &mut DbConn,
    throttle: &Throttle,
    (user, address): (UserId, &str),
    (checked, new_hash): (&str, &str),
    now: NaiveDateTime,
    policy: &Policy,
) -> ApiResult<Issued> {
    let account = users::by_id(c, user)?
        .filter(|u| u.active)
        .ok_or_else(|| ApiError::Unauthorized("the account is disabled".into()))?;
    if account.password_hash != checked {
        return Err(ApiError::Conflict(
            "the password was changed meanwhile; sign in again".into(),
        ));
    }
    throttle.forgive(c, &account.email, address, true, true)?;
    crate::services::users::set_password_hash(c, user, new_hash)?;
    refresh_tokens::start(c, user, now, policy)
}

/// An address change asked for.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct EmailChange {
    /// The new address the confirmation link was mailed to.
    pub email: String,
    /// Until when the link works (UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    #[schema(value_type = String, format = DateTime)]
    pub expires_at: chrono::DateTime<chrono::Utc>,
}

/// Asks to change the address of `user` to `new_email` (in the caller's transaction): a link
/// that works once and for [`EMAIL_TTL_HOURS`] is mailed to the new address, and the old one
/// is told. 422 for an address that is not one or is the account's own, 409 for one another
/// account has.
pub fn request_email_change(
    c: &mut DbConn,
    settings: &MailSettings,
    user: UserId,
    new_email: &str,
    now: NaiveDateTime,
) -> ApiResult<EmailChange> {
    if !crate::services::users::valid_email(new_email) {
        return Err(ApiError::invalid("email", "is not a valid e-mail address"));
    }
    let email = new_email.trim().to_lowercase();
    let account = users::by_id(c, user)?
        .filter(|u| u.active)
        .ok_or_else(|| ApiError::Unauthorized("the account is disabled".into()))?;
    if account.email == email {
        return Err(ApiError::invalid(
            "email",
            "is the account's address already",
        ));
    }
    if users::by_email(c, &email)?.is_some() {
        return Err(ApiError::AlreadyExists {
            field: "email",
            detail: format!("email: another account has the address {email}"),
        });
    }
    let expires_at = now + chrono::Duration::hours(EMAIL_TTL_HOURS);
    let (token, hash) = account_links::make_token()?;
    account_links::store_token(c, user, EMAIL_CHANGE, &hash, Some(&email), now, expires_at)?;
    let name = account_links::player_name(c, &account)?;
    let lang = Language::Nl;
    let club = templates::club_name(settings, lang);
    let url = format!("{}/account/email?token={token}", settings.public_url);
    let confirm = Content {
        name: name.clone(),
        paragraphs: vec![
            format!(
                "Je hebt gevraagd om {email} voortaan als adres en inlognaam van je account bij \
                 {club} te gebruiken."
            ),
            "Bevestig het met de link hieronder; hij werkt één keer en 24 uur lang. Tot dan \
             blijft je oude adres gelden."
                .into(),
        ],
        link: Some(("Adres bevestigen".into(), url)),
        footer: None,
    };
    let (text, html) = templates::layout(lang, &club, &confirm);
    mail::enqueue(
        c,
        settings,
        &Mail {
            kind: EMAIL_CHANGE,
            event: format!("{user}:{hash}"),
            to: email.clone(),
            to_name: name.clone(),
            subject: format!("Bevestig je nieuwe adres bij {club}"),
            text,
            html,
            unsubscribe_url: None,
        },
    )?;
    let notice = Content {
        name: name.clone(),
        paragraphs: vec![format!(
            "Er is gevraagd om het adres van je account bij {club} te wijzigen in {email}. \
             Het nieuwe adres geldt pas als de link in de mail aan dat adres is geopend. Heb je \
             dit niet zelf gevraagd? Kies dan een nieuw wachtwoord en laat het de club weten."
        )],
        link: None,
        footer: None,
    };
    let (text, html) = templates::layout(lang, &club, &notice);
    mail::enqueue(
        c,
        settings,
        &Mail {
            kind: EMAIL_CHANGED_NOTICE,
            event: format!("{user}:{hash}"),
            to: account.email,
            to_name: name,
            subject: format!("Je adres bij {club} wordt gewijzigd"),
            text,
            html,
            unsubscribe_url: None,
        },
    )?;
    Ok(EmailChange {
        email,
        expires_at: expires_at.and_utc(),
    })
}

/// Confirms an address change with its link's token (in the caller's transaction): the
/// account takes the new address, verified. A token used, expired, or ended by a newer
/// request is refused naming that; an address another account took meanwhile is a 409.
pub fn confirm_email_change(c: &mut DbConn, token: &str, now: NaiveDateTime) -> ApiResult<String> {
    let spent = account_links::spend_token(
        c,
        token,
        EMAIL_CHANGE,
        now,
        Refusals {
            unknown: "is not a valid address-confirmation link",
            used: "the link was used already (or a newer change was asked); ask again",
            expired: "the link has expired; ask for the change again",
        },
    )?;
    let email = spent
        .new_email
        .ok_or_else(|| ApiError::Internal("an address change's token without an address".into()))?;
    if users::by_email(c, &email)?.is_some_and(|u| u.id != spent.user) {
        return Err(ApiError::AlreadyExists {
            field: "email",
            detail: format!("email: another account has the address {email} now"),
        });
    }
    crate::services::users::rows::set_email(c, spent.user, &email, now)?;
    Ok(email)
}
