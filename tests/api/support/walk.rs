//! The public GETs of the demo club: every GET path of the OpenAPI document that needs no
//! token, with the ids of every object of the demo club filled in (and a blitz check-in, a
//! finalized prize list and a published pairing added first, so that their answers are
//! among them). The privacy and the document tests walk them.

use super::*;
use actix_web::http::StatusCode;
use serde_json::Value;

/// The ids in a list answer (an array, or a page with `items`).
pub fn ids_in(v: &Value, field: &str) -> Vec<i64> {
    let list = v
        .as_array()
        .or_else(|| v["items"].as_array())
        .cloned()
        .unwrap_or_default();
    list.iter().filter_map(|x| x[field].as_i64()).collect()
}

/// One public GET: the path of the document it comes from and the URL with ids filled in.
#[derive(Debug, Clone)]
pub struct PublicGet {
    /// The document's path, e.g. `/api/v1/competitions/{id}`.
    pub path: String,
    /// The URL requested.
    pub url: String,
}

/// Seeds the demo club into `app` and lists its public GETs (more than 200).
pub async fn demo_club_public_gets(app: &TestApp) -> Vec<PublicGet> {
    app.with_conn(|c| seed_demo(c).map(|_| ())).await.unwrap();
    // a finalized prize list, so that its finalizer is in a public answer
    let leader = app.token(&["leader"]).await;
    let seasons = app.get(paths::SEASONS, None).await.body;
    // a blitz championship with two members (who have e-mail addresses) and a guest checked
    // in, so that its check-in list is among the public answers
    let first_season = ids_in(&seasons, "id")[0];
    let blitz = CompetitionBuilder::blitz("2099-06-19")
        .set("name", "Snelschaakkampioenschap")
        .in_season(first_season)
        .create(app, &leader)
        .await
        .comp;
    let some = app
        .get(&format!("{}?page=1&per_page=2", paths::PLAYERS), None)
        .await;
    for p in ids_in(&some.body, "id") {
        let r = app
            .check_in(&leader, blitz, serde_json::json!({"player_id": p}))
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    }
    let r = app
        .check_in(
            &leader,
            blitz,
            serde_json::json!({"name": "Gast", "rating": 1500}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let mut competitions = Vec::new();
    for s in ids_in(&seasons, "id") {
        let list = app.get(&paths::season_competitions(s), None).await.body;
        competitions.extend(ids_in(&list, "id"));
    }
    assert!(competitions.len() >= 3, "{competitions:?}");
    finish_round_robin(app, &leader, &competitions).await;
    let mut finalized = 0;
    for c in &competitions {
        let r = app
            .post(
                &paths::finalize_prizes(c),
                Some(&leader),
                serde_json::json!({}),
            )
            .await;
        if r.status.is_success() {
            finalized += 1;
        }
    }
    assert!(finalized >= 1, "no prize list could be finalized");
    // the Keizer evening in play finished and the next one paired and published by the
    // leader, so that the pairing's author is in a public answer
    let keizer = competitions[0];
    let rounds = app.get(&paths::rounds(keizer), None).await.body;
    let open = rounds
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["status"] == "published")
        .and_then(|r| r["number"].as_i64())
        .expect("the demo's Keizer has an evening in play");
    let round = app.get(&paths::round(keizer, open), None).await.body;
    let arbiter = app.token(&["arbiter"]).await;
    for g in round["games"].as_array().unwrap() {
        if g["black"].is_null() || !g["result"].is_null() {
            continue;
        }
        let r = app
            .enter_result(&arbiter, &g["id"], serde_json::json!({"result": "1-0"}))
            .await;
        assert!(r.status.is_success(), "{}", r.text);
    }
    let r = app.complete_round(&leader, keizer, open).await;
    assert!(r.status.is_success(), "complete: {}", r.text);
    let next = open + 1;
    let r = app
        .generate_pairing(&leader, keizer, next, serde_json::json!({}))
        .await;
    assert!(r.status.is_success(), "pairing: {}", r.text);
    let r = app.publish_round(&leader, keizer, next).await;
    assert!(r.status.is_success(), "publish: {}", r.text);
    let staff = app.get(&paths::round(keizer, next), Some(&leader)).await;
    assert!(staff.text.contains("\"generated_by\""), "{}", staff.text);

    // every public GET path of the document, with the demo's ids filled in
    let spec = app.get("/api-docs/openapi.json", None).await.body;
    let mut players = Vec::new();
    let mut page = 1;
    loop {
        let r = app
            .get(
                &format!("{}?page={page}&per_page=100", paths::PLAYERS),
                None,
            )
            .await;
        let got = ids_in(&r.body, "id");
        if got.is_empty() {
            break;
        }
        players.extend(got);
        page += 1;
    }
    assert!(players.len() >= 60, "{}", players.len());
    let mut urls = Vec::new();
    for (path, ops) in spec["paths"].as_object().unwrap() {
        let Some(get) = ops.get("get") else { continue };
        let public = match get.get("security").or(spec.get("security")) {
            None => true,
            Some(s) => s
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r.as_object().unwrap().is_empty()),
        };
        if !public {
            continue;
        }
        if path == "/api/v1/stream" {
            // the whole log replayed, until the stream's time is up
            urls.push(PublicGet {
                path: path.clone(),
                url: format!("{path}?after=0"),
            });
        } else if path.starts_with("/api/v1/competitions/{id}/rounds/{number}") {
            for c in &competitions {
                let rounds = app.get(&paths::rounds(c), None).await.body;
                for n in ids_in(&rounds, "number") {
                    urls.push(PublicGet {
                        path: path.clone(),
                        url: path
                            .replace("{id}", &c.to_string())
                            .replace("{number}", &n.to_string()),
                    });
                }
            }
        } else if path.starts_with("/api/v1/competitions/{id}") {
            for c in &competitions {
                urls.push(PublicGet {
                    path: path.clone(),
                    url: path.replace("{id}", &c.to_string()),
                });
            }
        } else if path.starts_with("/api/v1/evenings/{id}") {
            let mut page = 1;
            loop {
                let r = app
                    .get(
                        &format!("{}?page={page}&per_page=200", paths::EVENINGS),
                        None,
                    )
                    .await;
                let got = ids_in(&r.body, "id");
                if got.is_empty() {
                    break;
                }
                for e in got {
                    urls.push(PublicGet {
                        path: path.clone(),
                        url: path.replace("{id}", &e.to_string()),
                    });
                }
                page += 1;
            }
        } else if path.starts_with("/api/v1/seasons/{id}") {
            for s in ids_in(&seasons, "id") {
                urls.push(PublicGet {
                    path: path.clone(),
                    url: path.replace("{id}", &s.to_string()),
                });
            }
        } else if path.starts_with("/api/v1/players/{id}") {
            // the rating on a date needs its source and date
            let query = if path.ends_with("/rating") {
                "?source=KNSB&date=2026-12-01"
            } else {
                ""
            };
            for p in &players {
                urls.push(PublicGet {
                    path: path.clone(),
                    url: format!("{}{query}", path.replace("{id}", &p.to_string())),
                });
            }
        } else {
            assert!(
                !path.contains('{'),
                "a public path this test does not fill in: {path}"
            );
            urls.push(PublicGet {
                path: path.clone(),
                url: path.clone(),
            });
        }
    }
    assert!(urls.len() > 200, "{}", urls.len());
    urls
}

/// Plays the demo's draughts round robin to its end (the rounds from the one in play on,
/// every game drawn), so that its prize list can be finalized.
async fn finish_round_robin(app: &TestApp, leader: &str, competitions: &[i64]) {
    let arbiter = app.token(&["arbiter"]).await;
    for &c in competitions {
        if app.get(&paths::competition(c), None).await.body["kind"] != "round_robin" {
            continue;
        }
        let rounds = app.get(&paths::rounds(c), None).await.body;
        for r in rounds.as_array().unwrap() {
            let n = r["number"].as_i64().unwrap();
            if r["status"] == "completed" {
                continue;
            }
            if r["status"] == "planned" {
                let p = app
                    .generate_pairing(leader, c, n, serde_json::json!({}))
                    .await;
                assert!(p.status.is_success(), "pairing {n}: {}", p.text);
                let p = app.publish_round(leader, c, n).await;
                assert!(p.status.is_success(), "publish {n}: {}", p.text);
            }
            let round = app.get(&paths::round(c, n), None).await.body;
            for g in round["games"].as_array().unwrap() {
                if g["result"].is_null() {
                    let e = app
                        .enter_result(&arbiter, &g["id"], serde_json::json!({"result": "1-1"}))
                        .await;
                    assert!(e.status.is_success(), "{}", e.text);
                }
            }
            let done = app.complete_round(leader, c, n).await;
            assert!(done.status.is_success(), "complete {n}: {}", done.text);
        }
    }
}
