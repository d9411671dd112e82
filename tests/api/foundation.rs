//! Migrations and the OpenAPI document: the committed files agree with the code.

use crate::support::*;
use actix_web::http::StatusCode;
use diesel_migrations::MigrationHarness;

fn names(dir: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| !n.starts_with('.'))
        .collect();
    v.sort();
    v
}

#[test]
fn migration_lists_match() {
    let pg = names("crates/core/migrations/postgres");
    let sqlite = names("crates/core/migrations/sqlite");
    assert!(!pg.is_empty());
    assert_eq!(
        pg, sqlite,
        "crates/core/migrations/postgres and crates/core/migrations/sqlite must hold the same names"
    );
    for n in &pg {
        for f in ["up.sql", "down.sql"] {
            assert!(
                std::path::Path::new(&format!("crates/core/migrations/postgres/{n}/{f}")).exists()
            );
            assert!(
                std::path::Path::new(&format!("crates/core/migrations/sqlite/{n}/{f}")).exists()
            );
        }
    }
}

#[actix_web::test]
async fn migrations_run_up_down_up() {
    let app = spawn().await;
    let total = names("crates/core/migrations/postgres").len();
    app.with_conn(move |c| {
        // the app applied every migration; revert them one by one, then apply again
        for _ in 0..total {
            c.revert_last_migration(clubcomp_core::test_store::migrations_for(c))
                .expect("down");
        }
        assert!(
            c.has_pending_migration(clubcomp_core::test_store::migrations_for(c))
                .unwrap()
        );
        let applied = c
            .run_pending_migrations(clubcomp_core::test_store::migrations_for(c))
            .expect("up again");
        assert_eq!(applied.len(), total);
    })
    .await;
    // the schema works after the round trip
    let admin = app.token(&["admin"]).await;
    assert_eq!(
        app.get(paths::USERS, Some(&admin)).await.status,
        StatusCode::OK
    );
}

/// Every `$ref` of the document names a schema it holds: a type named only in an annotation
/// (a query parameter's `value_type`) must be listed among the components, or generators stop.
#[test]
fn every_reference_of_the_document_resolves() {
    let doc = serde_json::to_value(clubcomp::app::openapi()).unwrap();
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    let mut refs = Vec::new();
    let mut stack = vec![&doc];
    while let Some(v) = stack.pop() {
        match v {
            serde_json::Value::Object(m) => {
                if let Some(serde_json::Value::String(r)) = m.get("$ref") {
                    refs.push(r.clone());
                }
                stack.extend(m.values());
            }
            serde_json::Value::Array(a) => stack.extend(a.iter()),
            _ => {}
        }
    }
    assert!(!refs.is_empty());
    let missing: Vec<&String> = refs
        .iter()
        .filter(|r| {
            r.strip_prefix("#/components/schemas/")
                .is_none_or(|name| !schemas.contains_key(name))
        })
        .collect();
    assert!(missing.is_empty(), "unresolved references: {missing:?}");
}

#[test]
fn committed_openapi_matches_the_code() {
    let generated = clubcomp::openapi::to_pretty_json(&clubcomp::app::openapi());
    let path = "openapi/openapi.json";
    if std::env::var("UPDATE_OPENAPI").is_ok() {
        std::fs::write(path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == generated,
        "openapi/openapi.json is stale: run `UPDATE_OPENAPI=1 cargo test committed_openapi` and commit it"
    );
}

#[test]
fn every_operation_is_documented() {
    let spec = serde_json::to_value(clubcomp::app::openapi()).unwrap();
    let mut ids = std::collections::HashSet::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let id = op["operationId"]
                .as_str()
                .unwrap_or_else(|| panic!("{method} {path}: no operationId"));
            assert!(ids.insert(id.to_string()), "duplicate operationId {id}");
            assert!(
                id.contains('_') && id.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{id}: operation ids are <verb>_<resource>"
            );
            assert!(
                op["tags"].as_array().is_some_and(|t| !t.is_empty()),
                "{id}: no tag"
            );
            assert!(
                op["responses"].as_object().is_some_and(|r| !r.is_empty()),
                "{id}: no responses"
            );
            // the common error answers added by openapi::finish are present (it falls back
            // silently to the bare document when it cannot rebuild it)
            assert!(
                op["responses"].get("400").is_some(),
                "{id}: common error answers missing"
            );
            if op.get("security").is_some() {
                assert!(
                    op["responses"].get("401").is_some(),
                    "{id}: protected but no 401 documented"
                );
            }
        }
    }
    assert_eq!(spec["openapi"], "3.1.0");
    assert!(spec["components"]["securitySchemes"]["bearer"].is_object());
}

/// The values the document lists for string fields that the code reads itself (result
/// codes, tie-break acronyms, `HH:MM` times) are all read by the code: a schema-valid value
/// is never rejected for its spelling.
#[test]
fn documented_values_are_read_by_the_code() {
    use clubcomp_engine::Discipline;
    use clubcomp_engine::round_robin::RoundRobinResult;
    use clubcomp_engine::tiebreaks::Tiebreak;
    let spec = serde_json::to_value(clubcomp::app::openapi()).unwrap();
    let values = |name: &str| -> Vec<String> {
        spec["components"]["schemas"][name]["enum"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: no enum"))
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    for code in values("ResultCode") {
        assert!(
            code == "bye"
                || RoundRobinResult::parse(Discipline::Chess, &code).is_some()
                || RoundRobinResult::parse(Discipline::Draughts, &code).is_some(),
            "result code {code}"
        );
    }
    for t in values("TiebreakAcronym") {
        assert!(Tiebreak::parse(&t).is_some(), "tie-break {t}");
    }
    // every time the HH:MM pattern admits, and nothing the handlers refuse
    let pattern = spec["components"]["schemas"]["DeadlineRule"]["properties"]["time"]["pattern"]
        .as_str()
        .unwrap();
    assert_eq!(pattern, "^([01][0-9]|2[0-3]):[0-5][0-9]$");
    for h in 0..24 {
        for m in 0..60 {
            let t = format!("{h:02}:{m:02}");
            assert!(clubcomp::api::calendar::valid_time(&t), "{t}");
        }
    }
}

#[actix_web::test]
async fn docs_are_served_offline() {
    let app = spawn().await;
    let r = app.get("/docs/", None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(
        r.text.contains("swagger"),
        "docs page: {}",
        &r.text[..r.text.len().min(200)]
    );
    let r = app.get("/api-docs/openapi.json", None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body["openapi"], "3.1.0");
    let r = app.get("/docs", None).await;
    assert_eq!(r.status, StatusCode::PERMANENT_REDIRECT);
}
