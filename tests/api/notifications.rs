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
