//! The light reads and writes of rounds: `GET …/rounds` filtered by status and shown as a
//! summary (boards, games and results counted), and `Prefer: return=minimal` on pairing and
//! publishing (204 with the round's `Location` and `ETag`).

use crate::support::*;
use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use serde_json::json;

/// A round robin of A–E with four rounds: 1 completed (A–B 1-0, C–D 0-1, E a bye), 2
/// published as two-game pairings (A–C twice, B–D twice; only A–C game 1 has a result), 3
/// paired (A–D, B–C, no results), 4 planned (no games). Returns the leader's token and the
/// competition.
async fn four_rounds(app: &TestApp) -> (String, i64) {
    let leader = app.token(&["leader"]).await;
    let (comp, p) = CompetitionBuilder::round_robin()
        .players(&["A", "B", "C", "D", "E"])
        .create(app, &leader)
        .await
        .parts();
    let (a, b, c, d, e) = (p[0], p[1], p[2], p[3], p[4]);
    let r1 = vec![
        (1, 1, a, Some(b), Some("1-0")),
        (2, 1, c, Some(d), Some("0-1")),
        (3, 1, e, None, None),
    ];
    round_games(app, &leader, comp, r1, "completed").await;
    let r2 = vec![
        (1, 1, a, Some(c), Some("1-0")),
        (1, 2, c, Some(a), None),
        (2, 1, b, Some(d), None),
        (2, 2, d, Some(b), None),
    ];
    round_games(app, &leader, comp, r2, "published").await;
    let r3 = vec![(1, 1, a, Some(d), None), (2, 1, b, Some(c), None)];
    round_games(app, &leader, comp, r3, "paired").await;
    add_round(app, &leader, comp, FUTURE).await;
    (leader, comp)
}

/// (number, status, boards, games, results_entered) of each round of a summary.
fn counts(list: &serde_json::Value) -> Vec<(i64, String, i64, i64, i64)> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["number"].as_i64().unwrap(),
                r["status"].as_str().unwrap().to_string(),
                r["boards"].as_i64().unwrap(),
                r["games"].as_i64().unwrap(),
                r["results_entered"].as_i64().unwrap(),
            )
        })
        .collect()
}

#[actix_web::test]
async fn summary_counts_boards_games_and_results() {
    let app = spawn().await;
    let (leader, comp) = four_rounds(&app).await;
    let url = format!("{}?view=summary", paths::rounds(comp));
    let r = app.get(&url, Some(&leader)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // round 1: three boards (the bye is one), its three games all with a result (the bye's
    // too); round 2: two boards of two games each, one result; round 3: two boards, none
    let s = |t: &str| t.to_string();
    assert_eq!(
        counts(&r.body),
        vec![
            (1, s("completed"), 3, 3, 3),
            (2, s("published"), 2, 4, 1),
            (3, s("paired"), 2, 2, 0),
            (4, s("planned"), 0, 0, 0),
        ]
    );
    // no games in a summary, and the round's ETag as the full view gives it
    let first = &r.body[0];
    assert!(first.get("games").unwrap().is_number());
    assert!(first.get("pairing").is_none());
    let full = app.get(&paths::rounds(comp), Some(&leader)).await;
    assert_eq!(full.status, StatusCode::OK, "{}", full.text);
    assert_eq!(first["etag"], full.body[0]["etag"]);
    assert_eq!(full.body[1]["games"].as_array().unwrap().len(), 4);

    // the public sees no games of the paired round, so counts none
    let r = app.get(&url, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        counts(&r.body),
        vec![
            (1, s("completed"), 3, 3, 3),
            (2, s("published"), 2, 4, 1),
            (3, s("paired"), 0, 0, 0),
            (4, s("planned"), 0, 0, 0),
        ]
    );
}

#[actix_web::test]
async fn status_filter_as_list_or_repeated() {
    let app = spawn().await;
    let (leader, comp) = four_rounds(&app).await;
    let numbers = |v: &serde_json::Value| ints(v, "number");
    let base = paths::rounds(comp);

    let r = app
        .get(&format!("{base}?status=paired,published"), Some(&leader))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(numbers(&r.body), vec![2, 3]);
    // the full view keeps its games
    assert_eq!(r.body[0]["games"].as_array().unwrap().len(), 4);

    let r = app
        .get(&format!("{base}?status=planned&status=completed"), None)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(numbers(&r.body), vec![1, 4]);

    let r = app
        .get(
            &format!("{base}?status=published&view=summary"),
            Some(&leader),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(counts(&r.body), vec![(2, "published".into(), 2, 4, 1)]);

    // a filter is a document of its own: its ETag is not the whole list's
    let all = app.get(&base, Some(&leader)).await;
    let some = app
        .get(&format!("{base}?status=paired"), Some(&leader))
        .await;
    assert_eq!(numbers(&some.body), vec![3]);
    assert_ne!(all.header("etag"), some.header("etag"));
}

#[actix_web::test]
async fn bad_status_or_view_is_refused_naming_it() {
    let app = spawn().await;
    let (leader, comp) = four_rounds(&app).await;
    let base = paths::rounds(comp);
    for (query, field) in [
        ("status=done", "status"),
        ("status=paired,", "status"),
        ("status=Paired", "status"),
        ("view=compact", "view"),
        ("view=", "view"),
    ] {
        let r = app.get(&format!("{base}?{query}"), Some(&leader)).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{query}: {}",
            r.text
        );
        assert_eq!(r.errors("field"), vec![field], "{query}");
        assert_eq!(
            r.header("content-type").as_deref(),
            Some("application/problem+json")
        );
    }
    let long = vec!["paired"; 20].join(",");
    let r = app.get(&format!("{base}?status={long}"), None).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), vec!["status"]);
    let r = app.get(&format!("{base}?statuses=paired"), None).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
}

#[actix_web::test]
async fn prefer_minimal_pairing_and_publish_answer_204_with_location_and_etag() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (comp, _) = CompetitionBuilder::round_robin()
        .players(&["A", "B", "C", "D"])
        .create(&app, &leader)
        .await
        .parts();
    add_round(&app, &leader, comp, FUTURE).await;
    let before = app.get(&paths::round(comp, 1), Some(&leader)).await;
    let id = before.body["id"].as_i64().unwrap();
    let v = before.body["version"].as_i64().unwrap();
    let location = format!("/api/v1/competitions/{comp}/rounds/1");

    let r = app
        .send(
            TestRequest::post()
                .uri(&paths::pairing(comp, 1))
                .insert_header(("Authorization", format!("Bearer {leader}")))
                .insert_header(("Prefer", "return=minimal"))
                .set_json(json!({})),
        )
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.text);
    assert_eq!(r.text, "");
    assert_eq!(r.header("location"), Some(location.clone()));
    assert_eq!(
        r.header("preference-applied").as_deref(),
        Some("return=minimal")
    );
    // generating stores the pairing's details and moves the status: two writes, two versions
    let paired_tag = format!("\"round-{id}-v{}\"", v + 2);
    // the leader's tag carries the officer's mark (decision 0326)
    let marked = |t: &str| format!("{}~o\"", t.trim_end_matches('"'));
    assert_eq!(r.header("etag"), Some(marked(&paired_tag)));
    let round = app.get(&location, Some(&leader)).await;
    assert_eq!(round.body["status"], "paired");
    assert_eq!(round.body["etag"], paired_tag.as_str());
    // a round robin of four: two boards
    assert_eq!(round.body["games"].as_array().unwrap().len(), 2);

    // among other preferences, in another case
    let r = app
        .send(
            TestRequest::post()
                .uri(&paths::publish(comp, 1))
                .insert_header(("Authorization", format!("Bearer {leader}")))
                .insert_header(("Prefer", "handling=strict, RETURN=\"minimal\""))
                .set_json(json!({})),
        )
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.text);
    assert_eq!(r.text, "");
    assert_eq!(r.header("location"), Some(location.clone()));
    let round = app.get(&location, Some(&leader)).await;
    assert_eq!(round.body["status"], "published");
    assert_eq!(r.header("etag"), round.body["etag"].as_str().map(marked));
    assert_ne!(r.header("etag"), Some(marked(&paired_tag)));
}

#[actix_web::test]
async fn without_prefer_pairing_and_publish_answer_the_round() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (comp, _) = CompetitionBuilder::round_robin()
        .players(&["A", "B", "C", "D"])
        .create(&app, &leader)
        .await
        .parts();
    add_round(&app, &leader, comp, FUTURE).await;
    let r = app
        .send(
            TestRequest::post()
                .uri(&paths::pairing(comp, 1))
                .insert_header(("Authorization", format!("Bearer {leader}")))
                .insert_header(("Prefer", "return=representation"))
                .set_json(json!({})),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["status"], "paired");
    assert_eq!(r.body["games"].as_array().unwrap().len(), 2);
    let r = app.publish_round(&leader, comp, 1).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["status"], "published");
    assert_eq!(r.body["number"], 1);
}
