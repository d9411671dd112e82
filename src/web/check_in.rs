//! Self check-in on the club pages (docs/rules/rapid-blitz.md#self-check-in): the staff page
//! `/club/evenings/{id}/check-in` shows the evening's rotating code as a QR code of the
//! member's check-in address, and reloads itself when the code changes (a `<meta refresh>`,
//! no script); the member's page `/club/evenings/{id}/check-in/{code}`, opened from the QR
//! code on a phone, checks the signed-in member in with one button, through the same service
//! as `POST /api/v1/evenings/{id}/check-in`.

use super::layout::Ctx;
use super::session::{self, Session};
use crate::auth::{Arbiter, RoleSet};
use crate::error::ApiError;
use crate::ids::EveningId;
use crate::services::presence::{self, CheckInCode, SelfCheckIn};
use crate::state::AppState;
use actix_web::http::StatusCode;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{DOCTYPE, Markup, html};

/// The member's check-in address for evening `id` and `code`, absolute (a phone opens it).
pub fn member_url(state: &AppState, id: i64, code: &str) -> String {
    format!(
        "{}/club/evenings/{id}/check-in/{code}",
        state.config.mail.public_url
    )
}

/// Seconds until `code` rotates, at least one (the page reloads then).
pub fn seconds_left(code: &CheckInCode) -> i64 {
    (code.rotates_at - chrono::Utc::now()).num_seconds().max(0) + 1
}

/// The check-in panel: the QR code, the code in letters, the address as text.
pub fn panel(ctx: &Ctx, state: &AppState, code: &CheckInCode, size: u32) -> Markup {
    let url = member_url(state, code.evening_id, &code.code);
    let label = ctx.t("QR-code om in te checken", "QR code to check in");
    html! {
        figure class="check-in-qr" {
            (super::qr::svg(&url, size, label))
            figcaption {
                span class="code" { (code.code) }
                br;
                span class="url" { (url) }
            }
        }
    }
}

/// The staff's page: signed in as arbiter, leader or admin; 404 while the evening's check-in
/// is not open.
pub async fn staff_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    raw: web::Path<String>,
) -> HttpResponse {
    let r = async {
        let q = super::page_query(&req, false)?;
        let lang = q.lang;
        let id = super::path_id(&raw).map_err(|e| (lang, e))?;
        let here = format!("/club/evenings/{id}/check-in");
        let ctx = Ctx::new(super::PageQuery { embed: false, ..q }, here.clone());
        let s = session::current(&req, &state).await.map_err(|e| (lang, e))?;
        let Some(s) = s else {
            let body = html! { p { (ctx.t("Deze pagina is voor de arbiters en de leiding.", "This page is for the arbiters and the leaders.")) " " (session::sign_in_link(&ctx, &here)) } };
            return Ok(session::form_page(&req, StatusCode::UNAUTHORIZED, &ctx, ctx.t("Inloggen vereist", "Login required"), body));
        };
        if !s.principal.has_any(Arbiter::ROLES) {
            return Err((lang, ApiError::Forbidden("the check-in page is for arbiters and leaders".into())));
        }
        let st = state.clone();
        let now = chrono::Utc::now();
        let code = super::read(&state, move |c| {
            presence::current_code(c, &st.night.code_key, EveningId(id), now)
        })
        .await
        .map_err(|e| match e {
            ApiError::Conflict(_) => ApiError::NotFound(format!("the self check-in of evening {id} is not open")),
            e => e,
        })
        .map_err(|e| (lang, e))?;
        Ok(staff_answer(&ctx, &state, &code))
    }
    .await;
    super::answer(&req, &state, r)
}

fn staff_answer(ctx: &Ctx, state: &AppState, code: &CheckInCode) -> HttpResponse {
    let title = ctx.t("Inchecken", "Check in");
    let page = html! {
        (DOCTYPE)
        html lang=(ctx.lang.code()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="referrer" content="no-referrer";
                meta http-equiv="refresh" content=(seconds_left(code));
                title { (title) }
                link rel="stylesheet" href=(super::site::stylesheet_url());
            }
            body class="check-in-page" {
                main id="main" {
                    h1 { (title) }
                    p class="lead" { (ctx.t("Scan de code met je telefoon en check in.", "Scan the code with your phone and check in.")) }
                    (panel(ctx, state, code, 480))
                    p class="muted" { (ctx.t("De code verandert elke minuut.", "The code changes every minute.")) }
                }
            }
        }
    };
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/html; charset=utf-8"))
        .insert_header((header::CONTENT_SECURITY_POLICY, session::FORM_CSP))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::VARY, super::PAGE_VARY))
        .body(super::layout::finish(page))
}

/// A code as a path segment: at most 16 letters, digits or hyphens (the service reads it).
fn code_of(raw: &str) -> Result<String, ApiError> {
    if raw.is_empty()
        || raw.len() > presence::code::INPUT_MAX
        || !raw.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    {
        return Err(ApiError::NotFound(format!("no page for {raw:?}")));
    }
    Ok(raw.to_string())
}

fn member_body(ctx: &Ctx, here: &str, s: Option<&Session>) -> Markup {
    html! {
        @match s {
            Some(s) => {
                form method="post" action=(ctx.href(here)) class="check-in" {
                    input type="hidden" name="csrf" value=(s.csrf);
                    p { button type="submit" { (ctx.t("Inchecken", "Check in")) } }
                }
                p class="muted" { (ctx.t("Ingelogd als", "Signed in as")) " " (s.principal.label) }
            }
            None => p { (ctx.t("Log in om in te checken; scan daarna de code opnieuw als hij intussen veranderd is.", "Sign in to check in; scan the code again afterwards if it has changed meanwhile.")) " " (session::sign_in_link(ctx, here)) },
        }
    }
}

/// The member's page the QR code opens: a check-in button for a signed-in member.
pub async fn member_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    raw: web::Path<(String, String)>,
) -> HttpResponse {
    let r = async {
        let q = super::page_query(&req, false)?;
        let lang = q.lang;
        let (raw_id, raw_code) = raw.into_inner();
        let id = super::path_id(&raw_id).map_err(|e| (lang, e))?;
        let code = code_of(&raw_code).map_err(|e| (lang, e))?;
        let here = format!("/club/evenings/{id}/check-in/{code}");
        let ctx = Ctx::new(super::PageQuery { embed: false, ..q }, here.clone());
        let s = session::current(&req, &state)
            .await
            .map_err(|e| (lang, e))?;
        let title = ctx.t("Inchecken", "Check in");
        Ok(session::form_page(
            &req,
            StatusCode::OK,
            &ctx,
            title,
            member_body(&ctx, &here, s.as_ref()),
        ))
    }
    .await;
    super::answer(&req, &state, r)
}

/// What the check-in form sends.
#[derive(Debug, serde::Deserialize)]
struct Sent {
    csrf: String,
}

/// Checks the signed-in member in with the code of the address.
pub async fn member_submit(
    req: HttpRequest,
    state: web::Data<AppState>,
    raw: web::Path<(String, String)>,
    form: web::Bytes,
) -> HttpResponse {
    let r = async {
        let lang = session::lang_of(&req);
        let (raw_id, raw_code) = raw.into_inner();
        let id = super::path_id(&raw_id).map_err(|e| (lang, e))?;
        let code = code_of(&raw_code).map_err(|e| (lang, e))?;
        let sent = serde_urlencoded::from_bytes::<Sent>(&form).ok();
        let s = session::current(&req, &state)
            .await
            .map_err(|e| (lang, e))?;
        let Some(s) = s.filter(|_| sent.is_some_and(|f| session::csrf_ok(&req, &state, &f.csrf)))
        else {
            return Err((
                lang,
                ApiError::Unauthorized("sign in on this site first; the form has expired".into()),
            ));
        };
        let account = s.principal.label.clone();
        state.night.take_check_in(&account).map_err(|e| (lang, e))?;
        let player = s.principal.player_id.ok_or_else(|| {
            (
                lang,
                ApiError::invalid(
                    "account",
                    "your account is not linked to a player; ask the arbiter to check you in",
                ),
            )
        })?;
        let tz = state.config.club_timezone.name().to_string();
        let st = state.clone();
        let done = state
            .tx(move |c| {
                let arrival = presence::Arrival {
                    player,
                    account: &account,
                    code: &code,
                    now: chrono::Utc::now(),
                    time_zone: &tz,
                    limits: &st.config.limits,
                };
                presence::check_in_self(c, &st.night.code_key, EveningId(id), &arrival)
            })
            .await
            .map_err(|e| (lang, e))?;
        let here = format!("/club/evenings/{id}");
        let ctx = Ctx::new(
            super::PageQuery {
                site: state.club_site.clone(),
                lang,
                lang_chosen: false,
                embed: false,
                after: None,
            },
            here.clone(),
        );
        Ok(session::form_page(
            &req,
            StatusCode::OK,
            &ctx,
            ctx.t("Ingecheckt", "Checked in"),
            checked_in(&ctx, &done, &here),
        ))
    }
    .await;
    super::answer(&req, &state, r)
}

fn checked_in(ctx: &Ctx, done: &SelfCheckIn, evening: &str) -> Markup {
    html! {
        ul class="check-ins" {
            @for c in &done.competitions {
                li {
                    strong { (c.competition_name) }
                    @if let Some(r) = c.round { ", " (ctx.t("ronde", "round")) " " (r) }
                    ": "
                    @match &c.reason {
                        Some(why) => { (ctx.t("niet ingecheckt", "not checked in")) " (" (why) ")" }
                        None => (ctx.t("ingecheckt", "checked in")),
                    }
                }
            }
        }
        p { a href=(ctx.href(evening)) { (ctx.t("Naar de avond", "To the evening")) } }
    }
}
