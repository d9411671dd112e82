//! The OpenAPI document's frame: info, the bearer security scheme, tags and the schemas of a
//! competition's params ([`params`]). Paths come from the registered handlers
//! (utoipa-actix-web). Each protected operation lists the roles that
//! may call it as the bearer requirement's scopes (OpenAPI 3.1 allows role names there).

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

pub mod params;

/// The document frame.
#[derive(OpenApi)]
#[openapi(
    info(title = "clubcomp", description = "Competition server for chess and draughts clubs: Keizer, Swiss, round robins, arbiter tools.", license(name = "MIT OR Apache-2.0")),
    modifiers(&Security),
    components(schemas(
        params::KeizerParams,
        params::SwissParams,
        params::SwissParamsInput,
        params::RoundRobinParams,
        params::KnockoutParams,
        clubcomp_core::vocab::RoundListView
    )),
    tags(
        (name = "operations", description = "Health and readiness"),
        (name = "auth", description = "Login and identity"),
        (name = "users", description = "User administration (admin)"),
        (name = "service-tokens", description = "Tokens for rating-sync jobs (admin)"),
        (name = "players", description = "Players (docs/rules/README.md#players-and-ratings)"),
        (name = "ratings", description = "Ratings and rating lists (docs/rules/README.md#players-and-ratings)"),
        (name = "seasons", description = "Seasons and the calendar (docs/rules/keizer.md#calendar)"),
        (name = "competitions", description = "Competitions and entrants (docs/rules/README.md)"),
        (name = "calculators", description = "Stateless calculators: the command line's engines over HTTP (nothing stored)"),
        (name = "rounds", description = "Rounds, pairings and results (docs/rules/README.md#results, docs/rules/keizer.md#pairing, docs/rules/rapid-blitz.md#the-dutch-system, docs/rules/arbiter.md#results-and-corrections)"),
        (name = "attendance", description = "Sign-up, sign-off and check-in (docs/rules/keizer.md#attendance-and-deadlines, docs/rules/rapid-blitz.md#the-rapid-competition)"),
        (name = "pairings", description = "Generating and editing pairings (docs/rules/keizer.md#pairing, docs/rules/rapid-blitz.md#double-swiss, docs/rules/draughts-championship.md#schedule-and-tempo)"),
        (name = "results", description = "Results, a game's own tempo and their audit trail (docs/rules/README.md#time-controls, docs/rules/README.md#results, docs/rules/draughts-championship.md#scoring-2-1-0-plusremise-and-minremise, docs/rules/arbiter.md#results-and-corrections)"),
        (name = "standings", description = "Standings, CSV and TRF exports (docs/rules/keizer.md#scoring, docs/rules/rapid-blitz.md#tie-breaks, docs/rules/draughts-championship.md#final-order-and-the-tie-break-chain, docs/rules/README.md#exchange-with-other-programs)"),
        (name = "playoff", description = "The play-off for first of a Swiss (docs/rules/rapid-blitz.md#the-play-off-for-first)"),
        (name = "prizes", description = "Prizes and playoffs (docs/rules/keizer.md#prizes, docs/rules/keizer.md#playoffs, docs/rules/draughts-championship.md#prize-money)"),
        (name = "arbiter", description = "Game events, moves, claims and appeals (docs/rules/arbiter.md#appeals, docs/rules/arbiter.md#draughts-claims)"),
        (name = "events", description = "The event log: the changes feed for sync jobs (docs/api-guide.md#the-changes-feed) and the live event stream (docs/api-guide.md#the-live-event-stream)"),
        (name = "webhooks", description = "Webhook subscriptions of integrations and their deliveries (admin; docs/api-guide.md#webhooks)"),
        (name = "mail", description = "The mail outbox and its delivery log (admin; docs/api-guide.md#mail)"),
    )
)]
pub struct ApiDoc;

struct Security;

impl Modify for Security {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .description(Some(
                        "Token from POST /api/v1/auth/login, or an admin-issued service token",
                    ))
                    .build(),
            ),
        );
    }
}

/// Final touches on the generated document: the version from the crate, and the error
/// answers every operation can give documented once here (400 malformed request, 404 for a
/// path that names nothing, 413/415/422 for bodies, 503 database unavailable) and the
/// `Retry-After` header of every 429 and 503 documented once here, so that each handler lists
/// only its own rule-specific errors.
pub fn finish(mut spec: utoipa::openapi::OpenApi) -> utoipa::openapi::OpenApi {
    spec.info.version = env!("CARGO_PKG_VERSION").to_string();
    let Ok(mut v) = serde_json::to_value(&spec) else {
        return spec;
    };
    let problem = |d: &str| {
        serde_json::json!({"description": d, "content": {"application/problem+json":
            {"schema": {"$ref": "#/components/schemas/Problem"}}}})
    };
    if let Some(paths) = v.get_mut("paths").and_then(|p| p.as_object_mut()) {
        for (path, item) in paths.iter_mut() {
            let Some(item) = item.as_object_mut() else {
                continue;
            };
            for (method, op) in item.iter_mut() {
                if !["get", "post", "put", "patch", "delete"].contains(&method.as_str()) {
                    continue;
                }
                let has_body = op.get("requestBody").is_some();
                let has_params = op.get("parameters").is_some();
                let takes_if_match =
                    op.get("parameters")
                        .and_then(|p| p.as_array())
                        .is_some_and(|ps| {
                            ps.iter()
                                .any(|p| p["in"] == "header" && p["name"] == "If-Match")
                        });
                let Some(responses) = op.get_mut("responses").and_then(|r| r.as_object_mut())
                else {
                    continue;
                };
                let mut add = |code: &str, d: &str| {
                    responses
                        .entry(code.to_string())
                        .or_insert_with(|| problem(d));
                };
                add("400", "Malformed request (JSON syntax, query string)");
                if path.contains('{') {
                    add("404", "Not found");
                }
                if has_body {
                    add("413", "Body too large");
                    add("415", "Unsupported content type");
                }
                if has_body || has_params {
                    add("422", "Invalid input");
                }
                if takes_if_match {
                    add(
                        "428",
                        "No `If-Match` while `REQUIRE_IF_MATCH` is on (`version-required`)",
                    );
                }
                add("503", "Database unavailable");
                // 429 and 503 always say when to try again
                for code in ["429", "503"] {
                    if let Some(r) = responses.get_mut(code).and_then(|r| r.as_object_mut()) {
                        r.entry("headers").or_insert_with(|| {
                            serde_json::json!({"Retry-After": {
                                "description": "Seconds after which the request may succeed",
                                "schema": {"type": "integer", "minimum": 0}}})
                        });
                    }
                }
            }
        }
    }
    document_headers(&mut v);
    name_result_codes(&mut v);
    params_per_kind(&mut v);
    open_free_form_objects(&mut v);
    serde_json::from_value(v).unwrap_or(spec)
}

/// The operations (by operation id) whose success answer carries an `ETag`: the version of
/// the one resource it shows or wrote. Every operation that can answer 304 sends one too.
pub const ETAG_OPERATIONS: &[&str] = &[
    "get_player",
    "create_player",
    "update_player",
    "deactivate_player",
    "erase_player",
    "create_competition",
    "get_competition",
    "update_competition",
    "update_evening",
    "put_game_result",
    "update_game_time_control",
    "get_game_moves",
    "update_game_moves",
];

/// The operations whose success answer carries a `Location`: the address of what they made.
pub const LOCATION_OPERATIONS: &[&str] = &[
    "create_user",
    "create_player",
    "create_season",
    "create_calendar",
    "create_competition",
    "create_playoff",
    "create_playoffs",
];

/// A competition's kinds with the name of their variants and the schemas of their `params`
/// as answered and as sent (docs/api-guide.md#a-competitions-params).
pub const PARAMS_PER_KIND: [(&str, &str, &str, &str); 4] = [
    ("keizer", "Keizer", "KeizerParams", "KeizerParams"),
    ("swiss", "Swiss", "SwissParams", "SwissParamsInput"),
    (
        "round_robin",
        "RoundRobin",
        "RoundRobinParams",
        "RoundRobinParams",
    ),
    ("knockout", "Knockout", "KnockoutParams", "KnockoutParams"),
];

/// The params schemas that name every member the service accepts (it refuses any other) and
/// those that keep the members a client stored besides the typed ones.
const CLOSED_PARAMS: [&str; 2] = ["KeizerParams", "BlitzParamsInput"];
const OPEN_PARAMS: [&str; 4] = [
    "SwissParams",
    "SwissParamsInput",
    "RoundRobinParams",
    "KnockoutParams",
];

/// Describes a competition (`CompetitionView`, also inside `Page_CompetitionView`, where
/// utoipa inlines it) and a new competition (`CreateCompetition`) per kind: a `oneOf` with the
/// discriminator `kind`, each variant an `allOf` of the shared members (`…Base`) and `kind`
/// fixed to its one value with that kind's typed `params`. A change (`UpdateCompetition`) has
/// no kind, so its `params` are any of the kinds' params. The JSON on the wire is the same.
fn params_per_kind(v: &mut serde_json::Value) {
    use serde_json::{Value, json};
    let Some(schemas) = v
        .pointer_mut("/components/schemas")
        .and_then(|s| s.as_object_mut())
    else {
        return;
    };
    for name in CLOSED_PARAMS {
        if let Some(s) = schemas.get_mut(name).and_then(|s| s.as_object_mut()) {
            s.insert("additionalProperties".into(), Value::Bool(false));
        }
    }
    for name in OPEN_PARAMS {
        if let Some(s) = schemas.get_mut(name).and_then(|s| s.as_object_mut()) {
            s.insert("additionalProperties".into(), Value::Bool(true));
        }
    }
    let reference = |name: &str| json!({"$ref": format!("#/components/schemas/{name}")});
    // (schema, its variants' names with `{}` for the kind, whether params are always answered)
    let split = [
        ("CompetitionView", "{}CompetitionView", true),
        ("CreateCompetition", "Create{}Competition", false),
    ];
    for (name, variant_name, answered) in split {
        let Some(Value::Object(mut base)) = schemas.remove(name) else {
            continue;
        };
        let mut props = base
            .get_mut("properties")
            .and_then(|p| p.as_object_mut())
            .map(std::mem::take)
            .unwrap_or_default();
        let kind = props.remove("kind").unwrap_or_default();
        let params = props.remove("params").unwrap_or_default();
        base.insert("properties".into(), Value::Object(props));
        if let Some(r) = base.get_mut("required").and_then(|r| r.as_array_mut()) {
            r.retain(|f| f != "kind" && f != "params");
        }
        // the variants add members, so the shared part cannot refuse the others
        base.remove("additionalProperties");
        let description = base.remove("description").unwrap_or_default();
        let example = base.remove("example");
        let base_name = format!("{name}Base");
        let word = |d: &Value| d.get("description").cloned().unwrap_or_default();
        let mut variants = Vec::new();
        let mut mapping = serde_json::Map::new();
        for (value, camel, answer_params, input_params) in PARAMS_PER_KIND {
            let params_ref = reference(if answered {
                answer_params
            } else {
                input_params
            });
            let params_schema = if answered {
                json!({"allOf": [params_ref], "description": word(&params)})
            } else {
                json!({"oneOf": [params_ref, {"type": "null"}], "description": word(&params)})
            };
            let mut required = vec!["kind"];
            if answered {
                required.push("params");
            }
            let vname = variant_name.replace("{}", camel);
            schemas.insert(
                vname.clone(),
                json!({
                    "description": format!("{} (`kind` {value}).", description.as_str().unwrap_or("").trim_end_matches('.')),
                    "allOf": [reference(&base_name), {
                        "type": "object",
                        "properties": {
                            "kind": {"type": "string", "enum": [value], "description": word(&kind)},
                            "params": params_schema,
                        },
                        "required": required,
                    }],
                }),
            );
            mapping.insert(value.into(), json!(format!("#/components/schemas/{vname}")));
            variants.push(reference(&vname));
        }
        base.insert(
            "description".into(),
            json!(format!("The members every kind of `{name}` has.")),
        );
        schemas.insert(base_name, Value::Object(base));
        let mut whole = json!({
            "description": description,
            "oneOf": variants,
            "discriminator": {"propertyName": "kind", "mapping": mapping},
        });
        if let (Some(example), Some(w)) = (example, whole.as_object_mut()) {
            w.insert("example".into(), example);
        }
        schemas.insert(name.into(), whole);
    }
    if let Some(items) = schemas
        .get_mut("Page_CompetitionView")
        .and_then(|p| p.pointer_mut("/properties/items/items"))
    {
        *items = reference("CompetitionView");
    }
    if let Some(params) = schemas
        .get_mut("UpdateCompetition")
        .and_then(|u| u.pointer_mut("/properties/params"))
    {
        let mut any: Vec<Value> = Vec::new();
        for (_, _, _, input) in PARAMS_PER_KIND {
            if !any.contains(&reference(input)) {
                any.push(reference(input));
            }
        }
        any.push(json!({"type": "null"}));
        *params = json!({
            "description": "Engine parameters of the competition's kind (the same as when it is created).",
            "anyOf": any,
        });
    }
}

/// Documents the `ETag` and `Location` headers on the success (and 304) answers that send
/// them (docs/api-guide.md#versions-and-etags).
fn document_headers(v: &mut serde_json::Value) {
    let etag = serde_json::json!({
        "description": "The version of the resource (a strong ETag): send it as `If-Match` to change it, or as `If-None-Match` to read it only when it changed",
        "schema": {"type": "string"}});
    let location = serde_json::json!({
        "description": "The address of the resource made",
        "schema": {"type": "string", "format": "uri-reference"}});
    let Some(paths) = v.get_mut("paths").and_then(|p| p.as_object_mut()) else {
        return;
    };
    let body_tag = serde_json::json!({
        "description": "The answer's ETag: the version of the resource, or a weak tag over the body where it has none; send it as `If-None-Match` to read it only when it changed",
        "schema": {"type": "string"}});
    for item in paths.values_mut().filter_map(|i| i.as_object_mut()) {
        for (method, op) in item.iter_mut() {
            let Some(op) = op.as_object_mut() else {
                continue;
            };
            let id = op
                .get("operationId")
                .and_then(|i| i.as_str())
                .unwrap_or_default()
                .to_string();
            let Some(responses) = op.get_mut("responses").and_then(|r| r.as_object_mut()) else {
                continue;
            };
            // every GET but the stream is tagged and answers 304 (src/representation.rs)
            let tagged_get = method == "get" && id != "get_stream";
            if tagged_get && responses.contains_key("200") {
                responses.entry("304").or_insert_with(|| {
                    serde_json::json!({"description": "Not modified: `If-None-Match` names the current ETag"})
                });
            }
            let conditional = responses.contains_key("304");
            for (code, r) in responses.iter_mut() {
                let success = code.starts_with('2') && code != "204";
                let Some(r) = r.as_object_mut() else {
                    continue;
                };
                let headers = || serde_json::Value::Object(Default::default());
                let sends_etag = (success
                    && (conditional || ETAG_OPERATIONS.contains(&id.as_str())))
                    || code == "304";
                let own_version = ETAG_OPERATIONS.contains(&id.as_str());
                if sends_etag
                    && let Some(h) = r.entry("headers").or_insert_with(headers).as_object_mut()
                {
                    h.entry("ETag").or_insert_with(|| {
                        if tagged_get && !own_version {
                            body_tag.clone()
                        } else {
                            etag.clone()
                        }
                    });
                }
                if success
                    && LOCATION_OPERATIONS.contains(&id.as_str())
                    && let Some(h) = r.entry("headers").or_insert_with(headers).as_object_mut()
                {
                    h.entry("Location").or_insert_with(|| location.clone());
                }
            }
        }
    }
}

/// A schema of `type: object` with no properties says nothing of its members; generators read
/// that as an object that has none (`Record<string, never>`). Such a schema states that any
/// member may be present (`additionalProperties: true`), as the answers hold them.
fn open_free_form_objects(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(o) => {
            let object = o.get("type").is_some_and(|t| {
                t == "object" || t.as_array().is_some_and(|a| a.contains(&"object".into()))
            });
            let open = [
                "properties",
                "additionalProperties",
                "oneOf",
                "anyOf",
                "allOf",
                "$ref",
            ]
            .iter()
            .all(|k| !o.contains_key(*k));
            if object && open {
                o.insert("additionalProperties".into(), serde_json::Value::Bool(true));
            }
            o.values_mut().for_each(open_free_form_objects);
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(open_free_form_objects),
        _ => {}
    }
}

/// Readable names for the result codes (`x-enum-varnames`, `x-enum-descriptions`), which
/// are not identifiers (`1-0`, `1/2-1/2`), so that a generated client names them
/// `WHITE_WINS`, `DRAW`, … instead of numbering them.
pub const RESULT_CODE_NAMES: [(&str, &str, &str); 14] = [
    ("1-0", "WHITE_WINS", "Chess: White wins"),
    ("0-1", "BLACK_WINS", "Chess: Black wins"),
    ("1/2-1/2", "DRAW", "Chess: a draw"),
    ("½-½", "DRAW_HALVES", "Chess: a draw, written with halves"),
    ("2-0", "WHITE_WINS_DRAUGHTS", "Draughts: White wins"),
    ("0-2", "BLACK_WINS_DRAUGHTS", "Draughts: Black wins"),
    ("1-1", "DRAW_DRAUGHTS", "Draughts: a draw"),
    (
        "1+-1-",
        "PLUSREMISE_WHITE",
        "Draughts: a plusremise for White",
    ),
    (
        "1--1+",
        "PLUSREMISE_BLACK",
        "Draughts: a plusremise for Black",
    ),
    ("0-0", "BOTH_LOST", "Draughts: both lose"),
    ("+/-", "WHITE_WINS_BY_FORFEIT", "White wins by forfeit"),
    ("-/+", "BLACK_WINS_BY_FORFEIT", "Black wins by forfeit"),
    ("-/-", "BOTH_FORFEIT", "Both players forfeit"),
    ("bye", "BYE", "A pairing bye"),
];

fn name_result_codes(v: &mut serde_json::Value) {
    let Some(schema) = v
        .pointer_mut("/components/schemas/ResultCode")
        .and_then(|s| s.as_object_mut())
    else {
        return;
    };
    let values: Vec<&str> = schema
        .get("enum")
        .and_then(|e| e.as_array())
        .map(|e| e.iter().filter_map(|x| x.as_str()).collect())
        .unwrap_or_default();
    let named: Option<Vec<(&str, &str)>> = values
        .iter()
        .map(|value| {
            RESULT_CODE_NAMES
                .iter()
                .find(|(code, _, _)| code == value)
                .map(|(_, name, description)| (*name, *description))
        })
        .collect();
    // a code without a name leaves the list unnamed rather than misnamed (a test fails on it)
    let Some(named) = named else {
        return;
    };
    let names: Vec<&str> = named.iter().map(|(n, _)| *n).collect();
    let descriptions: Vec<&str> = named.iter().map(|(_, d)| *d).collect();
    schema.insert("x-enum-varnames".into(), serde_json::json!(names));
    schema.insert(
        "x-enum-descriptions".into(),
        serde_json::json!(descriptions),
    );
}

/// The document as pretty JSON with a trailing newline (the committed form).
pub fn to_pretty_json(spec: &utoipa::openapi::OpenApi) -> String {
    // utoipa keeps a schema's extensions in a hash map: their order is fixed here so that the
    // committed document is the same on every run
    let mut v = serde_json::to_value(spec).unwrap_or_default();
    order_extensions(&mut v);
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    s
}

/// Moves the `x-` members of every object to its end, in name order.
fn order_extensions(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(o) => {
            let mut names: Vec<String> =
                o.keys().filter(|k| k.starts_with("x-")).cloned().collect();
            names.sort();
            for name in names {
                if let Some(x) = o.remove(&name) {
                    o.insert(name, x);
                }
            }
            o.values_mut().for_each(order_extensions);
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(order_extensions),
        _ => {}
    }
}
