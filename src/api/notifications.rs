//! A member's notification choices and the one-click unsubscribe link of their mails
//! (docs/api-guide.md#notification-mails).

use crate::api::Body;
use crate::auth::{AnyRole, Auth};
use crate::error::{ApiError, ApiResult, Problem};
use crate::ids::PlayerId;
use crate::services::mail::templates::Language;
use crate::services::preferences::{self, Stored};

use crate::state::AppState;
use actix_web::{HttpResponse, get, post, put, web};
use clubcomp_core::vocab::NotifyKind;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// The language of a member's mails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MailLanguage {
    /// Dutch.
    Nl,
    /// English.
    En,
}

/// Each kind of notification mail on or off, and the mails' language.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"pairing": true, "reminder": true, "result": false,
    "decision": false, "prizes": false, "language": "nl"}))]
pub struct NotificationChoices {
    /// A round's pairing is published.
    pub pairing: bool,
    /// The sign-up deadline of an evening is near.
    pub reminder: bool,
    /// A result of one's own game is entered or corrected.
    pub result: bool,
    /// A decision on a claim, an appeal or a protest in one's game.
    pub decision: bool,
    /// The prizes of a half are final.
    pub prizes: bool,
    /// The language of the mails.
    pub language: MailLanguage,
}

/// What the unsubscribe link turned off.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Unsubscribed {
    /// The kind of mail now off.
    pub kind: NotifyKind,
}

/// The token of an unsubscribe link.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct UnsubscribeQuery {
    /// The token of the mail's link (at most 64 characters).
    pub token: String,
}

/// Registers the operations of this module.
pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(get_notifications);
    cfg.service(put_notifications);
    cfg.service(unsubscribe_link);
}

fn linked_player(auth: &Auth<AnyRole>) -> ApiResult<PlayerId> {
    auth.principal.player_id.ok_or_else(|| {
        ApiError::invalid(
            "account",
            "your account is not linked to a player; ask the leader to record it",
        )
    })
}

fn effective(s: &Stored, lang: Option<&str>, defaults: &[NotifyKind]) -> NotificationChoices {
    NotificationChoices {
        pairing: s.on(NotifyKind::Pairing, defaults),
        reminder: s.on(NotifyKind::Reminder, defaults),
        result: s.on(NotifyKind::Result, defaults),
        decision: s.on(NotifyKind::Decision, defaults),
        prizes: s.on(NotifyKind::Prizes, defaults),
        language: match Language::parse(lang) {
            Language::Nl => MailLanguage::Nl,
            Language::En => MailLanguage::En,
        },
    }
}

async fn read(state: &web::Data<AppState>, player: PlayerId) -> ApiResult<NotificationChoices> {
    let defaults = state.config.mail.notify_defaults.clone();
    state
        .db(move |c| {
            let (s, lang) = preferences::choices(c, player)?;
            Ok(effective(&s, lang.as_deref(), &defaults))
        })
        .await
}

/// The caller's notification choices as they act: each kind their choice, else the club's
/// default (`NOTIFY_DEFAULTS`), and the language (Dutch unless they chose English).
#[utoipa::path(tag = "auth",
    responses((status = 200, description = "The choices", body = NotificationChoices),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The account is not linked to a player", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin", "leader", "arbiter", "member", "rating_sync"])))]
#[get("/me/notifications")]
pub async fn get_notifications(
    auth: Auth<AnyRole>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let player = linked_player(&auth)?;
    let choices = read(&state, player).await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "private, no-cache"))
        .json(choices))
}

/// Sets every notification choice and the language of the caller's mails; answers them.
/// Every field is required; a kind set here no longer follows the club's default.
#[utoipa::path(tag = "auth", request_body = NotificationChoices,
    responses((status = 200, description = "The choices", body = NotificationChoices),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A missing or unknown field, a language other than nl or en, or an account not linked to a player", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin", "leader", "arbiter", "member", "rating_sync"])))]
#[put("/me/notifications")]
pub async fn put_notifications(
    auth: Auth<AnyRole>,
    state: web::Data<AppState>,
    body: Body<NotificationChoices>,
) -> ApiResult<HttpResponse> {
    let b = body.into_inner()?;
    let player = linked_player(&auth)?;
    let stored = Stored {
        pairing: Some(b.pairing),
        reminder: Some(b.reminder),
        result: Some(b.result),
        decision: Some(b.decision),
        prizes: Some(b.prizes),
    };
    let lang = match b.language {
        MailLanguage::Nl => Language::Nl,
        MailLanguage::En => Language::En,
    };
    state
        .tx(move |c| {
            let now = crate::services::date::now_utc();
            preferences::set_all(c, player, &stored, Some(lang.code()), now)
        })
        .await?;
    let choices = read(&state, player).await?;
    Ok(HttpResponse::Ok().json(choices))
}

/// The one-click unsubscribe of a notification mail (RFC 8058): the mail's
/// `List-Unsubscribe` link, posted without a login, with the body
/// `List-Unsubscribe=One-Click` (the body is not needed). Turns that kind of mail off for
/// the player it was sent to; posting it again changes nothing.
#[utoipa::path(tag = "auth", params(UnsubscribeQuery),
    responses((status = 200, description = "The kind is off", body = Unsubscribed),
        (status = 400, description = "No token", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A token this club did not sign", body = Problem, content_type = "application/problem+json")))]
#[post("/notifications/unsubscribe")]
pub async fn unsubscribe_link(
    state: web::Data<AppState>,
    query: web::Query<UnsubscribeQuery>,
) -> ApiResult<HttpResponse> {
    let token = query.into_inner().token;
    let key = state.unsubscribe.clone();
    key.verify(&token)
        .map_err(|e| ApiError::validation(vec![e]))?;
    let kind = state
        .tx(move |c| {
            let now = crate::services::date::now_utc();
            crate::services::unsubscribe::unsubscribe(c, &key, &token, now)
        })
        .await?;
    Ok(HttpResponse::Ok().json(Unsubscribed { kind }))
}
