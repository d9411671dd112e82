//! Results reported by the two players of a game (docs/rules/arbiter.md#results-reported-by-the-players):
//! two agreeing reports enter the result, two different ones leave the game disputed for the
//! arbiter, whose entry always wins. Every refusal names why and stores nothing.

use crate::support::*;
use actix_web::http::StatusCode;
use clubcomp_core::test_store::models::events::{self, Filter, Visibility};
use serde_json::{Value, json};

/// A Friday far ahead: the first evening of a season opening then.
const FRIDAY: &str = "2099-09-04";

/// One game of the published round: its id and its two players.
#[derive(Debug, Clone, Copy)]
struct G {
    id: i64,
    white: i64,
    black: i64,
}

struct Rapid {
    leader: String,
    arbiter: String,
    comp: i64,
    evening: i64,
    /// The games by board and game number: board 1 games 1 and 2, board 2 games 1 and 2.
    games: Vec<G>,
    /// The four players A–D.
    players: Vec<i64>,
}

/// A rapid (Double-Swiss) of members A–D whose round 1, on the season's first evening, is
/// paired and published: two boards of two games each.
async fn rapid(app: &TestApp) -> Rapid {
    let Club { leader, arbiter } = ClubBuilder::new().build(app).await;
    let season = SeasonBuilder::new()
        .name("Seizoen 2099-2100")
        .opening_date(FRIDAY)
        .create(app, &leader)
        .await;
    let r = app.generate_calendar(&leader, season, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let evening = ints(&r.body, "id")[0];
    let fx = CompetitionBuilder::swiss("double_swiss")
        .set("name", "Rapid")
        .in_season(season)
        .members_of("fixed", &["A", "B", "C", "D"])
        .create(app, &leader)
        .await;
    let r = app
        .create_round(&leader, fx.comp, json!({ "evening_id": evening }))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    check_in_all(app, &arbiter, fx.comp, 1, &fx.players).await;
    let r = app.generate_pairing(&leader, fx.comp, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let r = app.publish_round(&leader, fx.comp, 1).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let mut games: Vec<(i64, i64, G)> = r.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["board"].as_i64().unwrap(),
                g["game_no"].as_i64().unwrap(),
                G {
                    id: g["id"].as_i64().unwrap(),
                    white: g["white"]["id"].as_i64().unwrap(),
                    black: g["black"]["id"].as_i64().unwrap(),
                },
            )
        })
        .collect();
    games.sort_by_key(|(b, n, _)| (*b, *n));
    assert_eq!(
        games.iter().map(|(b, n, _)| (*b, *n)).collect::<Vec<_>>(),
        [(1, 1), (1, 2), (2, 1), (2, 2)],
        "a Double-Swiss pairs two games a board"
    );
    Rapid {
        leader,
        arbiter,
        comp: fx.comp,
        evening,
        games: games.into_iter().map(|(_, _, g)| g).collect(),
        players: fx.players,
    }
}

async fn report(app: &TestApp, token: &str, game: i64, result: &str) -> Resp {
    app.post(
        &format!("/api/v1/games/{game}/report"),
        Some(token),
        json!({ "result": result }),
    )
    .await
}

/// The board of game `id` in the evening read model, as `token` (none: anonymous) reads it.
async fn board(app: &TestApp, token: Option<&str>, evening: i64, id: i64) -> Value {
    let r = app.evening(token, evening).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.body["rounds"][0]["boards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["game_id"] == id)
        .cloned()
        .unwrap()
}

/// The boards the evening's page marks disputed, by the game of their report link.
async fn disputed_on_page(app: &TestApp, evening: i64) -> Vec<i64> {
    let r = app
        .send(actix_web::test::TestRequest::get().uri(&format!("/club/evenings/{evening}")))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.text
        .split("<tr class=\"board\">")
        .skip(1)
        .map(|row| &row[..row.find("</tbody>").unwrap_or(row.len())])
        .filter(|row| {
            row.contains("<span class=\"pending disputed\">betwist, de arbiter beslist</span>")
        })
        .map(|row| {
            let link = &row[row.find("/club/games/").unwrap() + 12..];
            link[..link.find('/').unwrap()].parse().unwrap()
        })
        .collect()
}

/// The stored reports.
async fn stored(app: &TestApp) -> i64 {
    app.with_conn(|c| {
        use clubcomp_core::test_store::schema::game_reports;
        use diesel::prelude::*;
        game_reports::table.count().get_result(c).unwrap()
    })
    .await
}

#[actix_web::test]
async fn two_players_reporting_one_nil_enter_it_audited_with_both() {
    let app = spawn().await;
    let n = rapid(&app).await;
    let g = n.games[0];
    let (tw, tb) = (
        app.member_token(g.white).await,
        app.member_token(g.black).await,
    );

    let r = report(&app, &tw, g.id, "1-0").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        r.body,
        json!({"game_id": g.id, "reported": "1-0", "outcome": "waiting", "result": null})
    );
    // one report enters nothing; the public sees no report, the staff see who said what
    let anon = board(&app, None, n.evening, g.id).await;
    assert_eq!(anon["result"], Value::Null);
    assert_eq!(anon["disputed"], false);
    assert!(anon.get("reports").is_none(), "{anon}");
    let staff = board(&app, Some(&n.arbiter), n.evening, g.id).await;
    assert_eq!(
        staff["reports"],
        json!([{"player_id": g.white, "result": "1-0"}])
    );

    let r = report(&app, &tb, g.id, "1-0").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["outcome"], "entered");
    assert_eq!(r.body["result"], "1-0");
    let anon = board(&app, None, n.evening, g.id).await;
    assert_eq!(anon["result"], "1-0");
    assert_eq!(anon["disputed"], false);

    // entered as by the arbiter: one audit entry naming both reporters
    let r = app.get(&paths::game_audit(g.id), Some(&n.leader)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let items = r.body["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{}", r.text);
    assert_eq!(items[0]["action"], "result_entered");
    let actor = items[0]["actor"].as_str().unwrap();
    assert!(actor.starts_with("players:"), "{actor}");
    assert_eq!(actor.matches("@club.example").count(), 2, "{actor}");
    assert!(
        items[0]["reason"]
            .as_str()
            .unwrap()
            .contains("both players"),
        "{}",
        r.text
    );

    // the second game of the pair (colours reversed) is reported on its own: 0-1 is a win
    // for its Black, the first game's White
    let g2 = n.games[1];
    assert_eq!((g2.white, g2.black), (g.black, g.white));
    let r = report(&app, &tw, g2.id, "0-1").await;
    assert_eq!(r.body["outcome"], "waiting", "{}", r.text);
    let r = report(&app, &tb, g2.id, "0-1").await;
    assert_eq!(r.body["outcome"], "entered", "{}", r.text);
    assert_eq!(board(&app, None, n.evening, g2.id).await["result"], "0-1");
}

#[actix_web::test]
async fn different_reports_leave_the_game_disputed_until_the_arbiter_enters_it() {
    let app = spawn().await;
    let n = rapid(&app).await;
    let g = n.games[0];
    let (tw, tb) = (
        app.member_token(g.white).await,
        app.member_token(g.black).await,
    );
    assert_eq!(report(&app, &tw, g.id, "1-0").await.status, StatusCode::OK);
    // a draw in either spelling is stored as the discipline spells it
    let r = report(&app, &tb, g.id, "½-½").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["outcome"], "disputed");
    assert_eq!(r.body["reported"], "1/2-1/2");
    assert_eq!(r.body["result"], Value::Null);

    // disputed for everyone; who said what for the staff only
    let anon = board(&app, None, n.evening, g.id).await;
    assert_eq!(anon["result"], Value::Null);
    assert_eq!(anon["disputed"], true);
    assert!(anon.get("reports").is_none(), "{anon}");
    // and on the evening's page, that board only
    assert_eq!(disputed_on_page(&app, n.evening).await, [g.id]);
    let staff = board(&app, Some(&n.arbiter), n.evening, g.id).await;
    assert_eq!(staff["disputed"], true);
    let mut told: Vec<(i64, String)> = staff["reports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["player_id"].as_i64().unwrap(),
                x["result"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    told.sort();
    let mut want = vec![
        (g.white, "1-0".to_string()),
        (g.black, "1/2-1/2".to_string()),
    ];
    want.sort();
    assert_eq!(told, want);

    // the event log has a public result.disputed naming the game, not the reporters
    let log = app
        .with_conn(|c| {
            let public = Filter {
                clearance: Some(Visibility::Public),
                ..Filter::default()
            };
            events::after(c, 0, &public, 10_000).unwrap()
        })
        .await;
    let disputed: Vec<_> = log
        .iter()
        .filter(|e| e.kind.as_str() == "result.disputed")
        .collect();
    assert_eq!(disputed.len(), 1);
    assert_eq!(disputed[0].game_id.map(|x| x.get()), Some(g.id));
    assert!(
        !disputed[0].payload.contains("@"),
        "{}",
        disputed[0].payload
    );
    assert!(
        !disputed[0].payload.contains("1-0"),
        "{}",
        disputed[0].payload
    );

    // the arbiter's entry wins; the game is no longer disputed, and reports are refused
    let r = app
        .enter_result(&n.arbiter, g.id, json!({"result": "0-1"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let anon = board(&app, None, n.evening, g.id).await;
    assert_eq!(anon["result"], "0-1");
    assert_eq!(anon["disputed"], false);
    assert!(disputed_on_page(&app, n.evening).await.is_empty());
    let before = stored(&app).await;
    let r = report(&app, &tw, g.id, "0-1").await;
    r.assert_detail(StatusCode::CONFLICT, "has its result already (0-1)");
    assert_eq!(stored(&app).await, before);
}

#[actix_web::test]
async fn a_report_after_the_arbiters_result_or_the_completed_round_is_refused_naming_why() {
    let app = spawn().await;
    let n = rapid(&app).await;
    let g = n.games[2];
    let tw = app.member_token(g.white).await;
    let r = app
        .enter_result(&n.arbiter, g.id, json!({"result": "1-0"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = report(&app, &tw, g.id, "1-0").await;
    r.assert_detail(StatusCode::CONFLICT, "has its result already (1-0)");

    for (i, x) in n.games.iter().enumerate() {
        if i != 2 {
            let r = app
                .enter_result(&n.arbiter, x.id, json!({"result": "1/2-1/2"}))
                .await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        }
    }
    let r = app.complete_round(&n.leader, n.comp, 1).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let tw0 = app.member_token(n.games[0].white).await;
    let r = report(&app, &tw0, n.games[0].id, "1-0").await;
    r.assert_detail(StatusCode::CONFLICT, "round 1 is completed");
    assert_eq!(stored(&app).await, 0);
}

#[actix_web::test]
async fn only_the_games_players_report_and_only_the_competitions_codes() {
    let app = spawn().await;
    let n = rapid(&app).await;
    let g = n.games[0];
    let other = *n
        .players
        .iter()
        .find(|p| **p != g.white && **p != g.black)
        .unwrap();
    let to = app.member_token(other).await;
    let r = report(&app, &to, g.id, "1-0").await;
    r.assert_detail(StatusCode::FORBIDDEN, "is not yours");
    // a staff account without a player is no player of the game either
    let r = report(&app, &n.arbiter, g.id, "1-0").await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text);
    let r = app
        .post(
            &format!("/api/v1/games/{}/report", g.id),
            None,
            json!({"result": "1-0"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);

    let tw = app.member_token(g.white).await;
    for bad in ["2-0", "1-1", "+/-", "bye", "10"] {
        let r = report(&app, &tw, g.id, bad).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{bad}: {}",
            r.text
        );
        assert_eq!(r.errors("field"), ["result"], "{bad}");
    }
    let r = report(&app, &tw, g.id, &"1".repeat(17)).await;
    assert_eq!(r.errors("field"), ["result"], "{}", r.text);
    let r = report(&app, 404404.to_string().as_str(), g.id, "1-0").await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
    let r = report(&app, &tw, 9_999_999, "1-0").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text);
    assert_eq!(stored(&app).await, 0);
}

#[actix_web::test]
async fn an_account_sends_at_most_ten_reports_a_minute() {
    let app = spawn().await;
    let n = rapid(&app).await;
    let g = n.games[0];
    let tw = app.member_token(g.white).await;
    // a player may change their report while the opponent has not reported
    for i in 0..10 {
        let code = if i % 2 == 0 { "1-0" } else { "½-½" };
        let r = report(&app, &tw, g.id, code).await;
        assert_eq!(r.status, StatusCode::OK, "{i}: {}", r.text);
        assert_eq!(r.body["outcome"], "waiting");
    }
    let r = report(&app, &tw, g.id, "1-0").await;
    r.assert_detail(
        StatusCode::TOO_MANY_REQUESTS,
        "at most 10 result reports a minute",
    );
    // the last report stands, once
    let staff = board(&app, Some(&n.arbiter), n.evening, g.id).await;
    assert_eq!(
        staff["reports"],
        json!([{"player_id": g.white, "result": "1/2-1/2"}])
    );
}

#[actix_web::test]
async fn an_unpublished_round_takes_no_reports() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let fx = CompetitionBuilder::swiss("dutch")
        .members_of("fixed", &["A", "B"])
        .create(&app, &leader)
        .await;
    let _ = arbiter;
    add_round(&app, &leader, fx.comp, FRIDAY).await;
    check_in_all(&app, &leader, fx.comp, 1, &fx.players).await;
    let r = app.generate_pairing(&leader, fx.comp, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let g = r.body["games"][0]["id"].as_i64().unwrap();
    let t = app.member_token(fx.players[0]).await;
    let r = report(&app, &t, g, "1-0").await;
    r.assert_detail(StatusCode::CONFLICT, "once its pairing is published");
}
