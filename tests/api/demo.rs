//! `clubcomp demo`: deterministic, idempotent, and visible through the public endpoints.

use crate::support::*;
use actix_web::http::StatusCode;
use serde_json::Value;
use std::collections::HashSet;

fn all_counts(c: &mut clubcomp_core::test_store::DbConn) -> Vec<i64> {
    use clubcomp_core::test_store::schema::*;
    use diesel::{QueryDsl, RunQueryDsl};
    vec![
        users::table.count().get_result(c).unwrap(),
        players::table.count().get_result(c).unwrap(),
        ratings::table.count().get_result(c).unwrap(),
        seasons::table.count().get_result(c).unwrap(),
        evenings::table.count().get_result(c).unwrap(),
        competitions::table.count().get_result(c).unwrap(),
        entrants::table.count().get_result(c).unwrap(),
        rounds::table.count().get_result(c).unwrap(),
        games::table.count().get_result(c).unwrap(),
        attendance::table.count().get_result(c).unwrap(),
    ]
}

#[actix_web::test]
async fn demo_twice_and_public_reads() {
    let app = spawn().await;
    let (first, second) = app
        .with_conn(|c| {
            seed_demo(c).unwrap();
            let first = all_counts(c);
            let summary = seed_demo(c).unwrap();
            assert!(summary.contains("0 players created"), "{summary}");
            (first, all_counts(c))
        })
        .await;
    assert_eq!(first, second, "a second run adds nothing");
    // 4 demo logins, 60 club players + 12 draughts players, 1 season, 42 Fridays,
    // 3 competitions, 60 + 21 + 12 entrants, 10 Keizer + 9 rapid (one per KNSB Saturday)
    // + 11 draughts rounds
    assert_eq!(first[0], 4);
    assert_eq!(first[1], 72);
    assert_eq!(&first[3..8], &[1, 42, 3, 93, 30]);

    let seasons = app.get(paths::SEASONS, None).await;
    assert_eq!(seasons.body["items"][0]["name"], "2026-2027");
    let season = seasons.body["items"][0]["id"].as_i64().unwrap();
    let evs = app.get(&paths::evenings(season), None).await;
    assert_eq!(evs.body["items"].as_array().unwrap().len(), 42);
    assert_eq!(evs.body["total"], 42);
    let ics = app.get(&paths::calendar_ics(season), None).await;
    assert_eq!(ics.status, StatusCode::OK);
    assert_eq!(ics.text.matches("BEGIN:VEVENT").count(), 42);

    let comps = app.get(&paths::season_competitions(season), None).await;
    let comps: Vec<Value> = comps.body["items"].as_array().unwrap().clone();
    let find = |kind: &str| {
        comps
            .iter()
            .find(|c| c["kind"] == kind)
            .unwrap_or_else(|| panic!("no {kind} competition"))["id"]
            .as_i64()
            .unwrap()
    };
    let (keizer, rapid, draughts) = (find("keizer"), find("swiss"), find("round_robin"));

    // Keizer: 60 entrants; rounds 1–5 completed, 6 published, 7–10 planned; the first
    // evening is the first Friday after the opening, 11 September 2026.
    let entrants = app.get(&paths::entrants(keizer), None).await;
    let n = match &entrants.body {
        Value::Array(a) => a.len(),
        other => other["items"].as_array().unwrap().len(),
    };
    assert_eq!(n, 60);
    let rounds = app.get(&paths::rounds(keizer), None).await;
    let list = match &rounds.body {
        Value::Array(a) => a.clone(),
        other => other["items"].as_array().unwrap().clone(),
    };
    let statuses: Vec<&str> = list.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(
        statuses,
        [
            "completed",
            "completed",
            "completed",
            "completed",
            "completed",
            "published",
            "planned",
            "planned",
            "planned",
            "planned"
        ]
    );
    assert_eq!(list[0]["date"], "2026-09-11");
    // no two players meet twice in the half (docs/rules/keizer.md#pairing-constraints), every game of a completed round has a
    // result, and nobody plays twice on one evening
    let mut met = HashSet::new();
    for k in 1..=5 {
        let r = app.get(&paths::round(keizer, k), None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let games = r.body["games"].as_array().unwrap();
        assert!(games.len() > 20, "round {k}: {} boards", games.len());
        let mut seen = HashSet::new();
        for g in games {
            assert!(g["result"].is_string(), "round {k}: {g}");
            let w = g["white_id"].as_i64().or(g["white"]["id"].as_i64());
            let b = g["black_id"].as_i64().or(g["black"]["id"].as_i64());
            let w = w.unwrap_or_else(|| panic!("{g}"));
            assert!(seen.insert(w));
            if let Some(b) = b {
                assert!(seen.insert(b));
                assert!(
                    met.insert((w.min(b), w.max(b))),
                    "repeat {w}-{b} in round {k}"
                );
            } else {
                assert_eq!(g["result"], "bye");
            }
        }
    }

    // the evening in play: its bye is scored as the pairing scores it, so once the arbiter
    // has entered the games' results the leader can complete it
    let arbiter = app.token(&["arbiter"]).await;
    let leader = app.token(&["leader"]).await;
    let r = app.get(&paths::round(keizer, 6), None).await;
    for g in r.body["games"].as_array().unwrap() {
        if g["black"].is_null() {
            assert_eq!(g["result"], "bye", "{g}");
            continue;
        }
        assert!(g["result"].is_null(), "in play: {g}");
        let put = app
            .req(
                actix_web::http::Method::PUT,
                &paths::result(&g["id"]),
                Some(&arbiter),
                Some(serde_json::json!({"result": "1/2-1/2"})),
            )
            .await;
        assert_eq!(put.status, StatusCode::OK, "{}", put.text);
    }
    let done = app
        .post(
            &paths::complete(keizer, 6),
            Some(&leader),
            serde_json::json!({}),
        )
        .await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);

    // rapid: 21 players, round 1 = 10 matches of two games + the bye; the rapid evenings
    // of 25 September and 16 October are past on 28 October, the one of 6 November is next
    let r = app.get(&paths::round(rapid, 1), None).await;
    assert_eq!(r.body["games"].as_array().unwrap().len(), 21);
    assert_eq!(r.body["status"], "completed");
    let r = app.get(&paths::round(rapid, 3), None).await;
    assert_eq!(r.body["status"], "published", "{}", r.text);
    assert_eq!(r.body["date"], "2026-11-06");
    let games = r.body["games"].as_array().unwrap();
    assert_eq!(games.len(), 21);
    assert!(
        games
            .iter()
            .all(|g| g["result"].is_null() != g["black"].is_null())
    );
    assert_eq!(
        app.get(&paths::round(rapid, 4), None).await.body["status"],
        "planned"
    );

    // draughts: 12 players, a Berger round a week: rounds 1–6 before the day played, round 7
    // on the day published, 8–11 planned; nobody meets anybody twice
    let mut pairs = HashSet::new();
    for k in 1..=11 {
        let r = app.get(&paths::round(draughts, k), None).await;
        let games = r.body["games"].as_array().unwrap();
        let want = match k {
            1..=6 => "completed",
            7 => "published",
            _ => "planned",
        };
        assert_eq!(r.body["status"], want, "round {k}");
        if k > 7 {
            assert!(games.is_empty(), "round {k}: {}", r.text);
            continue;
        }
        assert_eq!(games.len(), 6);
        assert!(games.iter().all(|g| g["result"].is_string() == (k < 7)));
        for g in games {
            let w = g["white_id"]
                .as_i64()
                .or(g["white"]["id"].as_i64())
                .unwrap();
            let b = g["black_id"]
                .as_i64()
                .or(g["black"]["id"].as_i64())
                .unwrap();
            assert!(pairs.insert((w.min(b), w.max(b))));
        }
    }
    assert_eq!(pairs.len(), 42);
}

/// (round, board, white, black, result)
type GameRow = (i32, i32, String, String, Option<String>);
/// competition, round, board, white id, black id, result
type DbRow = (i64, i32, i32, Option<i64>, Option<i64>, Option<String>);

/// Two fresh databases get the same demo: the same pairings and results, by name.
#[actix_web::test]
async fn demo_is_deterministic() {
    async fn games_by_name() -> Vec<GameRow> {
        let app = spawn().await;
        app.with_conn(|c| {
            use clubcomp_core::test_store::schema::{games, players, rounds};
            use diesel::prelude::*;
            seed_demo(c).unwrap();
            let names: std::collections::HashMap<i64, String> = players::table
                .select((players::id, players::name))
                .load::<(i64, String)>(c)
                .unwrap()
                .into_iter()
                .collect();
            let rows: Vec<DbRow> = games::table
                .inner_join(rounds::table)
                .order((
                    rounds::competition_id,
                    rounds::number,
                    games::board,
                    games::game_no,
                ))
                .select((
                    rounds::competition_id,
                    rounds::number,
                    games::board,
                    games::white_id,
                    games::black_id,
                    games::result,
                ))
                .load(c)
                .unwrap();
            let name = |id: Option<i64>| id.map(|i| names[&i].clone()).unwrap_or_default();
            rows.into_iter()
                .map(|(_, n, b, w, bl, r)| (n, b, name(w), name(bl), r))
                .collect()
        })
        .await
    }
    let a = games_by_name().await;
    assert!(a.len() > 250, "{} games", a.len());
    assert_eq!(a, games_by_name().await);
}

/// In the demo's season, whose winter half is under way, the leader creates the summer half:
/// it gets a planned round on each of the ten summer `keizer` evenings, numbered 1 to 10 by
/// date, and the winter half keeps its rounds.
#[actix_web::test]
async fn a_summer_half_is_created_in_the_demo_season() {
    let app = spawn().await;
    app.with_conn(|c| {
        seed_demo(c).unwrap();
    })
    .await;
    let leader = app.token(&["leader"]).await;
    let season = app.get(paths::SEASONS, None).await.body["items"][0]["id"]
        .as_i64()
        .unwrap();
    let evs = app
        .get(&format!("{}?per_page=200", paths::evenings(season)), None)
        .await;
    let mut summer_evenings: Vec<(String, i64)> = evs.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "keizer" && e["half"] == "summer")
        .map(|e| {
            (
                e["date"].as_str().unwrap().to_string(),
                e["id"].as_i64().unwrap(),
            )
        })
        .collect();
    summer_evenings.sort();
    assert_eq!(summer_evenings.len(), 10, "{}", evs.text);

    let r = app
        .create_competition(
            &leader,
            season,
            serde_json::json!({"name": "Keizer summer 2027", "kind": "keizer", "half": "summer"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let summer = r.body["id"].as_i64().unwrap();
    let rows = |comp: i64| {
        app.with_conn(move |c| {
            use clubcomp_core::test_store::schema::rounds;
            use diesel::prelude::*;
            rounds::table
                .filter(rounds::competition_id.eq(comp))
                .order(rounds::number)
                .select((
                    rounds::number,
                    rounds::date,
                    rounds::evening_id,
                    rounds::status,
                ))
                .load::<(i32, Option<chrono::NaiveDate>, Option<i64>, String)>(c)
                .unwrap()
        })
    };
    let got: Vec<(i32, String, i64, String)> = rows(summer)
        .await
        .into_iter()
        .map(|(n, d, e, s)| (n, d.unwrap().to_string(), e.unwrap(), s))
        .collect();
    let want: Vec<(i32, String, i64, String)> = summer_evenings
        .iter()
        .zip(1..)
        .map(|((d, e), n)| (n, d.clone(), *e, "planned".to_string()))
        .collect();
    assert_eq!(got, want);

    let comps = app.get(&paths::season_competitions(season), None).await;
    let winter = comps.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "keizer" && c["half"] == "winter")
        .and_then(|c| c["id"].as_i64())
        .unwrap();
    let numbers: Vec<i32> = rows(winter).await.into_iter().map(|r| r.0).collect();
    assert_eq!(numbers, (1..=10).collect::<Vec<i32>>());
}

/// The rounds of `comp` in number order as (date, status).
async fn round_statuses(app: &TestApp, comp: i64) -> Vec<(String, String)> {
    let r = app.get(&paths::rounds(comp), None).await;
    let list = match &r.body {
        Value::Array(a) => a.clone(),
        other => other["items"].as_array().unwrap().clone(),
    };
    list.iter()
        .map(|r| {
            (
                r["date"].as_str().unwrap_or_default().to_string(),
                r["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Every round dated before the day is completed, the first one on or after it published and
/// the later ones planned.
fn assert_around(day: &str, rounds: &[(String, String)], what: &str) {
    let past = rounds.iter().filter(|(d, _)| d.as_str() < day).count();
    for (k, (date, status)) in rounds.iter().enumerate() {
        let want = match k.cmp(&past) {
            std::cmp::Ordering::Less => "completed",
            std::cmp::Ordering::Equal => "published",
            std::cmp::Ordering::Greater => "planned",
        };
        assert_eq!(status, want, "{what}: round {} on {date}", k + 1);
    }
}

/// On 1 March 2027 the winter half (September–January) is over and the summer half is under
/// way: the demo holds both, the winter half all completed, and in every competition the
/// rounds before the day are played and the next one is published.
#[actix_web::test]
async fn the_demo_is_built_around_its_day_in_every_competition() {
    let app = spawn().await;
    let day = "2027-03-01";
    app.with_conn(move |c| clubcomp::services::demo::seed(c, &demo_on(day)).unwrap())
        .await;
    let season = app.get(paths::SEASONS, None).await;
    assert_eq!(season.body["items"][0]["name"], "2026-2027");
    let season = season.body["items"][0]["id"].as_i64().unwrap();
    let comps = app.get(&paths::season_competitions(season), None).await;
    let comps = comps.body["items"].as_array().unwrap().clone();
    assert_eq!(comps.len(), 4, "{comps:?}");
    for c in &comps {
        let rounds = round_statuses(&app, c["id"].as_i64().unwrap()).await;
        let name = c["name"].as_str().unwrap();
        if c["kind"] == "keizer" && c["half"] == "winter" {
            assert_eq!(rounds.len(), 10);
            assert!(rounds.iter().all(|(_, s)| s == "completed"), "{rounds:?}");
            continue;
        }
        assert!(
            rounds
                .iter()
                .any(|(d, s)| d.as_str() >= day && s == "published"),
            "{name}: {rounds:?}"
        );
        assert!(rounds.iter().any(|(_, s)| s == "completed"), "{name}");
        assert_around(day, &rounds, name);
    }
    // the round robin plays a round a week, the seventh on the day itself
    let rr = comps.iter().find(|c| c["kind"] == "round_robin").unwrap();
    let rounds = round_statuses(&app, rr["id"].as_i64().unwrap()).await;
    assert_eq!(rounds[6], (day.to_string(), "published".to_string()));
    assert_eq!(rounds[0].0, "2027-01-18");
}

/// A day in August, before the season opens: the demo builds the coming season, its first
/// Keizer evening (the first Friday after the opening Saturday, 4 September 2027) published.
#[actix_web::test]
async fn a_demo_in_the_summer_holidays_shows_the_coming_season() {
    let app = spawn().await;
    app.with_conn(|c| clubcomp::services::demo::seed(c, &demo_on("2027-08-10")).unwrap())
        .await;
    let season = app.get(paths::SEASONS, None).await;
    assert_eq!(season.body["items"][0]["name"], "2027-2028");
    let season = season.body["items"][0]["id"].as_i64().unwrap();
    let comps = app.get(&paths::season_competitions(season), None).await;
    let keizer = comps.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "keizer")
        .and_then(|c| c["id"].as_i64())
        .unwrap();
    let rounds = round_statuses(&app, keizer).await;
    assert_eq!(
        rounds[0],
        ("2027-09-10".to_string(), "published".to_string())
    );
    assert!(rounds[1..].iter().all(|(_, s)| s == "planned"));
}

/// Every demo player, the club's and the draughts guests, has an address at `club.example`.
#[actix_web::test]
async fn every_demo_player_has_an_address_at_club_example() {
    let app = spawn().await;
    app.with_conn(|c| seed_demo(c).unwrap()).await;
    let leader = app.token(&["leader"]).await;
    let r = app
        .get(&format!("{}?per_page=200", paths::PLAYERS), Some(&leader))
        .await;
    let items = r.body["items"].as_array().unwrap();
    assert_eq!(items.len(), 72);
    for p in items {
        let email = p["email"].as_str().unwrap_or_else(|| panic!("{p}"));
        assert!(email.ends_with("@club.example"), "{p}");
    }
    let emails: HashSet<&str> = items.iter().filter_map(|p| p["email"].as_str()).collect();
    assert_eq!(emails.len(), 72, "every address is a player's own");
}

async fn member_login(app: &TestApp) -> String {
    let r = app
        .login(serde_json::json!({"email": "member@club.example", "password": "demo-password"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.body["token"].as_str().unwrap().to_string()
}

/// The demo member account is linked to a fixed player who has played and has signed off
/// for an evening: `/me` shows the player and their last results.
#[actix_web::test]
async fn the_demo_member_has_a_player_with_games_and_sign_offs() {
    let app = spawn().await;
    app.with_conn(|c| seed_demo(c).unwrap()).await;
    let token = member_login(&app).await;
    let me = app.get(paths::MEMBER_PAGE, Some(&token)).await;
    assert_eq!(me.status, StatusCode::OK, "{}", me.text);
    assert_eq!(me.body["player"]["membership"], "fixed", "{}", me.text);
    let player = me.body["player"]["id"].as_i64().unwrap();
    assert!(
        !me.body["last_results"].as_array().unwrap().is_empty(),
        "{}",
        me.text
    );
    let sign_offs: i64 = app
        .with_conn(move |c| {
            use clubcomp_core::test_store::schema::attendance as a;
            use diesel::prelude::*;
            a::table
                .filter(a::player_id.eq(player))
                .filter(a::action.eq("sign_off"))
                .count()
                .get_result(c)
                .unwrap()
        })
        .await;
    assert!(sign_offs > 0);
}

/// Seeded for today in the club's time zone (as `clubcomp demo` does by default), the demo
/// member signs off for the first planned Keizer evening to come and is then excused for it.
#[actix_web::test]
async fn the_demo_member_signs_off_for_a_coming_evening_of_a_demo_made_today() {
    let app = spawn().await;
    let today = chrono::Utc::now()
        .with_timezone(&chrono_tz::Europe::Amsterdam)
        .date_naive()
        .to_string();
    app.with_conn(move |c| clubcomp::services::demo::seed(c, &demo_on(&today)).unwrap())
        .await;
    let token = member_login(&app).await;
    let me = app.get(paths::MEMBER_PAGE, Some(&token)).await;
    let coming = me.body["attendance"].as_array().unwrap().clone();
    let planned = coming
        .iter()
        .find(|r| {
            r["round_status"] == "planned"
                && r["competition_name"]
                    .as_str()
                    .unwrap()
                    .starts_with("Keizer")
        })
        .unwrap_or_else(|| panic!("no planned Keizer evening: {}", me.text))
        .clone();
    let comp = planned["competition_id"].as_i64().unwrap();
    let round = planned["round"].as_i64().unwrap();
    let r = app
        .post(
            &paths::attendance_me(comp),
            Some(&token),
            serde_json::json!({"action": "sign_off", "rounds": [round]}),
        )
        .await;
    assert!(r.status.is_success(), "{}", r.text);
    let me = app.get(paths::MEMBER_PAGE, Some(&token)).await;
    let after = me.body["attendance"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["competition_id"] == comp && r["round"] == round)
        .cloned()
        .unwrap();
    assert_eq!(after["status"], "excused", "{after}");
}

async fn login_status(app: &TestApp, email: &str, password: &str) -> StatusCode {
    app.login(serde_json::json!({"email": email, "password": password}))
        .await
        .status
}

/// The logins a demo summary prints with the demo password: (e-mail, role).
fn printed_logins(summary: &str) -> Vec<String> {
    summary
        .lines()
        .filter_map(|l| l.trim().split_once(" / demo-password"))
        .map(|(email, _)| email.to_string())
        .collect()
}

/// The bootstrap admin made at the first start before the demo: the demo leaves its password
/// as it is, and prints only the logins that work (not the admin with the demo password).
#[actix_web::test]
async fn a_demo_after_the_first_start_keeps_the_bootstrap_password_and_prints_only_working_logins()
{
    let app = spawn().await;
    let summary = app
        .with_conn(|c| {
            clubcomp::services::users::bootstrap_admin(c, "admin@club.example", "boot-secret-1")
                .unwrap();
            seed_demo(c).unwrap()
        })
        .await;
    let printed = printed_logins(&summary);
    assert_eq!(
        printed,
        [
            "leader@club.example",
            "arbiter@club.example",
            "member@club.example"
        ],
        "{summary}"
    );
    for email in printed {
        assert_eq!(
            login_status(&app, &email, "demo-password").await,
            StatusCode::OK
        );
    }
    let admin = "admin@club.example";
    assert_eq!(
        login_status(&app, admin, "boot-secret-1").await,
        StatusCode::OK
    );
    assert_eq!(
        login_status(&app, admin, "demo-password").await,
        StatusCode::UNAUTHORIZED
    );
}

/// The demo seeded before the first start: the bootstrap admin of the settings then takes
/// over the demo's admin account (which holds the public demo password), so the configured
/// password works and the demo password no longer does.
#[actix_web::test]
async fn the_bootstrap_admin_takes_over_the_demo_admin_seeded_before_the_first_start() {
    let app = spawn().await;
    app.with_conn(|c| {
        seed_demo(c).unwrap();
        clubcomp::services::users::bootstrap_admin(c, "admin@club.example", "boot-secret-2")
            .unwrap();
    })
    .await;
    let admin = "admin@club.example";
    assert_eq!(
        login_status(&app, admin, "boot-secret-2").await,
        StatusCode::OK
    );
    assert_eq!(
        login_status(&app, admin, "demo-password").await,
        StatusCode::UNAUTHORIZED
    );
    let r = app
        .login(serde_json::json!({"email": admin, "password": "boot-secret-2"}))
        .await;
    let token = r.body["token"].as_str().unwrap().to_string();
    assert_eq!(
        app.get(paths::USERS, Some(&token)).await.status,
        StatusCode::OK,
        "the account is an admin"
    );
}
