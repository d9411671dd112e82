//! A player's card in one call (`GET /players/{id}/card`): ratings, places, scores, the
//! Keizer value and the Keizer history per evening.

use crate::support::*;
use actix_web::http::StatusCode;
use serde_json::json;

/// Anna, Bram and Cor (KNSB 1900, 1750, 1600) in a Keizer: on the first evening Anna beat
/// Bram and Cor had the bye. Anna and Bram also play a Swiss whose first round (Anna against
/// Bram) is published without its result. Returns the leader, the season, the Keizer, the
/// Swiss's game and Anna's id.
struct Card {
    leader: String,
    season: i64,
    keizer: i64,
    swiss: i64,
    swiss_game: i64,
    anna: i64,
}

async fn card_club(app: &TestApp) -> Card {
    let rs = rated_season(app, &RATED[..3]).await;
    // Anna beat Bram, Cor had the bye
    let (keizer, _) = rs.keizer_first_evening(app).await;
    let RatedSeason {
        leader,
        season,
        evenings,
        players: ids,
    } = rs;
    let (anna, bram) = (ids[0], ids[1]);
    let swiss = CompetitionBuilder::swiss("dutch")
        .in_season(season)
        .entrants(&[anna, bram])
        .create(app, &leader)
        .await
        .comp;
    let (_, games) = round_on_evening(
        app,
        &leader,
        swiss,
        evenings[0],
        vec![(anna, Some(bram), None)],
        "published",
    )
    .await;
    Card {
        leader,
        season,
        keizer,
        swiss,
        swiss_game: games[0],
        anna,
    }
}

#[actix_web::test]
async fn the_card_shows_the_keizer_and_the_swiss_and_changes_its_etag_after_a_result() {
    let app = spawn().await;
    let club = card_club(&app).await;
    let r = app.player_card(club.anna, "", None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let tag = r.header("etag").expect("an ETag");
    assert_eq!(r.body["etag"], tag.as_str());
    assert_eq!(r.body["name"], "Anna");
    assert_eq!(r.body["season_id"], club.season);
    assert_eq!(
        r.body["ratings"],
        json!([{"source": "KNSB", "value": 1900, "list_date": "2026-09-01"}])
    );
    let comps = r.body["competitions"].as_array().unwrap();
    assert_eq!(comps.len(), 2, "{}", r.text);
    // Keizer, seed order Anna 60, Bram 59, Cor 58: Anna wins against Bram (59), Bram loses
    // (5), Cor has the bye (own 58) → Anna 59, Cor 58, Bram 5. Values Anna 60, Cor 59,
    // Bram 58: Anna 58, Cor 59 → Cor, Anna, Bram. Values Cor 60, Anna 59, Bram 58: Anna 58,
    // Cor 60, Bram 5 → the order stays: Anna second with 58, worth 59.
    let k = &comps[0];
    assert_eq!(k["competition_id"], club.keizer);
    assert_eq!(k["kind"], "keizer");
    assert_eq!(k["place"], "2");
    assert_eq!(k["score"], 58.0);
    assert_eq!(k["keizer_value"], 59);
    assert_eq!(
        k["history"],
        json!([{"number": 1, "rank": 2, "score": 58.0, "value": 59}])
    );
    assert_eq!(k["games"][0]["opponent_name"], "Bram");
    assert_eq!(k["games"][0]["result"], "1-0");
    // the Swiss round has no result yet: no round counts
    let s = &comps[1];
    assert_eq!(s["competition_id"], club.swiss);
    assert_eq!(s["place"], json!(null));
    assert_eq!(s["keizer_value"], json!(null));
    assert_eq!(s["history"], json!([]));

    let again = app.player_card(club.anna, "", Some(&tag)).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);

    // Anna wins the Swiss game: first with 1 point, under a new tag
    let w = app
        .enter_result(&club.leader, club.swiss_game, json!({"result": "1-0"}))
        .await;
    assert_eq!(w.status, StatusCode::OK, "{}", w.text);
    let after = app.player_card(club.anna, "", Some(&tag)).await;
    assert_eq!(after.status, StatusCode::OK, "{}", after.text);
    assert_ne!(after.header("etag"), Some(tag));
    let s = &after.body["competitions"][1];
    assert_eq!(s["place"], "1");
    assert_eq!(s["score"], 1.0);
}

#[actix_web::test]
async fn an_unknown_player_or_season_is_a_404_and_an_unknown_parameter_a_400() {
    let app = spawn().await;
    let club = card_club(&app).await;
    let r = app.player_card(987654, "", None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/problem+json")
    );
    let r = app.player_card(club.anna, "?season=987654", None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text);
    let r = app.player_card(club.anna, "?seasn=1", None).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    assert!(r.text.contains("seasn"), "{}", r.text);
    let r = app
        .player_card(club.anna, &format!("?season={}", club.season), None)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["competitions"].as_array().unwrap().len(), 2);
}
