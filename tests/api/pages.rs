//! The club pages (`/club/…`) on the demo club: the facts they show are checked against the
//! JSON API (first place and value, number of rows, boards of an evening, cross-table
//! results), not against the renderer; plus headers (CSP, framing, ETag, language), errors as
//! HTML, the leader-only attendance view, no e-mail anywhere, and an HTML snapshot of every
//! page type (`UPDATE_SNAPSHOTS=1` rewrites them).

use crate::support::club_pages::{Demo, seed, table_rows};
use crate::support::*;
use actix_web::http::StatusCode;
use actix_web::test::TestRequest;

async fn page(app: &TestApp, path: &str) -> Resp {
    let r = app.send(TestRequest::get().uri(path)).await;
    assert_eq!(r.status, StatusCode::OK, "{path}: {}", r.text);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("text/html; charset=utf-8"),
        "{path}"
    );
    r
}

#[actix_web::test]
async fn keizer_standings_page_shows_the_json_standings() {
    let app = spawn().await;
    let d = seed(&app).await;
    let json = app.standings(d.keizer).await;
    let rows = json.body["keizer"]["rows"].as_array().unwrap();
    let entrants = app.get(&paths::entrants(d.keizer), None).await;
    let r = page(&app, &paths::club::standings(d.keizer)).await;
    let html_rows = table_rows(&r.text, "standings keizer");
    // one row per entrant (the demo's 60 players), as many as the JSON has
    assert_eq!(html_rows.len(), entrants.body.as_array().unwrap().len());
    assert_eq!(html_rows.len(), 60);
    assert_eq!(html_rows.len(), rows.len());
    // the first place: rank, name and value as the JSON's first row; the score in Dutch
    // notation (comma, at most two decimals, trailing zeros dropped)
    let first = &html_rows[0];
    assert_eq!(first[0], "1");
    assert_eq!(first[1], rows[0]["name"].as_str().unwrap());
    assert_eq!(first[2], rows[0]["value"].to_string());
    let score = rows[0]["score"].as_f64().unwrap();
    let shown: f64 = first[3].replace(',', ".").parse().unwrap();
    assert_eq!(shown, (score * 100.0).round() / 100.0);
    // every row in the JSON's order
    for (h, j) in html_rows.iter().zip(rows) {
        assert_eq!(h[1], j["name"].as_str().unwrap());
        assert_eq!(h[2], j["value"].to_string());
    }
    // the caption names the evening counted
    assert!(r.text.contains(&format!(
        "Keizerstand na avond {} (60 deelnemers)",
        json.body["after"]
    )));
}

#[actix_web::test]
async fn other_standings_pages_follow_the_json() {
    let app = spawn().await;
    let d = seed(&app).await;
    // Swiss: first place and the tie-break columns in the JSON's order
    let json = app.standings(d.rapid).await;
    let r = page(&app, &paths::club::standings(d.rapid)).await;
    let rows = table_rows(&r.text, "standings swiss");
    let jrows = json.body["swiss"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), jrows.len());
    assert_eq!(rows[0][1], jrows[0]["name"].as_str().unwrap());
    for t in json.body["swiss"]["tiebreaks"].as_array().unwrap() {
        assert!(
            r.text.contains(&format!(">{}</abbr>", t.as_str().unwrap())),
            "{t}"
        );
    }
    // each player level on points with the one above shows the tie-break that separated them
    let seps = json.body["swiss"]["separations"].as_array().unwrap();
    assert!(!seps.is_empty(), "{}", json.text);
    for x in seps {
        let k = jrows
            .iter()
            .position(|j| j["player_id"] == x["below_player_id"])
            .unwrap();
        assert_eq!(jrows[k - 1]["player_id"], x["above_player_id"]);
        let cell = rows[k].last().unwrap();
        match x["tiebreak"].as_str() {
            Some(t) => assert!(cell.starts_with(&format!("{t} ")), "{cell} for {x}"),
            None => assert!(cell.is_empty(), "{cell} for {x}"),
        }
    }
    // round robin: order and points; every cross-table cell as the JSON's, plusremises marked
    let json = app.standings(d.draughts).await;
    let t = &json.body["round_robin"];
    let r = page(&app, &paths::club::standings(d.draughts)).await;
    let rows = table_rows(&r.text, "standings rr");
    assert_eq!(rows.len(), 12);
    for (h, j) in rows.iter().zip(t["rows"].as_array().unwrap()) {
        assert_eq!(h[1], j["name"].as_str().unwrap());
    }
    // the cross table in standings order, each row with its start number (the JSON's
    // cross table is in seed order), the names linked to the player cards
    let cross = table_rows(&r.text, "cross");
    let jcross = t["cross_table"].as_array().unwrap();
    assert_eq!(cross.len(), jcross.len());
    let seeds: Vec<usize> = cross
        .iter()
        .map(|h| h.last().unwrap().parse::<usize>().unwrap() - 1)
        .collect();
    for (h, j) in cross.iter().zip(t["rows"].as_array().unwrap()) {
        assert_eq!(h[1], j["name"].as_str().unwrap());
    }
    for (h, &i) in cross.iter().zip(&seeds) {
        for (k, &j) in seeds.iter().enumerate() {
            if i != j {
                assert_eq!(
                    h[2 + k],
                    jcross[i][j].as_str().unwrap(),
                    "seed {i} against {j}"
                );
            }
        }
    }
    let table = &r.text[r.text.find("<table class=\"cross\"").unwrap()..];
    let first_row = &table[table.find("<tbody>").unwrap()..];
    assert!(first_row.contains("<th scope=\"row\"><a href=\"/club/players/"));
    let plus = jcross
        .iter()
        .flat_map(|r| r.as_array().unwrap())
        .filter(|c| c.as_str().unwrap().ends_with("1+"))
        .count();
    assert_eq!(r.text.matches("<td class=\"res plus\">").count(), plus);
}

#[actix_web::test]
async fn evening_page_and_slips_show_every_board() {
    let app = spawn().await;
    let d = seed(&app).await;
    // the evening of the Keizer's published round 6 (its boards without results yet) and
    // of completed round 5
    for number in [5, 6] {
        let round = app.get(&paths::round(d.keizer, number), None).await;
        let evening = round.body["evening_id"].as_i64().unwrap();
        // every competition's games on that evening, from the JSON
        let mut games = 0;
        let mut byes = 0;
        for comp in [d.keizer, d.rapid, d.draughts] {
            let rounds = app.get(&paths::rounds(comp), None).await;
            for r in rounds.body.as_array().unwrap() {
                if r["evening_id"].as_i64() == Some(evening) {
                    let full = app.get(&paths::round(comp, &r["number"]), None).await;
                    for g in full.body["games"].as_array().unwrap() {
                        games += 1;
                        if g["black"].is_null() {
                            byes += 1;
                        }
                    }
                }
            }
        }
        assert!(games > 0);
        let r = page(&app, &paths::club::evening(evening)).await;
        assert_eq!(r.text.matches("<tr class=\"board\">").count(), games);
        let pending = r.text.matches("nog niet binnen").count();
        if number == 6 {
            assert_eq!(pending, games - byes, "round 6 has no results yet");
        } else {
            assert_eq!(pending, 0);
        }
        let slips = page(&app, &paths::club::slips(evening)).await;
        assert_eq!(
            slips.text.matches("<section class=\"slip\"").count(),
            games - byes
        );
    }
}

#[actix_web::test]
async fn player_card_shows_games_and_keizer_evenings() {
    let app = spawn().await;
    let d = seed(&app).await;
    let json = app.standings(d.keizer).await;
    let top = &json.body["keizer"]["rows"][0];
    let id = top["player_id"].as_i64().unwrap();
    let r = page(&app, &paths::club::player(id)).await;
    assert!(
        r.text
            .contains(&format!("<h1>{}</h1>", top["name"].as_str().unwrap()))
    );
    // the Keizer table: one row per evening counted, the last with the JSON's place and value
    let after = json.body["after"].as_u64().unwrap() as usize;
    let start = r.text.find("<table class=\"compact\"").unwrap();
    let k = table_rows(&r.text[start..], "compact");
    assert_eq!(k.len(), after);
    let last = k.last().unwrap();
    assert_eq!(last[1], top["rank"].to_string());
    assert_eq!(last[2], top["value"].to_string());
    // the score as a club writes it: two decimals at most, a decimal comma
    let two = format!("{:.2}", top["score"].as_f64().unwrap());
    let two = two
        .trim_end_matches('0')
        .trim_end_matches('.')
        .replace('.', ",");
    assert_eq!(last[3], two);
    // the games: as many as the player played, had a bye or is paired for (published)
    let games = table_rows(&r.text, "games");
    let played = top["played"].as_u64().unwrap() + top["byes"].as_u64().unwrap();
    assert!(games.len() as u64 >= played, "{games:?}");
    // two charts (place, score), each with a title for screen readers; the player's one
    // rating is a number, not a chart of one point
    assert_eq!(r.text.matches("<svg class=\"chart\"").count(), 2);
    assert_eq!(r.text.matches("role=\"img\"").count(), 2);
    assert!(r.text.contains("<p class=\"rating\">Rating: <strong>"));
    // an unknown player: an HTML 404
    let r = app
        .send(TestRequest::get().uri(&paths::club::player(999999)))
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(r.header("content-type").unwrap().starts_with("text/html"));
    assert!(r.text.contains("Pagina niet gevonden"));
}

/// Every page type of the demo club (path, snapshot name).
fn all_pages(d: &Demo, evening: i64, player: i64) -> Vec<(String, &'static str)> {
    vec![
        (paths::CLUB.into(), "front"),
        (paths::club::season(d.season), "season"),
        (paths::club::calendar(d.season), "calendar"),
        (paths::club::competition(d.keizer), "competition"),
        (paths::club::standings(d.keizer), "standings-keizer"),
        (paths::club::standings(d.rapid), "standings-swiss"),
        (paths::club::standings(d.draughts), "standings-round-robin"),
        (paths::club::prizes(d.keizer), "prizes-keizer"),
        (paths::club::prizes(d.draughts), "prizes-round-robin"),
        (paths::club::evening(evening), "evening"),
        (paths::club::slips(evening), "slips"),
        (paths::club::player(player), "player"),
    ]
}

async fn keizer_evening(app: &TestApp, d: &Demo, round: u32) -> i64 {
    app.get(&paths::round(d.keizer, round), None).await.body["evening_id"]
        .as_i64()
        .unwrap()
}

#[actix_web::test]
async fn every_page_without_email_with_csp_in_both_languages() {
    let app = spawn().await;
    let d = seed(&app).await;
    let evening = keizer_evening(&app, &d, 6).await;
    for (path, _) in all_pages(&d, evening, 1) {
        for q in ["", "?lang=en", "?embed=1", "?lang=en&embed=1"] {
            let r = page(&app, &format!("{path}{q}")).await;
            assert!(!r.text.contains('@'), "{path}{q} shows an @");
            // no inline script: at most the service's own live script, by its address
            assert_eq!(
                r.text.matches("<script").count(),
                r.text.matches("<script src=\"/club/live.").count(),
                "{path}{q}"
            );
            let csp = r.header("content-security-policy").unwrap();
            assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
            assert!(csp.contains("default-src 'none'") && !csp.contains("unsafe-inline"));
            assert!(
                r.text
                    .contains("<meta name=\"referrer\" content=\"same-origin\">")
            );
            assert!(r.header("etag").is_some(), "{path}{q}");
            let lang = if q.contains("en") { "en" } else { "nl" };
            assert!(
                r.text.contains(&format!("<html lang=\"{lang}\">")),
                "{path}{q}"
            );
            assert_eq!(
                r.header("x-content-type-options").as_deref(),
                Some("nosniff")
            );
            assert!(r.text.contains("name=\"viewport\""));
            let embedded = q.contains("embed");
            assert_eq!(r.text.contains("<header"), !embedded, "{path}{q}");
            // links to other club pages keep the embedding and a language chosen in the
            // query; a language negotiated from Accept-Language is negotiated again
            let links: Vec<&str> = r
                .text
                .split("href=\"/club/")
                .skip(1)
                .map(|l| &l[..l.find('"').unwrap()])
                .filter(|l| !l.starts_with("style.") && !l.starts_with("favicon."))
                .collect();
            for l in &links {
                let l = l.replace("&amp;", "&");
                let switch = l.contains("lang=") && !l.contains(&format!("lang={lang}"));
                if !switch {
                    assert_eq!(
                        l.contains(&format!("lang={lang}")),
                        q.contains("lang"),
                        "{path}{q}: {l}"
                    );
                }
                assert_eq!(l.contains("embed=1"), embedded, "{path}{q}: {l}");
            }
            assert_eq!(
                r.text.contains("Hoofdmenu") || r.text.contains("Main menu"),
                !embedded
            );
            // every table has a caption and its header cells a scope
            assert_eq!(
                r.text.matches("<table").count(),
                r.text.matches("<caption").count(),
                "{path}{q}"
            );
            assert_eq!(
                r.text.matches("<th>").count(),
                0,
                "{path}{q}: a header cell without scope"
            );
        }
    }
    // Accept-Language when no lang is given; lang wins over it
    let r = app
        .send(
            TestRequest::get()
                .uri(&paths::club::standings(d.keizer))
                .insert_header(("Accept-Language", "en-GB,en;q=0.9,nl;q=0.5")),
        )
        .await;
    assert!(r.text.contains("<html lang=\"en\">") && r.text.contains("Keizer standings"));
    let r = app
        .send(
            TestRequest::get()
                .uri("/club/?lang=nl")
                .insert_header(("Accept-Language", "en")),
        )
        .await;
    assert!(r.text.contains("<html lang=\"nl\">"));
}

#[actix_web::test]
async fn bad_query_and_unknown_pages_are_answered_as_html() {
    let app = spawn().await;
    let d = seed(&app).await;
    let standings = paths::club::standings(d.keizer);
    for (q, field) in [
        ("?lang=de", "lang"),
        ("?embed=yes", "embed"),
        ("?after=0", "after"),
        ("?after=abc", "after"),
        ("?lang=en&lang=nl", "lang"),
    ] {
        let r = app
            .send(TestRequest::get().uri(&format!("{standings}{q}")))
            .await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{q}");
        assert!(r.header("content-type").unwrap().starts_with("text/html"));
        assert!(r.text.contains(&format!("{field}:")), "{q}: {}", r.text);
    }
    // `after` beyond the evenings counted: the standings' own rule, naming `after`
    let r = app
        .send(TestRequest::get().uri(&format!("{standings}?after=99")))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.text.contains("after"));
    // a client asking for problem+json gets it, naming the parameter
    let r = app
        .send(
            TestRequest::get()
                .uri(&format!("{standings}?lang=xx"))
                .insert_header(("Accept", "application/problem+json")),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/problem+json")
    );
    assert_eq!(r.body["errors"][0]["field"], "lang");
    // unknown ids and paths: HTML 404 in the asked language
    for p in [
        "/club/competitions/999999",
        "/club/competitions/999999/standings",
        "/club/evenings/999999",
        "/club/seasons/999999/calendar",
        "/club/players/abc",
        "/club/nothing-here",
    ] {
        let r = app
            .send(TestRequest::get().uri(&format!("{p}?lang=en")))
            .await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{p}");
        assert!(
            r.header("content-type").unwrap().starts_with("text/html"),
            "{p}"
        );
        assert!(r.text.contains("Page not found"), "{p}");
        assert!(r.header("content-security-policy").is_some());
    }
    // the API keeps answering problem+json
    let r = app.get(&paths::competition(999999), None).await;
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/problem+json")
    );
    // only GET and HEAD
    for p in ["/club/x".to_string(), standings.clone()] {
        let r = app.send(TestRequest::post().uri(&p)).await;
        assert_eq!(r.status, StatusCode::METHOD_NOT_ALLOWED, "{p}");
        assert_eq!(r.header("allow").as_deref(), Some("GET, HEAD"), "{p}");
        assert!(r.header("content-security-policy").is_some(), "{p}");
    }
    let r = app
        .send(
            TestRequest::default()
                .method(actix_web::http::Method::HEAD)
                .uri(&standings),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    // a competition's pages are only those it has
    for p in [
        format!("{}/slips", paths::club::competition(d.keizer)),
        "/club/competitions".to_string(),
    ] {
        let r = app.send(TestRequest::get().uri(&p)).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{p}");
        assert!(r.text.contains("Pagina niet gevonden"), "{p}");
    }
    let r = app
        .send(
            TestRequest::default()
                .method(actix_web::http::Method::HEAD)
                .uri(paths::CLUB),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
}

#[actix_web::test]
async fn competition_pages_are_cached_and_etagged_like_the_json() {
    let app = spawn().await;
    let d = seed(&app).await;
    let path = paths::club::standings(d.keizer);
    let first = page(&app, &path).await;
    let tag = first.header("etag").unwrap();
    let json = app.standings(d.keizer).await;
    assert_ne!(Some(tag.clone()), json.header("etag"));
    let again = app
        .send(
            TestRequest::get()
                .uri(&path)
                .insert_header(("If-None-Match", tag.clone())),
        )
        .await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    // the 304 carries the headers the 200 does (but the body's)
    for h in [
        "content-security-policy",
        "x-content-type-options",
        "cache-control",
        "vary",
    ] {
        assert!(first.header(h).is_some(), "200 without {h}");
        assert_eq!(again.header(h), first.header(h), "{h}");
    }
    assert_eq!(again.header("etag"), Some(tag.clone()));
    assert_eq!(first.header("cache-control").as_deref(), Some("no-cache"));
    // (the CORS layer adds its own request headers to `Vary`)
    assert!(
        first
            .header("vary")
            .unwrap()
            .starts_with("Accept-Language, Accept-Encoding"),
        "{:?}",
        first.header("vary")
    );
    // the English page is another document
    let en = page(&app, &format!("{path}?lang=en")).await;
    assert_ne!(en.header("etag"), Some(tag.clone()));
    // a result entered changes the competition's version, so the page's tag
    let round = app.get(&paths::round(d.keizer, 6), None).await;
    let game = round.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| !g["black"].is_null())
        .unwrap();
    let arbiter = app.token(&["arbiter"]).await;
    let r = app
        .send(
            TestRequest::put()
                .uri(&paths::result(&game["id"]))
                .insert_header(("Authorization", format!("Bearer {arbiter}")))
                .insert_header((
                    "If-Match",
                    format!("\"game-{}-v{}\"", game["id"], game["version"]),
                ))
                .set_json(serde_json::json!({"result": "1-0"})),
        )
        .await;
    assert!(r.status.is_success(), "{}", r.text);
    let after = app
        .send(
            TestRequest::get()
                .uri(&path)
                .insert_header(("If-None-Match", tag.clone())),
        )
        .await;
    assert_eq!(after.status, StatusCode::OK);
    assert_ne!(after.header("etag"), Some(tag));
    // other pages: a tag of their content
    let cal = page(&app, &paths::club::calendar(d.season)).await;
    let r = app
        .send(
            TestRequest::get()
                .uri(&paths::club::calendar(d.season))
                .insert_header(("If-None-Match", cal.header("etag").unwrap())),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_MODIFIED);
}

#[actix_web::test]
async fn frame_ancestors_come_from_the_configuration() {
    let app = spawn_with(|c| c.frame_ancestors = "https://club.example 'self'".into()).await;
    let r = page(&app, "/club/?embed=1").await;
    let csp = r.header("content-security-policy").unwrap();
    assert!(
        csp.ends_with("frame-ancestors https://club.example 'self'"),
        "{csp}"
    );
    assert!(!r.text.contains("<header"));
}

#[actix_web::test]
async fn attendance_bars_are_for_the_leader() {
    let app = spawn().await;
    let d = seed(&app).await;
    let path = paths::club::attendance(d.keizer);
    let r = app.send(TestRequest::get().uri(&path)).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert!(r.header("content-type").unwrap().starts_with("text/html"));
    let member = app.token(&["member"]).await;
    let r = app.get(&path, Some(&member)).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let leader = app.token(&["leader"]).await;
    let r = app.get(&path, Some(&leader)).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(
        r.header("cache-control").as_deref(),
        Some("private, no-store")
    );
    let rows = table_rows(&r.text, "attendance");
    let json = app.standings(d.keizer).await;
    let jrows = json.body["keizer"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), jrows.len());
    for (h, j) in rows.iter().zip(jrows) {
        assert_eq!(h[0], j["name"].as_str().unwrap());
        assert_eq!(h[1], j["played"].to_string());
        assert_eq!(h[2], j["byes"].to_string());
        assert_eq!(h[3], j["excused"].to_string());
        assert_eq!(h[4], j["unexcused"].to_string());
    }
    assert_eq!(r.text.matches("<svg class=\"bar\"").count(), jrows.len());
    assert!(!r.text.contains('@'));
    // not on the anonymous pages
    let s = page(&app, &paths::club::competition(d.keizer)).await;
    assert!(!s.text.contains("/attendance"));
}

/// The snapshot directory.
const SNAPSHOTS: &str = "tests/snapshots/pages";

/// A page without the parts that follow today's date: the front page's next evening and
/// calendar sections (their headings stay).
fn without_today(page: &str) -> String {
    let mut s = page.to_string();
    for (from, to) in [
        ("<h2 id=\"next\">", "<section aria-labelledby=\"comps\">"),
        ("<h2 id=\"cal\">", "</main>"),
    ] {
        if let (Some(a), Some(b)) = (s.find(from), s.find(to)) {
            let a = a + s[a..].find("</h2>").map_or(0, |e| e + 5);
            if a < b {
                s.replace_range(a..b, "…");
            }
        }
    }
    s
}

#[actix_web::test]
async fn html_snapshots_of_every_page_type() {
    let app = spawn().await;
    let d = seed(&app).await;
    let evening = keizer_evening(&app, &d, 6).await;
    let json = app.standings(d.keizer).await;
    let player = json.body["keizer"]["rows"][0]["player_id"]
        .as_i64()
        .unwrap();
    let update = std::env::var("UPDATE_SNAPSHOTS").is_ok();
    let mut stale = Vec::new();
    for (path, name) in all_pages(&d, evening, player) {
        let r = page(&app, &path).await;
        // one tag per line, so a change shows as a readable diff; the front page without
        // its next evening and calendar, which follow today's date (the next evening is
        // checked against the API in `page_links`)
        let body = without_today(&r.text).replace("><", ">\n<") + "\n";
        let file = format!("{SNAPSHOTS}/{name}.html");
        if update {
            std::fs::create_dir_all(SNAPSHOTS).unwrap();
            std::fs::write(&file, &body).unwrap();
        }
        if std::fs::read_to_string(&file).unwrap_or_default() != body {
            stale.push(file);
        }
    }
    assert!(
        stale.is_empty(),
        "stale snapshots {stale:?}: look at the change, then run `UPDATE_SNAPSHOTS=1 cargo test --test api html_snapshots` and commit them"
    );
}
