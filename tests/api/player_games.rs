//! A player's games across competitions (`GET /players/{id}/games`).

use crate::support::*;
use actix_web::http::StatusCode;
use serde_json::{Value, json};

/// Anna's games: the Keizer evening 1 (4 September, Anna beat Bram) and evening 2
/// (11 September, Anna beat Cor with black), both public; evening 3 paired but not published;
/// and the Swiss round 1 (4 September, drawn with Dirk, Anna black), played after the Keizer
/// game of that evening was stored. Returns Anna, the Keizer, the Swiss and the game ids in
/// the order Anna's page shows them: newest date first, then the later game first.
async fn annas_games(app: &TestApp) -> (i64, i64, i64, [i64; 3]) {
    let leader = app.token(&["leader"]).await;
    let (season, evenings) = season_with_calendar(app, &leader, "Seizoen 2026-2027").await;
    let keizer = CompetitionBuilder::keizer()
        .in_season(season)
        .players(&["Anna", "Bram", "Cor"])
        .create(app, &leader)
        .await;
    let [anna, bram, cor] = keizer.players[..] else {
        unreachable!()
    };
    let swiss = CompetitionBuilder::swiss("dutch")
        .in_season(season)
        .players(&["Dirk"])
        .entrants(&[anna])
        .create(app, &leader)
        .await;
    let dirk = swiss.players[0];
    let (_, k1) = round_on_evening(
        app,
        &leader,
        keizer.comp,
        evenings[0],
        vec![(anna, Some(bram), Some("1-0"))],
        "completed",
    )
    .await;
    let (_, s1) = round_on_evening(
        app,
        &leader,
        swiss.comp,
        evenings[0],
        vec![(dirk, Some(anna), Some("1/2-1/2"))],
        "completed",
    )
    .await;
    let (_, k2) = round_on_evening(
        app,
        &leader,
        keizer.comp,
        evenings[1],
        vec![(cor, Some(anna), Some("0-1"))],
        "published",
    )
    .await;
    round_on_evening(
        app,
        &leader,
        keizer.comp,
        evenings[2],
        vec![(anna, Some(bram), None)],
        "paired",
    )
    .await;
    (anna, keizer.comp, swiss.comp, [k2[0], s1[0], k1[0]])
}

#[actix_web::test]
async fn a_players_games_are_listed_newest_first_without_unpublished_ones() {
    let app = spawn().await;
    let (anna, keizer, swiss, [k2, s1, k1]) = annas_games(&app).await;
    let r = app.player_games(anna, "").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["total"], 3, "{}", r.text);
    let items = r.body["items"].as_array().unwrap();
    let ids: Vec<i64> = items
        .iter()
        .map(|g| g["game_id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [k2, s1, k1]);
    assert_eq!(items[0]["competition_id"], keizer);
    assert_eq!(items[0]["round"], 2);
    assert_eq!(items[0]["date"], "2026-09-11");
    assert_eq!(items[0]["colour"], "black");
    assert_eq!(items[0]["opponent"]["name"], "Cor");
    assert_eq!(items[0]["result"], "0-1");
    assert_eq!(items[1]["competition_id"], swiss);
    assert_eq!(items[1]["date"], "2026-09-04");
    assert_eq!(items[1]["opponent"]["name"], "Dirk");
    assert_eq!(items[2]["colour"], "white");
    assert_eq!(items[2]["opponent"]["name"], "Bram");
    assert_eq!(items[2]["result"], "1-0");
    // one competition
    let r = app
        .player_games(anna, &format!("competition={swiss}"))
        .await;
    assert_eq!(r.body["total"], 1, "{}", r.text);
    assert_eq!(r.body["items"][0]["game_id"], s1);
}

#[actix_web::test]
async fn a_players_games_come_a_page_at_a_time_and_past_the_end_is_empty() {
    let app = spawn().await;
    let (anna, _, _, [_, _, k1]) = annas_games(&app).await;
    let r = app.player_games(anna, "per_page=2&page=2").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["total"], 3);
    assert_eq!(r.body["items"].as_array().unwrap().len(), 1);
    assert_eq!(r.body["items"][0]["game_id"], k1);
    let link = r.header("link").unwrap();
    assert!(
        link.contains(&format!(
            "</api/v1/players/{anna}/games?per_page=2&page=1>; rel=\"prev\""
        )),
        "{link}"
    );
    let r = app.player_games(anna, "per_page=2&page=3").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["items"], json!([]));
    let link = r.header("link").unwrap();
    assert!(link.contains("page=2>; rel=\"last\""), "{link}");
}

#[actix_web::test]
async fn a_players_games_refuse_an_unknown_parameter_and_an_unknown_player() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let r = app.create_player(&leader, json!({"name": "Eva"})).await;
    let eva = r.body["id"].as_i64().unwrap();
    let r = app.player_games(eva, "").await;
    assert_eq!(r.body["items"], Value::Array(vec![]));
    assert_eq!(r.body["total"], 0);
    let r = app.player_games(eva, "opponent=3").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    assert!(r.text.contains("opponent"), "{}", r.text);
    let r = app.player_games(eva, "per_page=500").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), ["per_page"]);
    let r = app.player_games(987654, "").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text);
}
