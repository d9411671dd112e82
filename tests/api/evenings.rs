//! The evening page in one call (`GET /evenings/{id}`, `GET /evenings/next`) and the
//! calendar's evenings by date (`GET /evenings`).

use crate::support::*;
use actix_web::http::{Method, StatusCode};
use serde_json::{Value, json};

/// The small club of the evening page: on the first evening the Keizer round 1 (Anna beat
/// Bram, Cor had the bye, Dirk signed off "Op vakantie"), published, and the Swiss round 1
/// (Eva against Frank), paired but not published. Returns the leader's token, the evening,
/// the Keizer, the Swiss and the players Anna, Bram, Cor, Dirk, Eva, Frank.
struct EveningClub {
    leader: String,
    evening: i64,
    keizer: i64,
    swiss: i64,
    players: Vec<i64>,
}

async fn evening_club(app: &TestApp) -> EveningClub {
    // four rated members: KNSB list of 1 September 2026, the seeding date of the season
    let rs = rated_season(app, &RATED).await;
    // Anna beat Bram, Cor had the bye
    let (keizer, number) = rs.keizer_first_evening(app).await;
    let RatedSeason {
        leader,
        season,
        evenings,
        players: rated,
    } = rs;
    let swiss = CompetitionBuilder::swiss("dutch")
        .in_season(season)
        .players(&["Eva", "Frank"])
        .create(app, &leader)
        .await;
    let (anna, bram, cor, dirk) = (rated[0], rated[1], rated[2], rated[3]);
    let (eva, frank) = (swiss.players[0], swiss.players[1]);
    signed_off(app, keizer, number, dirk, "Op vakantie").await;
    round_on_evening(
        app,
        &leader,
        swiss.comp,
        evenings[0],
        vec![(eva, Some(frank), None)],
        "paired",
    )
    .await;
    EveningClub {
        leader,
        evening: evenings[0],
        keizer,
        swiss: swiss.comp,
        players: vec![anna, bram, cor, dirk, eva, frank],
    }
}

/// `{id, name, rating}` of a player on a board.
fn on_board(id: i64, name: &str, rating: Option<i64>) -> Value {
    json!({"id": id, "name": name, "rating": rating})
}

#[actix_web::test]
async fn the_evening_shows_both_competitions_the_bye_and_the_absentee_in_one_call() {
    let app = spawn().await;
    let club = evening_club(&app).await;
    let [anna, bram, cor, dirk, ..] = club.players[..] else {
        unreachable!()
    };
    let r = app.evening(None, club.evening).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let e = &r.body;
    assert_eq!(e["id"], club.evening);
    assert_eq!(e["date"], "2026-09-04");
    assert_eq!(e["season_name"], "Seizoen 2026-2027");
    let rounds = e["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 2, "{}", r.text);
    // the Keizer: names and ratings at entry, the bye as a board without black and in `byes`
    let k = &rounds[0];
    assert_eq!(k["competition_id"], club.keizer);
    assert_eq!(k["competition_kind"], "keizer");
    assert_eq!(k["number"], 1);
    assert_eq!(k["status"], "published");
    assert_eq!(k["published"], true);
    let boards = k["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 2);
    assert_eq!(boards[0]["board"], 1);
    assert_eq!(boards[0]["white"], on_board(anna, "Anna", Some(1900)));
    assert_eq!(boards[0]["black"], on_board(bram, "Bram", Some(1750)));
    assert_eq!(boards[0]["result"], "1-0");
    assert_eq!(boards[1]["board"], 2);
    assert_eq!(boards[1]["white"], on_board(cor, "Cor", Some(1600)));
    assert_eq!(boards[1]["black"], Value::Null);
    assert_eq!(k["byes"], json!([on_board(cor, "Cor", Some(1600))]));
    // Dirk signed off with force majeure: absent with notice; the public sees no note
    assert_eq!(
        k["absentees"],
        json!([{"id": dirk, "name": "Dirk", "status": "excused"}])
    );
    // the Swiss is paired but not published: the public sees its status, no boards
    let s = &rounds[1];
    assert_eq!(s["competition_id"], club.swiss);
    assert_eq!(s["competition_kind"], "swiss");
    assert_eq!(s["system"], "dutch");
    assert_eq!(s["status"], "paired");
    assert_eq!(s["published"], false);
    assert_eq!(s["boards"], json!([]));
    assert_eq!(s["absentees"], json!([]));
    assert!(!r.text.contains("Eva"), "{}", r.text);
    assert!(!r.text.contains("vakantie"), "{}", r.text);
}

#[actix_web::test]
async fn the_staff_see_the_unpublished_boards_and_the_sign_off_note() {
    let app = spawn().await;
    let club = evening_club(&app).await;
    let [.., dirk, eva, frank] = club.players[..] else {
        unreachable!()
    };
    let r = app.evening(Some(&club.leader), club.evening).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let rounds = r.body["rounds"].as_array().unwrap();
    assert_eq!(
        rounds[0]["absentees"],
        json!([{"id": dirk, "name": "Dirk", "status": "excused", "reason": "Op vakantie"}])
    );
    let boards = rounds[1]["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 1, "{}", r.text);
    assert_eq!(boards[0]["white"], on_board(eva, "Eva", None));
    assert_eq!(boards[0]["black"], on_board(frank, "Frank", None));
    assert_eq!(boards[0]["result"], Value::Null);
    // the staff's document has a tag of its own
    let public = app.evening(None, club.evening).await;
    assert_ne!(public.header("etag"), r.header("etag"));
}

#[actix_web::test]
async fn the_evening_is_etagged_and_a_write_that_shows_changes_its_etag() {
    let app = spawn().await;
    let club = evening_club(&app).await;
    let r = app.evening(None, club.evening).await;
    let tag = r.header("etag").expect("an ETag");
    assert_eq!(r.body["etag"], tag.as_str());
    let again = app
        .send(
            actix_web::test::TestRequest::get()
                .uri(&paths::evening(club.evening))
                .insert_header(("If-None-Match", tag.clone())),
        )
        .await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    // HEAD answers as GET without a body
    let head = app
        .req(Method::HEAD, &paths::evening(club.evening), None, None)
        .await;
    assert_eq!(head.status, StatusCode::OK);
    assert_eq!(head.header("etag"), Some(tag.clone()));
    assert_eq!(
        head.header("content-type").as_deref(),
        Some("application/json")
    );
    // publishing the Swiss round shows its boards under a new tag
    let p = app.publish_round(&club.leader, club.swiss, 1).await;
    assert_eq!(p.status, StatusCode::OK, "{}", p.text);
    let after = app
        .send(
            actix_web::test::TestRequest::get()
                .uri(&paths::evening(club.evening))
                .insert_header(("If-None-Match", tag.clone())),
        )
        .await;
    assert_eq!(after.status, StatusCode::OK, "{}", after.text);
    assert_ne!(after.header("etag"), Some(tag));
    assert_eq!(after.body["rounds"][1]["published"], true);
    assert_eq!(after.body["rounds"][1]["boards"][0]["white"]["name"], "Eva");
}

#[actix_web::test]
async fn an_unknown_evening_is_a_404_problem() {
    let app = spawn().await;
    let r = app.evening(None, 987654).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/problem+json")
    );
}

#[actix_web::test]
async fn evenings_are_listed_by_date_a_page_at_a_time() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let (season, ids) = season_with_calendar(&app, &leader, "Seizoen 2026-2027").await;
    let r = app
        .evenings_page(&format!("season={season}&to=2026-09-18&per_page=2"))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["total"], 3);
    assert_eq!(r.body["page"], 1);
    assert_eq!(r.body["per_page"], 2);
    let dates: Vec<&str> = texts(&r.body["items"], "date");
    assert_eq!(dates, ["2026-09-04", "2026-09-11"]);
    assert_eq!(r.body["items"][0]["id"], ids[0]);
    let link = r.header("link").unwrap();
    assert!(
        link.contains(&format!(
            "</api/v1/evenings?season={season}&to=2026-09-18&per_page=2&page=2>; rel=\"next\""
        )),
        "{link}"
    );
    // the last page holds the third evening; past the end is an empty page with links
    let r = app
        .evenings_page(&format!("season={season}&to=2026-09-18&per_page=2&page=2"))
        .await;
    assert_eq!(r.body["items"][0]["date"], "2026-09-18");
    let r = app
        .evenings_page(&format!("season={season}&to=2026-09-18&per_page=2&page=3"))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["items"], json!([]));
    assert_eq!(r.body["total"], 3);
    let link = r.header("link").unwrap();
    assert!(link.contains("rel=\"first\""), "{link}");
    assert!(link.contains("page=2>; rel=\"last\""), "{link}");
    // a date range: 10 to 18 September holds two of them
    let r = app.evenings_page("from=2026-09-10&to=2026-09-18").await;
    assert_eq!(r.body["total"], 2, "{}", r.text);
    assert_eq!(r.body["items"][0]["date"], "2026-09-11");
}

#[actix_web::test]
async fn a_bad_date_a_long_range_or_an_unknown_parameter_is_refused_by_name() {
    let app = spawn().await;
    let r = app.evenings_page("from=2026-02-30").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), ["from"]);
    // 1 January 2026 + 401 days = 6 February 2027 (365 days to 1 January 2027, then 36)
    let r = app.evenings_page("from=2026-01-01&to=2027-02-06").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), ["to"]);
    let r = app.evenings_page("from=2026-01-01&to=2027-02-05").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app.evenings_page("from=2026-09-18&to=2026-09-04").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), ["to"]);
    let r = app.evenings_page("kind=party").await;
    assert_eq!(r.errors("field"), ["kind"]);
    let r = app.evenings_page("colour=white").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    assert!(r.text.contains("colour"), "{}", r.text);
}

#[actix_web::test]
async fn the_next_evening_is_the_first_open_one_from_today() {
    let app = spawn().await;
    let r = app.next_evening(None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text);
    let leader = app.token(&["leader"]).await;
    // a season far ahead, its first Friday closed: the next evening is the second Friday
    let season = SeasonBuilder::new()
        .opening_date("2099-09-04")
        .create(&app, &leader)
        .await;
    let r = app
        .generate_calendar(&leader, season, json!({"closed_dates": ["2099-09-04"]}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let r = app.next_evening(None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["date"], "2099-09-11");
    assert_eq!(r.body["rounds"], json!([]));
}

/// The id and version of round `number` of `comp`, read from the database.
async fn round_row(app: &TestApp, comp: i64, number: i32) -> (i64, i64) {
    app.with_conn(move |c| {
        use clubcomp_core::test_store::schema::rounds;
        use diesel::prelude::*;
        rounds::table
            .filter(rounds::competition_id.eq(comp))
            .filter(rounds::number.eq(number))
            .select((rounds::id, rounds::version))
            .first::<(i64, i64)>(c)
            .unwrap()
    })
    .await
}

#[actix_web::test]
async fn rounds_carry_their_id_competition_and_etag_on_the_evening_and_on_their_own() {
    let app = spawn().await;
    let club = evening_club(&app).await;
    let (keizer_round, _) = round_row(&app, club.keizer, 1).await;
    let (swiss_round, swiss_version) = round_row(&app, club.swiss, 1).await;
    let e = app.evening(Some(&club.leader), club.evening).await;
    let ids: Vec<(Value, Value)> = e.body["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["competition_id"].clone(), r["round_id"].clone()))
        .collect();
    assert_eq!(
        ids,
        vec![
            (json!(club.keizer), json!(keizer_round)),
            (json!(club.swiss), json!(swiss_round))
        ],
        "{}",
        e.text
    );
    let r = app
        .get(&paths::round(club.swiss, 1), Some(&club.leader))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["id"], swiss_round);
    assert_eq!(r.body["competition_id"], club.swiss);
    let etag = format!("\"round-{swiss_round}-v{swiss_version}\"");
    assert_eq!(r.body["etag"], etag.as_str());
    // the body's tag is a precondition the pairing writes accept
    let undo = app
        .send(
            actix_web::test::TestRequest::delete()
                .uri(&paths::pairing(club.swiss, 1))
                .insert_header(("Authorization", format!("Bearer {}", club.leader)))
                .insert_header(("If-Match", etag.as_str())),
        )
        .await;
    assert_eq!(undo.status, StatusCode::OK, "{}", undo.text);
    assert_eq!(undo.body["status"], "planned");
    assert_ne!(undo.body["etag"], etag.as_str());
}
