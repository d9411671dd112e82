//! Result, decision and prize mails (docs/decisions/0328-result-decision-and-prize-mails.md):
//! queued in the transaction of the change, to the players of the game (or the prize
//! winners) with an address and that kind on; and the page the unsubscribe link of a mail's
//! body opens, which changes nothing until its button is pressed.

use crate::arbiter::kndb_games;
use crate::mail::mail_to;
use crate::support::*;
use actix_web::http::StatusCode;
use clubcomp_core::vocab::NotifyKind;
use serde_json::json;

/// A mail configuration with every kind of notification on by default.
fn all_kinds(c: &mut clubcomp::config::Config) {
    mail_to("smtp://127.0.0.1:9")(c);
    c.mail.notify_defaults = vec![
        NotifyKind::Pairing,
        NotifyKind::Reminder,
        NotifyKind::Result,
        NotifyKind::Decision,
        NotifyKind::Prizes,
    ];
}

async fn player(app: &TestApp, leader: &str, name: &str, email: Option<&str>) -> i64 {
    let mut body = json!({"name": name});
    if let Some(e) = email {
        body["email"] = json!(e);
    }
    let r = app.create_player(leader, body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    r.body["id"].as_i64().unwrap()
}

async fn mails_of(app: &TestApp, kind: &str) -> Vec<(String, String)> {
    let mut m = queued_mails(app, kind).await;
    m.sort();
    m
}

/// The (recipient, List-Unsubscribe address) of the queued mails of `kind`.
async fn unsubscribe_urls(app: &TestApp, kind: &'static str) -> Vec<(String, Option<String>)> {
    let mut rows: Vec<(String, Option<String>)> = app
        .with_conn(move |c| {
            use clubcomp_core::test_store::schema::mail_outbox as mo;
            use diesel::prelude::*;
            mo::table
                .filter(mo::kind.eq(kind))
                .select((mo::recipient, mo::unsubscribe_url))
                .load(c)
                .unwrap()
        })
        .await;
    rows.sort();
    rows
}

#[actix_web::test]
async fn an_entered_and_a_corrected_result_mail_both_players_once_each() {
    let app = spawn_with(all_kinds).await;
    let club = ClubBuilder::new().build(&app).await;
    let l = club.leader.clone();
    let ann = player(&app, &l, "Ann Aalders", Some("ann@club.example")).await;
    let bob = player(&app, &l, "Bob Bakker", Some("bob@club.example")).await;
    let cas = player(&app, &l, "Cas Claes", Some("cas@club.example")).await;
    let dirk = player(&app, &l, "Dirk Dekker", None).await;
    let fx = CompetitionBuilder::keizer()
        .set("name", "Interne competitie")
        .entrants(&[ann, bob, cas, dirk])
        .create(&app, &l)
        .await;
    let games = round(
        &app,
        &l,
        fx.comp,
        vec![(ann, Some(bob), None), (cas, Some(dirk), None)],
        "published",
    )
    .await;
    // a refused result mails nobody
    let r = app
        .enter_result(&l, games[0], json!({"result": "3-0"}))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(mails_of(&app, "result").await.is_empty());
    let r = app
        .enter_result(&l, games[0], json!({"result": "1-0"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let mails = mails_of(&app, "result").await;
    let to: Vec<&str> = mails.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(to, ["ann@club.example", "bob@club.example"]);
    for (to, text) in &mails {
        assert!(
            text.contains(
                "De uitslag van je partij in ronde 1 van Interne competitie (bord 1) is \
                 ingevoerd: Ann Aalders – Bob Bakker 1-0."
            ),
            "{to}: {text}"
        );
        assert!(
            text.contains("https://toren.example/mail/unsubscribe?token="),
            "{to}: {text}"
        );
    }
    // the correction is a mail of its own, to both again
    let r = app
        .enter_result(&l, games[0], json!({"result": "0-1"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let mails = mails_of(&app, "result").await;
    assert_eq!(mails.len(), 4, "{mails:?}");
    let corrected: Vec<&str> = mails
        .iter()
        .filter(|(_, t)| t.contains("is gecorrigeerd: Ann Aalders – Bob Bakker 0-1."))
        .map(|(to, _)| to.as_str())
        .collect();
    assert_eq!(corrected, ["ann@club.example", "bob@club.example"]);
    // Cas gets one for his game; Dirk has no address
    let r = app
        .enter_result(&l, games[1], json!({"result": "½-½"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let urls = unsubscribe_urls(&app, "result").await;
    assert_eq!(urls.len(), 5, "{urls:?}");
    let cas_url = urls
        .iter()
        .find(|(to, _)| to == "cas@club.example")
        .and_then(|(_, u)| u.clone())
        .unwrap();
    assert!(
        cas_url.starts_with(&format!(
            "https://toren.example/api/v1/notifications/unsubscribe?token={cas}.result."
        )),
        "{cas_url}"
    );
}

#[actix_web::test]
async fn a_player_with_result_mails_off_gets_none() {
    let app = spawn_with(mail_to("smtp://127.0.0.1:9")).await;
    let club = ClubBuilder::new().build(&app).await;
    let l = club.leader.clone();
    let ann = player(&app, &l, "Ann Aalders", Some("ann@club.example")).await;
    let bob = player(&app, &l, "Bob Bakker", Some("bob@club.example")).await;
    let fx = CompetitionBuilder::keizer()
        .entrants(&[ann, bob])
        .create(&app, &l)
        .await;
    let games = round(&app, &l, fx.comp, vec![(ann, Some(bob), None)], "published").await;
    // result mails are off by default (NOTIFY_DEFAULTS is pairing,reminder); Ann turns hers on
    let token = app.member_token(ann).await;
    let r = app
        .req(
            actix_web::http::Method::PUT,
            "/api/v1/me/notifications",
            Some(&token),
            Some(json!({"pairing": true, "reminder": true, "result": true,
                "decision": false, "prizes": false, "language": "en"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app
        .enter_result(&l, games[0], json!({"result": "1-0"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let mails = mails_of(&app, "result").await;
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert_eq!(mails[0].0, "ann@club.example");
    assert!(
        mails[0]
            .1
            .contains("The result of your game in round 1 of K (board 1) has been entered"),
        "{}",
        mails[0].1
    );
}

/// Gives the two players of `game` an address each: White wit@, Black zwart@.
async fn give_addresses(app: &TestApp, game: i64) {
    app.with_conn(move |c| {
        use clubcomp_core::test_store::schema::{games, players};
        use diesel::prelude::*;
        let (w, b): (Option<i64>, Option<i64>) = games::table
            .find(game)
            .select((games::white_id, games::black_id))
            .first(c)
            .unwrap();
        for (p, e) in [(w, "wit@club.example"), (b, "zwart@club.example")] {
            diesel::update(players::table.find(p.unwrap()))
                .set(players::email.eq(e))
                .execute(c)
                .unwrap();
        }
    })
    .await;
}

#[actix_web::test]
async fn a_decision_on_a_claim_mails_both_players() {
    let app = spawn_with(all_kinds).await;
    let arb = app.token(&["arbiter"]).await;
    let g = kndb_games(&app).await;
    let game = g[0];
    give_addresses(&app, game).await;
    let body = json!({"kind": "draughts_lasting_advantage",
        "moves": {"pdn": "50-45 1-6", "start_fen": "W:W46,47,48,K50:BK1"}});
    let r = app.claim(&arb, game, body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert!(mails_of(&app, "decision").await.is_empty());
    let claim = r.body["id"].as_i64().unwrap();
    let r = app
        .decide_claim(&arb, claim, json!({"decision": "accept"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let mails = mails_of(&app, "decision").await;
    let to: Vec<&str> = mails.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(to, ["wit@club.example", "zwart@club.example"]);
    for (to, text) in &mails {
        assert!(
            text.contains("De arbiter heeft de claim in je partij"),
            "{to}: {text}"
        );
        assert!(text.contains("toegewezen."), "{to}: {text}");
    }
    // a second decision is refused (final) and mails nobody
    let r = app
        .decide_claim(&arb, claim, json!({"decision": "reject"}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(mails_of(&app, "decision").await.len(), 2);
}

/// The KNDB protest committee's ruling (docs/rules/draughts-championship.md#protests) mails
/// both players of the game, as a decision on a claim does: queued with the ruling, once.
#[actix_web::test]
async fn a_ruling_on_a_protest_mails_both_players() {
    let app = spawn_with(all_kinds).await;
    let leader = app.token(&["leader"]).await;
    let arb = app.token(&["arbiter"]).await;
    let (_, _, g) = championship(&app, &leader, json!({})).await;
    give_addresses(&app, g[0]).await;
    let claim = plusremise_claim(&app, &arb, g[0], true).await;
    let protest_mails = |m: Vec<(String, String)>| -> Vec<(String, String)> {
        m.into_iter()
            .filter(|(_, t)| t.contains("protest"))
            .collect()
    };
    // the claim's decision mailed both players; lodging the protest mails nobody
    assert_eq!(mails_of(&app, "decision").await.len(), 2);
    let (protest, _) = lodge_protest(&app, &arb, claim).await;
    assert!(protest_mails(mails_of(&app, "decision").await).is_empty());
    let r = app
        .decide_protest(
            &leader,
            protest,
            json!({"ruling": "dismissed", "reason": "the advantage lasts"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let mails = protest_mails(mails_of(&app, "decision").await);
    let to: Vec<&str> = mails.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(to, ["wit@club.example", "zwart@club.example"]);
    for (to, text) in &mails {
        assert!(
            text.contains("De protestcommissie van de KNDB heeft het protest in je partij"),
            "{to}: {text}"
        );
        assert!(text.contains("ongegrond verklaard."), "{to}: {text}");
    }
    // a second ruling is refused (the committee rules once) and mails nobody
    let r = app
        .decide_protest(&leader, protest, json!({"ruling": "upheld"}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(protest_mails(mails_of(&app, "decision").await).len(), 2);
}

#[actix_web::test]
async fn the_finalised_prizes_mail_each_winner_their_prize() {
    let app = spawn_with(all_kinds).await;
    let club = ClubBuilder::new().build(&app).await;
    let leader = club.leader.clone();
    let mut ids = Vec::new();
    for n in ["a", "b", "c", "d", "e"] {
        ids.push(player(&app, &leader, n, Some(&format!("{n}@club.example"))).await);
    }
    let fx = CompetitionBuilder::keizer()
        .entrants(&ids)
        .create(&app, &leader)
        .await;
    let [a, b, c, d, _e] = ids[..] else { panic!() };
    // as in the prizes' own test: champion a, silver c, bronze b, best of the rest d; e never
    // came and is not eligible
    round(
        &app,
        &leader,
        fx.comp,
        vec![(a, Some(b), Some("1-0")), (c, Some(d), Some("1-0"))],
        "completed",
    )
    .await;
    round(
        &app,
        &leader,
        fx.comp,
        vec![(a, Some(c), Some("1-0")), (b, Some(d), Some("1-0"))],
        "completed",
    )
    .await;
    let r = app
        .post(
            &format!("{}/finalize", paths::prizes(fx.comp)),
            Some(&leader),
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let mails = mails_of(&app, "prizes").await;
    let got: Vec<(&str, bool)> = mails
        .iter()
        .map(|(to, t)| {
            (
                to.as_str(),
                t.contains("De prijzen van K zijn vastgesteld."),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("a@club.example", true),
            ("b@club.example", true),
            ("c@club.example", true),
            ("d@club.example", true)
        ]
    );
    assert!(
        mails[0].1.contains("jij bent winterkampioen."),
        "{}",
        mails[0].1
    );
    assert!(
        mails[1].1.contains("jij bent de bronzen prijs (derde)."),
        "{}",
        mails[1].1
    );
    assert!(
        mails[2].1.contains("jij bent de zilveren prijs (tweede)."),
        "{}",
        mails[2].1
    );
}

async fn press_unsubscribe(app: &TestApp, token: &str) -> Resp {
    let r = actix_web::test::TestRequest::post()
        .uri("/mail/unsubscribe")
        .insert_header(("Content-Type", "application/x-www-form-urlencoded"))
        .set_payload(format!("token={token}"));
    app.send(r).await
}

#[actix_web::test]
async fn the_unsubscribe_link_of_a_mail_body_asks_first_in_the_members_language() {
    let app = spawn_with(all_kinds).await;
    let club = ClubBuilder::new().build(&app).await;
    let l = club.leader.clone();
    let ann = player(&app, &l, "Ann Aalders", Some("ann@club.example")).await;
    let bob = player(&app, &l, "Bob Bakker", Some("bob@club.example")).await;
    let fx = CompetitionBuilder::keizer()
        .entrants(&[ann, bob])
        .create(&app, &l)
        .await;
    let games = round(&app, &l, fx.comp, vec![(ann, Some(bob), None)], "published").await;
    let bob_token = app.member_token(bob).await;
    let r = app
        .req(
            actix_web::http::Method::PUT,
            "/api/v1/me/notifications",
            Some(&bob_token),
            Some(json!({"pairing": true, "reminder": true, "result": true,
                "decision": true, "prizes": true, "language": "en"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app
        .enter_result(&l, games[0], json!({"result": "1-0"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let mails = mails_of(&app, "result").await;
    let token = link_token(&mails[1].1, "/mail/unsubscribe");
    assert!(token.starts_with(&format!("{bob}.result.")), "{token}");
    // opening the page (a scanner does) asks in Bob's language and changes nothing
    let r = app
        .get(&format!("/mail/unsubscribe?token={token}"), None)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(r.text.contains("result mails"), "{}", r.text);
    assert!(r.text.contains("Stop these mails"), "{}", r.text);
    let r = app.get("/api/v1/me/notifications", Some(&bob_token)).await;
    assert_eq!(r.body["result"], true, "{}", r.text);
    // a tampered token is a page naming why
    let forged = token.replacen(&format!("{bob}."), &format!("{ann}."), 1);
    let r = app
        .get(&format!("/mail/unsubscribe?token={forged}"), None)
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(
        r.text
            .contains("token: is not an unsubscribe link of this club"),
        "{}",
        r.text
    );
    // the button turns Bob's result mails off, and only those
    let r = press_unsubscribe(&app, &token).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(
        r.text.contains("You will no longer receive result mails."),
        "{}",
        r.text
    );
    let r = app.get("/api/v1/me/notifications", Some(&bob_token)).await;
    assert_eq!(
        r.body,
        json!({"pairing": true, "reminder": true, "result": false, "decision": true,
            "prizes": true, "language": "en"})
    );
    // the next correction mails Ann only
    let r = app
        .enter_result(&l, games[0], json!({"result": "0-1"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let to: Vec<String> = mails_of(&app, "result")
        .await
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    assert_eq!(
        to,
        ["ann@club.example", "ann@club.example", "bob@club.example"]
    );
}

#[actix_web::test]
async fn a_result_reported_by_the_players_mails_their_full_names_whatever_their_publication() {
    // decision 0326: the publication setting is for the public; a mail to a member about
    // their own game names both players as the club knows them, also when a member's own
    // report is the write that queues it
    let app = spawn_with(all_kinds).await;
    let club = ClubBuilder::new().build(&app).await;
    let l = club.leader.clone();
    let ann = player(&app, &l, "Ann Aalders", Some("ann@club.example")).await;
    let bob = player(&app, &l, "Bob Bakker", Some("bob@club.example")).await;
    for (id, publication) in [(ann, "initials"), (bob, "hidden")] {
        let r = app
            .update_player(&l, id, json!({ "publication": publication }))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let fx = CompetitionBuilder::keizer()
        .set("name", "Interne competitie")
        .entrants(&[ann, bob])
        .create(&app, &l)
        .await;
    let games = round(&app, &l, fx.comp, vec![(ann, Some(bob), None)], "published").await;
    let game = format!("/api/v1/games/{}/report", games[0]);
    for id in [ann, bob] {
        let token = app.member_token(id).await;
        let r = app
            .post(&game, Some(&token), json!({ "result": "1-0" }))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    // the public reads them as A. A. and Speler {bob}
    let r = app.get(&paths::player(ann), None).await;
    assert_eq!(r.body["name"], "A. A.", "{}", r.text);
    let mails = mails_of(&app, "result").await;
    let to: Vec<&str> = mails.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(to, ["ann@club.example", "bob@club.example"]);
    for (to, text) in &mails {
        assert!(
            text.contains(
                "De uitslag van je partij in ronde 1 van Interne competitie (bord 1) is \
                 ingevoerd: Ann Aalders – Bob Bakker 1-0."
            ),
            "{to}: {text}"
        );
        assert!(!text.contains("A. A."), "{to}: {text}");
        assert!(!text.contains(&format!("Speler {bob}")), "{to}: {text}");
    }
}
