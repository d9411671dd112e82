//! Self check-in on a club night (docs/rules/rapid-blitz.md#self-check-in): the staff open an
//! evening's check-in, the venue shows a code that changes every minute, and a member who sends
//! it is checked in for the evening's rapid round and blitz championship. Every refusal names
//! why and stores nothing. The cut-off minutes are worked in the attendance engine's tests.

use crate::support::*;
use actix_web::http::StatusCode;
use clubcomp::ids::EveningId;
use clubcomp::services::presence::code::minute_of;
use serde_json::json;

/// A Friday far ahead: the first evening of a season opening then (2099-09-04), so no cut-off
/// has passed.
const FRIDAY: &str = "2099-09-04";

struct Night {
    leader: String,
    arbiter: String,
    season: i64,
    /// The season's first three evenings (4, 11 and 18 September 2099).
    evenings: Vec<i64>,
}

async fn night(app: &TestApp) -> Night {
    let Club { leader, arbiter } = ClubBuilder::new().build(app).await;
    let season = SeasonBuilder::new()
        .name("Seizoen 2099-2100")
        .opening_date(FRIDAY)
        .create(app, &leader)
        .await;
    let r = app.generate_calendar(&leader, season, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let evenings = ints(&r.body, "id").into_iter().take(3).collect();
    Night {
        leader,
        arbiter,
        season,
        evenings,
    }
}

/// A rapid (Double-Swiss) of fixed members A–D with its round 1 planned on `evening`.
async fn rapid_on(app: &TestApp, n: &Night, evening: i64) -> Fx {
    let fx = CompetitionBuilder::swiss("double_swiss")
        .set("name", "Rapid")
        .in_season(n.season)
        .members_of("fixed", &["A", "B", "C", "D"])
        .create(app, &n.leader)
        .await;
    let r = app
        .create_round(&n.leader, fx.comp, json!({ "evening_id": evening }))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    fx
}

/// The code `evening` shows `back` minutes ago, as the server makes it.
fn code(app: &TestApp, evening: i64, back: i64) -> String {
    let m = minute_of(chrono::Utc::now());
    app.state.night.code_key.code(EveningId(evening), m - back)
}

/// Attendance changes and entrants stored.
async fn stored(app: &TestApp) -> (i64, i64) {
    app.with_conn(|c| {
        use clubcomp_core::test_store::schema::{attendance, entrants};
        use diesel::prelude::*;
        (
            attendance::table.count().get_result(c).unwrap(),
            entrants::table.count().get_result(c).unwrap(),
        )
    })
    .await
}

#[actix_web::test]
async fn a_member_with_the_venue_code_is_checked_in_once_and_paired_in_the_rapid_round() {
    let app = spawn().await;
    let n = night(&app).await;
    let e = n.evenings[0];
    let fx = rapid_on(&app, &n, e).await;
    let (a, b) = (fx.players[0], fx.players[1]);
    let (ta, tb) = (app.member_token(a).await, app.member_token(b).await);

    // before the staff open it, there is no code and no self check-in
    let r = app.evening_check_in_code(Some(&n.arbiter), e).await;
    r.assert_detail(StatusCode::CONFLICT, "is not open");
    let r = app.self_check_in(&ta, e, &code(&app, e, 0)).await;
    r.assert_detail(StatusCode::CONFLICT, "is not open");

    let r = app.open_evening_check_in(&n.arbiter, e).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["open"], true);

    // the staff's screen reads the code of this minute, six characters, never cached
    let r = app.evening_check_in_code(Some(&n.arbiter), e).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let shown = r.body["code"].as_str().unwrap().to_string();
    assert_eq!(shown.len(), 6);
    assert!([code(&app, e, 0), code(&app, e, 1)].contains(&shown));
    assert_eq!(r.header("cache-control").as_deref(), Some("no-store"));
    // the code changes at the next minute and is accepted for one minute more
    let from =
        chrono::DateTime::parse_from_rfc3339(r.body["shown_from"].as_str().unwrap()).unwrap();
    let rotates =
        chrono::DateTime::parse_from_rfc3339(r.body["rotates_at"].as_str().unwrap()).unwrap();
    let until =
        chrono::DateTime::parse_from_rfc3339(r.body["accepted_until"].as_str().unwrap()).unwrap();
    assert_eq!((rotates - from).num_seconds(), 60);
    assert_eq!((until - from).num_seconds(), 120);
    // a member does not read it: they scan it at the venue
    let r = app.evening_check_in_code(Some(&ta), e).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text);

    // typed in lower case with a blank: the same code
    let typed = format!(
        "{} {}",
        shown[..3].to_lowercase(),
        shown[3..].to_lowercase()
    );
    let r = app.self_check_in(&ta, e, &typed).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        r.body["competitions"],
        json!([{"competition_id": fx.comp, "competition_name": "Rapid", "round": 1,
            "outcome": "checked_in", "reason": null}])
    );
    // a second scan records nothing new
    let before = stored(&app).await;
    let r = app.self_check_in(&ta, e, &shown).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["competitions"][0]["outcome"], "already_checked_in");
    assert_eq!(stored(&app).await, before);
    let r = app.self_check_in(&tb, e, &code(&app, e, 0)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);

    // the round's attendance shows the two self check-ins through the venue's code
    let att = app
        .get(&paths::round_attendance(fx.comp, 1), Some(&n.leader))
        .await;
    assert_eq!(att.status, StatusCode::OK, "{}", att.text);
    let history = att.body["history"].as_array().unwrap();
    assert_eq!(history.len(), 2);
    for h in history {
        assert_eq!(h["action"], "check_in");
        assert_eq!(h["channel"], "venue_code");
        assert_eq!(h["capacity"], "member");
    }
    let paired: Vec<bool> = att.body["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["paired"].as_bool().unwrap())
        .collect();
    assert_eq!(paired, [true, true, false, false]);

    // the pairing takes the two checked in, and only them
    let r = app.generate_pairing(&n.leader, fx.comp, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let round = app.get(&paths::round(fx.comp, 1), Some(&n.leader)).await;
    let mut on_boards: Vec<i64> = round.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| [g["white"]["id"].as_i64(), g["black"]["id"].as_i64()])
        .flatten()
        .collect();
    on_boards.sort();
    on_boards.dedup();
    assert_eq!(on_boards, [a, b]);

    // once paired, a late scan is refused naming why
    let tc = app.member_token(fx.players[2]).await;
    let r = app.self_check_in(&tc, e, &code(&app, e, 0)).await;
    r.assert_detail(StatusCode::CONFLICT, "is paired already");
}

#[actix_web::test]
async fn another_evenings_code_an_expired_code_and_a_replayed_one_are_refused_naming_why() {
    let app = spawn().await;
    let n = night(&app).await;
    let (e, other) = (n.evenings[0], n.evenings[1]);
    let fx = rapid_on(&app, &n, e).await;
    let t = app.member_token(fx.players[0]).await;
    for ev in [e, other] {
        let r = app.open_evening_check_in(&n.leader, ev).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let before = stored(&app).await;

    let r = app.self_check_in(&t, e, &code(&app, other, 0)).await;
    r.assert_detail(
        StatusCode::UNPROCESSABLE_ENTITY,
        &format!("is the check-in code of evening {other}, not of evening {e}"),
    );
    assert_eq!(r.errors("field"), ["code"]);
    let r = app.self_check_in(&t, e, &code(&app, e, 4)).await;
    r.assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "has expired");
    let r = app.self_check_in(&t, e, &code(&app, e, 90)).await;
    r.assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "long ago");
    let r = app.self_check_in(&t, e, "ABC").await;
    r.assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "the 6 characters");
    let r = app.self_check_in(&t, e, &"A".repeat(17)).await;
    r.assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "at most 16 characters");
    assert_eq!(stored(&app).await, before, "nothing stored");

    // once the staff close it, even the current code is refused
    let r = app.close_evening_check_in(&n.arbiter, e).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["open"], false);
    let r = app.self_check_in(&t, e, &code(&app, e, 0)).await;
    r.assert_detail(StatusCode::CONFLICT, "is not open");
    let r = app.close_evening_check_in(&n.arbiter, e).await;
    r.assert_detail(StatusCode::CONFLICT, "is not open");
    assert_eq!(stored(&app).await, before, "nothing stored");
}

#[actix_web::test]
async fn a_member_checks_into_the_blitz_championship_of_the_evening_with_the_code() {
    let app = spawn().await;
    let n = night(&app).await;
    let e = n.evenings[0];
    let blitz = CompetitionBuilder::blitz(FRIDAY)
        .in_season(n.season)
        .create(&app, &n.leader)
        .await
        .comp;
    let p = app
        .create_player(&n.leader, json!({"name": "Els", "membership": "fixed"}))
        .await
        .body["id"]
        .as_i64()
        .unwrap();
    let t = app.member_token(p).await;
    app.open_evening_check_in(&n.arbiter, e).await;
    let r = app.self_check_in(&t, e, &code(&app, e, 1)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        r.body["competitions"],
        json!([{"competition_id": blitz, "competition_name": "Blitz", "round": null,
            "outcome": "checked_in", "reason": null}])
    );
    let view = app.checked_in(Some(&n.arbiter), blitz).await;
    assert_eq!(texts(&view.body["players"], "name"), ["Els"]);
    let r = app.self_check_in(&t, e, &code(&app, e, 0)).await;
    assert_eq!(r.body["competitions"][0]["outcome"], "already_checked_in");
    assert_eq!(app.checked_in(None, blitz).await.body["participants"], 1);
    // the staff close the blitz check-in: a later scan is refused naming that closure
    let q = app
        .create_player(&n.leader, json!({"name": "Fien", "membership": "fixed"}))
        .await
        .body["id"]
        .as_i64()
        .unwrap();
    let r = app
        .check_in(&n.arbiter, blitz, json!({"player_id": q}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let r = app.close_check_in(&n.arbiter, blitz).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let late = app
        .create_player(&n.leader, json!({"name": "Gijs", "membership": "fixed"}))
        .await
        .body["id"]
        .as_i64()
        .unwrap();
    let tl = app.member_token(late).await;
    let r = app.self_check_in(&tl, e, &code(&app, e, 0)).await;
    r.assert_detail(StatusCode::CONFLICT, "was closed at");
}

#[actix_web::test]
async fn an_account_without_a_player_or_outside_the_evenings_competitions_is_refused() {
    let app = spawn().await;
    let n = night(&app).await;
    let e = n.evenings[0];
    rapid_on(&app, &n, e).await;
    app.open_evening_check_in(&n.arbiter, e).await;
    let unlinked = app.token(&["member"]).await;
    let r = app.self_check_in(&unlinked, e, &code(&app, e, 0)).await;
    r.assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "not linked to a player");
    let outsider = app
        .create_player(&n.leader, json!({"name": "Hans", "membership": "fixed"}))
        .await
        .body["id"]
        .as_i64()
        .unwrap();
    let t = app.member_token(outsider).await;
    let r = app.self_check_in(&t, e, &code(&app, e, 0)).await;
    r.assert_detail(StatusCode::CONFLICT, "plays in none of the competitions");
    let r = app.self_check_in(&t, 999_999, &code(&app, e, 0)).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text);
    let r = app.open_evening_check_in(&t, e).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text);
}

#[actix_web::test]
async fn an_account_sends_at_most_ten_check_ins_a_minute() {
    let app = spawn().await;
    let n = night(&app).await;
    let e = n.evenings[0];
    let fx = rapid_on(&app, &n, e).await;
    app.open_evening_check_in(&n.arbiter, e).await;
    let t = app.member_token(fx.players[0]).await;
    for _ in 0..10 {
        let r = app.self_check_in(&t, e, "000000").await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    }
    let r = app.self_check_in(&t, e, &code(&app, e, 0)).await;
    r.assert_detail(
        StatusCode::TOO_MANY_REQUESTS,
        "at most 10 check-ins a minute",
    );
    assert!(r.header("retry-after").is_some());
    // another account is not held up
    let other = app.member_token(fx.players[1]).await;
    let r = app.self_check_in(&other, e, &code(&app, e, 0)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

/// A rapid round on an evening gone by: its cut-off, 15 minutes before the round in club time
/// (the opening evening starts at 20:15 Amsterdam time, so the end of 20:00), has passed. The member's self
/// check-in is refused naming the cut-off, and nothing is stored.
#[actix_web::test]
async fn a_self_check_in_after_the_rapids_cut_off_is_refused_naming_it() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let season = SeasonBuilder::new()
        .name("Seizoen 2020-2021")
        .opening_date("2020-09-04")
        .create(&app, &leader)
        .await;
    let r = app.generate_calendar(&leader, season, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let first = &r.body.as_array().unwrap()[0];
    assert_eq!(first["date"], "2020-09-04");
    assert_eq!(first["start_time"], "20:15");
    let e = first["id"].as_i64().unwrap();
    let n = Night {
        leader,
        arbiter,
        season,
        evenings: vec![e],
    };
    let fx = rapid_on(&app, &n, e).await;
    let r = app.open_evening_check_in(&n.arbiter, e).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let t = app.member_token(fx.players[0]).await;
    let before = stored(&app).await;
    let r = app.self_check_in(&t, e, &code(&app, e, 0)).await;
    r.assert_detail(
        StatusCode::CONFLICT,
        "Rapid: checked in after the cut-off: not paired this round; check-in for round 1 \
         closed at the end of 20:00 Europe/Amsterdam on 2020-09-04",
    );
    assert_eq!(stored(&app).await, before, "nothing stored");
    let att = app
        .get(&paths::round_attendance(fx.comp, 1), Some(&n.leader))
        .await;
    assert_eq!(att.status, StatusCode::OK, "{}", att.text);
    assert_eq!(att.body["history"], json!([]));
}
