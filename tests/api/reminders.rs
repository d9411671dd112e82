//! Reminders before the sign-up deadline
//! (docs/decisions/0329-reminders-with-attendance-links.md): a pass with the clock as a
//! parameter queues, within `REMINDER_HOURS_BEFORE` of the deadline, one mail per player and
//! round to flexible players not signed up and fixed players not signed off, each with a
//! signed link; opening the link changes nothing, its page's button records the change.
//!
//! The round is on Friday 2 January 2099; its deadline (docs/rules/keizer.md#attendance-and-deadlines,
//! the day before at 18:00 in Amsterdam, winter time UTC+1) is 2099-01-01T17:00:00Z.

use crate::mail::mail_to;
use crate::support::*;
use actix_web::http::StatusCode;
use chrono::{DateTime, Utc};
use clubcomp::ids::{PlayerId, RoundId};
use clubcomp::services::reminders::{self, Keys, Link, LinkAction};
use serde_json::json;

fn at(s: &str) -> DateTime<Utc> {
    s.parse().unwrap()
}

/// Runs a reminder pass at `now`; how many mails it queued.
async fn remind(app: &TestApp, now: &str) -> usize {
    let now = at(now);
    let state = app.state.clone();
    app.with_conn(move |c| {
        let keys = Keys {
            settings: &state.config.mail,
            unsubscribe: &state.unsubscribe,
            links: &state.attendance_links,
        };
        reminders::remind(c, keys, now, "Europe/Amsterdam").unwrap()
    })
    .await
}

async fn member(
    app: &TestApp,
    leader: &str,
    name: &str,
    membership: &str,
    email: Option<&str>,
) -> i64 {
    let mut body = json!({"name": name, "membership": membership});
    if let Some(e) = email {
        body["email"] = json!(e);
    }
    let r = app.create_player(leader, body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    r.body["id"].as_i64().unwrap()
}

struct Evening {
    comp: i64,
    ann: i64,
    bob: i64,
}

/// Ann (fixed), Bob (flexible), Cas (flexible, signed up), Dirk (fixed, signed off), Eva
/// (fixed, no address) and Femke (flexible, English) in a Keizer competition with round 1 on
/// 2 January 2099.
async fn evening(app: &TestApp) -> Evening {
    let club = ClubBuilder::new().build(app).await;
    let l = club.leader.clone();
    let ann = member(app, &l, "Ann Aalders", "fixed", Some("ann@club.example")).await;
    let bob = member(app, &l, "Bob Bakker", "flexible", Some("bob@club.example")).await;
    let cas = member(app, &l, "Cas Claes", "flexible", Some("cas@club.example")).await;
    let dirk = member(app, &l, "Dirk Dekker", "fixed", Some("dirk@club.example")).await;
    let eva = member(app, &l, "Eva Evers", "fixed", None).await;
    let femke = member(
        app,
        &l,
        "Femke Faber",
        "flexible",
        Some("femke@club.example"),
    )
    .await;
    app.with_conn(move |c| {
        clubcomp::services::preferences::set_language(
            c,
            PlayerId(femke),
            "en",
            chrono::Utc::now().naive_utc(),
        )
        .unwrap()
    })
    .await;
    let fx = CompetitionBuilder::keizer()
        .set("name", "Interne competitie")
        .entrants(&[ann, bob, cas, dirk, eva, femke])
        .create(app, &l)
        .await;
    assert_eq!(add_round(app, &l, fx.comp, FUTURE).await, 1);
    attendance(app, fx.comp, 1, cas, "sign_up").await;
    attendance(app, fx.comp, 1, dirk, "sign_off").await;
    Evening {
        comp: fx.comp,
        ann,
        bob,
    }
}

/// The engine's status of `player` in round 1 of `comp`.
async fn status(app: &TestApp, comp: i64, player: i64) -> String {
    app.with_conn(move |c| {
        let comp =
            clubcomp::services::competitions::load(c, clubcomp::ids::CompetitionId(comp)).unwrap();
        let round = clubcomp::services::rounds::load(c, comp.id, 1).unwrap();
        let a =
            clubcomp::services::attendance::evening(c, &comp, &round, "Europe/Amsterdam").unwrap();
        let p = a
            .players
            .iter()
            .find(|p| p.player == player.to_string())
            .unwrap();
        format!("{:?}", p.status)
    })
    .await
}

async fn reminder_mails(app: &TestApp) -> Vec<(String, String)> {
    let mut m = queued_mails(app, "reminder").await;
    m.sort();
    m
}

async fn open(app: &TestApp, token: &str) -> Resp {
    app.get(&format!("{}?token={token}", reminders::PAGE), None)
        .await
}

async fn press(app: &TestApp, token: &str) -> Resp {
    let r = actix_web::test::TestRequest::post()
        .uri(reminders::PAGE)
        .insert_header(("Content-Type", "application/x-www-form-urlencoded"))
        .set_payload(format!("token={token}"));
    app.send(r).await
}

#[actix_web::test]
async fn reminders_go_once_within_the_lead_time_to_those_who_still_have_to_act() {
    let app = spawn_with(mail_to("smtp://127.0.0.1:9")).await;
    let e = evening(&app).await;
    // 25 hours before the deadline: not yet (the lead time is 24 hours)
    assert_eq!(remind(&app, "2098-12-31T16:00:00Z").await, 0);
    // 17 hours before: Ann (fixed, expected), Bob and Femke (flexible, not signed up)
    assert_eq!(remind(&app, "2099-01-01T00:00:00Z").await, 3);
    let mails = reminder_mails(&app).await;
    let to: Vec<&str> = mails.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(
        to,
        ["ann@club.example", "bob@club.example", "femke@club.example"]
    );
    // 2 January 2099 is a Friday, 1 January a Thursday
    assert!(
        mails[0].1.contains(
            "Je wordt verwacht in ronde 1 van Interne competitie op vrijdag 2 januari 2099. \
             Kun je niet komen, meld je dan af vóór donderdag 1 januari 2099 om 18:00"
        ),
        "{}",
        mails[0].1
    );
    assert!(
        mails[1].1.contains(
            "Je bent nog niet aangemeld voor ronde 1 van Interne competitie op vrijdag 2 \
             januari 2099. Aanmelden kan tot donderdag 1 januari 2099 om 18:00"
        ),
        "{}",
        mails[1].1
    );
    assert!(
        mails[2].1.contains("You have not signed up for round 1"),
        "{}",
        mails[2].1
    );
    for (to, text) in &mails {
        assert!(text.contains("SV De Toren"), "{to}: {text}");
        assert!(
            text.contains("https://toren.example/mail/attendance?token="),
            "{to}: {text}"
        );
        assert!(
            text.contains("https://toren.example/mail/unsubscribe?token="),
            "{to}: {text}"
        );
    }
    // a later pass, and one at the deadline, mail nobody again
    assert_eq!(remind(&app, "2099-01-01T12:00:00Z").await, 0);
    assert_eq!(remind(&app, "2099-01-01T17:00:00Z").await, 0);
    assert_eq!(reminder_mails(&app).await.len(), 3);
    let _ = e;
}

#[actix_web::test]
async fn a_reminder_link_records_the_change_only_when_its_button_is_pressed() {
    let app = spawn_with(mail_to("smtp://127.0.0.1:9")).await;
    let e = evening(&app).await;
    assert_eq!(remind(&app, "2099-01-01T00:00:00Z").await, 3);
    let mails = reminder_mails(&app).await;
    let ann = link_token(&mails[0].1, reminders::PAGE);
    let bob = link_token(&mails[1].1, reminders::PAGE);
    assert_eq!(status(&app, e.comp, e.bob).await, "NotSignedUp");
    // opening the link (a mail scanner does) shows the button and changes nothing
    for _ in 0..2 {
        let r = open(&app, &bob).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert!(r.text.contains("Bob Bakker: Aanmelden voor"), "{}", r.text);
        assert!(r.text.contains("method=\"post\""), "{}", r.text);
    }
    assert_eq!(status(&app, e.comp, e.bob).await, "NotSignedUp");
    // the button signs Bob up, and Ann off
    let r = press(&app, &bob).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(
        r.text.contains(
            "Je bent aangemeld voor ronde 1 van Interne competitie op vrijdag 2 januari 2099."
        ),
        "{}",
        r.text
    );
    assert_eq!(status(&app, e.comp, e.bob).await, "SignedUp");
    assert_eq!(status(&app, e.comp, e.ann).await, "Expected");
    let r = press(&app, &ann).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(status(&app, e.comp, e.ann).await, "Excused");
}

#[actix_web::test]
async fn a_tampered_or_expired_reminder_link_says_why_and_changes_nothing() {
    let app = spawn_with(mail_to("smtp://127.0.0.1:9")).await;
    let e = evening(&app).await;
    assert_eq!(remind(&app, "2099-01-01T00:00:00Z").await, 3);
    let mails = reminder_mails(&app).await;
    let bob = link_token(&mails[1].1, reminders::PAGE);
    // Bob's link with Ann's id in it
    let round = bob.split('.').next().unwrap().to_string();
    let forged = bob.replacen(
        &format!("{round}.{}.", e.bob),
        &format!("{round}.{}.", e.ann),
        1,
    );
    assert_ne!(forged, bob);
    for r in [open(&app, &forged).await, press(&app, &forged).await] {
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
        assert!(
            r.text
                .contains("token: is not a sign-up or sign-off link of this club"),
            "{}",
            r.text
        );
    }
    // a link this club signed whose deadline has passed
    let expired = app.state.attendance_links.token(&Link {
        round: RoundId(round.parse().unwrap()),
        player: PlayerId(e.bob),
        action: LinkAction::SignUp,
        expires: at("2020-01-01T17:00:00Z"),
    });
    let r = press(&app, &expired).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(
        r.text
            .contains("this link expired at the sign-up deadline, 2020-01-01 17:00 UTC"),
        "{}",
        r.text
    );
    let r = press(&app, "").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    assert_eq!(status(&app, e.comp, e.bob).await, "NotSignedUp");
    assert_eq!(status(&app, e.comp, e.ann).await, "Expected");
}
