//! Prizes (Keizer winter half, round robin), finalization, and the playoffs from a summer half
//! seeded from the winter.

use crate::helpers::*;
use crate::results::{competition, players, round, season, setup};
use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use serde_json::{Value, json};

fn ids(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x["player_id"].as_i64().unwrap())
        .collect()
}

#[actix_web::test]
async fn keizer_winter_prizes_and_finalize() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let fx = setup(
        &app,
        &leader,
        json!({"name": "K", "kind": "keizer", "half": "winter"}),
        &["A", "B", "C", "D", "E"],
    )
    .await;
    let [a, b, c, d, e] = fx.players[..] else {
        panic!()
    };
    // e never shows up (2 of 2 evenings without notice: not eligible, docs/rules/keizer.md#prizes)
    // ev 1: R0 [a60 b59 c58 d57 e56]: a 59, c 57, b 5, d 5 → [a c b d e]: a 58, c 57 → fixed
    // ev 2: [a60 c59 b58 d57 e56]: a–c 1-0, b–d 1-0: a 58+59 = 117, c 57+5 = 62,
    //   b 5+57 = 62, d 10 → [a c b d e] → fixed
    round(
        &app,
        &leader,
        fx.comp,
        vec![(a, Some(b), Some("1-0")), (c, Some(d), Some("1-0"))],
        "completed",
    )
    .await;
    round(
        &app,
        &leader,
        fx.comp,
        vec![(a, Some(c), Some("1-0")), (b, Some(d), Some("1-0"))],
        "published",
    )
    .await;
    let url = format!("/api/v1/competitions/{}/prizes", fx.comp);
    let r = app.get(&url, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let k = &r.body["keizer"];
    assert_eq!(r.body["finalized"], false);
    assert_eq!(k["half"], "winter");
    let awards: Vec<(String, i64)> = k["awards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["prize"].as_str().unwrap().to_string(),
                x["player_id"].as_i64().unwrap(),
            )
        })
        .collect();
    // champion a, silver c, bronze b; best of the rest among the others without a prize: d
    assert_eq!(
        awards,
        [
            ("winter_champion".to_string(), a),
            ("silver".to_string(), c),
            ("bronze".to_string(), b),
            ("best_of_the_rest".to_string(), d)
        ]
    );
    assert_eq!(ids(&k["not_eligible"]), [e]);

    // finalize: every round must be completed first (409), a member may not (403)
    let fin = format!("{url}/finalize");
    let member = app.token(&["member"]).await;
    assert_eq!(
        app.post(&fin, Some(&member), json!({})).await.status,
        StatusCode::FORBIDDEN
    );
    let r = app.post(&fin, Some(&leader), json!({})).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    crate::results::advance(&app, fx.comp, 2, "published", "completed").await;
    let r = app.post(&fin, Some(&leader), json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["finalized"], true);
    let r = app.get(&url, None).await;
    assert_eq!(r.body["finalized"], true);
    assert_eq!(r.body["keizer"]["awards"][0]["player_id"], a);
    assert_eq!(
        app.post(&fin, Some(&leader), json!({})).await.status,
        StatusCode::CONFLICT
    );
    // the finalization is in the competition's audit
    let r = app
        .get(
            &format!("/api/v1/competitions/{}/audit", fx.comp),
            Some(&leader),
        )
        .await;
    assert!(
        r.body
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["action"] == "prizes_finalized")
    );
}

#[actix_web::test]
async fn round_robin_prizes_and_kinds_without_prizes() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let fx = setup(
        &app,
        &leader,
        json!({"name": "NK", "kind": "round_robin", "discipline": "draughts",
               "params": {"prize_money": [90, 60], "points_tables": [{"name": "grandmaster", "by_place": [3, 2, 1]}]}}),
        &["A", "B", "C"],
    )
    .await;
    let (a, b, c) = (fx.players[0], fx.players[1], fx.players[2]);
    round(
        &app,
        &leader,
        fx.comp,
        vec![(a, Some(b), Some("1-1"))],
        "completed",
    )
    .await;
    round(
        &app,
        &leader,
        fx.comp,
        vec![(b, Some(c), Some("2-0"))],
        "completed",
    )
    .await;
    round(
        &app,
        &leader,
        fx.comp,
        vec![(c, Some(a), Some("0-2"))],
        "completed",
    )
    .await;
    // a 3 (1 win), b 3 (1 win), mutual 1–1, ranking order equal → lots; c 0
    // prize money: a and b share places 1–2: (90 + 60) / 2 = 75 each; grandmaster (3+2)/2 = 2.5
    let r = app
        .get(&format!("/api/v1/competitions/{}/prizes", fx.comp), None)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let rows = r.body["round_robin"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["prize_money"], "75");
    assert_eq!(rows[1]["prize_money"], "75");
    assert_eq!(rows[0]["points_tables"]["grandmaster"], "2.5");
    assert_eq!(rows[2]["player_id"], c);
    assert_eq!(rows[2]["prize_money"], "0");
    // a Swiss has no prize rules here
    let s = setup(
        &app,
        &leader,
        json!({"name": "B", "kind": "swiss", "system": "dutch"}),
        &[],
    )
    .await;
    assert_eq!(
        app.get(&format!("/api/v1/competitions/{}/prizes", s.comp), None)
            .await
            .status,
        StatusCode::CONFLICT
    );
}

/// A season with players A–D, a completed winter Keizer half of one evening and the summer
/// half seeded from it (not played yet): `(season, [a, b, c, d], summer)`.
pub async fn summer_of_four<S, B>(app: &TestApp<S>, leader: &str) -> (i64, [i64; 4], i64)
where
    S: AppService<B>,
    B: actix_web::body::MessageBody,
{
    let season = season(app, leader).await;
    let ps = players(app, leader, &["A", "B", "C", "D"]).await;
    let [a, b, c, d] = ps[..] else { panic!() };
    let winter = competition(
        app,
        leader,
        season,
        json!({"name": "W", "kind": "keizer", "half": "winter"}),
        &ps,
    )
    .await;
    // winter: R0 [a60 b59 c58 d57]: b beats a, c beats d: b 60, c 57, a 5, d 5 → [b c a d]:
    // b = 58, c = 57 → fixed. Final order b, c, a, d.
    round(
        app,
        leader,
        winter,
        vec![(a, Some(b), Some("0-1")), (c, Some(d), Some("1-0"))],
        "completed",
    )
    .await;
    let summer = competition(
        app,
        leader,
        season,
        json!({"name": "S", "kind": "keizer", "half": "summer", "seeded_from": winter}),
        &ps,
    )
    .await;
    // the summer half starts in the winter's final order
    let r = app
        .get(&format!("/api/v1/competitions/{summer}/standings"), None)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(ids(&r.body["keizer"]["rows"]), [b, c, a, d]);
    (season, [a, b, c, d], summer)
}

/// Plays the summer half of [`summer_of_four`] (c and b win: final order c, b, a, d) and
/// creates the season's playoffs (201).
pub async fn playoffs_of_four<S, B>(
    app: &TestApp<S>,
    leader: &str,
    season: i64,
    [a, b, c, d]: [i64; 4],
    summer: i64,
) -> Resp
where
    S: AppService<B>,
    B: actix_web::body::MessageBody,
{
    // summer: [b60 c59 a58 d57]: c beats a, b beats d: c 58, b 57 → [c b a d] → fixed
    round(
        app,
        leader,
        summer,
        vec![(c, Some(a), Some("1-0")), (b, Some(d), Some("1-0"))],
        "completed",
    )
    .await;
    let url = format!("/api/v1/seasons/{season}/playoffs");
    let r = app.post(&url, Some(leader), json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    r
}

#[actix_web::test]
async fn playoffs_from_the_summer_half() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let arbiter = app.token(&["arbiter"]).await;
    let (season, [a, b, c, d], summer) = summer_of_four(&app, &leader).await;
    // no playoffs before the summer is finished
    let url = format!("/api/v1/seasons/{season}/playoffs");
    assert_eq!(
        app.post(&url, Some(&leader), json!({})).await.status,
        StatusCode::CONFLICT
    );
    let r = playoffs_of_four(&app, &leader, season, [a, b, c, d], summer).await;
    let comp = r.body["competition_id"].as_i64().unwrap();
    let g = &r.body["groups"][0];
    assert_eq!(r.body["groups"].as_array().unwrap().len(), 1);
    assert_eq!(
        g["seeds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["id"].as_i64().unwrap())
            .collect::<Vec<_>>(),
        [c, b, a, d]
    );
    assert_eq!(
        g["next"],
        json!([{"match": "semi1", "game": 1}, {"match": "semi2", "game": 1}])
    );
    assert!(r.body["colour_seed"].is_u64());
    assert_eq!(
        app.post(&url, Some(&leader), json!({})).await.status,
        StatusCode::CONFLICT
    );

    let put = |game: i64, result: &str| {
        TestRequest::put()
            .uri(&format!("/api/v1/games/{game}/result"))
            .insert_header(("Authorization", format!("Bearer {arbiter}")))
            .set_json(json!({"result": result}))
    };
    let semi1 = &g["matches"][0];
    let semi2 = &g["matches"][1];
    // semi 1 (c–d) drawn → a decider at once; a drawn decider is won by black (docs/rules/keizer.md#playoffs)
    let r = app
        .send(put(
            semi1["games"][0]["game_id"].as_i64().unwrap(),
            "1/2-1/2",
        ))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let v = app
        .get(&format!("/api/v1/competitions/{comp}/playoffs"), None)
        .await;
    let decider = &v.body["groups"][0]["matches"][0]["games"][1];
    assert_eq!(decider["decider"], true);
    let r = app
        .send(put(decider["game_id"].as_i64().unwrap(), "1/2-1/2"))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let black_of_decider = decider["black"]["id"].as_i64().unwrap();
    // semi 2 (b–a): white wins
    let white2 = semi2["games"][0]["white"]["id"].as_i64().unwrap();
    let r = app
        .send(put(semi2["games"][0]["game_id"].as_i64().unwrap(), "1-0"))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let v = app
        .get(&format!("/api/v1/competitions/{comp}/playoffs"), None)
        .await;
    let g = &v.body["groups"][0];
    assert_eq!(g["matches"][0]["winner"]["id"], black_of_decider);
    assert_eq!(g["matches"][1]["winner"]["id"], white2);
    assert_eq!(g["next"], json!([{"match": "final", "game": 1}]));
    let fin = &g["matches"][2]["games"][0];
    let fin_white = fin["white"]["id"].as_i64().unwrap();
    // -/- is not a playoff result
    let r = app.send(put(fin["game_id"].as_i64().unwrap(), "-/-")).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let r = app.send(put(fin["game_id"].as_i64().unwrap(), "1-0")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let v = app
        .get(&format!("/api/v1/competitions/{comp}/playoffs"), None)
        .await;
    assert_eq!(v.body["club_champion"]["id"], fin_white);
    assert_eq!(v.body["groups"][0]["next"], json!([]));
    // correcting semi 2 would change a finalist of the played final: 409, nothing changed
    let r = app
        .send(put(semi2["games"][0]["game_id"].as_i64().unwrap(), "0-1"))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    let again = app
        .get(&format!("/api/v1/competitions/{comp}/playoffs"), None)
        .await;
    assert_eq!(again.body, v.body);
    // not a playoff competition
    assert_eq!(
        app.get(&format!("/api/v1/competitions/{summer}/playoffs"), None)
            .await
            .status,
        StatusCode::CONFLICT
    );
}
