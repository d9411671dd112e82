//! Input every endpoint shares: strings both databases can store (no NUL character, in
//! bodies, query strings, paths and imports) and dates with four-digit years in 1900–2200.
//! A refusal is a 422 naming the field and changes nothing.

use crate::support::*;
use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use serde_json::json;

/// The field the (single) error of a 422 names.
fn field(r: &Resp) -> String {
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/problem+json")
    );
    r.body["errors"][0]["field"]
        .as_str()
        .unwrap_or_else(|| panic!("no field named: {}", r.text))
        .to_string()
}

#[actix_web::test]
async fn a_nul_character_is_refused_wherever_a_string_comes_in() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let sync = app.token(&["rating_sync"]).await;
    let before = app.counts().await;

    // JSON bodies: named by JSON pointer, nested ones too, keys included
    let r = app
        .create_player(&leader, json!({"name": "Jan\u{0}", "membership": "fixed"}))
        .await;
    assert_eq!(field(&r), "/name");
    let r = app
        .push_ratings(
            &sync,
            json!({"source": "KNSB", "list_date": "2026-11-01",
                "ratings": [{"knsb_number": "8400001", "value": 1800},
                            {"knsb_number": "84\u{0}02", "value": 1700}]}),
        )
        .await;
    assert_eq!(field(&r), "/ratings/1/knsb_number");
    let r = app
        .create_player(
            &leader,
            json!({"name": "Jan", "membership": "fixed", "x\u{0}": 1}),
        )
        .await;
    assert_eq!(field(&r), "/x\\u0000");
    // the anonymous login too (it reaches the users table)
    let r = app
        .login(json!({"email": "a\u{0}@club.example", "password": "password123"}))
        .await;
    assert_eq!(field(&r), "/email");

    // query strings and paths
    let r = app.get("/api/v1/players?q=Ja%00n", Some(&leader)).await;
    assert_eq!(field(&r), "q");
    let r = app.get("/api/v1/players/1%00", Some(&leader)).await;
    assert_eq!(field(&r), "path");

    // a CSV import, named by line
    let mut csv = b"Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S\r\n".to_vec();
    csv.extend_from_slice(b"8400001;Jan\x00;;NED;1777;20;1990;M\r\n");
    let r = app
        .send(
            TestRequest::post()
                .uri(&paths::knsb_import("2026-10-01"))
                .insert_header(("Authorization", format!("Bearer {sync}")))
                .insert_header(("Content-Type", "text/csv"))
                .set_payload(csv),
        )
        .await;
    assert_eq!(field(&r), "line 2");
    assert_eq!(app.counts().await, before);

    // a backslash followed by "u0000" is ordinary text, stored as written
    let r = app
        .create_player(
            &leader,
            json!({"name": "Jan \\u0000", "membership": "fixed"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["name"], "Jan \\u0000");
}

/// Dates every date field refuses, and one it takes.
const BAD_DATES: [&str; 7] = [
    "-2026-01-01",
    "0000-01-01",
    "2026-9-1",
    "+2026-09-01",
    "1899-12-31",
    "2201-01-01",
    "20260-09-01",
];

#[actix_web::test]
async fn dates_have_four_digit_years_in_1900_to_2200_everywhere() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let sync = app.token(&["rating_sync"]).await;
    let season_with = |d: &str| json!({"name": format!("season {d}"), "opening_date": d});

    for bad in BAD_DATES {
        let r = app.create_season(&leader, season_with(bad)).await;
        assert_eq!(field(&r), "opening_date", "{bad}");
    }
    let seasons = app.get(paths::SEASONS, None).await;
    assert_eq!(
        (
            seasons.body["items"].as_array().map(Vec::len),
            &seasons.body["total"]
        ),
        (Some(0), &json!(0)),
        "{}",
        seasons.text
    );
    let r = app.create_season(&leader, season_with("2026-09-04")).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let season = r.body["id"].as_i64().unwrap();

    let p = app
        .create_player(&leader, json!({"name": "Jan", "membership": "fixed"}))
        .await;
    let player = p.body["id"].as_i64().unwrap();
    let before = app.counts().await;
    for bad in BAD_DATES {
        let esc = bad.replace('+', "%2B");
        // a query parameter
        let r = app
            .get(&paths::player_rating(player, "KNSB", &esc), None)
            .await;
        assert_eq!(field(&r), "date", "{bad}");
        // a rating list, pushed and imported
        let r = app
            .push_ratings(
                &sync,
                json!({"source": "KNSB", "list_date": bad,
                    "ratings": [{"knsb_number": "8400001", "value": 1800}]}),
            )
            .await;
        assert_eq!(field(&r), "list_date", "{bad}");
        let r = app
            .send(
                TestRequest::post()
                    .uri(&paths::knsb_import(&esc))
                    .insert_header(("Authorization", format!("Bearer {sync}")))
                    .insert_header(("Content-Type", "text/csv"))
                    .set_payload("Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S\r\n"),
            )
            .await;
        assert_eq!(field(&r), "list_date", "{bad}");
        // the calendar
        let r = app
            .generate_calendar(
                &leader,
                season,
                json!({"closed_dates": ["2026-12-24", bad]}),
            )
            .await;
        assert_eq!(field(&r), "closed_dates[1]", "{bad}");
        let r = app
            .generate_calendar(&leader, season, json!({"season_end": bad}))
            .await;
        assert_eq!(field(&r), "season_end", "{bad}");
    }
    assert_eq!(app.counts().await, before);
    let evenings = app.get(&paths::evenings(season), None).await;
    assert_eq!(evenings.body["items"], json!([]), "{}", evenings.text);
    assert_eq!(evenings.body["total"], 0, "{}", evenings.text);
}
