//! Erasing a former member (docs/decisions/0302-erasing-a-former-member.md): the name gives way
//! to a neutral label on every read, contact data and the account go, the standings stay.

use crate::support::*;
use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use serde_json::{Value, json};

/// A finished chess round robin of Anneke Brouwer, Bert Jansen and Cor Smit: Anneke beat
/// Bert, Bert beat Cor, Anneke beat Cor (2, 1 and 0 points). Anneke has an e-mail address
/// and a member account.
async fn finished_round_robin(app: &TestApp) -> (String, Fx, String) {
    let club = ClubBuilder::new().build(app).await;
    let fx = CompetitionBuilder::round_robin()
        .players(&["Anneke Brouwer", "Bert Jansen", "Cor Smit"])
        .create(app, &club.leader)
        .await;
    let (a, b, c) = (fx.players[0], fx.players[1], fx.players[2]);
    let rounds = vec![
        vec![(a, Some(b), Some("1-0"))],
        vec![(b, Some(c), Some("1-0"))],
        vec![(c, Some(a), Some("0-1"))],
    ];
    completed_rounds(app, &club.leader, fx.comp, rounds).await;
    let r = app
        .req(
            actix_web::http::Method::PATCH,
            &paths::player(a),
            Some(&club.leader),
            Some(json!({"email": "anneke@club.example", "knsb_number": "8401234"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let member = app.member_token(a).await;
    (club.leader, fx, member)
}

/// The anonymous reads that show the competition's players, by URL.
fn public_reads(fx: &Fx) -> Vec<String> {
    let comp = fx.comp;
    let mut urls = vec![
        paths::standings(comp),
        paths::standings_csv(comp),
        paths::trf(comp),
        paths::rounds(comp),
        paths::entrants(comp),
        paths::changes(""),
        format!("{}?q=Brouwer", paths::PLAYERS),
        paths::PLAYERS.to_string(),
        paths::club::competition(comp),
        paths::club::standings(comp),
    ];
    for n in 1..=3 {
        urls.push(paths::round(comp, n));
    }
    for p in &fx.players {
        urls.push(paths::player(p));
        urls.push(paths::player_games(p));
        urls.push(paths::player_card(p));
        urls.push(paths::club::player(p));
    }
    urls
}

/// Standings rows without their names.
fn rows_without_names(standings: &Value) -> Vec<Value> {
    let rows = standings["round_robin"]["rows"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(rows.len(), 3, "{standings}");
    rows.into_iter()
        .map(|mut r| {
            if let Some(o) = r.as_object_mut() {
                o.remove("name");
            }
            r
        })
        .collect()
}

async fn erase(app: &TestApp, token: &str, player: i64, if_match: Option<&str>) -> Resp {
    let mut req = TestRequest::post().uri(&paths::erase_player(player));
    if let Some(tag) = if_match {
        req = req.insert_header(("If-Match", tag));
    }
    req = req.insert_header(("Authorization", format!("Bearer {token}")));
    app.send(req).await
}

async fn etag_of(app: &TestApp, token: &str, player: i64) -> String {
    let r = app.get(&paths::player(player), Some(token)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.header("etag").expect("a player answer has an ETag")
}

#[actix_web::test]
async fn an_erased_member_keeps_their_standing_under_a_neutral_label_and_their_name_is_gone() {
    let app = spawn().await;
    let (leader, fx, member) = finished_round_robin(&app).await;
    let (a, b, c) = (fx.players[0], fx.players[1], fx.players[2]);
    let before = app.get(&paths::standings(fx.comp), None).await.body;
    assert_eq!(
        ids(&before["round_robin"]["rows"]),
        vec![a, b, c],
        "{before}"
    );
    // the reads name her before
    let naming = [
        paths::standings(fx.comp),
        paths::standings_csv(fx.comp),
        paths::round(fx.comp, 1),
        paths::player(a),
        paths::player_card(a),
        paths::club::standings(fx.comp),
        paths::club::player(a),
    ];
    for url in &naming {
        let r = app.get(url, None).await;
        assert_eq!(r.status, StatusCode::OK, "{url}: {}", r.text);
        assert!(
            r.text.contains("Anneke Brouwer"),
            "{url} should name Anneke: {}",
            r.text
        );
    }

    let admin = app.token(&["admin"]).await;
    let tag = etag_of(&app, &admin, a).await;
    let r = erase(&app, &admin, a, Some(&tag)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let label = format!("Oud-lid {a}");
    assert_eq!(r.body["name"], label.as_str());
    assert_eq!(r.body["active"], false);
    assert!(r.body["knsb_number"].is_null(), "{}", r.body);
    assert!(r.body.get("email").is_none_or(Value::is_null), "{}", r.body);

    // the standings: the same rows, points and order; only the name differs
    let after = app.get(&paths::standings(fx.comp), None).await.body;
    assert_eq!(ids(&after["round_robin"]["rows"]), vec![a, b, c], "{after}");
    assert_eq!(rows_without_names(&after), rows_without_names(&before));
    assert_eq!(
        after["round_robin"]["rows"][0]["name"],
        label.as_str(),
        "{after}"
    );
    assert_eq!(
        after["round_robin"]["rows"][1]["name"], "Bert Jansen",
        "{after}"
    );

    // no read, anonymous or staff, shows the old name or address
    for url in public_reads(&fx) {
        for token in [None, Some(leader.as_str())] {
            let r = app.get(&url, token).await;
            assert!(
                !r.text.contains("Anneke") && !r.text.contains("Brouwer"),
                "{url} still names Anneke Brouwer: {}",
                r.text
            );
            assert!(!r.text.contains("anneke@"), "{url} shows the address");
        }
    }
    let staff = app.get(&paths::player(a), Some(&leader)).await;
    assert!(!staff.text.contains("8401234"), "{}", staff.text);
    let board = app.get(&paths::standings(fx.comp), None).await;
    assert!(board.text.contains(&label), "{}", board.text);
    let page = app.get(&paths::club::standings(fx.comp), None).await;
    assert!(page.text.contains(&label), "{}", page.text);

    // the account is gone: its token no longer works
    let me = app.get(paths::MEMBER_PAGE, Some(&member)).await;
    assert_eq!(me.status, StatusCode::UNAUTHORIZED, "{}", me.text);
}

#[actix_web::test]
async fn erasing_needs_an_admin_and_the_current_version() {
    let app = spawn().await;
    let (leader, fx, _) = finished_round_robin(&app).await;
    let a = fx.players[0];
    let admin = app.token(&["admin"]).await;
    let tag = etag_of(&app, &admin, a).await;
    let r = erase(&app, &leader, a, Some(&tag)).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text);
    let r = erase(&app, &admin, a, None).await;
    assert_eq!(r.status, StatusCode::PRECONDITION_REQUIRED, "{}", r.text);
    let r = erase(&app, &admin, a, Some("\"player-1-v999\"")).await;
    assert_eq!(r.status, StatusCode::PRECONDITION_FAILED, "{}", r.text);
    let r = erase(&app, &admin, 999_999, Some("\"player-999999-v1\"")).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text);
    // nothing changed
    let p = app.get(&paths::player(a), Some(&leader)).await;
    assert_eq!(p.body["name"], "Anneke Brouwer");
    assert_eq!(p.body["email"], "anneke@club.example");
}

#[actix_web::test]
async fn a_player_still_entered_in_a_competition_that_is_not_over_is_not_erased() {
    let app = spawn().await;
    let (_, _, fx) = keizer_winter(&app, &["Dirk Visser", "Els Bakker"]).await;
    let d = fx.players[0];
    let admin = app.token(&["admin"]).await;
    let tag = etag_of(&app, &admin, d).await;
    let r = erase(&app, &admin, d, Some(&tag)).await;
    r.assert_detail(StatusCode::CONFLICT, &format!("competition {}", fx.comp));
    let p = app.get(&paths::player(d), Some(&admin)).await;
    assert_eq!(p.body["name"], "Dirk Visser");
    assert_eq!(p.body["active"], true);
}
