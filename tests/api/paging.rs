//! The lists that grow answer one page shape (docs/api-guide.md#paging): the seasons, a
//! season's competitions and evenings, and a player's rating history.

use crate::support::*;
use actix_web::http::StatusCode;
use serde_json::{Value, json};

/// The `field` of every item of a page.
fn field_of(page: &Value, field: &str) -> Vec<Value> {
    page["items"]
        .as_array()
        .unwrap_or_else(|| panic!("not a page: {page}"))
        .iter()
        .map(|x| x[field].clone())
        .collect()
}

/// Checks the refusals every paged list shares: an unknown parameter (400 naming it), a page
/// size and a page number out of range (422 naming them).
async fn refuses_bad_paging(app: &TestApp, path: &str) {
    let r = app.get(&format!("{path}?sort=name"), None).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{path}: {}", r.text);
    assert!(r.text.contains("sort"), "{path}: {}", r.text);
    for (q, field) in [
        ("per_page=0", "per_page"),
        ("per_page=201", "per_page"),
        ("page=0", "page"),
        ("page=100001", "page"),
    ] {
        let r = app.get(&format!("{path}?{q}"), None).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{path}?{q}: {}",
            r.text
        );
        assert_eq!(r.errors("field"), [field], "{path}?{q}");
    }
}

#[actix_web::test]
async fn seasons_come_newest_first_in_pages_with_links() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let mut ids = Vec::new();
    // created out of order; two open on the same day (then the higher id first)
    for (name, opening) in [
        ("2025-2026", "2025-09-05"),
        ("2027-2028", "2027-09-03"),
        ("2026-2027", "2026-09-04"),
        ("2026-2027 jeugd", "2026-09-04"),
    ] {
        let id = SeasonBuilder::new()
            .name(name)
            .opening_date(opening)
            .create(&app, &leader)
            .await;
        ids.push(id);
    }
    let r = app
        .get(&format!("{}?per_page=3", paths::SEASONS), None)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        field_of(&r.body, "name"),
        [
            json!("2027-2028"),
            json!("2026-2027 jeugd"),
            json!("2026-2027")
        ]
    );
    assert_eq!(
        (&r.body["total"], &r.body["page"], &r.body["per_page"]),
        (&json!(4), &json!(1), &json!(3))
    );
    assert_eq!(
        r.header("link").as_deref(),
        Some(
            "</api/v1/seasons?per_page=3&page=1>; rel=\"first\", \
             </api/v1/seasons?per_page=3&page=2>; rel=\"next\", \
             </api/v1/seasons?per_page=3&page=2>; rel=\"last\""
        )
    );
    let r = app
        .get(&format!("{}?per_page=3&page=2", paths::SEASONS), None)
        .await;
    assert_eq!(field_of(&r.body, "id"), [json!(ids[0])]);
    // a page past the end is empty, with its links
    let r = app
        .get(&format!("{}?per_page=3&page=9", paths::SEASONS), None)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["items"], json!([]));
    assert_eq!(r.body["total"], 4);
    assert!(
        r.header("link").unwrap().contains("page=2>; rel=\"last\""),
        "{:?}",
        r.header("link")
    );
    refuses_bad_paging(&app, paths::SEASONS).await;
}

#[actix_web::test]
async fn a_seasons_competitions_and_evenings_are_pages() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (season, evenings) = season_with_calendar(&app, &leader, "2026-2027").await;
    let mut comps = Vec::new();
    for name in ["Interne A", "Interne B", "Rapid"] {
        let r = app
            .create_competition(
                &leader,
                season,
                json!({"name": name, "kind": "swiss", "system": "dutch"}),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        comps.push(r.body["id"].as_i64().unwrap());
    }
    let path = paths::season_competitions(season);
    let r = app.get(&format!("{path}?per_page=2&page=2"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(field_of(&r.body, "id"), [json!(comps[2])]);
    assert_eq!(r.body["total"], 3);
    let r = app.get(&path, None).await;
    assert_eq!(
        field_of(&r.body, "name"),
        ["Interne A", "Interne B", "Rapid"]
    );
    refuses_bad_paging(&app, &path).await;
    let r = app
        .get(&paths::season_competitions(season + 999), None)
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text);

    // the calendar, by date: its first evenings are the Fridays from 4 September 2026
    let path = paths::evenings(season);
    let r = app.get(&format!("{path}?per_page=2"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(field_of(&r.body, "date"), ["2026-09-04", "2026-09-11"]);
    assert_eq!(
        field_of(&r.body, "id"),
        [json!(evenings[0]), json!(evenings[1])]
    );
    let total = r.body["total"].as_i64().unwrap();
    let r = app.get(&format!("{path}?per_page=200"), None).await;
    let dates = field_of(&r.body, "date");
    assert_eq!(dates.len() as i64, total);
    assert_eq!(dates[2], "2026-09-18");
    let mut sorted = dates.clone();
    sorted.sort_by_key(|d| d.as_str().unwrap().to_string());
    assert_eq!(dates, sorted);
    refuses_bad_paging(&app, &path).await;
}

#[actix_web::test]
async fn a_players_rating_history_is_a_page_newest_list_first() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    let leader = app.token(&["leader"]).await;
    let r = app
        .create_player(&leader, json!({"name": "Anna", "knsb_number": "8400011"}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let anna = r.body["id"].as_i64().unwrap();
    for (date, value) in [
        ("2026-07-01", 1800),
        ("2026-09-01", 1820),
        ("2026-08-01", 1810),
    ] {
        let list = json!({"source": "KNSB", "list_date": date,
            "ratings": [{"knsb_number": "8400011", "value": value}]});
        let r = app.push_ratings(&admin, list).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let path = paths::player_ratings(anna);
    let r = app.get(&format!("{path}?per_page=2"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(field_of(&r.body, "value"), [1820, 1810]);
    assert_eq!(r.body["total"], 3);
    let r = app
        .get(&format!("{path}?source=KNSB&per_page=2&page=2"), None)
        .await;
    assert_eq!(field_of(&r.body, "value"), [1800]);
    assert!(
        r.header("link")
            .unwrap()
            .contains("?source=KNSB&per_page=2&page=1>; rel=\"prev\""),
        "{:?}",
        r.header("link")
    );
    let r = app.get(&format!("{path}?source=FIDE"), None).await;
    assert_eq!(
        (&r.body["items"], &r.body["total"]),
        (&json!([]), &json!(0))
    );
    refuses_bad_paging(&app, &path).await;
}
