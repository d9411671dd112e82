//! The play-off for first of a Swiss (docs/rules/rapid-blitz.md#the-play-off-for-first), worked
//! by hand: three players tied for first after the tie-breaks play six games in Berger order;
//! the outcome on play-off points, or the arbiter's decision (audited) when still tied; every
//! refusal names the rule and the players and stores nothing.

use crate::support::*;
use actix_web::http::{Method, StatusCode};
use actix_web::test::TestRequest;
use serde_json::{Value, json};

/// A Double-Swiss of one round among six: A, C and E each win one game and draw one against
/// B, D and F, so A, C and E share first on 1½ and every tie-break (their opponents all
/// scored ½ and none of them met).
async fn rapid_with_three_tied(app: &TestApp, leader: &str) -> (i64, Vec<i64>) {
    let fx = CompetitionBuilder::new(
        json!({"name": "Rapid", "kind": "swiss", "system": "double_swiss", "rounds_planned": 1}),
    )
    .players(&["A", "B", "C", "D", "E", "F"])
    .create(app, leader)
    .await;
    let p = fx.players.clone();
    round_games(
        app,
        leader,
        fx.comp,
        vec![
            (1, 1, p[0], Some(p[1]), Some("1-0")),
            (1, 2, p[1], Some(p[0]), Some("1/2-1/2")),
            (2, 1, p[2], Some(p[3]), Some("1-0")),
            (2, 2, p[3], Some(p[2]), Some("1/2-1/2")),
            (3, 1, p[4], Some(p[5]), Some("1-0")),
            (3, 2, p[5], Some(p[4]), Some("1/2-1/2")),
        ],
        "completed",
    )
    .await;
    (fx.comp, p)
}

async fn put_result(app: &TestApp, token: &str, game: i64, result: &str) -> Resp {
    app.send(
        TestRequest::default()
            .method(Method::PUT)
            .uri(&paths::result(game))
            .insert_header(("Authorization", format!("Bearer {token}")))
            .set_json(json!({"result": result})),
    )
    .await
}

/// Rounds, games and audit entries stored: a refused request leaves them as they were.
/// Rounds, games and audit entries, and each round's pairing details.
type Stored = (i64, i64, i64, Vec<Option<String>>);

async fn stored(app: &TestApp) -> Stored {
    app.with_conn(|c| {
        use clubcomp_core::test_store::schema::{audit_log, games, rounds};
        use diesel::prelude::*;
        (
            rounds::table.count().get_result(c).unwrap(),
            games::table.count().get_result(c).unwrap(),
            audit_log::table.count().get_result(c).unwrap(),
            rounds::table
                .order(rounds::id)
                .select(rounds::pairing_meta)
                .load(c)
                .unwrap(),
        )
    })
    .await
}

/// A refusal: `status`, the answer naming `needle`, and nothing stored since `before`.
async fn refused(app: &TestApp, r: &Resp, status: StatusCode, needle: &str, before: &Stored) {
    assert_eq!(r.status, status, "{}", r.text);
    assert!(r.text.contains(needle), "{needle:?} not in {}", r.text);
    assert_eq!(&stored(app).await, before);
}

/// The arbiter's decision placing `player` first for `reason` is refused (409) naming
/// `needle`, and nothing is stored.
async fn decision_refused(
    app: &TestApp,
    arbiter: &str,
    comp: i64,
    player: i64,
    reason: &str,
    needle: &str,
) {
    let before = stored(app).await;
    let body = json!({"player_id": player, "reason": reason});
    let r = app.decide_playoff(arbiter, comp, body).await;
    refused(app, &r, StatusCode::CONFLICT, needle, &before).await;
}

fn pairs(v: &Value) -> Vec<(i64, i64, i64, i64)> {
    v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["playoff_round"].as_i64().unwrap(),
                g["board"].as_i64().unwrap(),
                g["white"]["player_id"].as_i64().unwrap(),
                g["black"]["player_id"].as_i64().unwrap(),
            )
        })
        .collect()
}

fn game_ids(v: &Value) -> Vec<i64> {
    ints(&v["games"], "game_id")
}

/// Three tied for first: Berger numbers 1 A, 2 C, 3 E; the table of four with a dummy gives
/// rounds C–E, A–C, E–A, then the same with colours reversed: E–C, C–A, A–E. C wins both
/// games against E and draws the rest: C 3, A 2, E 1 → C is first on play-off points.
#[actix_web::test]
async fn three_tied_play_six_games_in_berger_order_and_the_winner_is_first() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let arbiter = app.token(&["arbiter"]).await;
    let (comp, p) = rapid_with_three_tied(&app, &leader).await;
    let (a, c, e) = (p[0], p[2], p[4]);
    let r = app.get(&paths::standings(comp), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["swiss"]["playoff_for_first"], true, "{}", r.text);
    assert_eq!(r.body["swiss"]["playoff"], Value::Null);
    let prizes = app.get(&paths::prizes(comp), None).await;
    assert_eq!(prizes.status, StatusCode::OK, "{}", prizes.text);
    assert_eq!(prizes.body["swiss"]["decided_by"], "pending");
    assert_eq!(prizes.body["swiss"]["champion"], Value::Null);
    assert_eq!(
        app.get(&paths::first_place_playoff(comp), None)
            .await
            .status,
        StatusCode::NOT_FOUND
    );

    // an arbiter may not create it; a leader may
    let r = app
        .post(&paths::first_place_playoff(comp), Some(&arbiter), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = app
        .post(&paths::first_place_playoff(comp), Some(&leader), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["round_number"], 2);
    assert_eq!(r.body["status"], "pending");
    let cands: Vec<i64> = ints(&r.body["candidates"], "player_id");
    assert_eq!(cands, [a, c, e]);
    assert_eq!(
        pairs(&r.body),
        [
            (1, 1, c, e),
            (2, 1, a, c),
            (3, 1, e, a),
            (4, 1, e, c),
            (5, 1, c, a),
            (6, 1, a, e)
        ]
    );
    let ids = game_ids(&r.body);

    // a second play-off is refused, naming the rule and the players; nothing stored
    let before = stored(&app).await;
    let r = app
        .post(&paths::first_place_playoff(comp), Some(&leader), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    let detail = r.body["detail"].as_str().unwrap_or_default().to_string();
    assert!(detail.contains("exists already"), "{detail}");
    assert!(detail.contains(&format!("A (player {a})")), "{detail}");
    assert!(detail.contains(&format!("E (player {e})")), "{detail}");
    assert_eq!(stored(&app).await, before);

    // the arbiter cannot decide a play-off still being played
    let r = app
        .decide_playoff(&arbiter, comp, json!({"player_id": a, "reason": "lots"}))
        .await;
    refused(
        &app,
        &r,
        StatusCode::CONFLICT,
        "6 games have no result",
        &before,
    )
    .await;

    // results like any game: C–E 1-0, A–C ½, E–A ½, E–C 0-1, C–A ½, A–E ½
    for (g, res) in ids
        .iter()
        .zip(["1-0", "1/2-1/2", "1/2-1/2", "0-1", "1/2-1/2", "1/2-1/2"])
    {
        let r = put_result(&app, &arbiter, *g, res).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let r = app.get(&paths::standings(comp), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // the play-off games are not Swiss games: one round counts, A, C, E still on 1½
    assert_eq!(r.body["rounds_counted"], 1);
    assert_eq!(r.body["swiss"]["rows"][0]["values"]["PTS"], 1.5);
    let po = &r.body["swiss"]["playoff"];
    assert_eq!(po["status"], "champion", "{po}");
    assert_eq!(po["first"], c);
    assert_eq!(
        po["points"],
        json!({a.to_string(): 2.0, c.to_string(): 3.0, e.to_string(): 1.0})
    );
    // the play-off's winner is first on every page: the standings (C at place 1, A and E
    // still sharing 2-3 in their order, no play-off called for), the prize list, the
    // players' cards and the club's standings page
    let rows = r.body["swiss"]["rows"].as_array().unwrap();
    let order: Vec<(i64, &str)> = rows
        .iter()
        .map(|r| {
            (
                r["player_id"].as_i64().unwrap(),
                r["place"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(order[..3], [(c, "1"), (a, "2-3"), (e, "2-3")], "{}", r.text);
    assert_eq!(r.body["swiss"]["playoff_for_first"], false);
    let prizes = app.get(&paths::prizes(comp), None).await;
    assert_eq!(prizes.status, StatusCode::OK, "{}", prizes.text);
    assert_eq!(prizes.body["kind"], "swiss");
    assert_eq!(
        prizes.body["swiss"]["champion"]["player_id"], c,
        "{}",
        prizes.text
    );
    assert_eq!(prizes.body["swiss"]["decided_by"], "playoff");
    assert_card_places(&app, comp, &[(c, "1"), (a, "2-3")]).await;
    let page = app.get(&paths::club::standings(comp), None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(!page.text.contains("a play-off decides"), "{}", page.text);
    assert!(!page.text.contains("een barrage beslist"), "{}", page.text);
    assert!(
        page.text
            .contains("Eerste na de barrage: <strong>C</strong>")
            || page
                .text
                .contains("First after the play-off: <strong>C</strong>"),
        "{}",
        page.text
    );

    // the TRF holds only the Swiss round
    let r = app.get(&paths::trf(comp), None).await;
    assert!(r.text.contains("XXR 2"), "{}", r.text);

    // decided on points: no arbiter's decision
    let first = format!("C (player {c}) is first");
    decision_refused(&app, &arbiter, comp, a, "lots", &first).await;
}

/// All six play-off games drawn: A, C and E 3 points each, still tied; the arbiter places E
/// first, once, audited with the reason.
#[actix_web::test]
async fn a_play_off_still_tied_is_decided_by_the_arbiter_and_audited() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let arbiter = app.token(&["arbiter"]).await;
    let member = app.token(&["member"]).await;
    let (comp, p) = rapid_with_three_tied(&app, &leader).await;
    let (a, b, c, e) = (p[0], p[1], p[2], p[4]);
    let r = app
        .post(&paths::first_place_playoff(comp), Some(&leader), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    for g in game_ids(&r.body) {
        let r = put_result(&app, &arbiter, g, "½-½").await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let r = app.get(&paths::first_place_playoff(comp), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["status"], "arbiter_decides");
    assert_eq!(r.body["tied"], json!([a, c, e]));
    assert_eq!(r.body["first"], Value::Null);

    let before = stored(&app).await;
    // a member may not decide
    let r = app
        .decide_playoff(&member, comp, json!({"player_id": e, "reason": "lots"}))
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    // B is not among those tied: 422 naming the players tied
    let r = app
        .decide_playoff(&arbiter, comp, json!({"player_id": b, "reason": "lots"}))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(
        r.text.contains(&format!("player {b} is not among")),
        "{}",
        r.text
    );
    assert!(r.text.contains(&format!("C (player {c})")), "{}", r.text);
    // no reason
    let r = app
        .decide_playoff(&arbiter, comp, json!({"player_id": e, "reason": "  "}))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(stored(&app).await, before);

    let r = app
        .decide_playoff(
            &arbiter,
            comp,
            json!({"player_id": e, "reason": "drawing of lots before both players"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["status"], "decided");
    assert_eq!(r.body["first"], e);
    assert_eq!(r.body["tied"], json!([a, c, e]));
    assert_eq!(
        r.body["arbiter_decision"]["reason"],
        "drawing of lots before both players"
    );
    let r = app.get(&paths::standings(comp), None).await;
    assert_eq!(r.body["swiss"]["playoff"]["first"], e, "{}", r.text);
    assert_eq!(r.body["swiss"]["playoff"]["status"], "decided");

    // audited: who, what, why
    let entries = app
        .with_conn(move |cn| {
            use clubcomp_core::test_store::schema::audit_log as al;
            use diesel::prelude::*;
            al::table
                .filter(al::entity.eq("competition"))
                .filter(al::entity_id.eq(comp))
                .order(al::id)
                .select((al::action, al::reason, al::new_value))
                .load::<(String, Option<String>, Option<String>)>(cn)
                .unwrap()
        })
        .await;
    let actions: Vec<&str> = entries.iter().map(|x| x.0.as_str()).collect();
    assert_eq!(actions, ["playoff_created", "playoff_decided"]);
    assert_eq!(
        entries[1].1.as_deref(),
        Some("drawing of lots before both players")
    );
    assert!(
        entries[1]
            .2
            .as_deref()
            .is_some_and(|v| v.contains(&format!("\"player_id\":{e}")))
    );

    // made once
    let first = format!("E (player {e}) is first");
    decision_refused(&app, &arbiter, comp, a, "again", &first).await;
}

/// Refused, naming the rule and the players, with nothing stored: a competition not finished
/// (a round not completed; fewer rounds than planned), a first place not shared, a
/// competition without a play-off for the arbiter to decide.
#[actix_web::test]
async fn refusals_name_the_rule_and_store_nothing() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let arbiter = app.token(&["arbiter"]).await;
    let fx = CompetitionBuilder::new(
        json!({"name": "Rapid", "kind": "swiss", "system": "double_swiss", "rounds_planned": 2}),
    )
    .players(&["Anna", "Bram"])
    .create(&app, &leader)
    .await;
    let [anna, bram] = fx.players[..] else {
        panic!()
    };
    let url = paths::first_place_playoff(fx.comp);
    round_games(
        &app,
        &leader,
        fx.comp,
        vec![
            (1, 1, anna, Some(bram), Some("1-0")),
            (1, 2, bram, Some(anna), Some("1/2-1/2")),
        ],
        "published",
    )
    .await;
    let before = stored(&app).await;
    let r = app.post(&url, Some(&leader), json!({})).await;
    refused(
        &app,
        &r,
        StatusCode::CONFLICT,
        "round 1 is published",
        &before,
    )
    .await;

    app.with_conn({
        let comp = fx.comp;
        move |c| {
            let round =
                clubcomp::services::rounds::load(c, clubcomp::ids::CompetitionId(comp), 1).unwrap();
            clubcomp::services::rounds::transition(
                c,
                &round,
                clubcomp::services::rounds::RoundStatus::Published,
                clubcomp::services::rounds::RoundStatus::Completed,
            )
            .unwrap();
        }
    })
    .await;
    let before = stored(&app).await;
    let r = app.post(&url, Some(&leader), json!({})).await;
    refused(
        &app,
        &r,
        StatusCode::CONFLICT,
        "1 of its 2 planned rounds",
        &before,
    )
    .await;

    round_games(
        &app,
        &leader,
        fx.comp,
        vec![
            (1, 1, bram, Some(anna), Some("1/2-1/2")),
            (1, 2, anna, Some(bram), Some("1/2-1/2")),
        ],
        "completed",
    )
    .await;
    // Anna 2½, Bram 1½: first alone
    let before = stored(&app).await;
    let r = app.post(&url, Some(&leader), json!({})).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert!(r.text.contains("is not shared"), "{}", r.text);
    assert!(
        r.text
            .contains(&format!("Anna (player {anna}) is first alone")),
        "{}",
        r.text
    );
    assert!(
        r.headers
            .get("content-type")
            .is_some_and(|v| v == "application/problem+json")
    );
    let r = app
        .decide_playoff(
            &arbiter,
            fx.comp,
            json!({"player_id": anna, "reason": "lots"}),
        )
        .await;
    refused(&app, &r, StatusCode::CONFLICT, "has no play-off", &before).await;

    // a Keizer competition has no play-off for first
    let k = CompetitionBuilder::new(json!({"name": "K", "kind": "keizer"}))
        .create(&app, &leader)
        .await;
    let r = app
        .post(
            &paths::first_place_playoff(k.comp),
            Some(&leader),
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert!(r.text.contains("is a keizer"), "{}", r.text);
    assert_eq!(
        app.post(
            &paths::first_place_playoff(999999),
            Some(&leader),
            json!({})
        )
        .await
        .status,
        StatusCode::NOT_FOUND
    );
}

/// The rapid's play-off on the season page. Before it A, C and E share first on 1½ and
/// every tie-break, in their order in the table: A, C, E. C wins the play-off on points (C–E
/// 1-0, E–C 0-1 and four draws: C 3, A 2, E 1), so the season page names C first, then A and
/// E, as the standings do.
#[actix_web::test]
async fn the_season_page_names_the_rapids_play_off_winner_first() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let arbiter = app.token(&["arbiter"]).await;
    let (comp, _) = rapid_with_three_tied(&app, &leader).await;
    assert_eq!(season_podium(&app, comp).await, ["A", "C", "E"]);
    let r = app
        .post(&paths::first_place_playoff(comp), Some(&leader), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    // in Berger order: C–E, A–C, E–A, E–C, C–A, A–E
    for (g, res) in game_ids(&r.body)
        .iter()
        .zip(["1-0", "1/2-1/2", "1/2-1/2", "0-1", "1/2-1/2", "1/2-1/2"])
    {
        let r = put_result(&app, &arbiter, *g, res).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    assert_eq!(season_podium(&app, comp).await, ["C", "A", "E"]);
}
