//! Prizes (Keizer winter half, round robin), finalization, and the playoffs from a summer half
//! seeded from the winter.

use crate::support::*;
use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use serde_json::json;

#[actix_web::test]
async fn keizer_winter_prizes_and_finalize() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let fx = CompetitionBuilder::keizer()
        .players(&["A", "B", "C", "D", "E"])
        .create(&app, &leader)
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
    let url = paths::prizes(fx.comp);
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
    advance(&app, fx.comp, 2, "published", "completed").await;
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
        .get(&paths::competition_audit(fx.comp), Some(&leader))
        .await;
    assert!(
        r.body["items"]
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
    let params = json!({"prize_money": [90, 60],
                        "points_tables": [{"name": "grandmaster", "by_place": [3, 2, 1]}]});
    let fx = draughts_round_robin_of_three(&app, &leader, params, ["1-1", "2-0", "0-2"]).await;
    let c = fx.players[2];
    // a 3 (1 win), b 3 (1 win), mutual 1–1, ranking order equal → lots; c 0
    // prize money: a and b share places 1–2: (90 + 60) / 2 = 75 each; grandmaster (3+2)/2 = 2.5
    let r = app.get(&paths::prizes(fx.comp), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let rows = r.body["round_robin"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["prize_money"], "75");
    assert_eq!(rows[1]["prize_money"], "75");
    assert_eq!(rows[0]["points_tables"]["grandmaster"], "2.5");
    assert_eq!(rows[2]["player_id"], c);
    assert_eq!(rows[2]["prize_money"], "0");
    // a Swiss names its champion once a round counts: none yet
    let s = CompetitionBuilder::swiss("dutch")
        .set("name", "B")
        .players(&[])
        .create(&app, &leader)
        .await;
    let r = app.get(&paths::prizes(s.comp), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["swiss"]["champion"], serde_json::Value::Null);
    assert_eq!(r.body["swiss"]["decided_by"], "pending");
    // a knockout competition has its playoffs, no prize list
    let k = CompetitionBuilder::new(json!({"name": "Cup", "kind": "knockout"}))
        .players(&[])
        .create(&app, &leader)
        .await;
    assert_eq!(
        app.get(&paths::prizes(k.comp), None).await.status,
        StatusCode::CONFLICT
    );
}

#[actix_web::test]
async fn playoffs_from_the_summer_half() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let (season, [a, b, c, d], summer) = summer_of_four(&app, &leader).await;
    // no playoffs before the summer is finished
    let url = paths::season_playoffs(season);
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
            .uri(&paths::result(game))
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
    let v = app.get(&paths::playoffs(comp), None).await;
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
    let v = app.get(&paths::playoffs(comp), None).await;
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
    let v = app.get(&paths::playoffs(comp), None).await;
    assert_eq!(v.body["club_champion"]["id"], fin_white);
    assert_eq!(v.body["groups"][0]["next"], json!([]));
    // correcting semi 2 would change a finalist of the played final: 409, nothing changed
    let r = app
        .send(put(semi2["games"][0]["game_id"].as_i64().unwrap(), "0-1"))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    let again = app.get(&paths::playoffs(comp), None).await;
    assert_eq!(again.body, v.body);
    // not a playoff competition
    assert_eq!(
        app.get(&paths::playoffs(summer), None).await.status,
        StatusCode::CONFLICT
    );
}

/// The playoffs' pairing is told like any other: the semi-finals when the playoffs are made,
/// a decider when a semi-final is drawn, the final when both semi-finals are decided — each a
/// `pairing.generated` of its round for the leader (the rounds are paired, not published).
#[actix_web::test]
async fn the_playoffs_record_their_pairing_events() {
    use clubcomp_core::test_store::models::events::{self, Filter, Visibility};
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let (season, players, summer) = summer_of_four(&app, &leader).await;
    let r = playoffs_of_four(&app, &leader, season, players, summer).await;
    let comp = r.body["competition_id"].as_i64().unwrap();
    let g = &r.body["groups"][0];
    let semi1 = g["matches"][0]["games"][0]["game_id"].as_i64().unwrap();
    let semi2 = g["matches"][1]["games"][0]["game_id"].as_i64().unwrap();
    let told = || async {
        app.with_conn(move |c| {
            let all = Filter {
                competition: Some(clubcomp::ids::CompetitionId(comp)),
                clearance: Some(Visibility::Admin),
                ..Filter::default()
            };
            events::after(c, 0, &all, 1000)
                .unwrap()
                .into_iter()
                .filter(|e| e.kind.as_str().starts_with("pairing."))
                .map(|e| (e.kind.to_string(), e.visibility.to_string(), e.payload))
                .collect::<Vec<_>>()
        })
        .await
    };
    let generated = |round: i32| {
        (
            "pairing.generated".to_string(),
            "leader".to_string(),
            format!("{{\"round\":{round}}}"),
        )
    };
    assert_eq!(told().await, [generated(1)]);
    // semi-final 1 drawn: its decider joins round 1
    let r = app
        .enter_result(&arbiter, semi1, json!({"result": "1/2-1/2"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(told().await, [generated(1), generated(1)]);
    let v = app.get(&paths::playoffs(comp), None).await;
    let decider = v.body["groups"][0]["matches"][0]["games"][1]["game_id"]
        .as_i64()
        .unwrap();
    let r = app
        .enter_result(&arbiter, decider, json!({"result": "1-0"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(told().await, [generated(1), generated(1)]);
    // semi-final 2 decided too: the final is paired in round 2
    let r = app
        .enter_result(&arbiter, semi2, json!({"result": "0-1"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(told().await, [generated(1), generated(1), generated(2)]);
}

/// The summer half starts in the winter's final order (docs/rules/keizer.md#season-halves), and
/// its entrant list says so: the winter of `summer_of_four` ends b, c, a, d (worked by hand in
/// the fixture), so the summer's entrants are b, c, a, d, numbered 1–4, on the API and on the
/// club's competition page, while the winter's list keeps its seed order a, b, c, d.
#[actix_web::test]
async fn a_summer_half_lists_its_entrants_in_the_winters_final_order() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (_, [a, b, c, d], summer) = summer_of_four(&app, &leader).await;
    let r = app.get(&paths::entrants(summer), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let order: Vec<(i64, i64)> = r
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["player_id"].as_i64().unwrap(),
                e["seed"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(order, [(b, 1), (c, 2), (a, 3), (d, 4)], "{}", r.text);
    let winter = app.get(&paths::competition(summer), None).await.body["seeded_from"].clone();
    let r = app.get(&paths::entrants(winter), None).await;
    let first: Vec<i64> = r
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["player_id"].as_i64().unwrap())
        .collect();
    assert_eq!(first, [a, b, c, d], "{}", r.text);
    let page = app.get(&paths::club::competition(summer), None).await;
    assert_eq!(page.status, StatusCode::OK);
    let at = |name: &str| page.text.find(&format!(">{name}<")).unwrap_or(usize::MAX);
    assert!(
        at("B") < at("C") && at("C") < at("A") && at("A") < at("D"),
        "{}",
        page.text
    );
}
