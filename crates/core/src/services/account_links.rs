//! Single-use links of accounts ([decision 0321](../../../../docs/decisions/0321-account-links.md)):
//! an invitation mails a link with a token of 256 random bits, of which only the SHA-256 is
//! kept; accepting it within `INVITE_TTL_HOURS` sets the password, marks the address verified
//! and signs in. A token works once; a new invitation ends the ones before. A disabled
//! account's token is answered as an unknown one.

use crate::error::{ApiError, ApiResult};
use crate::ids::UserId;
use crate::mail_config::MailSettings;
use crate::services::mail::templates::{self, Content, Language};
use crate::services::mail::{self, Mail};
use crate::services::refresh_tokens::{self, Issued, Policy};
use crate::store::DbConn;
use crate::store::models::users::{self, User};
use crate::store::schema::{account_tokens as at, players};
use base64::Engine as _;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// The prefix of every account-link token.
pub const PREFIX: &str = "cca_";
/// The longest token a request may hold (an issued one has 47 characters).
pub const MAX_TOKEN_LEN: usize = 128;
/// The most accounts one bulk invitation names.
pub const MAX_BULK: usize = 200;
/// The purpose of an invitation's token.
pub const INVITATION: &str = "invitation";

#[derive(Insertable)]
#[diesel(table_name = at)]
struct NewToken<'a> {
    user_id: UserId,
    purpose: &'a str,
    token_hash: &'a str,
    new_email: Option<&'a str>,
    created_at: NaiveDateTime,
    expires_at: NaiveDateTime,
}

#[derive(Queryable, Selectable)]
#[diesel(table_name = at, check_for_backend(crate::store::MultiBackend))]
struct StoredToken {
    id: i64,
    user_id: UserId,
    new_email: Option<String>,
    expires_at: NaiveDateTime,
    used_at: Option<NaiveDateTime>,
}

/// A token spent: its account, and the new address an address change's token carries.
#[derive(Debug, Clone)]
pub struct Spent {
    /// The account.
    pub user: UserId,
    /// The address to change to (address changes only).
    pub new_email: Option<String>,
}

fn new_token() -> ApiResult<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| ApiError::Internal(format!("no randomness for a link token: {e}")))?;
    Ok(format!(
        "{PREFIX}{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
    ))
}

/// An invitation queued.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct Invited {
    /// The account.
    #[schema(value_type = i64)]
    pub user_id: UserId,
    /// The address the invitation is mailed to.
    pub email: String,
    /// Until when its link works (UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    #[schema(value_type = String, format = DateTime)]
    pub expires_at: chrono::DateTime<chrono::Utc>,
}

/// The name of the player linked to an account, if any.
pub(crate) fn player_name(c: &mut DbConn, user: &User) -> ApiResult<String> {
    let Some(pid) = user.player_id else {
        return Ok(String::new());
    };
    Ok(players::table
        .find(pid)
        .select(players::name)
        .first::<String>(c)
        .optional()?
        .unwrap_or_default())
}

/// A new token and its stored form (the SHA-256).
pub fn make_token() -> ApiResult<(String, String)> {
    let token = new_token()?;
    let hash = refresh_tokens::hash(&token);
    Ok((token, hash))
}

/// Stores the token `hash` of `purpose` for `user`, valid until `expires_at`, ending the
/// unused ones of that purpose before.
pub fn store_token(
    c: &mut DbConn,
    user: UserId,
    purpose: &str,
    hash: &str,
    new_email: Option<&str>,
    now: NaiveDateTime,
    expires_at: NaiveDateTime,
) -> ApiResult<()> {
    diesel::update(
        at::table
            .filter(at::user_id.eq(user))
            .filter(at::purpose.eq(purpose))
            .filter(at::used_at.is_null()),
    )
    .set(at::used_at.eq(Some(now)))
    .execute(c)?;
    diesel::insert_into(at::table)
        .values(&NewToken {
            user_id: user,
            purpose,
            token_hash: hash,
            new_email,
            created_at: now,
            expires_at,
        })
        .execute(c)?;
    Ok(())
}

/// Why a token is refused, in the words of its purpose.
#[derive(Debug, Clone, Copy)]
pub struct Refusals {
    /// An unknown token, or one of a disabled account.
    pub unknown: &'static str,
    /// A token used already (or ended by a newer one).
    pub used: &'static str,
    /// An expired token.
    pub expired: &'static str,
}

/// Spends a token of `purpose` (in the caller's transaction): it must be unused and unexpired,
/// of an enabled account; of two concurrent uses one wins. Returns the account; a refusal is a
/// 422 on `token` in the words of `why`.
pub fn spend(
    c: &mut DbConn,
    token: &str,
    purpose: &str,
    now: NaiveDateTime,
    why: Refusals,
) -> ApiResult<UserId> {
    Ok(spend_token(c, token, purpose, now, why)?.user)
}

/// The login name (the address) of the account a token of `purpose` is for, while the token
/// still works: known, unused, unexpired, of an enabled account; `None` otherwise. Reads only:
/// the link's page shows it to password managers, and opening the link spends nothing.
pub fn login_name(
    c: &mut DbConn,
    token: &str,
    purpose: &str,
    now: NaiveDateTime,
) -> ApiResult<Option<String>> {
    let row: Option<StoredToken> = at::table
        .filter(at::token_hash.eq(refresh_tokens::hash(token)))
        .filter(at::purpose.eq(purpose))
        .select(StoredToken::as_select())
        .first(c)
        .optional()?;
    let Some(row) = row.filter(|r| r.used_at.is_none() && r.expires_at > now) else {
        return Ok(None);
    };
    Ok(users::by_id(c, row.user_id)?
        .filter(|u| u.active)
        .map(|u| u.email))
}

/// [`spend`], answering what the token carries as well.
pub fn spend_token(
    c: &mut DbConn,
    token: &str,
    purpose: &str,
    now: NaiveDateTime,
    why: Refusals,
) -> ApiResult<Spent> {
    let row: StoredToken = at::table
        .filter(at::token_hash.eq(refresh_tokens::hash(token)))
        .filter(at::purpose.eq(purpose))
        .select(StoredToken::as_select())
        .first(c)
        .optional()?
        .ok_or_else(|| ApiError::invalid("token", why.unknown))?;
    let user = users::by_id(c, row.user_id)?
        .filter(|u| u.active)
        .ok_or_else(|| ApiError::invalid("token", why.unknown))?;
    if row.used_at.is_some() {
        return Err(ApiError::invalid("token", why.used));
    }
    if row.expires_at <= now {
        return Err(ApiError::invalid("token", why.expired));
    }
    let spent = diesel::update(
        at::table
            .filter(at::id.eq(row.id))
            .filter(at::used_at.is_null()),
    )
    .set(at::used_at.eq(Some(now)))
    .execute(c)?;
    if spent == 0 {
        return Err(ApiError::invalid("token", why.used));
    }
    Ok(Spent {
        user: user.id,
        new_email: row.new_email,
    })
}

/// The language of the mails to `user`: their player's choice (`member_preferences`), Dutch
/// when they made none or the account has no player.
pub fn mail_language(c: &mut DbConn, user: &User) -> ApiResult<Language> {
    let code = match user.player_id {
        Some(p) => crate::services::preferences::language(c, p)?,
        None => None,
    };
    Ok(Language::parse(code.as_deref()))
}

/// Invites account `id` (in the caller's transaction): a new single-use link, mailed to the
/// account's address in the outbox. 404 for no such account, 409 for a disabled one.
pub fn invite(
    c: &mut DbConn,
    settings: &MailSettings,
    id: UserId,
    now: NaiveDateTime,
) -> ApiResult<Invited> {
    let user = users::by_id(c, id)?.ok_or_else(|| ApiError::NotFound(format!("no user {id}")))?;
    if !user.active {
        return Err(ApiError::Conflict(format!(
            "user {id} is disabled; enable the account before inviting it"
        )));
    }
    let expires_at = now + settings.invite_ttl;
    let (token, hash) = make_token()?;
    store_token(c, user.id, INVITATION, &hash, None, now, expires_at)?;
    let name = player_name(c, &user)?;
    let lang = mail_language(c, &user)?;
    let club = templates::club_name(settings, lang);
    let url = format!("{}/account/invitation?token={token}", settings.public_url);
    let content = invitation_content(lang, &club, &name, &user.email, expires_at, url);
    let (text, html) = templates::layout(lang, &club, &content);
    mail::enqueue(
        c,
        settings,
        &Mail {
            kind: INVITATION,
            event: format!("{}:{hash}", user.id),
            to: user.email.clone(),
            to_name: name,
            subject: match lang {
                Language::Nl => format!("Uitnodiging: je account bij {club}"),
                Language::En => format!("Invitation: your account at {club}"),
            },
            text,
            html,
            unsubscribe_url: None,
        },
    )?;
    Ok(Invited {
        user_id: user.id,
        email: user.email,
        expires_at: expires_at.and_utc(),
    })
}

/// Invites every account of `ids` (at most [`MAX_BULK`], each once) in the caller's
/// transaction: all of them, or none when one cannot be invited.
pub fn invite_many(
    c: &mut DbConn,
    settings: &MailSettings,
    ids: &[UserId],
    now: NaiveDateTime,
) -> ApiResult<Vec<Invited>> {
    if ids.is_empty() || ids.len() > MAX_BULK {
        return Err(ApiError::invalid(
            "user_ids",
            format!("must name 1 to {MAX_BULK} accounts"),
        ));
    }
    let mut seen = std::collections::HashSet::new();
    for (i, id) in ids.iter().enumerate() {
        if !seen.insert(*id) {
            return Err(ApiError::invalid(
                &format!("user_ids[{i}]"),
                format!("names account {id} a second time"),
            ));
        }
    }
    ids.iter().map(|id| invite(c, settings, *id, now)).collect()
}

/// Checks the length and prefix of a token from a request (422 naming `token`).
pub fn check_token(token: &str) -> ApiResult<()> {
    if token.len() > MAX_TOKEN_LEN || !token.starts_with(PREFIX) {
        return Err(ApiError::invalid("token", "is not a link token"));
    }
    Ok(())
}

/// Accepts an invitation (in the caller's transaction) and starts a session, answered as a
/// login: [`accept_password`], then [`refresh_tokens::start`].
pub fn accept(
    c: &mut DbConn,
    token: &str,
    hash: &str,
    now: NaiveDateTime,
    policy: &Policy,
) -> ApiResult<Issued> {
    let user = accept_password(c, token, hash, now)?;
    refresh_tokens::start(c, user, now, policy)
}

/// Accepts an invitation without signing in (in the caller's transaction): the token must be
/// an invitation's, unused and unexpired, of an enabled account. Sets the password (its
/// argon2 `hash`, made by the caller), ends every session and token before and marks the
/// address verified; returns the account.
pub fn accept_password(
    c: &mut DbConn,
    token: &str,
    hash: &str,
    now: NaiveDateTime,
) -> ApiResult<UserId> {
    let user = spend(
        c,
        token,
        INVITATION,
        now,
        Refusals {
            unknown: "is not a valid invitation",
            used: "the invitation was used already (or a newer one was sent); log in, or ask for a new invitation",
            expired: "the invitation has expired; ask for a new one",
        },
    )?;
    crate::services::users::set_password_hash(c, user, hash)?;
    crate::services::users::rows::mark_email_verified(c, user, now)?;
    Ok(user)
}

/// Forgets every single-use link of account `user`, used or not (an erased member:
/// [`crate::services::erasure`]); a link of the account no longer works.
pub fn forget(c: &mut DbConn, user: UserId) -> ApiResult<()> {
    diesel::delete(at::table.filter(at::user_id.eq(user))).execute(c)?;
    Ok(())
}

/// The words of an invitation to `name` (login `login`), valid until `expires_at`.
fn invitation_content(
    lang: Language,
    club: &str,
    name: &str,
    login: &str,
    expires_at: NaiveDateTime,
    url: String,
) -> Content {
    let until = expires_at.format("%d-%m-%Y %H:%M UTC");
    match lang {
        Language::Nl => Content {
            name: name.to_string(),
            paragraphs: vec![
                format!(
                    "{club} nodigt je uit voor je eigen account in de competitie: daarmee meld je \
                     je aan of af voor speelavonden en zie je je partijen en uitslagen."
                ),
                format!(
                    "Kies je wachtwoord met de link hieronder. Hij werkt één keer en tot {until}. \
                     Je inlognaam is {login}."
                ),
            ],
            link: Some(("Kies je wachtwoord".into(), url)),
            footer: Some(format!(
                "Je krijgt dit bericht omdat {club} je als lid heeft ingeschreven."
            )),
        },
        Language::En => Content {
            name: name.to_string(),
            paragraphs: vec![
                format!(
                    "{club} invites you to your own account for the club's competitions: with it \
                     you sign up for or off club nights and see your games and results."
                ),
                format!(
                    "Choose your password with the link below. It works once, until {until}. \
                     Your login is {login}."
                ),
            ],
            link: Some(("Choose your password".into(), url)),
            footer: Some(format!(
                "You receive this message because {club} registered you as a member."
            )),
        },
    }
}
