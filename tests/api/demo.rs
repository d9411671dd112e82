//! `clubcomp demo`: deterministic, idempotent, and visible through the public endpoints.

use crate::support::*;
use actix_web::http::StatusCode;
use serde_json::Value;
use std::collections::HashSet;

fn all_counts(c: &mut clubcomp_core::test_store::DbConn) -> Vec<i64> {
    use clubcomp_core::test_store::schema::*;
    use diesel::{QueryDsl, RunQueryDsl};
    vec![
        users::table.count().get_result(c).unwrap(),
        players::table.count().get_result(c).unwrap(),
        ratings::table.count().get_result(c).unwrap(),
        seasons::table.count().get_result(c).unwrap(),
        evenings::table.count().get_result(c).unwrap(),
        competitions::table.count().get_result(c).unwrap(),
        entrants::table.count().get_result(c).unwrap(),
        rounds::table.count().get_result(c).unwrap(),
        games::table.count().get_result(c).unwrap(),
        attendance::table.count().get_result(c).unwrap(),
    ]
}

#[actix_web::test]
async fn demo_twice_and_public_reads() {
    let app = spawn().await;
    let (first, second) = app
        .with_conn(|c| {
            clubcomp::services::demo::seed(c).unwrap();
            let first = all_counts(c);
            let summary = clubcomp::services::demo::seed(c).unwrap();
            assert!(summary.contains("0 players created"), "{summary}");
            (first, all_counts(c))
        })
        .await;
    assert_eq!(first, second, "a second run adds nothing");
    // 4 demo logins, 60 club players + 12 draughts players, 1 season, 42 Fridays,
    // 3 competitions, 60 + 21 + 12 entrants, 10 Keizer + 2 rapid + 11 draughts rounds
    assert_eq!(first[0], 4);
    assert_eq!(first[1], 72);
    assert_eq!(&first[3..8], &[1, 42, 3, 93, 23]);

    let seasons = app.get(paths::SEASONS, None).await;
    assert_eq!(seasons.body["items"][0]["name"], "2026-2027");
    let season = seasons.body["items"][0]["id"].as_i64().unwrap();
    let evs = app.get(&paths::evenings(season), None).await;
    assert_eq!(evs.body["items"].as_array().unwrap().len(), 42);
    assert_eq!(evs.body["total"], 42);
    let ics = app.get(&paths::calendar_ics(season), None).await;
    assert_eq!(ics.status, StatusCode::OK);
    assert_eq!(ics.text.matches("BEGIN:VEVENT").count(), 42);

    let comps = app.get(&paths::season_competitions(season), None).await;
    let comps: Vec<Value> = comps.body["items"].as_array().unwrap().clone();
    let find = |kind: &str| {
        comps
            .iter()
            .find(|c| c["kind"] == kind)
            .unwrap_or_else(|| panic!("no {kind} competition"))["id"]
            .as_i64()
            .unwrap()
    };
    let (keizer, rapid, draughts) = (find("keizer"), find("swiss"), find("round_robin"));

    // Keizer: 60 entrants; rounds 1–5 completed, 6 published, 7–10 planned; the first
    // evening is the first Friday after the opening, 11 September 2026.
    let entrants = app.get(&paths::entrants(keizer), None).await;
    let n = match &entrants.body {
        Value::Array(a) => a.len(),
        other => other["items"].as_array().unwrap().len(),
    };
    assert_eq!(n, 60);
    let rounds = app.get(&paths::rounds(keizer), None).await;
    let list = match &rounds.body {
        Value::Array(a) => a.clone(),
        other => other["items"].as_array().unwrap().clone(),
    };
    let statuses: Vec<&str> = list.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(
        statuses,
        [
            "completed",
            "completed",
            "completed",
            "completed",
            "completed",
            "published",
            "planned",
            "planned",
            "planned",
            "planned"
        ]
    );
    assert_eq!(list[0]["date"], "2026-09-11");
    // no two players meet twice in the half (docs/rules/keizer.md#pairing-constraints), every game of a completed round has a
    // result, and nobody plays twice on one evening
    let mut met = HashSet::new();
    for k in 1..=5 {
        let r = app.get(&paths::round(keizer, k), None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let games = r.body["games"].as_array().unwrap();
        assert!(games.len() > 20, "round {k}: {} boards", games.len());
        let mut seen = HashSet::new();
        for g in games {
            assert!(g["result"].is_string(), "round {k}: {g}");
            let w = g["white_id"].as_i64().or(g["white"]["id"].as_i64());
            let b = g["black_id"].as_i64().or(g["black"]["id"].as_i64());
            let w = w.unwrap_or_else(|| panic!("{g}"));
            assert!(seen.insert(w));
            if let Some(b) = b {
                assert!(seen.insert(b));
                assert!(
                    met.insert((w.min(b), w.max(b))),
                    "repeat {w}-{b} in round {k}"
                );
            } else {
                assert_eq!(g["result"], "bye");
            }
        }
    }

    // the evening in play: its bye is scored as the pairing scores it, so once the arbiter
    // has entered the games' results the leader can complete it
    let arbiter = app.token(&["arbiter"]).await;
    let leader = app.token(&["leader"]).await;
    let r = app.get(&paths::round(keizer, 6), None).await;
    for g in r.body["games"].as_array().unwrap() {
        if g["black"].is_null() {
            assert_eq!(g["result"], "bye", "{g}");
            continue;
        }
        assert!(g["result"].is_null(), "in play: {g}");
        let put = app
            .req(
                actix_web::http::Method::PUT,
                &paths::result(&g["id"]),
                Some(&arbiter),
                Some(serde_json::json!({"result": "1/2-1/2"})),
            )
            .await;
        assert_eq!(put.status, StatusCode::OK, "{}", put.text);
    }
    let done = app
        .post(
            &paths::complete(keizer, 6),
            Some(&leader),
            serde_json::json!({}),
        )
        .await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);

    // rapid: 21 players, round 1 = 10 matches of two games + the bye
    let r = app.get(&paths::round(rapid, 1), None).await;
    assert_eq!(r.body["games"].as_array().unwrap().len(), 21);
    assert_eq!(r.body["status"], "completed");
    assert!(
        app.get(&paths::round(rapid, 3), None)
            .await
            .status
            .is_client_error()
    );

    // draughts: 12 players, 11 Berger rounds of 6 games, everyone meets everyone once
    let mut pairs = HashSet::new();
    for k in 1..=11 {
        let r = app.get(&paths::round(draughts, k), None).await;
        let games = r.body["games"].as_array().unwrap();
        assert_eq!(games.len(), 6);
        for g in games {
            let w = g["white_id"]
                .as_i64()
                .or(g["white"]["id"].as_i64())
                .unwrap();
            let b = g["black_id"]
                .as_i64()
                .or(g["black"]["id"].as_i64())
                .unwrap();
            assert!(pairs.insert((w.min(b), w.max(b))));
        }
    }
    assert_eq!(pairs.len(), 66);
}

/// (round, board, white, black, result)
type GameRow = (i32, i32, String, String, Option<String>);
/// competition, round, board, white id, black id, result
type DbRow = (i64, i32, i32, Option<i64>, Option<i64>, Option<String>);

/// Two fresh databases get the same demo: the same pairings and results, by name.
#[actix_web::test]
async fn demo_is_deterministic() {
    async fn games_by_name() -> Vec<GameRow> {
        let app = spawn().await;
        app.with_conn(|c| {
            use clubcomp_core::test_store::schema::{games, players, rounds};
            use diesel::prelude::*;
            clubcomp::services::demo::seed(c).unwrap();
            let names: std::collections::HashMap<i64, String> = players::table
                .select((players::id, players::name))
                .load::<(i64, String)>(c)
                .unwrap()
                .into_iter()
                .collect();
            let rows: Vec<DbRow> = games::table
                .inner_join(rounds::table)
                .order((
                    rounds::competition_id,
                    rounds::number,
                    games::board,
                    games::game_no,
                ))
                .select((
                    rounds::competition_id,
                    rounds::number,
                    games::board,
                    games::white_id,
                    games::black_id,
                    games::result,
                ))
                .load(c)
                .unwrap();
            let name = |id: Option<i64>| id.map(|i| names[&i].clone()).unwrap_or_default();
            rows.into_iter()
                .map(|(_, n, b, w, bl, r)| (n, b, name(w), name(bl), r))
                .collect()
        })
        .await
    }
    let a = games_by_name().await;
    assert!(a.len() > 250, "{} games", a.len());
    assert_eq!(a, games_by_name().await);
}

/// In the demo's season, whose winter half is under way, the leader creates the summer half:
/// it gets a planned round on each of the ten summer `keizer` evenings, numbered 1 to 10 by
/// date, and the winter half keeps its rounds.
#[actix_web::test]
async fn a_summer_half_is_created_in_the_demo_season() {
    let app = spawn().await;
    app.with_conn(|c| {
        clubcomp::services::demo::seed(c).unwrap();
    })
    .await;
    let leader = app.token(&["leader"]).await;
    let season = app.get(paths::SEASONS, None).await.body["items"][0]["id"]
        .as_i64()
        .unwrap();
    let evs = app
        .get(&format!("{}?per_page=200", paths::evenings(season)), None)
        .await;
    let mut summer_evenings: Vec<(String, i64)> = evs.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "keizer" && e["half"] == "summer")
        .map(|e| {
            (
                e["date"].as_str().unwrap().to_string(),
                e["id"].as_i64().unwrap(),
            )
        })
        .collect();
    summer_evenings.sort();
    assert_eq!(summer_evenings.len(), 10, "{}", evs.text);

    let r = app
        .create_competition(
            &leader,
            season,
            serde_json::json!({"name": "Keizer summer 2027", "kind": "keizer", "half": "summer"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let summer = r.body["id"].as_i64().unwrap();
    let rows = |comp: i64| {
        app.with_conn(move |c| {
            use clubcomp_core::test_store::schema::rounds;
            use diesel::prelude::*;
            rounds::table
                .filter(rounds::competition_id.eq(comp))
                .order(rounds::number)
                .select((
                    rounds::number,
                    rounds::date,
                    rounds::evening_id,
                    rounds::status,
                ))
                .load::<(i32, Option<chrono::NaiveDate>, Option<i64>, String)>(c)
                .unwrap()
        })
    };
    let got: Vec<(i32, String, i64, String)> = rows(summer)
        .await
        .into_iter()
        .map(|(n, d, e, s)| (n, d.unwrap().to_string(), e.unwrap(), s))
        .collect();
    let want: Vec<(i32, String, i64, String)> = summer_evenings
        .iter()
        .zip(1..)
        .map(|((d, e), n)| (n, d.clone(), *e, "planned".to_string()))
        .collect();
    assert_eq!(got, want);

    let comps = app.get(&paths::season_competitions(season), None).await;
    let winter = comps.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "keizer" && c["half"] == "winter")
        .and_then(|c| c["id"].as_i64())
        .unwrap();
    let numbers: Vec<i32> = rows(winter).await.into_iter().map(|r| r.0).collect();
    assert_eq!(numbers, (1..=10).collect::<Vec<i32>>());
}
