//! Notification mails (docs/decisions/0324-pairing-mails.md): publishing a round queues, in
//! its transaction, one pairing mail per player with an address and pairing mails on,
//! naming board, colour and opponent (or the bye, or "not paired"), in the player's
//! language; a second publication mails nobody twice.

use crate::mail::mail_to;
use crate::support::*;
use actix_web::http::StatusCode;
use serde_json::json;

/// A new player named `name` with address `email` (none: no address); their id.
async fn player(app: &TestApp, leader: &str, name: &str, email: Option<&str>) -> i64 {
    let mut body = json!({"name": name});
    if let Some(e) = email {
        body["email"] = json!(e);
    }
    let r = app.create_player(leader, body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    r.body["id"].as_i64().unwrap()
}

/// Sets `player`'s stored language.
async fn language(app: &TestApp, player: i64, lang: &'static str) {
    app.with_conn(move |c| {
        clubcomp::services::preferences::set_language(
            c,
            clubcomp::ids::PlayerId(player),
            lang,
            chrono::Utc::now().naive_utc(),
        )
        .unwrap()
    })
    .await
}

/// Publishes round `number` of `comp`.
async fn publish(app: &TestApp, leader: &str, comp: i64, number: i32) -> Resp {
    app.post(
        &format!("/api/v1/competitions/{comp}/rounds/{number}/publish"),
        Some(leader),
        json!({}),
    )
    .await
}

/// A Keizer winter of Ann, Bob, Cas, Dirk (no address), Eva (English) and Femke, with round 1
/// paired: Ann–Bob on board 1, Dirk–Cas on board 2, a bye for Eva; Femke is expected and not
/// paired. The leader's token, the competition and the player ids in that order.
async fn paired_round(app: &TestApp) -> (String, i64, Vec<i64>) {
    let club = ClubBuilder::new().build(app).await;
    let l = club.leader.clone();
    let ann = player(app, &l, "Ann Aalders", Some("ann@club.example")).await;
    let bob = player(app, &l, "Bob Bakker", Some("bob@club.example")).await;
    let cas = player(app, &l, "Cas Claes", Some("cas@club.example")).await;
    let dirk = player(app, &l, "Dirk Dekker", None).await;
    let eva = player(app, &l, "Eva Evers", Some("eva@club.example")).await;
    let femke = player(app, &l, "Femke Faber", Some("femke@club.example")).await;
    language(app, eva, "en").await;
    let ids = vec![ann, bob, cas, dirk, eva, femke];
    let fx = CompetitionBuilder::keizer()
        .entrants(&ids)
        .create(app, &l)
        .await;
    round(
        app,
        &l,
        fx.comp,
        vec![
            (ann, Some(bob), None),
            (dirk, Some(cas), None),
            (eva, None, None),
        ],
        "paired",
    )
    .await;
    (l, fx.comp, ids)
}

/// The queued pairing mails as (recipient, text), by recipient.
async fn pairing_mails(app: &TestApp) -> Vec<(String, String)> {
    let mut m = queued_mails(app, "pairing").await;
    m.sort();
    m
}

#[actix_web::test]
async fn a_publication_mails_each_player_with_an_address_their_board_colour_and_opponent() {
    let app = spawn_with(mail_to("smtp://127.0.0.1:9")).await;
    let (leader, comp, _) = paired_round(&app).await;
    assert!(
        pairing_mails(&app).await.is_empty(),
        "a paired round mails nobody"
    );
    let r = publish(&app, &leader, comp, 1).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let mails = pairing_mails(&app).await;
    let to: Vec<&str> = mails.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(
        to,
        [
            "ann@club.example",
            "bob@club.example",
            "cas@club.example",
            "eva@club.example",
            "femke@club.example"
        ]
    );
    let lines = [
        "Je speelt aan bord 1 met wit tegen Bob Bakker.",
        "Je speelt aan bord 1 met zwart tegen Ann Aalders.",
        "Je speelt aan bord 2 met zwart tegen Dirk Dekker.",
        "You have a bye this round.",
        "Je bent deze ronde niet ingedeeld.",
    ];
    for ((to, text), line) in mails.iter().zip(lines) {
        assert!(text.contains(line), "{to}: {text}");
        assert!(
            text.contains(&format!("https://toren.example/club/competitions/{comp}")),
            "{to}: {text}"
        );
        assert!(text.contains("SV De Toren"), "{to}: {text}");
    }
    assert!(
        mails[0].1.starts_with("Hallo Ann Aalders,"),
        "{}",
        mails[0].1
    );
    assert!(mails[3].1.starts_with("Hello Eva Evers,"), "{}", mails[3].1);
    // the round is published once: a second publication is refused and mails nobody again
    let r = publish(&app, &leader, comp, 1).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(pairing_mails(&app).await.len(), 5);
}

#[actix_web::test]
async fn a_player_with_pairing_mails_off_gets_none() {
    let app = spawn_with(mail_to("smtp://127.0.0.1:9")).await;
    let (leader, comp, ids) = paired_round(&app).await;
    let bob = ids[1];
    app.with_conn(move |c| {
        clubcomp::services::preferences::turn_off(
            c,
            clubcomp::ids::PlayerId(bob),
            clubcomp_core::vocab::NotifyKind::Pairing,
            chrono::Utc::now().naive_utc(),
        )
        .unwrap()
    })
    .await;
    let r = publish(&app, &leader, comp, 1).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let to: Vec<String> = pairing_mails(&app)
        .await
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    assert_eq!(
        to,
        [
            "ann@club.example",
            "cas@club.example",
            "eva@club.example",
            "femke@club.example"
        ]
    );
}

#[actix_web::test]
async fn with_pairing_mails_off_by_default_only_those_who_chose_them_get_one() {
    let app = spawn_with(|c| {
        mail_to("smtp://127.0.0.1:9")(c);
        c.mail.notify_defaults = vec![clubcomp_core::vocab::NotifyKind::Result];
    })
    .await;
    let (leader, comp, ids) = paired_round(&app).await;
    let cas = ids[2];
    app.with_conn(move |c| {
        use clubcomp::services::preferences::{Stored, set_all};
        let on = Stored {
            pairing: Some(true),
            ..Stored::default()
        };
        set_all(
            c,
            clubcomp::ids::PlayerId(cas),
            &on,
            None,
            chrono::Utc::now().naive_utc(),
        )
        .unwrap()
    })
    .await;
    let r = publish(&app, &leader, comp, 1).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let mails = pairing_mails(&app).await;
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert_eq!(mails[0].0, "cas@club.example");
}

/// The pairing mails' (recipient, unsubscribe link) in the outbox, by recipient.
async fn unsubscribe_links(app: &TestApp) -> Vec<(String, Option<String>)> {
    let mut rows: Vec<(String, Option<String>)> = app
        .with_conn(|c| {
            use clubcomp_core::test_store::schema::mail_outbox as mo;
            use diesel::prelude::*;
            mo::table
                .filter(mo::kind.eq("pairing"))
                .select((mo::recipient, mo::unsubscribe_url))
                .load(c)
                .unwrap()
        })
        .await;
    rows.sort();
    rows
}

/// Posts an unsubscribe link as a mail client does (RFC 8058): no login, a form body.
async fn one_click(app: &TestApp, path: &str) -> Resp {
    let r = actix_web::test::TestRequest::post()
        .uri(path)
        .insert_header(("Content-Type", "application/x-www-form-urlencoded"))
        .set_payload("List-Unsubscribe=One-Click");
    app.send(r).await
}

async fn put_choices(app: &TestApp, token: &str, body: serde_json::Value) -> Resp {
    app.req(
        actix_web::http::Method::PUT,
        "/api/v1/me/notifications",
        Some(token),
        Some(body),
    )
    .await
}

#[actix_web::test]
async fn a_member_reads_and_sets_their_notification_choices() {
    let app = spawn_with(mail_to("smtp://127.0.0.1:9")).await;
    let club = ClubBuilder::new().build(&app).await;
    let ann = player(&app, &club.leader, "Ann Aalders", Some("ann@club.example")).await;
    let token = app.member_token(ann).await;
    // nothing chosen: the club's defaults (pairing and reminder on) and Dutch
    let r = app.get("/api/v1/me/notifications", Some(&token)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        r.body,
        json!({"pairing": true, "reminder": true, "result": false, "decision": false,
            "prizes": false, "language": "nl"})
    );
    let chosen = json!({"pairing": false, "reminder": true, "result": true, "decision": false,
        "prizes": true, "language": "en"});
    let r = put_choices(&app, &token, chosen.clone()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body, chosen);
    let r = app.get("/api/v1/me/notifications", Some(&token)).await;
    assert_eq!(r.body, chosen);
    // refused bodies name the field and change nothing
    let mut bad = chosen.clone();
    bad["language"] = json!("fr");
    bad["pairing"] = json!(true);
    let r = put_choices(&app, &token, bad).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "language", "{}", r.text);
    let mut bad = chosen.clone();
    bad["sms"] = json!(true);
    let r = put_choices(&app, &token, bad).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(r.text.contains("sms"), "{}", r.text);
    let r = put_choices(&app, &token, json!({"pairing": true})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let r = app.get("/api/v1/me/notifications", Some(&token)).await;
    assert_eq!(r.body, chosen);
    // an account without a player, and no login
    let leader = app
        .get("/api/v1/me/notifications", Some(&club.leader))
        .await;
    assert_eq!(
        leader.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        leader.text
    );
    assert_eq!(leader.body["errors"][0]["field"], "account");
    let anon = app.get("/api/v1/me/notifications", None).await;
    assert_eq!(anon.status, StatusCode::UNAUTHORIZED);
}

#[actix_web::test]
async fn the_one_click_link_of_a_pairing_mail_turns_pairing_mails_off() {
    let app = spawn_with(mail_to("smtp://127.0.0.1:9")).await;
    let (leader, comp, ids) = paired_round(&app).await;
    let (ann, bob, cas, dirk, eva, femke) = (ids[0], ids[1], ids[2], ids[3], ids[4], ids[5]);
    let r = publish(&app, &leader, comp, 1).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let links = unsubscribe_links(&app).await;
    assert_eq!(links.len(), 5, "{links:?}");
    let prefix = "https://toren.example/api/v1/notifications/unsubscribe?token=";
    for (to, link) in &links {
        let link = link.as_deref().unwrap_or_default();
        assert!(link.starts_with(prefix), "{to}: {link}");
    }
    // each link names its own player: Bob's is the second by address
    assert_eq!(links[1].0, "bob@club.example");
    let bob_link = links[1].1.clone().unwrap();
    assert!(
        bob_link.starts_with(&format!("{prefix}{bob}.pairing.")),
        "{bob_link}"
    );
    let path = bob_link.trim_start_matches("https://toren.example");
    // a tampered token is refused and changes nothing
    let tampered = path.replacen(&format!("={bob}."), &format!("={ann}."), 1);
    let r = one_click(&app, &tampered).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "token", "{}", r.text);
    let r = one_click(&app, "/api/v1/notifications/unsubscribe?token=x").await;
    assert_eq!(r.body["errors"][0]["field"], "token", "{}", r.text);
    let ann_token = app.member_token(ann).await;
    let r = app.get("/api/v1/me/notifications", Some(&ann_token)).await;
    assert_eq!(r.body["pairing"], true, "{}", r.text);
    // the link, posted without a login, turns Bob's pairing mails off; twice is harmless
    for _ in 0..2 {
        let r = one_click(&app, path).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(r.body, json!({"kind": "pairing"}));
    }
    let bob_token = app.member_token(bob).await;
    let r = app.get("/api/v1/me/notifications", Some(&bob_token)).await;
    assert_eq!(
        r.body,
        json!({"pairing": false, "reminder": true, "result": false, "decision": false,
            "prizes": false, "language": "nl"})
    );
    // the next publication mails everyone with an address but Bob
    round(
        &app,
        &leader,
        comp,
        vec![
            (bob, Some(ann), None),
            (cas, Some(eva), None),
            (femke, Some(dirk), None),
        ],
        "paired",
    )
    .await;
    let r = publish(&app, &leader, comp, 2).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let to: Vec<String> = unsubscribe_links(&app)
        .await
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    let once = ["ann", "bob", "cas", "eva", "femke"];
    let twice = ["ann", "cas", "eva", "femke"];
    let mut expected: Vec<String> = once
        .iter()
        .chain(twice.iter())
        .map(|n| format!("{n}@club.example"))
        .collect();
    expected.sort();
    assert_eq!(to, expected);
}
