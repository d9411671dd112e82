//! How a player's name is published (docs/decisions/0326-player-publication.md): a player
//! shown by initials and one hidden are never named in full in any public answer — every
//! public GET of the document on the demo club (JSON, CSV, TRF, iCalendar, the changes feed,
//! the stream replayed from the start) and every club page — while officers and the player
//! themselves still read the full name.

use crate::support::*;
use actix_web::http::StatusCode;
use serde_json::json;
use std::collections::{BTreeSet, VecDeque};

/// The name given to the player shown by initials, and its initials by hand
/// (docs/decisions/0326-player-publication.md#decision: each word's initial, the lower-case
/// particles kept, each part of a hyphenated word).
const INITIALS_NAME: &str = "Jan-Willem van der Berkhout";
const INITIALS: &str = "J.-W. van der B.";
/// The name given to the hidden player.
const HIDDEN_NAME: &str = "Pieternella Zwanenburg";

/// Whether `text` names either player in full, or a part of a name only they have.
fn names_in_full(text: &str) -> Option<&'static str> {
    [
        INITIALS_NAME,
        HIDDEN_NAME,
        "Berkhout",
        "Zwanenburg",
        "Pieternella",
    ]
    .into_iter()
    .find(|n| text.contains(n))
}

/// Two demo players with games (the first with a rating, so that exports list them), renamed
/// to [`INITIALS_NAME`] and [`HIDDEN_NAME`] and set to `initials` and `hidden` by the leader.
async fn two_players(app: &TestApp, leader: &str) -> (i64, i64) {
    let mut chosen = Vec::new();
    let list = app
        .get(&format!("{}?page=1&per_page=100", paths::PLAYERS), None)
        .await;
    for id in ids_in(&list.body, "id") {
        let games = app.get(&paths::player_games(id), None).await;
        if games.status == StatusCode::OK && games.text.contains("\"result\"") {
            chosen.push(id);
        }
        if chosen.len() == 2 {
            break;
        }
    }
    assert_eq!(chosen.len(), 2, "two demo players with games");
    let (a, h) = (chosen[0], chosen[1]);
    for (id, name, publication) in [(a, INITIALS_NAME, "initials"), (h, HIDDEN_NAME, "hidden")] {
        let r = app
            .update_player(
                leader,
                id,
                json!({"name": name, "publication": publication}),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(r.body["publication"], publication);
        assert_eq!(r.body["name"], name, "the leader reads the full name");
    }
    (a, h)
}

/// Every club page reachable from `/club/` by its links (without their query strings), with
/// its HTML.
async fn club_pages(app: &TestApp) -> Vec<(String, String)> {
    let mut seen = BTreeSet::from(["/club/".to_string()]);
    let mut todo = VecDeque::from(["/club/".to_string()]);
    let mut out = Vec::new();
    while let Some(url) = todo.pop_front() {
        let r = app.get(&url, None).await;
        assert_eq!(r.status, StatusCode::OK, "{url}: {}", r.text);
        for part in r.text.split("href=\"").skip(1) {
            let link = part.split('"').next().unwrap_or_default();
            let link = link.split('?').next().unwrap_or_default().to_string();
            if link.starts_with("/club/")
                && !link.ends_with(".css")
                && !link.ends_with(".svg")
                && seen.insert(link.clone())
            {
                todo.push_back(link);
            }
        }
        out.push((url, r.text));
        assert!(out.len() < 2000, "the club pages do not end");
    }
    out
}

#[actix_web::test]
async fn a_player_by_initials_and_a_hidden_one_are_never_named_in_full_to_the_public() {
    let app = spawn().await;
    let urls = demo_club_public_gets(&app).await;
    let leader = app.token(&["leader"]).await;
    let (a, h) = two_players(&app, &leader).await;
    let label = format!("Speler {h}");

    let mut with_initials = BTreeSet::new();
    let mut with_label = BTreeSet::new();
    let mut types = BTreeSet::new();
    for PublicGet { url, .. } in &urls {
        let r = app.get(url, None).await;
        assert!(
            [StatusCode::OK, StatusCode::NOT_FOUND, StatusCode::CONFLICT].contains(&r.status),
            "{url}: {}",
            r.status
        );
        if let Some(n) = names_in_full(&r.text) {
            panic!("{url} names {n}: {}", r.text);
        }
        let ty = r
            .headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .split(';')
            .next()
            .unwrap_or_default()
            .to_string();
        if r.text.contains(INITIALS) {
            with_initials.insert(url.clone());
            types.insert(ty.clone());
        }
        if r.text.contains(&label) {
            with_label.insert(url.clone());
            types.insert(ty);
        }
    }
    assert!(with_initials.len() >= 3, "{with_initials:?}");
    assert!(with_label.len() >= 3, "{with_label:?}");
    for t in ["application/json", "text/csv"] {
        assert!(types.contains(t), "no {t} answer names them: {types:?}");
    }

    // the stream, replayed from the first event, names no one
    let mut s = app.open_stream("", None, Some("0")).await.stream();
    let rest = s.rest().await;
    let text = format!("{rest:?}");
    assert!(names_in_full(&text).is_none(), "{text}");

    // the hidden player's own reads are not found; the other's are there, by initials
    for url in [
        paths::player(h),
        paths::player_card(h),
        paths::player_games(h),
        paths::club::player(h),
    ] {
        let r = app.get(&url, None).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{url}: {}", r.text);
    }
    let r = app.get(&paths::player(a), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["name"], INITIALS);
    assert!(r.body["knsb_number"].is_null(), "{}", r.text);
    let listed = app
        .get(
            &format!("{}?page=1&per_page=100&q=Berk", paths::PLAYERS),
            None,
        )
        .await;
    assert_eq!(
        ids_in(&listed.body, "id"),
        Vec::<i64>::new(),
        "{}",
        listed.text
    );

    // every club page: no full name, the label without a link to the hidden player's page
    let pages = club_pages(&app).await;
    assert!(pages.len() >= 20, "{}", pages.len());
    let hidden_link = format!("/club/players/{h}\"");
    let mut pages_with_initials = 0;
    let mut pages_with_label = 0;
    for (url, html) in &pages {
        if let Some(n) = names_in_full(html) {
            panic!("{url} names {n}");
        }
        assert!(
            !html.contains(&hidden_link),
            "{url} links the hidden player"
        );
        pages_with_initials += usize::from(html.contains(INITIALS));
        pages_with_label += usize::from(html.contains(&label));
    }
    // the pages no link leads to: the venue screen and the report pages of their games
    let games = app.player_games(a, "page=1&per_page=5").await;
    let mut unlinked = vec![paths::club::SCREEN.to_string()];
    unlinked.extend(
        ids_in(&games.body, "game_id")
            .into_iter()
            .map(paths::club::game_report),
    );
    assert!(unlinked.len() >= 2, "{}", games.text);
    for url in &unlinked {
        let r = app.get(url, None).await;
        assert!(r.status.as_u16() < 500, "{url}: {}", r.status);
        if let Some(n) = names_in_full(&r.text) {
            panic!("{url} names {n}");
        }
    }
    assert!(pages_with_initials >= 2, "{pages_with_initials}");
    assert!(pages_with_label >= 2, "{pages_with_label}");

    // an officer reads the full names in the same answers, and so does the player of theirs
    let url = with_initials.iter().next().unwrap();
    let staff = app.get(url, Some(&leader)).await;
    assert!(staff.text.contains(INITIALS_NAME), "{url}: {}", staff.text);
    let url = with_label
        .iter()
        .find(|u| u.contains("standings"))
        .unwrap_or_else(|| with_label.iter().next().unwrap());
    let staff = app.get(url, Some(&leader)).await;
    assert!(staff.text.contains(HIDDEN_NAME), "{url}: {}", staff.text);
    let own = app.member_token(h).await;
    let mine = app.get(url, Some(&own)).await;
    assert!(mine.text.contains(HIDDEN_NAME), "{url}: {}", mine.text);
    assert!(!mine.text.contains(INITIALS_NAME), "{url}: {}", mine.text);
    let r = app.get(&paths::player(h), Some(&leader)).await;
    assert_eq!(r.body["name"], HIDDEN_NAME, "{}", r.text);
}

#[actix_web::test]
async fn the_member_sets_their_own_publication_and_officers_and_members_are_audited() {
    let app = spawn().await;
    let club = ClubBuilder::new().build(&app).await;
    let p = app
        .post(
            paths::PLAYERS,
            Some(&club.leader),
            json!({"name": HIDDEN_NAME, "membership": "fixed"}),
        )
        .await;
    let id = p.body["id"].as_i64().unwrap();
    let member = app.member_token(id).await;
    let r = app
        .put_publication(&member, json!({"publication": "secret"}))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let r = app
        .put_publication(&member, json!({"publication": "hidden"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body, json!({"publication": "hidden"}));
    assert_eq!(
        app.get(&paths::player(id), None).await.status,
        StatusCode::NOT_FOUND
    );
    let r = app
        .update_player(&club.leader, id, json!({"publication": "initials"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app
        .update_player(&club.leader, id, json!({"name": "Speler 12"}))
        .await;
    r.assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "neutral label");
    let nobody = app.token(&["member"]).await;
    let r = app
        .put_publication(&nobody, json!({"publication": "hidden"}))
        .await;
    r.assert_detail(StatusCode::UNPROCESSABLE_ENTITY, "not linked");

    let export = app.export_me(Some(&member)).await;
    assert_eq!(export.status, StatusCode::OK, "{}", export.text);
    let changes: Vec<(String, String)> = export.body["audit"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == "publication")
        .map(|e| {
            (
                e["old_value"].as_str().unwrap().to_string(),
                e["new_value"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    // newest first: the leader's change, then the member's own
    assert_eq!(
        changes,
        [
            ("hidden".to_string(), "initials".to_string()),
            ("full".to_string(), "hidden".to_string())
        ]
    );
}

/// The `ETag` of an answer.
fn tag_of(r: &Resp) -> String {
    r.headers
        .get("etag")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

/// Whether the answer's `Vary` names `Authorization`.
fn varies_by_reader(r: &Resp) -> bool {
    r.headers
        .get("vary")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',')
                .any(|t| t.trim().eq_ignore_ascii_case("authorization"))
        })
}

#[actix_web::test]
async fn each_reader_of_one_url_has_a_body_and_a_tag_of_their_own() {
    let app = spawn().await;
    let urls = demo_club_public_gets(&app).await;
    let leader = app.token(&["leader"]).await;
    let (a, h) = two_players(&app, &leader).await;
    let member = app.member_token(a).await;
    let label = format!("Speler {h}");
    // a cached JSON standings and a club page that name both players
    let mut chosen = Vec::new();
    for PublicGet { url, .. } in &urls {
        if url.contains("/standings") && !url.contains('.') && !url.contains("format") {
            let r = app.get(url, None).await;
            if r.text.contains(INITIALS) && r.text.contains(&label) {
                chosen.push(url.clone());
                break;
            }
        }
    }
    assert_eq!(chosen.len(), 1, "a standings naming both players");
    let comp = chosen[0]
        .split('/')
        .skip_while(|s| *s != "competitions")
        .nth(1)
        .unwrap()
        .to_string();
    chosen.push(paths::club::competition(&comp));

    for url in &chosen {
        let public = app.get(url, None).await;
        let officer = app.get(url, Some(&leader)).await;
        let own = app.get(url, Some(&member)).await;
        for r in [&public, &officer, &own] {
            assert_eq!(r.status, StatusCode::OK, "{url}: {}", r.text);
            assert!(varies_by_reader(r), "{url}: {:?}", r.headers);
        }
        // the public: initials and the label; the officer: both names; the member: their own
        assert!(
            public.text.contains(INITIALS) && public.text.contains(&label),
            "{url}"
        );
        assert!(names_in_full(&public.text).is_none(), "{url}");
        assert!(officer.text.contains(INITIALS_NAME) && officer.text.contains(HIDDEN_NAME));
        assert!(
            own.text.contains(INITIALS_NAME) && own.text.contains(&label),
            "{url}"
        );
        assert!(!own.text.contains(HIDDEN_NAME), "{url}");
        let tags = [tag_of(&public), tag_of(&officer), tag_of(&own)];
        assert!(tags.iter().all(|t| !t.is_empty()), "{url}: {tags:?}");
        assert_ne!(tags[0], tags[1], "{url}");
        assert_ne!(tags[0], tags[2], "{url}");
        assert_ne!(tags[1], tags[2], "{url}");
        // each tag is a 304 to its own reader only; the others get their own body
        let readers = [None, Some(leader.as_str()), Some(member.as_str())];
        let bodies = [&public.text, &officer.text, &own.text];
        for (i, tag) in tags.iter().enumerate() {
            for (j, reader) in readers.iter().enumerate() {
                let r = app.get_as_if_none_match(url, *reader, tag).await;
                if i == j {
                    assert_eq!(r.status, StatusCode::NOT_MODIFIED, "{url} {i}: {}", r.text);
                    assert_eq!(tag_of(&r), *tag, "{url}");
                } else {
                    assert_eq!(r.status, StatusCode::OK, "{url}: tag {i} to reader {j}");
                    assert_eq!(&r.text, bodies[j], "{url}: tag {i} to reader {j}");
                    assert_eq!(tag_of(&r), tags[j], "{url}");
                }
            }
        }
    }
}
