//! End to end: a whole Keizer season (2027-2028) through the HTTP API — calendar, ratings,
//! players, a winter and a summer half with sign-offs and sign-ups, generated pairings, results,
//! standings compared after every evening with the standings engine run on the same data
//! (`docs/formats/keizer-scenario.md`), pairing constraints, prizes and the playoffs.

use crate::support::*;
use actix_web::http::{Method, StatusCode};
use actix_web::test::TestRequest;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap, HashSet};

/// A PUT of a game result by `token`.
fn put_result(token: &str, game: i64, result: &str) -> TestRequest {
    TestRequest::default()
        .method(Method::PUT)
        .uri(&paths::result(game))
        .insert_header(("Authorization", format!("Bearer {token}")))
        .set_json(json!({ "result": result }))
}

/// A small deterministic generator (LCG) for the results.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// A score as 4 decimals, whether the engine serialized it as a number or a string.
fn score4(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{:.4}", s.parse::<f64>().unwrap()),
        Value::Number(n) => format!("{:.4}", n.as_f64().unwrap()),
        other => panic!("score {other}"),
    }
}

/// (rank, id, value, score) of the API's Keizer standings.
fn api_table(body: &Value) -> Vec<(u64, i64, i64, String)> {
    body["keizer"]["rows"]
        .as_array()
        .unwrap_or_else(|| panic!("no keizer rows: {body}"))
        .iter()
        .map(|r| {
            (
                r["rank"].as_u64().unwrap(),
                r["player_id"].as_i64().unwrap(),
                r["value"].as_i64().unwrap(),
                score4(&r["score"]),
            )
        })
        .collect()
}

/// (rank, id, value, score) of the engine's standings after one evening.
fn engine_table(ev: &Value) -> Vec<(u64, i64, i64, String)> {
    ev["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["rank"].as_u64().unwrap(),
                r["id"].as_str().unwrap().parse().unwrap(),
                r["value"].as_i64().unwrap(),
                score4(&r["score"]),
            )
        })
        .collect()
}

/// What one half leaves behind: the engine's output after the last evening.
struct HalfOutcome {
    last: Value,
}

/// Plays the 10 Keizer evenings of one half through the API and compares the standings with
/// the engine after every evening; checks the pairing constraints.
#[allow(clippy::too_many_arguments)]
async fn play_half(
    app: &TestApp,
    leader: &str,
    arbiter: &str,
    member: &str,
    cid: i64,
    evenings: &[i64],
    players: &[i64],
    scenario_players: Vec<Value>,
    excused_before: Value,
    seed: u64,
) -> HalfOutcome {
    let mut rng = Lcg(seed);
    let flex = players[11];
    let self_signer = players[3];
    let mut scenario_evenings: Vec<Value> = vec![];
    // pairing constraints: (pair) → evening index; byes per player
    let mut met: HashMap<(i64, i64), usize> = HashMap::new();
    let mut byes: HashMap<i64, u32> = HashMap::new();
    let mut last = Value::Null;
    assert_eq!(evenings.len(), 10, "ten Keizer evenings per half");
    for (k, &eid) in evenings.iter().enumerate() {
        let n = (k + 1) as i64;
        // the half took its rounds from the calendar: round n is on its n-th Keizer evening
        let r = app.get(&paths::round(cid, n), Some(leader)).await;
        assert_eq!(r.status, StatusCode::OK, "evening {n}: {}", r.text);
        assert_eq!(r.body["evening_id"], eid, "evening {n}: {}", r.text);
        assert_eq!(r.body["status"], "planned", "evening {n}: {}", r.text);
        // the leader signs a player off (by email) on even evenings
        if k % 2 == 0 {
            let p = players[(k * 5 + 1) % 11];
            let r = app
                .post(
                    &paths::attendance(cid),
                    Some(leader),
                    json!({"player_id": p, "action": "sign_off", "rounds": [n], "channel": "email"}),
                )
                .await;
            assert_eq!(r.status, StatusCode::OK, "evening {n}: {}", r.text);
            assert_eq!(r.body[0]["status"], "excused", "{}", r.text);
        }
        // a member linked to a player signs off himself twice
        if k == 1 || k == 6 {
            let r = app
                .post(
                    &paths::attendance_me(cid),
                    Some(member),
                    json!({"action": "sign_off", "rounds": [n]}),
                )
                .await;
            assert_eq!(r.status, StatusCode::OK, "evening {n}: {}", r.text);
            assert_eq!(r.body[0]["player_id"], self_signer);
            assert_eq!(r.body[0]["status"], "excused", "{}", r.text);
        }
        // the flexible player signs up for two evenings of every three
        if k % 3 != 2 {
            let r = app
                .post(
                    &paths::attendance(cid),
                    Some(leader),
                    json!({"player_id": flex, "action": "sign_up", "rounds": [n], "channel": "email"}),
                )
                .await;
            assert_eq!(r.status, StatusCode::OK, "evening {n}: {}", r.text);
        }
        let base = paths::round(cid, n);
        // the bye is drawn in public with a seed the leader announces (docs/rules/keizer.md#byes), which keeps
        // this test reproducible; the seed is stored with the candidates
        let bye_seed = seed * 100 + n as u64;
        let r = app
            .post(
                &format!("{base}/pairing?bye_seed={bye_seed}"),
                Some(leader),
                json!({}),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "evening {n}: {}", r.text);
        // docs/rules/keizer.md#pairing: the pairing order is the current ranking (the standings the public sees
        // after the previous evening), restricted to the players present
        if n > 1 {
            let order: Vec<i64> = r.body["pairing"]["order"]
                .as_array()
                .unwrap_or_else(|| panic!("evening {n}: no pairing order: {}", r.text))
                .iter()
                .map(|v| v.as_i64().unwrap())
                .collect();
            assert!(order.len() >= 9, "evening {n}: pairing order {order:?}");
            let st = app.get(&paths::standings_after(cid, n - 1), None).await;
            assert_eq!(st.status, StatusCode::OK, "{}", st.text);
            let ranked: Vec<i64> = api_table(&st.body)
                .iter()
                .map(|row| row.1)
                .filter(|id| order.contains(id))
                .collect();
            assert_eq!(
                order, ranked,
                "evening {n}: pairing order is not the ranking"
            );
        }
        if r.body["games"]
            .as_array()
            .is_some_and(|g| g.iter().any(|g| g["black"].is_null()))
        {
            assert_eq!(r.body["pairing"]["bye"]["seed_text"], bye_seed.to_string());
            assert_eq!(r.body["pairing"]["bye_seed_source"], "leader");
        }
        let r = app
            .post(&format!("{base}/publish"), Some(leader), json!({}))
            .await;
        assert_eq!(r.status, StatusCode::OK, "evening {n}: {}", r.text);
        let round = app.get(&base, Some(leader)).await;
        assert_eq!(round.status, StatusCode::OK, "{}", round.text);
        let games = round.body["games"].as_array().unwrap().clone();
        let mut seen: HashSet<i64> = HashSet::new();
        let mut bye_now: Vec<i64> = vec![];
        for g in &games {
            let w = g["white"]["id"].as_i64().unwrap();
            assert!(seen.insert(w), "evening {n}: {w} twice");
            match g["black"]["id"].as_i64() {
                None => {
                    assert_eq!(g["result"], "bye", "{g}");
                    bye_now.push(w);
                }
                Some(b) => {
                    assert!(seen.insert(b), "evening {n}: {b} twice");
                    let key = (w.min(b), w.max(b));
                    if let Some(&earlier) = met.get(&key) {
                        assert!(
                            k - earlier > 5,
                            "pairing constraint: {w}–{b} repeated within 5 evenings ({} and {n})",
                            earlier + 1
                        );
                        panic!(
                            "pairing constraint: {w}–{b} meet twice in one half ({} and {n})",
                            earlier + 1
                        );
                    }
                    met.insert(key, k);
                    let code = ["1-0", "0-1", "1/2-1/2"][(rng.next() % 3) as usize];
                    let res = app
                        .send(put_result(arbiter, g["id"].as_i64().unwrap(), code))
                        .await;
                    assert_eq!(res.status, StatusCode::OK, "evening {n}: {}", res.text);
                }
            }
        }
        assert!(bye_now.len() <= 1, "evening {n}: more than one bye");
        if seen.len() % 2 == 1 {
            assert_eq!(bye_now.len(), 1, "evening {n}: odd field without a bye");
        }
        for &b in &bye_now {
            if byes.get(&b).copied().unwrap_or(0) >= 1 {
                let others: Vec<i64> = seen
                    .iter()
                    .copied()
                    .filter(|p| *p != b && byes.get(p).copied().unwrap_or(0) == 0)
                    .collect();
                assert!(
                    others.is_empty(),
                    "pairing constraint: evening {n}: {b} gets a second bye while {others:?} had none"
                );
            }
            *byes.entry(b).or_default() += 1;
        }
        let r = app
            .post(&format!("{base}/complete"), Some(leader), json!({}))
            .await;
        assert_eq!(r.status, StatusCode::OK, "evening {n}: {}", r.text);

        // the scenario evening from what the API returns
        let round = app.get(&base, Some(leader)).await;
        assert_eq!(round.body["status"], "completed");
        let mut sgames = vec![];
        let mut sbyes = vec![];
        let mut present: HashSet<i64> = HashSet::new();
        for g in round.body["games"].as_array().unwrap() {
            let w = g["white"]["id"].as_i64().unwrap();
            present.insert(w);
            match g["black"]["id"].as_i64() {
                None => sbyes.push(json!(w.to_string())),
                Some(b) => {
                    present.insert(b);
                    sgames.push(json!({"white": w.to_string(), "black": b.to_string(),
                                       "result": g["result"].as_str().unwrap()}));
                }
            }
        }
        let att = app.get(&format!("{base}/attendance"), Some(leader)).await;
        assert_eq!(att.status, StatusCode::OK, "{}", att.text);
        let mut excused = vec![];
        let mut unexcused = vec![];
        for p in att.body["players"].as_array().unwrap() {
            let id = p["player_id"].as_i64().unwrap();
            if present.contains(&id) {
                continue;
            }
            if p["status"] == "excused" {
                excused.push(json!(id.to_string()));
            } else {
                unexcused.push(json!(id.to_string()));
            }
        }
        scenario_evenings.push(json!({"games": sgames, "byes": sbyes,
                                      "excused": excused, "unexcused": unexcused}));
        let scenario = json!({"players": scenario_players, "excused_before": excused_before,
                              "evenings": scenario_evenings});
        let out = clubcomp_engine::keizer::run_scenario(&scenario)
            .unwrap_or_else(|e| panic!("evening {n}: scenario rejected: {e}\n{scenario}"));
        let out = serde_json::to_value(&out).unwrap();
        last = out["evenings"][k].clone();
        let st = app.standings(cid).await;
        assert_eq!(st.status, StatusCode::OK, "{}", st.text);
        assert_eq!(st.body["rounds_counted"], n, "{}", st.text);
        assert_eq!(
            api_table(&st.body),
            engine_table(&last),
            "evening {n}: API standings differ from the engine on the same data\n{scenario}"
        );
    }
    HalfOutcome { last }
}

#[actix_web::test]
async fn a_whole_keizer_season_through_the_api() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let admin = app.token(&["admin"]).await;

    // the season and its calendar (Friday 3 September 2027; made-up KNSB Saturdays)
    let r = app
        .create_season(
            &leader,
            json!({"name": "2027-2028", "opening_date": "2027-09-03"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let season = r.body["id"].as_i64().unwrap();
    let r = app
        .generate_calendar(
            &leader,
            season,
            json!({"knsb_round_dates": ["2027-09-25", "2027-10-16", "2027-11-06", "2027-11-27",
                                        "2027-12-18", "2028-01-29", "2028-02-19", "2028-03-11",
                                        "2028-04-08"],
                   "closed_dates": ["2027-12-24"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let evs = r.body.as_array().unwrap().clone();
    let keizer = |half: &str| -> Vec<i64> {
        evs.iter()
            .filter(|e| e["kind"] == "keizer" && e["half"] == half)
            .map(|e| e["id"].as_i64().unwrap())
            .collect()
    };
    let (winter_evs, summer_evs) = (keizer("winter"), keizer("summer"));
    assert_eq!(winter_evs.len(), 10);
    assert_eq!(summer_evs.len(), 10);
    assert!(
        evs.iter()
            .any(|e| e["date"] == "2027-12-24" && e["kind"] == "closed")
    );

    // 12 players (the last flexible) with KNSB ratings
    let mut players = vec![];
    let mut ratings = vec![];
    let mut rating_of = BTreeMap::new();
    for i in 0..12 {
        let membership = if i == 11 { "flexible" } else { "fixed" };
        let knsb = format!("84000{i:02}");
        let p = app
            .create_player(&leader, json!({"name": format!("Player {i:02}"), "knsb_number": knsb, "membership": membership}))
            .await;
        assert_eq!(p.status, StatusCode::CREATED, "{}", p.text);
        let id = p.body["id"].as_i64().unwrap();
        // distinct ratings, not in the order of entry
        let value = 1500 + ((i * 7) % 12) * 37;
        ratings.push(json!({"knsb_number": knsb, "value": value}));
        rating_of.insert(id, value);
        players.push(id);
    }
    let r = app
        .push_ratings(
            &admin,
            json!({"source": "KNSB", "list_date": "2027-08-01", "ratings": ratings}),
        )
        .await;
    assert!(r.status.is_success(), "{}", r.text);

    // the two halves, everybody entered in both
    let entrants =
        json!({"entrants": players.iter().map(|i| json!({"player_id": i})).collect::<Vec<_>>()});
    let r = app
        .create_competition(
            &leader,
            season,
            json!({"name": "Keizer winter", "kind": "keizer", "half": "winter"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let winter = r.body["id"].as_i64().unwrap();
    let r = app
        .create_competition(&leader, season, json!({"name": "Keizer summer", "kind": "keizer", "half": "summer", "seeded_from": winter}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let summer = r.body["id"].as_i64().unwrap();
    for cid in [winter, summer] {
        let r = app.add_entrants(&leader, cid, entrants.clone()).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let member = app.member_token(players[3]).await;

    // winter: seed order by rating (all distinct), highest first
    let mut by_rating = players.clone();
    by_rating.sort_by_key(|p| std::cmp::Reverse(rating_of[p]));
    let sp = |order: &[i64]| -> Vec<Value> {
        order
            .iter()
            .map(|p| json!({"id": p.to_string(), "name": format!("p{p}"), "rating": rating_of[p]}))
            .collect()
    };
    let w = play_half(
        &app,
        &leader,
        &arbiter,
        &member,
        winter,
        &winter_evs,
        &players,
        sp(&by_rating),
        json!({}),
        2027,
    )
    .await;
    // summer: seeded in the winter's final order, winter excused absences carried
    let winter_order: Vec<i64> = w.last["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().parse().unwrap())
        .collect();
    let mut carried = serde_json::Map::new();
    for r in w.last["standings"].as_array().unwrap() {
        let e = r["excused"].as_u64().unwrap();
        if e > 0 {
            carried.insert(r["id"].as_str().unwrap().to_string(), json!(e));
        }
    }
    let s = play_half(
        &app,
        &leader,
        &arbiter,
        &member,
        summer,
        &summer_evs,
        &players,
        sp(&winter_order),
        Value::Object(carried),
        2028,
    )
    .await;
    let _ = s.last;

    // prizes: the champion is the top eligible player of the final standings
    for (cid, prize) in [(winter, "winter_champion"), (summer, "summer_champion")] {
        let st = app.standings(cid).await;
        let top = st.body["keizer"]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["eligible"] == true)
            .map(|r| r["player_id"].as_i64().unwrap())
            .expect("an eligible player");
        let r = app.get(&paths::prizes(cid), None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let first = &r.body["keizer"]["awards"][0];
        assert_eq!(first["prize"], prize, "{}", r.text);
        assert_eq!(first["player_id"], top, "{}", r.text);
    }
    let r = app
        .post(&paths::finalize_prizes(winter), Some(&leader), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["finalized"], true);

    // playoffs: play the next games until every group has a winner
    let r = app
        .post(&paths::season_playoffs(season), Some(&leader), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let ko = r.body["competition_id"].as_i64().unwrap();
    assert!(!r.body["groups"].as_array().unwrap().is_empty());
    let url = paths::playoffs(ko);
    let mut rng = Lcg(7);
    let mut v = app.get(&url, None).await;
    for _ in 0..40 {
        assert_eq!(v.status, StatusCode::OK, "{}", v.text);
        let groups = v.body["groups"].as_array().unwrap().clone();
        if groups.iter().all(|g| !g["winner"].is_null()) {
            break;
        }
        let mut played = 0;
        for g in &groups {
            for next in g["next"].as_array().unwrap() {
                let m = g["matches"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|m| m["id"] == next["match"])
                    .unwrap_or_else(|| panic!("next {next} names no match: {g}"));
                let game = m["games"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|x| x["game"] == next["game"])
                    .unwrap_or_else(|| panic!("next {next} names no game: {m}"));
                let code = ["1-0", "0-1", "1/2-1/2"][(rng.next() % 3) as usize];
                let res = app
                    .send(put_result(
                        &arbiter,
                        game["game_id"].as_i64().expect("a game id"),
                        code,
                    ))
                    .await;
                assert_eq!(res.status, StatusCode::OK, "{next}: {}", res.text);
                played += 1;
            }
        }
        assert!(
            played > 0,
            "no group winner and nothing to play: {}",
            v.text
        );
        v = app.get(&url, None).await;
    }
    let groups = v.body["groups"].as_array().unwrap();
    assert!(
        groups.iter().all(|g| !g["winner"].is_null()),
        "every group has a winner: {}",
        v.text
    );
    assert!(groups.iter().all(|g| g["next"] == json!([])));
    assert_eq!(
        v.body["club_champion"]["id"], groups[0]["winner"]["id"],
        "the top group's winner is the club champion: {}",
        v.text
    );
}
