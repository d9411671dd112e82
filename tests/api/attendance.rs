//! Attendance (docs/rules/keizer.md#attendance-and-deadlines, docs/rules/rapid-blitz.md#the-rapid-competition): own sign-up/sign-off with deadlines, the leader on a player's behalf,
//! force majeure, check-in, history and who may read it; the status contract.

use crate::support::*;
use actix_web::http::StatusCode;
use clubcomp::ids::PlayerId;
use serde_json::{Value, json};

fn statuses(body: &Value) -> Vec<(i64, String)> {
    body.as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["round"].as_i64().unwrap(),
                o["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[actix_web::test]
async fn sign_up_and_off_with_deadlines_force_majeure_and_history() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let unlinked = app.token(&["member"]).await;
    let (cid, p) =
        CompetitionBuilder::new(json!({"name": "Keizer", "kind": "keizer", "half": "winter"}))
            .members(&[("Fixed Fred", "fixed"), ("Flex Flora", "flexible")])
            .create(&app, &leader)
            .await
            .parts();
    let (fred, flora) = (p[0], p[1]);
    add_round(&app, &leader, cid, FUTURE).await; // deadline ahead
    add_round(&app, &leader, cid, "2020-01-03").await; // deadline (2020-01-02 18:00) passed
    let me_fred = app.member_token(fred).await;
    let me_flora = app.member_token(flora).await;
    let own = paths::attendance_me(cid);

    // roles and linking
    assert_eq!(
        app.post(&own, None, json!({"action": "sign_off", "rounds": [1]}))
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
    let r = app
        .post(
            &own,
            Some(&unlinked),
            json!({"action": "sign_off", "rounds": [1]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "account");
    let r = app
        .post(
            &paths::attendance(cid),
            Some(&me_fred),
            json!({"player_id": flora, "action": "sign_up", "rounds": [1], "channel": "phone"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);

    // bad input changes nothing
    let before = state_of(&app).await;
    for bad in [
        json!({"action": "maybe", "rounds": [1]}),
        json!({"action": "sign_off", "rounds": []}),
        json!({"action": "sign_off", "rounds": [1, 1]}),
        json!({"action": "sign_off", "rounds": [1, 99]}),
        json!({"action": "sign_off"}),
    ] {
        let r = app.post(&own, Some(&me_fred), bad.clone()).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{bad}: {}",
            r.text
        );
    }
    assert_eq!(state_of(&app).await, before);

    // a fixed player signs off for both rounds at once: on time → excused, late → unexcused
    let r = app
        .post(
            &own,
            Some(&me_fred),
            json!({"action": "sign_off", "rounds": [1, 2]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        statuses(&r.body),
        [(1, "excused".to_string()), (2, "unexcused".to_string())]
    );
    // a flexible player's late sign-up is refused, naming the deadline; nothing is stored
    let before = state_of(&app).await;
    let r = app
        .post(
            &own,
            Some(&me_flora),
            json!({"action": "sign_up", "rounds": [1, 2]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "rounds[1]");
    let msg = r.body["errors"][0]["message"].as_str().unwrap();
    assert!(
        msg.contains("deadline") && msg.contains("2020-01-02 18:00 Europe/Amsterdam"),
        "{msg}"
    );
    assert_eq!(state_of(&app).await, before, "round 1 not stored either");
    let r = app
        .post(
            &own,
            Some(&me_flora),
            json!({"action": "sign_up", "rounds": [1]}),
        )
        .await;
    assert_eq!(statuses(&r.body), [(1, "signed_up".to_string())]);
    // the leader may record the late sign-up (by phone)
    let r = app
        .post(
            &paths::attendance(cid),
            Some(&leader),
            json!({"player_id": flora, "action": "sign_up", "rounds": [2], "channel": "phone"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(statuses(&r.body), [(2, "signed_up".to_string())]);
    // the arbiter grants force majeure for Fred's late sign-off → absent with notice
    let r = app
        .post(
            &paths::check_ins(cid, 2),
            Some(&arbiter),
            json!({"marks": [{"player_id": fred, "mark": "force_majeure"}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(statuses(&r.body), [(2, "excused".to_string())]);
    // a member's own force-majeure claim does not exist: only sign_up / sign_off
    let r = app
        .post(
            &own,
            Some(&me_fred),
            json!({"action": "force_majeure", "rounds": [2]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    // the leader's bad channel is named
    let r = app
        .post(
            &paths::attendance(cid),
            Some(&leader),
            json!({"player_id": flora, "action": "sign_up", "rounds": [2], "channel": "pigeon"}),
        )
        .await;
    assert_eq!(r.body["errors"][0]["field"], "channel");

    // history: leader and arbiter see everything, with who / when / channel
    let url = paths::round_attendance(cid, 2);
    let r = app.get(&url, Some(&arbiter)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["deadline"], "2020-01-02T17:00:00.000000Z");
    let h = r.body["history"].as_array().unwrap();
    let rows: Vec<(i64, &str, &str, &str)> = h
        .iter()
        .map(|x| {
            (
                x["player_id"].as_i64().unwrap(),
                x["action"].as_str().unwrap(),
                x["channel"].as_str().unwrap(),
                x["capacity"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (fred, "sign_off", "account", "member"),
            (flora, "sign_up", "phone", "leader"),
            (fred, "force_majeure", "in_person", "arbiter"),
        ]
    );
    assert!(h[0]["recorded_by"].as_str().unwrap().starts_with("m-"));
    assert!(h.iter().all(|x| x["at"].as_str().is_some()));
    let players: Vec<(i64, &str, bool)> = r.body["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["player_id"].as_i64().unwrap(),
                x["status"].as_str().unwrap(),
                x["paired"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        players,
        [(fred, "excused", false), (flora, "signed_up", true)]
    );
    assert_eq!(
        app.get(&url, Some(&me_fred)).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(app.get(&url, None).await.status, StatusCode::UNAUTHORIZED);
    // a member sees his own record only
    let r = app.get(&own, Some(&me_flora)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let mine = r.body.as_array().unwrap();
    assert_eq!(mine.len(), 2);
    assert_eq!(mine[0]["status"], "signed_up");
    assert_eq!(mine[1]["status"], "signed_up");
    assert!(mine.iter().all(|m| {
        m["history"]
            .as_array()
            .unwrap()
            .iter()
            .all(|x| x["player_id"] == flora)
    }));

    // the contract used by pairing and standings
    let got = app
        .with_conn(move |c| {
            use clubcomp_core::test_store::schema::rounds;
            use diesel::prelude::*;
            let ids: Vec<i64> = rounds::table
                .filter(rounds::competition_id.eq(cid))
                .order(rounds::number)
                .select(rounds::id)
                .load(c)
                .unwrap();
            let list = [(PlayerId(fred), false), (PlayerId(flora), true)];
            (
                clubcomp::services::attendance::statuses(c, clubcomp::ids::RoundId(ids[0]), &list)
                    .unwrap(),
                clubcomp::services::attendance::statuses(c, clubcomp::ids::RoundId(ids[1]), &list)
                    .unwrap(),
            )
        })
        .await;
    use clubcomp::services::attendance::Status;
    let (fred, flora) = (PlayerId(fred), PlayerId(flora));
    assert_eq!(got.0[&fred], Status::Excused);
    assert_eq!(got.0[&flora], Status::Playing);
    assert_eq!(got.1[&fred], Status::Excused);
    assert_eq!(got.1[&flora], Status::Playing);
}

#[actix_web::test]
async fn check_in_closes_fifteen_minutes_before_the_round() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let (cid, p) = CompetitionBuilder::new(
        json!({"name": "Rapid", "kind": "swiss", "system": "double_swiss"}),
    )
    .members_of("fixed", &["R1", "R2"])
    .create(&app, &leader)
    .await
    .parts();
    add_round(&app, &leader, cid, "2020-01-03").await;
    let url = paths::check_ins(cid, 1);
    let before = state_of(&app).await;
    let r = app
        .post(
            &url,
            Some(&arbiter),
            json!({"marks": [{"player_id": p[0], "mark": "present"}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let msg = r.body["errors"][0]["message"].as_str().unwrap();
    // rapid evening at 20:30 → check-in closes at the end of 20:15 local time
    assert!(
        msg.contains("closed at the end of 20:15 Europe/Amsterdam on 2020-01-03"),
        "{msg}"
    );
    // bad marks and non-entrants are named; nothing stored
    let r = app
        .post(
            &url,
            Some(&arbiter),
            json!({"marks": [{"player_id": p[0], "mark": "late"}]}),
        )
        .await;
    assert_eq!(r.body["errors"][0]["field"], "marks[0].mark");
    let r = app
        .post(
            &url,
            Some(&arbiter),
            json!({"marks": [{"player_id": 987654, "mark": "absent"}]}),
        )
        .await;
    assert_eq!(r.body["errors"][0]["field"], "marks[0].player_id");
    assert_eq!(state_of(&app).await, before);
    // a member cannot check in
    let member = app.token(&["member"]).await;
    let r = app
        .post(
            &url,
            Some(&member),
            json!({"marks": [{"player_id": p[0], "mark": "present"}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
}

/// A player withdrawn from the rapid from round 1 is never paired in it (docs/rules/README.md#withdrawal):
/// checking them in for it is refused, naming the mark and the round of the withdrawal, and
/// nothing is stored; the other player is checked in as before.
#[actix_web::test]
async fn a_withdrawn_rapid_player_is_not_checked_in() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let (cid, p) = CompetitionBuilder::new(
        json!({"name": "Rapid", "kind": "swiss", "system": "double_swiss"}),
    )
    .members_of("fixed", &["R1", "R2", "R3"])
    .create(&app, &leader)
    .await
    .parts();
    add_round(&app, &leader, cid, FUTURE).await;
    let r = app
        .post(
            &paths::withdraw(cid, p[2]),
            Some(&leader),
            json!({"from_round": 1}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let url = paths::check_ins(cid, 1);
    let before = state_of(&app).await;
    let r = app
        .post(
            &url,
            Some(&arbiter),
            json!({"marks": [{"player_id": p[2], "mark": "present"}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "marks[0]");
    let msg = r.body["errors"][0]["message"].as_str().unwrap();
    assert!(
        msg.contains("withdrew") && msg.contains("from round 1"),
        "{msg}"
    );
    assert!(!r.text.contains("paired\": true"), "{}", r.text);
    assert_eq!(state_of(&app).await, before);
    let r = app
        .post(
            &url,
            Some(&arbiter),
            json!({"marks": [{"player_id": p[0], "mark": "present"}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body[0]["paired"], true, "{}", r.text);
}

#[actix_web::test]
async fn the_deadline_is_configurable_per_competition() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let cid =
        CompetitionBuilder::new(json!({"name": "Keizer", "kind": "keizer", "half": "winter"}))
            .members(&[("A", "fixed")])
            .create(&app, &leader)
            .await
            .comp;
    add_round(&app, &leader, cid, FUTURE).await;
    let url = paths::round_attendance(cid, 1);
    // default: the day before at 18:00 Amsterdam (CET, UTC+1) = 17:00 UTC
    assert_eq!(
        app.get(&url, Some(&leader)).await.body["deadline"],
        "2099-01-01T17:00:00.000000Z"
    );
    let rule = paths::attendance_deadline(cid);
    let r = app
        .req(
            actix_web::http::Method::PUT,
            &rule,
            Some(&leader),
            Some(json!({"days_before": 9, "time": "25:00"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"].as_array().unwrap().len(), 2);
    let r = app
        .req(
            actix_web::http::Method::PUT,
            &rule,
            Some(&leader),
            Some(json!({"days_before": 2, "time": "20:00"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // two days before at 20:00 CET = 19:00 UTC
    let r = app.get(&url, Some(&leader)).await;
    assert_eq!(r.body["deadline"], "2098-12-31T19:00:00.000000Z");
    assert_eq!(
        r.body["deadline_local"],
        "2098-12-31 20:00 Europe/Amsterdam"
    );
}
