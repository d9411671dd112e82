//! The document read as a generated client reads it: the live answers of every public GET of
//! the demo club, anonymous and with an admin token, checked against the OpenAPI document with
//! `required` enforced. A property listed as required must be in every answer (null only where
//! the schema is nullable), no answer sends a property the document does not list, and a
//! property that is in every answer seen is listed as required
//! (docs/api-guide.md#for-generated-clients).

use crate::support::*;
use actix_web::http::StatusCode;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Properties left out of `required` although every answer of the demo club sends them, each
/// with the reason.
const SOMETIMES_ABSENT: &[(&str, &str, &str)] = &[
    (
        "Period",
        "moves",
        "a request body too, where the final period leaves it out",
    ),
    (
        "TimeControl",
        "increment_seconds",
        "a request body too, where it defaults to 0",
    ),
    (
        "TimeControl",
        "increment_from_move",
        "a request body too, where it defaults to 1",
    ),
    (
        "RoundRobinParams",
        "lots_seed",
        "stored by the service only once the standings need lots",
    ),
];

/// How often a schema's objects were seen, and how often each of its properties in them.
#[derive(Default)]
struct Seen {
    objects: usize,
    present: BTreeMap<String, usize>,
    optional: BTreeSet<String>,
}

/// One property of an object schema: the schema that declares it, its schema and whether it
/// is required.
struct Prop<'a> {
    owner: String,
    schema: &'a Value,
    required: bool,
}

struct Walk<'a> {
    doc: &'a Value,
    errors: Vec<String>,
    seen: BTreeMap<String, Seen>,
    /// Off while trying the branches of a `oneOf`.
    record: bool,
}

fn ref_name(s: &Value) -> Option<&str> {
    s.get("$ref")?
        .as_str()?
        .strip_prefix("#/components/schemas/")
}

fn type_matches(t: &str, v: &Value) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "string" => v.is_string(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        _ => false,
    }
}

fn short(v: &Value) -> String {
    let t = v.to_string();
    if t.len() > 80 {
        format!("{}…", &t[..t.floor_char_boundary(80)])
    } else {
        t
    }
}

impl<'a> Walk<'a> {
    fn new(doc: &'a Value) -> Self {
        Walk {
            doc,
            errors: Vec::new(),
            seen: BTreeMap::new(),
            record: true,
        }
    }

    fn component(&self, name: &str) -> &'a Value {
        &self.doc["components"]["schemas"][name]
    }

    /// The properties of an object schema, through `allOf` and `$ref`, each with the schema
    /// that declares it.
    fn props(&self, label: &str, s: &'a Value, out: &mut BTreeMap<String, Prop<'a>>) {
        if let Some(name) = ref_name(s) {
            return self.props(name, self.component(name), out);
        }
        for part in s["allOf"].as_array().into_iter().flatten() {
            self.props(label, part, out);
        }
        let required: BTreeSet<&str> = s["required"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        for (k, v) in s["properties"].as_object().into_iter().flatten() {
            out.insert(
                k.clone(),
                Prop {
                    owner: label.to_string(),
                    schema: v,
                    required: required.contains(k.as_str()),
                },
            );
        }
    }

    /// Whether `v` fits `s` (without recording anything).
    fn fits(&self, label: &str, s: &'a Value, v: &Value) -> bool {
        let mut trial = Walk::new(self.doc);
        trial.record = false;
        trial.check("", label, s, v);
        trial.errors.is_empty()
    }

    /// Checks `v` (at `at` of an answer) against the schema `s`, named `label` in messages.
    fn check(&mut self, at: &str, label: &str, s: &'a Value, v: &Value) {
        if let Some(name) = ref_name(s) {
            return self.check(at, name, self.component(name), v);
        }
        for key in ["oneOf", "anyOf"] {
            let Some(branches) = s[key].as_array() else {
                continue;
            };
            let live: Vec<&Value> = branches
                .iter()
                .filter(|b| !(b["type"] == "null" && v.is_null()))
                .collect();
            if live.len() < branches.len() {
                return; // null, and the schema is nullable
            }
            match live.iter().find(|b| self.fits(label, b, v)) {
                Some(b) => self.check(at, label, b, v),
                // one non-null branch: its own errors say most
                None if live.len() == 2 && live.iter().any(|b| b["type"] == "null") => {
                    let b = live.iter().find(|b| b["type"] != "null");
                    if let Some(b) = b {
                        self.check(at, label, b, v);
                    }
                }
                None => self.errors.push(format!(
                    "{at}: `{label}` ({key}): {} fits none of its schemas",
                    short(v)
                )),
            }
            return;
        }
        if let Some(parts) = s["allOf"].as_array()
            && !v.is_object()
        {
            for part in parts {
                self.check(at, label, part, v);
            }
            return;
        }
        let types: Vec<&str> = match &s["type"] {
            Value::String(t) => vec![t.as_str()],
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if !types.is_empty() && !types.iter().any(|t| type_matches(t, v)) {
            self.errors.push(format!(
                "{at}: `{label}` is {}, the document says {types:?}",
                short(v)
            ));
            return;
        }
        if let Some(list) = s["enum"].as_array()
            && !list.contains(v)
        {
            self.errors.push(format!(
                "{at}: `{label}` is {}, not one of its enum {}",
                short(v),
                short(&s["enum"])
            ));
        }
        match v {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    self.check(
                        &format!("{at}[{i}]"),
                        &format!("{label}[]"),
                        &s["items"],
                        item,
                    );
                }
            }
            Value::Object(o) => self.object(at, label, s, o),
            _ => {}
        }
    }

    fn object(&mut self, at: &str, label: &str, s: &'a Value, o: &serde_json::Map<String, Value>) {
        let mut props = BTreeMap::new();
        self.props(label, s, &mut props);
        let extra = &s["additionalProperties"];
        if props.is_empty() && !s["allOf"].is_array() {
            if extra.is_object() {
                for (k, v) in o {
                    self.check(&format!("{at}.{k}"), &format!("{label}{{}}"), extra, v);
                }
            }
            return;
        }
        if self.record {
            let mut owners = BTreeSet::new();
            for (k, p) in &props {
                let seen = self.seen.entry(p.owner.clone()).or_default();
                if owners.insert(p.owner.clone()) {
                    seen.objects += 1;
                }
                if !p.required {
                    seen.optional.insert(k.clone());
                }
                if o.contains_key(k) {
                    *seen.present.entry(k.clone()).or_default() += 1;
                }
            }
        }
        for (k, p) in &props {
            match o.get(k) {
                Some(v) => self.check(
                    &format!("{at}.{k}"),
                    &format!("{}.{k}", p.owner),
                    p.schema,
                    v,
                ),
                None if p.required => self
                    .errors
                    .push(format!("{at}: `{}.{k}` is required and absent", p.owner)),
                None => {}
            }
        }
        for k in o.keys().filter(|k| !props.contains_key(*k)) {
            if extra.is_object() {
                self.check(&format!("{at}.{k}"), &format!("{label}{{}}"), extra, &o[k]);
            } else if *extra != Value::Bool(true) {
                self.errors.push(format!(
                    "{at}: `{label}` has `{k}`, which the document does not list"
                ));
            }
        }
    }

    /// The properties not required although every object of their schema seen had them.
    fn always_sent_but_optional(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (schema, seen) in &self.seen {
            for k in &seen.optional {
                let n = seen.present.get(k).copied().unwrap_or(0);
                if n == seen.objects
                    && !SOMETIMES_ABSENT
                        .iter()
                        .any(|(s, p, _)| s == schema && p == k)
                {
                    out.push(format!(
                        "`{schema}.{k}` is in all {n} answers seen but not in `required`"
                    ));
                }
            }
        }
        out
    }
}

fn document() -> Value {
    serde_json::to_value(clubcomp::app::openapi()).unwrap()
}

#[actix_web::test]
async fn every_answer_of_the_demo_club_fits_the_document_with_required_enforced() {
    let app = spawn().await;
    let urls = demo_club_public_gets(&app).await;
    let admin = app.token(&["admin"]).await;
    let doc = document();
    let mut walk = Walk::new(&doc);
    let mut checked = 0;
    for PublicGet { path, url } in &urls {
        let schema =
            &doc["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"];
        if schema.is_null() {
            continue; // CSV, iCalendar, plain text
        }
        for token in [None, Some(admin.as_str())] {
            let r = app.get(url, token).await;
            if r.status != StatusCode::OK {
                continue;
            }
            walk.check(&format!("GET {url}"), path, schema, &r.body);
            checked += 1;
        }
    }
    assert!(checked > 300, "only {checked} answers");
    let mut problems = walk.errors.clone();
    problems.sort();
    problems.dedup();
    problems.extend(walk.always_sent_but_optional());
    assert!(
        problems.is_empty(),
        "{} answers do not fit the document:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_walk_finds_a_missing_required_property_and_one_always_sent_but_optional() {
    let doc = serde_json::json!({"components": {"schemas": {
        "Thing": {"type": "object", "required": ["id"], "properties": {
            "id": {"type": "integer"},
            "note": {"type": ["string", "null"]},
            "kind": {"type": "string", "enum": ["a", "b"]}
        }}
    }}});
    let s = serde_json::json!({"$ref": "#/components/schemas/Thing"});
    let mut walk = Walk::new(&doc);
    walk.check(
        "x",
        "T",
        &s,
        &serde_json::json!({"note": null, "kind": "c", "more": 1}),
    );
    walk.check("y", "T", &s, &serde_json::json!({"id": 2, "note": "n"}));
    assert_eq!(
        walk.errors,
        [
            "x: `Thing.id` is required and absent",
            "x.kind: `Thing.kind` is \"c\", not one of its enum [\"a\",\"b\"]",
            "x: `Thing` has `more`, which the document does not list",
        ]
    );
    assert_eq!(
        walk.always_sent_but_optional(),
        ["`Thing.note` is in all 2 answers seen but not in `required`"]
    );
}

#[test]
fn the_closed_value_lists_of_the_answers_and_the_event_filters_are_enums() {
    let doc = document();
    let s = &doc["components"]["schemas"];
    let refers = |schema: &str, field: &str, target: &str| {
        let text = s[schema]["properties"][field].to_string();
        assert!(
            text.contains(&format!("#/components/schemas/{target}\"")),
            "{schema}.{field} does not name {target}: {text}"
        );
        assert!(
            s[target]["enum"].is_array(),
            "{target} has no enum: {}",
            s[target]
        );
    };
    refers("Board", "result", "ResultCode");
    refers("CardGame", "result", "ResultCode");
    refers("PlayerGame", "result", "ResultCode");
    refers("SwissStandings", "tiebreaks", "StandingsTiebreak");
    refers("RoundRobinRow", "decided_by", "RoundRobinDecidedBy");
    refers("AuditView", "entity", "AuditEntity");
    refers("TokenResponse", "token_type", "TokenType");
    refers("Health", "status", "HealthStatus");
    assert_eq!(s["TokenType"]["enum"], serde_json::json!(["Bearer"]));
    assert_eq!(s["HealthStatus"]["enum"], serde_json::json!(["ok"]));
    assert_eq!(
        s["RoundRobinDecidedBy"]["enum"],
        serde_json::json!([
            "points",
            "wins",
            "plusremise_balance",
            "plusremises",
            "mutual",
            "ranking_order",
            "sonneborn_berger",
            "direct_encounter",
            "lots"
        ])
    );
    for path in ["/api/v1/changes", "/api/v1/stream"] {
        let types = doc["paths"][path]["get"]["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "types")
            .unwrap_or_else(|| panic!("{path} has no `types`"));
        assert_eq!(types["explode"], true, "{path}: {types}");
        let text = types["schema"].to_string();
        assert!(
            text.contains("\"array\"") && text.contains("#/components/schemas/EventType\""),
            "{path}: `types` is no array of EventType: {text}"
        );
    }
    // the stream is text a client reads line by line, not one JSON value
    let stream = &doc["paths"]["/api/v1/stream"]["get"]["responses"]["200"]["content"];
    assert_eq!(
        stream,
        &serde_json::json!({"text/event-stream": {"schema": {"type": "string"}}})
    );
}
