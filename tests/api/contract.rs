//! The contract a generated client relies on: every value list of the document is an enum,
//! no rustdoc syntax leaks into its descriptions, every instant is documented and written in
//! one spelling, the headers the answers send are documented, and the conditional headers
//! compare as RFC 9110 says (docs/api-guide.md#for-generated-clients).

use crate::support::*;
use actix_web::http::StatusCode;
use serde_json::{Value, json};

fn document() -> Value {
    serde_json::to_value(clubcomp::app::openapi()).unwrap()
}

/// Every schema (and the schemas inside it) with its place in the document, e.g.
/// `ClaimView.kind`.
fn schemas(doc: &Value) -> Vec<(String, Value)> {
    fn walk(at: String, s: &Value, out: &mut Vec<(String, Value)>) {
        let Some(o) = s.as_object() else { return };
        out.push((at.clone(), s.clone()));
        if let Some(props) = o.get("properties").and_then(Value::as_object) {
            for (k, v) in props {
                walk(format!("{at}.{k}"), v, out);
            }
        }
        for k in ["items", "additionalProperties"] {
            if let Some(v) = o.get(k) {
                walk(format!("{at}.{k}"), v, out);
            }
        }
        for k in ["oneOf", "anyOf", "allOf"] {
            for (i, v) in o
                .get(k)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                walk(format!("{at}.{k}{i}"), v, out);
            }
        }
    }
    let mut out = Vec::new();
    for (name, s) in doc["components"]["schemas"].as_object().unwrap() {
        walk(name.clone(), s, &mut out);
    }
    out
}

fn is_string(s: &Value) -> bool {
    s["type"] == "string"
        || s["type"]
            .as_array()
            .is_some_and(|t| t.contains(&json!("string")))
}

/// The backticked words of a description that look like values (`keizer`, `1-0`, `KNSB`).
fn quoted_values(description: &str) -> Vec<&str> {
    description
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_+-/½.".contains(c))
        })
        .collect()
}

/// String fields whose description quotes values although the values are not a closed set.
const OPEN_VALUE_LISTS: &[(&str, &str)] = &[
    (
        "AuditView.action",
        "one name per audited use case; the list grows with the use cases, a client shows it as text",
    ),
    (
        "Page_AuditView.items.items.action",
        "the same field in a page of the audit trail",
    ),
    (
        "CardCompetition.place",
        "a printed place (`3`, `3-4`), not a value list",
    ),
    (
        "SwissRow.place",
        "a printed place (`3`, `3-4`), not a value list",
    ),
];

#[test]
fn every_string_field_that_lists_its_values_is_an_enum() {
    let doc = document();
    let mut offenders = Vec::new();
    for (at, s) in schemas(&doc) {
        let described = s["description"].as_str().unwrap_or_default();
        // an `etag` quotes the header names, not values
        if !is_string(&s)
            || at.ends_with(".etag")
            || ["enum", "pattern", "format", "const"]
                .iter()
                .any(|k| s.get(k).is_some())
        {
            continue;
        }
        if quoted_values(described).len() >= 2 && !OPEN_VALUE_LISTS.iter().any(|(f, _)| *f == at) {
            offenders.push(format!("{at}: {described}"));
        }
    }
    assert!(
        offenders.is_empty(),
        "value lists without an enum:\n{}",
        offenders.join("\n")
    );
    // the detector itself: a string field quoting two values is found, one with an enum not
    let fake = json!({"description": "`open` or `closed`", "type": "string"});
    assert_eq!(
        quoted_values(fake["description"].as_str().unwrap()),
        ["open", "closed"]
    );
}

#[test]
fn no_rustdoc_link_leaks_into_the_document() {
    fn walk(at: &str, v: &Value, found: &mut Vec<String>) {
        match v {
            Value::Object(o) => {
                for (k, x) in o {
                    if k == "description"
                        && let Some(d) = x.as_str()
                        && d.contains("[`")
                        && d[d.find("[`").unwrap()..].contains("`]")
                    {
                        found.push(format!("{at}: {d}"));
                    }
                    walk(&format!("{at}/{k}"), x, found);
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    walk(&format!("{at}/{i}"), x, found);
                }
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    walk("", &document(), &mut found);
    assert!(found.is_empty(), "rustdoc links:\n{}", found.join("\n"));
}

#[test]
fn the_fields_that_were_plain_strings_name_their_value_lists() {
    let doc = document();
    let s = &doc["components"]["schemas"];
    let refers = |schema: &str, field: &str, target: &str| {
        let text = s[schema]["properties"][field].to_string();
        assert!(
            text.contains(&format!("#/components/schemas/{target}\"")),
            "{schema}.{field}: {text}"
        );
    };
    refers("RoundView", "status", "RoundStatus");
    // a competition's `kind` is one value per variant (competition_params.rs); the members
    // every kind shares are in its base
    refers("CompetitionViewBase", "system", "PairingSystem");
    refers("CompetitionViewBase", "half", "KeizerHalf");
    refers("CompetitionViewBase", "discipline", "Discipline");
    refers("PlayerView", "membership", "Membership");
    refers("EveningView", "kind", "EveningKind");
    refers("AwardView", "prize", "Prize");
    refers("PlayerStatus", "status", "AttendanceStatus");
    refers("GameView", "result", "ResultCode");
    refers("ClaimView", "claimant", "Colour");
    refers("CreateCompetitionBase", "tiebreaks", "CompetitionTiebreak");
    refers("UpdateCompetition", "tiebreaks", "CompetitionTiebreak");
    refers("CompetitionViewBase", "tiebreaks", "CompetitionTiebreak");
    assert_eq!(
        s["CompetitionViewBase"]["properties"]["tiebreaks"]["type"],
        "array"
    );
    assert_eq!(
        s["RoundStatus"]["enum"],
        json!(["planned", "paired", "published", "completed"])
    );
    let tiebreaks = s["CompetitionTiebreak"]["enum"].as_array().unwrap();
    for t in [
        "PTS",
        "BH-C1",
        "ARO-M2",
        "APPO",
        "wins",
        "sonneborn_berger",
        "lots",
    ] {
        assert!(tiebreaks.contains(&json!(t)), "{t}");
    }
}

#[test]
fn result_codes_have_readable_names() {
    let doc = document();
    let codes = &doc["components"]["schemas"]["ResultCode"];
    let values = codes["enum"].as_array().unwrap();
    let names = codes["x-enum-varnames"]
        .as_array()
        .expect("x-enum-varnames");
    let descriptions = codes["x-enum-descriptions"]
        .as_array()
        .expect("x-enum-descriptions");
    assert_eq!(names.len(), values.len());
    assert_eq!(descriptions.len(), values.len());
    let name_of = |code: &str| {
        let i = values.iter().position(|v| v == code).unwrap();
        names[i].as_str().unwrap().to_string()
    };
    assert_eq!(name_of("1-0"), "WHITE_WINS");
    assert_eq!(name_of("0-1"), "BLACK_WINS");
    assert_eq!(name_of("1/2-1/2"), "DRAW");
    assert_eq!(name_of("1+-1-"), "PLUSREMISE_WHITE");
    assert_eq!(name_of("0-0"), "BOTH_LOST");
    assert_eq!(name_of("-/-"), "BOTH_FORFEIT");
    assert_eq!(name_of("bye"), "BYE");
    let unique: std::collections::HashSet<_> = names.iter().collect();
    assert_eq!(unique.len(), names.len(), "names repeat: {names:?}");
}

#[test]
fn every_instant_is_documented_as_a_date_time() {
    let doc = document();
    let mut offenders = Vec::new();
    for (at, s) in schemas(&doc) {
        let field = at.rsplit('.').next().unwrap_or_default();
        let instant = is_string(&s)
            && (field.ends_with("_at") || ["at", "deadline", "check_in_by"].contains(&field));
        if instant && s["format"] != "date-time" {
            offenders.push(at);
        }
    }
    assert!(
        offenders.is_empty(),
        "instants without date-time: {offenders:?}"
    );
}

/// `YYYY-MM-DDTHH:MM:SS.ffffffZ`, the one spelling of an instant.
fn is_wire_instant(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 27
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            10 => *c == b'T',
            13 | 16 => *c == b':',
            19 => *c == b'.',
            26 => *c == b'Z',
            _ => c.is_ascii_digit(),
        })
}

/// Every string of an answer that starts like an instant (`YYYY-MM-DDT`).
fn instants_in(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => {
            let b = s.as_bytes();
            if b.len() > 10
                && b[10] == b'T'
                && b[..4].iter().all(u8::is_ascii_digit)
                && b[4] == b'-'
            {
                out.push(s.clone());
            }
        }
        Value::Array(a) => a.iter().for_each(|x| instants_in(x, out)),
        Value::Object(o) => o.values().for_each(|x| instants_in(x, out)),
        _ => {}
    }
}

#[test]
fn the_instant_spelling_is_the_documented_one() {
    assert!(is_wire_instant("2026-09-01T18:00:00.000000Z"));
    assert!(!is_wire_instant("2026-09-01T18:00:00Z"));
    assert!(!is_wire_instant("2026-09-01T18:00:00.000000+00:00"));
    assert!(!is_wire_instant("2026-09-01T18:00:00.000000000Z"));
    let mut found = Vec::new();
    instants_in(
        &json!({"a": ["2026-09-01T18:00:00Z", "2026-09-01"], "b": 3}),
        &mut found,
    );
    assert_eq!(found, ["2026-09-01T18:00:00Z"]);
}

#[actix_web::test]
async fn the_demo_club_sends_documented_etags_and_one_instant_spelling() {
    let app = spawn().await;
    let urls = demo_club_public_gets(&app).await;
    let doc = document();
    let mut instants = Vec::new();
    let mut with_etag = std::collections::BTreeSet::new();
    for PublicGet { path, url } in &urls {
        let r = app.get(url, None).await;
        if r.status != StatusCode::OK {
            continue;
        }
        if r.header("etag").is_some() {
            let documented = &doc["paths"][path]["get"]["responses"]["200"]["headers"]["ETag"];
            assert!(
                documented.is_object(),
                "{url} sends an ETag that {path} does not document"
            );
            with_etag.insert(path.clone());
        }
        instants_in(&r.body, &mut instants);
    }
    // the standings, the rounds, a competition and a player send one
    for path in [
        "/api/v1/competitions/{id}/standings",
        "/api/v1/competitions/{id}/rounds/{number}",
        "/api/v1/competitions/{id}",
        "/api/v1/players/{id}",
    ] {
        assert!(with_etag.contains(path), "{path}: {with_etag:?}");
    }
    // staff answers: accounts, tokens, attendance, a pairing's author and time
    let admin = app.token(&["admin"]).await;
    let leader = app.token(&["leader"]).await;
    let r = app
        .create_user(
            &admin,
            json!({"email": "t@example.org", "password": "secret-pass", "roles": ["member"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let location = r.header("location").expect("a Location");
    assert_eq!(location, format!("/api/v1/users/{}", r.body["id"]));
    let documented = &doc["paths"]["/api/v1/users"]["post"]["responses"]["201"]["headers"];
    assert!(documented["Location"].is_object(), "{documented}");
    let login = app
        .login(json!({"email": "t@example.org", "password": "secret-pass"}))
        .await;
    assert_eq!(login.status, StatusCode::OK, "{}", login.text);
    instants_in(&login.body, &mut instants);
    for (path, token) in [(paths::USERS, &admin), (paths::SERVICE_TOKENS, &admin)] {
        let r = app.get(path, Some(token)).await;
        assert_eq!(r.status, StatusCode::OK, "{path}: {}", r.text);
        instants_in(&r.body, &mut instants);
    }
    let keizer: Vec<&PublicGet> = urls
        .iter()
        .filter(|g| g.path == "/api/v1/competitions/{id}/rounds/{number}")
        .collect();
    for g in keizer.iter().take(6) {
        for suffix in ["", "/attendance"] {
            let r = app.get(&format!("{}{suffix}", g.url), Some(&leader)).await;
            instants_in(&r.body, &mut instants);
        }
    }
    assert!(
        instants.len() >= 20,
        "too few instants to judge: {instants:?}"
    );
    let odd: Vec<&String> = instants.iter().filter(|s| !is_wire_instant(s)).collect();
    assert!(odd.is_empty(), "instants in another spelling: {odd:?}");
}

#[actix_web::test]
async fn if_none_match_compares_weakly() {
    let app = spawn().await;
    let fx = p_beat_q(&app).await;
    for url in [paths::standings(fx.comp), paths::round(fx.comp, 1)] {
        let first = app.get(&url, None).await;
        let tag = first.header("etag").expect("an ETag");
        assert!(tag.starts_with('"'), "{url}: a strong tag {tag}");
        let weak = app.get_if_none_match(&url, &format!("W/{tag}")).await;
        assert_eq!(
            weak.status,
            StatusCode::NOT_MODIFIED,
            "{url}: {}",
            weak.text
        );
        assert_eq!(weak.header("etag").as_deref(), Some(tag.as_str()));
        let other = app.get_if_none_match(&url, "W/\"other\"").await;
        assert_eq!(other.status, StatusCode::OK, "{url}");
    }
}

#[actix_web::test]
async fn if_match_compares_strongly() {
    let app = spawn().await;
    let club = ClubBuilder::new().build(&app).await;
    let fx = CompetitionBuilder::keizer()
        .create(&app, &club.leader)
        .await;
    let tag = app
        .get(&paths::competition(fx.comp), None)
        .await
        .header("etag")
        .expect("an ETag");
    let weak = app
        .update_competition_if_match(
            &club.leader,
            fx.comp,
            &format!("W/{tag}"),
            json!({"name": "Weak"}),
        )
        .await;
    assert_eq!(
        weak.status,
        StatusCode::PRECONDITION_FAILED,
        "{}",
        weak.text
    );
    let strong = app
        .update_competition_if_match(&club.leader, fx.comp, &tag, json!({"name": "Strong"}))
        .await;
    assert_eq!(strong.status, StatusCode::OK, "{}", strong.text);
    assert_eq!(strong.body["name"], "Strong");
    assert_ne!(strong.header("etag"), Some(tag));
}

#[test]
fn the_operations_named_for_etag_and_location_exist_and_document_them() {
    let doc = document();
    let mut found = std::collections::HashMap::new();
    for item in doc["paths"].as_object().unwrap().values() {
        for op in item.as_object().unwrap().values() {
            if let Some(id) = op["operationId"].as_str() {
                found.insert(id.to_string(), op.clone());
            }
        }
    }
    for (names, header) in [
        (clubcomp::openapi::ETAG_OPERATIONS, "ETag"),
        (clubcomp::openapi::LOCATION_OPERATIONS, "Location"),
    ] {
        for id in names {
            let op = found
                .get(*id)
                .unwrap_or_else(|| panic!("no operation {id}"));
            let responses = op["responses"].as_object().unwrap();
            let documented = responses
                .iter()
                .filter(|(code, _)| code.starts_with('2'))
                .any(|(_, r)| r["headers"][header].is_object());
            assert!(documented, "{id}: no {header}");
        }
    }
    // a 304 always comes with the ETag it matched
    let standings = &doc["paths"]["/api/v1/competitions/{id}/standings"]["get"]["responses"];
    assert!(standings["304"]["headers"]["ETag"].is_object());
    assert!(standings["200"]["headers"]["ETag"].is_object());
}

#[actix_web::test]
async fn keizer_scores_are_json_numbers_and_the_csv_keeps_four_decimals() {
    let app = spawn().await;
    let fx = p_beat_q(&app).await;
    // P beat Q: P scores the value of Q's place (59), Q the loss share of their own (5)
    let r = app.standings(fx.comp).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let rows = &r.body["keizer"]["rows"];
    assert_eq!(rows[0]["player_id"], fx.players[0]);
    assert!(rows[0]["score"].is_number(), "{}", rows[0]);
    assert_eq!(rows[0]["score"].as_f64(), Some(59.0));
    assert_eq!(rows[0]["game_points"].as_f64(), Some(1.0));
    assert_eq!(rows[1]["score"].as_f64(), Some(5.0));
    assert_eq!(rows[1]["game_points"].as_f64(), Some(0.0));
    let csv = app.get(&paths::standings_csv(fx.comp), None).await;
    let first = csv.text.lines().nth(1).unwrap();
    assert!(first.contains(",59.0000,1,1.0000,"), "{first}");
    let doc = document();
    let row = &doc["components"]["schemas"]["KeizerRow"]["properties"];
    assert_eq!(row["score"]["type"], "number");
    assert_eq!(row["game_points"]["type"], "number");
    let values = &doc["components"]["schemas"]["SwissRow"]["properties"]["values"];
    assert_eq!(values["additionalProperties"]["type"], "number");
}

/// The GETs that answer a whole array rather than a page, each bounded by a rule
/// (docs/decisions/0197-which-lists-are-paged.md).
const WHOLE_LISTS: &[(&str, &str)] = &[
    ("list_rounds", "round numbers run from 1 to 99"),
    (
        "list_entrants",
        "at most the players' work limit of the kind",
    ),
    (
        "get_own_attendance",
        "one entry per round of one competition",
    ),
];

#[test]
fn every_list_that_grows_is_a_page_and_every_error_is_a_documented_problem() {
    let doc = document();
    let guide = include_str!("../../docs/api-guide.md");
    let mut arrays = Vec::new();
    let mut undocumented = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let Some(responses) = op["responses"].as_object() else {
                continue;
            };
            let id = op["operationId"].as_str().unwrap_or_default();
            if method == "get"
                && responses["200"]["content"]["application/json"]["schema"]["type"] == "array"
            {
                arrays.push(id.to_string());
            }
            for (code, r) in responses {
                if code.starts_with('4') || code.starts_with('5') {
                    let schema = r["content"]["application/problem+json"]["schema"].to_string();
                    if !schema.contains("#/components/schemas/Problem\"") {
                        undocumented.push(format!("{method} {path} {code}: not a Problem"));
                    }
                }
                if (code == "429" || code == "503") && r["headers"].get("Retry-After").is_none() {
                    undocumented.push(format!("{method} {path} {code}: no Retry-After"));
                }
            }
        }
    }
    let allowed: Vec<&str> = WHOLE_LISTS.iter().map(|(id, _)| *id).collect();
    arrays.retain(|id| !allowed.contains(&id.as_str()));
    assert!(
        arrays.is_empty(),
        "whole lists not known to be bounded: {arrays:?}"
    );
    assert!(undocumented.is_empty(), "{undocumented:#?}");
    let types = doc["components"]["schemas"]["ProblemType"]["enum"]
        .as_array()
        .unwrap();
    assert!(types.len() >= 15, "{types:?}");
    for t in types {
        let uri = t.as_str().unwrap();
        let name = uri.rsplit('/').next().unwrap();
        assert!(
            guide.contains(&format!("`{name}`")) || guide.contains(uri),
            "problem type {uri} is not in docs/api-guide.md"
        );
    }
}
