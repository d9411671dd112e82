//! The typed vocabulary: stored kinds, halves, memberships and params are parsed once when
//! read, and a stored value that does not parse answers an internal-error problem (its cause
//! logged, no Rust text shown) instead of silently becoming a default.

use crate::support::*;
use actix_web::http::StatusCode;
use clubcomp_core::test_store::schema::{cache_stamps, competitions, players, rounds};
use diesel::prelude::*;
use serde_json::json;

async fn keizer_competition(app: &TestApp) -> i64 {
    let leader = app.token(&["leader"]).await;
    CompetitionBuilder::new(
        json!({"name": "Keizer winter", "kind": "keizer", "half": "winter",
                                   "params": {"top_value": 50}}),
    )
    .create(app, &leader)
    .await
    .comp
}

/// An internal-error problem that shows nothing of its cause.
fn assert_internal(r: &Resp, leaked: &[&str]) {
    assert_eq!(r.status, StatusCode::INTERNAL_SERVER_ERROR, "{}", r.text);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/problem+json")
    );
    assert_eq!(r.body["status"], 500);
    assert!(
        r.body.get("detail").is_none_or(|d| d.is_null()),
        "{}",
        r.text
    );
    for word in leaked {
        assert!(!r.text.contains(word), "{word:?} in {}", r.text);
    }
}

#[actix_web::test]
async fn malformed_stored_params_are_an_internal_error_not_defaults() {
    let app = spawn().await;
    let comp = keizer_competition(&app).await;
    let url = paths::competition(comp);
    let r = app.get(&url, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["params"], json!({"top_value": 50}));

    for broken in ["{\"top_value\": 50", "[1, 2]", "{\"top_value\": \"fifty\"}"] {
        let text = broken.to_string();
        app.with_conn(move |c| {
            diesel::update(competitions::table.find(comp))
                .set(competitions::params.eq(text))
                .execute(c)
                .unwrap()
        })
        .await;
        for path in [url.clone(), format!("{url}/standings")] {
            let r = app.get(&path, None).await;
            assert_internal(&r, &["params", "EOF", "expected", "top_value", "serde"]);
        }
    }
}

#[actix_web::test]
async fn an_unknown_stored_kind_or_half_is_an_internal_error() {
    let app = spawn().await;
    let comp = keizer_competition(&app).await;
    let url = paths::competition(comp);
    for (column, value) in [("kind", "keizr"), ("half", "autumn"), ("discipline", "go")] {
        let value = value.to_string();
        let col = column.to_string();
        app.with_conn(move |c| {
            let q = diesel::update(competitions::table.find(comp));
            match col.as_str() {
                "kind" => q.set(competitions::kind.eq(value)).execute(c),
                "half" => q.set(competitions::half.eq(Some(value))).execute(c),
                _ => q.set(competitions::discipline.eq(value)).execute(c),
            }
            .unwrap()
        })
        .await;
        let r = app.get(&url, None).await;
        assert_internal(&r, &["keizr", "autumn", "unknown", column]);
        // put it right again before the next column
        app.with_conn(move |c| {
            diesel::update(competitions::table.find(comp))
                .set((
                    competitions::kind.eq("keizer"),
                    competitions::half.eq(Some("winter")),
                    competitions::discipline.eq("chess"),
                ))
                .execute(c)
                .unwrap()
        })
        .await;
        assert_eq!(app.get(&url, None).await.status, StatusCode::OK);
    }
}

#[actix_web::test]
async fn an_unknown_stored_membership_is_an_internal_error() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let r = app
        .post(paths::PLAYERS, Some(&leader), json!({"name": "Anna"}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["membership"], "fixed");
    let id = r.body["id"].as_i64().unwrap();
    let url = paths::player(id);
    assert_eq!(app.get(&url, Some(&leader)).await.status, StatusCode::OK);
    app.with_conn(move |c| {
        diesel::update(players::table.find(id))
            .set(players::membership.eq("honorary"))
            .execute(c)
            .unwrap()
    })
    .await;
    assert_internal(
        &app.get(&url, Some(&leader)).await,
        &["honorary", "membership"],
    );
}

#[actix_web::test]
async fn an_unknown_stored_round_status_is_an_internal_error() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let comp = keizer_competition(&app).await;
    let r = app.create_round(&leader, comp, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["status"], "planned");
    let url = paths::round(comp, 1);
    assert_eq!(app.get(&url, Some(&leader)).await.status, StatusCode::OK);
    app.with_conn(move |c| {
        diesel::update(rounds::table.filter(rounds::competition_id.eq(comp)))
            .set(rounds::status.eq("done"))
            .execute(c)
            .unwrap();
        // the round as read before is cached until its competition's stamp moves
        diesel::update(cache_stamps::table.find(format!("competition:{comp}")))
            .set(cache_stamps::stamp.eq(cache_stamps::stamp + 1))
            .execute(c)
            .unwrap()
    })
    .await;
    assert_internal(
        &app.get(&url, Some(&leader)).await,
        &["done", "round status", "unknown"],
    );
}

#[actix_web::test]
async fn request_values_are_still_refused_by_name() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let r = app
        .post(
            paths::PLAYERS,
            Some(&leader),
            json!({"name": "Anna", "membership": "honorary"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "membership");
    assert_eq!(
        r.body["errors"][0]["message"],
        "must be fixed, flexible or guest"
    );
}

#[actix_web::test]
async fn a_claim_names_one_of_nine_kinds_and_a_plain_claim_event_is_stored_as_draughts_repetition()
{
    let app = spawn().await;
    let arb = app.token(&["arbiter"]).await;
    let g = crate::arbiter::kndb_games(&app).await;
    // the event log's kind is not one a claim is brought with (decision 0308)
    let r = app
        .claim(&arb, g[0], json!({"kind": "draughts_repetition"}))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.body["errors"][0]["field"], "kind");
    let r = app.claims(&arb, g[0], "").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["total"], 0, "{}", r.text);
    // a plain claim event opens a claim of the event log's kind, pending
    let r = app
        .record_event(
            &arb,
            g[0],
            json!({"event": {"type": "claim", "by": "white", "kind": "draughts_repetition"}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let r = app.claims(&arb, g[0], "").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["total"], 1, "{}", r.text);
    assert_eq!(r.body["items"][0]["kind"], "draughts_repetition");
    assert_eq!(r.body["items"][0]["status"], "pending");
    assert_eq!(r.body["items"][0]["claimant"], "white");
}

#[actix_web::test]
async fn a_stored_claim_kind_or_status_outside_its_list_is_an_internal_error() {
    use clubcomp_core::test_store::schema::claims;
    let app = spawn().await;
    let arb = app.token(&["arbiter"]).await;
    let g = crate::arbiter::kndb_games(&app).await;
    let r = app
        .record_event(
            &arb,
            g[0],
            json!({"event": {"type": "claim", "by": "white", "kind": "draughts_twenty_five_moves"}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    for (kind, status) in [
        ("repetition", "pending"),
        ("draughts_twenty_five_moves", "open"),
    ] {
        app.with_conn(move |c| {
            diesel::update(claims::table)
                .set((claims::kind.eq(kind), claims::status.eq(status)))
                .execute(c)
                .unwrap()
        })
        .await;
        let r = app.claims(&arb, g[0], "").await;
        assert_internal(&r, &["claim kind", "claim status", "repetition", "open"]);
    }
}
