//! A Swiss competition of the Burstein system (docs/rules/rapid-blitz.md#the-burstein-system):
//! its rounds are paired by the Burstein engine, not the Dutch one. The expected boards are
//! worked out by hand below and are also what bbpPairings `--burstein` pairs for the same
//! field.

use crate::support::*;
use actix_web::http::StatusCode;
use serde_json::json;

const SIX: [&str; 6] = ["P1", "P2", "P3", "P4", "P5", "P6"];

/// Six players in round 1. Burstein: seeds 1–3 start a win ahead (the default acceleration of
/// rounds 1 and 2), so the top group {1, 2, 3} pairs 1–3 and floats 2 down to the lowest of
/// {4, 5, 6}: 1–3, 2–6, 4–5. Without colour preferences the higher seed's parity decides
/// (odd: the initial white), so 1 and 5 have white, 2 and 4 black. The Dutch system pairs the
/// same field 1–4, 5–2, 3–6.
#[actix_web::test]
async fn a_burstein_swiss_pairs_round_one_with_its_default_acceleration() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    for (system, expected) in [
        ("burstein", [(0, 2), (5, 1), (4, 3)]),
        ("dutch", [(0, 3), (4, 1), (2, 5)]),
    ] {
        let (cid, p) = CompetitionBuilder::new(json!({"name": format!("Swiss {system}"),
            "kind": "swiss", "system": system, "rounds_planned": 5}))
        .members_of("guest", &SIX)
        .create(&app, &leader)
        .await
        .parts();
        add_round(&app, &leader, cid, FUTURE).await;
        check_in_all(&app, &leader, cid, 1, &p).await;
        let r = app.generate_pairing(&leader, cid, 1, json!({})).await;
        assert_eq!(r.status, StatusCode::CREATED, "{system}: {}", r.text);
        let want: Vec<_> = expected
            .iter()
            .enumerate()
            .map(|(i, &(w, b))| (i as i64 + 1, 1, p[w], Some(p[b]), None))
            .collect();
        assert_eq!(boards(&r.body), want, "{system}");
        assert_eq!(r.body["pairing"]["system"], system);
    }
}

/// Five of six present (seed 3 absent): the default acceleration counts the five who are
/// paired, so seeds 1 and 2 start a win ahead and meet; the bye goes to the lowest of
/// {4, 5, 6} by Sonneborn-Berger, Buchholz, Median (all 0) and seed: 6; 4–5 is the other
/// board, 4 with white as the third player of the round (odd).
#[actix_web::test]
async fn a_burstein_round_gives_the_bye_to_the_lowest_player() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (cid, p) = CompetitionBuilder::new(json!({"name": "Burstein", "kind": "swiss",
        "system": "burstein", "rounds_planned": 5}))
    .members_of("guest", &SIX)
    .create(&app, &leader)
    .await
    .parts();
    add_round(&app, &leader, cid, FUTURE).await;
    let present: Vec<i64> = p.iter().copied().filter(|&x| x != p[2]).collect();
    check_in_all(&app, &leader, cid, 1, &present).await;
    let r = app.generate_pairing(&leader, cid, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(
        boards(&r.body),
        vec![
            (1, 1, p[0], Some(p[1]), None),
            (2, 1, p[3], Some(p[4]), None),
            (3, 1, p[5], None, Some("bye".into()))
        ]
    );
}
