//! Check-in of the blitz championship (docs/rules/rapid-blitz.md#the-blitz-championship),
//! worked by hand: members and walk-in guests checked in, the number of rounds fixed from
//! the participants when check-in closes, round 1 paired by the Dutch system, and the play-off
//! for first among everyone on the top score. Every refusal names the rule and stores nothing.

use crate::support::*;
use actix_web::http::{Method, StatusCode};
use serde_json::{Value, json};

/// An evening far ahead: check-in is open by the clock.
const EVENING: &str = "2099-06-19";

/// Players, entrants, audit entries and closures stored.
async fn stored(app: &TestApp) -> (i64, i64, i64, i64) {
    app.with_conn(|c| {
        use clubcomp_core::test_store::schema::{audit_log, check_in_closures, entrants, players};
        use diesel::prelude::*;
        (
            players::table.count().get_result(c).unwrap(),
            entrants::table.count().get_result(c).unwrap(),
            audit_log::table.count().get_result(c).unwrap(),
            check_in_closures::table.count().get_result(c).unwrap(),
        )
    })
    .await
}

/// A refusal with `status` whose problem names `needle`, and nothing stored.
async fn refused(
    app: &TestApp,
    r: &Resp,
    status: StatusCode,
    needle: &str,
    before: (i64, i64, i64, i64),
) {
    assert_eq!(r.status, status, "{}", r.text);
    assert!(
        r.headers
            .get("content-type")
            .is_some_and(|v| v.to_str().unwrap().starts_with("application/problem+json")),
        "{:?}",
        r.headers
    );
    assert!(r.text.contains(needle), "{needle:?} not in {}", r.text);
    assert_eq!(stored(app).await, before, "nothing stored");
}

/// Registered members with contact data, in this order.
async fn members(app: &TestApp, leader: &str, names: &[&str]) -> Vec<i64> {
    let mut ids = Vec::new();
    for (i, n) in names.iter().enumerate() {
        let r = app
            .create_player(
                leader,
                json!({"name": n, "membership": "fixed", "email": format!("member{i}@club.example"),
                    "phone": "0612345678"}),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        ids.push(r.body["id"].as_i64().unwrap());
    }
    ids
}

fn names(v: &Value) -> Vec<&str> {
    texts(&v["players"], "name")
}

/// Nine check in: six members and three guests. ⌈log2 9⌉ = 4 (2³ = 8 < 9 ≤ 16 = 2⁴), plus 2:
/// 6 rounds, under the evening's 11 and under n − 1 = 8. Round 1 pairs the nine by the
/// Dutch system and the guests appear in the standings by name.
#[actix_web::test]
async fn nine_check_ins_give_six_rounds_and_round_one_is_paired() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let m = members(
        &app,
        &leader,
        &["Anna", "Bram", "Cor", "Dirk", "Els", "Fien"],
    )
    .await;
    let comp = CompetitionBuilder::blitz(EVENING)
        .create(&app, &leader)
        .await
        .comp;

    // the defaults: 10 minutes, check-in closing at 20:00, ⌈log2 n⌉ + 2 rounds, at most 11,
    // a guest may take the title
    let c = app.get(&paths::competition(comp), None).await;
    assert_eq!(
        c.body["params"]["blitz"],
        json!({"date": EVENING, "check_in_closes": "20:00", "extra_rounds": 2, "max_rounds": 11,
            "guest_title": "eligible"})
    );
    assert_eq!(
        c.body["time_control"]["periods"],
        json!([{"moves": null, "minutes": 10}])
    );
    assert_eq!(c.body["rounds_planned"], Value::Null);

    // a round cannot be paired while check-in is open
    add_round(&app, &leader, comp, EVENING).await;
    let r = app.generate_pairing(&leader, comp, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert!(r.text.contains("still open"), "{}", r.text);

    // the arbiter checks in the six members and three walk-in guests, one with a rating
    for p in &m {
        let r = app.check_in(&arbiter, comp, json!({"player_id": p})).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    }
    for g in [
        json!({"name": "Gast Gerrit", "rating": 1800}),
        json!({"name": "Gast Hanna"}),
        json!({"name": " Gast Ivo "}),
    ] {
        let r = app.check_in(&arbiter, comp, g).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    }
    assert_eq!(r_participants(&app, &leader, comp).await, 9);

    // twice for the same member, or a guest whose name is taken: refused, nothing stored
    let before = stored(&app).await;
    let r = app
        .check_in(&arbiter, comp, json!({"player_id": m[1]}))
        .await;
    refused(&app, &r, StatusCode::CONFLICT, "Bram (player", before).await;
    assert!(r.text.contains("checked in already"), "{}", r.text);
    let r = app
        .check_in(&arbiter, comp, json!({"name": "gast hanna"}))
        .await;
    refused(&app, &r, StatusCode::CONFLICT, "checked in already", before).await;

    // the staff see who is a guest and the rating taken; the public sees the names only
    let staff = app.checked_in(Some(&arbiter), comp).await;
    assert_eq!(staff.status, StatusCode::OK, "{}", staff.text);
    assert_eq!(
        names(&staff.body),
        [
            "Anna",
            "Bram",
            "Cor",
            "Dirk",
            "Els",
            "Fien",
            "Gast Gerrit",
            "Gast Hanna",
            "Gast Ivo"
        ]
    );
    let guests: Vec<bool> = staff.body["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["guest"].as_bool().unwrap())
        .collect();
    assert_eq!(
        guests,
        [false, false, false, false, false, false, true, true, true]
    );
    assert_eq!(staff.body["players"][6]["rating"], 1800);
    assert_eq!(staff.body["status"], "open");
    // 20:00 in Amsterdam in June (summer time, UTC+2) is 18:00 UTC
    assert_eq!(staff.body["closes_at"], "2099-06-19T18:00:00.000000Z");
    let public = app.checked_in(None, comp).await;
    assert_eq!(public.status, StatusCode::OK, "{}", public.text);
    assert_eq!(names(&public.body), names(&staff.body));
    for p in public.body["players"].as_array().unwrap() {
        assert_eq!(
            p.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["name"],
            "{p}"
        );
    }
    assert!(!public.text.contains('@'), "{}", public.text);
    // the guests are players without membership
    let gid = staff.body["players"][7]["player_id"].as_i64().unwrap();
    let g = app.get(&paths::player(gid), Some(&leader)).await;
    assert_eq!(g.body["membership"], "guest");
    assert_eq!(g.body["name"], "Gast Hanna");

    // closing fixes 6 rounds as the planned rounds, audited
    let r = app.close_check_in(&leader, comp).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["status"], "closed");
    assert_eq!(r.body["participants"], 9);
    assert_eq!(r.body["rounds"], 6);
    let c = app.get(&paths::competition(comp), None).await;
    assert_eq!(c.body["rounds_planned"], 6);
    let audit = app
        .get(&paths::competition_audit(comp), Some(&leader))
        .await;
    assert!(audit.text.contains("check_in_closed"), "{}", audit.text);
    assert!(audit.text.contains("checked_in"), "{}", audit.text);

    // the field is fixed: no entrant joins or leaves through the entrants list either
    let outsider = members(&app, &leader, &["Kees"]).await[0];
    let before = stored(&app).await;
    let joins = json!({"entrants": [{"player_id": outsider}]});
    let r = app.add_entrants(&leader, comp, joins).await;
    let fixed = "check-in of competition";
    refused(&app, &r, StatusCode::CONFLICT, fixed, before).await;
    let leaves = paths::entrant(comp, gid);
    let r = app.req(Method::DELETE, &leaves, Some(&leader), None).await;
    refused(&app, &r, StatusCode::CONFLICT, fixed, before).await;

    // closed once; nobody checks in after closing
    let before = stored(&app).await;
    let r = app.close_check_in(&arbiter, comp).await;
    refused(&app, &r, StatusCode::CONFLICT, "closed already", before).await;
    let late = members(&app, &leader, &["Jan"]).await[0];
    let before = stored(&app).await;
    let r = app
        .check_in(&arbiter, comp, json!({"player_id": late}))
        .await;
    refused(
        &app,
        &r,
        StatusCode::CONFLICT,
        "9 participants and 6 rounds",
        before,
    )
    .await;
    let r = app
        .check_in(&arbiter, comp, json!({"name": "Gast Karel"}))
        .await;
    refused(&app, &r, StatusCode::CONFLICT, "was closed", before).await;

    // round 1 as in any Swiss, the check-in covering the evening: the nine play without a
    // check-in per round. Seed order: the one rated player first
    // (Gerrit, pairing number 1), then the unrated in order of check-in (Anna 2 … Fien 7,
    // Hanna 8, Ivo 9). Nine on 0 points: the bye to the lowest, 9 (Ivo); S1 = {1, 2, 3, 4},
    // S2 = {5, 6, 7, 8}: 1–5, 2–6, 3–7, 4–8, the top seed white and the colours alternating
    // by board: 1–5, 6–2, 3–7, 8–4.
    let ids: Vec<i64> = ints(&staff.body["players"], "player_id");
    let (gerrit, ivo, hanna) = (ids[6], ids[8], ids[7]);
    let tpn = [gerrit, m[0], m[1], m[2], m[3], m[4], m[5], hanna, ivo];
    let r = app.generate_pairing(&leader, comp, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(
        boards(&r.body),
        vec![
            (1, 1, tpn[0], Some(tpn[4]), None),
            (2, 1, tpn[5], Some(tpn[1]), None),
            (3, 1, tpn[2], Some(tpn[6]), None),
            (4, 1, tpn[7], Some(tpn[3]), None),
            (5, 1, tpn[8], None, Some("bye".into())),
        ]
    );
    finish_round(&app, &leader, comp, 1, &["1-0", "1-0", "1-0", "1-0"]).await;
    let s = app.standings(comp).await;
    assert_eq!(s.status, StatusCode::OK, "{}", s.text);
    let rows = s.body["swiss"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 9);
    for guest in ["Gast Gerrit", "Gast Hanna", "Gast Ivo"] {
        assert!(
            rows.iter().any(|r| r["name"] == guest),
            "{guest}: {}",
            s.text
        );
    }
    assert!(!s.text.contains('@'), "{}", s.text);

    // a participant the arbiter marks absent for round 2 is not paired in it: eight play on
    // four boards, no bye
    add_round(&app, &leader, comp, EVENING).await;
    let r = app
        .post(
            &paths::check_ins(comp, 2),
            Some(&arbiter),
            json!({"marks": [{"player_id": ivo, "mark": "absent"}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app.generate_pairing(&leader, comp, 2, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let b = boards(&r.body);
    assert_eq!(b.len(), 4, "{b:?}");
    assert!(
        b.iter()
            .all(|g| g.3.is_some() && g.2 != ivo && g.3 != Some(ivo)),
        "{b:?}"
    );
}

async fn r_participants(app: &TestApp, token: &str, comp: i64) -> i64 {
    let r = app.checked_in(Some(token), comp).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.body["participants"].as_i64().unwrap()
}

/// An evening in the past: check-in closed at 20:00 that day, so a check-in is refused by
/// the clock, naming the time; no guest is created.
#[actix_web::test]
async fn a_late_check_in_is_refused() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let m = members(&app, &leader, &["Anna"]).await;
    let comp = CompetitionBuilder::blitz("2020-06-19")
        .create(&app, &leader)
        .await
        .comp;
    let before = stored(&app).await;
    let r = app
        .check_in(&arbiter, comp, json!({"player_id": m[0]}))
        .await;
    refused(
        &app,
        &r,
        StatusCode::CONFLICT,
        "closed at the end of 20:00",
        before,
    )
    .await;
    assert!(r.text.contains("2020-06-19"), "{}", r.text);
    let r = app.check_in(&arbiter, comp, json!({"name": "Gast"})).await;
    refused(
        &app,
        &r,
        StatusCode::CONFLICT,
        "closed at the end of 20:00",
        before,
    )
    .await;
    let r = app.checked_in(None, comp).await;
    assert_eq!(r.body["closes_at"], "2020-06-19T18:00:00.000000Z");
}

/// Refusals of check-in and closing: each names the field or the rule and stores nothing.
#[actix_web::test]
async fn check_in_refusals_name_the_rule() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let m = members(&app, &leader, &["Anna", "Bram"]).await;
    let r = app
        .req(
            actix_web::http::Method::DELETE,
            &paths::player(m[1]),
            Some(&leader),
            None,
        )
        .await;
    assert!(r.status.is_success(), "{}", r.text);
    let fx = CompetitionBuilder::blitz(EVENING)
        .create(&app, &leader)
        .await;
    let comp = fx.comp;
    let before = stored(&app).await;

    let r = app
        .check_in(&arbiter, comp, json!({"player_id": m[1]}))
        .await;
    refused(
        &app,
        &r,
        StatusCode::UNPROCESSABLE_ENTITY,
        "inactive",
        before,
    )
    .await;
    assert_eq!(r.errors("field"), ["player_id"]);
    let r = app
        .check_in(&arbiter, comp, json!({"player_id": 999_999}))
        .await;
    refused(
        &app,
        &r,
        StatusCode::UNPROCESSABLE_ENTITY,
        "no player 999999",
        before,
    )
    .await;
    let r = app
        .check_in(&arbiter, comp, json!({"player_id": m[0], "name": "X"}))
        .await;
    refused(
        &app,
        &r,
        StatusCode::UNPROCESSABLE_ENTITY,
        "not both",
        before,
    )
    .await;
    let r = app.check_in(&arbiter, comp, json!({})).await;
    refused(
        &app,
        &r,
        StatusCode::UNPROCESSABLE_ENTITY,
        "player_id",
        before,
    )
    .await;
    let r = app.check_in(&arbiter, comp, json!({"name": "   "})).await;
    refused(&app, &r, StatusCode::UNPROCESSABLE_ENTITY, "name", before).await;
    let r = app
        .check_in(&arbiter, comp, json!({"name": "G", "rating": 4000}))
        .await;
    refused(&app, &r, StatusCode::UNPROCESSABLE_ENTITY, "rating", before).await;
    let r = app
        .check_in(&arbiter, comp, json!({"player_id": m[0], "rating": 1500}))
        .await;
    refused(&app, &r, StatusCode::UNPROCESSABLE_ENTITY, "rating", before).await;
    let member = app.member_token(m[0]).await;
    let r = app
        .check_in(&member, comp, json!({"player_id": m[0]}))
        .await;
    refused(&app, &r, StatusCode::FORBIDDEN, "arbiter", before).await;

    // closing needs two participants
    let r = app.close_check_in(&arbiter, comp).await;
    refused(&app, &r, StatusCode::CONFLICT, "0 participants", before).await;
    let r = app
        .check_in(&arbiter, comp, json!({"player_id": m[0]}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let before = stored(&app).await;
    let r = app.close_check_in(&arbiter, comp).await;
    refused(&app, &r, StatusCode::CONFLICT, "at least 2", before).await;

    // a Swiss without blitz parameters has no check-in
    let plain = CompetitionBuilder::swiss("dutch")
        .in_season(fx.season)
        .create(&app, &leader)
        .await
        .comp;
    let before = stored(&app).await;
    let r = app
        .check_in(&arbiter, plain, json!({"player_id": m[0]}))
        .await;
    refused(
        &app,
        &r,
        StatusCode::CONFLICT,
        "not a blitz championship",
        before,
    )
    .await;
    let r = app.checked_in(None, plain).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);

    // bad blitz parameters are named field by field
    let r = app
        .create_competition(
            &leader,
            fx.season,
            json!({"name": "Blitz 2", "kind": "swiss", "system": "dutch",
                "params": {"blitz": {"date": "2099-13-01", "max_rounds": 0}}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let mut fields = r.errors("field");
    fields.sort();
    assert_eq!(fields, ["params.blitz.date", "params.blitz.max_rounds"]);
    let r = app
        .create_competition(
            &leader,
            fx.season,
            json!({"name": "Rapid", "kind": "swiss", "system": "double_swiss",
                "params": {"blitz": {"date": EVENING}}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), ["params.blitz"]);
}

/// The blitz plays off a tie on points for first, even when the tie-breaks separate it
/// (club rules: the tie-breaks decide the other places). Four check in: ⌈log2 4⌉ + 2 = 4,
/// capped at n − 1 = 3 rounds. R1 A–C 1-0, B–D 1-0; R2 C–B 1-0, A–D ½; R3 A–B ½, C–D 1-0.
/// Points: A 1 + ½ + ½ = 2, C 0 + 1 + 1 = 2, B 1 + 0 + ½ = 1½, D 0 + ½ + 0 = ½. A and C
/// share the top score; A beat C, so direct encounter puts A first and C second. The rapid's
/// rule (a first place still shared after the tie-breaks) has no play-off here; the blitz
/// plays one between A and C, in that order: A–C, then C–A.
#[actix_web::test]
async fn the_blitz_plays_off_everyone_on_the_top_score() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let p = members(&app, &leader, &["A", "B", "C", "D"]).await;
    let (a, b, c, d) = (p[0], p[1], p[2], p[3]);
    let games = || {
        vec![
            vec![(a, Some(c), Some("1-0")), (b, Some(d), Some("1-0"))],
            vec![(c, Some(b), Some("1-0")), (a, Some(d), Some("1/2-1/2"))],
            vec![(a, Some(b), Some("1/2-1/2")), (c, Some(d), Some("1-0"))],
        ]
    };

    // the same games in a plain Swiss of three rounds: A is first alone after the tie-breaks
    let plain = CompetitionBuilder::swiss("dutch")
        .set("rounds_planned", 3)
        .entrants(&p)
        .create(&app, &leader)
        .await
        .comp;
    completed_rounds(&app, &leader, plain, games()).await;
    let s = app.standings(plain).await;
    assert_eq!(s.body["swiss"]["playoff_for_first"], false, "{}", s.text);
    let r = app
        .post(&paths::first_place_playoff(plain), Some(&leader), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert!(r.text.contains("after the tie-breaks"), "{}", r.text);

    let comp = CompetitionBuilder::blitz(EVENING)
        .create(&app, &leader)
        .await
        .comp;
    for x in &p {
        let r = app.check_in(&arbiter, comp, json!({"player_id": x})).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    }
    let r = app.close_check_in(&arbiter, comp).await;
    assert_eq!(r.body["rounds"], 3, "{}", r.text);
    completed_rounds(&app, &leader, comp, games()).await;
    let s = app.standings(comp).await;
    assert_eq!(s.status, StatusCode::OK, "{}", s.text);
    assert_eq!(s.body["swiss"]["playoff_for_first"], true, "{}", s.text);
    let order: Vec<i64> = ints(&s.body["swiss"]["rows"], "player_id");
    assert_eq!(order, [a, c, b, d]);
    let r = app
        .post(&paths::first_place_playoff(comp), Some(&leader), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let cands: Vec<i64> = ints(&r.body["candidates"], "player_id");
    assert_eq!(cands, [a, c]);
    let pairs: Vec<(i64, i64)> = r.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["white"]["player_id"].as_i64().unwrap(),
                g["black"]["player_id"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(pairs, [(a, c), (c, a)]);
    // the play-off games are played at five minutes, the blitz's own games at ten
    let round = r.body["round_number"].as_i64().unwrap();
    let r = app.get(&paths::round(comp, round), Some(&leader)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    for g in r.body["games"].as_array().unwrap() {
        assert_eq!(
            g["time_control"]["periods"],
            json!([{"minutes": 5, "moves": null}]),
            "{g}"
        );
        assert_eq!(g["time_control"]["increment_seconds"], 0);
        assert_eq!(g["time_control_own"], true);
    }
    let r = app.get(&paths::round(comp, 1), Some(&leader)).await;
    let first = &r.body["games"][0];
    assert_eq!(
        first["time_control"]["periods"],
        json!([{"minutes": 10, "moves": null}]),
        "{first}"
    );
    assert_eq!(first["time_control_own"], false);
}

/// The entrant limit of Swiss competitions holds for check-in: with `LIMIT_SWISS_PLAYERS` at
/// 2, a third player is refused naming the limit, and no guest is created.
#[actix_web::test]
async fn check_in_is_bounded_by_the_entrant_limit() {
    let app = spawn_with(|c| c.limits.swiss_players = 2).await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let comp = CompetitionBuilder::blitz(EVENING)
        .create(&app, &leader)
        .await
        .comp;
    for name in ["Gast A", "Gast B"] {
        let r = app.check_in(&arbiter, comp, json!({"name": name})).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    }
    let before = stored(&app).await;
    let r = app
        .check_in(&arbiter, comp, json!({"name": "Gast C"}))
        .await;
    refused(
        &app,
        &r,
        StatusCode::UNPROCESSABLE_ENTITY,
        "LIMIT_SWISS_PLAYERS",
        before,
    )
    .await;
}
