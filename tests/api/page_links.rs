//! The club pages as links travel the web: parameters a page does not use are ignored (its
//! own still checked), `/` and addresses with a trailing slash lead to the page, error pages
//! speak the page's language, an embedded page follows `lang`; the site around the pages
//! (club name and logo, robots, favicon, the versioned stylesheet); and the facts and numbers
//! as a club writes them (docs/decisions/0360-numbers-on-the-pages.md,
//! docs/decisions/0362-page-query-parameters.md).

use crate::support::club_pages::{seed, table_rows, text};
use crate::support::*;
use actix_web::http::StatusCode;
use actix_web::test::TestRequest;

async fn get(app: &TestApp, path: &str) -> Resp {
    app.send(TestRequest::get().uri(path)).await
}

/// What a link shared on a social site carries.
const TRACKING: &str = "fbclid=IwAR2F4-Rbx0qNFlZ3LW7wY2k3Xh9mVd1AXH0yqJ8bT6cPzM5sEfKg0hN1uVo\
&utm_source=facebook&utm_medium=social&utm_campaign=winter-2026&gclid=EAIaIQobChMI";

#[actix_web::test]
async fn a_shared_link_with_tracking_parameters_opens_the_page() {
    let app = spawn().await;
    let d = seed(&app).await;
    let standings = paths::club::standings(d.keizer);
    let plain = get(&app, &standings).await;
    assert_eq!(plain.status, StatusCode::OK);
    let pages = [
        paths::CLUB.to_string(),
        standings.clone(),
        paths::club::competition(d.rapid),
        paths::club::standings(d.draughts),
        paths::club::calendar(d.season),
        paths::club::season(d.season),
    ];
    for p in &pages {
        let r = get(&app, &format!("{p}?{TRACKING}")).await;
        assert_eq!(r.status, StatusCode::OK, "{p}: {}", r.text);
        assert!(r.header("content-type").unwrap().starts_with("text/html"));
    }
    // the same page as without them, and links on it do not carry them on
    let r = get(&app, &format!("{standings}?{TRACKING}")).await;
    assert_eq!(r.header("etag"), plain.header("etag"));
    assert_eq!(r.text, plain.text);
    assert!(!r.text.contains("fbclid") && !r.text.contains("utm_"));
    // a page's own parameter beside them still counts: `lang`, and `after` on the standings
    let r = get(&app, &format!("{standings}?utm_source=x&lang=en&after=2")).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.text.contains("<html lang=\"en\""));
    assert!(
        text(&r.text).contains("after evening 2"),
        "{}",
        text(&r.text)
    );
    // `after` on a page that has none is one more parameter it does not use
    let r = get(&app, "/club/?after=1").await;
    assert_eq!(r.status, StatusCode::OK);
}

#[actix_web::test]
async fn a_page_still_refuses_a_bad_value_of_its_own_parameters() {
    let app = spawn().await;
    let d = seed(&app).await;
    let standings = paths::club::standings(d.keizer);
    for (q, field) in [
        ("fbclid=abc&lang=de", "lang"),
        ("utm_source=x&embed=2", "embed"),
        ("after=0&gclid=y", "after"),
        ("lang=nl&fbclid=1&lang=en", "lang"),
    ] {
        let r = get(&app, &format!("{standings}?{q}")).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{q}");
        assert!(text(&r.text).contains(&format!("{field}:")), "{q}");
    }
    // the query string itself stays bounded
    let many: Vec<String> = (0..40).map(|i| format!("p{i}=1")).collect();
    let r = get(&app, &format!("{standings}?{}", many.join("&"))).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.text.contains("query"));
    let long = "x".repeat(5000);
    let r = get(&app, &format!("{standings}?fbclid={long}")).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[actix_web::test]
async fn the_root_and_a_trailing_slash_lead_to_the_page() {
    let app = spawn().await;
    let d = seed(&app).await;
    let standings = paths::club::standings(d.keizer);
    for (from, to) in [
        ("/".to_string(), "/club/".to_string()),
        (
            "/?utm_source=x".to_string(),
            "/club/?utm_source=x".to_string(),
        ),
        ("/club".to_string(), "/club/".to_string()),
        (format!("{standings}/"), standings.clone()),
        (
            format!("{standings}//?lang=en"),
            format!("{standings}?lang=en"),
        ),
        (
            format!("{}/", paths::club::calendar(d.season)),
            paths::club::calendar(d.season),
        ),
        (
            format!("{}/", paths::club::competition(d.rapid)),
            paths::club::competition(d.rapid),
        ),
    ] {
        let r = get(&app, &from).await;
        assert_eq!(r.status, StatusCode::PERMANENT_REDIRECT, "{from}");
        assert_eq!(r.header("location").as_deref(), Some(to.as_str()), "{from}");
        let target = get(&app, &to).await;
        assert_eq!(target.status, StatusCode::OK, "{to}");
    }
}

#[actix_web::test]
async fn an_error_page_speaks_the_language_of_the_page() {
    let app = spawn().await;
    let d = seed(&app).await;
    let standings = paths::club::standings(d.keizer);
    // Dutch: no English word of the error's own text
    let r = get(&app, "/club/nothing-here").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let t = text(&r.text);
    assert!(t.contains("Pagina niet gevonden"), "{t}");
    assert!(t.contains("Op dit adres staat geen pagina."), "{t}");
    for english in ["no page", "Not Found", "Page not found"] {
        assert!(!t.contains(english), "{english} in {t}");
    }
    let r = get(&app, &format!("{standings}?embed=yes")).await;
    let t = text(&r.text);
    assert!(t.contains("Ongeldige aanvraag"), "{t}");
    assert!(t.contains("embed: moet 0 of 1 zijn"), "{t}");
    assert!(!t.contains("must be"), "{t}");
    assert!(!t.contains("Unprocessable"), "{t}");
    // English, asked for with `lang` or by the browser
    let r = get(&app, "/club/nothing-here?lang=en").await;
    let t = text(&r.text);
    assert!(
        t.contains("Page not found") && t.contains("no page at"),
        "{t}"
    );
    assert!(!t.contains("Pagina"), "{t}");
    let r = app
        .send(
            TestRequest::get()
                .uri(&format!("{standings}?embed=yes"))
                .insert_header(("Accept-Language", "en-GB,en;q=0.9")),
        )
        .await;
    let t = text(&r.text);
    assert!(
        t.contains("Invalid request") && t.contains("embed: must be 0 or 1"),
        "{t}"
    );
}

#[actix_web::test]
async fn an_embedded_page_follows_lang_not_the_visitors_browser() {
    let app = spawn().await;
    let d = seed(&app).await;
    let standings = paths::club::standings(d.keizer);
    let english_browser = |q: &str| {
        TestRequest::get()
            .uri(&format!("{standings}?{q}"))
            .insert_header(("Accept-Language", "en"))
    };
    let r = app.send(english_browser("embed=1")).await;
    assert!(r.text.contains("<html lang=\"nl\""));
    let r = app.send(english_browser("embed=1&lang=en")).await;
    assert!(r.text.contains("<html lang=\"en\""));
    // not embedded, the browser's language still counts
    let r = app.send(english_browser("")).await;
    assert!(r.text.contains("<html lang=\"en\""));
}

#[actix_web::test]
async fn the_front_page_shows_the_next_evening_of_the_api() {
    let app = spawn().await;
    seed(&app).await;
    let next = app.get(paths::NEXT_EVENING, None).await;
    assert_eq!(next.status, StatusCode::OK);
    let id = next.body["id"].as_i64().unwrap();
    let front = get(&app, paths::CLUB).await;
    let start = front
        .text
        .find("<p class=\"next\">")
        .expect("the next evening");
    let para = &front.text[start..start + front.text[start..].find("</p>").unwrap()];
    assert!(
        para.contains(&format!("href=\"/club/evenings/{id}\"")),
        "{para}"
    );
}

/// A JSON number rounded to two decimals, half away from zero, as a club writes it.
fn two_decimals(x: f64, comma: bool) -> String {
    let cents = (x.abs() * 100.0).round() as i64;
    let sign = if x < 0.0 && cents != 0 { "-" } else { "" };
    let s = match cents % 100 {
        0 => format!("{sign}{}", cents / 100),
        c if c % 10 == 0 => format!("{sign}{}.{}", cents / 100, c / 10),
        c => format!("{sign}{}.{c:02}", cents / 100),
    };
    if comma { s.replace('.', ",") } else { s }
}

#[actix_web::test]
async fn keizer_numbers_show_with_at_most_two_decimals_and_no_internal_note() {
    let app = spawn().await;
    let d = seed(&app).await;
    let json = app.standings(d.keizer).await;
    let rows = json.body["keizer"]["rows"].as_array().unwrap();
    for (lang, comma) in [("nl", true), ("en", false)] {
        let r = get(
            &app,
            &format!("{}?lang={lang}", paths::club::standings(d.keizer)),
        )
        .await;
        let html_rows = table_rows(&r.text, "standings keizer");
        assert_eq!(html_rows.len(), rows.len());
        for (h, j) in html_rows.iter().zip(rows) {
            let score = j["score"].as_f64().unwrap();
            assert_eq!(h[3], two_decimals(score, comma), "{lang} {}", j["name"]);
            let decimals = h[3].split([',', '.']).nth(1).map_or(0, str::len);
            assert!(decimals <= 2, "{}", h[3]);
            assert_eq!(
                h[5],
                two_decimals(j["game_points"].as_f64().unwrap(), comma)
            );
        }
        let t = text(&r.text);
        assert!(!t.contains("Keizerberekening") && !t.contains("did not settle"));
    }
}

#[actix_web::test]
async fn no_prize_money_column_when_there_is_none() {
    let app = spawn().await;
    let d = seed(&app).await;
    let json = app.standings(d.draughts).await;
    let money: Vec<String> = json.body["round_robin"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["prize_money"].as_str().unwrap_or("0").to_string())
        .collect();
    // the demo's draughts competition pays no prize money
    assert!(
        money
            .iter()
            .all(|m| m.trim_end_matches('0').trim_end_matches('.') == "0"
                || m.trim_end_matches('0').trim_end_matches('.').is_empty()),
        "{money:?}"
    );
    let r = get(&app, &paths::club::standings(d.draughts)).await;
    assert!(!r.text.contains("Prijzengeld"));
    let r = get(
        &app,
        &format!("{}?lang=en", paths::club::standings(d.draughts)),
    )
    .await;
    assert!(!r.text.contains("Prize money"));
}

#[actix_web::test]
async fn the_site_around_the_pages_is_served() {
    let app = spawn().await;
    seed(&app).await;
    let r = get(&app, "/robots.txt").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.header("content-type").unwrap().starts_with("text/plain"));
    assert!(r.text.contains("User-agent: *") && r.text.contains("Disallow: /api/"));
    let r = get(&app, "/favicon.ico").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.header("content-type").as_deref(), Some("image/svg+xml"));
    assert!(r.text.starts_with("<svg"));
    // the stylesheet under its versioned address, kept for a year, gzip when accepted
    let front = get(&app, paths::CLUB).await;
    let at = front.text.find("rel=\"stylesheet\" href=\"").unwrap() + 23;
    let href = &front.text[at..at + front.text[at..].find('"').unwrap()];
    assert!(
        href.starts_with("/club/style.") && href.ends_with(".css") && href.len() > 20,
        "{href}"
    );
    let css = get(&app, href).await;
    assert_eq!(css.status, StatusCode::OK);
    assert_eq!(
        css.header("cache-control").as_deref(),
        Some("public, max-age=31536000, immutable")
    );
    assert!(css.text.contains("font-variant-numeric"));
    let gz = app
        .send(
            TestRequest::get()
                .uri(href)
                .insert_header(("Accept-Encoding", "gzip")),
        )
        .await;
    assert_eq!(gz.header("content-encoding").as_deref(), Some("gzip"));
    // another version's address is not kept for a year
    let old = get(&app, "/club/style.000000000000.css").await;
    assert_eq!(old.status, StatusCode::OK);
    assert_eq!(old.header("cache-control").as_deref(), Some("no-cache"));
}

#[actix_web::test]
async fn the_club_name_logo_and_website_come_from_the_settings() {
    let app = spawn_with(|c| {
        c.club_site = clubcomp_core::club_site::ClubSite {
            name: Some("SV De Toren".into()),
            url: Some("https://detoren.example/".into()),
            logo_url: Some("https://cdn.example/toren.png".into()),
        };
    })
    .await;
    let d = seed(&app).await;
    let r = get(&app, &paths::club::standings(d.keizer)).await;
    let title = &r.text[r.text.find("<title>").unwrap() + 7..r.text.find("</title>").unwrap()];
    assert!(title.ends_with(" · SV De Toren"), "{title}");
    assert!(!r.text.contains("· clubcomp"));
    assert!(
        r.text
            .contains("<img src=\"https://cdn.example/toren.png\"")
    );
    assert!(r.text.contains("href=\"https://detoren.example/\""));
    assert!(
        r.text
            .contains("<meta property=\"og:site_name\" content=\"SV De Toren\">")
    );
    assert!(r.text.contains("<meta name=\"description\""));
    assert!(r.text.contains("<meta property=\"og:title\""));
    let csp = r.header("content-security-policy").unwrap();
    assert!(
        csp.contains("img-src 'self' data: https://cdn.example;"),
        "{csp}"
    );
    // the error pages carry the name too
    let r = get(&app, "/club/nothing-here").await;
    assert!(r.text.contains("SV De Toren"));
    // without the settings: no club name made up
    let plain = spawn().await;
    let r = get(&plain, paths::CLUB).await;
    assert!(!r.text.contains("De club") && !r.text.contains("· clubcomp"));
}

/// A Swiss's pages link to its prize page as a Keizer half's do: the overview and the
/// standings carry the "Prijzen" tab, and the page it opens names the champion. A rapid of
/// one round: Anna beats Bram, so Anna is first alone, champion on the standings.
#[actix_web::test]
async fn a_swiss_has_a_prizes_tab_to_the_page_naming_its_champion() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let fx = CompetitionBuilder::new(serde_json::json!({"name": "Rapid", "kind": "swiss",
        "system": "dutch", "rounds_planned": 1}))
    .players(&["Anna", "Bram"])
    .create(&app, &leader)
    .await;
    let (anna, bram) = (fx.players[0], fx.players[1]);
    round(
        &app,
        &leader,
        fx.comp,
        vec![(anna, Some(bram), Some("1-0"))],
        "completed",
    )
    .await;
    let prizes = paths::club::prizes(fx.comp);
    for (page, tab) in [
        (paths::club::competition(fx.comp), "Prijzen"),
        (paths::club::standings(fx.comp), "Prijzen"),
        (
            format!("{}?lang=en", paths::club::standings(fx.comp)),
            "Prizes",
        ),
    ] {
        let r = get(&app, &page).await;
        assert_eq!(r.status, StatusCode::OK, "{page}: {}", r.text);
        let nav = &r.text[r.text.find("<nav class=\"tabs\"").unwrap()..];
        let nav = &nav[..nav.find("</nav>").unwrap()];
        let lang = if page.contains("lang=en") {
            "?lang=en"
        } else {
            ""
        };
        let link = format!("<a href=\"{prizes}{lang}\">{tab}</a>");
        assert!(nav.contains(&link), "{link} not in {nav}");
        let r = get(&app, &format!("{prizes}{lang}")).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let champion = if lang.is_empty() {
            "Kampioen: Anna"
        } else {
            "Champion: Anna"
        };
        assert!(
            text(&r.text).contains(champion),
            "{champion:?} not in {}",
            r.text
        );
    }
}
