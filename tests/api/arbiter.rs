//! Arbiter tools through the API (docs/rules/arbiter.md#appeals, docs/rules/arbiter.md#draughts-claims, docs/rules/arbiter.md#quickplay-finish-fide-102): game events, moves, claims checked from
//! the moves, quickplay-finish refusals and decisions, appeals. Expected values are worked out
//! by hand in the comments.

use crate::support::*;
use actix_web::http::{Method, StatusCode};
use clubcomp::ids::{CompetitionId, PlayerId, RoundId, SeasonId};
use clubcomp_core::test_store::models::competition::{NewCompetition, NewGame, NewRound};
use clubcomp_core::test_store::models::players::NewPlayer;
use clubcomp_core::test_store::now_utc;
use clubcomp_core::test_store::schema::{
    appeals, audit_log, claims, competitions, game_events, game_moves, games, players, rounds,
    seasons, users,
};
use diesel::prelude::*;
use serde_json::{Value, json};

/// A competition of the given discipline with one round and `n` games between two players;
/// returns (game ids, white player id, black player id).
pub(crate) async fn games_in(
    app: &TestApp,
    kind: &str,
    system: Option<&str>,
    discipline: &str,
    time_control: Value,
    rules: Value,
    n: i32,
) -> (Vec<i64>, i64, i64) {
    let (kind, system, discipline) = (
        kind.to_string(),
        system.map(str::to_string),
        discipline.to_string(),
    );
    app.with_conn(move |c| {
        let now = now_utc();
        let season: i64 = diesel::insert_into(seasons::table)
            .values((
                seasons::name.eq(format!("s-{}", uuid::Uuid::new_v4().simple())),
                seasons::opening_date.eq(chrono::NaiveDate::from_ymd_opt(2026, 9, 4).unwrap()),
                seasons::created_at.eq(now),
            ))
            .returning(seasons::id)
            .get_result(c)
            .unwrap();
        let comp: i64 = diesel::insert_into(competitions::table)
            .values(&NewCompetition {
                season_id: SeasonId(season),
                name: "test".into(),
                kind,
                discipline,
                system,
                half: None,
                seeded_from: None,
                params: "{}".into(),
                tiebreaks: "[]".into(),
                time_control: time_control.to_string(),
                rules: rules.to_string(),
                rounds_planned: None,
                version: 1,
                created_at: now,
                updated_at: now,
            })
            .returning(competitions::id)
            .get_result(c)
            .unwrap();
        let round: i64 = diesel::insert_into(rounds::table)
            .values(&NewRound {
                competition_id: CompetitionId(comp),
                number: 1,
                evening_id: None,
                date: None,
                status: clubcomp_core::vocab::RoundStatus::Published,
                pairing_meta: None,
                version: 1,
                updated_at: now,
            })
            .returning(rounds::id)
            .get_result(c)
            .unwrap();
        let mut player = |name: &str| -> i64 {
            diesel::insert_into(players::table)
                .values(&NewPlayer {
                    name: name.into(),
                    knsb_number: None,
                    fide_id: None,
                    membership: "fixed".into(),
                    active: true,
                    email: None,
                    phone: None,
                    version: 1,
                    created_at: now,
                    updated_at: now,
                })
                .returning(players::id)
                .get_result(c)
                .unwrap()
        };
        let (w, b) = (player("White"), player("Black"));
        let ids = (1..=n)
            .map(|board| {
                diesel::insert_into(games::table)
                    .values(&NewGame {
                        round_id: RoundId(round),
                        board,
                        game_no: 1,
                        white_id: Some(PlayerId(w)),
                        black_id: Some(PlayerId(b)),
                        result: None,
                        termination: None,
                        move_count: None,
                        version: 1,
                        updated_at: now,
                    })
                    .returning(games::id)
                    .get_result(c)
                    .unwrap()
            })
            .collect();
        (ids, w, b)
    })
    .await
}

/// Rows in the arbiter tables and the audit log.
pub(crate) async fn arbiter_counts(app: &TestApp) -> Vec<i64> {
    app.with_conn(|c| {
        vec![
            game_events::table.count().get_result::<i64>(c).unwrap(),
            game_moves::table.count().get_result::<i64>(c).unwrap(),
            claims::table.count().get_result::<i64>(c).unwrap(),
            appeals::table.count().get_result::<i64>(c).unwrap(),
            audit_log::table.count().get_result::<i64>(c).unwrap(),
        ]
    })
    .await
}

/// Three games of a single round robin of draughts under the KNDB championship's clock
/// (120 minutes for 50 moves, 60 for 25, then the rest with 20 seconds a move from move 76).
pub(crate) async fn kndb_games(app: &TestApp) -> Vec<i64> {
    let clock = json!({"periods": [{"moves": 50, "minutes": 120}, {"moves": 25, "minutes": 60}, {"minutes": 0}],
                       "increment_seconds": 20, "increment_from_move": 76});
    let (g, _, _) = games_in(
        app,
        "round_robin",
        Some("single"),
        "draughts",
        clock,
        json!({}),
        3,
    )
    .await;
    g
}

pub(crate) fn no_increment() -> Value {
    json!({"periods": [{"minutes": 60}], "increment_seconds": 0, "increment_from_move": 1})
}

fn cited(occurrences: &Value) -> Vec<String> {
    occurrences
        .as_array()
        .unwrap()
        .iter()
        .map(|o| match o["after"].as_object() {
            None => "start".to_string(),
            Some(m) => format!(
                "{}{}{}",
                m["move_number"],
                if m["side"] == "white" { "." } else { "..." },
                m["notation"].as_str().unwrap()
            ),
        })
        .collect()
}

fn rule_of(r: &Resp) -> String {
    r.body["errors"][0]["message"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

#[actix_web::test]
async fn threefold_repetition_with_en_passant_and_castling_traps() {
    let app = spawn().await;
    let arb = app.token(&["arbiter"]).await;
    let (g, _, _) = games_in(&app, "keizer", None, "chess", no_increment(), json!({}), 3).await;

    // --- en passant trap (PGN). After 2...d5 White can take e.p. (exd6): that position
    // differs from the same board after 4...Nb8 and 6...Nb8, where no e.p. is possible.
    // After 6...Nb8 the position (White to move) stands for the 2nd time only: invalid.
    let pgn12 =
        "[Event \"club\"]\n1. e4 Nf6 2. e5 d5 3. Nf3 Nc6 4. Ng1 Nb8 5. Nf3 Nc6 6. Ng1 Nb8 *";
    let r = app.record_moves(&arb, g[0], json!({"pgn": pgn12})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["plies"], 12);
    let etag = r.header("etag").unwrap();
    let r = app
        .claim(&arb, g[0], json!({"kind": "threefold_repetition"}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["valid"], false);
    assert_eq!(r.body["status"], "rejected");
    assert_eq!(r.body["claimant"], "white");
    assert_eq!(r.body["check"]["kind"], "current_position");
    assert_eq!(r.body["check"]["occurrences"], 2);
    assert_eq!(cited(&r.body["check"]["earlier"]), vec!["4...Nb8"]);
    // FIDE 9.5.3: an incorrect claim gives the opponent two minutes
    assert_eq!(r.body["opponent_extra_seconds"], 120);
    // two more moves each: the third time (4...Nb8, 6...Nb8, 8...Nb8) — valid
    let pgn16 =
        "1. e4 Nf6 2. e5 d5 3. Nf3 Nc6 4. Ng1 Nb8 5. Nf3 Nc6 6. Ng1 Nb8 7. Nf3 Nc6 8. Ng1 Nb8";
    let stale = app
        .send(
            actix_web::test::TestRequest::put()
                .uri(&paths::moves(g[0]))
                .insert_header(("Authorization", format!("Bearer {arb}")))
                .insert_header(("If-Match", "\"moves-0-v9\""))
                .set_json(json!({"pgn": pgn16})),
        )
        .await;
    assert_eq!(
        stale.status,
        StatusCode::PRECONDITION_FAILED,
        "{}",
        stale.text
    );
    let r = app
        .send(
            actix_web::test::TestRequest::put()
                .uri(&paths::moves(g[0]))
                .insert_header(("Authorization", format!("Bearer {arb}")))
                .insert_header(("If-Match", etag))
                .set_json(json!({"pgn": pgn16})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        (r.body["plies"].clone(), r.body["version"].clone()),
        (json!(16), json!(2))
    );
    let r = app
        .claim(&arb, g[0], json!({"kind": "threefold_repetition"}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["valid"], true, "{}", r.text);
    assert_eq!(r.body["status"], "upheld");
    assert_eq!(r.body["outcome"], json!({"outcome": "draw"}));
    assert_eq!(r.body["check"]["occurrences"], 3);
    assert_eq!(
        cited(&r.body["check"]["earlier"]),
        vec!["4...Nb8", "6...Nb8"]
    );
    assert_eq!(cited(&json!([r.body["check"]["claimed"]])), vec!["8...Nb8"]);
    // the log holds the 16 moves, two claims and their decisions; the game is over
    let log = app.get(&paths::events(g[0]), Some(&arb)).await;
    assert_eq!(log.status, StatusCode::OK);
    assert_eq!(log.body["events"].as_array().unwrap().len(), 16 + 4);
    assert_eq!(log.body["state"]["result"], json!({"outcome": "draw"}));
    assert_eq!(log.body["state"]["added_seconds"], json!([0, 120]));
    let r = app
        .record_event(
            &arb,
            g[0],
            json!({"event": {"type": "time_added", "to": "white", "seconds": 60}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "game over: {}", r.text);

    // --- castling-rights trap (SAN). 1.Nf3 Nf6 2.Rg1 Rg8 3.Rh1 Rh8: the board after 3...Rh8
    // is the one after 1...Nf6, but neither side can castle kingside any more.
    // Claim (a) at move 5, Black declaring Nf6: the position after 5...Nf6 stood once before,
    // after 3...Rh8 (not after 1...Nf6, when the rights were intact): 2 times, invalid.
    let moves = [
        "Nf3", "Nf6", "Rg1", "Rg8", "Rh1", "Rh8", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3",
        "Nf6", "Ng1", "Ng8",
    ];
    let r = app
        .claim(
            &arb,
            g[1],
            json!({"kind": "threefold_repetition", "declared_move": "Nf6",
                   "moves": {"san": moves[..9]}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["claimant"], "black");
    assert_eq!(r.body["check"]["kind"], "after_declared_move");
    assert_eq!(r.body["valid"], false);
    assert_eq!(r.body["check"]["occurrences"], 2);
    assert_eq!(cited(&r.body["check"]["earlier"]), vec!["3...Rh8"]);
    assert_eq!(cited(&json!([r.body["check"]["claimed"]])), vec!["5...Nf6"]);
    // FIDE 9.5.3: the claim was rejected, and Black must now play the declared 5...Nf6; another
    // move is refused, as an event and in a record; nothing is stored
    let before = arbiter_counts(&app).await;
    let mut other: Vec<&str> = moves[..9].to_vec();
    other.push("Nc6");
    let r = app.record_moves(&arb, g[1], json!({"san": other})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(
        rule_of(&r).starts_with("rule declared_move_not_played"),
        "{}",
        r.text
    );
    let r = app
        .record_event(
            &arb,
            g[1],
            json!({"event": {"type": "move", "by": "black", "notation": "Nc6"}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(
        rule_of(&r).starts_with("rule declared_move_not_played"),
        "{}",
        r.text
    );
    assert_eq!(arbiter_counts(&app).await, before);
    // Claim (b) after 8...Ng8: the initial board with White to move stood at the start (with
    // all castling rights: a different position), after 4...Ng8, 6...Ng8 and now: 3 times.
    let r = app.record_moves(&arb, g[1], json!({"san": moves})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app
        .claim(&arb, g[1], json!({"kind": "threefold_repetition"}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["valid"], true, "{}", r.text);
    assert_eq!(
        cited(&r.body["check"]["earlier"]),
        vec!["4...Ng8", "6...Ng8"]
    );
    let claims = app.claims(&arb, g[1], "").await;
    assert_eq!(claims.status, StatusCode::OK, "{}", claims.text);
    let st: Vec<&str> = texts(&claims.body["items"], "status");
    assert_eq!(st, vec!["rejected", "upheld"]);
    assert_eq!(claims.body["total"], 2);
    // a page of one: the second claim is on page 2, and page 3 is past the end
    let first = claims.body["items"][0]["id"].as_i64().unwrap();
    let second = claims.body["items"][1]["id"].as_i64().unwrap();
    assert!(first < second);
    let r = app.claims(&arb, g[1], "per_page=1&page=2").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["items"].as_array().unwrap().len(), 1);
    assert_eq!(r.body["items"][0]["id"], second);
    assert_eq!(r.body["items"][0]["status"], "upheld");
    assert_eq!(
        (r.body["total"].clone(), r.body["page"].clone()),
        (json!(2), json!(2))
    );
    let link = r.header("link").unwrap();
    assert!(link.contains("per_page=1&page=1>; rel=\"prev\""), "{link}");
    assert!(!link.contains("rel=\"next\""), "{link}");
    let r = app.claims(&arb, g[1], "per_page=1&page=3").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["items"], json!([]));
    assert_eq!(r.body["total"], 2);
    // an unknown parameter and a page size out of range are refused by name
    let r = app.claims(&arb, g[1], "verdict_of=upheld").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    assert!(r.text.contains("verdict_of"), "{}", r.text);
    let r = app.claims(&arb, g[1], "per_page=201").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), ["per_page"]);
    // the rejected (a) claim of Black gave White two minutes
    assert_eq!(claims.body["items"][0]["opponent_extra_seconds"], 120);

    // --- claim (a) with the start position among the occurrences, and finality
    let r = app
        .claim(
            &arb,
            g[2],
            json!({"kind": "threefold_repetition", "declared_move": "Ng8",
                   "moves": {"san": ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["valid"], true);
    assert_eq!(cited(&r.body["check"]["earlier"]), vec!["start", "2...Ng8"]);
    let id = r.body["id"].as_i64().unwrap();
    let r = app
        .decide_claim(&arb, id, json!({"decision": "reject"}))
        .await;
    assert_eq!(
        r.status,
        StatusCode::CONFLICT,
        "a decided claim is final: {}",
        r.text
    );
}

/// KNDB championship: a lasting advantage of at least three men (a king counts as two) ends
/// the game in a plusremise, on the arbiter's judgement. A claim on a position three men ahead
/// waits for the arbiter; one that is not ahead is rejected at once.
#[actix_web::test]
async fn a_lasting_three_men_advantage_is_a_plusremise_when_the_arbiter_upholds_it() {
    let app = spawn().await;
    let arb = app.token(&["arbiter"]).await;
    let g = kndb_games(&app).await;
    let claim = |game: i64, fen: &str| {
        let body = json!({"kind": "draughts_lasting_advantage",
            "moves": {"pdn": "50-45 1-6", "start_fen": fen}});
        (paths::claims(game), body)
    };
    // White: men 46, 47, 48 and a king (3 + 2 = 5), Black: a king (2): three ahead
    let (url, body) = claim(g[0], "W:W46,47,48,K50:BK1");
    let r = app.post(&url, Some(&arb), body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["valid"], true);
    assert_eq!(r.body["status"], "pending", "{}", r.text);
    assert_eq!(r.body["claimant"], "white");
    assert_eq!(r.body["check"]["material"], json!([5, 2]));
    let id = r.body["id"].as_i64().unwrap();
    let r = app
        .decide_claim(
            &arb,
            id,
            json!({"decision": "accept", "note": "the black king cannot stop the three men"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["status"], "upheld");
    assert_eq!(
        r.body["outcome"],
        json!({"outcome": "plusremise", "side": "white"})
    );
    // the arbiter's decision is the game's result: 2-0 contradicts it (409, naming the
    // plusremise), 1+-1- is accepted
    let r = app.enter_result(&arb, g[0], json!({"result": "2-0"})).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert!(r.text.contains("1+-1-"), "{}", r.text);
    let r = app
        .enter_result(&arb, g[0], json!({"result": "1+-1-"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);

    // two men ahead only (4 against 2): rejected at once, the game goes on
    let (url, body) = claim(g[1], "W:W46,K50:BK1");
    let r = app.post(&url, Some(&arb), body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["valid"], false);
    assert_eq!(r.body["status"], "rejected");
    assert_eq!(r.body["check"]["material"], json!([3, 2]));

    // three ahead, but the arbiter judges the advantage not lasting: rejected, play on
    let (url, body) = claim(g[2], "W:W46,47,48,K50:BK1");
    let r = app.post(&url, Some(&arb), body).await;
    let id = r.body["id"].as_i64().unwrap();
    let r = app
        .decide_claim(&arb, id, json!({"decision": "reject"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["status"], "rejected");
    let r = app
        .record_event(
            &arb,
            g[2],
            json!({"event": {"type": "move", "by": "white", "notation": "45-50"}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
}

#[actix_web::test]
async fn draughts_game_ends_in_a_25_move_claim_and_proposals_follow_the_kndb_rules() {
    let app = spawn().await;
    let arb = app.token(&["arbiter"]).await;
    let g = kndb_games(&app).await;
    // White: men 46, 47, 48 and a king on 50; Black: a king on 1. The kings shuttle 50-45-50
    // and 1-6-1: no capture is ever possible (45 and 1 lie on one diagonal, but at its ends),
    // no man moves. Material: White 3 + 2 = 5, Black 2: three men ahead → plusremise White.
    let fen = "W:W46,47,48,K50:BK1";
    let cycle = ["50-45", "1-6", "45-50", "6-1"];
    let plies = |n: usize| -> String { (0..n).map(|i| cycle[i % 4]).collect::<Vec<_>>().join(" ") };
    // a chess claim in a draughts game is refused, nothing stored
    let before = arbiter_counts(&app).await;
    let r = app
        .claim(
            &arb,
            g[0],
            json!({"kind": "threefold_repetition", "moves": {"pdn": plies(4), "start_fen": fen}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "kind");
    // SAN moves for a draughts game: refused
    let r = app.record_moves(&arb, g[0], json!({"san": ["e4"]})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(arbiter_counts(&app).await, before);

    // after 24 moves each (48 half-moves) the claim is early: rejected, no time in draughts
    let r = app
        .claim(&arb, g[0], json!({"kind": "draughts_twenty_five_moves", "moves": {"pdn": plies(48), "start_fen": fen}}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["valid"], false);
    assert_eq!(r.body["status"], "rejected");
    assert_eq!(r.body["check"]["quiet_plies"], 48);
    assert_eq!(r.body["opponent_extra_seconds"], 0);
    // 25 moves each: valid, plusremise for White
    let r = app
        .record_moves(&arb, g[0], json!({"pdn": plies(50), "start_fen": fen}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["plies"], 50);
    let r = app
        .claim(&arb, g[0], json!({"kind": "draughts_twenty_five_moves"}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["valid"], true);
    assert_eq!(r.body["claimant"], "white");
    assert_eq!(r.body["check"]["quiet_plies"], 50);
    assert_eq!(r.body["check"]["material"], json!([5, 2]));
    assert_eq!(
        r.body["outcome"],
        json!({"outcome": "plusremise", "side": "white"})
    );

    // --- proposals (game 2): made right after one's own move; cannot be withdrawn; a
    // rejected proposer may not repeat it until the opponent has made that same proposal.
    let ev = |e: Value| json!({"event": e});
    let ok = [
        json!({"type": "move", "by": "white", "notation": "32-28"}),
        json!({"type": "proposal", "by": "white", "kind": "plusremise"}),
        json!({"type": "reject", "by": "black"}),
        json!({"type": "move", "by": "black", "notation": "19-23"}),
        json!({"type": "move", "by": "white"}),
    ];
    for e in ok {
        let r = app.record_event(&arb, g[1], ev(e)).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    }
    let before = arbiter_counts(&app).await;
    let r = app
        .record_event(
            &arb,
            g[1],
            ev(json!({"type": "proposal", "by": "white", "kind": "plusremise"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(
        rule_of(&r).starts_with("rule repeated_rejected_proposal"),
        "{}",
        r.text
    );
    let r = app
        .record_event(&arb, g[1], ev(json!({"type": "draw_offer", "by": "white"})))
        .await;
    assert!(rule_of(&r).starts_with("rule wrong_game"), "{}", r.text);
    assert_eq!(
        arbiter_counts(&app).await,
        before,
        "refused events store nothing"
    );
    // a draw proposal is allowed; it cannot be withdrawn; accepted before 40 moves: 0-0
    let r = app
        .record_event(
            &arb,
            g[1],
            ev(json!({"type": "proposal", "by": "white", "kind": "draw"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let r = app
        .record_event(&arb, g[1], ev(json!({"type": "withdraw", "by": "white"})))
        .await;
    assert!(
        rule_of(&r).starts_with("rule cannot_withdraw"),
        "{}",
        r.text
    );
    let r = app
        .record_event(&arb, g[1], ev(json!({"type": "accept", "by": "black"})))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["state"]["result"], json!({"outcome": "both_lost"}));
    assert_eq!(r.body["event"]["seq"], 6);
    // the agreement before 40 moves is 0-0 for both (KNDB): an agreed 1-1 "after 52 moves"
    // contradicts the log, and so does a move count the log's moves do not have
    let r = app
        .enter_result(
            &arb,
            g[1],
            json!({"result": "1-1", "termination": "agreed", "move_count": 52}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert!(r.text.contains("0-0"), "{}", r.text);
    let r = app
        .enter_result(&arb, g[1], json!({"result": "0-0", "move_count": 52}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert!(r.text.contains("move_count 52"), "{}", r.text);
    // three half-moves in the log (32-28, 19-23, a white move): one move completed by both
    let r = app
        .enter_result(&arb, g[1], json!({"result": "0-0", "move_count": 1}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // every appended event is audited
    let n = app
        .with_conn(|c| {
            audit_log::table
                .filter(audit_log::action.eq("event_added"))
                .count()
                .get_result::<i64>(c)
                .unwrap()
        })
        .await;
    assert_eq!(n, 7);

    // --- a proposal not made right after one's own move (game 3): irregular but valid, the
    // opponent may accept it (KNDB)
    let r = app
        .record_event(&arb, g[2], ev(json!({"type": "move", "by": "white"})))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let r = app
        .record_event(
            &arb,
            g[2],
            ev(json!({"type": "proposal", "by": "black", "kind": "draw"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["state"]["pending"]["by"], "black");
    assert_eq!(r.body["state"]["pending"]["regular"], false, "{}", r.text);
    let r = app
        .record_event(&arb, g[2], ev(json!({"type": "accept", "by": "white"})))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["state"]["result"], json!({"outcome": "both_lost"}));
}

#[actix_web::test]
async fn quickplay_finish_refusals_decisions_and_finality() {
    let app = spawn().await;
    let arb = app.token(&["arbiter"]).await;
    let (g, _, _) = games_in(
        &app,
        "keizer",
        None,
        "chess",
        no_increment(),
        json!({"quickplay_finish": true}),
        3,
    )
    .await;
    let (rapid, _, _) = games_in(
        &app,
        "swiss",
        Some("double_swiss"),
        "chess",
        json!({"periods": [{"minutes": 25}]}),
        json!({"quickplay_finish": false}),
        1,
    )
    .await;
    let (inc, _, _) = games_in(&app, "keizer", None, "chess",
        json!({"periods": [{"moves": 40, "minutes": 90}, {"minutes": 30}], "increment_seconds": 30, "increment_from_move": 1}),
        json!({"quickplay_finish": true}), 1).await;
    let claim = |ms: u64| json!({"kind": "quickplay_finish", "claimant": "white", "remaining_ms": ms, "move_number": 30});
    let before = arbiter_counts(&app).await;
    // a move number out of range is refused before anything is built from it (a game without
    // moves would get that many anonymous moves: 2^31 of them ran the process out of memory)
    for n in [0_u64, 1001, 2_147_483_647, 4_294_967_295] {
        let mut c = claim(60_000);
        c["move_number"] = json!(n);
        let r = app.claim(&arb, g[0], c).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{n}: {}",
            r.text
        );
        assert_eq!(r.body["errors"][0]["field"], "move_number", "{}", r.text);
    }
    for (game, ms, refusal) in [
        (g[0], 120_000, "not_under_two_minutes"),
        (rapid[0], 60_000, "rule_not_applied"),
        (inc[0], 60_000, "final_period_has_increment"),
    ] {
        let r = app.claim(&arb, game, claim(ms)).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
        assert!(rule_of(&r).contains(refusal), "{refusal}: {}", r.text);
    }
    assert_eq!(
        arbiter_counts(&app).await,
        before,
        "refused claims store nothing"
    );

    // postponed with two minutes for the opponent, later accepted; then final
    let r = app.claim(&arb, g[0], claim(90_000)).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["status"], "pending");
    assert_eq!(r.body["valid"], Value::Null);
    let id = r.body["id"].as_i64().unwrap();
    // while the claim waits no move can be recorded
    let r = app
        .record_event(
            &arb,
            g[0],
            json!({"event": {"type": "move", "by": "white"}}),
        )
        .await;
    assert!(
        rule_of(&r).starts_with("rule claim_awaiting_decision"),
        "{}",
        r.text
    );
    let decide = |d: Value| {
        let app = &app;
        let arb = arb.clone();
        async move { app.decide_claim(&arb, id, d).await }
    };
    let r = decide(json!({"decision": "postpone", "opponent_two_minutes": true})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        (
            r.body["status"].clone(),
            r.body["opponent_extra_seconds"].clone()
        ),
        (json!("postponed"), json!(120))
    );
    let r = decide(json!({"decision": "postpone"})).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "postponed once: {}", r.text);
    let r = decide(json!({"decision": "accept"})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        (
            r.body["status"].clone(),
            r.body["opponent_extra_seconds"].clone()
        ),
        (json!("upheld"), json!(120))
    );
    assert_eq!(r.body["outcome"], json!({"outcome": "draw"}));
    for d in [json!({"decision": "reject"}), json!({"decision": "accept"})] {
        assert_eq!(decide(d).await.status, StatusCode::CONFLICT);
    }

    // rejected at once: Black (the opponent) gets two minutes, recorded in the log
    let r = app
        .claim(
            &arb,
            g[1],
            json!({"kind": "quickplay_finish", "claimant": "white", "remaining_ms": 100_000,
                     "move_number": 45, "decision": {"decision": "reject"}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(
        (
            r.body["status"].clone(),
            r.body["opponent_extra_seconds"].clone()
        ),
        (json!("rejected"), json!(120))
    );
    let log = app.get(&paths::events(g[1]), Some(&arb)).await;
    // 44 moves each were placed before White's 45th move, then the claim and the decision
    assert_eq!(log.body["events"].as_array().unwrap().len(), 88 + 2);
    assert_eq!(log.body["state"]["added_seconds"], json!([0, 120]));
    assert_eq!(log.body["state"]["result"], Value::Null);
    let r = app
        .decide_claim(&arb, &r.body["id"], json!({"decision": "accept"}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);

    // roles and bad input
    let member = app.token(&["member"]).await;
    let r = app.claim(&member, g[2], claim(1000)).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = app.post(&paths::claims(g[2]), None, claim(1000)).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    let before = arbiter_counts(&app).await;
    for bad in [
        json!({"kind": "quickplay_finish", "claimant": "white"}),
        json!({"kind": "quickplay_finish", "claimant": "green", "remaining_ms": 1000}),
        json!({"kind": "threefold_repetition"}),
        json!({"kind": "threefold_repetition", "remaining_ms": 5}),
        json!({"kind": "threefold_repetition", "moves": {"san": ["e4", "e5", "Ke3"]}}),
        json!({"kind": "nonsense"}),
    ] {
        let r = app.claim(&arb, g[2], bad.clone()).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{bad}: {}",
            r.text
        );
    }
    let r = app.claim(&arb, 999999, claim(1000)).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(arbiter_counts(&app).await, before);
}

#[actix_web::test]
async fn appeals_within_eight_days_decided_once_by_the_board() {
    let app = spawn().await;
    let arb = app.token(&["arbiter"]).await;
    let admin = app.token(&["admin"]).await;
    let (g, white, _) = games_in(&app, "keizer", None, "chess", no_increment(), json!({}), 1).await;
    let r = app
        .claim(
            &arb,
            g[0],
            json!({"kind": "quickplay_finish", "claimant": "white", "remaining_ms": 100_000,
                     "decision": {"decision": "reject"}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let claim = r.body["id"].as_i64().unwrap();
    let r = app
        .record_event(&arb, g[0], json!({"event": {"type": "time_added", "to": "white", "seconds": 60}, "note": "clock fault"}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let time_event = r.body["event"]["id"].as_i64().unwrap();
    let first_event = app.get(&paths::events(g[0]), Some(&arb)).await.body["events"][0]["id"]
        .as_i64()
        .unwrap();

    // a member appeals only in their own game
    let stranger = app.token(&["member"]).await;
    let r = app
        .post(
            &paths::claim_appeal(claim),
            Some(&stranger),
            json!({"grounds": "unfair"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text);
    let player = app.token(&["member"]).await;
    app.with_conn(move |c| {
        // the newest member account is the white player's
        let id: i64 = users::table
            .select(diesel::dsl::max(users::id))
            .first::<Option<i64>>(c)
            .unwrap()
            .unwrap();
        diesel::update(users::table.find(id))
            .set(users::player_id.eq(Some(white)))
            .execute(c)
            .unwrap();
    })
    .await;
    let before = arbiter_counts(&app).await;
    for bad in [
        json!({"grounds": "  "}),
        json!({"grounds": "x", "in_writing": false}),
        json!({}),
    ] {
        let r = app
            .post(&paths::claim_appeal(claim), Some(&player), bad.clone())
            .await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{bad}: {}",
            r.text
        );
    }
    // the claim event itself is not an arbiter's decision
    let r = app
        .post(
            &paths::event_appeal(first_event),
            Some(&arb),
            json!({"grounds": "x"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(arbiter_counts(&app).await, before);

    let r = app
        .post(
            &paths::claim_appeal(claim),
            Some(&player),
            json!({"grounds": "I had 1:40 left and no way to lose"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let appeal = r.body["id"].as_i64().unwrap();
    assert_eq!(r.body["claim_id"], claim);
    let r = app
        .post(
            &paths::event_appeal(time_event),
            Some(&arb),
            json!({"grounds": "too little time"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);

    // the board decides once
    let r = app
        .post(
            &paths::appeal_decision(appeal),
            Some(&arb),
            json!({"ruling": "upheld"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = app
        .post(
            &paths::appeal_decision(appeal),
            Some(&admin),
            json!({"ruling": "dismissed", "reason": "the position was lost"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["ruling"], "dismissed");
    let r = app
        .post(
            &paths::appeal_decision(appeal),
            Some(&admin),
            json!({"ruling": "upheld"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    let list = app.appeals(&arb, g[0], "").await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    assert_eq!(list.body["items"].as_array().unwrap().len(), 2);
    assert_eq!(list.body["total"], 2);
    // oldest first, a page at a time: the appeal against the claim, then the one against the
    // time added; past the end is an empty page
    let r = app.appeals(&arb, g[0], "per_page=1").await;
    assert_eq!(r.body["items"][0]["id"], appeal, "{}", r.text);
    assert_eq!(r.body["items"][0]["claim_id"], claim);
    let link = r.header("link").unwrap();
    assert!(link.contains("per_page=1&page=2>; rel=\"next\""), "{link}");
    let r = app.appeals(&arb, g[0], "per_page=1&page=2").await;
    assert_eq!(r.body["items"][0]["event_id"], time_event, "{}", r.text);
    let r = app.appeals(&arb, g[0], "page=2").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["items"], json!([]));
    assert_eq!(r.body["total"], 2);
    let r = app.appeals(&arb, g[0], "page=0").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), ["page"]);
    let r = app.appeals(&arb, g[0], "ruled_as=upheld").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    assert!(r.text.contains("ruled_as"), "{}", r.text);

    // 9 days after the decision is too late (8 calendar days in Amsterdam)
    app.with_conn(move |c| {
        diesel::update(claims::table.find(claim))
            .set(claims::decided_at.eq(Some(now_utc() - chrono::Duration::days(9))))
            .execute(c)
            .unwrap();
    })
    .await;
    let before = arbiter_counts(&app).await;
    let r = app
        .post(
            &paths::claim_appeal(claim),
            Some(&player),
            json!({"grounds": "again"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(rule_of(&r).starts_with("too_late"), "{}", r.text);
    assert_eq!(arbiter_counts(&app).await, before);
}

#[actix_web::test]
async fn concurrent_appends_lose_no_event() {
    let app = spawn().await;
    let arb = app.token(&["arbiter"]).await;
    let (g, _, _) = games_in(&app, "keizer", None, "chess", no_increment(), json!({}), 1).await;
    let path = paths::events(g[0]);
    let sends = (1..=6).map(|i| {
        app.record_event(
            &arb,
            g[0],
            json!({"event": {"type": "time_added", "to": "black", "seconds": i * 10}}),
        )
    });
    let results = futures_util::future::join_all(sends).await;
    for r in &results {
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    }
    let log = app.get(&path, Some(&arb)).await;
    let seqs: Vec<i64> = ints(&log.body["events"], "seq");
    assert_eq!(seqs, vec![0, 1, 2, 3, 4, 5]);
    // 10 + 20 + ... + 60 = 210 seconds for Black
    assert_eq!(log.body["state"]["added_seconds"], json!([0, 210]));
}

#[actix_web::test]
async fn fifty_move_claim_counts_the_start_fen_clock() {
    let app = spawn().await;
    let arb = app.token(&["arbiter"]).await;
    let (g, _, _) = games_in(&app, "keizer", None, "chess", no_increment(), json!({}), 1).await;
    // rook and king against king; the FEN's half-move clock is 96: two more moves each
    // make 100 half-moves without pawn move or capture (FIDE 9.3: 50 moves by each player)
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 96 60";
    let claim =
        |san: Vec<&str>| json!({"kind": "fifty_moves", "moves": {"san": san, "start_fen": fen}});
    let r = app.claim(&arb, g[0], claim(vec!["Ra2", "Kd8"])).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(
        (
            r.body["valid"].clone(),
            r.body["check"]["quiet_plies"].clone()
        ),
        (json!(false), json!(98))
    );
    let r = app
        .claim(&arb, g[0], claim(vec!["Ra2", "Kd8", "Ra1", "Ke8"]))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(
        (
            r.body["valid"].clone(),
            r.body["check"]["quiet_plies"].clone()
        ),
        (json!(true), json!(100))
    );
    assert_eq!(r.body["status"], "upheld");
}

/// `n` half-moves of knights going out and back (legal for ever; the start position stands
/// again after every fourth).
fn knight_shuffle(n: usize) -> Vec<String> {
    ["Nf3", "Nf6", "Ng1", "Ng8"]
        .iter()
        .cycle()
        .take(n)
        .map(|s| s.to_string())
        .collect()
}

#[actix_web::test]
async fn move_records_hold_at_most_2000_half_moves() {
    // the default body limit (8 MiB), above the movetext limit
    let app = spawn_with(|c| c.max_body_bytes = 8 << 20).await;
    let arb = app.token(&["arbiter"]).await;
    let (g, _, _) = games_in(&app, "keizer", None, "chess", no_increment(), json!({}), 1).await;
    let moves = paths::moves(g[0]);
    let claims = paths::claims(g[0]);
    let before = arbiter_counts(&app).await;
    let refused = |r: &Resp, field: &str, limit: &str| {
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
        assert_eq!(r.body["errors"][0]["field"], field, "{}", r.text);
        assert!(rule_of(r).contains(limit), "{}", r.text);
    };

    // one half-move over the limit, as a SAN list, as PGN, and sent with a claim
    let r = app
        .req(
            Method::PUT,
            &moves,
            Some(&arb),
            Some(json!({"san": knight_shuffle(2001)})),
        )
        .await;
    refused(&r, "san", "2000");
    let pgn = knight_shuffle(2001)
        .chunks(2)
        .enumerate()
        .map(|(i, p)| format!("{}. {}", i + 1, p.join(" ")))
        .collect::<Vec<_>>()
        .join(" ");
    let r = app
        .req(Method::PUT, &moves, Some(&arb), Some(json!({"pgn": pgn})))
        .await;
    refused(&r, "moves", "2000");
    let r = app
        .post(
            &claims,
            Some(&arb),
            json!({"kind": "threefold_repetition", "moves": {"san": knight_shuffle(2001)}}),
        )
        .await;
    refused(&r, "san", "2000");
    // movetext over 128 KiB is refused before it is read
    let long = format!("1. Nf3 {{{}}} Nf6", "x".repeat(128 * 1024));
    let r = app
        .req(Method::PUT, &moves, Some(&arb), Some(json!({"pgn": long})))
        .await;
    refused(&r, "pgn", "131072");
    assert_eq!(arbiter_counts(&app).await, before);

    // the longest record is stored, and a claim on it brings the log up to its 2000 moves:
    // the start position stands for the 501st time (after plies 0, 4, ..., 2000)
    let r = app
        .req(
            Method::PUT,
            &moves,
            Some(&arb),
            Some(json!({"san": knight_shuffle(2000)})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["plies"], 2000);
    let r = app
        .post(&claims, Some(&arb), json!({"kind": "threefold_repetition"}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["valid"], true);
    assert_eq!(r.body["check"]["occurrences"], 501);
    let log = app.get(&paths::events(g[0]), Some(&arb)).await;
    assert_eq!(log.body["events"].as_array().map(Vec::len), Some(2002));
    assert_eq!(log.body["state"]["moves"], json!([1000, 1000]));
}

#[actix_web::test]
async fn a_game_log_holds_at_most_4000_events() {
    let app = spawn().await;
    let arb = app.token(&["arbiter"]).await;
    let (g, _, _) = games_in(&app, "keizer", None, "chess", no_increment(), json!({}), 1).await;
    let game = g[0];
    // 3999 events already stored (time added to White, one second each)
    app.with_conn(move |c| {
        let at = now_utc();
        c.transaction::<_, diesel::result::Error, _>(|c| {
            for seq in 0..3999 {
                diesel::insert_into(game_events::table)
                    .values((
                        game_events::game_id.eq(game),
                        game_events::seq.eq(seq),
                        game_events::event.eq(r#"{"type":"time_added","to":"white","seconds":1}"#),
                        game_events::actor.eq("test"),
                        game_events::at.eq(at),
                    ))
                    .execute(c)?;
            }
            Ok(())
        })
        .unwrap();
    })
    .await;
    let add = json!({"event": {"type": "time_added", "to": "black", "seconds": 30}});
    let r = app.record_event(&arb, game, add.clone()).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["state"]["added_seconds"], json!([3999, 30]));
    let before = arbiter_counts(&app).await;
    let r = app.record_event(&arb, game, add).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "event");
    assert!(rule_of(&r).contains("4000"), "{}", r.text);
    assert_eq!(arbiter_counts(&app).await, before);
}
