//! Signing in on the club pages as a browser does: the sign-in form's POST, its cookie sent
//! back, and the forms' token read from the page.

use super::app::{Resp, TestApp};
use super::paths;
use actix_web::http::StatusCode;
use actix_web::test;

/// The password of the accounts made here.
pub const PAGE_PASSWORD: &str = "password123";

/// A browser signed in on the club pages: its cookie (`name=value`).
#[derive(Debug, Clone)]
pub struct Browser {
    pub cookie: String,
}

impl TestApp {
    /// Creates an account of `roles` (linked to `player` when given) and returns its e-mail
    /// address; its password is [`PAGE_PASSWORD`].
    pub async fn page_account(&self, roles: &[&str], player: Option<i64>) -> String {
        let email = format!("p-{}@club.example", uuid::Uuid::new_v4().simple());
        let roles: Vec<String> = roles.iter().map(|s| s.to_string()).collect();
        let e = email.clone();
        self.with_conn(move |c| {
            use clubcomp_core::test_store::schema::users;
            use diesel::prelude::*;
            let u = clubcomp::services::users::create_user(c, &e, PAGE_PASSWORD, &roles).unwrap();
            diesel::update(users::table.find(u.id))
                .set(users::player_id.eq(player))
                .execute(c)
                .unwrap();
        })
        .await;
        email
    }

    /// Signs in on the club pages' form; the answer, and the browser when it signed in.
    pub async fn page_sign_in(&self, email: &str, password: &str) -> (Resp, Option<Browser>) {
        let r = test::TestRequest::post()
            .uri(&format!("{}?lang=en", paths::club::SIGN_IN))
            .insert_header(("Content-Type", "application/x-www-form-urlencoded"))
            .set_payload(
                serde_urlencoded::to_string([
                    ("email", email),
                    ("password", password),
                    ("next", "/club/"),
                ])
                .unwrap(),
            );
        let res = self.send(r).await;
        let cookie = res
            .headers
            .get_all("set-cookie")
            .filter_map(|v| v.to_str().ok())
            .find(|c| c.starts_with("clubcomp_page="))
            .and_then(|c| c.split(';').next())
            .map(str::to_string);
        (res, cookie.map(|cookie| Browser { cookie }))
    }

    /// Signs a new account of `roles` (linked to `player`) in on the club pages.
    pub async fn page_browser(&self, roles: &[&str], player: Option<i64>) -> Browser {
        let email = self.page_account(roles, player).await;
        let (r, b) = self.page_sign_in(&email, PAGE_PASSWORD).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
        b.unwrap()
    }

    /// A club page, as `browser` (none: anonymous) opens it.
    pub async fn page_get(&self, path: &str, browser: Option<&Browser>) -> Resp {
        let mut r = test::TestRequest::get().uri(path);
        if let Some(b) = browser {
            r = r.insert_header(("Cookie", b.cookie.clone()));
        }
        self.send(r).await
    }

    /// A form of a club page sent by `browser` (none: anonymous).
    pub async fn page_post(
        &self,
        path: &str,
        browser: Option<&Browser>,
        form: &[(&str, &str)],
    ) -> Resp {
        let mut r = test::TestRequest::post()
            .uri(path)
            .insert_header(("Content-Type", "application/x-www-form-urlencoded"))
            .set_payload(serde_urlencoded::to_string(form).unwrap());
        if let Some(b) = browser {
            r = r.insert_header(("Cookie", b.cookie.clone()));
        }
        self.send(r).await
    }
}

/// The value of the forms' hidden `csrf` field in a page's HTML.
pub fn csrf_of(html: &str) -> String {
    let at = html
        .find("name=\"csrf\" value=\"")
        .expect("a form with a token");
    let rest = &html[at + "name=\"csrf\" value=\"".len()..];
    rest[..rest.find('"').unwrap()].to_string()
}

/// The texts of every QR code drawn in a page's HTML (`<svg class="qr" viewBox="0 0 N N">`
/// with one path of `M{x} {y}h{n}v1h-{n}z` runs), decoded by an independent QR reader from
/// the picture the SVG draws, four pixels a module.
pub fn decode_qrs(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for svg in html.split("<svg class=\"qr\"").skip(1) {
        let view = &svg[svg.find("viewBox=\"0 0 ").unwrap() + 13..];
        let n: usize = view[..view.find(' ').unwrap()].parse().unwrap();
        let d = &svg[svg.find(" d=\"").unwrap() + 4..];
        let d = &d[..d.find('"').unwrap()];
        let mut dark = vec![vec![false; n]; n];
        for run in d.split('M').filter(|r| !r.is_empty()) {
            // `{x} {y}h{n}v1h-{n}z`
            let (x, rest) = run.split_once(' ').unwrap();
            let (y, rest) = rest.split_once('h').unwrap();
            let (len, _) = rest.split_once('v').unwrap();
            let (x, y, len): (usize, usize, usize) =
                (x.parse().unwrap(), y.parse().unwrap(), len.parse().unwrap());
            for cell in &mut dark[y][x..x + len] {
                *cell = true;
            }
        }
        let scale = 4;
        let mut img = rqrr::PreparedImage::prepare_from_greyscale(n * scale, n * scale, |x, y| {
            if dark[y / scale][x / scale] { 0 } else { 255 }
        });
        let grids = img.detect_grids();
        assert_eq!(grids.len(), 1, "one QR code in each picture");
        out.push(grids[0].decode().expect("a readable QR code").1);
    }
    out
}
