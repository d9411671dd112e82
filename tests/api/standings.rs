//! Standings: Keizer against the engine's worked examples, corrections replaying, ETag/304,
//! `?after`, CSV; round robin with tie-breaks, lots seed and prize money; Swiss tie-breaks;
//! TRF export.

use crate::support::*;
use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use serde_json::{Value, json};

fn table(body: &Value) -> Vec<(i64, i64, String)> {
    body["keizer"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["player_id"].as_i64().unwrap(),
                r["value"].as_i64().unwrap(),
                format!("{:.4}", r["score"].as_f64().unwrap()),
            )
        })
        .collect()
}

/// The worked example `old_results_are_valued_with_the_current_ranking` of
/// `crates/engine/src/keizer/standings/tests.rs`, through the API, then a correction that replays.
#[actix_web::test]
async fn keizer_standings_match_the_worked_example_and_replay_corrections() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let fx = CompetitionBuilder::keizer()
        .players(&["A", "B", "C"])
        .create(&app, &leader)
        .await;
    let (a, b, c) = (fx.players[0], fx.players[1], fx.players[2]);
    let url = paths::standings(fx.comp);

    // before any evening: the seed order (order of entry, all unrated), values 60, 59, 58
    let r = app.get(&url, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["after"], 0);
    assert_eq!(
        table(&r.body),
        [
            (a, 60, "0.0000".into()),
            (b, 59, "0.0000".into()),
            (c, 58, "0.0000".into())
        ]
    );

    // evening 1: a beats b, c has the bye
    let e1 = round(
        &app,
        &leader,
        fx.comp,
        vec![(a, Some(b), Some("1-0")), (c, None, None)],
        "completed",
    )
    .await;
    // evening 2: b beats c, a signed off (excused)
    round(
        &app,
        &leader,
        fx.comp,
        vec![(b, Some(c), Some("1-0"))],
        "paired",
    )
    .await;
    attendance(&app, fx.comp, 2, a, "sign_off").await;
    advance(&app, fx.comp, 2, "paired", "published").await;
    // published with every result in: counts
    let r = app.get(&url, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["rounds_counted"], 2);
    // Evening 2 (worked example): a 60 77.998, c 59 64, b 58 64; iterations 3
    assert_eq!(
        table(&r.body),
        [
            (a, 60, "77.9980".into()),
            (c, 59, "64.0000".into()),
            (b, 58, "64.0000".into())
        ]
    );
    assert_eq!(r.body["keizer"]["converged"], true);
    assert_eq!(r.body["keizer"]["iterations"], 3);
    assert_eq!(r.body["keizer"]["rows"][0]["excused"], 1);
    assert_eq!(r.body["keizer"]["rows"][0]["eligible"], true);
    let etag = r.header("etag").unwrap();

    // ?after=1: c 60 60, a 59 58, b 58 5; iterations 4
    let r1 = app.get(&format!("{url}?after=1"), None).await;
    assert_eq!(
        table(&r1.body),
        [
            (c, 60, "60.0000".into()),
            (a, 59, "58.0000".into()),
            (b, 58, "5.0000".into())
        ]
    );
    assert_eq!(r1.body["keizer"]["iterations"], 4);
    assert_ne!(r1.header("etag").unwrap(), etag);
    // bad after: 422 / 400
    assert_eq!(
        app.get(&format!("{url}?after=3"), None).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        app.get(&format!("{url}?after=x"), None).await.status,
        StatusCode::BAD_REQUEST
    );

    // If-None-Match → 304 without a body
    let r = app
        .send(
            TestRequest::get()
                .uri(&url)
                .insert_header(("If-None-Match", etag.clone())),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_MODIFIED);
    assert!(r.text.is_empty());

    // CSV: header and one line per player, same ETag rules
    let r = app.get(&paths::standings_csv(fx.comp), None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.header("content-type").unwrap().starts_with("text/csv"));
    let lines: Vec<&str> = r.text.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(
        lines[0],
        "rank,player_id,name,value,score,played,game_points,byes,excused,unexcused,eligible"
    );
    assert_eq!(lines[1], format!("1,{a},A,60,77.9980,1,1.0000,0,1,0,true"));

    // correction of evening 1 (b beat a), completed round → replay:
    // ev 1: R0 [a60 b59 c58]: b 60, a 5, c 58 → [b c a]: b 58, c 59 → [c b a]: c 60, b 58 → fixed.
    // ev 2: R0 [c60 b59 a58]: c = 60 (bye) + 5 = 65, b = 58 + 60 = 118, a = 5 + 0.3333×58 =
    //   24.3314 → [b c a] (60 59 58): b = 58 + 59 = 117, c = 59 + 5 = 64, a = 24.3314 → fixed.
    let r = app
        .send(
            TestRequest::put()
                .uri(&paths::result(e1[0]))
                .insert_header(("Authorization", format!("Bearer {arbiter}")))
                .set_json(json!({"result": "0-1", "reason": "wrong score sheet"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app
        .send(
            TestRequest::get()
                .uri(&url)
                .insert_header(("If-None-Match", etag.clone())),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "a correction changes the ETag");
    assert_eq!(
        table(&r.body),
        [
            (b, 60, "117.0000".into()),
            (c, 59, "64.0000".into()),
            (a, 58, "24.3314".into())
        ]
    );
}

/// The worked example `neighbours_who_drew_swap_forever_and_are_averaged`: a cycle of 2.
#[actix_web::test]
async fn keizer_cycle_is_reported() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let fx = CompetitionBuilder::new(json!({"name": "K", "kind": "keizer"}))
        .players(&["A", "B"])
        .create(&app, &leader)
        .await;
    round(
        &app,
        &leader,
        fx.comp,
        vec![(fx.players[0], Some(fx.players[1]), Some("1/2-1/2"))],
        "completed",
    )
    .await;
    let r = app.standings(fx.comp).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["keizer"]["converged"], false);
    assert_eq!(r.body["keizer"]["cycle_length"], 2);
    assert_eq!(
        table(&r.body),
        [
            (fx.players[0], 60, "29.7500".into()),
            (fx.players[1], 59, "29.7500".into())
        ]
    );
}

#[actix_web::test]
async fn round_robin_standings_prize_money_and_lots_seed() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let params = json!({"prize_money": [100, 50, 30],
                        "rights": [{"name": "champion", "kind": "title", "places": 1}]});
    let fx = draughts_round_robin_of_three(&app, &leader, params, ["2-0", "1+-1-", "0-2"]).await;
    let (a, b, c) = (fx.players[0], fx.players[1], fx.players[2]);
    let r = app.standings(fx.comp).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let rows = r.body["round_robin"]["rows"].as_array().unwrap();
    // a 4 points; b and c 1 each, no wins; b's plusremise balance +1 beats c's −1
    let got: Vec<(i64, i64, Value)> = rows
        .iter()
        .map(|r| {
            (
                r["player_id"].as_i64().unwrap(),
                r["points"].as_i64().unwrap(),
                r["decided_by"].clone(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (a, 4, json!("points")),
            (b, 1, json!("plusremise_balance")),
            (c, 1, Value::Null)
        ]
    );
    assert_eq!(rows[1]["tiebreaks"]["plusremise_balance"], 1);
    assert_eq!(rows[0]["prize_money"], "100");
    // money depends on points only: b and c (1 point each) share places 2–3: (50 + 30) / 2
    assert_eq!(rows[1]["prize_money"], "40");
    assert_eq!(rows[2]["prize_money"], "40");
    assert_eq!(rows[0]["rights"], json!(["champion"]));
    // the lots tie-break got a seed, stored once
    let comp = app.get(&paths::competition(fx.comp), None).await;
    let seed = comp.body["params"]["lots_seed"].clone();
    assert!(seed.is_u64(), "{}", comp.text);
    app.standings(fx.comp).await;
    let comp = app.get(&paths::competition(fx.comp), None).await;
    assert_eq!(comp.body["params"]["lots_seed"], seed);
    // after round 1: a 2, b 0, c 0 (b, c still tied up to the lots, which decide)
    let r = app.get(&paths::standings_after(fx.comp, 1), None).await;
    assert_eq!(r.body["round_robin"]["rows"][0]["points"], 2);
    // CSV
    let r = app.get(&paths::standings_csv(fx.comp), None).await;
    let lines: Vec<&str> = r.text.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 4);
    assert!(
        lines[0].starts_with("place,player_id,name,points,games,wins,draws,losses,"),
        "{}",
        lines[0]
    );
}

#[actix_web::test]
async fn swiss_tiebreaks_and_trf_export() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let fx = CompetitionBuilder::new(
        json!({"name": "Blitz", "kind": "swiss", "system": "dutch", "tiebreaks": ["BH"]}),
    )
    .players(&["P1", "P2", "P3", "P4"])
    .create(&app, &leader)
    .await;
    let p = &fx.players;
    completed_rounds(
        &app,
        &leader,
        fx.comp,
        vec![
            vec![
                (p[0], Some(p[1]), Some("1-0")),
                (p[2], Some(p[3]), Some("1/2-1/2")),
            ],
            vec![
                (p[0], Some(p[2]), Some("1-0")),
                (p[3], Some(p[1]), Some("0-1")),
            ],
        ],
    )
    .await;
    let r = app.standings(fx.comp).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // points p1 2, p2 1, p3 ½, p4 ½; Buchholz p3 = ½ (p4) + 2 (p1) = 2.5, p4 = ½ + 1 = 1.5
    let rows = r.body["swiss"]["rows"].as_array().unwrap();
    let got: Vec<(i64, f64, f64)> = rows
        .iter()
        .map(|r| {
            (
                r["player_id"].as_i64().unwrap(),
                r["values"]["PTS"].as_f64().unwrap(),
                r["values"]["BH"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (p[0], 2.0, 1.5),
            (p[1], 1.0, 2.5),
            (p[2], 0.5, 2.5),
            (p[3], 0.5, 1.5)
        ]
    );
    assert_eq!(r.body["swiss"]["tiebreaks"], json!(["PTS", "BH"]));
    // p3 and p4 are level on ½ point; Buchholz (2½ against 1½) puts p3 above
    assert_eq!(
        r.body["swiss"]["separations"],
        json!([{"above_player_id": p[2], "below_player_id": p[3], "tiebreak": "BH",
                "above_value": 2.5, "below_value": 1.5}])
    );

    // TRF of a Swiss with a pairing-allocated bye: U, never F
    let fx2 = CompetitionBuilder::swiss("dutch")
        .set("name", "Rapid")
        .players(&["X", "Y", "Z"])
        .create(&app, &leader)
        .await;
    let q = &fx2.players;
    round(
        &app,
        &leader,
        fx2.comp,
        vec![(q[0], Some(q[1]), Some("1-0")), (q[2], None, None)],
        "published",
    )
    .await;
    let r = app.get(&paths::trf(fx2.comp), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(r.header("etag").is_some());
    let lines: Vec<&str> = r.text.lines().collect();
    assert_eq!(lines[0], "012 Rapid");
    assert!(lines.iter().any(|l| l.starts_with("XXR ")));
    let players: Vec<&&str> = lines.iter().filter(|l| l.starts_with("001")).collect();
    assert_eq!(players.len(), 3);
    assert!(players[0].ends_with("   2 w 1"), "{}", players[0]);
    assert!(players[1].ends_with("   1 b 0"), "{}", players[1]);
    assert!(players[2].ends_with("0000 - U"), "{}", players[2]);
    assert!(!r.text.contains(" - F"));
    // the shared TRF reader reads it back
    assert!(clubcomp_engine::swiss::parse_trf(&r.text).is_ok());
    // TRF is for Swiss and round robin only
    let k = CompetitionBuilder::new(json!({"name": "K", "kind": "keizer"}))
        .players(&[])
        .create(&app, &leader)
        .await;
    assert_eq!(
        app.get(&paths::trf(k.comp), None).await.status,
        StatusCode::CONFLICT
    );
    assert_eq!(app.standings(999999).await.status, StatusCode::NOT_FOUND);
}

/// Double-Swiss (docs/rules/rapid-blitz.md#double-swiss): two games per round, a bye worth both games (`U` twice), and a
/// round still being played shows blank results in the TRF.
#[actix_web::test]
async fn double_swiss_two_games_per_round_and_trf() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let fx = CompetitionBuilder::new(
        json!({"name": "Rapid", "kind": "swiss", "system": "double_swiss", "rounds_planned": 9}),
    )
    .players(&["X", "Y", "Z"])
    .create(&app, &leader)
    .await;
    let [x, y, z] = fx.players[..] else { panic!() };
    round_games(
        &app,
        &leader,
        fx.comp,
        vec![
            (1, 1, x, Some(y), Some("1-0")),
            (1, 2, y, Some(x), Some("1/2-1/2")),
            (2, 1, z, None, None),
        ],
        "completed",
    )
    .await;
    round_games(
        &app,
        &leader,
        fx.comp,
        vec![(1, 1, x, Some(z), None), (1, 2, z, Some(x), None)],
        "published",
    )
    .await;
    // X 1 + ½ = 1.5, Y ½, Z the bye: 2 points (docs/rules/rapid-blitz.md)
    let r = app.standings(fx.comp).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["rounds_counted"], 1);
    let got: Vec<(i64, f64)> = r.body["swiss"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["player_id"].as_i64().unwrap(),
                r["values"]["PTS"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, [(z, 2.0), (x, 1.5), (y, 0.5)]);
    let r = app.get(&paths::trf(fx.comp), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(r.text.contains("XXR 18"), "{}", r.text);
    assert!(r.text.contains("092 DOUBLESWISS"));
    let lines: Vec<&str> = r.text.lines().filter(|l| l.starts_with("001")).collect();
    assert!(
        lines[0].contains("   2 w 1     2 b =     3 w"),
        "{}",
        lines[0]
    );
    assert!(
        lines[2].contains("0000 - U  0000 - U     1 b"),
        "{}",
        lines[2]
    );
    let t = clubcomp_engine::swiss::parse_trf(&r.text).unwrap();
    assert_eq!(t.players[0].rounds.len(), 4);
}
