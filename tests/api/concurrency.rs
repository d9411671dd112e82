//! Concurrent writers lose nothing and never see a 5xx (SQLite queues writers on its busy
//! timeout; Postgres runs them in parallel).

use crate::support::*;
use actix_web::http::{Method, StatusCode};
use futures_util::future::join_all;
use serde_json::json;

#[actix_web::test]
async fn concurrent_player_creation_loses_nothing() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let before = app.counts().await[1];
    let reqs = (0..24).map(|i| {
        app.create_player(
            &leader,
            json!({"name": format!("Player {i}"), "knsb_number": format!("77{i:04}")}),
        )
    });
    let results = join_all(reqs).await;
    for r in &results {
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    }
    assert_eq!(app.counts().await[1], before + 24);
}

#[actix_web::test]
async fn same_rating_list_pushed_concurrently_is_idempotent() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let sync = app.token(&["rating_sync"]).await;
    let mut rows = vec![];
    for i in 0..20 {
        app.create_player(
            &leader,
            json!({"name": format!("P{i}"), "knsb_number": format!("66{i:04}")}),
        )
        .await;
        rows.push(json!({"knsb_number": format!("66{i:04}"), "value": 1500 + i}));
    }
    let list = json!({"source": "KNSB", "list_date": "2026-09-01", "ratings": rows});
    let results = join_all((0..6).map(|_| app.push_ratings(&sync, list.clone()))).await;
    let mut inserted = 0;
    for r in &results {
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        inserted += r.body["inserted"].as_i64().unwrap();
        assert_eq!(
            r.body["inserted"].as_i64().unwrap() + r.body["unchanged"].as_i64().unwrap(),
            20
        );
    }
    assert_eq!(
        inserted, 20,
        "each rating inserted exactly once over all pushes"
    );
    assert_eq!(app.counts().await[2], 20);
}

/// Results entered at once on different games of one round: every one is stored and audited.
#[actix_web::test]
async fn concurrent_results_on_different_games_lose_nothing() {
    let app = spawn().await;
    let names = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"];
    let (leader, arbiter, fx) = keizer_winter(&app, &names).await;
    let p = &fx.players;
    let boards = (0..5)
        .map(|i| (p[2 * i], Some(p[2 * i + 1]), None))
        .collect();
    let games = round(&app, &leader, fx.comp, boards, "published").await;
    let codes = ["1-0", "0-1", "1/2-1/2", "1-0", "0-1"];
    let urls: Vec<String> = games.iter().map(paths::result).collect();
    let writes = urls.iter().zip(codes).map(|(url, code)| {
        app.req(
            Method::PUT,
            url,
            Some(&arbiter),
            Some(json!({"result": code})),
        )
    });
    for r in join_all(writes).await {
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let round = app.get(&paths::round(fx.comp, 1), Some(&leader)).await;
    let stored: Vec<String> = round.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["result"].as_str().unwrap_or("missing").to_string())
        .collect();
    assert_eq!(stored.len(), 5);
    for (s, code) in stored.iter().zip(codes) {
        // draws may be stored in either spelling of docs/rules/README.md#results
        assert!(
            s == code || (code == "1/2-1/2" && s == "½-½"),
            "stored {s}, entered {code}"
        );
    }
    let audit = app
        .get(&paths::competition_audit(fx.comp), Some(&leader))
        .await;
    assert_eq!(audit.status, StatusCode::OK, "{}", audit.text);
    // exactly one `result_entered` entry per game, with the result entered
    let entries: Vec<&serde_json::Value> = audit.body["items"]
        .as_array()
        .expect("audit list")
        .iter()
        .filter(|e| e["entity"] == "game" && e["action"] == "result_entered")
        .collect();
    assert_eq!(
        entries.len(),
        5,
        "every result audited once: {}",
        audit.text
    );
    for (g, s) in games.iter().zip(&stored) {
        let e: Vec<_> = entries.iter().filter(|e| e["entity_id"] == *g).collect();
        assert_eq!(e.len(), 1, "game {g}: {}", audit.text);
        assert_eq!(e[0]["new_value"]["result"], s.as_str(), "game {g}");
    }
}

#[actix_web::test]
async fn concurrent_results_on_one_game_queue_and_if_match_lets_one_through() {
    let app = spawn().await;
    let (leader, arbiter, url) = one_game_in_play(&app).await;
    // without If-Match: every write is applied, one after the other, each audited
    let codes = ["1-0", "0-1", "1-0", "0-1", "1-0", "0-1"];
    let writes = codes.iter().map(|code| {
        app.req(
            Method::PUT,
            &url,
            Some(&arbiter),
            Some(json!({"result": code})),
        )
    });
    let mut versions = Vec::new();
    for r in join_all(writes).await {
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        versions.push(r.body["game"]["version"].as_i64().unwrap());
    }
    versions.sort();
    assert_eq!(
        versions,
        (2..=7).collect::<Vec<i64>>(),
        "each write saw the one before"
    );
    let audit = app
        .get(&url.replace("/result", "/audit"), Some(&leader))
        .await;
    assert_eq!(audit.status, StatusCode::OK, "{}", audit.text);
    let actions: Vec<&str> = audit.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["action"].as_str())
        .filter(|a| a.starts_with("result_"))
        .collect();
    // the first is the entry, every later one a correction of the one before
    let mut want = vec!["result_corrected"; codes.len()];
    want[0] = "result_entered";
    assert_eq!(actions, want, "{}", audit.text);
    // with the same If-Match: exactly one write goes through, the others get 412
    let game = url.trim_end_matches("/result").rsplit('/').next().unwrap();
    let tag = format!("\"game-{game}-v7\"");
    let writes = ["1/2-1/2", "1-0", "0-1", "1/2-1/2"].map(|code| {
        app.send(
            actix_web::test::TestRequest::put()
                .uri(&url)
                .insert_header(("Authorization", format!("Bearer {arbiter}")))
                .insert_header(("If-Match", tag.as_str()))
                .set_json(json!({"result": code})),
        )
    });
    let statuses: Vec<StatusCode> = join_all(writes).await.iter().map(|r| r.status).collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == StatusCode::OK).count(),
        1,
        "{statuses:?}"
    );
    assert!(
        statuses
            .iter()
            .all(|s| *s == StatusCode::OK || *s == StatusCode::PRECONDITION_FAILED),
        "{statuses:?}"
    );
}

/// SQLite: this process's write transactions queue for their turn (first come, first
/// served) instead of retrying on SQLite's busy timeout, whose growing sleeps made some of
/// many concurrent writers wait for hundreds of milliseconds (benches/load.sh). A write
/// started while another holds the turn waits for it, and is then applied.
#[actix_web::test]
async fn a_sqlite_write_waits_for_its_turn_in_the_write_queue() {
    use futures_util::future::{Either, select};
    let app = spawn().await;
    let Some(queue) = app.state.write_queue.clone() else {
        assert!(
            app._db.url.starts_with("postgres"),
            "only Postgres has none"
        );
        return;
    };
    let (leader, arbiter, url) = one_game_in_play(&app).await;
    let turn = queue.lock().await; // another write holds the turn
    let write = Box::pin(app.req(
        Method::PUT,
        &url,
        Some(&arbiter),
        Some(json!({"result": "1-0"})),
    ));
    let pause = Box::pin(actix_web::rt::time::sleep(
        std::time::Duration::from_millis(300),
    ));
    let write = match select(write, pause).await {
        Either::Left((r, _)) => panic!("written without its turn: {} {}", r.status, r.text),
        Either::Right((_, write)) => write,
    };
    let audit = app
        .get(&url.replace("/result", "/audit"), Some(&leader))
        .await;
    assert_eq!(audit.status, StatusCode::OK, "{}", audit.text);
    assert_eq!(audit.body["items"], json!([]), "nothing written yet");
    assert_eq!(audit.body["total"], 0, "nothing written yet");
    drop(turn);
    let r = write.await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["game"]["result"], "1-0", "{}", r.text);
}

/// Rounds created at once without a number each get the next one (none fails on a number
/// another took meanwhile), and players entered at once each get a seed of their own.
#[actix_web::test]
async fn concurrent_round_creation_and_entries_number_in_turn() {
    let app = spawn().await;
    let (leader, _, fx) = keizer_winter(&app, &["A"]).await;
    let rounds = paths::rounds(fx.comp);
    let created = join_all((0..6).map(|_| app.post(&rounds, Some(&leader), json!({})))).await;
    let mut numbers = Vec::new();
    for r in &created {
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        numbers.push(r.body["number"].as_i64().unwrap());
    }
    numbers.sort();
    assert_eq!(numbers, (1..=6).collect::<Vec<i64>>());

    let mut players = Vec::new();
    for i in 0..10 {
        let p = app
            .create_player(&leader, json!({"name": format!("Late {i}")}))
            .await;
        assert_eq!(p.status, StatusCode::CREATED, "{}", p.text);
        players.push(p.body["id"].as_i64().unwrap());
    }
    let entrants = paths::entrants(fx.comp);
    let entered = join_all(players.iter().map(|p| {
        app.post(
            &entrants,
            Some(&leader),
            json!({"entrants": [{"player_id": p}]}),
        )
    }))
    .await;
    for r in &entered {
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let list = app.get(&entrants, None).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    let rows = list.body.as_array().unwrap();
    assert_eq!(rows.len(), 11, "{}", list.text);
    let mut seeds: Vec<i64> = rows.iter().map(|e| e["seed"].as_i64().unwrap()).collect();
    seeds.sort();
    assert_eq!(seeds, (1..=11).collect::<Vec<i64>>());
    // and the stored seeds (the list numbers its rows) are distinct too
    let comp = fx.comp;
    let stored: std::collections::BTreeSet<i64> = app
        .state
        .db(move |c| {
            use clubcomp_core::test_store::schema::entrants as en;
            use diesel::prelude::*;
            Ok(en::table
                .filter(en::competition_id.eq(comp))
                .select(en::seed)
                .load::<i32>(c)?)
        })
        .await
        .unwrap()
        .into_iter()
        .map(i64::from)
        .collect();
    assert_eq!(stored.len(), 11, "{stored:?}");
}

/// A season's calendar generated several times at once: without `replace` one is stored and
/// the others get the 409 that says so; with `replace` each replaces the one before. None
/// fails on the evenings' unique dates.
#[actix_web::test]
async fn concurrent_calendar_generation_queues() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let season = SeasonBuilder::new().create(&app, &leader).await;
    let url = paths::calendar(season);
    let first = join_all((0..4).map(|_| app.post(&url, Some(&leader), json!({})))).await;
    let mut codes: Vec<u16> = first.iter().map(|r| r.status.as_u16()).collect();
    codes.sort();
    assert_eq!(codes, [201, 409, 409, 409]);
    for r in first.iter().filter(|r| r.status == StatusCode::CONFLICT) {
        assert!(r.text.contains("send replace: true"), "{}", r.text);
    }
    let evenings = first
        .iter()
        .find(|r| r.status == StatusCode::CREATED)
        .map(|r| r.body.as_array().unwrap().len())
        .unwrap();
    let again =
        join_all((0..4).map(|_| app.post(&url, Some(&leader), json!({"replace": true})))).await;
    for r in &again {
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        assert_eq!(r.body.as_array().unwrap().len(), evenings);
    }
    let list = app
        .get(
            &format!("{}?per_page=200", paths::evenings(season)),
            Some(&leader),
        )
        .await;
    assert_eq!(
        list.body["items"].as_array().unwrap().len(),
        evenings,
        "{}",
        list.text
    );
}

/// Both semi-finals of a playoff group decided at once: the final is due after the later of
/// the two writes, whichever that is (each write reads the other's result once it committed).
#[actix_web::test]
async fn playoff_semi_finals_decided_at_once_make_the_final() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let (season, four, summer) = summer_of_four(&app, &leader).await;
    let r = playoffs_of_four(&app, &leader, season, four, summer).await;
    let comp = r.body["competition_id"].as_i64().unwrap();
    let semis = &r.body["groups"][0]["matches"];
    let urls: Vec<String> = (0..2)
        .map(|m| {
            let g = semis[m]["games"][0]["game_id"].as_i64().unwrap();
            paths::result(g)
        })
        .collect();
    let writes = urls.iter().map(|url| {
        app.req(
            Method::PUT,
            url,
            Some(&arbiter),
            Some(json!({"result": "1-0"})),
        )
    });
    for r in join_all(writes).await {
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let v = app.get(&paths::playoffs(comp), None).await;
    let g = &v.body["groups"][0];
    assert_eq!(
        g["next"],
        json!([{"match": "final", "game": 1}]),
        "{}",
        v.text
    );
    assert!(
        g["matches"][2]["games"][0]["game_id"].is_i64(),
        "the final is stored: {}",
        v.text
    );
}

/// A Keizer winter half of A and B with one published game: `(leader, arbiter, the game's
/// result URL)`.
async fn one_game_in_play(app: &TestApp) -> (String, String, String) {
    let (leader, arbiter, fx) = keizer_winter(app, &["A", "B"]).await;
    let games = round(
        app,
        &leader,
        fx.comp,
        vec![(fx.players[0], Some(fx.players[1]), None)],
        "published",
    )
    .await;
    let url = paths::result(games[0]);
    (leader, arbiter, url)
}

/// A result entered while another connection completes the round: once the completion has
/// committed, the write is a correction and needs a reason (docs/rules/arbiter.md#results-and-corrections), so it is refused, never
/// stored without one — 409 on Postgres (the write read the round before the completion
/// committed, and checks again once it holds the competition's stamp), 422 on SQLite (the
/// write waits for the database's write lock and then reads the completed round).
#[actix_web::test]
async fn a_result_entered_while_the_round_is_completed_needs_a_reason() {
    use clubcomp_core::test_store::schema::{cache_stamps, games, rounds};
    use diesel::prelude::*;
    use futures_util::future::{Either, select};
    let app = spawn().await;
    let (_, arbiter, url) = one_game_in_play(&app).await;
    let put = |result: &str| {
        app.req(
            Method::PUT,
            &url,
            Some(&arbiter),
            Some(json!({"result": result})),
        )
    };
    assert_eq!(put("1-0").await.status, StatusCode::OK);
    let game: i64 = url.split('/').nth(4).unwrap().parse().unwrap();
    // the completion, as `complete` writes it, held open until told to commit
    let target = clubcomp_core::test_store::DbTarget::parse(&app._db.url).unwrap();
    let (held_tx, held) = std::sync::mpsc::channel();
    let (commit, commit_rx) = std::sync::mpsc::channel::<()>();
    let completer = std::thread::spawn(move || {
        let mut c = target.connect().unwrap();
        c.transaction::<_, diesel::result::Error, _>(|c| {
            let (round, comp): (i64, i64) = games::table
                .inner_join(rounds::table)
                .filter(games::id.eq(game))
                .select((rounds::id, rounds::competition_id))
                .first(c)?;
            diesel::update(rounds::table.find(round))
                .set(rounds::status.eq("completed"))
                .execute(c)?;
            diesel::update(cache_stamps::table.find(format!("competition:{comp}")))
                .set(cache_stamps::stamp.eq(cache_stamps::stamp + 1))
                .execute(c)?;
            held_tx.send(()).unwrap();
            commit_rx.recv().unwrap();
            Ok(())
        })
        .unwrap();
    });
    held.recv().unwrap();
    let write = Box::pin(put("0-1"));
    let pause = Box::pin(actix_web::rt::time::sleep(
        std::time::Duration::from_millis(300),
    ));
    let write = match select(write, pause).await {
        Either::Left((r, _)) => panic!("not held up by the completion: {} {}", r.status, r.text),
        Either::Right((_, write)) => write,
    };
    commit.send(()).unwrap();
    let r = write.await;
    completer.join().unwrap();
    let want = if app._db.url.starts_with("postgres") {
        StatusCode::CONFLICT
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    assert_eq!(r.status, want, "{}", r.text);
    assert!(r.text.contains("reason"), "{}", r.text);
}

/// A Keizer half and its season's calendar made at once, twice each: whichever comes first,
/// the half ends with one planned round on each of its ten evenings, numbered 1 to 10.
#[actix_web::test]
async fn a_half_and_its_calendar_made_at_once_get_each_round_once() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let season = SeasonBuilder::new()
        .opening_date("2036-09-06")
        .create(&app, &leader)
        .await;
    let body = json!({"name": "K", "kind": "keizer", "half": "winter"});
    let (comps, cals) = futures_util::join!(
        join_all((0..2).map(|_| app.create_competition(&leader, season, body.clone()))),
        join_all((0..2).map(|_| app.generate_calendar(&leader, season, json!({})))),
    );
    let mut codes: Vec<u16> = comps
        .iter()
        .chain(&cals)
        .map(|r| r.status.as_u16())
        .collect();
    codes.sort();
    assert_eq!(codes, [201, 201, 409, 409], "{comps:?} {cals:?}");
    let comp = comps
        .iter()
        .find(|r| r.status == StatusCode::CREATED)
        .unwrap()
        .body["id"]
        .as_i64()
        .unwrap();
    let rounds = app.get(&paths::rounds(comp), None).await.body;
    let rounds = rounds.as_array().unwrap();
    let numbers: Vec<i64> = rounds
        .iter()
        .map(|r| r["number"].as_i64().unwrap())
        .collect();
    assert_eq!(numbers, (1..=10).collect::<Vec<_>>());
    let mut evenings: Vec<i64> = rounds
        .iter()
        .map(|r| r["evening_id"].as_i64().unwrap())
        .collect();
    evenings.dedup();
    assert_eq!(evenings.len(), 10);
    let first = rounds[0]["date"].as_str().unwrap();
    assert_eq!(first, "2036-09-12");
}
