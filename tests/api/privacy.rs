//! No account e-mail or other contact data in any anonymous answer: every public GET of the
//! OpenAPI document, on every object of the demo club. A member's own data: the export holds
//! every column of every table with their data (docs/decisions/0327-member-data-export.md),
//! and old mails are deleted after the retention.

use crate::support::*;
use actix_web::http::StatusCode;
use serde_json::Value;

#[actix_web::test]
async fn no_public_answer_of_the_demo_club_shows_an_email() {
    let app = spawn().await;
    let urls = demo_club_public_gets(&app).await;
    for PublicGet { url, .. } in &urls {
        let r = app.get(url, None).await;
        assert!(
            // 404: a player without a rating of that source; 409: a document the
            // competition's kind does not have
            [StatusCode::OK, StatusCode::NOT_FOUND, StatusCode::CONFLICT].contains(&r.status),
            "{url}: {}",
            r.status
        );
        assert!(!r.text.contains('@'), "{url} shows an @: {}", r.text);
    }
}

/// The tables that hold a member's data, the export's list (or object) for each, and the
/// columns left out on purpose (docs/decisions/0327-member-data-export.md#decision).
const EXPORTED: &[(&str, &str, &[&str])] = &[
    ("users", "account", &["password_hash"]),
    ("players", "player", &[]),
    ("ratings", "ratings", &["player_id"]),
    ("entrants", "entrants", &["player_id"]),
    ("attendance", "attendance", &["player_id"]),
    ("games", "games", &["version", "updated_at"]),
    ("game_reports", "game_reports", &["player_id"]),
    ("member_preferences", "member_preferences", &["player_id"]),
    (
        "mail_outbox",
        "mails",
        &["body_text", "body_html", "unsubscribe_url"],
    ),
    (
        "refresh_tokens",
        "sessions",
        &[
            "user_id",
            "family",
            "token_hash",
            "generation",
            "successor_seed",
        ],
    ),
    (
        "account_tokens",
        "account_tokens",
        &["user_id", "token_hash"],
    ),
    ("known_logins", "known_logins", &["key"]),
    ("audit_log", "audit", &[]),
];

/// The columns of `table` in the store's schema (`crates/core/src/store/schema.rs`).
fn schema_columns(table: &str) -> Vec<String> {
    let schema = include_str!("../../crates/core/src/store/schema.rs");
    let start = schema
        .find(&format!("    {table} ("))
        .unwrap_or_else(|| panic!("no table {table} in the schema"));
    let body = &schema[start..];
    let body = &body[body.find('{').unwrap() + 1..body.find('}').unwrap()];
    body.lines()
        .filter_map(|l| l.trim().split_once(" -> "))
        .map(|(c, _)| c.to_string())
        .collect()
}

/// The properties of the component a property of the export refers to (through an array's
/// items or a nullable `oneOf`).
fn referenced_properties(spec: &Value, schema: &Value) -> Vec<String> {
    fn find_ref(v: &Value) -> Option<String> {
        match v {
            Value::Object(m) => m
                .get("$ref")
                .and_then(Value::as_str)
                .map(str::to_string)
                .or_else(|| m.values().find_map(find_ref)),
            Value::Array(a) => a.iter().find_map(find_ref),
            _ => None,
        }
    }
    let r = find_ref(schema).unwrap_or_else(|| panic!("no reference in {schema}"));
    let name = r.rsplit('/').next().unwrap();
    spec["components"]["schemas"][name]["properties"]
        .as_object()
        .unwrap_or_else(|| panic!("no properties of {name}"))
        .keys()
        .cloned()
        .collect()
}

#[actix_web::test]
async fn the_export_has_every_column_of_every_table_with_a_members_data() {
    let app = spawn().await;
    let spec = app.get("/api-docs/openapi.json", None).await.body;
    let export = &spec["components"]["schemas"]["MemberExport"]["properties"];
    for (table, field, left_out) in EXPORTED {
        let shown = referenced_properties(&spec, &export[field]);
        for column in schema_columns(table) {
            if left_out.contains(&column.as_str()) {
                assert!(!shown.contains(&column), "{table}.{column} is shown");
                continue;
            }
            assert!(
                shown.contains(&column),
                "{table}.{column} is not in the export's {field}: {shown:?}"
            );
        }
    }
}

#[actix_web::test]
async fn a_member_downloads_their_account_player_games_attendance_choices_and_mails() {
    let app = spawn().await;
    app.with_conn(|c| seed_demo(c).map(|_| ())).await.unwrap();
    let mut chosen = None;
    let list = app
        .get(&format!("{}?page=1&per_page=100", paths::PLAYERS), None)
        .await;
    for id in ids_in(&list.body, "id") {
        let games = app.get(&paths::player_games(id), None).await;
        if games.text.contains("\"result\"") {
            chosen = Some(id);
            break;
        }
    }
    let player = chosen.expect("a demo player with games");
    let token = app.member_token(player).await;
    let r = app
        .req(
            actix_web::http::Method::PUT,
            "/api/v1/me/notifications",
            Some(&token),
            Some(
                serde_json::json!({"pairing": false, "reminder": true, "result": true,
                "decision": true, "prizes": false, "language": "en"}),
            ),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app.export_me(Some(&token)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.headers.get("cache-control").unwrap(), "private, no-store");
    let e = &r.body;
    assert_eq!(e["player"]["id"], player);
    assert_eq!(e["account"]["player_id"], player);
    assert!(
        e["account"]["email"]
            .as_str()
            .unwrap()
            .ends_with("@club.example")
    );
    let games = e["games"].as_array().unwrap();
    assert!(!games.is_empty(), "{e}");
    assert!(
        games
            .iter()
            .all(|g| g["white_id"] == player || g["black_id"] == player),
        "{e}"
    );
    assert!(!e["entrants"].as_array().unwrap().is_empty(), "{e}");
    assert_eq!(e["member_preferences"]["pairing"], false);
    assert_eq!(e["member_preferences"]["language"], "en");
    assert_eq!(e["truncated"], serde_json::json!([]));
    assert!(!r.text.contains("$argon2"), "a password hash: {}", r.text);
    assert!(!r.text.contains("token_hash"), "{}", r.text);
    assert_eq!(app.export_me(None).await.status, StatusCode::UNAUTHORIZED);
}

#[actix_web::test]
async fn sent_and_failed_mails_are_deleted_after_the_retention_and_pending_ones_stay() {
    use clubcomp_core::test_store::schema::mail_outbox as mo;
    use diesel::prelude::*;
    let app = spawn().await;
    let at = |s: &str| chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M").unwrap();
    let now = at("2026-10-28 12:00");
    // (subject, status, created, sent, last attempt); 30 days before now is 28 September 12:00
    let rows = [
        (
            "sent long ago",
            "sent",
            "2026-09-01 10:00",
            Some("2026-09-28 11:59"),
            Some("2026-09-28 11:59"),
        ),
        (
            "sent lately",
            "sent",
            "2026-09-01 10:00",
            Some("2026-09-28 12:01"),
            Some("2026-09-28 12:01"),
        ),
        (
            "failed long ago",
            "failed",
            "2026-09-01 10:00",
            None,
            Some("2026-09-20 08:00"),
        ),
        (
            "failed after retrying",
            "failed",
            "2026-09-01 10:00",
            None,
            Some("2026-10-27 08:00"),
        ),
        (
            "failed unattempted",
            "failed",
            "2026-09-01 10:00",
            None,
            None,
        ),
        (
            "pending for long",
            "pending",
            "2026-06-01 10:00",
            None,
            Some("2026-06-01 10:05"),
        ),
    ];
    let rows: Vec<_> = rows
        .iter()
        .map(|(s, st, c, sent, last)| {
            (
                s.to_string(),
                st.to_string(),
                at(c),
                sent.map(at),
                last.map(at),
            )
        })
        .collect();
    let (gone, left) = app
        .with_conn(move |c| {
            for (i, (subject, status, created, sent, last)) in rows.into_iter().enumerate() {
                diesel::insert_into(mo::table)
                    .values((
                        mo::message_id.eq(format!("<m{i}@club.example>")),
                        mo::kind.eq("invitation"),
                        mo::recipient.eq(format!("m{i}@club.example")),
                        mo::recipient_name.eq("Lid"),
                        mo::subject.eq(subject),
                        mo::body_text.eq(""),
                        mo::body_html.eq(""),
                        mo::status.eq(status),
                        mo::attempts.eq(1),
                        mo::next_attempt_at.eq(created),
                        mo::last_attempt_at.eq(last),
                        mo::created_at.eq(created),
                        mo::sent_at.eq(sent),
                    ))
                    .execute(c)
                    .unwrap();
            }
            let gone = clubcomp::services::mail::purge(c, now, chrono::Duration::days(30)).unwrap();
            let left: Vec<String> = mo::table.order(mo::id).select(mo::subject).load(c).unwrap();
            (gone, left)
        })
        .await;
    assert_eq!(gone, 3);
    assert_eq!(
        left,
        ["sent lately", "failed after retrying", "pending for long"]
    );
}

#[actix_web::test]
async fn the_export_holds_what_the_member_did_as_it_was_written() {
    use serde_json::json;
    let app = spawn_with(crate::mail::mail_to("smtp://127.0.0.1:9")).await;
    let club = ClubBuilder::new().build(&app).await;
    let l = club.leader.clone();
    let mut ids = Vec::new();
    for (name, email) in [
        ("Ann Aalders", "ann@club.example"),
        ("Bob Bakker", "bob@club.example"),
    ] {
        let r = app
            .create_player(
                &l,
                json!({"name": name, "email": email, "phone": "0201234567"}),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        ids.push(r.body["id"].as_i64().unwrap());
    }
    let (ann, bob) = (ids[0], ids[1]);
    let r = app
        .update_player(&l, ann, json!({"publication": "initials"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let fx = CompetitionBuilder::keizer()
        .set("name", "Interne competitie")
        .entrants(&[ann, bob])
        .create(&app, &l)
        .await;
    let token = app.member_token(ann).await;
    let r = app
        .req(
            actix_web::http::Method::PUT,
            "/api/v1/me/notifications",
            Some(&token),
            Some(json!({"pairing": false, "reminder": true, "result": true,
                "decision": false, "prizes": false, "language": "en"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let games = round(&app, &l, fx.comp, vec![(ann, Some(bob), None)], "published").await;
    for t in [token.clone(), app.member_token(bob).await] {
        let r = app
            .post(
                &format!("/api/v1/games/{}/report", games[0]),
                Some(&t),
                json!({"result": "1-0"}),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }

    let r = app.export_me(Some(&token)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let e = &r.body;
    let account = e["account"]["email"].as_str().unwrap().to_string();
    assert!(account.starts_with("m-") && account.ends_with("@club.example"));
    assert_eq!(e["account"]["roles"], "member");
    assert_eq!(e["account"]["player_id"], ann);
    // the player as stored: the member reads their own name in full, whatever its setting
    let p = &e["player"];
    assert_eq!(
        (
            &p["id"],
            &p["name"],
            &p["email"],
            &p["phone"],
            &p["publication"]
        ),
        (
            &json!(ann),
            &json!("Ann Aalders"),
            &json!("ann@club.example"),
            &json!("0201234567"),
            &json!("initials")
        )
    );
    assert_eq!(
        (&p["knsb_number"], &p["active"]),
        (&Value::Null, &json!(true))
    );
    // the one entry, game and report: Ann has white against Bob on board 1 of round 1
    let entrants = e["entrants"].as_array().unwrap();
    assert_eq!(entrants.len(), 1, "{e}");
    assert_eq!(entrants[0]["competition_id"], fx.comp);
    assert_eq!(entrants[0]["competition"], "Interne competitie");
    let g = e["games"].as_array().unwrap();
    assert_eq!(g.len(), 1, "{e}");
    assert_eq!(
        (
            &g[0]["id"],
            &g[0]["white_id"],
            &g[0]["black_id"],
            &g[0]["result"]
        ),
        (&json!(games[0]), &json!(ann), &json!(bob), &json!("1-0"))
    );
    assert_eq!((&g[0]["round"], &g[0]["board"]), (&json!(1), &json!(1)));
    let reports = e["game_reports"].as_array().unwrap();
    assert_eq!(reports.len(), 1, "only Ann's own report: {e}");
    assert_eq!(
        (
            &reports[0]["game_id"],
            &reports[0]["result"],
            &reports[0]["account"]
        ),
        (&json!(games[0]), &json!("1-0"), &json!(account))
    );
    let prefs = &e["member_preferences"];
    assert_eq!(
        (&prefs["language"], &prefs["pairing"], &prefs["result"]),
        (&json!("en"), &json!(false), &json!(true))
    );
    // the result mail to her address, without its bodies; Bob's is not hers
    let mails = e["mails"].as_array().unwrap();
    let kinds: Vec<(&str, &str)> = mails
        .iter()
        .map(|m| {
            (
                m["kind"].as_str().unwrap(),
                m["recipient"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(kinds, [("result", "ann@club.example")], "{e}");
    assert!(mails[0].get("body_text").is_none(), "{e}");
    // the leader's change of her setting, audited
    let audit: Vec<(&str, &str, &str)> = e["audit"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["action"] == "publication")
        .map(|a| {
            (
                a["entity"].as_str().unwrap(),
                a["old_value"].as_str().unwrap(),
                a["new_value"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(audit, [("player", "full", "initials")]);
    // the subject names both players in full (decision 0326: mails are not publication)
    assert_eq!(
        mails[0]["subject"],
        "Result of round 1 of Interne competitie: Ann Aalders – Bob Bakker 1-0"
    );
    assert!(!r.text.contains("bob@club.example"), "{}", r.text);
}
