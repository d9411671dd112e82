//! Ratings: history, rating on a date, the bulk push (atomic, idempotent), the KNSB CSV.

use crate::support::*;
use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use serde_json::json;

async fn two_players(app: &TestApp, leader: &str) -> (i64, i64) {
    let a = app
        .create_player(leader, json!({"name": "A", "knsb_number": "8400001"}))
        .await;
    let b = app
        .create_player(leader, json!({"name": "B", "fide_id": "1234567"}))
        .await;
    (
        a.body["id"].as_i64().unwrap(),
        b.body["id"].as_i64().unwrap(),
    )
}

#[actix_web::test]
async fn push_twice_changes_nothing_the_second_time() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let sync = app.token(&["rating_sync"]).await;
    let (a, _) = two_players(&app, &leader).await;
    let list = json!({"source": "KNSB", "list_date": "2026-09-01", "ratings": [
        {"knsb_number": "8400001", "value": 1834},
        {"fide_id": "1234567", "value": 2011},
        {"knsb_number": "9999999", "value": 1500}]});
    let r = app.push_ratings(&sync, list.clone()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        r.body,
        json!({"inserted": 2, "updated": 0, "unchanged": 0, "unknown": 1, "unknown_ids": ["knsb:9999999"]})
    );
    let before = app.counts().await;
    let r = app.push_ratings(&sync, list).await;
    assert_eq!(
        r.body,
        json!({"inserted": 0, "updated": 0, "unchanged": 2, "unknown": 1, "unknown_ids": ["knsb:9999999"]})
    );
    assert_eq!(app.counts().await, before);
    // a changed value is an update
    let list = json!({"source": "KNSB", "list_date": "2026-09-01", "ratings": [{"knsb_number": "8400001", "value": 1840}]});
    let r = app.push_ratings(&sync, list).await;
    assert_eq!(r.body["updated"], 1);
    let r = app.get(&paths::player(a), None).await;
    assert_eq!(r.body["ratings"]["KNSB"], 1840);
}

#[actix_web::test]
async fn malformed_list_is_rejected_whole_with_row_errors() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let sync = app.token(&["rating_sync"]).await;
    two_players(&app, &leader).await;
    let before = app.counts().await;
    let list = json!({"source": "ELO", "list_date": "2026-13-01", "ratings": [
        {"knsb_number": "8400001", "value": 1834},
        {"knsb_number": "8400001", "fide_id": "1", "value": 1},
        {"fide_id": "1234567", "value": 9000},
        {"knsb_number": "8400001", "value": 1700}]});
    let r = app.push_ratings(&sync, list).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let fields = r.errors("field");
    assert_eq!(
        fields,
        [
            "source",
            "list_date",
            "ratings[1]",
            "ratings[2].value",
            "ratings[3]"
        ]
    );
    assert_eq!(app.counts().await, before, "nothing written");
    // a row names its number by leaving the other property out; an explicit null is refused
    let list = json!({"source": "KNSB", "list_date": "2026-11-01",
        "ratings": [{"fide_id": "1234567", "knsb_number": null, "value": 1500}]});
    let r = app.push_ratings(&sync, list).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(app.counts().await, before, "nothing written");
}

#[actix_web::test]
async fn history_and_rating_on_date() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let admin = app.token(&["admin"]).await;
    let (a, _) = two_players(&app, &leader).await;
    for (d, v) in [
        ("2026-07-01", 1800),
        ("2026-09-01", 1820),
        ("2026-11-01", 1790),
    ] {
        let list = json!({"source": "KNSB", "list_date": d, "ratings": [{"knsb_number": "8400001", "value": v}]});
        assert_eq!(app.push_ratings(&admin, list).await.status, StatusCode::OK);
    }
    let r = app.get(&paths::player_ratings(a), None).await;
    assert_eq!(r.body["total"], 3, "{}", r.text);
    let values: Vec<i64> = ints(&r.body["items"], "value");
    assert_eq!(values, [1790, 1820, 1800], "newest first");
    // on 1 October the newest list dated on or before it is 1 September's
    let r = app
        .get(&paths::player_rating(a, "KNSB", "2026-10-01"), None)
        .await;
    assert_eq!(r.body["value"], 1820);
    assert_eq!(r.body["list_date"], "2026-09-01");
    let r = app
        .get(&paths::player_rating(a, "KNSB", "2026-09-01"), None)
        .await;
    assert_eq!(r.body["value"], 1820, "a list dated on the day counts");
    let r = app
        .get(&paths::player_rating(a, "KNSB", "2026-06-30"), None)
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = app
        .get(&paths::player_rating(a, "FOO", "2026-06-30"), None)
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[actix_web::test]
async fn knsb_csv_import() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let sync = app.token(&["rating_sync"]).await;
    let (a, _) = two_players(&app, &leader).await;
    let mut csv = b"Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S\r\n".to_vec();
    csv.extend_from_slice(
        b"8400001;Ren\xe9 A;;NED;1777;20;1990;M\r\n7000000;Other;;NED;1600;3;1980;M\r\n",
    );
    let req = |body: Vec<u8>| {
        TestRequest::post()
            .uri(&paths::knsb_import("2026-10-01"))
            .insert_header(("Authorization", format!("Bearer {sync}")))
            .insert_header(("Content-Type", "text/csv"))
            .set_payload(body)
    };
    let r = app.send(req(csv.clone())).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["inserted"], 1);
    assert_eq!(r.body["unknown"], 1);
    let r = app
        .get(&paths::player_rating(a, "KNSB", "2026-10-01"), None)
        .await;
    assert_eq!(r.body["value"], 1777);
    let before = app.counts().await;
    let r = app
        .send(req(
            b"Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S\n8400001;A;;NED;17x7;1;1;M\n"
                .to_vec(),
        ))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(r.body["errors"][0]["field"], "line 2");
    assert_eq!(app.counts().await, before);
}
