//! Illegal-move claims in rapid and blitz (docs/rules/arbiter.md#illegal-moves-in-rapid-and-blitz):
//! the opponent claims, the moves recorded decide, the first illegal move gives the claimant a
//! minute and the second ends the game with its result. Worked by hand in the comments.

use crate::arbiter::{games_in, no_increment};
use crate::support::*;
use actix_web::http::StatusCode;
use serde_json::{Value, json};

/// 25 minutes per player: a rapid game (A.1).
fn rapid() -> Value {
    json!({"periods": [{"minutes": 25}], "increment_seconds": 0, "increment_from_move": 1})
}

/// 10 minutes per player: a blitz game (B.1).
fn blitz() -> Value {
    json!({"periods": [{"minutes": 10}], "increment_seconds": 0, "increment_from_move": 1})
}

async fn state(app: &TestApp, token: &str, game: i64) -> Value {
    let r = app.get(&paths::events(game), Some(token)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.body["state"].clone()
}

/// The stored result of a game.
async fn result_of(app: &TestApp, game: i64) -> Option<String> {
    use clubcomp_core::test_store::schema::games;
    use diesel::prelude::*;
    app.with_conn(move |c| {
        games::table
            .find(game)
            .select(games::result)
            .first(c)
            .unwrap()
    })
    .await
}

/// 1.e4 e5 2.Ke3: a king moves one square. Black's claim is upheld at once: Black gets one
/// minute and the game goes on. 2.Ke2 Nc6 3.Ke4: White's second illegal move loses, 0-1.
#[actix_web::test]
async fn the_first_illegal_move_gives_a_minute_and_the_second_loses_the_game() {
    let app = spawn().await;
    let arb = app.token(&["arbiter"]).await;
    let (g, _, _) = games_in(
        &app,
        "swiss",
        Some("double_swiss"),
        "chess",
        rapid(),
        json!({}),
        1,
    )
    .await;
    let r = app
        .record_moves(&arb, g[0], json!({"san": ["e4", "e5"]}))
        .await;
    assert!(r.status.is_success(), "{}", r.text);
    let r = app
        .claim(
            &arb,
            g[0],
            json!({"kind": "illegal_move", "illegal_move": "Ke3"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["claimant"], "black", "{}", r.text);
    assert_eq!(r.body["valid"], true);
    assert_eq!(r.body["status"], "upheld");
    assert_eq!(
        r.body["check"]["consequence"],
        json!({"consequence": "extra_time", "to": "black", "seconds": 60})
    );
    assert_eq!(r.body["check"]["articles"], "FIDE Laws A.4.2 and 7.5.5");
    let s = state(&app, &arb, g[0]).await;
    assert_eq!(s["added_seconds"], json!([0, 60]));
    assert_eq!(s["to_move"], "white");
    assert_eq!(s["result"], Value::Null);
    assert_eq!(result_of(&app, g[0]).await, None);

    let r = app
        .record_moves(&arb, g[0], json!({"san": ["e4", "e5", "Ke2", "Nc6"]}))
        .await;
    assert!(r.status.is_success(), "{}", r.text);
    let r = app
        .claim(
            &arb,
            g[0],
            json!({"kind": "illegal_move", "illegal_move": "e2e4"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["status"], "upheld");
    assert_eq!(
        r.body["check"]["consequence"],
        json!({"consequence": "lost", "loser": "white"})
    );
    assert_eq!(
        r.body["outcome"],
        json!({"outcome": "win", "side": "black"})
    );
    assert_eq!(result_of(&app, g[0]).await.as_deref(), Some("0-1"));
}

/// 1.e4 e5 2.f3 Qh4+: 3.g3 parries the check — the claim is wrong, rejected, and nobody gets
/// time; 3.d3 leaves the king in check — upheld, a minute for Black (blitz: B.2, B.3).
#[actix_web::test]
async fn a_legal_move_claimed_illegal_is_rejected_without_extra_time() {
    let app = spawn().await;
    let arb = app.token(&["arbiter"]).await;
    let (g, _, _) = games_in(&app, "swiss", None, "chess", blitz(), json!({}), 1).await;
    let moves = json!({"san": ["e4", "e5", "f3", "Qh4+"]});
    let r = app
        .claim(
            &arb,
            g[0],
            json!({"kind": "illegal_move", "illegal_move": "g3", "moves": moves}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["status"], "rejected");
    assert_eq!(r.body["valid"], false);
    assert_eq!(r.body["check"]["legal_as"], "g3");
    assert_eq!(
        state(&app, &arb, g[0]).await["added_seconds"],
        json!([0, 0])
    );
    let r = app
        .claim(
            &arb,
            g[0],
            json!({"kind": "illegal_move", "illegal_move": "d3"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["status"], "upheld");
    assert_eq!(r.body["check"]["reason"], "leaves_king_in_check");
    assert_eq!(r.body["check"]["articles"], "FIDE Laws B.2, B.3 and 7.5.5");
    assert_eq!(
        state(&app, &arb, g[0]).await["added_seconds"],
        json!([0, 60])
    );
}

/// Moves entered as events without notation: the arbiter judges the claim (the clock pressed
/// without a move, say). Accepted, a minute for Black; the second, accepted with
/// `outcome: draw` because Black cannot checkmate: ½-½.
#[actix_web::test]
async fn without_the_moves_the_arbiter_decides_and_may_draw_the_second() {
    let app = spawn().await;
    let arb = app.token(&["arbiter"]).await;
    let (g, _, _) = games_in(
        &app,
        "swiss",
        Some("double_swiss"),
        "chess",
        rapid(),
        json!({}),
        1,
    )
    .await;
    for by in ["white", "black"] {
        let r = app
            .record_event(&arb, g[0], json!({"event": {"type": "move", "by": by}}))
            .await;
        assert!(r.status.is_success(), "{}", r.text);
    }
    let r = app.claim(&arb, g[0], json!({"kind": "illegal_move"})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["status"], "pending");
    assert_eq!(r.body["claimant"], "black");
    let claim = r.body["id"].as_i64().unwrap();
    let r = app
        .decide_claim(&arb, claim, json!({"decision": "postpone"}))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    // the draw is for a second illegal move only
    let r = app
        .decide_claim(
            &arb,
            claim,
            json!({"decision": "accept", "outcome": "draw"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "outcome");
    let r = app
        .decide_claim(&arb, claim, json!({"decision": "accept"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["status"], "upheld");
    assert_eq!(
        state(&app, &arb, g[0]).await["added_seconds"],
        json!([0, 60])
    );

    let r = app.claim(&arb, g[0], json!({"kind": "illegal_move"})).await;
    let claim = r.body["id"].as_i64().unwrap();
    let r = app
        .decide_claim(
            &arb,
            claim,
            json!({"decision": "accept", "outcome": "draw"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(result_of(&app, g[0]).await.as_deref(), Some("1/2-1/2"));
}

#[actix_web::test]
async fn an_illegal_move_claim_outside_rapid_and_blitz_or_badly_written_is_refused() {
    let app = spawn().await;
    let arb = app.token(&["arbiter"]).await;
    let (standard, _, _) =
        games_in(&app, "keizer", None, "chess", no_increment(), json!({}), 1).await;
    let (g, _, _) = games_in(&app, "swiss", None, "chess", blitz(), json!({}), 1).await;
    let before = app.counts().await;
    let refused = |game: i64, body: Value, field: &'static str| {
        let (app, arb) = (&app, &arb);
        async move {
            let r = app.claim(arb, game, body).await;
            assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
            assert_eq!(r.body["errors"][0]["field"], field, "{}", r.text);
        }
    };
    let moves = json!({"san": ["e4", "e5"]});
    // 60 minutes is a standard game: Article 7.5 is the arbiter's own
    refused(
        standard[0],
        json!({"kind": "illegal_move", "illegal_move": "Ke3", "moves": moves}),
        "kind",
    )
    .await;
    refused(
        g[0],
        json!({"kind": "illegal_move", "illegal_move": "hello", "moves": moves}),
        "illegal_move",
    )
    .await;
    refused(
        g[0],
        json!({"kind": "illegal_move", "illegal_move": "K".repeat(17), "moves": moves}),
        "illegal_move",
    )
    .await;
    refused(
        g[0],
        json!({"kind": "fifty_moves", "illegal_move": "Ke3", "moves": moves}),
        "illegal_move",
    )
    .await;
    assert_eq!(
        app.counts().await,
        before,
        "a refused claim changes nothing"
    );
}
