//! The pages the links in the body of a notification mail open: `/mail/unsubscribe?token=…`
//! (docs/decisions/0325-notification-preferences-and-unsubscribe.md) and
//! `/mail/attendance?token=…` (docs/decisions/0329-reminders-with-attendance-links.md). Opening a
//! link shows what it would do, in the member's language, with one button; only the button's
//! POST changes anything, so a mail scanner that follows links changes nothing. No script;
//! the page allows a form to its own origin only, is never cached and sends no referrer (the
//! token is in its address).

use super::Lang;
use super::layout::{Ctx, frame};
use crate::error::ApiError;
use crate::services::mail::templates::{self, Language};
use crate::services::reminders::{self, LinkAction, LinkView};
use crate::services::unsubscribe;
use crate::state::AppState;
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};
use clubcomp_core::club_site::ClubSite;
use clubcomp_core::vocab::NotifyKind;
use maud::{Markup, html};
use std::sync::Arc;

/// The page's Content-Security-Policy: the club pages' one, with forms to this origin.
const CSP: &str = "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; \
                   form-action 'self'; frame-ancestors 'none'";

/// The path of the unsubscribe page.
pub const UNSUBSCRIBE_PATH: &str = "/mail/unsubscribe";
/// The path of the sign-up and sign-off page.
pub const ATTENDANCE_PATH: &str = reminders::PAGE;

fn lang_of(l: Language) -> Lang {
    match l {
        Language::Nl => Lang::Nl,
        Language::En => Lang::En,
    }
}

fn answer(
    req: &HttpRequest,
    status: StatusCode,
    lang: Lang,
    path: &str,
    body: Markup,
) -> HttpResponse {
    let site = req
        .app_data::<web::Data<AppState>>()
        .map(|s| s.club_site.clone())
        .unwrap_or_else(|| Arc::new(ClubSite::from_lookup(|_| None, &mut Vec::new())));
    let q = super::PageQuery {
        site,
        lang,
        lang_chosen: false,
        embed: false,
        after: None,
    };
    let title = lang.t("Clubmails", "Club mails");
    let page = super::layout::finish(frame(&Ctx::new(q, path), title, body));
    HttpResponse::build(status)
        .insert_header((header::CONTENT_TYPE, "text/html; charset=utf-8"))
        .insert_header((
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CSP),
        ))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header(("Referrer-Policy", "no-referrer"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .body(page)
}

/// The visitor's language, for a page before the token names the member.
fn visitor_lang(req: &HttpRequest) -> Lang {
    super::page_query(req, false)
        .map(|q| q.lang)
        .unwrap_or(Lang::Nl)
}

fn query_token(req: &HttpRequest) -> String {
    web::Query::<std::collections::HashMap<String, String>>::from_query(req.query_string())
        .ok()
        .and_then(|q| q.get("token").cloned())
        .unwrap_or_default()
}

/// The token a page's form sends.
#[derive(Debug, serde::Deserialize)]
pub struct Confirmation {
    token: String,
}

fn form_token(body: &[u8]) -> Option<String> {
    serde_urlencoded::from_bytes::<Confirmation>(body)
        .ok()
        .map(|c| c.token)
}

/// The page for a refused link: the problem's words (the token's field names why), or a
/// general failure.
fn refused(req: &HttpRequest, lang: Lang, path: &str, e: ApiError) -> HttpResponse {
    let (status, why) = match e {
        ApiError::Validation { errors, .. } => (
            StatusCode::UNPROCESSABLE_ENTITY,
            errors
                .first()
                .map(|e| format!("{}: {}", e.field, e.message))
                .unwrap_or_default(),
        ),
        ApiError::Conflict(detail) => (StatusCode::CONFLICT, detail),
        _ => {
            let body = html! { p { (lang.t("Dat lukte nu niet; probeer het later opnieuw.", "That did not work now; try again later.")) } };
            return answer(req, StatusCode::SERVICE_UNAVAILABLE, lang, path, body);
        }
    };
    let body = html! {
        p class="problem" role="alert" { (why) }
        p { (lang.t("Open de link uit de e-mail opnieuw, of vraag het de wedstrijdleider.", "Open the link in the e-mail again, or ask the competition leader.")) }
    };
    answer(req, status, lang, path, body)
}

fn incomplete(req: &HttpRequest, path: &str) -> HttpResponse {
    let lang = visitor_lang(req);
    let body = html! { p class="problem" role="alert" { (lang.t("token: deze link is niet volledig; open de link uit de e-mail opnieuw.", "token: this link is incomplete; open the link in the e-mail again.")) } };
    answer(req, StatusCode::BAD_REQUEST, lang, path, body)
}

/// The unsubscribe link's page: which mails it stops, and the button that stops them.
pub async fn unsubscribe_page(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let token = query_token(&req);
    if token.is_empty() || token.len() > unsubscribe::TOKEN_MAX {
        return incomplete(&req, UNSUBSCRIBE_PATH);
    }
    let key = state.unsubscribe.clone();
    let t = token.clone();
    match state.db(move |c| unsubscribe::describe(c, &key, &t)).await {
        Ok((kind, l)) => {
            let lang = lang_of(l);
            let what = templates::kind_name(l, kind);
            let body = html! {
                form method="post" action=(UNSUBSCRIBE_PATH) {
                    input type="hidden" name="token" value=(token);
                    p { (lang.t("Wil je geen", "Do you want to stop receiving")) " " strong { (what) } " " (lang.t("meer ontvangen?", "?")) }
                    p { button type="submit" { (lang.t("Afmelden voor deze mails", "Stop these mails")) } }
                }
                p { (lang.t("Je kunt ze later weer aanzetten bij je meldingen.", "You can turn them on again in your notification settings.")) }
            };
            answer(&req, StatusCode::OK, lang, UNSUBSCRIBE_PATH, body)
        }
        Err(e) => refused(&req, visitor_lang(&req), UNSUBSCRIBE_PATH, e),
    }
}

/// The unsubscribe page's button: turns that kind of mail off.
pub async fn unsubscribe_submit(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> HttpResponse {
    let Some(token) =
        form_token(&body).filter(|t| !t.is_empty() && t.len() <= unsubscribe::TOKEN_MAX)
    else {
        return incomplete(&req, UNSUBSCRIBE_PATH);
    };
    let key = state.unsubscribe.clone();
    let outcome = state
        .tx(move |c| {
            let now = crate::services::date::now_utc();
            unsubscribe::unsubscribe_in_language(c, &key, &token, now)
        })
        .await;
    match outcome {
        Ok((kind, l)) => {
            let lang = lang_of(l);
            let body = html! {
                p role="status" { (done_line(l, kind)) }
                p { a href="/club/" { (lang.t("Naar de clubpagina's", "To the club pages")) } }
            };
            answer(&req, StatusCode::OK, lang, UNSUBSCRIBE_PATH, body)
        }
        Err(e) => refused(&req, visitor_lang(&req), UNSUBSCRIBE_PATH, e),
    }
}

fn done_line(l: Language, kind: NotifyKind) -> String {
    let what = templates::kind_name(l, kind);
    match l {
        Language::Nl => format!("Je ontvangt geen {what} meer."),
        Language::En => format!("You will no longer receive {what}."),
    }
}

fn evening_line(v: &LinkView) -> String {
    let l = v.lang;
    let day = crate::services::notifications::long_date(l, v.evening.date);
    let (c, n) = (&v.evening.competition, v.evening.number);
    match l {
        Language::Nl => format!("ronde {n} van {c} op {day}"),
        Language::En => format!("round {n} of {c} on {day}"),
    }
}

/// The reminder link's page: the evening, what the link records and the button that does it.
pub async fn attendance_page(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let token = query_token(&req);
    if token.is_empty() || token.len() > reminders::TOKEN_MAX {
        return incomplete(&req, ATTENDANCE_PATH);
    }
    let key = state.attendance_links.clone();
    let tz = state.config.club_timezone.name().to_string();
    let t = token.clone();
    let view = state
        .db(move |c| reminders::describe(c, &key, &t, chrono::Utc::now(), &tz))
        .await;
    match view {
        Ok(v) => {
            let lang = lang_of(v.lang);
            let evening = evening_line(&v);
            let (question, button) = match v.action {
                LinkAction::SignUp => (
                    lang.t("Aanmelden voor", "Sign up for"),
                    lang.t("Aanmelden", "Sign up"),
                ),
                LinkAction::SignOff => (
                    lang.t("Afmelden voor", "Sign off for"),
                    lang.t("Afmelden", "Sign off"),
                ),
            };
            let body = html! {
                form method="post" action=(ATTENDANCE_PATH) {
                    input type="hidden" name="token" value=(token);
                    p { (v.name) ": " (question) " " strong { (evening) } "?" }
                    p { button type="submit" { (button) } }
                }
                p { (lang.t("Deze link werkt tot", "This link works until")) " " (v.evening.deadline) "." }
            };
            answer(&req, StatusCode::OK, lang, ATTENDANCE_PATH, body)
        }
        Err(e) => refused(&req, visitor_lang(&req), ATTENDANCE_PATH, e),
    }
}

/// The reminder page's button: records the sign-up or sign-off.
pub async fn attendance_submit(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> HttpResponse {
    let Some(token) =
        form_token(&body).filter(|t| !t.is_empty() && t.len() <= reminders::TOKEN_MAX)
    else {
        return incomplete(&req, ATTENDANCE_PATH);
    };
    let key = state.attendance_links.clone();
    let tz = state.config.club_timezone.name().to_string();
    let outcome = state
        .tx(move |c| reminders::follow(c, &key, &token, chrono::Utc::now(), &tz))
        .await;
    match outcome {
        Ok(v) => {
            let lang = lang_of(v.lang);
            let evening = evening_line(&v);
            let line = match (v.action, v.lang) {
                (LinkAction::SignUp, Language::Nl) => format!("Je bent aangemeld voor {evening}."),
                (LinkAction::SignUp, Language::En) => {
                    format!("You are signed up for {evening}.")
                }
                (LinkAction::SignOff, Language::Nl) => format!("Je bent afgemeld voor {evening}."),
                (LinkAction::SignOff, Language::En) => {
                    format!("You are signed off for {evening}.")
                }
            };
            let body = html! {
                p role="status" { (line) }
                p { a href="/club/" { (lang.t("Naar de clubpagina's", "To the club pages")) } }
            };
            answer(&req, StatusCode::OK, lang, ATTENDANCE_PATH, body)
        }
        Err(e) => refused(&req, visitor_lang(&req), ATTENDANCE_PATH, e),
    }
}
