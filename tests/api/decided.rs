//! The arbiter's decisions are results (docs/rules/arbiter.md#results-and-corrections): an
//! upheld claim enters the result it gives in the same request, audited; a result against it
//! is refused until the board upholds an appeal against the decision. Expected values are
//! worked out by hand in the comments.

use crate::arbiter::{games_in, kndb_games, no_increment};
use crate::support::*;
use actix_web::http::StatusCode;
use clubcomp_core::test_store::schema::games;
use diesel::prelude::*;
use serde_json::{Value, json};

/// The stored result, termination and move count of a game.
async fn stored(app: &TestApp, game: i64) -> (Option<String>, Option<String>, Option<i32>) {
    app.with_conn(move |c| {
        games::table
            .find(game)
            .select((games::result, games::termination, games::move_count))
            .first(c)
            .unwrap()
    })
    .await
}

/// The game's audit trail, oldest first.
async fn audit_of(app: &TestApp, token: &str, game: i64) -> Vec<Value> {
    let r = app.get(&paths::game_audit(game), Some(token)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.body["items"].as_array().unwrap().clone()
}

#[actix_web::test]
async fn an_upheld_plusremise_claim_is_the_result_until_the_board_sets_it_aside() {
    let app = spawn().await;
    let arb = app.token(&["arbiter"]).await;
    let admin = app.token(&["admin"]).await;
    let g = kndb_games(&app).await;
    // White: men 46, 47, 48 and a king on 50 (3 + 2 = 5), Black: a king on 1 (2): three men
    // ahead after 50-45 1-6, White to move and claiming
    let body = json!({"kind": "draughts_lasting_advantage",
        "moves": {"pdn": "50-45 1-6", "start_fen": "W:W46,47,48,K50:BK1"}});
    let r = app.claim(&arb, g[0], body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["status"], "pending", "{}", r.text);
    let claim = r.body["id"].as_i64().unwrap();
    // pending: no result yet
    assert_eq!(stored(&app, g[0]).await.0, None);
    let r = app
        .decide_claim(&arb, claim, json!({"decision": "accept"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // the plusremise for White is the game's result: two half-moves are one move each
    assert_eq!(
        stored(&app, g[0]).await,
        (Some("1+-1-".into()), Some("claim".into()), Some(1))
    );
    let audit = audit_of(&app, &arb, g[0]).await;
    let entered: Vec<&Value> = audit
        .iter()
        .filter(|e| e["action"] == "result_entered")
        .collect();
    assert_eq!(entered.len(), 1, "{audit:?}");
    assert_eq!(
        entered[0]["reason"],
        format!("claim {claim} (draughts_lasting_advantage) upheld by the arbiter")
    );

    // a result against the decision is refused, naming the decision; nothing changes
    let r = app
        .enter_result(&arb, g[0], json!({"result": "2-0", "reason": "resigned"}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert!(
        r.text
            .contains(&format!("claim {claim} (draughts_lasting_advantage)")),
        "{}",
        r.text
    );
    assert_eq!(stored(&app, g[0]).await.0.as_deref(), Some("1+-1-"));

    // a dismissed appeal leaves the decision standing
    let r = app
        .post(
            &paths::claim_appeal(claim),
            Some(&arb),
            json!({"grounds": "the black king reaches the long diagonal"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let dismissed = r.body["id"].as_i64().unwrap();
    let r = app
        .post(
            &paths::appeal_decision(dismissed),
            Some(&admin),
            json!({"ruling": "dismissed"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app
        .enter_result(&arb, g[0], json!({"result": "1-1", "reason": "appeal"}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);

    // the board upholds the other player's appeal: the decision is set aside, and the
    // result is corrected the ordinary way
    let r = app
        .post(
            &paths::claim_appeal(claim),
            Some(&arb),
            json!({"grounds": "the advantage did not last"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let upheld = r.body["id"].as_i64().unwrap();
    let r = app
        .post(
            &paths::appeal_decision(upheld),
            Some(&admin),
            json!({"ruling": "upheld", "reason": "a fortress"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app
        .enter_result(
            &arb,
            g[0],
            json!({"result": "1-1", "reason": "the board upheld the appeal"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(stored(&app, g[0]).await.0.as_deref(), Some("1-1"));
}

#[actix_web::test]
async fn an_upheld_repetition_claim_is_a_draw_and_a_rejected_one_changes_no_result() {
    let app = spawn().await;
    let arb = app.token(&["arbiter"]).await;
    let (g, _, _) = games_in(&app, "keizer", None, "chess", no_increment(), json!({}), 2).await;
    // the knights go out and back twice: the starting position, White to move, stands for
    // the third time after eight half-moves (start, after 2. Ng1 Ng8, after 4. Ng1 Ng8)
    let twice = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"];
    let r = app
        .claim(
            &arb,
            g[0],
            json!({"kind": "threefold_repetition", "moves": {"san": twice}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["status"], "upheld", "{}", r.text);
    // FIDE 9.2: a draw, entered with the claim; four moves completed by both
    assert_eq!(
        stored(&app, g[0]).await,
        (Some("1/2-1/2".into()), Some("claim".into()), Some(4))
    );
    let r = app.enter_result(&arb, g[0], json!({"result": "1-0"})).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert!(r.text.contains("threefold_repetition"), "{}", r.text);

    // after four half-moves the position stands for the second time only: rejected, the
    // game goes on without a result
    let r = app
        .claim(
            &arb,
            g[1],
            json!({"kind": "threefold_repetition", "moves": {"san": &twice[..4]}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["status"], "rejected", "{}", r.text);
    assert_eq!(stored(&app, g[1]).await, (None, None, None));
    let r = app.enter_result(&arb, g[1], json!({"result": "1-0"})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}
