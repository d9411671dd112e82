//! Calendar generation (docs/rules/keizer.md#calendar) and the iCalendar feed (RFC 5545).

use crate::support::*;
use actix_web::http::{Method, StatusCode};
use serde_json::{Value, json};

async fn evening_count(app: &TestApp) -> i64 {
    app.with_conn(|c| {
        use clubcomp_core::test_store::schema::evenings;
        use diesel::{QueryDsl, RunQueryDsl};
        evenings::table.count().get_result::<i64>(c).unwrap()
    })
    .await
}

/// The made-up KNSB rounds of the calendar engine's worked example (all Saturdays).
fn knsb() -> Value {
    json!([
        "2026-09-26",
        "2026-10-17",
        "2026-11-07",
        "2026-11-28",
        "2026-12-19",
        "2027-01-30",
        "2027-02-20",
        "2027-03-13",
        "2027-04-10"
    ])
}

#[actix_web::test]
async fn generate_store_and_replace() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let season = SeasonBuilder::new()
        .name("2026-2027")
        .opening_date("2026-09-05") // a Saturday
        .create(&app, &leader)
        .await;
    let url = paths::calendar(season);

    // bad dates: every field named, nothing written
    let r = app
        .post(
            &url,
            Some(&leader),
            json!({"knsb_round_dates": ["2026-09-26", "26-10-2026"], "closed_dates": ["x"],
                   "season_end": "June"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let fields = r.errors("field");
    assert_eq!(
        fields,
        ["knsb_round_dates[1]", "closed_dates[0]", "season_end"]
    );
    // a season too short for the summer half (8 Jan … 26 Feb: 6 of 10 evenings)
    let r = app
        .post(
            &url,
            Some(&leader),
            json!({"knsb_round_dates": knsb(), "closed_dates": ["2026-12-25"],
                   "season_end": "2027-03-01"}),
        )
        .await;
    r.assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "6 of 10");
    assert_eq!(evening_count(&app).await, 0);

    let r = app
        .post(
            &url,
            Some(&leader),
            json!({"knsb_round_dates": knsb(), "closed_dates": ["2026-12-25"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let evs = r.body.as_array().unwrap().clone();
    // every Friday from 11 Sep 2026 to 25 Jun 2027 (default end 30 June): 42
    assert_eq!(evs.len(), 42);
    let on = |d: &str| evs.iter().find(|e| e["date"] == d).unwrap().clone();
    // Worked by hand (docs/rules/keizer.md#calendar): rapid = the Friday before each KNSB Saturday; winter from
    // 11 Sep skipping rapid evenings; 1 Jan 2027 is the first Friday of January and may not
    // start the summer, which starts on 8 Jan; playoffs 16 and 30 April.
    let keizer = |half: &str| -> Vec<String> {
        evs.iter()
            .filter(|e| e["kind"] == "keizer" && e["half"] == half)
            .map(|e| e["date"].as_str().unwrap()[5..].to_string())
            .collect()
    };
    assert_eq!(
        keizer("winter"),
        [
            "09-11", "09-18", "10-02", "10-09", "10-23", "10-30", "11-13", "11-20", "12-04",
            "12-11"
        ]
    );
    assert_eq!(
        keizer("summer"),
        [
            "01-08", "01-15", "01-22", "02-05", "02-12", "02-26", "03-05", "03-19", "03-26",
            "04-02"
        ]
    );
    assert_eq!(on("2026-09-11")["start_time"], "20:15");
    assert_eq!(on("2026-09-11")["number"], 1);
    assert_eq!(on("2026-09-25")["kind"], "rapid");
    assert_eq!(on("2026-09-25")["start_time"], "20:30");
    assert_eq!(on("2026-09-25")["number"], 1);
    assert_eq!(on("2026-12-18")["number"], 5);
    assert_eq!(on("2026-12-25")["kind"], "closed");
    assert_eq!(on("2027-01-01")["kind"], "free");
    assert_eq!(on("2027-01-08")["number"], 1);
    assert_eq!(on("2027-04-16")["kind"], "playoff");
    assert_eq!(on("2027-04-16")["number"], 1);
    assert_eq!(on("2027-04-23")["kind"], "free");
    assert_eq!(on("2027-04-30")["kind"], "playoff");
    assert_eq!(on("2027-04-30")["number"], 2);
    // the JSON calendar lists the same
    let listed = app.get(&paths::evenings(season), None).await;
    assert_eq!(listed.body["items"].as_array().unwrap().len(), 42);
    assert_eq!(listed.body["total"], 42);

    // a second generation is a conflict unless replace
    let r = app
        .post(&url, Some(&leader), json!({"knsb_round_dates": knsb()}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    let r = app
        .post(&url, Some(&leader), json!({"replace": true}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    // without KNSB rounds or closed dates: no rapid, no closed evening
    assert!(
        r.body
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["kind"] != "rapid" && e["kind"] != "closed")
    );
    assert_eq!(evening_count(&app).await, 42);

    // once a round on an evening is paired, the calendar is no longer replaced (a Keizer
    // half's planned rounds alone are made again from the new calendar)
    let comp = app
        .create_competition(
            &leader,
            season,
            json!({"name": "Keizer winter", "kind": "keizer", "half": "winter"}),
        )
        .await;
    let comp = comp.body["id"].as_i64().unwrap();
    let r = app
        .post(&url, Some(&leader), json!({"replace": true}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    advance(&app, comp, 1, "planned", "paired").await;
    let before = app.get(&paths::evenings(season), None).await;
    let r = app
        .post(
            &url,
            Some(&leader),
            json!({"replace": true, "knsb_round_dates": knsb()}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(
        app.get(&paths::evenings(season), None).await.body,
        before.body
    );

    // roles and a missing season
    let member = app.token(&["member"]).await;
    assert_eq!(
        app.post(&url, Some(&member), json!({})).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        app.post(&url, None, json!({})).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.generate_calendar(&leader, 999999, json!({}))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

fn unfold(text: &str) -> String {
    text.replace("\r\n ", "")
}

#[actix_web::test]
async fn icalendar_feed() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let season = SeasonBuilder::new()
        .name("2026-2027")
        .opening_date("2026-09-05")
        .create(&app, &leader)
        .await;
    let evs = app
        .generate_calendar(
            &leader,
            season,
            json!({"knsb_round_dates": knsb(), "closed_dates": ["2026-12-25"]}),
        )
        .await
        .body;
    // a long note with non-ASCII text and characters that need escaping
    let first = evs[0]["id"].as_i64().unwrap();
    let note = "Seizoensopening: één ronde, daarna borrel; iedereen welkom — ook gasten, \
                ouders en oud-leden. Koffie € 1,50.";
    let r = app
        .req(
            Method::PATCH,
            &paths::evening(first),
            Some(&leader),
            Some(json!({"note": note})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);

    let url = paths::calendar_ics(season);
    let r = app.get(&url, None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(
        r.header("content-type")
            .unwrap()
            .starts_with("text/calendar")
    );
    let text = &r.text;
    assert!(text.starts_with("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"));
    assert!(text.ends_with("END:VCALENDAR\r\n"));
    // CRLF everywhere, no line longer than 75 octets
    for line in text.split("\r\n") {
        assert!(!line.contains('\n') && !line.contains('\r'), "{line:?}");
        assert!(line.len() <= 75, "{} octets: {line:?}", line.len());
    }
    let text = unfold(text);
    assert_eq!(text.matches("BEGIN:VEVENT").count(), 42);
    assert!(text.contains("TZID:Europe/Amsterdam"));
    // Friday 11 Sep 2026 20:15 local (CEST), rapid 25 Sep at 20:30, closed 25 Dec all day
    assert!(text.contains("DTSTART;TZID=Europe/Amsterdam:20260911T201500\r\n"));
    assert!(text.contains("DTSTART;TZID=Europe/Amsterdam:20260925T203000\r\n"));
    assert!(text.contains("DTSTART;VALUE=DATE:20261225\r\n"));
    assert!(text.contains("SUMMARY:Keizer winter evening 1\r\n"));
    assert!(text.contains("SUMMARY:Rapid evening 1\r\n"));
    assert!(text.contains("SUMMARY:Playoffs round 2\r\n"));
    assert!(text.contains(
        "DESCRIPTION:Seizoensopening: één ronde\\, daarna borrel\\; iedereen welkom — ook gasten\\, ouders en oud-leden. Koffie € 1\\,50.\r\n"
    ));
    // UIDs: one per evening, the same on every fetch
    let uids = |t: &str| -> Vec<String> {
        t.split("\r\n")
            .filter(|l| l.starts_with("UID:"))
            .map(str::to_string)
            .collect()
    };
    let a = uids(&text);
    assert_eq!(a.len(), 42);
    assert_eq!(a.iter().collect::<std::collections::HashSet<_>>().len(), 42);
    assert!(a[0].contains(&format!("evening-{first}-")));
    let again = unfold(&app.get(&url, None).await.text);
    assert_eq!(uids(&again), a);
    assert_eq!(
        app.get(&paths::calendar_ics(999999), None).await.status,
        StatusCode::NOT_FOUND
    );
}

/// A round as listed: id, number, date, evening id, status.
type RoundRow = (i64, i64, String, Option<i64>, String);

async fn rounds_of(app: &TestApp, comp: i64) -> Vec<RoundRow> {
    // the round's id is not part of the API: read from the table, by number
    app.with_conn(move |c| {
        use clubcomp_core::test_store::schema::rounds;
        use diesel::prelude::*;
        rounds::table
            .filter(rounds::competition_id.eq(comp))
            .order(rounds::number)
            .select((
                rounds::id,
                rounds::number,
                rounds::date,
                rounds::evening_id,
                rounds::status,
            ))
            .load::<(i64, i32, Option<chrono::NaiveDate>, Option<i64>, String)>(c)
            .unwrap()
            .into_iter()
            .map(|(id, n, d, e, s)| {
                (
                    id,
                    i64::from(n),
                    d.map(|d| d.to_string()).unwrap_or_default(),
                    e,
                    s,
                )
            })
            .collect()
    })
    .await
}

/// The id of the season's evening on `date`.
async fn evening_on(app: &TestApp, season: i64, date: &str) -> i64 {
    let r = app
        .get(&format!("{}?per_page=200", paths::evenings(season)), None)
        .await;
    r.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["date"] == date)
        .and_then(|e| e["id"].as_i64())
        .unwrap_or_else(|| panic!("no evening on {date}: {}", r.text))
}

/// Season 2036-2037, opening on Saturday 6 September 2036, a KNSB round on Saturday 4 October
/// (so Friday 3 October is a rapid evening) and the venue closed on Friday 24 October.
async fn season_2036(app: &TestApp, leader: &str) -> i64 {
    let season = SeasonBuilder::new()
        .name("2036-2037")
        .opening_date("2036-09-06")
        .create(app, leader)
        .await;
    let r = app
        .generate_calendar(
            leader,
            season,
            json!({"knsb_round_dates": ["2036-10-04"], "closed_dates": ["2036-10-24"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    season
}

/// The winter half of [`season_2036`] by hand: the Fridays from 12 September on, without the
/// rapid 3 October and the closed 24 October, ten of them.
const WINTER_2036: [&str; 10] = [
    "2036-09-12",
    "2036-09-19",
    "2036-09-26",
    "2036-10-10",
    "2036-10-17",
    "2036-10-31",
    "2036-11-07",
    "2036-11-14",
    "2036-11-21",
    "2036-11-28",
];

#[actix_web::test]
async fn a_keizer_half_gets_a_planned_round_on_every_keizer_evening_of_its_half() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let season = season_2036(&app, &leader).await;
    let winter = CompetitionBuilder::keizer()
        .in_season(season)
        .create(&app, &leader)
        .await
        .comp;
    let rounds = rounds_of(&app, winter).await;
    let mut expected = Vec::new();
    for (i, d) in WINTER_2036.iter().enumerate() {
        expected.push((
            i as i64 + 1,
            d.to_string(),
            Some(evening_on(&app, season, d).await),
            "planned".to_string(),
        ));
    }
    let got: Vec<_> = rounds
        .iter()
        .map(|(_, n, d, e, s)| (*n, d.clone(), *e, s.clone()))
        .collect();
    assert_eq!(got, expected);

    // the summer half starts on the next Friday and has ten rounds of its own
    let summer =
        CompetitionBuilder::new(json!({"name": "Summer", "kind": "keizer", "half": "summer"}))
            .in_season(season)
            .create(&app, &leader)
            .await
            .comp;
    let rounds = rounds_of(&app, summer).await;
    assert_eq!(rounds.len(), 10);
    assert_eq!((rounds[0].1, rounds[0].2.as_str()), (1, "2036-12-05"));

    // rounds by hand: refused for the half, as before for a Swiss
    let r = app.create_round(&leader, winter, json!({})).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert!(r.text.contains("keizer evenings of its half"), "{}", r.text);
    let swiss = CompetitionBuilder::swiss("dutch")
        .in_season(season)
        .create(&app, &leader)
        .await
        .comp;
    assert!(rounds_of(&app, swiss).await.is_empty());
    let r = app
        .create_round(
            &leader,
            swiss,
            json!({"evening_id": evening_on(&app, season, "2036-10-03").await}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(rounds_of(&app, winter).await.len(), 10);
}

/// Signing off ahead: right after the half is made on the calendar, a member signs off for the
/// fourth evening, four weeks ahead, and the leader for the tenth on a player's behalf.
#[actix_web::test]
async fn a_member_signs_off_for_round_four_right_after_the_half_is_made() {
    use chrono::Datelike;
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    // the next Saturday after today opens the season; its Fridays follow six days later
    let today = chrono::Utc::now().date_naive();
    let ahead = (5 + 7 - i64::from(today.weekday().num_days_from_monday())) % 7;
    let opening = today + chrono::Duration::days(if ahead == 0 { 7 } else { ahead });
    let friday = |i: i64| (opening + chrono::Duration::days(6 + 7 * i)).to_string();
    let season = SeasonBuilder::new()
        .name("Ahead")
        .opening_date(&opening.to_string())
        .create(&app, &leader)
        .await;
    let end = (opening + chrono::Duration::days(364)).to_string();
    let r = app
        .generate_calendar(&leader, season, json!({"season_end": end}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let Fx { comp, players, .. } = CompetitionBuilder::keizer()
        .in_season(season)
        .members(&[("Fixed Fred", "fixed"), ("Fixed Frank", "fixed")])
        .create(&app, &leader)
        .await;
    let rounds = rounds_of(&app, comp).await;
    assert_eq!(rounds.len(), 10);
    assert_eq!(rounds[3].1, 4);
    assert_eq!(rounds[3].2, friday(3));
    assert_eq!(rounds[9].2, friday(9));

    let me = app.member_token(players[0]).await;
    let r = app
        .post(
            &paths::attendance_me(comp),
            Some(&me),
            json!({"action": "sign_off", "rounds": [4]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body[0]["round"], 4);
    assert_eq!(r.body[0]["status"], "excused");
    let r = app
        .post(
            &paths::attendance(comp),
            Some(&leader),
            json!({"player_id": players[1], "action": "sign_off", "rounds": [10], "channel": "phone"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body[0]["status"], "excused");
}

/// Evening edits: a moved evening keeps its round (the same id), and the planned rounds are
/// numbered by date again; a paired round never changes; a closed evening drops its planned
/// round; an evening that becomes a Keizer evening gets one.
#[actix_web::test]
async fn evening_edits_move_drop_and_add_planned_rounds_and_leave_paired_ones() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let season = season_2036(&app, &leader).await;
    let comp = CompetitionBuilder::keizer()
        .in_season(season)
        .create(&app, &leader)
        .await
        .comp;
    let before = rounds_of(&app, comp).await;
    let id_of = |n: i64| before[n as usize - 1].0;
    advance(&app, comp, 1, "planned", "paired").await;
    let paired = app.get(&paths::round(comp, 1), None).await.body;

    // round 3's evening (26 September) moves to Saturday 18 October, after rounds 4 and 5
    let third = evening_on(&app, season, "2036-09-26").await;
    let r = app
        .update_evening(&leader, third, json!({"date": "2036-10-18"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let after = rounds_of(&app, comp).await;
    let numbered: Vec<(i64, i64, &str)> = after
        .iter()
        .map(|(id, n, d, _, _)| (*id, *n, d.as_str()))
        .collect();
    assert_eq!(
        &numbered[..6],
        [
            (id_of(1), 1, "2036-09-12"),
            (id_of(2), 2, "2036-09-19"),
            (id_of(4), 3, "2036-10-10"),
            (id_of(5), 4, "2036-10-17"),
            (id_of(3), 5, "2036-10-18"),
            (id_of(6), 6, "2036-10-31"),
        ]
    );
    assert_eq!(after[4].3, Some(third), "the round stays on its evening");

    // the paired round's evening keeps its date and kind; nothing moves before it
    let first = evening_on(&app, season, "2036-09-12").await;
    for body in [json!({"date": "2036-09-13"}), json!({"kind": "closed"})] {
        let r = app.update_evening(&leader, first, body).await;
        assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
        assert!(r.text.contains("is paired"), "{}", r.text);
    }
    let second = evening_on(&app, season, "2036-09-19").await;
    let r = app
        .update_evening(&leader, second, json!({"date": "2036-09-11"}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert!(r.text.contains("on or before"), "{}", r.text);
    assert_eq!(app.get(&paths::round(comp, 1), None).await.body, paired);

    // 17 October is closed after all: its round goes, the later ones move up
    let r = app
        .update_evening(
            &leader,
            evening_on(&app, season, "2036-10-17").await,
            json!({"kind": "closed"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // the rapid evening of 3 October becomes a Keizer evening of the winter half
    let rapid = evening_on(&app, season, "2036-10-03").await;
    let r = app
        .update_evening(&leader, rapid, json!({"kind": "keizer"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["half"], "winter");
    let last = rounds_of(&app, comp).await;
    let dates: Vec<(i64, &str)> = last
        .iter()
        .map(|(_, n, d, _, _)| (*n, d.as_str()))
        .collect();
    assert_eq!(
        dates,
        [
            (1, "2036-09-12"),
            (2, "2036-09-19"),
            (3, "2036-10-03"),
            (4, "2036-10-10"),
            (5, "2036-10-18"),
            (6, "2036-10-31"),
            (7, "2036-11-07"),
            (8, "2036-11-14"),
            (9, "2036-11-21"),
            (10, "2036-11-28"),
        ]
    );
    assert_eq!(last[0].0, id_of(1));
    assert_eq!(last[4].0, id_of(3));
    assert_eq!(app.get(&paths::round(comp, 1), None).await.body, paired);
}

/// A calendar stored after the half exists gives it its rounds; replacing the calendar makes
/// them again from the new one, until a sign-off is recorded for one of them.
#[actix_web::test]
async fn a_calendar_made_after_the_half_gives_it_its_rounds() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let season = SeasonBuilder::new()
        .name("2036-2037")
        .opening_date("2036-09-06")
        .create(&app, &leader)
        .await;
    let Fx { comp, players, .. } = CompetitionBuilder::keizer()
        .in_season(season)
        .members(&[("Fixed Fred", "fixed")])
        .create(&app, &leader)
        .await;
    assert!(rounds_of(&app, comp).await.is_empty());
    let r = app
        .generate_calendar(
            &leader,
            season,
            json!({"knsb_round_dates": ["2036-10-04"], "closed_dates": ["2036-10-24"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let dates: Vec<String> = rounds_of(&app, comp)
        .await
        .into_iter()
        .map(|r| r.2)
        .collect();
    assert_eq!(dates, WINTER_2036);

    // without the closed evening, the half ends a week earlier
    let r = app
        .generate_calendar(
            &leader,
            season,
            json!({"knsb_round_dates": ["2036-10-04"], "replace": true}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let rounds = rounds_of(&app, comp).await;
    let dates: Vec<&str> = rounds.iter().map(|r| r.2.as_str()).collect();
    assert_eq!(
        dates,
        [
            "2036-09-12",
            "2036-09-19",
            "2036-09-26",
            "2036-10-10",
            "2036-10-17",
            "2036-10-24",
            "2036-10-31",
            "2036-11-07",
            "2036-11-14",
            "2036-11-21",
        ]
    );
    let numbers: Vec<i64> = rounds.iter().map(|r| r.1).collect();
    assert_eq!(numbers, (1..=10).collect::<Vec<_>>());

    // a sign-off for one of them keeps the calendar
    let r = app
        .post(
            &paths::attendance(comp),
            Some(&leader),
            json!({"player_id": players[0], "action": "sign_off", "rounds": [2], "channel": "phone"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app
        .generate_calendar(&leader, season, json!({"replace": true}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert!(r.text.contains("sign-ups and sign-offs"), "{}", r.text);
    assert_eq!(rounds_of(&app, comp).await, rounds);
}
