//! The member page (`GET /me`).

use crate::support::*;
use actix_web::http::StatusCode;
use serde_json::{Value, json};

#[actix_web::test]
async fn the_member_page_shows_the_next_game_the_attendance_to_come_and_the_last_results() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    // a season far ahead, so that its evenings are still to come: 4, 11 and 18 September 2099
    let season = SeasonBuilder::new()
        .opening_date("2099-09-04")
        .create(&app, &leader)
        .await;
    let r = app.generate_calendar(&leader, season, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let evenings: Vec<i64> = r.body.as_array().unwrap()[..3]
        .iter()
        .map(|e| e["id"].as_i64().unwrap())
        .collect();
    let keizer = CompetitionBuilder::keizer()
        .in_season(season)
        .players(&["Anna", "Bram", "Cor"])
        .create(&app, &leader)
        .await;
    let [anna, bram, cor] = keizer.players[..] else {
        unreachable!()
    };
    let swiss = CompetitionBuilder::swiss("dutch")
        .in_season(season)
        .entrants(&[anna])
        .players(&["Dirk"])
        .create(&app, &leader)
        .await;
    let dirk = swiss.players[0];
    // the first evening: Anna has black against Bram in the Keizer (published) and beat Dirk
    // in the Swiss; the Keizer's second evening is planned and Anna signed off for it; the
    // third is planned
    round_on_evening(
        &app,
        &leader,
        keizer.comp,
        evenings[0],
        vec![(bram, Some(anna), None), (cor, None, None)],
        "published",
    )
    .await;
    let (_, swiss_games) = round_on_evening(
        &app,
        &leader,
        swiss.comp,
        evenings[0],
        vec![(anna, Some(dirk), Some("1-0"))],
        "completed",
    )
    .await;
    let (two, _) =
        round_on_evening(&app, &leader, keizer.comp, evenings[1], vec![], "planned").await;
    signed_off(&app, keizer.comp, two, anna, "Bruiloft").await;
    round_on_evening(&app, &leader, keizer.comp, evenings[2], vec![], "planned").await;

    let token = app.member_token(anna).await;
    let r = app.member_page(Some(&token)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let m = &r.body;
    assert_eq!(
        m["player"],
        json!({"id": anna, "name": "Anna", "membership": "fixed"})
    );
    assert_eq!(m["next_evening"]["id"], evenings[0]);
    assert_eq!(m["next_evening"]["date"], "2099-09-04");
    assert_eq!(
        m["next_games"],
        json!([
            {"competition_id": keizer.comp, "competition_name": "K", "round": 1, "board": 1,
             "colour": "black", "opponent": {"id": bram, "name": "Bram", "rating": null}},
            {"competition_id": swiss.comp, "competition_name": "Swiss", "round": 1, "board": 1,
             "colour": "white", "opponent": {"id": dirk, "name": "Dirk", "rating": null}}
        ])
    );
    // the rounds to come, by date: the Swiss round is completed and not among them
    let coming: Vec<(i64, i64, &str, &str)> = m["attendance"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["competition_id"].as_i64().unwrap(),
                a["round"].as_i64().unwrap(),
                a["date"].as_str().unwrap(),
                a["status"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        coming,
        [
            (keizer.comp, 1, "2099-09-04", "expected"),
            (keizer.comp, 2, "2099-09-11", "excused"),
            (keizer.comp, 3, "2099-09-18", "expected"),
            // the half's other Keizer evenings of the calendar, each with its planned round
            (keizer.comp, 4, "2099-09-25", "expected"),
            (keizer.comp, 5, "2099-10-02", "expected"),
            (keizer.comp, 6, "2099-10-09", "expected"),
            (keizer.comp, 7, "2099-10-16", "expected"),
            (keizer.comp, 8, "2099-10-23", "expected"),
            (keizer.comp, 9, "2099-10-30", "expected"),
            (keizer.comp, 10, "2099-11-06", "expected"),
            (keizer.comp, 11, "2099-11-13", "expected"),
        ]
    );
    let results = m["last_results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{}", r.text);
    assert_eq!(results[0]["game_id"], swiss_games[0]);
    assert_eq!(results[0]["result"], "1-0");
    assert!(!r.text.contains('@'), "{}", r.text);
    // the same page again with its ETag: 304
    let tag = r.header("etag").unwrap();
    let again = app
        .send(
            actix_web::test::TestRequest::get()
                .uri(paths::MEMBER_PAGE)
                .insert_header(("Authorization", format!("Bearer {token}")))
                .insert_header(("If-None-Match", tag)),
        )
        .await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
}

#[actix_web::test]
async fn an_account_without_a_player_gets_an_empty_member_page() {
    let app = spawn().await;
    let token = app.token(&["member"]).await;
    let r = app.member_page(Some(&token)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        r.body,
        json!({"player": null, "next_evening": null, "next_games": [], "attendance": [],
               "last_results": []})
    );
}

#[actix_web::test]
async fn the_member_page_needs_a_token() {
    let app = spawn().await;
    let r = app.member_page(None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
    assert_eq!(r.body["status"], Value::from(401));
}
