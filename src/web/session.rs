//! Signing in on the club pages (docs/decisions/0347-signing-in-on-the-club-pages.md): a
//! member or a staff member signs in at `/club/sign-in` with the e-mail address and password
//! of their account, checked and throttled as every login is; the answer sets an HttpOnly
//! cookie for `/club` that names the account and its token generation, signed with the
//! server's page key, for 12 hours. Each page that needs the account reads it again from the
//! database (a disabled account or a password reset ends the sign-in at once). Every form of
//! a signed-in page carries a token made from the cookie, checked on the POST; the sign-in
//! form itself is taken only from this origin.

use super::layout::{Ctx, frame};
use super::{Lang, PageQuery};
use crate::error::ApiError;
use crate::ids::UserId;
use crate::night::PageKey;
use crate::services::credentials::{Principal, user_principal};
use crate::state::AppState;
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};

/// The cookie of a sign-in.
pub const COOKIE: &str = "clubcomp_page";
/// The sign-in page.
pub const PATH: &str = "/club/sign-in";
/// Where the sign-out form posts.
pub const OUT_PATH: &str = "/club/sign-out";
/// How long a sign-in lasts: a club night.
pub const HOURS: i64 = 12;
/// The longest e-mail address, password and return path the form takes.
const MAX_EMAIL: usize = 254;
const MAX_PASSWORD: usize = 200;
const MAX_NEXT: usize = 200;

/// The CSP of the pages with forms: the club pages' one, with forms to this origin only and
/// no framing.
pub const FORM_CSP: &str = "default-src 'none'; style-src 'self'; img-src 'self' data:; \
                            base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// A signed-in visitor.
#[derive(Debug, Clone)]
pub struct Session {
    /// The account, as it is now.
    pub principal: Principal,
    /// The token the forms of the page carry.
    pub csrf: String,
}

fn seal(key: &PageKey, user: UserId, generation: i64, expires: i64) -> String {
    let m = format!("{}.{generation}.{expires}", user.get());
    let sig = key.sign(&m);
    format!("{m}.{sig}")
}

/// The account and generation of a cookie value signed by `key` and not expired at `now`
/// (seconds since the epoch).
fn unseal(key: &PageKey, value: &str, now: i64) -> Option<(UserId, i64)> {
    if value.len() > 200 {
        return None;
    }
    let (m, sig) = value.rsplit_once('.')?;
    if !key.verify(m, sig) {
        return None;
    }
    let mut parts = m.split('.');
    let user: i64 = parts.next()?.parse().ok()?;
    let generation: i64 = parts.next()?.parse().ok()?;
    let expires: i64 = parts.next()?.parse().ok()?;
    (parts.next().is_none() && expires > now).then_some((UserId(user), generation))
}

fn csrf_of(key: &PageKey, cookie: &str) -> String {
    key.sign(&format!("form:{cookie}"))
}

/// The signed-in visitor of `req`, if any (a cookie that no longer holds is no sign-in).
pub async fn current(
    req: &HttpRequest,
    state: &web::Data<AppState>,
) -> Result<Option<Session>, ApiError> {
    let Some(cookie) = req.cookie(COOKIE).map(|c| c.value().to_string()) else {
        return Ok(None);
    };
    let key = &state.night.page_key;
    let Some((user, generation)) = unseal(key, &cookie, chrono::Utc::now().timestamp()) else {
        return Ok(None);
    };
    let csrf = csrf_of(key, &cookie);
    match state.db(move |c| user_principal(c, user, generation)).await {
        Ok(principal) => Ok(Some(Session { principal, csrf })),
        Err(ApiError::Unauthorized(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Whether a form's token is the one of the request's cookie.
pub fn csrf_ok(req: &HttpRequest, state: &AppState, sent: &str) -> bool {
    req.cookie(COOKIE).is_some_and(|c| {
        state
            .night
            .page_key
            .verify(&format!("form:{}", c.value()), sent)
    })
}

/// Whether a POST comes from a page of this origin: its `Origin` header, when sent, names
/// this host.
fn same_origin(req: &HttpRequest) -> bool {
    let Some(origin) = req.headers().get(header::ORIGIN) else {
        return true;
    };
    let info = req.connection_info();
    origin.to_str().ok() == Some(&format!("{}://{}", info.scheme(), info.host()))
}

/// A page path to return to after signing in: a club page of this site, else the front page.
pub fn return_path(raw: &str) -> String {
    let ok = raw.len() <= MAX_NEXT
        && raw.starts_with("/club/")
        && !raw.contains("//")
        && raw.bytes().all(|b| b.is_ascii_graphic() && b != b'\\');
    if ok { raw.to_string() } else { "/club/".into() }
}

/// A link to the sign-in page that returns to `path`.
pub fn sign_in_link(ctx: &Ctx, path: &str) -> Markup {
    let next = format!("next={}", form_urlencoded(path));
    html! { a href=(ctx.href_with(PATH, &next)) class="sign-in" { (ctx.t("Inloggen", "Sign in")) } }
}

fn form_urlencoded(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

/// A page with forms: no caching, no framing, no referrer beyond this site.
pub fn form_page(
    req: &HttpRequest,
    status: StatusCode,
    ctx: &Ctx,
    title: &str,
    body: Markup,
) -> HttpResponse {
    let _ = req;
    HttpResponse::build(status)
        .insert_header((header::CONTENT_TYPE, "text/html; charset=utf-8"))
        .insert_header((
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(FORM_CSP),
        ))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::VARY, super::PAGE_VARY))
        .body(super::layout::finish(frame(ctx, title, body)))
}

fn ctx_of(req: &HttpRequest) -> Ctx {
    let q = super::page_query(req, false).unwrap_or_else(|(lang, _)| PageQuery {
        site: req
            .app_data::<web::Data<AppState>>()
            .map(|s| s.club_site.clone())
            .unwrap_or_default(),
        lang,
        lang_chosen: false,
        embed: false,
        after: None,
    });
    Ctx::new(PageQuery { embed: false, ..q }, PATH)
}

fn sign_in_form(ctx: &Ctx, next: &str, problem: Option<&str>) -> Markup {
    html! {
        @if let Some(p) = problem { p class="problem" role="alert" { (p) } }
        form method="post" action=(ctx.href(PATH)) class="sign-in" {
            input type="hidden" name="next" value=(next);
            p {
                label for="email" { (ctx.t("E-mailadres", "E-mail address")) }
                br;
                input id="email" type="email" name="email" maxlength=(MAX_EMAIL) required autocomplete="username";
            }
            p {
                label for="password" { (ctx.t("Wachtwoord", "Password")) }
                br;
                input id="password" type="password" name="password" maxlength=(MAX_PASSWORD) required autocomplete="current-password";
            }
            p { button type="submit" { (ctx.t("Inloggen", "Sign in")) } }
        }
    }
}

/// The sign-in form (or, signed in, who is signed in and a sign-out button).
pub async fn page(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let ctx = ctx_of(&req);
    let next = web::Query::<Vec<(String, String)>>::from_query(req.query_string())
        .ok()
        .and_then(|q| q.into_inner().into_iter().find(|(k, _)| k == "next"))
        .map(|(_, v)| return_path(&v))
        .unwrap_or_else(|| "/club/".into());
    let title = ctx.t("Inloggen", "Sign in");
    let session = match current(&req, &state).await {
        Ok(s) => s,
        Err(e) => return super::error_page(&req, &state, ctx.lang, e),
    };
    let body = match session {
        Some(s) => html! {
            p { (ctx.t("Je bent ingelogd als", "You are signed in as")) " " strong { (s.principal.label) } "." }
            p { a href=(next) { (ctx.t("Verder", "Continue")) } }
            (sign_out_form(&ctx, &s))
        },
        None => sign_in_form(&ctx, &next, None),
    };
    form_page(&req, StatusCode::OK, &ctx, title, body)
}

/// The sign-out button of a signed-in page.
pub fn sign_out_form(ctx: &Ctx, s: &Session) -> Markup {
    html! {
        form method="post" action=(OUT_PATH) class="sign-out" {
            input type="hidden" name="csrf" value=(s.csrf);
            button type="submit" { (ctx.t("Uitloggen", "Sign out")) }
        }
    }
}

/// What the sign-in form sends.
#[derive(Debug, serde::Deserialize)]
struct Credentials {
    email: String,
    password: String,
    #[serde(default)]
    next: String,
}

/// The sign-in cookie of user `user` at token generation `generation`, for [`HOURS`] from now.
fn cookie_of(
    req: &HttpRequest,
    key: &PageKey,
    user: UserId,
    generation: i64,
) -> actix_web::cookie::Cookie<'static> {
    let expires = chrono::Utc::now().timestamp() + HOURS * 3600;
    actix_web::cookie::Cookie::build(COOKIE, seal(key, user, generation, expires))
        .path("/club")
        .max_age(actix_web::cookie::time::Duration::hours(HOURS))
        .http_only(true)
        .secure(req.connection_info().scheme() == "https")
        .same_site(actix_web::cookie::SameSite::Lax)
        .finish()
}

/// Signs in: the cookie is set and the visitor sent on to the page they came from.
pub async fn submit(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> HttpResponse {
    let ctx = ctx_of(&req);
    let title = ctx.t("Inloggen", "Sign in");
    let refuse = |status, next: &str, why: &str| {
        form_page(
            &req,
            status,
            &ctx,
            title,
            sign_in_form(&ctx, next, Some(why)),
        )
    };
    if !same_origin(&req) {
        return refuse(
            StatusCode::FORBIDDEN,
            "/club/",
            ctx.t(
                "Dit formulier komt niet van deze site.",
                "This form does not come from this site.",
            ),
        );
    }
    let Ok(form) = serde_urlencoded::from_bytes::<Credentials>(&body) else {
        return refuse(
            StatusCode::BAD_REQUEST,
            "/club/",
            ctx.t("Het formulier is niet compleet.", "The form is incomplete."),
        );
    };
    let next = return_path(&form.next);
    if form.email.len() > MAX_EMAIL || form.password.len() > MAX_PASSWORD {
        return refuse(
            StatusCode::UNPROCESSABLE_ENTITY,
            &next,
            ctx.t(
                "E-mailadres of wachtwoord is te lang.",
                "The e-mail address or the password is too long.",
            ),
        );
    }
    let matched = match crate::auth::check_credentials(
        &req,
        &state,
        &form.email,
        form.password,
        None,
    )
    .await
    {
        Ok(m) => m,
        Err(ApiError::TooManyRequests { .. }) => {
            return refuse(
                StatusCode::TOO_MANY_REQUESTS,
                &next,
                ctx.t(
                    "Te veel mislukte pogingen; wacht even en probeer het opnieuw.",
                    "Too many failed attempts; wait a while and try again.",
                ),
            );
        }
        Err(ApiError::Unauthorized(_)) => {
            return refuse(
                StatusCode::UNAUTHORIZED,
                &next,
                ctx.t(
                    "Onjuist e-mailadres of wachtwoord.",
                    "Wrong e-mail address or password.",
                ),
            );
        }
        Err(e) => return super::error_page(&req, &state, ctx.lang, e),
    };
    let st = state.clone();
    let (email, origin) = (matched.email.clone(), matched.origin);
    let done = state
        .tx(move |c| {
            let now = crate::services::date::now_utc();
            crate::services::refresh_tokens::complete_page_login(
                c,
                &st.throttle,
                &email,
                &origin,
                now,
            )
        })
        .await;
    if let Err(e) = done {
        return super::error_page(&req, &state, ctx.lang, e);
    }
    let cookie = cookie_of(
        &req,
        &state.night.page_key,
        matched.user.id,
        matched.user.token_generation,
    );
    let mut res = HttpResponse::SeeOther()
        .insert_header((header::LOCATION, next))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish();
    if res.add_cookie(&cookie).is_err() {
        return super::error_page(
            &req,
            &state,
            ctx.lang,
            ApiError::Internal("the sign-in cookie cannot be set".into()),
        );
    }
    res
}

/// What the sign-out form sends.
#[derive(Debug, serde::Deserialize)]
struct Token {
    csrf: String,
}

/// Signs out: the cookie is removed.
pub async fn sign_out(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> HttpResponse {
    let ctx = ctx_of(&req);
    let ok =
        serde_urlencoded::from_bytes::<Token>(&body).is_ok_and(|t| csrf_ok(&req, &state, &t.csrf));
    if !ok {
        let body = html! { p class="problem" role="alert" { (ctx.t("Dit formulier is verlopen; open de pagina opnieuw.", "This form has expired; open the page again.")) } };
        return form_page(
            &req,
            StatusCode::FORBIDDEN,
            &ctx,
            ctx.t("Uitloggen", "Sign out"),
            body,
        );
    }
    let mut gone = actix_web::cookie::Cookie::build(COOKIE, "")
        .path("/club")
        .finish();
    gone.make_removal();
    let mut res = HttpResponse::SeeOther()
        .insert_header((header::LOCATION, "/club/"))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish();
    if res.add_cookie(&gone).is_err() {
        return super::error_page(
            &req,
            &state,
            ctx.lang,
            ApiError::Internal("the sign-in cookie cannot be removed".into()),
        );
    }
    res
}

/// The language of a request's page (for pages that answer before reading anything).
pub fn lang_of(req: &HttpRequest) -> Lang {
    ctx_of(req).lang
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_cookie_opens_until_it_expires_and_not_when_altered() {
        let key = PageKey::from_secret(b"a secret of some length for the tests");
        let v = seal(&key, UserId(7), 3, 1_000);
        assert_eq!(unseal(&key, &v, 999), Some((UserId(7), 3)));
        assert_eq!(unseal(&key, &v, 1_000), None);
        let forged = v.replacen("7.", "8.", 1);
        assert_eq!(unseal(&key, &forged, 999), None);
        let other = PageKey::from_secret(b"another secret of some length here");
        assert_eq!(unseal(&other, &v, 999), None);
    }

    #[test]
    fn only_a_club_page_of_this_site_is_returned_to() {
        assert_eq!(return_path("/club/games/4/report"), "/club/games/4/report");
        assert_eq!(return_path("https://evil.example/"), "/club/");
        assert_eq!(return_path("/club//evil.example"), "/club/");
        assert_eq!(return_path("/api/v1/users"), "/club/");
        assert_eq!(return_path("/club/a b"), "/club/");
    }
}
