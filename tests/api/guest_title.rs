//! Who may take the blitz title (docs/rules/rapid-blitz.md#guests-and-the-title): by default
//! anyone, a guest too (the club rules' literal reading); with `guest_title: members_only`
//! the best member. Worked by hand in the comments.

use crate::support::*;
use actix_web::http::StatusCode;
use serde_json::json;

/// A, B, C and D check in to a blitz of three rounds, `guest` (0 for A, 2 for C) a guest and
/// the others members: R1 A–C 1-0, B–D 1-0; R2 C–B 1-0, A–D ½; R3 A–B ½, C–D 1-0. Points: A
/// 1 + ½ + ½ = 2, C 0 + 1 + 1 = 2, B 1½, D ½. A beat C, so the table reads A, C, B, D.
/// Returns the competition and the players.
async fn blitz_with_a_guest_on_top(
    app: &TestApp,
    leader: &str,
    arbiter: &str,
    (date, guest): (&str, usize),
    guest_title: Option<&str>,
) -> (i64, [i64; 4]) {
    let mut p = Vec::new();
    for (i, n) in ["A", "B", "C", "D"].into_iter().enumerate() {
        let membership = if i == guest { "guest" } else { "fixed" };
        let r = app
            .create_player(
                leader,
                json!({"name": format!("{n} {date}"), "membership": membership}),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        p.push(r.body["id"].as_i64().unwrap());
    }
    let (a, b, c, d) = (p[0], p[1], p[2], p[3]);
    let mut blitz = json!({"date": date});
    if let Some(t) = guest_title {
        blitz["guest_title"] = json!(t);
    }
    let comp = CompetitionBuilder::new(
        json!({"name": "Blitz", "kind": "swiss", "system": "dutch", "params": {"blitz": blitz}}),
    )
    .create(app, leader)
    .await
    .comp;
    for x in &p {
        let r = app.check_in(arbiter, comp, json!({"player_id": x})).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    }
    let r = app.close_check_in(arbiter, comp).await;
    assert_eq!(r.body["rounds"], 3, "{}", r.text);
    completed_rounds(
        app,
        leader,
        comp,
        vec![
            vec![(a, Some(c), Some("1-0")), (b, Some(d), Some("1-0"))],
            vec![(c, Some(b), Some("1-0")), (a, Some(d), Some("1/2-1/2"))],
            vec![(a, Some(b), Some("1/2-1/2")), (c, Some(d), Some("1-0"))],
        ],
    )
    .await;
    (comp, [a, b, c, d])
}

#[actix_web::test]
async fn by_default_a_guest_on_the_top_score_plays_off_for_the_title() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let (comp, [a, _, c, _]) =
        blitz_with_a_guest_on_top(&app, &leader, &arbiter, ("2099-06-19", 0), None).await;
    let s = app.standings(comp).await;
    assert_eq!(s.body["swiss"]["playoff_for_first"], true, "{}", s.text);
    assert_eq!(s.body["swiss"]["champion"], json!(null));
    let r = app
        .post(&paths::first_place_playoff(comp), Some(&leader), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(ints(&r.body["candidates"], "player_id"), [a, c]);
}

#[actix_web::test]
async fn a_title_for_members_only_goes_to_the_best_member_below_the_guest() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    // an unknown reading is refused, naming the field
    let r = app
        .create_competition(
            &leader,
            SeasonBuilder::new().create(&app, &leader).await,
            json!({"name": "Blitz", "kind": "swiss", "system": "dutch",
                "params": {"blitz": {"date": "2099-06-26", "guest_title": "nobody"}}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(r.text.contains("params.blitz.guest_title"), "{}", r.text);

    let (comp, [a, b, c, d]) = blitz_with_a_guest_on_top(
        &app,
        &leader,
        &arbiter,
        ("2099-06-19", 0),
        Some("members_only"),
    )
    .await;
    // the guest keeps first place in the table; among the members C alone has 2 points
    let s = app.standings(comp).await;
    assert_eq!(ints(&s.body["swiss"]["rows"], "player_id"), [a, c, b, d]);
    assert_eq!(s.body["swiss"]["playoff_for_first"], false, "{}", s.text);
    assert_eq!(s.body["swiss"]["champion"], c, "{}", s.text);
    let r = app
        .post(&paths::first_place_playoff(comp), Some(&leader), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    let r = app.get(&paths::prizes(comp), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["swiss"]["champion"]["player_id"], c, "{}", r.text);
    assert_eq!(r.body["swiss"]["decided_by"], "standings");
    let page = app.get(&paths::club::standings(comp), None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.text.contains("the title is for members")
            || page.text.contains("de titel is voor leden"),
        "{}",
        page.text
    );
    assert!(page.text.contains("C 2099-06-19"), "{}", page.text);
    // the season page lists the table's first three and names the champion below the guest
    assert_eq!(
        season_podium(&app, comp).await,
        ["A 2099-06-19", "C 2099-06-19", "B 2099-06-19"]
    );
    let season = app.get(&paths::competition(comp), None).await.body["season_id"].clone();
    let page = app.get(&paths::club::season(season), None).await;
    let text = crate::support::club_pages::text(&page.text);
    assert!(text.contains("Kampioen: C 2099-06-19"), "{text}");
}

/// A guest takes the title in the play-off, where guests may (the default): C, the guest,
/// second in the table on the direct encounter, plays A twice at 5 minutes and wins both
/// (A–C 0-1, C–A 1-0: C 2, A 0). The standings, the prize list, the season page and both
/// players' cards then put C first and name C champion; A is second, B third.
#[actix_web::test]
async fn a_guest_who_wins_the_play_off_two_nil_is_champion_on_every_page() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let (comp, [a, b, c, _]) =
        blitz_with_a_guest_on_top(&app, &leader, &arbiter, ("2099-06-12", 2), None).await;
    let names = |ids: &[i64]| -> Vec<String> {
        ids.iter()
            .map(|&x| {
                let n = [(a, "A"), (b, "B"), (c, "C")]
                    .into_iter()
                    .find(|(id, _)| *id == x)
                    .map_or("D", |(_, n)| n);
                format!("{n} 2099-06-12")
            })
            .collect()
    };
    assert_eq!(season_podium(&app, comp).await, names(&[a, c, b]));
    let r = app
        .post(&paths::first_place_playoff(comp), Some(&leader), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(ints(&r.body["candidates"], "player_id"), [a, c]);
    for g in r.body["games"].as_array().unwrap() {
        // the guest wins with either colour
        let res = if g["white"]["player_id"] == c {
            "1-0"
        } else {
            "0-1"
        };
        let game = g["game_id"].as_i64().unwrap();
        let r = app
            .enter_result(&arbiter, game, json!({"result": res}))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let r = app.get(&paths::first_place_playoff(comp), None).await;
    assert_eq!(r.body["status"], "champion", "{}", r.text);
    assert_eq!(r.body["first"], c, "{}", r.text);
    let s = app.standings(comp).await;
    assert_eq!(ints(&s.body["swiss"]["rows"], "player_id")[..3], [c, a, b]);
    assert_eq!(s.body["swiss"]["champion"], c, "{}", s.text);
    assert_eq!(s.body["swiss"]["playoff_for_first"], false);
    let r = app.get(&paths::prizes(comp), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["swiss"]["champion"]["player_id"], c, "{}", r.text);
    assert_eq!(r.body["swiss"]["decided_by"], "playoff");
    assert_eq!(season_podium(&app, comp).await, names(&[c, a, b]));
    assert_card_places(&app, comp, &[(c, "1"), (a, "2")]).await;
    let page = app.get(&paths::club::standings(comp), None).await;
    assert!(
        page.text
            .contains("Eerste na de barrage: <strong>C 2099-06-12</strong>"),
        "{}",
        page.text
    );
    assert!(!page.text.contains("een barrage beslist"), "{}", page.text);
    // the club's prize page of the Swiss names the champion
    let page = app.get(&paths::club::prizes(comp), None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(
        page.text
            .contains("Kampioen: <strong>C 2099-06-12</strong>"),
        "{}",
        page.text
    );
}
