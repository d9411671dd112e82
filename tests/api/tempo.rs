//! A game's own tempo (docs/rules/README.md#time-controls): the Keizer's alternative and the
//! rapid's shorter tempo by agreement, the competition's tempo elsewhere, the quickplay-finish
//! check reading the game's tempo, and refusals that store nothing. The expected values are
//! worked out by hand in the comments.

use crate::support::*;
use actix_web::http::StatusCode;
use clubcomp_core::test_store::schema::{audit_log, games};
use diesel::prelude::*;
use serde_json::{Value, json};

/// (stored tempo, version, audit entries) of a game: what a refused write must leave alone.
async fn tempo_state(app: &TestApp, id: i64) -> (Option<String>, i64, i64) {
    app.with_conn(move |c| {
        let (t, v): (Option<String>, i64) = games::table
            .find(id)
            .select((games::time_control, games::version))
            .first(c)
            .unwrap();
        let n: i64 = audit_log::table.count().get_result(c).unwrap();
        (t, v, n)
    })
    .await
}

/// The club's Keizer tempo as the API shows it: 40/90, then 30 minutes, 30 s a move from 1.
fn keizer_standard() -> Value {
    json!({"periods": [{"moves": 40, "minutes": 90}, {"moves": null, "minutes": 30}],
           "increment_seconds": 30, "increment_from_move": 1})
}

/// The Keizer's alternative: 40/90, then 15 minutes, no increment.
fn keizer_alternative() -> Value {
    json!({"periods": [{"moves": 40, "minutes": 90}, {"moves": null, "minutes": 15}],
           "increment_seconds": 0, "increment_from_move": 1})
}

/// `minutes` per player for the whole game, no increment.
fn minutes(m: u32) -> Value {
    json!({"periods": [{"moves": null, "minutes": m}], "increment_seconds": 0,
           "increment_from_move": 1})
}

/// The games of round `number` as the staff see them.
async fn round_games_view(app: &TestApp, token: &str, comp: i64, number: i32) -> Vec<Value> {
    let r = app.get(&paths::round(comp, number), Some(token)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.body["games"].as_array().unwrap().clone()
}

/// A quickplay-finish claim by White at move 45 with 1:40 left.
fn claim_at_move_45() -> Value {
    json!({"kind": "quickplay_finish", "claimant": "white", "remaining_ms": 100_000,
           "move_number": 45})
}

#[actix_web::test]
async fn keizer_alternative_tempo_admits_the_quickplay_claim_the_standard_tempo_refuses() {
    let app = spawn().await;
    let (leader, arbiter, fx) = keizer_winter(&app, &["A", "B", "C", "D"]).await;
    let p = &fx.players;
    let ids = round(
        &app,
        &leader,
        fx.comp,
        vec![(p[0], Some(p[1]), None), (p[2], Some(p[3]), None)],
        "published",
    )
    .await;
    let (alt, std) = (ids[0], ids[1]);

    // before: both games at the competition's tempo
    for g in round_games_view(&app, &leader, fx.comp, 1).await {
        assert_eq!(g["time_control"], keizer_standard());
        assert_eq!(g["time_control_own"], false);
    }

    let before = tempo_state(&app, alt).await;
    let agreed = json!({"time_control": keizer_alternative(), "agreed": true});
    // the arbiter may not approve the Keizer's alternative: the leader does (403)
    let r = app
        .set_time_control(&arbiter, alt, agreed.clone(), None)
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text);
    assert!(r.text.contains("leader's approval"), "{}", r.text);
    // without both players' agreement: 422 naming `agreed`
    let r = app
        .set_time_control(
            &leader,
            alt,
            json!({"time_control": keizer_alternative()}),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "agreed");
    // 40/90 then 20 minutes is not the alternative: 422 naming the rule
    let mut twenty = keizer_alternative();
    twenty["periods"][1]["minutes"] = json!(20);
    let r = app
        .set_time_control(
            &leader,
            alt,
            json!({"time_control": twenty, "agreed": true}),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "time_control");
    let msg = r.body["errors"][0]["message"].as_str().unwrap();
    assert!(msg.contains("not_the_keizer_alternative"), "{msg}");
    // a stale If-Match on an allowed change: 412
    let r = app
        .set_time_control(&leader, alt, agreed.clone(), Some("\"game-0-v0\""))
        .await;
    assert_eq!(r.status, StatusCode::PRECONDITION_FAILED, "{}", r.text);
    // every refusal stored nothing
    assert_eq!(tempo_state(&app, alt).await, before);

    // the leader records the agreed alternative with the game's ETag: version 1 → 2
    let r = app
        .set_time_control(
            &leader,
            alt,
            agreed.clone(),
            Some(&format!("\"game-{alt}-v1\"")),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["time_control"], keizer_alternative());
    assert_eq!(r.body["time_control_own"], true);
    assert_eq!(r.body["version"], 2);
    assert_eq!(
        r.header("etag").as_deref(),
        Some(format!("\"game-{alt}-v2~o\"").as_str())
    );
    let games = round_games_view(&app, &leader, fx.comp, 1).await;
    assert_eq!(
        (
            games[0]["time_control_own"].clone(),
            games[1]["time_control_own"].clone()
        ),
        (json!(true), json!(false))
    );
    assert_eq!(games[1]["time_control"], keizer_standard());

    // the standard game has 30 s a move into the final period: no quickplay-finish claim
    let r = app.claim(&arbiter, std, claim_at_move_45()).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(r.text.contains("final_period_has_increment"), "{}", r.text);
    // the alternative has none; the final period starts at move 1 + 40 = 41 and 1:40 is less
    // than two minutes: the claim goes to the arbiter
    let r = app.claim(&arbiter, alt, claim_at_move_45()).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["status"], "pending");

    // the claim was made at that tempo: it is fixed now (409), nothing stored
    let before = tempo_state(&app, alt).await;
    let r = app
        .set_time_control(&leader, alt, json!({"time_control": null}), None)
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(tempo_state(&app, alt).await, before);

    // the change is in the game's audit trail, with the leader and the agreement
    let r = app.get(&paths::game_audit(alt), Some(&leader)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let set: Vec<&Value> = r.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == "time_control_set")
        .collect();
    assert_eq!(set.len(), 1, "{}", r.text);
    assert_eq!(set[0]["old_value"], json!({"time_control": null}));
    assert_eq!(
        set[0]["new_value"],
        json!({"time_control": keizer_alternative(), "agreed": true})
    );
    assert!(set[0]["actor"].as_str().unwrap().starts_with("leader-"));
}

#[actix_web::test]
async fn rapid_games_may_be_agreed_down_to_ten_minutes() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let fx = CompetitionBuilder::swiss("double_swiss")
        .set("time_control", minutes(25))
        .players(&["A", "B"])
        .create(&app, &leader)
        .await;
    let (a, b) = (fx.players[0], fx.players[1]);
    // one pairing, two games
    let ids = round_games(
        &app,
        &leader,
        fx.comp,
        vec![(1, 1, a, Some(b), None), (1, 2, b, Some(a), None)],
        "published",
    )
    .await;
    let g = ids[0];
    let before = tempo_state(&app, g).await;
    // 9 minutes: below the club's minimum of 10 (422 naming the rule), nothing stored
    let r = app
        .set_time_control(
            &arbiter,
            g,
            json!({"time_control": minutes(9), "agreed": true}),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "time_control");
    let msg = r.body["errors"][0]["message"].as_str().unwrap();
    assert!(msg.contains("rapid_below_minimum"), "{msg}");
    // the agreement shortens the game: 30 minutes is more than the competition's 25
    let r = app
        .set_time_control(
            &arbiter,
            g,
            json!({"time_control": minutes(30), "agreed": true}),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(
        r.text.contains("rapid_longer_than_competition"),
        "{}",
        r.text
    );
    assert_eq!(tempo_state(&app, g).await, before);

    // 10 minutes, agreed: the arbiter records it (the rapid needs no leader's approval)
    let r = app
        .set_time_control(
            &arbiter,
            g,
            json!({"time_control": minutes(10), "agreed": true}),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["time_control"], minutes(10));
    assert_eq!(r.body["time_control_own"], true);
    let games = round_games_view(&app, &leader, fx.comp, 1).await;
    assert_eq!(games[0]["time_control"], minutes(10));
    assert_eq!(games[1]["time_control"], minutes(25));
    assert_eq!(games[1]["time_control_own"], false);

    // back to the competition's tempo: sending it clears the game's own (version 2 → 3)
    let r = app
        .set_time_control(&arbiter, g, json!({"time_control": minutes(25)}), None)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["time_control_own"], false);
    assert_eq!(r.body["version"], 3);
    assert_eq!(tempo_state(&app, g).await.0, None);
}

/// A new competition's tempo when the leader names none (docs/rules/README.md#time-controls):
/// the rapid 25 minutes (club rules, *Rapid*), so an agreed 60 minutes is refused as longer
/// than the competition's; the draughts championship 2 h for 50 moves, 1 h for 25, then 20 s a
/// move (from move 76), without the chess quickplay-finish rule; the blitz 10 minutes; a chess
/// round robin the Keizer tempo.
#[actix_web::test]
async fn new_competitions_get_the_tempo_of_their_regulation() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let fx = CompetitionBuilder::swiss("double_swiss")
        .players(&["A", "B"])
        .create(&app, &leader)
        .await;
    let r = app.get(&paths::competition(fx.comp), None).await;
    assert_eq!(r.body["time_control"], minutes(25), "{}", r.text);
    assert_eq!(r.body["rules"]["quickplay_finish"], false);
    let (a, b) = (fx.players[0], fx.players[1]);
    let ids = round_games(
        &app,
        &leader,
        fx.comp,
        vec![(1, 1, a, Some(b), None), (1, 2, b, Some(a), None)],
        "published",
    )
    .await;
    let before = tempo_state(&app, ids[0]).await;
    let r = app
        .set_time_control(
            &arbiter,
            ids[0],
            json!({"time_control": minutes(60), "agreed": true}),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(
        r.text.contains("rapid_longer_than_competition"),
        "{}",
        r.text
    );
    assert_eq!(tempo_state(&app, ids[0]).await, before);

    let draughts = CompetitionBuilder::round_robin()
        .set("name", "NK")
        .set("discipline", "draughts")
        .in_season(fx.season)
        .create(&app, &leader)
        .await;
    let r = app.get(&paths::competition(draughts.comp), None).await;
    assert_eq!(
        r.body["time_control"],
        json!({"periods": [{"moves": 50, "minutes": 120}, {"moves": 25, "minutes": 60},
                           {"moves": null, "minutes": 0}],
               "increment_seconds": 20, "increment_from_move": 76}),
        "{}",
        r.text
    );
    assert_eq!(r.body["rules"]["quickplay_finish"], false);

    let chess = CompetitionBuilder::round_robin()
        .set("name", "Club RR")
        .in_season(fx.season)
        .create(&app, &leader)
        .await;
    let r = app.get(&paths::competition(chess.comp), None).await;
    assert_eq!(r.body["time_control"], keizer_standard());
    assert_eq!(r.body["rules"]["quickplay_finish"], true);

    let blitz = CompetitionBuilder::blitz("2099-06-19")
        .in_season(fx.season)
        .create(&app, &leader)
        .await;
    let r = app.get(&paths::competition(blitz.comp), None).await;
    assert_eq!(r.body["time_control"], minutes(10));
}

#[actix_web::test]
async fn other_competitions_play_their_own_tempo_and_the_game_state_rules() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let member = app.token(&["member"]).await;
    let fx = CompetitionBuilder::swiss("dutch")
        .set("time_control", minutes(10))
        .players(&["A", "B", "C", "D", "E"])
        .create(&app, &leader)
        .await;
    let p = &fx.players;
    let ids = round(
        &app,
        &leader,
        fx.comp,
        vec![
            (p[0], Some(p[1]), None),
            (p[2], Some(p[3]), Some("1-0")),
            (p[4], None, None),
        ],
        "published",
    )
    .await;
    let (g, decided, bye) = (ids[0], ids[1], ids[2]);
    let before = tempo_state(&app, g).await;
    // the blitz championship plays its own tempo: 5 minutes refused even by agreement
    let r = app
        .set_time_control(
            &leader,
            g,
            json!({"time_control": minutes(5), "agreed": true}),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(r.text.contains("own_tempo_only"), "{}", r.text);
    // the bounds of a competition's time control: no periods, 601 minutes, 601 s
    let r = app
        .set_time_control(
            &leader,
            g,
            json!({"time_control": {"periods": [], "increment_seconds": 601}, "agreed": true}),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let fields = r.errors("field");
    assert!(fields.contains(&"time_control.periods"), "{}", r.text);
    assert!(
        fields.contains(&"time_control.increment_seconds"),
        "{}",
        r.text
    );
    let r = app
        .set_time_control(&leader, g, json!({"time_control": minutes(601)}), None)
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), ["time_control.periods[0].minutes"]);
    // an unknown field, a member: refused
    let r = app
        .set_time_control(&leader, g, json!({"tempo": minutes(10)}), None)
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let r = app
        .set_time_control(&member, g, json!({"time_control": null}), None)
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text);
    assert_eq!(tempo_state(&app, g).await, before);

    // a game with its result, and a bye: 409, nothing stored
    for id in [decided, bye] {
        let before = tempo_state(&app, id).await;
        let r = app
            .set_time_control(&arbiter, id, json!({"time_control": minutes(10)}), None)
            .await;
        assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
        assert_eq!(tempo_state(&app, id).await, before);
    }

    // the competition's own tempo is allowed, without agreement, and stored as none
    let r = app
        .set_time_control(&arbiter, g, json!({"time_control": minutes(10)}), None)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["time_control_own"], false);
    assert_eq!(tempo_state(&app, g).await.0, None);
}
