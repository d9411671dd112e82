//! What chess-results shows, on the club pages: the pairing list with each player's rating and
//! score before the round, the evening's byes (with what they scored) and absentees, and the
//! links to the evenings before and after; a Swiss's rank table with the rounds, the
//! tie-breaks in words and which one separated two players level on points.

use crate::support::club_pages::{table_rows, text};
use crate::support::*;
use actix_web::http::StatusCode;
use serde_json::json;

/// Five rated members (KNSB list of 1 September 2026) in a Swiss over the season's first three
/// evenings:
/// - round 1 (evening 1, completed): Anna–Dirk 1-0, Cor–Bram ½-½, Eva the bye;
/// - round 2 (evening 2, completed): Bram–Anna 0-1, Eva–Cor 1-0, Dirk signed off;
/// - round 3 (evening 3, published, no results): Anna–Eva, Dirk–Cor; Bram not on a board.
pub struct SwissClub {
    pub leader: String,
    pub swiss: i64,
    pub evenings: Vec<i64>,
    /// Anna, Bram, Cor, Dirk, Eva.
    pub players: Vec<i64>,
}

pub const FIVE: [(&str, &str, i32); 5] = [
    ("Anna", "8400001", 1900),
    ("Bram", "8400002", 1750),
    ("Cor", "8400003", 1600),
    ("Dirk", "8400004", 1500),
    ("Eva", "8400005", 1400),
];

pub async fn swiss_club(app: &TestApp) -> SwissClub {
    let rs = rated_season(app, &FIVE).await;
    let fx = CompetitionBuilder::new(json!({"name": "Snelschaak", "kind": "swiss",
        "system": "dutch", "tiebreaks": ["WON", "DE"], "rounds_planned": 5,
        "time_control": {"periods": [{"moves": 40, "minutes": 90}, {"minutes": 30}],
            "increment_seconds": 30}}))
    .in_season(rs.season)
    .entrants(&rs.players)
    .create(app, &rs.leader)
    .await;
    let p = &rs.players;
    let (anna, bram, cor, dirk, eva) = (p[0], p[1], p[2], p[3], p[4]);
    let ev = &rs.evenings;
    round_on_evening(
        app,
        &rs.leader,
        fx.comp,
        ev[0],
        vec![
            (anna, Some(dirk), Some("1-0")),
            (cor, Some(bram), Some("1/2-1/2")),
            (eva, None, None),
        ],
        "completed",
    )
    .await;
    round_on_evening(
        app,
        &rs.leader,
        fx.comp,
        ev[1],
        vec![
            (bram, Some(anna), Some("0-1")),
            (eva, Some(cor), Some("1-0")),
        ],
        "completed",
    )
    .await;
    signed_off(app, fx.comp, 2, dirk, "Op vakantie").await;
    round_on_evening(
        app,
        &rs.leader,
        fx.comp,
        ev[2],
        vec![(anna, Some(eva), None), (dirk, Some(cor), None)],
        "published",
    )
    .await;
    SwissClub {
        leader: rs.leader,
        swiss: fx.comp,
        evenings: rs.evenings,
        players: rs.players,
    }
}

/// The first `n` cells of each row.
fn first(rows: Vec<Vec<String>>, n: usize) -> Vec<Vec<String>> {
    rows.into_iter()
        .map(|r| r.into_iter().take(n).collect())
        .collect()
}

/// `rows` as owned texts.
fn owned(rows: &[&[&str]]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|r| r.iter().map(|c| c.to_string()).collect())
        .collect()
}

/// The text of the first element of `class` (`<dl class="absent">`, …) on the page.
fn block(html: &str, tag: &str, class: &str) -> String {
    let open = format!("<{tag} class=\"{class}\"");
    let Some(start) = html.find(&open) else {
        return String::new();
    };
    let end = start + html[start..].find(&format!("</{tag}>")).unwrap();
    text(&html[start..end])
}

#[actix_web::test]
async fn the_pairing_list_shows_each_players_rating_and_score_before_the_round() {
    let app = spawn().await;
    let club = swiss_club(&app).await;
    // round 1: everyone 0 before it; Eva's bye is a board without black
    let r = app.get(&paths::club::evening(club.evenings[0]), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        first(table_rows(&r.text, "pairings"), 8),
        owned(&[
            &["1", "Anna", "1900", "0", "Dirk", "1500", "0", "1-0"],
            &["2", "Cor", "1600", "0", "Bram", "1750", "0", "½-½"],
            &["3", "Eva", "1400", "0", "—", "", "", "vrij"],
        ])
    );
    // round 2: after round 1 Anna 1, Bram ½, Cor ½, Dirk 0, Eva 1 (the bye scores a win)
    let r = app.get(&paths::club::evening(club.evenings[1]), None).await;
    assert_eq!(
        first(table_rows(&r.text, "pairings"), 8),
        owned(&[
            &["1", "Bram", "1750", "0,5", "Anna", "1900", "1", "0-1"],
            &["2", "Eva", "1400", "1", "Cor", "1600", "0,5", "1-0"],
        ])
    );
    // round 3: after round 2 Anna 2, Cor ½, Dirk 0, Eva 2; no result yet
    let r = app
        .get(
            &format!("{}?lang=en", paths::club::evening(club.evenings[2])),
            None,
        )
        .await;
    assert_eq!(
        first(table_rows(&r.text, "pairings"), 8),
        owned(&[
            &["1", "Anna", "1900", "2", "Eva", "1400", "2", "not yet in"],
            &["2", "Dirk", "1500", "0", "Cor", "1600", "0.5", "not yet in"],
        ])
    );
    assert!(
        r.text
            .contains("<abbr title=\"Points before the round\">Pts</abbr>")
    );
}

#[actix_web::test]
async fn the_evening_names_its_byes_with_their_score_and_its_absentees_as_the_json_does() {
    let app = spawn().await;
    let club = swiss_club(&app).await;
    let [_, bram, _, dirk, eva] = club.players[..] else {
        unreachable!()
    };
    // evening 1: Eva's bye, and nobody else off the boards
    let json = app.evening(None, club.evenings[0]).await;
    let round = &json.body["rounds"][0];
    assert_eq!(
        round["byes"],
        json!([{"id": eva, "name": "Eva", "rating": 1400}])
    );
    assert_eq!(round["absentees"], json!([]));
    let page = app.get(&paths::club::evening(club.evenings[0]), None).await;
    assert_eq!(block(&page.text, "dl", "absent"), "Vrij Eva (1 punt)");
    let en = app
        .get(
            &format!("{}?lang=en", paths::club::evening(club.evenings[0])),
            None,
        )
        .await;
    assert_eq!(block(&en.text, "dl", "absent"), "Bye Eva (1 point)");
    // evening 2: Dirk signed off after the pairing; a Swiss goes by the check-in, so he is
    // not on a board as not checked in
    let json = app.evening(None, club.evenings[1]).await;
    let round = &json.body["rounds"][0];
    assert_eq!(round["byes"], json!([]));
    assert_eq!(
        round["absentees"],
        json!([{"id": dirk, "name": "Dirk", "status": "not_checked_in"}])
    );
    let page = app.get(&paths::club::evening(club.evenings[1]), None).await;
    assert_eq!(
        block(&page.text, "dl", "absent"),
        "Niet ingedeeld Dirk (niet ingecheckt)"
    );
    let en = app
        .get(
            &format!("{}?lang=en", paths::club::evening(club.evenings[1])),
            None,
        )
        .await;
    assert_eq!(
        block(&en.text, "dl", "absent"),
        "Not paired Dirk (not checked in)"
    );
    // evening 3: Bram is on no board; the page groups him by the JSON's status
    let json = app.evening(None, club.evenings[2]).await;
    let round = &json.body["rounds"][0];
    assert_eq!(round["byes"], json!([]));
    let absent = round["absentees"].as_array().unwrap();
    assert_eq!(absent.len(), 1, "{absent:?}");
    assert_eq!(absent[0]["id"], bram);
    let status = absent[0]["status"].as_str().unwrap();
    let want = match status {
        "excused" => "Afgemeld Bram".to_string(),
        "unexcused" => "Afwezig zonder afmelding Bram".to_string(),
        "no_show" => "Afwezig zonder afmelding Bram (niet verschenen)".to_string(),
        "not_checked_in" => "Niet ingedeeld Bram (niet ingecheckt)".to_string(),
        "not_signed_up" => "Niet ingedeeld Bram (niet aangemeld)".to_string(),
        other => panic!("status {other}"),
    };
    let page = app.get(&paths::club::evening(club.evenings[2]), None).await;
    assert_eq!(block(&page.text, "dl", "absent"), want);
}

#[actix_web::test]
async fn the_evening_links_the_evenings_before_and_after_it() {
    let app = spawn().await;
    let club = swiss_club(&app).await;
    let ev = &club.evenings;
    let first = app.get(&paths::club::evening(ev[0]), None).await;
    let nav = block(&first.text, "nav", "pager");
    // the season's first evening has no evening before it
    assert!(!nav.contains("Vorige avond"), "{nav}");
    assert!(nav.contains("Volgende avond: "), "{nav}");
    assert!(first.text.contains(&format!(
        "Volgende avond: <a href=\"/club/evenings/{}\">",
        ev[1]
    )));
    let second = app
        .get(&format!("{}?lang=en", paths::club::evening(ev[1])), None)
        .await;
    assert!(second.text.contains(&format!(
        "Previous evening: <a href=\"/club/evenings/{}?lang=en\">",
        ev[0]
    )));
    assert!(second.text.contains(&format!(
        "Next evening: <a href=\"/club/evenings/{}?lang=en\">",
        ev[2]
    )));
    // an edit of the calendar changes the pages of its evenings (a new tag): the links
    // beside them follow the calendar
    let tag = first.header("etag").unwrap();
    let r = app
        .update_evening(&club.leader, ev[1], json!({"note": "Bekerronde"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let again = app.get(&paths::club::evening(ev[0]), None).await;
    assert_ne!(again.header("etag").unwrap(), tag);
}

#[actix_web::test]
async fn the_swiss_rank_table_shows_start_numbers_ratings_and_every_round() {
    let app = spawn().await;
    let club = swiss_club(&app).await;
    let [anna, _, _, _, eva] = club.players[..] else {
        unreachable!()
    };
    // after round 2 (round 3 has no results yet): Anna 2 (two wins), Eva 2 (the bye and a
    // win), Bram ½, Cor ½ (their draw), Dirk 0; seeded by rating, Anna 1 … Eva 5
    let json = app.standings(club.swiss).await;
    assert_eq!(json.status, StatusCode::OK, "{}", json.text);
    let s = &json.body["swiss"];
    let rows = s["rows"].as_array().unwrap();
    let eva_row = rows.iter().find(|r| r["player_id"] == eva).unwrap();
    assert_eq!(eva_row["start_number"], 5);
    assert_eq!(eva_row["rating"], 1400);
    assert_eq!(
        eva_row["games"],
        json!([
            {"round": 1, "opponent": null, "colour": null, "result": "U"},
            {"round": 2, "opponent": 3, "colour": "white", "result": "1"},
        ])
    );
    // WON: Anna won two games over the board, Eva one (a bye is no game won)
    assert_eq!(
        s["separations"][0],
        json!({"above_player_id": anna, "below_player_id": eva, "tiebreak": "WON",
               "above_value": 2.0, "below_value": 1.0})
    );
    let page = app.get(&paths::club::standings(club.swiss), None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    // place, start number, name, rating, round 1, round 2, points, WON
    assert_eq!(
        first(table_rows(&page.text, "standings swiss"), 8),
        owned(&[
            &["1", "1", "Anna", "1900", "4w 1", "2z 1", "2", "2"],
            &["2", "5", "Eva", "1400", "vrij 1", "3w 1", "2", "1"],
            &["3-4", "2", "Bram", "1750", "3z ½", "1w 0", "0,5", "0"],
            &["3-4", "3", "Cor", "1600", "2w ½", "5z 0", "0,5", "0"],
            &["5", "4", "Dirk", "1500", "1z 0", "afw. 0", "0", "0"],
        ])
    );
    let eva_cells = &table_rows(&page.text, "standings swiss")[1];
    assert_eq!(eva_cells.last().unwrap(), "WON 2 / 1");
    // the tie-breaks in words, in the competition's order, and why Anna is above Eva
    let legend = block(&page.text, "dl", "legend tiebreaks");
    assert_eq!(
        legend,
        "PTS Punten: de punten van de partijen \
         WON Aantal gewonnen partijen: het aantal aan het bord gewonnen partijen \
         DE Onderling resultaat: de punten uit de partijen tussen de gelijk geëindigde spelers onderling"
    );
    assert_eq!(
        block(&page.text, "ul", "why"),
        "Anna staat boven Eva door Aantal gewonnen partijen (WON): 2 tegen 1. \
         Bram en Cor zijn na alle tiebreaks nog gelijk en delen de plaats."
    );
    let en = app
        .get(
            &format!("{}?lang=en", paths::club::standings(club.swiss)),
            None,
        )
        .await;
    assert_eq!(
        first(table_rows(&en.text, "standings swiss"), 6)[3],
        ["3-4", "3", "Cor", "1600", "2w ½", "5b 0"]
    );
    assert_eq!(
        block(&en.text, "ul", "why"),
        "Anna stands above Eva by Number of games won (WON): 2 against 1. \
         Bram and Cor are still level after every tie-break and share the place."
    );
    assert!(
        block(&en.text, "dl", "legend tiebreaks")
            .contains("WON Number of games won: the number of games won over the board")
    );
}

#[actix_web::test]
async fn the_competition_page_shows_its_time_control_and_every_round_planned_too() {
    let app = spawn().await;
    let club = swiss_club(&app).await;
    let page = app.get(&paths::club::competition(club.swiss), None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert_eq!(
        block(&page.text, "p", "tempo"),
        "Speeltempo: 40 zetten in 90 minuten, daarna 30 minuten, + 30 seconden per zet vanaf zet 1"
    );
    // three rounds made, on the season's first three evenings; five planned
    let rows = table_rows(&page.text, "rounds");
    let got: Vec<(String, String)> = rows.iter().map(|r| (r[0].clone(), r[2].clone())).collect();
    let want = [
        ("1", "afgesloten"),
        ("2", "afgesloten"),
        ("3", "gepubliceerd"),
        ("4", "gepland"),
        ("5", "gepland"),
    ];
    assert_eq!(got, want.map(|(a, b)| (a.to_string(), b.to_string())));
    assert_eq!(rows[3][1], "nog niet vastgesteld");
    for (k, e) in club.evenings.iter().enumerate() {
        assert!(page.text.contains(&format!(
            "<a href=\"/club/competitions/{}/rounds/{}\">{}</a>",
            club.swiss,
            k + 1,
            k + 1
        )));
        assert!(
            page.text
                .contains(&format!("<a href=\"/club/evenings/{e}\">"))
        );
    }
    let en = app
        .get(
            &format!("{}?lang=en", paths::club::competition(club.swiss)),
            None,
        )
        .await;
    assert_eq!(
        block(&en.text, "p", "tempo"),
        "Time control: 40 moves in 90 minutes, then 30 minutes, + 30 seconds a move from move 1"
    );
    assert_eq!(table_rows(&en.text, "rounds")[4][1], "not set yet");
}

#[actix_web::test]
async fn a_round_robin_has_a_page_per_round_and_its_cross_table_in_standings_order() {
    let app = spawn().await;
    let leader = ClubBuilder::new().build(&app).await.leader;
    // A beat B, B drew with C, A beat C: A 4, B 1, C 1 (draughts: 2 for a win)
    let fx = draughts_round_robin_of_three(&app, &leader, json!({}), ["2-0", "1-1", "0-2"]).await;
    let (a, b, c) = (fx.players[0], fx.players[1], fx.players[2]);
    let round = |n: i32| format!("{}/rounds/{n}", paths::club::competition(fx.comp));
    // round 3: C had 1 point (the draw), A 2 (the win over B); nobody rated
    let r = app.get(&round(3), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        first(table_rows(&r.text, "pairings"), 8),
        owned(&[&["1", "C", "–", "1", "A", "–", "2", "0-2"]])
    );
    assert!(r.text.contains("<strong aria-current=\"page\">3</strong>"));
    // round 1: both 0 before it
    let r = app.get(&round(1), None).await;
    assert_eq!(
        first(table_rows(&r.text, "pairings"), 8),
        owned(&[&["1", "A", "–", "0", "B", "–", "0", "2-0"]])
    );
    // a round with a page: ETag and 304
    let tag = r.header("etag").unwrap();
    let again = app
        .send(
            actix_web::test::TestRequest::get()
                .uri(&round(1))
                .insert_header(("If-None-Match", tag.as_str())),
        )
        .await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    // no round 4, and no page for round 0
    assert_eq!(app.get(&round(4), None).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.get(&round(0), None).await.status, StatusCode::NOT_FOUND);
    // the cross table: rows and columns in standings order, A first; names link to the
    // players' pages
    let s = app.standings(fx.comp).await;
    let order: Vec<i64> = s.body["round_robin"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["player_id"].as_i64().unwrap())
        .collect();
    assert_eq!(order[0], a);
    let page = app.get(&paths::club::standings(fx.comp), None).await;
    let rows = table_rows(&page.text, "cross");
    let name = |id: i64| {
        if id == a {
            "A"
        } else if id == b {
            "B"
        } else {
            "C"
        }
    };
    let _ = c;
    for (k, id) in order.iter().enumerate() {
        assert_eq!(rows[k][1], name(*id));
        assert_eq!(rows[k][2 + k], "—", "the diagonal of row {k}");
        assert!(page.text.contains(&format!(
            "<th scope=\"row\"><a href=\"/club/players/{id}\">{}</a>",
            name(*id)
        )));
    }
    // A's row: 2 against B and 2 against C, in their columns
    assert_eq!(rows[0][3], "2");
    assert_eq!(rows[0][4], "2");
}
