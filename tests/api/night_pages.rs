//! The pages of a club night: the venue screen, the staff's check-in page with its QR code,
//! the member's check-in page it opens, and the report page the slips' QR codes open
//! (docs/decisions/0346-qr-codes-on-the-pages.md, 0347, 0348). The QR codes are read back
//! with an independent decoder.

use crate::support::*;
use actix_web::http::StatusCode;
use clubcomp::ids::EveningId;
use clubcomp::services::presence::code::minute_of;
use serde_json::json;

/// A Friday far ahead: the season's first evening, so no cut-off has passed.
const FRIDAY: &str = "2099-09-04";

/// One game of the published round: its id and its two players.
#[derive(Debug, Clone, Copy)]
struct G {
    id: i64,
    white: i64,
    black: i64,
}

struct Night {
    arbiter: String,
    evening: i64,
    /// Board 1 game 1, board 1 game 2, board 2 game 1, board 2 game 2.
    games: Vec<G>,
    players: Vec<i64>,
}

/// A rapid (Double-Swiss) of members Anna, Bram, Cor and Dirk whose round 1 on the season's
/// first evening is published: two boards of two games.
async fn night(app: &TestApp) -> Night {
    let Club { leader, arbiter } = ClubBuilder::new().build(app).await;
    let season = SeasonBuilder::new()
        .name("Seizoen 2099-2100")
        .opening_date(FRIDAY)
        .create(app, &leader)
        .await;
    let r = app.generate_calendar(&leader, season, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let evening = ints(&r.body, "id")[0];
    let fx = CompetitionBuilder::swiss("double_swiss")
        .set("name", "Rapid")
        .in_season(season)
        .members_of("fixed", &["Anna", "Bram", "Cor", "Dirk"])
        .create(app, &leader)
        .await;
    let r = app
        .create_round(&leader, fx.comp, json!({ "evening_id": evening }))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    check_in_all(app, &arbiter, fx.comp, 1, &fx.players).await;
    let r = app.generate_pairing(&leader, fx.comp, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let r = app.publish_round(&leader, fx.comp, 1).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let mut games: Vec<(i64, i64, G)> = r.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["board"].as_i64().unwrap(),
                g["game_no"].as_i64().unwrap(),
                G {
                    id: g["id"].as_i64().unwrap(),
                    white: g["white"]["id"].as_i64().unwrap(),
                    black: g["black"]["id"].as_i64().unwrap(),
                },
            )
        })
        .collect();
    games.sort_by_key(|(b, n, _)| (*b, *n));
    Night {
        arbiter,
        evening,
        games: games.into_iter().map(|(_, _, g)| g).collect(),
        players: fx.players,
    }
}

/// The code `evening` shows `back` minutes ago, as the server makes it.
fn code(app: &TestApp, evening: i64, back: i64) -> String {
    let m = minute_of(chrono::Utc::now());
    app.state.night.code_key.code(EveningId(evening), m - back)
}

/// The public address the pages' QR codes start with.
fn base(app: &TestApp) -> String {
    app.state.config.mail.public_url.clone()
}

#[actix_web::test]
async fn the_venue_screen_shows_the_evenings_boards_and_otherwise_the_next_evening() {
    let app = spawn().await;
    let n = night(&app).await;
    let path = format!("{}?evening={}&lang=en", paths::club::SCREEN, n.evening);
    let r = app.page_get(&path, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let text = club_pages::text(&r.text);
    // two boards of two games: each game a row, with its names and no result yet
    for name in ["Anna", "Bram", "Cor", "Dirk"] {
        assert_eq!(
            text.matches(name).count(),
            2,
            "{name} plays two games: {text}"
        );
    }
    assert!(text.contains("Rapid, round 1"), "{text}");
    // it reloads itself at the next 20 seconds of the clock, and shows the clock
    let refresh = r
        .text
        .split("http-equiv=\"refresh\" content=\"")
        .nth(1)
        .unwrap();
    let secs: u32 = refresh[..refresh.find('"').unwrap()].parse().unwrap();
    assert!((1..=20).contains(&secs), "{secs}");
    assert!(r.text.contains("class=\"clock\""));
    // no check-in panel while the check-in is closed; no script anywhere
    assert!(!r.text.contains("screen-check-in"));
    assert!(!r.text.contains("<script"));

    // the staff open the check-in: the screen shows its QR code of the member's address
    let o = app.open_evening_check_in(&n.arbiter, n.evening).await;
    assert_eq!(o.status, StatusCode::OK, "{}", o.text);
    let r = app.page_get(&path, None).await;
    let urls = decode_qrs(&r.text);
    let e = n.evening;
    let expected: Vec<String> = (0..2)
        .map(|back| {
            format!(
                "{}/club/evenings/{e}/check-in/{}",
                base(&app),
                code(&app, e, back)
            )
        })
        .collect();
    assert_eq!(urls.len(), 1, "{}", r.text);
    assert!(expected.contains(&urls[0]), "{urls:?} not in {expected:?}");
    assert!(r.text.contains(&urls[0]), "the address is also written out");

    // without `evening`: the first evening ahead is far away, so none is played tonight
    let r = app
        .page_get(&format!("{}?lang=en", paths::club::SCREEN), None)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let text = club_pages::text(&r.text);
    assert!(text.contains("There is no club evening tonight."), "{text}");
    assert!(
        text.contains("Next evening:") && text.contains("2099"),
        "{text}"
    );
    assert!(!text.contains("Anna"), "{text}");
    // a bad evening is refused naming the parameter
    let r = app
        .page_get(&format!("{}?evening=x", paths::club::SCREEN), None)
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(r.text.contains("evening"), "{}", r.text);
}

#[actix_web::test]
async fn the_venue_screen_without_any_evening_says_so() {
    let app = spawn().await;
    let r = app
        .page_get(&format!("{}?lang=en", paths::club::SCREEN), None)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(
        club_pages::text(&r.text).contains("No club evening is planned."),
        "{}",
        r.text
    );
}

#[actix_web::test]
async fn the_check_in_page_is_for_staff_and_shows_the_code_as_a_qr_of_the_members_address() {
    let app = spawn().await;
    let n = night(&app).await;
    let e = n.evening;
    let page = format!("{}?lang=en", paths::club::check_in(e));
    // anonymous: sign in first; a member: no access
    let r = app.page_get(&page, None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
    assert!(r.text.contains("/club/sign-in?next="), "{}", r.text);
    let member = app.page_browser(&["member"], Some(n.players[0])).await;
    let r = app.page_get(&page, Some(&member)).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text);
    assert!(!r.text.contains("class=\"qr\""));
    // the arbiter, before the check-in is open: no such page
    let arbiter = app.page_browser(&["arbiter"], None).await;
    let r = app.page_get(&page, Some(&arbiter)).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text);

    let o = app.open_evening_check_in(&n.arbiter, e).await;
    assert_eq!(o.status, StatusCode::OK, "{}", o.text);
    let r = app.page_get(&page, Some(&arbiter)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.header("cache-control").as_deref(), Some("no-store"));
    let urls = decode_qrs(&r.text);
    assert_eq!(urls.len(), 1);
    let shown = urls[0].rsplit('/').next().unwrap().to_string();
    assert!(
        [code(&app, e, 0), code(&app, e, 1)].contains(&shown),
        "{shown}"
    );
    assert_eq!(
        urls[0],
        format!("{}/club/evenings/{e}/check-in/{shown}", base(&app))
    );
    assert!(r.text.contains(&urls[0]) && r.text.contains(&format!(">{shown}<")));
    // it reloads itself when the code rotates: within the minute
    let refresh = r
        .text
        .split("http-equiv=\"refresh\" content=\"")
        .nth(1)
        .unwrap();
    let secs: i64 = refresh[..refresh.find('"').unwrap()].parse().unwrap();
    assert!((1..=61).contains(&secs), "{secs}");
    assert!(!r.text.contains("<script"));
}

#[actix_web::test]
async fn a_member_opening_the_qr_address_checks_in_with_one_button() {
    let app = spawn().await;
    let n = night(&app).await;
    let e = n.evening;
    let o = app.open_evening_check_in(&n.arbiter, e).await;
    assert_eq!(o.status, StatusCode::OK, "{}", o.text);
    let shown = code(&app, e, 0);
    let page = format!("{}?lang=en", paths::club::member_check_in(e, &shown));
    // not signed in: a sign-in link that comes back here
    let r = app.page_get(&page, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(
        r.text.contains("/club/sign-in?next=%2Fclub%2Fevenings%2F"),
        "{}",
        r.text
    );
    assert!(!r.text.contains("name=\"csrf\""));

    let anna = app.page_browser(&["member"], Some(n.players[0])).await;
    let r = app.page_get(&page, Some(&anna)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let token = csrf_of(&r.text);
    // a form without the page's token changes nothing
    let bad = app
        .page_post(
            &paths::club::member_check_in(e, &shown),
            Some(&anna),
            &[("csrf", "forged")],
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNAUTHORIZED, "{}", bad.text);
    let r = app
        .page_post(
            &format!("{}?lang=en", paths::club::member_check_in(e, &shown)),
            Some(&anna),
            &[("csrf", &token)],
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let text = club_pages::text(&r.text);
    // the round is paired already, so the service answers for the rapid why it takes no
    // check-in any more: the page shows the competition and the service's reason
    assert!(text.contains("Rapid"), "{text}");
}

#[actix_web::test]
async fn the_two_players_report_on_the_page_and_the_result_reads_back_in_the_evening() {
    let app = spawn().await;
    let n = night(&app).await;
    let g = n.games[0];
    let page = format!("{}?lang=en", paths::club::game_report(g.id));

    // anyone sees who plays, and a sign-in link instead of the buttons
    let r = app.page_get(&page, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let text = club_pages::text(&r.text);
    assert!(text.contains("Board 1 · Rapid, round 1"), "{text}");
    assert!(!r.text.contains("name=\"result\""));
    assert!(
        r.text.contains("/club/sign-in?next=%2Fclub%2Fgames%2F"),
        "{}",
        r.text
    );

    let white = app.page_browser(&["member"], Some(g.white)).await;
    let black = app.page_browser(&["member"], Some(g.black)).await;
    let r = app.page_get(&page, Some(&white)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // the chess codes a player reports, White's first
    for code in ["1-0", "½-½", "0-1"] {
        assert!(
            r.text
                .contains(&format!("name=\"result\" value=\"{code}\"")),
            "{code}: {}",
            r.text
        );
    }
    assert!(
        !r.text.contains("value=\"+/-\""),
        "forfeits are the arbiter's"
    );
    let token = csrf_of(&r.text);
    let post = format!("{}?lang=en", paths::club::game_report(g.id));
    let r = app
        .page_post(&post, Some(&white), &[("csrf", &token), ("result", "1-0")])
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(
        club_pages::text(&r.text).contains("Once your opponent reports the same"),
        "{}",
        r.text
    );
    let ev = app.evening(None, n.evening).await;
    let board = |ev: &serde_json::Value| {
        ev["rounds"][0]["boards"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["game_id"] == g.id)
            .cloned()
            .unwrap()
    };
    assert_eq!(board(&ev.body)["result"], serde_json::Value::Null);

    let r = app.page_get(&page, Some(&black)).await;
    let token = csrf_of(&r.text);
    let r = app
        .page_post(&post, Some(&black), &[("csrf", &token), ("result", "1-0")])
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(
        club_pages::text(&r.text).contains("Your reports agree"),
        "{}",
        r.text
    );
    let ev = app.evening(None, n.evening).await;
    assert_eq!(board(&ev.body)["result"], "1-0", "{}", ev.text);
    // the page now shows the result and takes no more reports
    let r = app.page_get(&page, Some(&white)).await;
    assert!(!r.text.contains("name=\"result\""));
    assert!(
        club_pages::text(&r.text).contains("Result: 1-0"),
        "{}",
        r.text
    );
}

#[actix_web::test]
async fn a_report_from_the_page_by_someone_not_playing_the_game_is_refused() {
    let app = spawn().await;
    let n = night(&app).await;
    let g = n.games[0];
    let other = n
        .players
        .iter()
        .copied()
        .find(|p| *p != g.white && *p != g.black)
        .unwrap();
    let page = paths::club::game_report(g.id);
    let stranger = app.page_browser(&["member"], Some(other)).await;
    let r = app.page_get(&page, Some(&stranger)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(
        !r.text.contains("name=\"result\""),
        "no buttons for a stranger"
    );
    let token = csrf_of(&r.text);
    let r = app
        .page_post(
            &page,
            Some(&stranger),
            &[("csrf", &token), ("result", "0-1")],
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text);
    // signed out: refused too, and nothing is stored by either
    let r = app
        .page_post(&page, None, &[("csrf", &token), ("result", "0-1")])
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
    let stored: i64 = app
        .with_conn(|c| {
            use clubcomp_core::test_store::schema::game_reports;
            use diesel::prelude::*;
            game_reports::table.count().get_result(c).unwrap()
        })
        .await;
    assert_eq!(stored, 0);
}

#[actix_web::test]
async fn the_slips_and_the_evening_page_carry_a_qr_code_of_each_games_report_page() {
    let app = spawn().await;
    let n = night(&app).await;
    let want: Vec<String> = n
        .games
        .iter()
        .map(|g| format!("{}/club/games/{}/report", base(&app), g.id))
        .collect();
    for path in [
        paths::club::slips(n.evening),
        paths::club::evening(n.evening),
    ] {
        let r = app.page_get(&path, None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(decode_qrs(&r.text), want, "{path}");
        for g in &n.games {
            assert!(
                r.text
                    .contains(&format!("href=\"/club/games/{}/report\"", g.id))
            );
        }
    }
}

#[actix_web::test]
async fn a_wrong_password_on_the_sign_in_page_signs_nobody_in() {
    let app = spawn().await;
    let email = app.page_account(&["member"], None).await;
    let (r, browser) = app.page_sign_in(&email, "not the password").await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
    assert!(browser.is_none());
    assert!(
        club_pages::text(&r.text).contains("Wrong e-mail address or password."),
        "{}",
        r.text
    );
    let (r, browser) = app.page_sign_in(&email, PAGE_PASSWORD).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    let cookie = r.header("set-cookie").unwrap();
    assert!(
        cookie.contains("HttpOnly")
            && cookie.contains("SameSite=Lax")
            && cookie.contains("Path=/club"),
        "{cookie}"
    );
    // a tampered cookie is no sign-in
    let forged = Browser {
        cookie: browser.unwrap().cookie.replacen('=', "=9", 1),
    };
    let r = app.page_get(paths::club::SIGN_IN, Some(&forged)).await;
    assert!(r.text.contains("name=\"password\""));
}
