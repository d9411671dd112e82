//! Work limits and input checks of the calculators: every limit refused with a 422 naming it
//! before any engine runs, the inputs that once took the process down answered at once, and a
//! spent time budget or a full pool answered 503 with `Retry-After`.

use crate::support::*;
use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// One TRF-16 player line with `rounds` as (opponent, colour, result), opponent 0 for none.
fn player_line(id: u32, rounds: &[(u32, char, char)]) -> String {
    let mut s = format!(
        "001 {id:>4}      {:<33} {:>4} {:>3} {:>11} {:>10} {:>4} {:>4}",
        format!("Player {id}"),
        2000,
        "",
        "",
        "",
        "0.0",
        id
    );
    for (opp, col, res) in rounds {
        s.push_str(&format!("  {opp:>4} {col} {res}"));
    }
    s
}

/// A TRF of `n` players, none with a round played.
fn field(n: u32) -> String {
    let mut s = "012 Limits\nXXR 9\n".to_string();
    for id in 1..=n {
        s.push_str(&player_line(id, &[]));
        s.push('\n');
    }
    s
}

fn pair(body: impl Into<Vec<u8>>) -> TestRequest {
    TestRequest::post()
        .uri(&paths::calc("pair"))
        .insert_header(("Content-Type", "text/plain"))
        .set_payload(body.into())
}

/// Asserts a 422 whose detail names `needle`.
fn refused(r: &Resp, needle: &str) {
    r.assert_detail(StatusCode::UNPROCESSABLE_ENTITY, needle);
}

fn big_bodies(c: &mut clubcomp::config::Config) {
    c.max_body_bytes = 8 << 20;
}

#[actix_web::test]
async fn the_old_attacks_are_refused_at_once() {
    let app = spawn_with(big_bodies).await;
    // 20,000-player round robin (the n² cross table)
    let players: Vec<Value> = (0..20_000)
        .map(|i| json!({"id": format!("p{i}")}))
        .collect();
    let t = Instant::now();
    let r = app
        .calc(
            "round-robin",
            json!({"discipline": "chess", "players": players, "games": []}),
        )
        .await;
    refused(&r, "LIMIT_ROUND_ROBIN_PLAYERS");
    assert!(
        r.body["detail"].as_str().unwrap().contains("100"),
        "{}",
        r.text
    );
    assert_eq!(r.body["errors"][0]["field"], "players");
    // 9,999-player TRF pairing
    let r = app.send(pair(field(9_999))).await;
    refused(&r, "LIMIT_SWISS_PLAYERS");
    assert!(
        r.body["detail"].as_str().unwrap().contains("500"),
        "{}",
        r.text
    );
    // 2,000 present players in a Keizer pairing
    let ranking: Vec<Value> = (0..2_000)
        .map(|i| json!({"id": format!("p{i}"), "present": true}))
        .collect();
    let r = app
        .calc("keizer-pairing", json!({"evening": 1, "half": "winter", "bye_seed": 1, "ranking": ranking, "history": []}))
        .await;
    refused(&r, "LIMIT_KEIZER_PLAYERS");
    assert_eq!(r.body["errors"][0]["field"], "ranking");
    // generous bound: the refusals come before any engine work (seconds before the limits)
    assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());
    // and the service still answers
    let r = app.send(pair(field(4))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

#[actix_web::test]
async fn every_limit_is_named_and_configurable() {
    let app = spawn_with(|c| {
        c.limits.swiss_players = 6;
        c.limits.swiss_rounds = 2;
        c.limits.round_robin_players = 4;
        c.limits.round_robin_games = 3;
        c.limits.keizer_players = 4;
        c.limits.keizer_evenings = 2;
        c.limits.keizer_history = 2;
    })
    .await;
    let before = app.counts().await;
    // Swiss: players and rounds, for pairing and tie-breaks
    refused(&app.send(pair(field(7))).await, "LIMIT_SWISS_PLAYERS");
    assert_eq!(app.send(pair(field(6))).await.status, StatusCode::OK);
    let three_rounds = format!(
        "012 X\n{}\n{}\n",
        player_line(1, &[(2, 'w', '1'), (2, 'b', '1'), (2, 'w', '1')]),
        player_line(2, &[(1, 'b', '0'), (1, 'w', '0'), (1, 'b', '0')])
    );
    refused(
        &app.send(pair(three_rounds.clone())).await,
        "LIMIT_SWISS_ROUNDS",
    );
    let r = app.calc("tiebreaks", json!({"trf": three_rounds})).await;
    refused(&r, "LIMIT_SWISS_ROUNDS");
    let r = app.calc("tiebreaks", json!({"trf": field(7)})).await;
    refused(&r, "LIMIT_SWISS_PLAYERS");
    // round robin: players, games, lists of places
    let ids = |n: usize| -> Vec<Value> { (0..n).map(|i| json!({"id": format!("p{i}")})).collect() };
    let rr = |players: Vec<Value>, games: usize, money: usize| {
        let games: Vec<Value> = (0..games)
            .map(|_| json!({"round": 1, "white": "p0", "black": "p1"}))
            .collect();
        json!({"discipline": "chess", "players": players, "games": games,
               "prize_money": vec![1; money]})
    };
    let r = app.calc("round-robin", rr(ids(5), 0, 0)).await;
    refused(&r, "LIMIT_ROUND_ROBIN_PLAYERS");
    let r = app.calc("round-robin", rr(ids(4), 4, 0)).await;
    refused(&r, "LIMIT_ROUND_ROBIN_GAMES");
    assert_eq!(r.body["errors"][0]["field"], "games");
    let r = app.calc("round-robin", rr(ids(4), 0, 5)).await;
    assert_eq!(r.body["errors"][0]["field"], "prize_money", "{}", r.text);
    // Keizer scenario: players, evenings, a list longer than the field
    let kz = |players: usize, evenings: usize| {
        let players: Vec<Value> = (0..players)
            .map(|i| json!({"id": format!("p{i}"), "rating": 1500}))
            .collect();
        json!({"players": players, "evenings": vec![json!({"games": []}); evenings]})
    };
    refused(&app.calc("keizer", kz(5, 1)).await, "LIMIT_KEIZER_PLAYERS");
    refused(&app.calc("keizer", kz(2, 3)).await, "LIMIT_KEIZER_EVENINGS");
    let r = app
        .calc(
            "keizer",
            json!({"players": [{"id": "a"}, {"id": "b"}],
                   "evenings": [{"games": [], "byes": ["a", "b", "a"]}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "evenings[0].byes");
    assert_eq!(app.calc("keizer", kz(4, 2)).await.status, StatusCode::OK);
    // Keizer pairing: history
    let meeting = json!({"a": "p0", "b": "p1", "evening": 1, "half": "winter"});
    let r = app
        .calc(
            "keizer-pairing",
            json!({"evening": 2, "half": "winter", "bye_seed": 1,
                   "ranking": [{"id": "p0", "present": true}, {"id": "p1", "present": true}],
                   "history": vec![meeting; 3]}),
        )
        .await;
    refused(&r, "LIMIT_KEIZER_HISTORY");
    assert_eq!(r.body["errors"][0]["field"], "history");
    assert_eq!(app.counts().await, before, "a calculator stores nothing");
}

#[actix_web::test]
async fn a_pairing_file_whose_rounds_disagree_is_refused() {
    let app = spawn().await;
    // player 3 paired with himself in round 1
    let own = format!(
        "012 X\n{}\n{}\n{}\n{}\n",
        player_line(1, &[(2, 'w', '1')]),
        player_line(2, &[(1, 'b', '0')]),
        player_line(3, &[(3, 'w', '1')]),
        player_line(4, &[(0, '-', 'U')]),
    );
    let r = app.send(pair(own)).await;
    refused(&r, "player 3 is paired with himself in round 1");
    // players 1 and 3 both name player 2 in round 1: 2 is paired twice
    let twice = format!(
        "012 X\n{}\n{}\n{}\n{}\n",
        player_line(1, &[(2, 'w', '1')]),
        player_line(2, &[(1, 'b', '0')]),
        player_line(3, &[(2, 'w', '1')]),
        player_line(4, &[(0, '-', 'U')]),
    );
    let r = app.send(pair(twice.clone())).await;
    refused(&r, "round 1: player 3 is paired with player 2");
    assert!(
        r.text.contains("player 2's entry names player 1"),
        "{}",
        r.text
    );
    // the Double-Swiss reads the same file the same way
    let r = app
        .send(pair(twice).uri(&paths::calc_pair("double_swiss")))
        .await;
    refused(&r, "round 1: player 3 is paired with player 2");
}

#[actix_web::test]
async fn an_empty_or_binary_trf_is_refused() {
    let app = spawn().await;
    for (body, needle) in [
        (Vec::new(), "empty"),
        (b"  \n\n".to_vec(), "empty"),
        (
            b"012 X\n\x00\x01\x02binary".to_vec(),
            "control character U+0000",
        ),
        (vec![0x30, 0x30, 0x31, 0xff, 0xfe, 0x0a], "not UTF-8"),
    ] {
        let r = app.send(pair(body)).await;
        refused(&r, needle);
    }
    for trf in ["", "\n", "\u{0}\u{1}PK\u{3}\u{4}"] {
        let r = app.calc("tiebreaks", json!({"trf": trf})).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{trf:?}: {}",
            r.text
        );
        // a NUL is refused by the body check for every string, which names the JSON pointer
        let field = if trf.contains('\u{0}') { "/trf" } else { "trf" };
        assert_eq!(r.body["errors"][0]["field"], field);
    }
}

#[actix_web::test]
async fn tie_break_lists_without_repeats_and_bounded() {
    let app = spawn().await;
    let trf = field(2);
    let r = app
        .calc(
            "tiebreaks",
            json!({"trf": trf, "tiebreaks": ["PTS", "BH-M1", "bh/m1"]}),
        )
        .await;
    refused(&r, "listed twice");
    assert_eq!(r.body["errors"][0]["field"], "tiebreaks[2]");
    let r = app
        .calc(
            "tiebreaks",
            json!({"trf": trf, "tiebreaks": vec!["SB"; 5_000]}),
        )
        .await;
    refused(&r, "more than the limit of 16");
    let r = app
        .calc(
            "tiebreaks",
            json!({"trf": trf, "tiebreaks": ["PTS", "BH-M1", "SB"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

#[actix_web::test]
async fn a_spent_budget_or_a_full_pool_is_a_503_with_retry_after() {
    // a budget of 1 ms against a first-round pairing of 200 players (far longer)
    let app = spawn_with(|c| c.calc_time_budget = Duration::from_millis(1)).await;
    let r = app.send(pair(field(200))).await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.text);
    assert!(r.text.contains("CALC_TIME_BUDGET_MS"), "{}", r.text);
    assert!(r.header("retry-after").is_some());
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/problem+json")
    );
}

/// Every place on the pool taken: a calculator request is refused before its body is read
/// (a malformed body answers 503, not 400), and served again once a place is free.
#[actix_web::test]
async fn a_full_pool_refuses_before_reading_the_body() {
    let app = spawn_with(|c| {
        c.calc_workers = 1;
        c.calc_queue = 0;
    })
    .await;
    let bad_json = || {
        TestRequest::post()
            .uri(&paths::calc("keizer"))
            .insert_header(("Content-Type", "application/json"))
            .set_payload("{not json")
    };
    let place = app.state.calc.admit().expect("the only place");
    let r = app.send(bad_json()).await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.text);
    assert!(r.text.contains("CALC_WORKERS"), "{}", r.text);
    assert!(r.header("retry-after").is_some());
    let r = app.send(pair(field(4))).await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.text);
    drop(place);
    let r = app.send(bad_json()).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    let r = app.send(pair(field(4))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

#[actix_web::test]
async fn stored_competitions_hold_the_same_player_limits() {
    let app = spawn_with(|c| c.limits.keizer_players = 3).await;
    let leader = app.token(&["leader"]).await;
    let season = SeasonBuilder::new()
        .name("2026-2027")
        .create(&app, &leader)
        .await;
    let r = app
        .create_competition(
            &leader,
            season,
            json!({"name": "Keizer", "kind": "keizer", "half": "winter"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let comp = r.body["id"].as_i64().unwrap();
    let mut ids = vec![];
    for i in 0..4 {
        let p = app
            .create_player(&leader, json!({"name": format!("Player {i}")}))
            .await;
        ids.push(p.body["id"].as_i64().unwrap());
    }
    let entrants = |ids: &[i64]| json!({"entrants": ids.iter().map(|i| json!({"player_id": i})).collect::<Vec<_>>()});
    let url = paths::entrants(comp);
    let r = app.post(&url, Some(&leader), entrants(&ids[..2])).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app.post(&url, Some(&leader), entrants(&ids[2..])).await;
    refused(&r, "LIMIT_KEIZER_PLAYERS");
    assert_eq!(r.body["errors"][0]["field"], "entrants");
    // nothing was entered
    assert_eq!(app.get(&url, None).await.body.as_array().unwrap().len(), 2);
    let r = app.post(&url, Some(&leader), entrants(&ids[2..3])).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}
