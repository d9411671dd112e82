//! The stateless calculators: the command line's formats over HTTP, worked examples from the
//! engines' documentation, 422 naming the evening / player / line, and nothing stored.

use crate::support::*;
use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use serde_json::{Value, json};

/// A number that the engines may write as a JSON number or as an exact decimal string.
fn num(v: &Value) -> f64 {
    match v {
        Value::String(s) => s.parse().unwrap(),
        other => other.as_f64().unwrap(),
    }
}

/// One TRF-16 player line: `rounds` as (opponent, colour, result) with opponent 0 for none.
fn trf_player(id: u32, name: &str, rating: u32, rounds: &[(u32, char, char)]) -> String {
    let mut s = format!(
        "001 {id:>4}      {name:<33} {rating:>4} {:>3} {:>11} {:>10} {:>4} {:>4}",
        "", "", "", "0.0", id
    );
    for (opp, col, res) in rounds {
        if *opp == 0 {
            s.push_str(&format!("  0000 {col} {res}"));
        } else {
            s.push_str(&format!("  {opp:>4} {col} {res}"));
        }
    }
    s
}

fn trf(lines: &[String]) -> String {
    let mut s = "012 Club rapid\nXXR 9\nXXC white1\n".to_string();
    for l in lines {
        s.push_str(l);
        s.push('\n');
    }
    s
}

fn pair_request(system: &str, body: &str, accept: &str) -> TestRequest {
    TestRequest::post()
        .uri(&paths::calc_pair(system))
        .insert_header(("Content-Type", "text/plain"))
        .insert_header(("Accept", accept.to_string()))
        .set_payload(body.to_string())
}

#[actix_web::test]
async fn keizer_scenario_worked_by_hand() {
    let app = spawn().await;
    let before = app.counts().await;
    // a (seed 1, value 60) beats b (value 59): a earns 59, b the fixed 5 for a loss; the
    // ranking a, b is already sorted by score, so it converges at once.
    let r = app
        .calc(
            "keizer",
            json!({"players": [{"id": "a", "rating": 2000}, {"id": "b", "rating": 1900}],
                   "evenings": [{"games": [{"white": "a", "black": "b", "result": "1-0"}]}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let t = &r.body["evenings"][0]["standings"];
    assert_eq!(t[0]["id"], "a");
    assert_eq!(num(&t[0]["score"]), 59.0);
    assert_eq!(t[0]["value"], 60);
    assert_eq!(num(&t[1]["score"]), 5.0);
    assert_eq!(r.body["evenings"][0]["converged"], true);

    // an unknown result code: 422 naming the evening and the players
    let r = app
        .calc(
            "keizer",
            json!({"players": [{"id": "a"}, {"id": "b"}],
                   "evenings": [{"games": [{"white": "a", "black": "b", "result": "2-0"}]}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let detail = r.body["detail"].as_str().unwrap();
    assert!(
        detail.contains("evening 1") && detail.contains("2-0"),
        "{detail}"
    );
    // not an object at all
    let r = app.calc("keizer", json!([1, 2])).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    // malformed JSON is 400
    let r = app
        .send(
            TestRequest::post()
                .uri(&paths::calc("keizer"))
                .insert_header(("Content-Type", "application/json"))
                .set_payload("{"),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(app.counts().await, before, "a calculator stores nothing");
}

#[actix_web::test]
async fn round_robin_scenario() {
    let app = spawn().await;
    // a: 1 + ½ = 1.5; b: ½ + ½ = 1; c: ½ + 0 = 0.5
    let r = app
        .calc(
            "round-robin",
            json!({"discipline": "chess", "players": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
                   "games": [{"round": 1, "white": "b", "black": "c", "result": "½-½"},
                             {"round": 2, "white": "c", "black": "a", "result": "0-1"},
                             {"round": 3, "white": "a", "black": "b", "result": "1/2-1/2"}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let ids: Vec<&str> = texts(&r.body["standings"], "id");
    assert_eq!(ids, ["a", "b", "c"]);
    assert_eq!(num(&r.body["standings"][0]["points"]), 1.5);
    // a draughts result in a chess field names the round and the players
    let r = app
        .calc(
            "round-robin",
            json!({"discipline": "draughts", "players": [{"id": "a"}, {"id": "b"}],
                   "games": [{"round": 1, "white": "a", "black": "b", "result": "1-0"}]}),
        )
        .await;
    r.assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "round 1 (a - b)");
    let r = app
        .calc("round-robin", json!({"discipline": "go", "players": []}))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    // draughts without `tiebreaks` (the chain ends in lots) and without `lots_seed`: ranked
    // when no tie reaches the lots (a 4, b 2, c 0) ...
    let game = |round: u32, w: &str, b: &str, res: &str| json!({"round": round, "white": w, "black": b, "result": res});
    let field = json!([{"id": "a"}, {"id": "b"}, {"id": "c"}]);
    // the three games with b–c ending `bc`
    let draughts = |bc: &str| {
        json!({"discipline": "draughts", "players": field,
               "games": [game(1, "b", "c", bc), game(2, "c", "a", "0-2"),
                         game(3, "a", "b", "2-0")]})
    };
    let r = app.calc("round-robin", draughts("2-0")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["standings"][2]["id"], "c");
    // ... and refused, naming the tied players, when one does (b and c drew, both lost to a)
    let r = app.calc("round-robin", draughts("1-1")).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let detail = r.body["detail"].as_str().unwrap();
    assert!(
        detail.contains(r#"["b", "c"]"#) && detail.contains("lots_seed"),
        "{}",
        r.text
    );
}

#[actix_web::test]
async fn keizer_pairing_same_json_as_the_command_line() {
    let app = spawn().await;
    // a–b met on evening 1, so evening 3 cannot repeat it (5 evenings between): a–c and b–d,
    // cost (3-1)² + (4-2)² = 8.
    let input = json!({"evening": 3, "half": "winter", "bye_seed": 1,
        "ranking": [{"id": "a", "present": true}, {"id": "b", "present": true},
                    {"id": "c", "present": true}, {"id": "d", "present": true}],
        "history": [{"a": "a", "b": "b", "evening": 1, "half": "winter"}]});
    let r = app.calc("keizer-pairing", input.clone()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["ok"], true);
    assert_eq!(r.body["pairing"]["boards"][0]["white"], "a");
    assert_eq!(r.body["pairing"]["boards"][0]["black"], "c");
    assert_eq!(r.body["pairing"]["cost"], 8);
    let (cli, _) = clubcomp::cli::keizer_pairing::answer(&input.to_string()).unwrap();
    assert_eq!(r.body, cli);

    // a hand pairing that repeats a–b is a rule answer, not an input error
    let r = app
        .calc(
            "keizer-pairing",
            json!({"mode": "validate", "evening": 3, "half": "winter",
                   "ranking": [{"id": "a", "present": true}, {"id": "b", "present": true}],
                   "history": [{"a": "a", "b": "b", "evening": 1, "half": "winter"}],
                   "pairing": {"boards": [{"white": "a", "black": "b"}]}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["valid"], false);
    assert_eq!(r.body["violations"][0]["rule"], "half_limit");
    let r = app.calc("keizer-pairing", json!({"mode": "dance"})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(r.body["detail"].as_str().unwrap().contains("dance"));
}

/// The prizes calculator: worked by hand from the prize rules (e absent without notice on
/// both evenings is not eligible; a won both games; d is the only eligible player left for
/// best of the rest), the summer playoff group with its colours, the same JSON from the
/// command line, and refusals naming the field.
#[actix_web::test]
async fn keizer_prizes_from_a_scenario() {
    let app = spawn().await;
    let scenario = |half: &str| {
        json!({"half": half,
            "players": [{"id": "a", "rating": 2000}, {"id": "b", "rating": 1900},
                        {"id": "c", "rating": 1800}, {"id": "d", "rating": 1700},
                        {"id": "e", "rating": 1600}],
            "evenings": [
                {"games": [{"white": "a", "black": "b", "result": "1-0"},
                           {"white": "c", "black": "d", "result": "1-0"}], "unexcused": ["e"]},
                {"games": [{"white": "a", "black": "c", "result": "1-0"},
                           {"white": "b", "black": "d", "result": "1-0"}], "unexcused": ["e"]}]})
    };
    let r = app.calc("keizer-prizes", scenario("winter")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["not_eligible"], json!(["e"]));
    let prizes = award_pairs(&r.body);
    assert_eq!(prizes[0], ("winter_champion".into(), "a".into()));
    assert_eq!(prizes[3], ("best_of_the_rest".into(), "d".into()));
    assert_eq!(r.body["playoffs"], Value::Null);
    assert_eq!(r.body["standings"]["number"], 2);

    let mut summer = scenario("summer");
    summer["playoff_seed"] = json!(11);
    let r = app.calc("keizer-prizes", summer.clone()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["awards"][0]["prize"], "summer_champion");
    assert_eq!(r.body["awards"][0]["id"], "a");
    let group = &r.body["playoffs"]["groups"][0];
    assert_eq!(group["seeds"][0], "a");
    assert_eq!(group["seeds"][3], "d");
    let semi1 = &r.body["playoffs"]["states"][0]["matches"][0];
    let mut pair = [
        semi1["games"][0]["white"].as_str().unwrap(),
        semi1["games"][0]["black"].as_str().unwrap(),
    ];
    pair.sort_unstable();
    assert_eq!(pair, ["a", "d"]);

    // the command line answers the same JSON
    let cli = calc_cli("keizer-prizes", &summer);
    assert_eq!(cli, r.body);

    let r = app.calc("keizer-prizes", scenario("autumn")).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "half");
    let mut winter = scenario("winter");
    winter["playoff_seed"] = json!(1);
    let r = app.calc("keizer-prizes", winter).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "playoff_seed");
}

#[actix_web::test]
async fn dutch_round_one_json_and_text() {
    let app = spawn().await;
    let four: Vec<String> = (1..=4)
        .map(|i| trf_player(i, &format!("P{i}"), 2100 - 100 * i, &[]))
        .collect();
    // Round 1, FIDE Dutch: S1 = {1, 2} against S2 = {3, 4}; 1 has White (XXC white1), the
    // colours alternate down the boards: 1-3, 4-2.
    let r = app
        .send(pair_request("dutch", &trf(&four), "application/json"))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        r.body,
        json!({"system": "dutch", "round": 1, "boards": [
            {"board": 1, "white": 1, "black": 3}, {"board": 2, "white": 4, "black": 2}]})
    );
    let r = app
        .send(pair_request("dutch", &trf(&four), "text/plain"))
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.header("content-type").unwrap().starts_with("text/plain"));
    assert_eq!(r.text, "2\n1 3\n4 2\n");
    // five players: the lowest-ranked gets the pairing-allocated bye, written `5 0`
    let mut five = four.clone();
    five.push(trf_player(5, "P5", 1500, &[]));
    let r = app
        .send(pair_request("dutch", &trf(&five), "text/plain"))
        .await;
    assert_eq!(r.text, "3\n1 3\n4 2\n5 0\n");
    // default system is dutch, default answer JSON
    let r = app
        .send(
            TestRequest::post()
                .uri(&paths::calc("pair"))
                .set_payload(trf(&four)),
        )
        .await;
    assert_eq!(r.body["boards"][1]["white"], 4);
}

/// The Burstein system on a reference round (`crates/engine/tests/data/burstein`, paired by
/// bbpPairings `--burstein`): the same boards in the same order, and the system in the answer.
#[actix_web::test]
async fn burstein_pairing_of_a_reference_round() {
    let app = spawn().await;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates/engine/tests/data/burstein/p310-9543-n16-r8");
    let text = std::fs::read_to_string(dir.join("round-04.trf")).unwrap();
    let want = std::fs::read_to_string(dir.join("round-04.pairs")).unwrap();
    let r = app
        .send(pair_request("burstein", &text, "text/plain"))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.text, want);
    let r = app
        .send(pair_request("burstein", &text, "application/json"))
        .await;
    assert_eq!(r.body["system"], "burstein");
    assert_eq!(r.body["round"], 4);
    assert_eq!(
        r.body["boards"][0],
        json!({"board": 1, "white": 6, "black": 1})
    );
}

#[actix_web::test]
async fn double_swiss_second_round_from_trf() {
    let app = spawn().await;
    // The engine's worked example (double_swiss tests, second_round_with_upfloaters): round 1
    // 1-2 2-0, 4-3 1-1, 5-6 ½-1½; each match is two rounds in the TRF.
    let p = |id, opp1, c1, r1, opp2, c2, r2| {
        trf_player(
            id,
            &format!("P{id}"),
            2000 - 50 * id,
            &[(opp1, c1, r1), (opp2, c2, r2)],
        )
    };
    let lines = vec![
        p(1, 2, 'w', '1', 2, 'b', '1'),
        p(2, 1, 'b', '0', 1, 'w', '0'),
        p(3, 4, 'b', '0', 4, 'w', '1'),
        p(4, 3, 'w', '1', 4 - 1, 'b', '0'),
        p(5, 6, 'w', '=', 6, 'b', '0'),
        p(6, 5, 'b', '=', 5, 'w', '1'),
    ];
    let r = app
        .send(pair_request(
            "double_swiss",
            &trf(&lines),
            "application/json",
        ))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["round"], 2);
    assert_eq!(r.body["system"], "double_swiss");
    let boards: Vec<(i64, i64)> = r.body["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["white"].as_i64().unwrap(), b["black"].as_i64().unwrap()))
        .collect();
    // the engine example: 6 (fewer game-1 Whites than 1) gets White, then 3 v 5, 2 v 4
    assert_eq!(boards, [(6, 1), (3, 5), (2, 4)]);
    // a match against two different opponents names the players and the round (player 3
    // does not name player 1 back)
    let mut broken = lines.clone();
    broken[0] = p(1, 2, 'w', '1', 3, 'b', '1');
    let r = app
        .send(pair_request(
            "double_swiss",
            &trf(&broken),
            "application/json",
        ))
        .await;
    r.assert_detail(
        StatusCode::UNPROCESSABLE_ENTITY,
        "round 2: player 1 is paired with player 3",
    );
}

#[actix_web::test]
async fn pair_rejects_bad_input() {
    let app = spawn().await;
    // an unreadable player line names the line
    let r = app
        .send(pair_request(
            "dutch",
            "012 X\n001    1      A                                 20x0\n",
            "application/json",
        ))
        .await;
    r.assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "line 2");
    // a file without players is not a tournament
    let r = app
        .send(pair_request("dutch", "012 Empty\n", "text/plain"))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let r = app.send(pair_request("monrad", "", "text/plain")).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    // a point value that is not in tenths of a point is refused at its line
    let r = app
        .send(pair_request(
            "dutch",
            "012 X\nXXR 5\nBBW  3.25\nBBD  1.0\n001    1      A\n001    2      B\n",
            "application/json",
        ))
        .await;
    r.assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "line 3: field BBW");
    // more rounds than XXR announces
    let r = app
        .send(pair_request(
            "dutch",
            &format!(
                "012 X\nXXR 1\n{}\n{}\n",
                trf_player(1, "A", 2000, &[(2, 'w', '1'), (0, '-', 'H')]),
                trf_player(2, "B", 1900, &[(1, 'b', '0'), (0, '-', 'H')])
            ),
            "application/json",
        ))
        .await;
    r.assert_detail(
        StatusCode::UNPROCESSABLE_ENTITY,
        "line 3: player 1 has 2 rounds, more than the 1 of XXR",
    );
    // over MAX_BODY_BYTES (64 KiB in tests)
    let big = "x".repeat(70 * 1024);
    let r = app.send(pair_request("dutch", &big, "text/plain")).await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", r.text);
    // random bytes never give a 5xx
    for junk in [
        "\u{0}\u{1}",
        "001",
        "001    1",
        "XXR 99999999999",
        "001 9999 x",
    ] {
        let r = app
            .send(pair_request("double_swiss", junk, "text/plain"))
            .await;
        assert!(
            r.status.is_success() || r.status.is_client_error(),
            "{junk:?}: {}",
            r.text
        );
    }
}

#[test]
fn the_random_tournament_command_refuses_more_players_than_pairing_numbers() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_clubcomp"))
            .arg("pair")
            .args(args)
            .output()
            .unwrap()
    };
    // 10,000 players would need a five-digit pairing number: refused, nothing written.
    let out = run(&["--random-trf", "10000", "--played", "0"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(out.stdout.is_empty());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("at most 9999 players"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // more rounds played than the tournament has
    let out = run(&["--random-trf", "10", "--played", "6", "--rounds", "5"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(out.stdout.is_empty());
    // 9,999 players fit: every pairing number from 1 to 9999 once
    let out = run(&["--random-trf", "9999", "--played", "0"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let ids: std::collections::BTreeSet<u32> = text
        .lines()
        .filter(|l| l.starts_with("001"))
        .map(|l| l[4..8].trim().parse().unwrap())
        .collect();
    assert_eq!(ids.len(), 9999);
    assert_eq!(ids.last(), Some(&9999));
}

#[actix_web::test]
async fn tiebreaks_of_a_trf() {
    let app = spawn().await;
    // A beat B in round 1; round 2: A half-point bye, B pairing-allocated bye.
    // PTS: A 1 + ½ = 1.5, B 0 + 1 = 1.
    let text = trf(&[
        trf_player(1, "A", 2000, &[(2, 'w', '1'), (0, '-', 'H')]),
        trf_player(2, "B", 1900, &[(1, 'b', '0'), (0, '-', 'U')]),
    ]);
    let r = app
        .calc(
            "tiebreaks",
            json!({"trf": text, "tiebreaks": ["PTS", "DE"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["rows"][0]["id"], 1);
    assert_eq!(num(&r.body["rows"][0]["values"][0]), 1.5);
    assert_eq!(num(&r.body["rows"][1]["values"][0]), 1.0);
    let r = app
        .calc(
            "tiebreaks",
            json!({"trf": text, "tiebreaks": ["XYZ"], "rules": "1999", "games_per_round": 0}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let r = app
        .calc(
            "tiebreaks",
            json!({"trf": text, "tiebreaks": ["PTS", "XYZ"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "tiebreaks[1]");
    let r = app.calc("tiebreaks", json!({"trf": "001 x"})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "trf");

    // Rating-based tie-breaks: A's only game over the board was a win against 1900: ARO 1900,
    // TPR 1900 + 800 (100 %); B lost to 2000: ARO 2000, TPR 2000 − 800.
    let r = app
        .calc(
            "tiebreaks",
            json!({"trf": text, "tiebreaks": ["ARO", "tpr", "BH/C1"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["tiebreaks"], json!(["PTS", "ARO", "TPR", "BH-C1"]));
    assert_eq!(num(&r.body["rows"][0]["values"][1]), 1900.0);
    assert_eq!(num(&r.body["rows"][0]["values"][2]), 2700.0);
    assert_eq!(num(&r.body["rows"][1]["values"][2]), 1200.0);
    // B unrated: no value without a rating for unrated players, 1500 with one.
    let unrated = trf(&[
        trf_player(1, "A", 2000, &[(2, 'w', '1'), (0, '-', 'H')]),
        trf_player(2, "B", 0, &[(1, 'b', '0'), (0, '-', 'U')]),
    ]);
    let r = app
        .calc("tiebreaks", json!({"trf": unrated, "tiebreaks": ["ARO"]}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(r.body["rows"][0]["values"][1].is_null(), "{}", r.text);
    let r = app
        .calc(
            "tiebreaks",
            json!({"trf": unrated, "tiebreaks": ["ARO"], "unrated_rating": 1500}),
        )
        .await;
    assert_eq!(num(&r.body["rows"][0]["values"][1]), 1500.0);
    let r = app
        .calc("tiebreaks", json!({"trf": unrated, "unrated_rating": 5000}))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "unrated_rating");
}

/// An engine that panics answers 422 and the worker keeps serving.
#[actix_web::test]
async fn a_panicking_engine_is_a_422() {
    let app = spawn().await;
    let r = clubcomp::api::calc::run_engine("test", || -> clubcomp::error::ApiResult<()> {
        panic!("odd input")
    })
    .await;
    match r {
        Err(clubcomp::error::ApiError::Validation { detail, .. }) => {
            assert!(detail.contains("test engine"), "{detail}")
        }
        other => panic!("{other:?}"),
    }
    let r = app
        .calc("keizer", json!({"players": [], "evenings": []}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

#[actix_web::test]
async fn a_point_system_is_paired_by_the_dutch_system_and_refused_by_the_tie_breaks() {
    let app = spawn().await;
    let players = vec![
        trf_player(1, "A", 2000, &[(3, 'w', '1')]),
        trf_player(2, "B", 1900, &[(4, 'b', '=')]),
        trf_player(3, "C", 1800, &[(1, 'b', '0')]),
        trf_player(4, "D", 1700, &[(2, 'w', '=')]),
    ];
    // 3-1-0: the BBW line is the fourth line of the file.
    let text = trf(&players).replacen("XXC white1\n", "XXC white1\nBBW  3.0\nBBD  1.0\n", 1);
    let r = app.send(pair_request("dutch", &text, "text/plain")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app
        .calc("tiebreaks", json!({"trf": text, "tiebreaks": ["PTS"]}))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "trf");
    let detail = r.body["errors"][0]["message"].as_str().unwrap_or_default();
    assert!(
        detail.starts_with("line 4: field point system:"),
        "{}",
        r.text
    );
    let r = app
        .send(pair_request("double_swiss", &text, "text/plain"))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(r.text.contains("line 4"), "{}", r.text);
}
