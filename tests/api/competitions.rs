//! Seasons, competitions, entrants and the round status machine.

use crate::support::*;
use actix_web::http::{Method, StatusCode};
use actix_web::test::TestRequest;
use serde_json::{Value, json};

#[actix_web::test]
async fn season_competition_entrants_and_rounds() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let admin = app.token(&["admin"]).await;
    let r = app
        .create_season(
            &leader,
            json!({"name": "2026-2027", "opening_date": "2026-09-04"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let season = r.body["id"].as_i64().unwrap();
    assert_eq!(
        app.create_season(
            &leader,
            json!({"name": "2026-2027", "opening_date": "2026-09-04"})
        )
        .await
        .status,
        StatusCode::CONFLICT
    );

    // invalid settings are named field by field, nothing written
    let before = app.get(&paths::season_competitions(season), None).await;
    let r = app
        .create_competition(&leader, season, json!({"name": "X", "kind": "swiss", "system": "monrad", "tiebreaks": ["NOPE"], "params": [], "half": "winter"}))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let fields = r.errors("field");
    assert!(
        fields.contains(&"half")
            && fields.contains(&"system")
            && fields.contains(&"params")
            && fields.contains(&"tiebreaks[0]"),
        "{fields:?}"
    );
    assert_eq!(
        app.get(&paths::season_competitions(season), None)
            .await
            .body,
        before.body
    );

    let r = app
        .create_competition(&leader, season, json!({"name": "Keizer winter", "kind": "keizer", "half": "winter", "params": {"top_value": 50}}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let comp = r.body["id"].as_i64().unwrap();
    assert_eq!(r.body["time_control"]["periods"][0]["moves"], 40);
    assert_eq!(r.body["rules"]["quickplay_finish"], true);
    // the planned rounds are checked on a change as on creation
    let comp_url = paths::competition(comp);
    let planned = |n: i64| {
        app.req(
            Method::PATCH,
            &comp_url,
            Some(&leader),
            Some(json!({"rounds_planned": n})),
        )
    };
    for bad in [0, 100] {
        let r = planned(bad).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{bad}: {}",
            r.text
        );
        assert_eq!(r.body["errors"][0]["field"], "rounds_planned");
    }
    // a bad change is refused for its content even with a stale If-Match (422, not 412)
    let stale = TestRequest::default()
        .method(Method::PATCH)
        .uri(&comp_url)
        .insert_header(("Authorization", format!("Bearer {leader}")))
        .insert_header(("If-Match", "\"competition-0-v0\""));
    let r = app
        .send(stale.set_json(json!({"time_control": {"periods": []}})))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    // a time control's numbers are bounded as the document says
    let r = app
        .req(
            Method::PATCH,
            &comp_url,
            Some(&leader),
            Some(
                json!({"time_control": {"periods": [{"moves": 201, "minutes": 90},
                {"minutes": 601}], "increment_seconds": 601, "increment_from_move": 0}}),
            ),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let fields = r.errors("field");
    assert_eq!(
        fields,
        [
            "time_control.increment_seconds",
            "time_control.increment_from_move",
            "time_control.periods[0].moves",
            "time_control.periods[1].minutes"
        ]
    );
    let r = planned(30).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["rounds_planned"], 30);
    let r = app
        .create_competition(
            &leader,
            season,
            json!({"name": "Rapid", "kind": "swiss", "system": "double_swiss"}),
        )
        .await;
    assert_eq!(r.body["tiebreaks"], json!(["DE", "BH-M1", "SB"]));
    assert_eq!(
        r.body["rules"]["quickplay_finish"], false,
        "docs/rules/rapid-blitz.md#double-swiss: not in the rapid"
    );

    // entrants are seeded by the KNSB rating on 1 September, unrated below, then by entry
    let mut ids = vec![];
    for (name, knsb) in [("Low", "1"), ("High", "2"), ("Unrated", "3"), ("Mid", "4")] {
        let p = app
            .create_player(&leader, json!({"name": name, "knsb_number": knsb}))
            .await;
        ids.push(p.body["id"].as_i64().unwrap());
    }
    let list = json!({"source": "KNSB", "list_date": "2026-08-01", "ratings": [
        {"knsb_number": "1", "value": 1500}, {"knsb_number": "2", "value": 2000}, {"knsb_number": "4", "value": 1700}]});
    app.push_ratings(&admin, list).await;
    // a list after 1 September does not count for the seeding
    let later = json!({"source": "KNSB", "list_date": "2026-10-01", "ratings": [{"knsb_number": "1", "value": 2100}]});
    app.push_ratings(&admin, later).await;
    let body = json!({"entrants": ids.iter().map(|i| json!({"player_id": i})).collect::<Vec<_>>()});
    let r = app.add_entrants(&leader, comp, body.clone()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let names: Vec<&str> = texts(&r.body, "name");
    assert_eq!(names, ["High", "Mid", "Low", "Unrated"]);
    let r = app
        .add_entrants(&leader, comp, json!({"entrants": [{"player_id": ids[0]}]}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);

    // rounds: planned → publish is a conflict until paired
    let r = app
        .create_round(&leader, comp, json!({"date": "2026-09-11"}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["number"], 1);
    assert_eq!(r.body["status"], "planned");
    let r = app.publish_round(&leader, comp, 1).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert!(r.body["detail"].as_str().unwrap().contains("planned"));
    let r = app.get(&paths::rounds(comp), None).await;
    assert_eq!(r.body[0]["status"], "planned");
    assert_eq!(
        app.get(&paths::round(comp, 9), None).await.status,
        StatusCode::NOT_FOUND
    );
}

/// Each round-robin parameter the standings read is refused when it does not have the engine's
/// type, on creation and on a change, naming the field; nothing is stored.
#[actix_web::test]
async fn malformed_round_robin_params_are_refused_by_name() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let season = SeasonBuilder::new().create(&app, &leader).await;
    let bad = [
        (json!({"lots_seed": "seven"}), "params.lots_seed"),
        (json!({"lots_seed": -1}), "params.lots_seed"),
        (json!({"lots_order": 3}), "params.lots_order"),
        (json!({"lots_order": [1, 2.5]}), "params.lots_order[1]"),
        (
            json!({"points_tables": [{"name": "gm"}]}),
            "params.points_tables[0]",
        ),
        (
            json!({"points_tables": {"gm": [3, 2, 1]}}),
            "params.points_tables",
        ),
        (
            json!({"excluded_from_points": [true]}),
            "params.excluded_from_points[0]",
        ),
        (json!({"prize_money": [100, "50"]}), "params.prize_money[1]"),
        (
            json!({"rights": [{"kind": "title", "name": "champion", "places": 1},
                           {"kind": "crown", "name": "x"}]}),
            "params.rights[1]",
        ),
        (
            json!({"rights": [{"kind": "qualification", "name": "final", "slots": 2,
                            "prequalified": [null]}]}),
            "params.rights[0]",
        ),
    ];
    let bad: Vec<(Value, Vec<&str>)> = bad.into_iter().map(|(p, f)| (p, vec![f])).collect();
    let good = json!({"lots_order": [2, "1"], "prize_money": [100, 50.5],
        "points_tables": [{"name": "gm", "by_place": [3, 2, 1]}],
        "excluded_from_points": ["guest"],
        "rights": [{"kind": "cut", "name": "A", "places": 2}]});
    let body = json!({"name": "RR", "kind": "round_robin"});
    params_refused_by_name(&app, &leader, season, body, &bad, &good).await;
}

/// A knockout's playoff members (`summer_competition`, `colour_seed`, `draw`) come all three or
/// none, each of its type; anything else is refused on creation and on a change, naming the
/// field, and nothing is stored. A correct draw is stored and read back.
#[actix_web::test]
async fn malformed_knockout_params_are_refused_by_name() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let season = SeasonBuilder::new().create(&app, &leader).await;
    let draw = json!({"groups": [{"number": 1, "seeds": ["p1", "p2", "p3", "p4"]},
                                 {"number": 2, "seeds": ["p5", "p6"]}],
                      "without_group": "p7"});
    let bad: Vec<(Value, Vec<&str>)> = vec![
        (
            json!({"colour_seed": 1}),
            vec!["params.draw", "params.summer_competition"],
        ),
        (
            json!({"summer_competition": 3, "draw": draw}),
            vec!["params.colour_seed"],
        ),
        (
            json!({"summer_competition": 3, "colour_seed": 1}),
            vec!["params.draw"],
        ),
        (
            json!({"summer_competition": "3", "colour_seed": 1, "draw": draw}),
            vec!["params.summer_competition"],
        ),
        (
            json!({"summer_competition": 0, "colour_seed": 1, "draw": draw}),
            vec!["params.summer_competition"],
        ),
        (
            json!({"summer_competition": 3, "colour_seed": -1, "draw": draw}),
            vec!["params.colour_seed"],
        ),
        (
            json!({"summer_competition": 3, "colour_seed": null, "draw": draw}),
            vec!["params.colour_seed"],
        ),
        (
            json!({"summer_competition": 3, "colour_seed": 1, "draw": [1, 2]}),
            vec!["params.draw"],
        ),
        (
            json!({"summer_competition": 3, "colour_seed": 1, "draw": {"without_group": null}}),
            vec!["params.draw.groups"],
        ),
        (
            json!({"summer_competition": 3, "colour_seed": 1,
                   "draw": {"groups": [{"number": 1, "seeds": ["p1"]}]}}),
            vec!["params.draw.groups[0].seeds"],
        ),
        (
            json!({"summer_competition": 3, "colour_seed": 1,
                   "draw": {"groups": [{"number": 1, "seeds": ["p1", "p2"]},
                                       {"number": 3, "seeds": ["p3", "p4", 5]}]}}),
            vec![
                "params.draw.groups[1].number",
                "params.draw.groups[1].seeds",
            ],
        ),
        (
            json!({"summer_competition": 3, "colour_seed": 1,
                   "draw": {"groups": [], "without_group": 7}}),
            vec!["params.draw.without_group"],
        ),
    ];
    let good = json!({"summer_competition": 3, "colour_seed": 42, "draw": draw, "note": "cup"});
    let body = json!({"name": "Cup", "kind": "knockout"});
    let url = params_refused_by_name(&app, &leader, season, body, &bad, &good).await;
    // a knockout without a draw stays one
    let r = app
        .req(
            Method::PATCH,
            &url,
            Some(&leader),
            Some(json!({"params": {"note": "cup"}})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        app.get(&url, None).await.body["params"],
        json!({"note": "cup"})
    );
}

#[actix_web::test]
async fn a_swiss_tiebreak_list_is_stored_and_answered_in_the_listed_acronyms() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let season = SeasonBuilder::new().create(&app, &leader).await;
    let swiss = |tiebreaks: Value| json!({"name": "Rapid", "kind": "swiss", "system": "dutch", "tiebreaks": tiebreaks});
    let r = app
        .create_competition(
            &leader,
            season,
            swiss(json!(["bh/c1", "sb", "aro-m2", " pts "])),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let want = json!(["BH-C1", "SB", "ARO-M2", "PTS"]);
    assert_eq!(r.body["tiebreaks"], want);
    let comp = r.body["id"].as_i64().unwrap();
    let stored: String = app
        .with_conn(move |c| {
            use clubcomp_core::test_store::schema::competitions;
            use diesel::prelude::*;
            competitions::table
                .find(comp)
                .select(competitions::tiebreaks)
                .first(c)
                .unwrap()
        })
        .await;
    assert_eq!(serde_json::from_str::<Value>(&stored).unwrap(), want);
    assert_eq!(
        app.get(&paths::competition(comp), None).await.body["tiebreaks"],
        want
    );
    let r = app
        .update_competition_if_match(
            &leader,
            comp,
            &format!("\"competition-{comp}-v1\""),
            json!({"tiebreaks": ["fb/m1"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["tiebreaks"], json!(["FB-M1"]));

    // a cut the list does not name, and two tie-breaks in one entry, are refused by index
    for (list, field) in [
        (json!(["BH", "BH-C3"]), "tiebreaks[1]"),
        (json!(["BH,SB"]), "tiebreaks[0]"),
        (json!(["median"]), "tiebreaks[0]"),
    ] {
        let r = app
            .create_competition(&leader, season, swiss(list.clone()))
            .await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{list}: {}",
            r.text
        );
        assert_eq!(r.errors("field"), [field], "{list}");
    }

    // a stored value that is no listed tie-break is a server error, not dropped or defaulted
    app.with_conn(move |c| {
        use clubcomp_core::test_store::schema::competitions;
        use diesel::prelude::*;
        diesel::update(competitions::table.find(comp))
            .set(competitions::tiebreaks.eq("[\"BH\", \"BH-C7\"]"))
            .execute(c)
            .unwrap()
    })
    .await;
    let r = app.get(&paths::competition(comp), None).await;
    assert_eq!(r.status, StatusCode::INTERNAL_SERVER_ERROR, "{}", r.text);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/problem+json")
    );
    assert!(!r.text.contains("BH-C7"), "{}", r.text);
}

/// Each of `bad` (params, the fields its refusal names) is refused with 422 naming exactly
/// those fields: when a competition of `body` (its name and kind) is created in `season`
/// with it, which leaves the season's list as it was, and when a competition created with
/// `good` is changed to it, which leaves that competition at version 1 with `good`. Returns
/// that competition's URL.
async fn params_refused_by_name(
    app: &TestApp,
    leader: &str,
    season: i64,
    body: Value,
    bad: &[(Value, Vec<&str>)],
    good: &Value,
) -> String {
    let refused = |r: &Resp, params: &Value, fields: &[&str]| {
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{params}: {}",
            r.text
        );
        let mut got = r.errors("field");
        got.sort();
        assert_eq!(got, fields, "{params}");
    };
    let with = |params: &Value| {
        let mut b = body.clone();
        b["params"] = params.clone();
        b
    };
    let before = app.get(&paths::season_competitions(season), None).await;
    for (params, fields) in bad {
        let r = app.create_competition(leader, season, with(params)).await;
        refused(&r, params, fields);
    }
    assert_eq!(
        app.get(&paths::season_competitions(season), None)
            .await
            .body,
        before.body
    );

    let r = app.create_competition(leader, season, with(good)).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["params"], *good);
    let url = paths::competition(r.body["id"].as_i64().unwrap());
    let r = app.get(&url, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["params"], *good);
    for (params, fields) in bad {
        let r = app
            .req(
                Method::PATCH,
                &url,
                Some(leader),
                Some(json!({"params": params})),
            )
            .await;
        refused(&r, params, fields);
    }
    let r = app.get(&url, None).await;
    assert_eq!(r.body["params"], *good);
    assert_eq!(r.body["version"], 1, "{}", r.text);
    url
}
