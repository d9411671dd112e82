//! One record of a game's moves (docs/rules/arbiter.md#the-moves-of-a-game): the stored
//! record and the move events of the log are one game; a claim reads them together, and a
//! write that would make them disagree is refused. Expected values are worked out by hand in
//! the comments.

use crate::arbiter::{arbiter_counts, games_in, no_increment};
use crate::support::*;
use actix_web::http::StatusCode;
use serde_json::{Value, json};

/// The knights out and back: `Nf3 Nf6 Ng1 Ng8 Nf3 …`, `n` half-moves.
fn shuffle(n: usize) -> Vec<String> {
    ["Nf3", "Nf6", "Ng1", "Ng8"]
        .iter()
        .cycle()
        .take(n)
        .map(|s| s.to_string())
        .collect()
}

async fn log_moves(app: &TestApp, arb: &str, game: i64, moves: &[String]) {
    for (i, m) in moves.iter().enumerate() {
        let by = if i % 2 == 0 { "white" } else { "black" };
        let r = app
            .record_event(
                arb,
                game,
                json!({"event": {"type": "move", "by": by, "notation": m}}),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{m}: {}", r.text);
    }
}

fn cited(earlier: &Value) -> Vec<String> {
    earlier
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            let m = &o["after"];
            let dots = if m["side"] == "white" { "." } else { "..." };
            format!(
                "{}{dots}{}",
                m["move_number"],
                m["notation"].as_str().unwrap()
            )
        })
        .collect()
}

#[actix_web::test]
async fn a_claim_reads_the_record_continued_by_the_logged_moves() {
    let app = spawn().await;
    let arb = app.token(&["arbiter"]).await;
    let (g, _, _) = games_in(&app, "keizer", None, "chess", no_increment(), json!({}), 1).await;
    // the record holds nine half-moves (to 5. Nf3); the log all thirteen (to 7. Nf3)
    let r = app
        .record_moves(&arb, g[0], json!({"san": shuffle(9)}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    log_moves(&app, &arb, g[0], &shuffle(13)).await;
    // Black to move after 7. Nf3: the position after 1. Nf3 stands for the fourth time
    // (after 1. Nf3, 3. Nf3, 5. Nf3 and 7. Nf3), so Black's claim (b) is right
    let r = app
        .claim(&arb, g[0], json!({"kind": "threefold_repetition"}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["claimant"], "black", "{}", r.text);
    assert_eq!(r.body["valid"], true, "{}", r.text);
    assert_eq!(r.body["check"]["occurrences"], 4, "{}", r.text);
    assert_eq!(
        cited(&r.body["check"]["earlier"]),
        ["1.Nf3", "3.Nf3", "5.Nf3"]
    );
}

#[actix_web::test]
async fn the_log_and_the_record_cannot_disagree() {
    let app = spawn().await;
    let arb = app.token(&["arbiter"]).await;
    let (g, _, _) = games_in(&app, "keizer", None, "chess", no_increment(), json!({}), 3).await;
    // the record says 1. Nf3; a move event 1. Nc3 is another game: refused, nothing stored
    let r = app
        .record_moves(&arb, g[0], json!({"san": shuffle(2)}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let before = arbiter_counts(&app).await;
    let r = app
        .record_event(
            &arb,
            g[0],
            json!({"event": {"type": "move", "by": "white", "notation": "Nc3"}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert!(r.text.contains("half-move 1 is Nc3"), "{}", r.text);
    assert_eq!(arbiter_counts(&app).await, before);
    // the same move written another way (`Ngf3`) is the record's move
    let r = app
        .record_event(
            &arb,
            g[0],
            json!({"event": {"type": "move", "by": "white", "notation": "Ngf3"}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);

    // the log says 1. Nf3 Nf6; a record 1. Nf3 Nc6 is refused
    log_moves(&app, &arb, g[1], &shuffle(2)).await;
    let r = app
        .record_moves(&arb, g[1], json!({"san": ["Nf3", "Nc6", "Ng1"]}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert!(r.text.contains("half-move 2"), "{}", r.text);

    // a move logged without notation past the record cannot be read by a claim: 422 naming it
    let r = app
        .record_moves(&arb, g[2], json!({"san": shuffle(4)}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    log_moves(&app, &arb, g[2], &shuffle(4)).await;
    let r = app
        .record_event(
            &arb,
            g[2],
            json!({"event": {"type": "move", "by": "white"}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let r = app
        .claim(&arb, g[2], json!({"kind": "threefold_repetition"}))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(r.text.contains("half-move 5"), "{}", r.text);
}

#[actix_web::test]
async fn a_move_count_counts_the_one_record() {
    let app = spawn().await;
    let arb = app.token(&["arbiter"]).await;
    let (g, _, _) = games_in(&app, "keizer", None, "chess", no_increment(), json!({}), 1).await;
    // nine half-moves recorded, three of them also logged: four moves completed by both
    let r = app
        .record_moves(&arb, g[0], json!({"san": shuffle(9)}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    log_moves(&app, &arb, g[0], &shuffle(3)).await;
    let r = app
        .enter_result(&arb, g[0], json!({"result": "1-0", "move_count": 1}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    let r = app
        .enter_result(&arb, g[0], json!({"result": "1-0", "move_count": 4}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

/// FIDE 9.5.3, the declared move compared as a move: the log holds 1. Nf3 Nf6 2. Ng1 Ng8 3.
/// Nf3, Black to move. Black claims (a) declaring `Nf6`: the position after 3... Nf6 would
/// stand for the second time only (after 1... Nf6), so the claim is rejected and Black must
/// play the declared move. `Nc6` is another move and refused; `Ngf6` is the same move (the
/// knight from g8; the one on b8 cannot reach f6) written otherwise, and is taken.
#[actix_web::test]
async fn the_declared_move_may_be_written_another_way() {
    let app = spawn().await;
    let arb = app.token(&["arbiter"]).await;
    let (g, _, _) = games_in(&app, "keizer", None, "chess", no_increment(), json!({}), 1).await;
    log_moves(&app, &arb, g[0], &shuffle(5)).await;
    let r = app
        .claim(
            &arb,
            g[0],
            json!({"kind": "threefold_repetition", "declared_move": "Nf6"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["claimant"], "black", "{}", r.text);
    assert_eq!(r.body["valid"], false, "{}", r.text);
    assert_eq!(r.body["check"]["occurrences"], 2, "{}", r.text);
    let before = arbiter_counts(&app).await;
    let black = |m: &str| json!({"event": {"type": "move", "by": "black", "notation": m}});
    let r = app.record_event(&arb, g[0], black("Nc6")).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(r.text.contains("declared_move_not_played"), "{}", r.text);
    assert_eq!(arbiter_counts(&app).await, before);
    let r = app.record_event(&arb, g[0], black("Ngf6")).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
}
