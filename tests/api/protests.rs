//! Protests to the KNDB protest committee in a draughts championship
//! (docs/rules/draughts-championship.md#protests). The championship rules' closing provision
//! ("Slotbepalingen") lets the tournament direction decide disputes, and a dispute that
//! qualifies under article 59 of the playing rules may be protested with the committee; it
//! names no time limit, form or deposit, which are the competition's settings (decision 0274).
//! Expected values are worked out by hand in the comments.

use crate::arbiter::{games_in, no_increment};
use crate::support::*;
use actix_web::http::{Method, StatusCode};
use clubcomp_core::test_store::schema::{claims, games};
use diesel::prelude::*;
use serde_json::{Value, json};

async fn stored_result(app: &TestApp, game: i64) -> Option<String> {
    app.with_conn(move |c| {
        games::table
            .find(game)
            .select(games::result)
            .first(c)
            .unwrap()
    })
    .await
}

/// (player, points) of the standings, in order.
async fn points(app: &TestApp, comp: i64) -> Vec<(i64, i64)> {
    let r = app.standings(comp).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.body["round_robin"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["player_id"].as_i64().unwrap(),
                r["points"].as_i64().unwrap(),
            )
        })
        .collect()
}

fn rule(r: &Resp) -> String {
    r.errors("message")[0]
        .split(':')
        .next()
        .unwrap_or_default()
        .to_string()
}

#[actix_web::test]
async fn closing_provision_an_upheld_protest_sets_the_committees_result_in_the_standings() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let arb = app.token(&["arbiter"]).await;
    let (comp, p, g) = championship(&app, &leader, json!({})).await;
    let claim = plusremise_claim(&app, &arb, g[0], true).await;
    assert_eq!(stored_result(&app, g[0]).await.as_deref(), Some("1+-1-"));
    // 1+-1- is a point each (2-1-0 scoring); C and D have not played; B is ahead of C and D
    // on points, A of B on the plusremise balance (+1 against −1)
    let before = points(&app, comp).await;
    assert_eq!(before[0], (p[0], 1));
    assert_eq!(before[1], (p[1], 1));

    // the literal reading: no time limit, no form, no deposit — an oral protest is lodged,
    // with no last day
    let (protest, r) = lodge_protest(&app, &arb, claim).await;
    assert_eq!(r.body["last_day"], Value::Null, "{}", r.text);
    assert_eq!(r.body["in_writing"], false);
    assert_eq!(r.body["ruling"], Value::Null);

    // while it is pending the decision stands: a result against it is refused
    let r = app
        .enter_result(&arb, g[0], json!({"result": "0-2", "reason": "protest"}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);

    // the ruling is the leader's to record, and a result only goes with `upheld`
    let r = app
        .decide_protest(&arb, protest, json!({"ruling": "upheld"}))
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text);
    let r = app
        .decide_protest(
            &leader,
            protest,
            json!({"ruling": "dismissed", "result": "1-1"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), ["result"]);

    // the committee upholds the protest and sets 0-2: Black wins, 2 points, White 0
    let r = app
        .decide_protest(
            &leader,
            protest,
            json!({"ruling": "upheld", "reason": "no lasting advantage", "result": "0-2"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["ruling"], "upheld");
    assert_eq!(r.body["result"], "0-2");
    assert_eq!(stored_result(&app, g[0]).await.as_deref(), Some("0-2"));
    let after = points(&app, comp).await;
    assert_eq!(after[0], (p[1], 2), "{after:?}");
    assert_eq!(after.iter().find(|x| x.0 == p[0]), Some(&(p[0], 0)));
    // the entry is audited with the protest as its reason
    let r = app.get(&paths::game_audit(g[0]), Some(&arb)).await;
    let reasons: Vec<&str> = r.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == "result_corrected")
        .filter_map(|e| e["reason"].as_str())
        .collect();
    assert_eq!(
        reasons,
        [format!(
            "protest {protest} upheld by the KNDB protest committee"
        )]
    );

    // the committee rules once
    let r = app
        .decide_protest(&leader, protest, json!({"ruling": "dismissed"}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);

    // the game's and the competition's lists show it
    for url in [
        paths::game_protests(g[0]),
        paths::competition_protests(comp),
    ] {
        let r = app.get(&url, Some(&arb)).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(r.body["total"], 1, "{}", r.text);
        assert_eq!(r.body["items"][0]["id"], protest);
        assert_eq!(r.body["items"][0]["ruling"], "upheld");
    }
    let r = app.get(&paths::game_protests(g[1]), Some(&arb)).await;
    assert_eq!(r.body["total"], 0, "{}", r.text);
}

#[actix_web::test]
async fn closing_provision_protests_on_the_competitions_terms_and_only_in_the_championship() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let arb = app.token(&["arbiter"]).await;
    let terms = json!({"protest": {"days": 3, "in_writing": true, "deposit": 25}});
    let (comp, _, g) = championship(&app, &leader, terms).await;
    let claim = plusremise_claim(&app, &arb, g[0], true).await;
    let url = paths::claim_protest(claim);
    // the competition asks for writing, then for the deposit: each refusal names its rule
    for (body, expected) in [
        (json!({"grounds": "x"}), "not_in_writing"),
        (
            json!({"grounds": "x", "in_writing": true}),
            "deposit_not_paid",
        ),
    ] {
        let r = app.post(&url, Some(&arb), body).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
        assert_eq!(rule(&r), expected, "{}", r.text);
    }
    let full = json!({"grounds": "x", "in_writing": true, "deposit_paid": true});
    // decided on Saturday 11 April 2026, 21:30 in Amsterdam (19:30 UTC): three days after it
    // end with Tuesday 14 April, so a protest today is too late
    app.with_conn(move |c| {
        let t = chrono::NaiveDate::from_ymd_opt(2026, 4, 11)
            .unwrap()
            .and_hms_opt(19, 30, 0)
            .unwrap();
        diesel::update(claims::table.find(claim))
            .set(claims::decided_at.eq(Some(t)))
            .execute(c)
            .unwrap();
    })
    .await;
    let r = app.post(&url, Some(&arb), full.clone()).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(rule(&r), "too_late", "{}", r.text);
    assert!(r.text.contains("the last day was 2026-04-14"), "{}", r.text);

    // decided now: the last day is the third Amsterdam day after today
    let decided = chrono::Utc::now();
    app.with_conn(move |c| {
        diesel::update(claims::table.find(claim))
            .set(claims::decided_at.eq(Some(decided.naive_utc())))
            .execute(c)
            .unwrap();
    })
    .await;
    let r = app.post(&url, Some(&arb), full.clone()).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let today = decided
        .with_timezone(&chrono_tz::Europe::Amsterdam)
        .date_naive();
    let last = today + chrono::Days::new(3);
    assert_eq!(r.body["last_day"], last.to_string(), "{}", r.text);
    assert_eq!(r.body["deposit_paid"], true);

    // a member protests only in their own game; a claim not decided yet has nothing to
    // protest
    let stranger = app.token(&["member"]).await;
    let r = app.post(&url, Some(&stranger), full.clone()).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text);
    let pending = plusremise_claim(&app, &arb, g[1], false).await;
    let r = app
        .post(&paths::claim_protest(pending), Some(&arb), full.clone())
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);

    // time added is a decision of the direction too; the claim itself is none
    let r = app
        .record_event(
            &arb,
            g[1],
            json!({"event": {"type": "time_added", "to": "white", "seconds": 60}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let added = r.body["event"]["id"].as_i64().unwrap();
    let r = app
        .post(&paths::event_protest(added), Some(&arb), full.clone())
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["event_id"], added);
    assert_eq!(r.body["claim_id"], Value::Null);
    let first = app.get(&paths::events(g[1]), Some(&arb)).await.body["events"][0]["id"]
        .as_i64()
        .unwrap();
    let r = app
        .post(&paths::event_protest(first), Some(&arb), full.clone())
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), ["event"]);

    // the settings are bounded, named by field
    let r = app
        .req(
            Method::PATCH,
            &paths::competition(comp),
            Some(&leader),
            Some(json!({"params": {"protest": {"days": 0}}})),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), ["params.protest.days"]);

    // a club competition has the appeal to the board, not a protest committee
    let (k, _, _) = games_in(&app, "keizer", None, "chess", no_increment(), json!({}), 1).await;
    let r = app
        .claim(
            &arb,
            k[0],
            json!({"kind": "quickplay_finish", "claimant": "white", "remaining_ms": 100_000,
                   "decision": {"decision": "reject"}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let r = app
        .post(
            &paths::claim_protest(r.body["id"].as_i64().unwrap()),
            Some(&arb),
            json!({"grounds": "x"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(rule(&r), "not_a_draughts_championship", "{}", r.text);
}
