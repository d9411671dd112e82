//! Calendar generation (docs/rules/keizer.md#calendar) and the iCalendar feed (RFC 5545).

use crate::support::*;
use actix_web::http::{Method, StatusCode};
use serde_json::{Value, json};

async fn evening_count(app: &TestApp) -> i64 {
    app.with_conn(|c| {
        use clubcomp::db::schema::evenings;
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
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(
        r.body["detail"].as_str().unwrap().contains("6 of 10"),
        "{}",
        r.text
    );
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
    assert_eq!(listed.body.as_array().unwrap().len(), 42);

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

    // once a round uses an evening, the calendar is no longer replaced
    let evening_id = r.body[0]["id"].as_i64().unwrap();
    let comp = app
        .create_competition(
            &leader,
            season,
            json!({"name": "Keizer winter", "kind": "keizer", "half": "winter"}),
        )
        .await;
    let comp = comp.body["id"].as_i64().unwrap();
    let r = app
        .create_round(&leader, comp, json!({"evening_id": evening_id}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
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
