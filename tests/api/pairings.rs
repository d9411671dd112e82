//! Pairings: generation with each engine, the race of concurrent generate requests, hand-made
//! pairings with validation and override, taking a pairing back. Expected pairings are worked
//! out by hand from docs/rules/keizer.md#scoring, docs/rules/keizer.md#pairing and the FIDE rules (comments show the working).

use crate::support::*;
use actix_web::http::{Method, StatusCode};
use serde_json::{Value, json};

#[actix_web::test]
async fn keizer_generate_bye_draw_take_back_and_publish() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let member = app.token(&["member"]).await;
    let (cid, p) =
        CompetitionBuilder::new(json!({"name": "Keizer", "kind": "keizer", "half": "winter"}))
            .members_of("fixed", &["A", "B", "C", "D", "E"])
            .create(&app, &leader)
            .await
            .parts();
    add_round(&app, &leader, cid, FUTURE).await;
    let url = paths::pairing(cid, 1);
    assert_eq!(
        app.post(&url, None, json!({})).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.post(&url, Some(&member), json!({})).await.status,
        StatusCode::FORBIDDEN
    );

    let r = app.post(&url, Some(&leader), json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["status"], "paired");
    // docs/rules/keizer.md#byes: five present, nobody had a bye, any player leaves a pairable rest: all five
    // are candidates (in pairing order = seed order on evening 1), one drawn at random.
    let bye = &r.body["pairing"]["bye"];
    assert_eq!(bye["candidates"], json!(p));
    let seed: u64 = bye["seed_text"].as_str().unwrap().parse().unwrap();
    assert_eq!(bye["seed"].as_u64(), Some(seed));
    let got = bye["player"].as_i64().unwrap();
    // The other four keep their order; cost-minimal pairing is 1–2, 3–4 of that list; without
    // colour history the higher-placed player has white; the bye is the last board.
    let rest: Vec<i64> = p.iter().copied().filter(|x| *x != got).collect();
    assert_eq!(
        boards(&r.body),
        vec![
            (1, 1, rest[0], Some(rest[1]), None),
            (2, 1, rest[2], Some(rest[3]), None),
            (3, 1, got, None, Some("bye".into())),
        ]
    );
    // pairings are not public before publishing
    let public = app.get(&paths::round(cid, 1), None).await;
    assert_eq!(public.body["games"], json!([]));
    // a second generate is a conflict and changes nothing
    let before = state_of(&app).await;
    let r = app.post(&url, Some(&leader), json!({})).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(state_of(&app).await, before);
    // take it back: planned again, games gone
    let r = app.req(Method::DELETE, &url, Some(&leader), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["status"], "planned");
    assert_eq!(r.body["games"], json!([]));
    let r = app.req(Method::DELETE, &url, Some(&leader), None).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    // stale If-Match: 412
    let r = app
        .send(
            actix_web::test::TestRequest::post()
                .uri(&url)
                .insert_header(("Authorization", format!("Bearer {leader}")))
                .insert_header(("If-Match", "\"round-1-v1\"")),
        )
        .await;
    assert_eq!(r.status, StatusCode::PRECONDITION_FAILED, "{}", r.text);
    // a draw in public: the leader gives the seed; an invalid one is refused, changing nothing
    let before = state_of(&app).await;
    for bad in ["-1", "x", "18446744073709551616"] {
        let r = app
            .post(&format!("{url}?bye_seed={bad}"), Some(&leader), json!({}))
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad}: {}", r.text);
        assert!(r.text.contains("bye_seed"), "{}", r.text);
    }
    assert_eq!(state_of(&app).await, before);
    // the same seed draws the same player again (the draw is reproducible)
    let mut drawn = vec![];
    for _ in 0..2 {
        let r = app
            .post(
                &format!("{url}?bye_seed=20271105"),
                Some(&leader),
                json!({}),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        let bye = &r.body["pairing"]["bye"];
        assert_eq!(bye["seed_text"], "20271105");
        assert_eq!(r.body["pairing"]["bye_seed_source"], "leader");
        assert_eq!(bye["candidates"], json!(p));
        drawn.push((bye["player"].clone(), boards(&r.body)));
        let r = app.req(Method::DELETE, &url, Some(&leader), None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    assert_eq!(drawn[0], drawn[1]);
    let r = app.post(&url, Some(&leader), json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["pairing"]["bye_seed_source"], "os");
    let r = app.publish_round(&leader, cid, 1).await;
    assert_eq!(r.status, StatusCode::OK);
    // after publishing: public, and no more changes
    let public = app.get(&paths::round(cid, 1), None).await;
    assert_eq!(public.body["games"].as_array().unwrap().len(), 3);
    let hand = json!({"boards": [{"white": p[0], "black": p[1]}, {"white": p[2], "black": p[3]}], "bye": p[4]});
    let r = app.req(Method::PUT, &url, Some(&leader), Some(hand)).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    let r = app.req(Method::DELETE, &url, Some(&leader), None).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    // every pairing write is in the audit log
    let actions = app
        .with_conn(|c| {
            use clubcomp_core::test_store::schema::audit_log as a;
            use diesel::prelude::*;
            a::table
                .order(a::id)
                .select(a::action)
                .load::<String>(c)
                .unwrap()
        })
        .await;
    assert_eq!(
        actions,
        [
            "pairing_generated",
            "pairing_deleted",
            "pairing_generated",
            "pairing_deleted",
            "pairing_generated",
            "pairing_deleted",
            "pairing_generated"
        ]
    );
}

#[actix_web::test]
async fn keizer_second_round_uses_standings_constraints_and_colours() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (cid, p) =
        CompetitionBuilder::new(json!({"name": "Keizer", "kind": "keizer", "half": "winter"}))
            .members_of("fixed", &["A", "B", "C", "D"])
            .create(&app, &leader)
            .await
            .parts();
    let (a, b, c, d) = (p[0], p[1], p[2], p[3]);
    add_round(&app, &leader, cid, FUTURE).await;
    add_round(&app, &leader, cid, "2099-01-09").await;
    let url1 = paths::pairing(cid, 1);
    let url2 = paths::pairing(cid, 2);
    // round 2 cannot be generated before round 1 is completed
    let r = app.post(&url2, Some(&leader), json!({})).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    let r = app.post(&url1, Some(&leader), json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    // evening 1 in seed order: A(w)–B, C(w)–D
    assert_eq!(
        boards(&r.body),
        vec![(1, 1, a, Some(b), None), (2, 1, c, Some(d), None)]
    );
    // B beats A, C beats D. Values 60/59/58/57 (A..D): B 60, C 57, A 5, D 5 → B, C, A, D;
    // again with values 60/59/58/57 for B, C, A, D: B 58, C 57, A 5, D 5 → same: settled.
    finish_round(&app, &leader, cid, 1, &["0-1", "1-0"]).await;
    let r = app.post(&url2, Some(&leader), json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    // order B, C, A, D; B–A and C–D met (once per half): B–C, A–D (cost 1 + 1).
    // Colours: B had black, C white → B white; A had white, D black → D white.
    assert_eq!(
        boards(&r.body),
        vec![(1, 1, b, Some(c), None), (2, 1, d, Some(a), None)]
    );
    assert_eq!(r.body["pairing"]["order"], json!([b, c, a, d]));
    assert_eq!(r.body["pairing"]["evening"], 2);

    // a hand-made pairing repeating A–B is refused, naming the board and the rule
    let before = state_of(&app).await;
    let hand = json!({"boards": [{"white": a, "black": b}, {"white": c, "black": d}]});
    let r = app
        .req(Method::PUT, &url2, Some(&leader), Some(hand.clone()))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let fields = r.errors("field");
    // each board breaks two rules: once per half, and 5 evenings between meetings
    assert_eq!(
        fields,
        ["boards[0]", "boards[0]", "boards[1]", "boards[1]"],
        "{}",
        r.text
    );
    assert!(
        r.text.contains(
            "board 1 (1–2): they already met as often as a half allows; an earlier meeting on \
             evening 1"
        ) && r
            .text
            .contains("board 2 (3–4): too few evenings since they last met"),
        "{}",
        r.text
    );
    assert_eq!(state_of(&app).await, before);
    // unknown players and self-pairing are refused even with override
    let bad = json!({"boards": [{"white": a, "black": a}, {"white": 999999, "black": d}], "override": true});
    let r = app.req(Method::PUT, &url2, Some(&leader), Some(bad)).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(state_of(&app).await, before);
    // with override the leader stores it; the broken rules are recorded
    let mut over = hand.clone();
    over["override"] = json!(true);
    let r = app.req(Method::PUT, &url2, Some(&leader), Some(over)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        boards(&r.body),
        vec![(1, 1, a, Some(b), None), (2, 1, c, Some(d), None)]
    );
    assert_eq!(r.body["pairing"]["override"], true);
    assert_eq!(
        r.body["pairing"]["broken_rules"].as_array().unwrap().len(),
        4
    );
    let (reason, action) = app
        .with_conn(|c| {
            use clubcomp_core::test_store::schema::audit_log as al;
            use diesel::prelude::*;
            al::table
                .order(al::id.desc())
                .select((al::reason, al::action))
                .first::<(Option<String>, String)>(c)
                .unwrap()
        })
        .await;
    assert_eq!(action, "pairing_override");
    assert!(reason.unwrap().contains("boards[0]"));
    // a valid hand-made pairing needs no override
    let ok = json!({"boards": [{"white": b, "black": d}, {"white": c, "black": a}]});
    let r = app.req(Method::PUT, &url2, Some(&leader), Some(ok)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["pairing"]["override"], false);
    assert_eq!(r.body["games"].as_array().unwrap().len(), 2);
}

#[actix_web::test]
async fn keizer_no_pairing_names_the_players() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let cid =
        CompetitionBuilder::new(json!({"name": "Keizer", "kind": "keizer", "half": "winter"}))
            .members_of("fixed", &["Anna Alpha", "Bert Beta"])
            .create(&app, &leader)
            .await
            .comp;
    add_round(&app, &leader, cid, FUTURE).await;
    add_round(&app, &leader, cid, "2099-01-09").await;
    let r = app.generate_pairing(&leader, cid, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    finish_round(&app, &leader, cid, 1, &["½-½"]).await;
    let before = state_of(&app).await;
    let r = app.generate_pairing(&leader, cid, 2, json!({})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let detail = r.body["detail"].as_str().unwrap();
    assert!(
        detail.contains("Anna Alpha") && detail.contains("Bert Beta"),
        "{detail}"
    );
    assert_eq!(state_of(&app).await, before);
}

#[actix_web::test]
async fn concurrent_generate_requests_store_exactly_one_pairing() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let cid =
        CompetitionBuilder::new(json!({"name": "Keizer", "kind": "keizer", "half": "winter"}))
            .members_of("fixed", &["A", "B", "C", "D", "E", "F"])
            .create(&app, &leader)
            .await
            .comp;
    add_round(&app, &leader, cid, FUTURE).await;
    let url = paths::pairing(cid, 1);
    let reqs = (0..6).map(|_| app.post(&url, Some(&leader), json!({})));
    let results = futures_util::future::join_all(reqs).await;
    let ok = results.iter().filter(|r| r.status.is_success()).count();
    assert_eq!(
        ok,
        1,
        "{:?}",
        results
            .iter()
            .map(|r| (r.status, &r.text))
            .collect::<Vec<_>>()
    );
    for r in &results {
        assert!(
            r.status.is_success() || r.status == StatusCode::CONFLICT,
            "{} {}",
            r.status,
            r.text
        );
    }
    let (games, _, audits, statuses) = state_of(&app).await;
    assert_eq!(games, 3, "one set of three boards");
    assert_eq!(audits, 1);
    assert_eq!(statuses, ["paired"]);
}

#[actix_web::test]
async fn swiss_dutch_pairs_checked_in_players_with_a_bye() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let (cid, p) = CompetitionBuilder::new(
        json!({"name": "Blitz", "kind": "swiss", "system": "dutch", "rounds_planned": 5}),
    )
    .members(&[
        ("P1", "guest"),
        ("P2", "guest"),
        ("P3", "fixed"),
        ("P4", "flexible"),
    ])
    .create(&app, &leader)
    .await
    .parts();
    add_round(&app, &leader, cid, FUTURE).await;
    let url = paths::pairing(cid, 1);
    // nobody checked in yet
    let r = app.post(&url, Some(&leader), json!({})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let marks = json!({"marks": [
        {"player_id": p[0], "mark": "present"}, {"player_id": p[1], "mark": "present"},
        {"player_id": p[2], "mark": "absent"}, {"player_id": p[3], "mark": "present"}]});
    let r = app
        .post(&paths::check_ins(cid, 1), Some(&arbiter), marks)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app.post(&url, Some(&leader), json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    // C.04.3: three present (TPN 1, 2, 4), all on 0: the bye goes to the lowest, TPN 4; S1 = {1},
    // S2 = {2}: 1–2, the top seed with the initial colour white. P3 (absent) is not paired.
    assert_eq!(
        boards(&r.body),
        vec![
            (1, 1, p[0], Some(p[1]), None),
            (2, 1, p[3], None, Some("bye".into()))
        ]
    );
    assert_eq!(r.body["pairing"]["system"], "dutch");
}

/// Two players who met in round 1 cannot meet again (C.1): the refusal of round 2 names both
/// players and the criterion, and nothing is stored.
#[actix_web::test]
async fn an_unpairable_swiss_round_names_the_players_and_the_criterion() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (cid, p) = CompetitionBuilder::new(
        json!({"name": "Duel", "kind": "swiss", "system": "dutch", "rounds_planned": 3}),
    )
    .members_of("guest", &["Anna", "Bram"])
    .create(&app, &leader)
    .await
    .parts();
    for n in 1..=2 {
        add_round(&app, &leader, cid, FUTURE).await;
        check_in_all(&app, &leader, cid, n, &p).await;
    }
    let r = app.generate_pairing(&leader, cid, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    finish_round(&app, &leader, cid, 1, &["1-0"]).await;
    let before = state_of(&app).await;
    let r = app.generate_pairing(&leader, cid, 2, json!({})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let detail = r.body["detail"].as_str().unwrap();
    assert!(detail.contains("C.1"), "{detail}");
    let messages = r.errors("message");
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("Anna") && m.contains("has already played Bram")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("Bram") && m.contains("has already played Anna")),
        "{messages:?}"
    );
    assert_eq!(state_of(&app).await, before, "nothing stored");
}

#[actix_web::test]
async fn swiss_dutch_first_round_of_four() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (cid, p) = CompetitionBuilder::new(
        json!({"name": "Blitz", "kind": "swiss", "system": "dutch", "rounds_planned": 3}),
    )
    .members_of("guest", &["P1", "P2", "P3", "P4"])
    .create(&app, &leader)
    .await
    .parts();
    add_round(&app, &leader, cid, FUTURE).await;
    check_in_all(&app, &leader, cid, 1, &p).await;
    let r = app.generate_pairing(&leader, cid, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    // S1 = {1, 2}, S2 = {3, 4}: 1–3 and 2–4; board 1 the top seed white, board 2 alternates
    assert_eq!(
        boards(&r.body),
        vec![
            (1, 1, p[0], Some(p[2]), None),
            (2, 1, p[3], Some(p[1]), None)
        ]
    );
}

#[actix_web::test]
async fn double_swiss_two_games_with_colours_swapped() {
    let app = spawn().await;
    let Club { leader, arbiter } = ClubBuilder::new().build(&app).await;
    let (cid, p) = CompetitionBuilder::new(
        json!({"name": "Rapid", "kind": "swiss", "system": "double_swiss", "rounds_planned": 9}),
    )
    .members_of("fixed", &["R1", "R2", "R3"])
    .create(&app, &leader)
    .await
    .parts();
    add_round(&app, &leader, cid, FUTURE).await;
    check_in_all(&app, &arbiter, cid, 1, &p).await;
    let r = app.generate_pairing(&leader, cid, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let b = boards(&r.body);
    // three players: one match of two games (colours swapped) and the bye
    assert_eq!(b.len(), 3, "{b:?}");
    let (w, bl) = (b[0].2, b[0].3.unwrap());
    assert_eq!((b[0].0, b[0].1), (1, 1));
    assert_eq!((b[1].0, b[1].1, b[1].2, b[1].3), (1, 2, bl, Some(w)));
    assert_eq!(b[2].3, None);
    assert_eq!(b[2].4.as_deref(), Some("bye"));
    let mut all = vec![w, bl, b[2].2];
    all.sort_unstable();
    let mut want = p.clone();
    want.sort_unstable();
    assert_eq!(all, want);
}

#[actix_web::test]
async fn round_robin_follows_the_berger_table() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (cid, p) = draughts_round_robin_of_four(&app, &leader, "double", 4).await;
    let url_of = |n: i64| paths::pairing(cid, n);
    // FIDE Berger table for 4: round 1: 1–4, 2–3; round 2: 4–3, 1–2; the second cycle
    // (round 4 = round 1) with colours reversed: 4–1, 3–2.
    let r = app.post(&url_of(2), Some(&leader), json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(
        boards(&r.body),
        vec![
            (1, 1, p[3], Some(p[2]), None),
            (2, 1, p[0], Some(p[1]), None)
        ]
    );
    let r = app.post(&url_of(4), Some(&leader), json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(
        boards(&r.body),
        vec![
            (1, 1, p[3], Some(p[0]), None),
            (2, 1, p[2], Some(p[1]), None)
        ]
    );
    // a hand-made pairing leaving someone out is refused
    let r = app
        .req(
            Method::PUT,
            &url_of(1),
            Some(&leader),
            Some(json!({"boards": [{"white": p[0], "black": p[1]}]})),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(r.text.contains("present but not paired"), "{}", r.text);
}

#[actix_web::test]
async fn keizer_pairs_only_who_attends() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (cid, p) =
        CompetitionBuilder::new(json!({"name": "Keizer", "kind": "keizer", "half": "winter"}))
            .members(&[
                ("A", "fixed"),
                ("B", "fixed"),
                ("C", "fixed"),
                ("D", "fixed"),
                ("F", "flexible"),
                ("G", "flexible"),
            ])
            .create(&app, &leader)
            .await
            .parts();
    add_round(&app, &leader, cid, FUTURE).await;
    // D (fixed) signs off, F (flexible) signs up, G (flexible) does nothing
    for (player, action) in [(p[3], "sign_off"), (p[4], "sign_up")] {
        let r = app
            .post(
                &paths::attendance(cid),
                Some(&leader),
                json!({"player_id": player, "action": action, "rounds": [1], "channel": "email"}),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let r = app.generate_pairing(&leader, cid, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    // present in seed order: A, B, C, F (F unrated and new: inserted at the bottom, docs/rules/keizer.md#entrants)
    assert_eq!(
        boards(&r.body),
        vec![
            (1, 1, p[0], Some(p[1]), None),
            (2, 1, p[2], Some(p[4]), None)
        ]
    );
    assert_eq!(r.body["pairing"]["bye"], Value::Null);
}

#[actix_web::test]
async fn keizer_summer_half_starts_in_the_winter_order_with_season_history() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (winter, p) = CompetitionBuilder::new(
        json!({"name": "Winter", "kind": "keizer", "half": "winter", "rounds_planned": 10}),
    )
    .members_of("fixed", &["A", "B", "C", "D"])
    .create(&app, &leader)
    .await
    .parts();
    let (a, b, c, d) = (p[0], p[1], p[2], p[3]);
    add_round(&app, &leader, winter, FUTURE).await;
    let r = app.generate_pairing(&leader, winter, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    finish_round(&app, &leader, winter, 1, &["0-1", "1-0"]).await;
    let season = app.get(&paths::competition(winter), None).await.body["season_id"]
        .as_i64()
        .unwrap();
    let summer = CompetitionBuilder::new(
        json!({"name": "Summer", "kind": "keizer", "half": "summer", "seeded_from": winter}),
    )
    .in_season(season)
    .entrants(&p)
    .create(&app, &leader)
    .await
    .comp;
    add_round(&app, &leader, summer, "2099-06-05").await;
    let r = app.generate_pairing(&leader, summer, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    // winter final order B, C, A, D (worked out in keizer_second_round_…); summer evening 1 is
    // season evening 11 (after the winter's 10); B–A and C–D met 9 evenings ago in the other
    // half (max once per half, twice per season, 5 evenings between: allowed); the cheapest
    // pairing 1–2, 3–4 is B–C, A–D. Colours over both halves: B had black, C white → B white;
    // A white, D black → D white.
    assert_eq!(r.body["pairing"]["order"], json!([b, c, a, d]));
    assert_eq!(r.body["pairing"]["evening"], 11);
    assert_eq!(r.body["pairing"]["half"], "summer");
    assert_eq!(
        boards(&r.body),
        vec![(1, 1, b, Some(c), None), (2, 1, d, Some(a), None)]
    );
}

/// "At least five playing evenings between two meetings" counts the season's playing evenings
/// (every Friday that is not a rapid evening and not closed), free Fridays included. Calendar:
/// closed 25 Sep, 9 Oct, 23 Oct, 6 Nov, 20 Nov and 4 Dec, so 11 Dec is the 8th winter Keizer
/// evening, 18 and 25 Dec the 9th and 10th, 1 Jan is free (the summer may not start on the
/// first Friday of January) and the summer's evenings 1–3 are 8, 15 and 22 Jan. A and B meet
/// on 11 Dec; on 22 Jan the playing evenings 18 Dec, 25 Dec, 1 Jan, 8 Jan and 15 Jan lie
/// between: five, so they may meet again. Counted in Keizer rounds (8th and 13th) only four
/// would lie between.
#[actix_web::test]
async fn keizer_repeat_counts_playing_evenings_of_the_calendar() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (winter, p) = CompetitionBuilder::new(
        json!({"name": "Winter", "kind": "keizer", "half": "winter", "rounds_planned": 10}),
    )
    .members_of("fixed", &["A", "B"])
    .create(&app, &leader)
    .await
    .parts();
    let season = app.get(&paths::competition(winter), None).await.body["season_id"]
        .as_i64()
        .unwrap();
    let r = app
        .generate_calendar(
            &leader,
            season,
            json!({"knsb_round_dates": [], "closed_dates": ["2026-09-25", "2026-10-09",
                   "2026-10-23", "2026-11-06", "2026-11-20", "2026-12-04"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let evs = r.body.as_array().unwrap().clone();
    let on = |d: &str| evs.iter().find(|e| e["date"] == d).unwrap().clone();
    assert_eq!(on("2026-12-11")["number"], 8);
    assert_eq!(on("2027-01-01")["kind"], "free");
    assert_eq!(on("2027-01-22")["number"], 3);
    // both halves take their rounds from the calendar: rounds are by hand only without one,
    // and the earlier rounds are played (here without games) before the one paired
    let played_without_games = |cid: i64, before: i32| {
        let app = &app;
        async move {
            for n in 1..before {
                advance(app, cid, n, "planned", "paired").await;
                advance(app, cid, n, "paired", "published").await;
                advance(app, cid, n, "published", "completed").await;
            }
        }
    };
    let r = app
        .create_round(&leader, winter, json!({"number": 11}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    let r = app.get(&paths::round(winter, 8), None).await;
    assert_eq!(r.body["date"], "2026-12-11", "{}", r.text);
    played_without_games(winter, 8).await;
    let r = app.generate_pairing(&leader, winter, 8, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    finish_round(&app, &leader, winter, 8, &["1-0"]).await;
    let summer = CompetitionBuilder::new(
        json!({"name": "Summer", "kind": "keizer", "half": "summer", "seeded_from": winter}),
    )
    .in_season(season)
    .entrants(&p)
    .create(&app, &leader)
    .await
    .comp;
    let r = app.get(&paths::round(summer, 3), None).await;
    assert_eq!(r.body["date"], "2027-01-22", "{}", r.text);
    played_without_games(summer, 3).await;
    let r = app.generate_pairing(&leader, summer, 3, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    // counted from the opening Friday (4 Sep, a free evening): 4, 11, 18 Sep, 2, 16, 30 Oct,
    // 13, 27 Nov make 11 Dec the 9th playing evening and 22 Jan the 15th
    let evening = r.body["pairing"]["evening"].as_i64().unwrap();
    assert_eq!(r.body["pairing"]["half"], "summer");
    assert_eq!(boards(&r.body).len(), 1, "{}", r.text);
    assert_eq!(evening, 15);
}

/// Four players, no rounds played, `params.forbidden_pairs` naming seeds 1 and 3: instead of
/// 1–3 and 4–2 (S1 = {1, 2} against S2 = {3, 4}) the next best pairing keeps the halves,
/// 1–4 and 3–2, 2 taking the other colour than 1 (E.5) — the engine's `XXP 1 3` case.
#[actix_web::test]
async fn a_forbidden_pair_changes_the_dutch_first_round() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (cid, p) = CompetitionBuilder::new(
        json!({"name": "Blitz", "kind": "swiss", "system": "dutch", "rounds_planned": 3}),
    )
    .members_of("guest", &["P1", "P2", "P3", "P4"])
    .create(&app, &leader)
    .await
    .parts();
    add_round(&app, &leader, cid, FUTURE).await;
    check_in_all(&app, &leader, cid, 1, &p).await;
    // a pair naming a player who is not an entrant is refused when pairing
    let url = paths::competition(cid);
    let patch = |pairs: Value| {
        app.req(
            Method::PATCH,
            &url,
            Some(&leader),
            Some(json!({"params": {"forbidden_pairs": pairs}})),
        )
    };
    let r = patch(json!([[p[0], 999_999]])).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app.generate_pairing(&leader, cid, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), ["params.forbidden_pairs[0]"]);
    let r = patch(json!([[p[2], p[0]]])).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["params"]["forbidden_pairs"], json!([[p[2], p[0]]]));
    let r = app.generate_pairing(&leader, cid, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(
        boards(&r.body),
        vec![
            (1, 1, p[0], Some(p[3]), None),
            (2, 1, p[2], Some(p[1]), None)
        ]
    );
}

/// Baku acceleration for four players and three rounds: group A is 2·⌈4/4⌉ = 2 players (seeds
/// 1 and 2), ⌈3/2⌉ = 2 rounds are accelerated, the first with one virtual point. Round 1 then
/// has the scoregroups {1, 2} and {3, 4}: 1–2 and 3–4 instead of 1–3 and 4–2; the boards
/// follow the real scores (all 0), so by the higher seed, and each odd seed has white (E.5).
#[actix_web::test]
async fn baku_acceleration_pairs_group_a_together_in_round_one() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (cid, p) = CompetitionBuilder::new(json!({"name": "Blitz", "kind": "swiss",
        "system": "dutch", "rounds_planned": 3, "params": {"acceleration": "baku"}}))
    .members_of("guest", &["P1", "P2", "P3", "P4"])
    .create(&app, &leader)
    .await
    .parts();
    add_round(&app, &leader, cid, FUTURE).await;
    check_in_all(&app, &leader, cid, 1, &p).await;
    let r = app.generate_pairing(&leader, cid, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(
        boards(&r.body),
        vec![
            (1, 1, p[0], Some(p[1]), None),
            (2, 1, p[2], Some(p[3]), None)
        ]
    );
}

/// Two players who may not meet cannot be paired: the refusal names the pair by its index and
/// both players, and nothing is stored.
#[actix_web::test]
async fn a_round_blocked_by_a_forbidden_pair_names_the_pair() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (cid, p) = CompetitionBuilder::new(
        json!({"name": "Duel", "kind": "swiss", "system": "dutch", "rounds_planned": 3}),
    )
    .members_of("guest", &["Anna", "Bram"])
    .create(&app, &leader)
    .await
    .parts();
    let r = app
        .req(
            Method::PATCH,
            &paths::competition(cid),
            Some(&leader),
            Some(json!({"params": {"forbidden_pairs": [[p[0], p[1]]]}})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    add_round(&app, &leader, cid, FUTURE).await;
    check_in_all(&app, &leader, cid, 1, &p).await;
    let before = state_of(&app).await;
    let r = app.generate_pairing(&leader, cid, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(
        r.errors("field").contains(&"params.forbidden_pairs[0]"),
        "{}",
        r.text
    );
    let messages = r.errors("message");
    let pair = format!("Anna (#{}) and Bram (#{}) may not meet", p[0], p[1]);
    assert!(messages.contains(&pair.as_str()), "{messages:?}");
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("Anna") && m.contains("may not meet Bram")),
        "{messages:?}"
    );
    assert_eq!(state_of(&app).await, before, "nothing stored");
}

/// Keizer, four present players A–D in seed order with A and B kept apart: instead of A–B and
/// C–D (cost 1 + 1) the cheapest pairing keeping them apart is A–C and B–D (4 + 4; A–D and B–C
/// cost 9 + 1), the higher-placed player white on the first evening
/// (docs/rules/keizer.md#forbidden-pairs).
#[actix_web::test]
async fn keizer_never_pairs_a_forbidden_pair() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (cid, p) =
        CompetitionBuilder::new(json!({"name": "Keizer", "kind": "keizer", "half": "winter"}))
            .members_of("fixed", &["A", "B", "C", "D"])
            .create(&app, &leader)
            .await
            .parts();
    let r = app
        .req(
            Method::PATCH,
            &paths::competition(cid),
            Some(&leader),
            Some(json!({"params": {"forbidden_pairs": [[p[1], p[0]]]}})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    add_round(&app, &leader, cid, FUTURE).await;
    let r = app.generate_pairing(&leader, cid, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(
        boards(&r.body),
        vec![
            (1, 1, p[0], Some(p[2]), None),
            (2, 1, p[1], Some(p[3]), None)
        ]
    );
}
