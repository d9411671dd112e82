//! Importing the member list (docs/decisions/0323-member-import.md): players found by KNSB
//! number, then by address, or created; a linked member account without a password for each;
//! invitations on request; all rows or none, every bad row named by line and column; the same
//! list again changes nothing.

use crate::support::*;
use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use serde_json::{Value, json};

const IMPORT: &str = "/api/v1/members/import";

const THREE: &str = "name,email,knsb_number,membership,rating,language\r\n\
    Anna de Vries,Anna@Club.example,8401234,fixed,1834,nl\r\n\
    Bert Jansen,bert@club.example,,flexible,,en\r\n\
    Carla Smit,carla@club.example,8405678,fixed,1650,\r\n";

async fn csv(app: &TestApp, token: &str, query: &str, body: &str) -> Resp {
    app.send(
        TestRequest::post()
            .uri(&format!("{IMPORT}{query}"))
            .insert_header(("authorization", format!("Bearer {token}")))
            .insert_header(("content-type", "text/csv"))
            .set_payload(body.to_string()),
    )
    .await
}

/// (players, users) in the database.
async fn counts(app: &TestApp) -> (i64, i64) {
    app.with_conn(|c| {
        use clubcomp_core::test_store::schema::{players, users};
        use diesel::prelude::*;
        (
            players::table.count().get_result(c).unwrap(),
            users::table.count().get_result(c).unwrap(),
        )
    })
    .await
}

/// The address, linked player's name and whether it has a password, per member account.
async fn member_accounts(app: &TestApp) -> Vec<(String, Option<String>)> {
    app.with_conn(|c| {
        use clubcomp_core::test_store::schema::{players, users};
        use diesel::prelude::*;
        users::table
            .left_join(players::table.on(users::player_id.eq(players::id.nullable())))
            .filter(users::roles.eq("member"))
            .order(users::email)
            .select((users::email, players::name.nullable()))
            .load(c)
            .unwrap()
    })
    .await
}

/// Three members with `invite=true`: three players, three linked accounts, three invitation
/// mails; an accepted invitation logs in and the member page shows the player.
#[actix_web::test]
async fn three_members_are_imported_linked_and_invited() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let before = counts(&app).await;
    let r = csv(&app, &leader, "?invite=true", THREE).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["players_created"], 3);
    assert_eq!(r.body["accounts_created"], 3);
    assert_eq!(r.body["invited"], 3);
    assert_eq!(r.body["rows"][0]["player"], "created");
    assert_eq!(counts(&app).await, (before.0 + 3, before.1 + 3));
    assert_eq!(
        member_accounts(&app).await,
        [
            (
                "anna@club.example".to_string(),
                Some("Anna de Vries".to_string())
            ),
            (
                "bert@club.example".to_string(),
                Some("Bert Jansen".to_string())
            ),
            (
                "carla@club.example".to_string(),
                Some("Carla Smit".to_string())
            ),
        ]
    );
    // no password yet: nothing logs in before the invitation is accepted
    let none = app
        .login(json!({"email": "anna@club.example", "password": "!none"}))
        .await;
    assert_eq!(none.status, StatusCode::UNAUTHORIZED);
    let links = mailed_links(&app, "invitation", "/account/invitation").await;
    let mut to: Vec<&str> = links.iter().map(|(t, _)| t.as_str()).collect();
    to.sort();
    assert_eq!(
        to,
        [
            "anna@club.example",
            "bert@club.example",
            "carla@club.example"
        ]
    );
    let anna = &links
        .iter()
        .find(|(t, _)| t == "anna@club.example")
        .unwrap()
        .1;
    let r = app
        .post(
            "/api/v1/auth/invitations/accept",
            None,
            json!({"token": anna, "password": "a quiet rook on the e-file"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let me = app
        .get("/api/v1/me", Some(r.body["token"].as_str().unwrap()))
        .await;
    assert_eq!(me.body["player"]["name"], "Anna de Vries", "{}", me.text);
    let rating = app
        .with_conn(|c| {
            use clubcomp_core::test_store::schema::{players, ratings};
            use diesel::prelude::*;
            ratings::table
                .inner_join(players::table)
                .filter(players::knsb_number.eq("8401234"))
                .select((ratings::source, ratings::value))
                .load::<(String, i32)>(c)
                .unwrap()
        })
        .await;
    assert_eq!(rating, [("KNSB".to_string(), 1834)]);
}

/// The same list imported twice: the second time finds every player unchanged, creates no
/// account and sends no second invitation while the first ones are live.
#[actix_web::test]
async fn the_same_list_twice_changes_nothing() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    assert_eq!(
        csv(&app, &leader, "?invite=true", THREE).await.status,
        StatusCode::OK
    );
    let after_first = counts(&app).await;
    let r = csv(&app, &leader, "?invite=true", THREE).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["players_created"], 0);
    assert_eq!(r.body["players_updated"], 0);
    assert_eq!(r.body["accounts_created"], 0);
    assert_eq!(r.body["invited"], 0);
    for row in r.body["rows"].as_array().unwrap() {
        assert_eq!(row["player"], "unchanged", "{row}");
        assert_eq!(row["account"], "existing", "{row}");
    }
    assert_eq!(counts(&app).await, after_first);
    assert_eq!(queued_mails(&app, "invitation").await.len(), 3);
}

/// The list's bytes sent as `application/octet-stream` (as generated clients send a file) are
/// read as the same CSV: the three rows, then nothing new the second time as `text/csv`.
#[actix_web::test]
async fn a_list_sent_as_bytes_is_read_as_csv() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let before = counts(&app).await;
    let r = app
        .send(
            TestRequest::post()
                .uri(IMPORT)
                .insert_header(("authorization", format!("Bearer {leader}")))
                .insert_header(("content-type", "application/octet-stream"))
                .set_payload(THREE),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["players_created"], 3);
    assert_eq!(r.body["accounts_created"], 3);
    assert_eq!(counts(&app).await.0, before.0 + 3);
    let r = csv(&app, &leader, "", THREE).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["players_created"], 0);
}

/// A known player is found by KNSB number (and takes the list's address), another by address;
/// neither is created again, and an account that existed without a player is linked.
#[actix_web::test]
async fn known_players_are_found_by_number_then_by_address() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let admin = app.token(&["admin"]).await;
    let by_number = app
        .create_player(
            &leader,
            json!({"name": "Anna de Vries", "knsb_number": "8401234", "membership": "fixed"}),
        )
        .await;
    let by_address = app
        .create_player(
            &leader,
            json!({"name": "Bert Jansen", "email": "bert@club.example", "membership": "flexible"}),
        )
        .await;
    let r = app
        .create_user(
            &admin,
            json!({"email": "carla@club.example", "password": "throwaway-1", "roles": ["member"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let before = counts(&app).await;
    let r = csv(&app, &leader, "", THREE).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let rows = r.body["rows"].as_array().unwrap();
    assert_eq!(rows[0]["player_id"], by_number.body["id"]);
    assert_eq!(rows[0]["player"], "updated");
    assert_eq!(rows[1]["player_id"], by_address.body["id"]);
    assert_eq!(rows[1]["player"], "unchanged");
    assert_eq!(rows[2]["player"], "created");
    assert_eq!(rows[2]["account"], "linked");
    assert_eq!(counts(&app).await, (before.0 + 1, before.1 + 2));
    let anna = app
        .get(
            &format!("/api/v1/players/{}", by_number.body["id"]),
            Some(&leader),
        )
        .await;
    assert_eq!(anna.body["email"], "anna@club.example", "{}", anna.text);
}

/// A dry run answers the plan and writes nothing.
#[actix_web::test]
async fn a_dry_run_writes_nothing() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let before = counts(&app).await;
    let r = csv(&app, &leader, "?dry_run=true&invite=true", THREE).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["dry_run"], true);
    assert_eq!(r.body["players_created"], 3);
    assert_eq!(r.body["invited"], 3);
    assert_eq!(r.body["rows"][0]["player_id"], Value::Null);
    assert_eq!(counts(&app).await, before);
    assert!(queued_mails(&app, "invitation").await.is_empty());
}

/// Every bad row is named by line and column and nothing is written: a bad address, a
/// guest, a rating without a number, an unknown language, a line break in a name, an
/// address on two rows.
#[actix_web::test]
async fn bad_rows_are_named_and_change_nothing() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let before = counts(&app).await;
    let body = "name,email,knsb_number,membership,rating,language\n\
        Good Row,good@club.example,,fixed,,\n\
        Bad Address,not-an-address,,fixed,,\n\
        A Guest,guest@club.example,,guest,,\n\
        No Number,nonumber@club.example,,fixed,1700,\n\
        Wrong Language,lang@club.example,,fixed,,de\n\
        \"Two\r\nLines\",lines@club.example,,fixed,,\n\
        Same Again,GOOD@club.example,,flexible,,\n";
    let r = csv(&app, &leader, "", body).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let fields: Vec<&str> = r.body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(
        fields,
        [
            "line 3, column email",
            "line 4, column membership",
            "line 5, column rating",
            "line 6, column language",
            "line 7, column name",
            "line 9, column email",
        ],
        "{}",
        r.text
    );
    assert_eq!(counts(&app).await, before);
}

/// The header must name known columns, each once, with name, email and membership; the file
/// is bounded in rows; other media types are refused.
#[actix_web::test]
async fn the_header_the_size_and_the_media_type_are_checked() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    for (body, field) in [
        (
            "name,email,membership,phone\nA,a@club.example,fixed,0612345678\n",
            "line 1, column 4",
        ),
        ("name,email\nA,a@club.example\n", "line 1"),
        (
            "name,email,membership,email\nA,a@club.example,fixed,b@club.example\n",
            "line 1, column 4",
        ),
    ] {
        let r = csv(&app, &leader, "", body).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
        assert_eq!(r.body["errors"][0]["field"], field, "{}", r.text);
    }
    let mut many = String::from("name;email;membership\n");
    for i in 0..1001 {
        many.push_str(&format!("Member {i};m{i}@club.example;fixed\n"));
    }
    let r = csv(&app, &leader, "", &many).await;
    r.assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "at most 1000 rows");
    let r = app
        .send(
            TestRequest::post()
                .uri(IMPORT)
                .insert_header(("authorization", format!("Bearer {leader}")))
                .insert_header(("content-type", "text/plain"))
                .set_payload(THREE),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{}", r.text);
    let member = app.token(&["member"]).await;
    assert_eq!(
        csv(&app, &member, "", THREE).await.status,
        StatusCode::FORBIDDEN
    );
}

/// The JSON form takes the same rows and names a bad one by its index; its language is the
/// member's mail language.
#[actix_web::test]
async fn the_json_form_imports_the_same_rows() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let bad = app
        .post(
            IMPORT,
            Some(&leader),
            json!({"members": [
                {"name": "Anna de Vries", "email": "anna@club.example", "membership": "fixed"},
                {"name": "Bert Jansen", "email": "bert@club.example", "membership": "fixed", "rating": 5000, "knsb_number": "1"}
            ]}),
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert_eq!(bad.body["errors"][0]["field"], "members[1].rating");
    let r = app
        .post(
            IMPORT,
            Some(&leader),
            json!({"members": [{"name": "Bert Jansen", "email": "bert@club.example", "membership": "flexible", "language": "en"}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let id = r.body["rows"][0]["player_id"].as_i64().unwrap();
    let lang = app
        .with_conn(move |c| {
            use clubcomp_core::test_store::schema::member_preferences as mp;
            use diesel::prelude::*;
            mp::table
                .find(id)
                .select(mp::language)
                .first::<Option<String>>(c)
                .unwrap()
        })
        .await;
    assert_eq!(lang.as_deref(), Some("en"));
}

/// Invitation and reset mails speak the member's language: Bert chose English on the list, Anna
/// Dutch, and Carla, who chose nothing, gets Dutch.
#[actix_web::test]
async fn the_invitation_and_the_reset_speak_the_members_language() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let r = csv(&app, &leader, "?invite=true", THREE).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let mails = queued_mails(&app, "invitation").await;
    let text_to = |to: &str| -> String {
        mails
            .iter()
            .find(|(t, _)| t == to)
            .unwrap_or_else(|| panic!("no invitation to {to}"))
            .1
            .clone()
    };
    let bert = text_to("bert@club.example");
    assert!(bert.contains("Choose your password"), "{bert}");
    assert!(bert.contains("Your login is bert@club.example."), "{bert}");
    assert!(!bert.contains("wachtwoord"), "{bert}");
    for dutch in ["anna@club.example", "carla@club.example"] {
        let text = text_to(dutch);
        assert!(text.contains("Kies je wachtwoord"), "{text}");
        assert!(!text.contains("Choose your password"), "{text}");
    }
    for email in ["bert@club.example", "anna@club.example"] {
        let r = app
            .post("/api/v1/auth/password-reset", None, json!({"email": email}))
            .await;
        assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.text);
    }
    let resets = queued_mails(&app, "password_reset").await;
    assert_eq!(resets.len(), 2, "{resets:?}");
    let (to, text) = &resets[0];
    assert_eq!(to, "bert@club.example");
    assert!(text.contains("Choose a new password"), "{text}");
    assert!(text.contains("It works once, for an hour."), "{text}");
    let (to, text) = &resets[1];
    assert_eq!(to, "anna@club.example");
    assert!(text.contains("Nieuw wachtwoord kiezen"), "{text}");
}
