//! The pages the links of account mails open (`/account/invitation?token=…`,
//! `/account/password-reset?token=…`, docs/decisions/0321-account-links.md): a form to choose
//! a password, sent back to the same address, and the answer to it; `/account/email?token=…`
//! (docs/decisions/0322-own-account.md) confirms a new address with one button, so that a
//! mail scanner opening the link changes nothing. No script; the page allows a form to its own origin only,
//! is never cached and sends no referrer (the token is in its address).

use super::Lang;
use super::layout::{Ctx, frame};
use crate::auth::hash_password;
use crate::database::DbConn;
use crate::error::ApiError;
use crate::services::{account_links, passwords};
use crate::state::AppState;
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};
use clubcomp_core::club_site::ClubSite;
use maud::{Markup, html};
use std::sync::Arc;

/// The page's Content-Security-Policy: the club pages' one, with forms to this origin.
const CSP: &str = "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; \
                   form-action 'self'; frame-ancestors 'none'";

/// The path of the invitation page.
pub const PATH: &str = "/account/invitation";
/// The path of the password-reset page.
pub const RESET_PATH: &str = "/account/password-reset";
/// The path of the address-confirmation page.
pub const EMAIL_PATH: &str = "/account/email";

/// Which link a page is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    Invitation,
    Reset,
    Email,
}

impl Flow {
    fn path(self) -> &'static str {
        match self {
            Flow::Invitation => PATH,
            Flow::Reset => RESET_PATH,
            Flow::Email => EMAIL_PATH,
        }
    }
}

fn ctx(site: Arc<ClubSite>, lang: Lang, flow: Flow) -> Ctx {
    Ctx::new(
        super::PageQuery {
            site,
            lang,
            lang_chosen: false,
            embed: false,
            after: None,
        },
        flow.path(),
    )
}

fn answer(
    req: &HttpRequest,
    status: StatusCode,
    (lang, flow): (Lang, Flow),
    title: &str,
    body: Markup,
) -> HttpResponse {
    let site = req
        .app_data::<web::Data<AppState>>()
        .map(|s| s.club_site.clone())
        .unwrap_or_else(|| Arc::new(ClubSite::from_lookup(|_| None, &mut Vec::new())));
    let page = super::layout::finish(frame(&ctx(site, lang, flow), title, body));
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

fn lang_of(req: &HttpRequest) -> Lang {
    super::page_query(req, false)
        .map(|q| q.lang)
        .unwrap_or(Lang::Nl)
}

/// The form of a page; `login` is the account's address, in a hidden field for password
/// managers (and so that Chromium finds the username a password form should have).
fn form((lang, flow): (Lang, Flow), token: &str, login: &str, problem: Option<&str>) -> Markup {
    let t = |nl, en| lang.t(nl, en);
    if flow == Flow::Email {
        return html! {
            form method="post" action=(flow.path()) {
                input type="hidden" name="token" value=(token);
                p { (t("Bevestig dat dit adres voortaan je e-mailadres en inlognaam is.", "Confirm that this address is your e-mail address and login name from now on.")) }
                p { button type="submit" { (t("Adres bevestigen", "Confirm address")) } }
            }
        };
    }
    html! {
        @if let Some(p) = problem { p class="problem" role="alert" { (p) } }
        form method="post" action=(flow.path()) {
            input type="hidden" name="token" value=(token);
            input type="text" name="username" value=(login) autocomplete="username" readonly hidden;
            p {
                label for="password" { (t("Kies een wachtwoord (minstens 10 tekens)", "Choose a password (at least 10 characters)")) }
                br;
                input id="password" type="password" name="password" minlength="10" maxlength="200" required autocomplete="new-password";
            }
            p { button type="submit" { (t("Wachtwoord instellen", "Set password")) } }
        }
    }
}

/// The invitation's form: a password for the token in the query.
pub async fn page(req: HttpRequest) -> HttpResponse {
    page_of(req, Flow::Invitation).await
}

/// The password reset's form.
pub async fn reset_page(req: HttpRequest) -> HttpResponse {
    page_of(req, Flow::Reset).await
}

/// Sets the password of the invitation's account.
pub async fn submit(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> HttpResponse {
    submit_of(req, state, body, Flow::Invitation).await
}

/// Sets the password of the reset link's account.
pub async fn reset_submit(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> HttpResponse {
    submit_of(req, state, body, Flow::Reset).await
}

/// The address confirmation's button.
pub async fn email_page(req: HttpRequest) -> HttpResponse {
    page_of(req, Flow::Email).await
}

/// The token the address confirmation's form sends.
#[derive(Debug, serde::Deserialize)]
pub struct Confirmation {
    token: String,
}

/// Gives the account of the link's token its new address.
pub async fn email_submit(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> HttpResponse {
    let lang = (lang_of(&req), Flow::Email);
    let title = lang.0.t("Je account", "Your account");
    let token = match serde_urlencoded::from_bytes::<Confirmation>(&body) {
        Ok(c) if account_links::check_token(&c.token).is_ok() => c.token,
        _ => {
            let body = html! { p { (lang.0.t("Deze link is niet volledig; open de link uit de e-mail opnieuw.", "This link is incomplete; open the link in the e-mail again.")) } };
            return answer(&req, StatusCode::BAD_REQUEST, lang, title, body);
        }
    };
    let outcome = state
        .tx(move |c| {
            crate::services::own_account::confirm_email_change(
                c,
                &token,
                crate::services::date::now_utc(),
            )
        })
        .await;
    match outcome {
        Ok(email) => {
            let body = html! {
                p { (lang.0.t("Je adres is gewijzigd in", "Your address is now")) " " strong { (email) } ". " (lang.0.t("Log er voortaan mee in.", "Log in with it from now on.")) }
                p { a href="/club/" { (lang.0.t("Naar de clubpagina's", "To the club pages")) } }
            };
            answer(&req, StatusCode::OK, lang, title, body)
        }
        Err(e) => refused(&req, lang, title, e),
    }
}

async fn page_of(req: HttpRequest, flow: Flow) -> HttpResponse {
    let lang = (lang_of(&req), flow);
    let token =
        web::Query::<std::collections::HashMap<String, String>>::from_query(req.query_string())
            .ok()
            .and_then(|q| q.get("token").cloned())
            .unwrap_or_default();
    let title = lang.0.t("Je account", "Your account");
    if account_links::check_token(&token).is_err() {
        let body = html! { p { (lang.0.t("Deze link is niet volledig; open de link uit de e-mail opnieuw.", "This link is incomplete; open the link in the e-mail again.")) } };
        return answer(&req, StatusCode::BAD_REQUEST, lang, title, body);
    }
    let login = login_name(&req, &token, flow).await;
    answer(
        &req,
        StatusCode::OK,
        lang,
        title,
        form(lang, &token, &login, None),
    )
}

/// What the form sends.
#[derive(Debug, serde::Deserialize)]
pub struct Choice {
    token: String,
    password: String,
    /// The form's hidden login name, shown again with a refused password.
    #[serde(default)]
    username: String,
}

/// The address of the account a password page's token is for, while the token works (empty
/// otherwise, and when the database does not answer: the form works without it).
async fn login_name(req: &HttpRequest, token: &str, flow: Flow) -> String {
    let purpose = match flow {
        Flow::Invitation => account_links::INVITATION,
        Flow::Reset => crate::services::password_reset::PASSWORD_RESET,
        Flow::Email => return String::new(),
    };
    let Some(state) = req.app_data::<web::Data<AppState>>() else {
        return String::new();
    };
    let token = token.to_string();
    state
        .db(move |c| {
            account_links::login_name(c, &token, purpose, crate::services::date::now_utc())
        })
        .await
        .ok()
        .flatten()
        .unwrap_or_default()
}

async fn submit_of(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
    flow: Flow,
) -> HttpResponse {
    let lang = (lang_of(&req), flow);
    let title = lang.0.t("Je account", "Your account");
    let Ok(choice) = serde_urlencoded::from_bytes::<Choice>(&body) else {
        let body = html! { p { (lang.0.t("Het formulier is niet compleet.", "The form is incomplete.")) } };
        return answer(&req, StatusCode::BAD_REQUEST, lang, title, body);
    };
    if account_links::check_token(&choice.token).is_err() {
        let body = html! { p { (lang.0.t("Deze link is niet volledig; open de link uit de e-mail opnieuw.", "This link is incomplete; open the link in the e-mail again.")) } };
        return answer(&req, StatusCode::BAD_REQUEST, lang, title, body);
    }
    if let Err(e) = passwords::check("password", &choice.password) {
        let why = format!("{}: {}", lang.0.t("Wachtwoord", "Password"), e.message);
        return answer(
            &req,
            StatusCode::UNPROCESSABLE_ENTITY,
            lang,
            title,
            form(lang, &choice.token, &choice.username, Some(&why)),
        );
    }
    let pw = choice.password;
    let hash = match web::block(move || hash_password(&pw)).await {
        Ok(Ok(h)) => h,
        _ => return failed(&req, lang, title),
    };
    let token = choice.token;
    let set: SetPassword = match flow {
        Flow::Invitation => accept_invitation,
        Flow::Reset => crate::services::password_reset::confirm,
        // the address page sends no password: `email_submit` answers it
        Flow::Email => return failed(&req, lang, title),
    };
    let outcome = state
        .tx(move |c| set(c, &token, &hash, crate::services::date::now_utc()))
        .await;
    match outcome {
        Ok(_) => {
            let body = html! {
                p { (lang.0.t("Je wachtwoord is ingesteld. Log in met je e-mailadres en dit wachtwoord.", "Your password is set. Log in with your e-mail address and this password.")) }
                p { a href="/club/" { (lang.0.t("Naar de clubpagina's", "To the club pages")) } }
            };
            answer(&req, StatusCode::OK, lang, title, body)
        }
        Err(e) => refused(&req, lang, title, e),
    }
}

/// The page for a refused token or address: the problem's words, or a general failure.
fn refused(req: &HttpRequest, lang: (Lang, Flow), title: &str, e: ApiError) -> HttpResponse {
    let (status, why) = match e {
        ApiError::Validation { errors, .. } => (
            StatusCode::UNPROCESSABLE_ENTITY,
            errors
                .first()
                .map(|e| e.message.clone())
                .unwrap_or_default(),
        ),
        ApiError::AlreadyExists { detail, .. } => (StatusCode::CONFLICT, detail),
        _ => return failed(req, lang, title),
    };
    let body = html! { p class="problem" role="alert" { (why) } };
    answer(req, status, lang, title, body)
}

/// What a page's form does with the token and the new password's hash.
type SetPassword =
    fn(&mut DbConn, &str, &str, chrono::NaiveDateTime) -> crate::error::ApiResult<()>;

/// Accepts an invitation without signing in (the page's visitor logs in afterwards).
fn accept_invitation(
    c: &mut DbConn,
    token: &str,
    hash: &str,
    now: chrono::NaiveDateTime,
) -> crate::error::ApiResult<()> {
    account_links::accept_password(c, token, hash, now).map(|_| ())
}

fn failed(req: &HttpRequest, lang: (Lang, Flow), title: &str) -> HttpResponse {
    let body = html! { p { (lang.0.t("Dat lukte nu niet; probeer het later opnieuw.", "That did not work now; try again later.")) } };
    answer(req, StatusCode::SERVICE_UNAVAILABLE, lang, title, body)
}
