//! A competition's `params` in the API document, per kind (docs/api-guide.md#a-competitions-params):
//! a competition and a new competition are one variant per kind, chosen by `kind`, each with
//! its kind's typed params. Competitions of every kind made through the API are checked
//! against the variant of their kind by a small JSON-schema walk over the document.

use crate::support::*;
use actix_web::http::{Method, StatusCode};
use serde_json::{Value, json};

fn document() -> Value {
    serde_json::to_value(clubcomp::app::openapi()).unwrap()
}

/// The schema `#/components/schemas/{name}`.
fn named<'a>(doc: &'a Value, name: &str) -> &'a Value {
    let s = &doc["components"]["schemas"][name];
    assert!(s.is_object(), "no schema {name}");
    s
}

fn type_matches(t: &str, v: &Value) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|f| f.fract() == 0.0),
        "number" => v.is_number(),
        "string" => v.is_string(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        other => panic!("a type this walk does not know: {other}"),
    }
}

/// The places where `v` breaks `schema` (the keywords the competition schemas use: `$ref`,
/// `allOf`, `oneOf` with a discriminator, `anyOf`, `type`, `enum`, `minimum`, `maximum`,
/// `properties`, `required`, `additionalProperties`, `items`).
fn violations(doc: &Value, schema: &Value, v: &Value, at: &str, out: &mut Vec<String>) {
    if let Some(r) = schema["$ref"].as_str() {
        let name = r.strip_prefix("#/components/schemas/").unwrap();
        return violations(doc, named(doc, name), v, at, out);
    }
    if let Some(all) = schema["allOf"].as_array() {
        for s in all {
            violations(doc, s, v, at, out);
        }
    }
    let passes = |s: &Value| {
        let mut e = Vec::new();
        violations(doc, s, v, at, &mut e);
        e.is_empty()
    };
    if let Some(one) = schema["oneOf"].as_array() {
        if let Some(key) = schema["discriminator"]["propertyName"].as_str() {
            let mapped = v[key]
                .as_str()
                .and_then(|k| schema["discriminator"]["mapping"][k].as_str());
            match mapped {
                Some(r) => violations(doc, &json!({ "$ref": r }), v, at, out),
                None => out.push(format!("{at}.{key}: not in the discriminator's mapping")),
            }
        }
        let n = one.iter().filter(|s| passes(s)).count();
        if n != 1 {
            out.push(format!("{at}: matches {n} of oneOf"));
        }
    }
    if let Some(any) = schema["anyOf"].as_array()
        && !any.iter().any(passes)
    {
        out.push(format!("{at}: matches none of anyOf"));
    }
    match &schema["type"] {
        Value::String(t) if !type_matches(t, v) => out.push(format!("{at}: not {t}: {v}")),
        Value::Array(ts) if !ts.iter().any(|t| type_matches(t.as_str().unwrap(), v)) => {
            out.push(format!("{at}: none of {ts:?}: {v}"))
        }
        _ => {}
    }
    if let Some(values) = schema["enum"].as_array()
        && !values.contains(v)
    {
        out.push(format!("{at}: {v} not in {values:?}"));
    }
    if let (Some(min), Some(x)) = (schema["minimum"].as_f64(), v.as_f64())
        && x < min
    {
        out.push(format!("{at}: {x} < {min}"));
    }
    if let (Some(max), Some(x)) = (schema["maximum"].as_f64(), v.as_f64())
        && x > max
    {
        out.push(format!("{at}: {x} > {max}"));
    }
    if let Some(o) = v.as_object() {
        let props = schema["properties"].as_object();
        for req in schema["required"].as_array().into_iter().flatten() {
            if !o.contains_key(req.as_str().unwrap()) {
                out.push(format!("{at}.{}: required", req.as_str().unwrap()));
            }
        }
        for (k, x) in o {
            match props.and_then(|p| p.get(k)) {
                Some(s) => violations(doc, s, x, &format!("{at}.{k}"), out),
                None => match &schema["additionalProperties"] {
                    Value::Bool(false) => out.push(format!("{at}.{k}: not a listed member")),
                    s @ Value::Object(_) => violations(doc, s, x, &format!("{at}.{k}"), out),
                    _ => {}
                },
            }
        }
    }
    if let (Some(items), Some(a)) = (schema.get("items"), v.as_array()) {
        for (i, x) in a.iter().enumerate() {
            violations(doc, items, x, &format!("{at}[{i}]"), out);
        }
    }
}

fn check(doc: &Value, schema: &str, v: &Value) -> Vec<String> {
    let mut out = Vec::new();
    violations(doc, named(doc, schema), v, schema, &mut out);
    out
}

#[test]
fn a_competition_is_one_variant_per_kind_chosen_by_kind() {
    let doc = document();
    let kinds: Vec<&str> = named(&doc, "CompetitionKind")["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["keizer", "swiss", "round_robin", "knockout"]);
    let variants = [
        ("keizer", "Keizer"),
        ("swiss", "Swiss"),
        ("round_robin", "RoundRobin"),
        ("knockout", "Knockout"),
    ];
    for (whole, variant, base) in [
        (
            "CompetitionView",
            "{}CompetitionView",
            "CompetitionViewBase",
        ),
        (
            "CreateCompetition",
            "Create{}Competition",
            "CreateCompetitionBase",
        ),
    ] {
        let s = named(&doc, whole);
        assert_eq!(s["discriminator"]["propertyName"], "kind", "{whole}");
        for (kind, camel) in variants {
            let name = variant.replace("{}", camel);
            let target = format!("#/components/schemas/{name}");
            assert_eq!(s["discriminator"]["mapping"][kind], target.as_str());
            assert!(
                s["oneOf"]
                    .as_array()
                    .unwrap()
                    .contains(&json!({"$ref": target}))
            );
            let v = named(&doc, &name);
            assert_eq!(
                v["allOf"][0]["$ref"],
                format!("#/components/schemas/{base}")
            );
            assert_eq!(v["allOf"][1]["properties"]["kind"]["enum"], json!([kind]));
        }
        assert_eq!(s["oneOf"].as_array().unwrap().len(), 4, "{whole}");
        // the shared part holds neither the kind nor the params
        let b = &named(&doc, base)["properties"];
        assert!(b["kind"].is_null() && b["params"].is_null(), "{base}");
    }
    // the page of a season's competitions refers to the variants, not to an inlined copy
    assert_eq!(
        named(&doc, "Page_CompetitionView")["properties"]["items"]["items"],
        json!({"$ref": "#/components/schemas/CompetitionView"})
    );
}

#[actix_web::test]
async fn every_kind_of_competition_answers_its_documented_variant() {
    let app = spawn().await;
    let doc = document();
    let leader = app.token(&["leader"]).await;
    let season = SeasonBuilder::new()
        .name("2026-2027")
        .create(&app, &leader)
        .await;
    let bodies = [
        (
            "KeizerCompetitionView",
            json!({"name": "Keizer", "kind": "keizer", "half": "winter",
                   "params": {"top_value": 50, "draw": 0.5, "excused_cap": 4}}),
        ),
        (
            "SwissCompetitionView",
            json!({"name": "Blitz", "kind": "swiss", "system": "dutch",
                   "params": {"blitz": {"date": "2027-06-18"}}}),
        ),
        (
            "SwissCompetitionView",
            json!({"name": "Rapid", "kind": "swiss", "system": "double_swiss"}),
        ),
        (
            "RoundRobinCompetitionView",
            json!({"name": "NK", "kind": "round_robin", "discipline": "draughts",
                   "params": {"lots_order": [3, "7"], "prize_money": [90, 60.5],
                              "points_tables": [{"name": "grandmaster", "by_place": [3, 2, 1]}],
                              "rights": [{"kind": "title", "name": "champion", "places": 1},
                                         {"kind": "qualification", "name": "NK", "slots": 2,
                                          "prequalified": [5]}]}}),
        ),
        (
            "KnockoutCompetitionView",
            json!({"name": "Cup", "kind": "knockout"}),
        ),
    ];
    let mut made = Vec::new();
    for (variant, body) in bodies {
        assert_eq!(
            check(&doc, "CreateCompetition", &body),
            Vec::<String>::new()
        );
        let r = app.create_competition(&leader, season, body.clone()).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        assert_eq!(
            check(&doc, variant, &r.body),
            Vec::<String>::new(),
            "{variant}"
        );
        assert_eq!(
            check(&doc, "CompetitionView", &r.body),
            Vec::<String>::new()
        );
        made.push((variant, r.body));
    }
    // the params are answered as sent, a blitz block with its defaults (check-in closes at
    // 20:00, two rounds beyond ⌈log2 n⌉, at most eleven rounds, guests may take the title)
    assert_eq!(
        made[0].1["params"],
        json!({"top_value": 50, "draw": 0.5, "excused_cap": 4})
    );
    assert_eq!(
        made[1].1["params"],
        json!({"blitz": {"date": "2027-06-18", "check_in_closes": "20:00",
                         "extra_rounds": 2, "max_rounds": 11, "guest_title": "eligible"}})
    );
    assert_eq!(made[4].1["params"], json!({}));

    // each answer breaks every other kind's variant, and the typed params bite
    for (variant, body) in &made {
        for (other, _) in &made {
            if other != variant {
                assert!(!check(&doc, other, body).is_empty(), "{variant} as {other}");
            }
        }
    }
    let mut keizer = made[0].1.clone();
    keizer["params"]["blitz"] = json!({"date": "2027-06-18"});
    let found = check(&doc, "CompetitionView", &keizer);
    assert!(
        found.contains(&"CompetitionView.params.blitz: not a listed member".to_string()),
        "{found:?}"
    );
    let mut blitz = made[1].1.clone();
    blitz["params"]["blitz"]["max_rounds"] = json!("11");
    assert!(
        check(&doc, "CompetitionView", &blitz)
            .iter()
            .any(|e| e.starts_with("CompetitionView.params.blitz.max_rounds: not integer")),
        "{:?}",
        check(&doc, "CompetitionView", &blitz)
    );
    let mut rr = made[3].1.clone();
    rr["params"]["rights"][0]["kind"] = json!("medal");
    assert!(!check(&doc, "CompetitionView", &rr).is_empty());

    // the season's page lists each in its variant
    let r = app.get(&paths::season_competitions(season), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["total"], 5);
    assert_eq!(
        check(&doc, "Page_CompetitionView", &r.body),
        Vec::<String>::new()
    );

    // a change's params are those of the competition's kind
    let change = json!({"params": {"top_value": 55}});
    assert_eq!(
        check(&doc, "UpdateCompetition", &change),
        Vec::<String>::new()
    );
    let etag = made[0].1["etag"].as_str().unwrap().to_string();
    let id = made[0].1["id"].as_i64().unwrap();
    let r = app
        .update_competition_if_match(&leader, id, &etag, change)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["params"], json!({"top_value": 55}));
    assert_eq!(
        check(&doc, "KeizerCompetitionView", &r.body),
        Vec::<String>::new()
    );
}

#[actix_web::test]
async fn the_playoffs_knockout_answers_its_typed_draw() {
    let app = spawn().await;
    let doc = document();
    let Club { leader, .. } = ClubBuilder::new().build(&app).await;
    let (season, players, summer) = summer_of_four(&app, &leader).await;
    let r = playoffs_of_four(&app, &leader, season, players, summer).await;
    let comp = r.body["competition_id"].as_i64().unwrap();
    let r = app.get(&paths::competition(comp), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["kind"], "knockout");
    // summer final order c, b, a, d: one group of four, nobody without a group
    let [a, b, c, d] = players.map(|p| p.to_string());
    assert_eq!(r.body["params"]["summer_competition"], summer);
    assert_eq!(
        r.body["params"]["draw"],
        json!({"groups": [{"number": 1, "seeds": [c, b, a, d]}], "without_group": null})
    );
    assert_eq!(
        check(&doc, "KnockoutCompetitionView", &r.body),
        Vec::<String>::new()
    );
    let mut bad = r.body.clone();
    bad["params"]["draw"]["groups"][0]["seeds"] = json!([1, 2]);
    assert!(!check(&doc, "CompetitionView", &bad).is_empty());
}

/// A Dutch Swiss's `acceleration` and `forbidden_pairs` are bounded and checked on create and
/// on change, each refusal naming its field; a Double-Swiss takes neither.
#[actix_web::test]
async fn dutch_pairing_params_are_checked_field_by_field() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let season = SeasonBuilder::new().create(&app, &leader).await;
    let dutch = |params: Value| json!({"name": "Blitz", "kind": "swiss", "system": "dutch", "params": params});
    let too_many: Vec<Value> = (1..=201).map(|i| json!([i, i + 1000])).collect();
    for (params, field) in [
        (json!({"acceleration": "fast"}), "params.acceleration"),
        (json!({"acceleration": 1}), "params.acceleration"),
        (
            json!({"forbidden_pairs": [[1, 2], [3, 3]]}),
            "params.forbidden_pairs[1]",
        ),
        (
            json!({"forbidden_pairs": [[1, 2, 3]]}),
            "params.forbidden_pairs[0]",
        ),
        (
            json!({"forbidden_pairs": [[1, "2"]]}),
            "params.forbidden_pairs[0]",
        ),
        (
            json!({"forbidden_pairs": [[0, 2]]}),
            "params.forbidden_pairs[0]",
        ),
        (
            json!({"forbidden_pairs": {"1": 2}}),
            "params.forbidden_pairs",
        ),
        (
            json!({"forbidden_pairs": too_many}),
            "params.forbidden_pairs",
        ),
    ] {
        let r = app
            .create_competition(&leader, season, dutch(params.clone()))
            .await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{params}: {}",
            r.text
        );
        assert_eq!(r.errors("field"), [field], "{params}");
    }
    let r = app
        .create_competition(
            &leader,
            season,
            json!({"name": "Rapid", "kind": "swiss", "system": "double_swiss",
                   "params": {"acceleration": "baku"}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), ["params.acceleration"]);
    let at_most: Vec<Value> = (1..=200).map(|i| json!([i, i + 1000])).collect();
    let r = app
        .create_competition(
            &leader,
            season,
            dutch(json!({"acceleration": "baku", "forbidden_pairs": at_most})),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let comp = r.body["id"].as_i64().unwrap();
    let r = app
        .req(
            Method::PATCH,
            &paths::competition(comp),
            Some(&leader),
            Some(json!({"params": {"forbidden_pairs": [[7, 7]]}})),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), ["params.forbidden_pairs[0]"]);
    let r = app.get(&paths::competition(comp), None).await;
    assert_eq!(
        r.body["params"]["acceleration"], "baku",
        "the refusal changed nothing"
    );
    assert_eq!(
        r.body["params"]["forbidden_pairs"]
            .as_array()
            .unwrap()
            .len(),
        200
    );
}

/// A Keizer competition takes `forbidden_pairs` next to its scoring params, checked item by
/// item; its other members are still the engine's scoring params.
#[actix_web::test]
async fn keizer_forbidden_pairs_are_checked_item_by_item() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let season = SeasonBuilder::new().create(&app, &leader).await;
    let keizer = |params: Value| json!({"name": "Keizer", "kind": "keizer", "half": "winter", "params": params});
    for (params, field) in [
        (
            json!({"forbidden_pairs": [[4, 4]]}),
            "params.forbidden_pairs[0]",
        ),
        (
            json!({"top_value": 50, "forbidden_pairs": [[1, 2], [3]]}),
            "params.forbidden_pairs[1]",
        ),
        (json!({"forbidden_pairs": "1-2"}), "params.forbidden_pairs"),
    ] {
        let r = app
            .create_competition(&leader, season, keizer(params.clone()))
            .await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{params}: {}",
            r.text
        );
        assert_eq!(r.errors("field"), [field], "{params}");
    }
    let r = app
        .create_competition(
            &leader,
            season,
            keizer(json!({"top_value": 50, "forbidden_pairs": [[1, 2]]})),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["params"]["forbidden_pairs"], json!([[1, 2]]));
    assert_eq!(r.body["params"]["top_value"], 50);
}
