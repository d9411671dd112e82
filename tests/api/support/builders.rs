//! Builders for the fixtures: a club's people ([`ClubBuilder`]), a season ([`SeasonBuilder`]),
//! a competition of any kind with its players ([`CompetitionBuilder`]), and the rounds,
//! results and attendance that the tests set up around them. Every fixture goes through the
//! HTTP API, except games, results and round moves that a test states directly (inserted
//! through the services), so a test can start from any position of a competition.

use super::app::{Resp, TestApp};
use super::paths;
use actix_web::http::StatusCode;
use clubcomp::ids::{PlayerId, RoundId};
use clubcomp_core::test_store::models::competition::{NewAttendance, NewGame};
use clubcomp_core::test_store::schema::games;
use clubcomp_core::vocab::{ChangeAction, ChangeChannel};
use diesel::prelude::*;
use serde_json::{Value, json};

/// The club's officials, each a bearer token of an account of that role. An administrator, a
/// member or an account of several roles: [`TestApp::token`]; a member linked to a player:
/// [`TestApp::member_token`].
pub struct Club {
    pub leader: String,
    pub arbiter: String,
}

/// Builds a [`Club`]: the leader's account first, then the arbiter's.
#[derive(Default)]
pub struct ClubBuilder;

impl ClubBuilder {
    pub fn new() -> Self {
        Self
    }

    pub async fn build(self, app: &TestApp) -> Club {
        let leader = app.token(&["leader"]).await;
        let arbiter = app.token(&["arbiter"]).await;
        Club { leader, arbiter }
    }
}

/// Builds a season: a fresh name and an opening date of 4 September 2026 by default.
pub struct SeasonBuilder {
    name: String,
    opening_date: String,
}

impl Default for SeasonBuilder {
    fn default() -> Self {
        Self {
            name: format!("S{}", uuid::Uuid::new_v4().simple()),
            opening_date: "2026-09-04".into(),
        }
    }
}

impl SeasonBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn name(mut self, name: &str) -> Self {
        self.name = name.into();
        self
    }

    pub fn opening_date(mut self, date: &str) -> Self {
        self.opening_date = date.into();
        self
    }

    /// Creates the season (201) and returns its id.
    pub async fn create(self, app: &TestApp, leader: &str) -> i64 {
        let body = json!({"name": self.name, "opening_date": self.opening_date});
        let r = app.create_season(leader, body).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        r.body["id"].as_i64().unwrap()
    }
}

/// A season named `name` opening on Friday 4 September 2026 with its generated calendar
/// (every Friday to 30 June), and the ids of its first three evenings (4, 11 and 18
/// September).
pub async fn season_with_calendar(app: &TestApp, leader: &str, name: &str) -> (i64, Vec<i64>) {
    let season = SeasonBuilder::new().name(name).create(app, leader).await;
    let r = app.generate_calendar(leader, season, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let ids = r.body.as_array().unwrap().iter();
    (
        season,
        ids.take(3).map(|e| e["id"].as_i64().unwrap()).collect(),
    )
}

/// Four members `(name, KNSB number, rating)` for [`rated_season`].
pub const RATED: [(&str, &str, i32); 4] = [
    ("Anna", "8400001", 1900),
    ("Bram", "8400002", 1750),
    ("Cor", "8400003", 1600),
    ("Dirk", "8400004", 1500),
];

/// A club with a season ("Seizoen 2026-2027") and its calendar, and members.
pub struct RatedSeason {
    /// The leader's token.
    pub leader: String,
    /// The season.
    pub season: i64,
    /// The first three evenings of its calendar.
    pub evenings: Vec<i64>,
    /// The members, in the order given.
    pub players: Vec<i64>,
}

/// A club with a season and its calendar, and new members `(name, KNSB number, rating)` with
/// their ratings on the KNSB list of 1 September 2026 (the season's seeding date), pushed by a
/// rating-sync job.
pub async fn rated_season(app: &TestApp, members: &[(&str, &str, i32)]) -> RatedSeason {
    let leader = ClubBuilder::new().build(app).await.leader;
    let (season, evenings) = season_with_calendar(app, &leader, "Seizoen 2026-2027").await;
    let mut players = Vec::new();
    let mut ratings = Vec::new();
    for (name, knsb, value) in members {
        let r = app
            .create_player(&leader, json!({"name": name, "knsb_number": knsb}))
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        players.push(r.body["id"].as_i64().unwrap());
        ratings.push(json!({"knsb_number": knsb, "value": value}));
    }
    let sync = app.token(&["rating_sync"]).await;
    let list = json!({"source": "KNSB", "list_date": "2026-09-01", "ratings": ratings});
    let r = app.push_ratings(&sync, list).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    RatedSeason {
        leader,
        season,
        evenings,
        players,
    }
}

impl RatedSeason {
    /// A Keizer of every member whose first evening (round 1, published) is the season's
    /// first: the first member beat the second, the third had the bye. Returns the Keizer
    /// and the round number.
    pub async fn keizer_first_evening(&self, app: &TestApp) -> (i64, i32) {
        let keizer = CompetitionBuilder::keizer()
            .in_season(self.season)
            .entrants(&self.players)
            .create(app, &self.leader)
            .await
            .comp;
        let p = &self.players;
        let (number, _) = round_on_evening(
            app,
            &self.leader,
            keizer,
            self.evenings[0],
            vec![(p[0], Some(p[1]), Some("1-0")), (p[2], None, None)],
            "published",
        )
        .await;
        (keizer, number)
    }
}

/// A season, a competition and its entrants (in order of entry).
pub struct Fx {
    pub season: i64,
    pub comp: i64,
    pub players: Vec<i64>,
}

impl Fx {
    /// (competition, players).
    pub fn parts(self) -> (i64, Vec<i64>) {
        (self.comp, self.players)
    }
}

/// Builds a competition: its body as the API takes it, the season it belongs to (a fresh one
/// by default) and its entrants: new players (entered in the order given) and existing ones.
pub struct CompetitionBuilder {
    body: Value,
    season: Option<i64>,
    new_players: Vec<Value>,
    entrants: Vec<i64>,
}

impl CompetitionBuilder {
    /// A competition with the API body `body`.
    pub fn new(body: Value) -> Self {
        Self {
            body,
            season: None,
            new_players: vec![],
            entrants: vec![],
        }
    }

    /// The winter half of a Keizer competition named K.
    pub fn keizer() -> Self {
        Self::new(json!({"name": "K", "kind": "keizer", "half": "winter"}))
    }

    /// A Swiss competition with `system` (`dutch` or `double_swiss`).
    pub fn swiss(system: &str) -> Self {
        Self::new(json!({"name": "Swiss", "kind": "swiss", "system": system}))
    }

    /// The blitz championship on `date` (a Dutch Swiss with a `blitz` block, its other
    /// settings left to the defaults), without entrants: players are checked in.
    pub fn blitz(date: &str) -> Self {
        Self::new(json!({"name": "Blitz", "kind": "swiss", "system": "dutch",
            "params": {"blitz": {"date": date}}}))
    }

    /// A round robin.
    pub fn round_robin() -> Self {
        Self::new(json!({"name": "RR", "kind": "round_robin"}))
    }

    /// Sets a field of the body (`name`, `half`, `seeded_from`, `settings`, …).
    pub fn set(mut self, field: &str, value: impl Into<Value>) -> Self {
        self.body[field] = value.into();
        self
    }

    /// In the existing season `season`.
    pub fn in_season(mut self, season: i64) -> Self {
        self.season = Some(season);
        self
    }

    /// New players named `names`, entered in this order.
    pub fn players(mut self, names: &[&str]) -> Self {
        self.new_players
            .extend(names.iter().map(|n| json!({"name": n})));
        self
    }

    /// New players with a membership each (`fixed`, `flexible`), entered in this order.
    pub fn members(mut self, members: &[(&str, &str)]) -> Self {
        self.new_players.extend(
            members
                .iter()
                .map(|(n, m)| json!({"name": n, "membership": m})),
        );
        self
    }

    /// New players named `names`, all with `membership`, entered in this order.
    pub fn members_of(mut self, membership: &str, names: &[&str]) -> Self {
        self.new_players.extend(
            names
                .iter()
                .map(|n| json!({"name": n, "membership": membership})),
        );
        self
    }

    /// Existing players, entered after the new ones.
    pub fn entrants(mut self, players: &[i64]) -> Self {
        self.entrants.extend_from_slice(players);
        self
    }

    /// Creates the season (unless given), the players, the competition and the entries.
    pub async fn create(self, app: &TestApp, leader: &str) -> Fx {
        let season = match self.season {
            Some(s) => s,
            None => SeasonBuilder::new().create(app, leader).await,
        };
        let mut players = Vec::new();
        for p in self.new_players {
            let r = app.create_player(leader, p).await;
            assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
            players.push(r.body["id"].as_i64().unwrap());
        }
        players.extend(self.entrants);
        let r = app.create_competition(leader, season, self.body).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        let comp = r.body["id"].as_i64().unwrap();
        if !players.is_empty() {
            let entries: Vec<Value> = players.iter().map(|p| json!({"player_id": p})).collect();
            let r = app
                .add_entrants(leader, comp, json!({"entrants": entries}))
                .await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        }
        Fx {
            season,
            comp,
            players,
        }
    }
}

/// A draughts round robin named NK with `params`, of new players A, B and C (in this order),
/// with its three rounds completed: A–B, B–C and C–A, with `results` in that order.
pub async fn draughts_round_robin_of_three(
    app: &TestApp,
    leader: &str,
    params: Value,
    results: [&str; 3],
) -> Fx {
    let fx = CompetitionBuilder::round_robin()
        .set("name", "NK")
        .set("discipline", "draughts")
        .set("params", params)
        .players(&["A", "B", "C"])
        .create(app, leader)
        .await;
    let (a, b, c) = (fx.players[0], fx.players[1], fx.players[2]);
    let [ab, bc, ca] = results;
    let rounds = vec![
        vec![(a, Some(b), Some(ab))],
        vec![(b, Some(c), Some(bc))],
        vec![(c, Some(a), Some(ca))],
    ];
    completed_rounds(app, leader, fx.comp, rounds).await;
    fx
}

/// A draughts round robin named NK with `system` (`single` or `double`) of new fixed members
/// D1–D4 (in this order), with `rounds` rounds added, all on [`FUTURE`]. Returns
/// (competition, players).
pub async fn draughts_round_robin_of_four(
    app: &TestApp,
    leader: &str,
    system: &str,
    rounds: usize,
) -> (i64, Vec<i64>) {
    let (comp, players) = CompetitionBuilder::round_robin()
        .set("name", "NK")
        .set("discipline", "draughts")
        .set("system", system)
        .members_of("fixed", &["D1", "D2", "D3", "D4"])
        .create(app, leader)
        .await
        .parts();
    for _ in 0..rounds {
        add_round(app, leader, comp, FUTURE).await;
    }
    (comp, players)
}

/// A leader's and an arbiter's token and a Keizer winter competition of `names`.
pub async fn keizer_winter(app: &TestApp, names: &[&str]) -> (String, String, Fx) {
    let club = ClubBuilder::new().build(app).await;
    let fx = CompetitionBuilder::keizer()
        .players(names)
        .create(app, &club.leader)
        .await;
    (club.leader, club.arbiter, fx)
}

/// A Keizer winter of P and Q with one completed evening in which P beat Q, and the
/// arbiter's token.
pub struct PBeatQ {
    pub arbiter: String,
    pub comp: i64,
    pub players: [i64; 2],
    /// The game of the evening.
    pub game: i64,
}

pub async fn p_beat_q(app: &TestApp) -> PBeatQ {
    let (leader, arbiter, fx) = keizer_winter(app, &["P", "Q"]).await;
    let (p, q) = (fx.players[0], fx.players[1]);
    let games = round(
        app,
        &leader,
        fx.comp,
        vec![(p, Some(q), Some("1-0"))],
        "completed",
    )
    .await;
    PBeatQ {
        arbiter,
        comp: fx.comp,
        players: [p, q],
        game: games[0],
    }
}

/// The ids of the rows of a standings table, in order.
pub fn ids(rows: &Value) -> Vec<i64> {
    ints(rows, "player_id")
}

/// The number `field` of each item of the JSON array `list`, in order.
pub fn ints(list: &Value, field: &str) -> Vec<i64> {
    each(list, field, Value::as_i64)
}

/// The text `field` of each item of the JSON array `list`, in order.
pub fn texts<'a>(list: &'a Value, field: &str) -> Vec<&'a str> {
    each(list, field, Value::as_str)
}

/// `field` of each item of the JSON array `list`, read by `read`; panics naming the item
/// where it is not an array or an item's `field` does not read.
fn each<'a, T>(list: &'a Value, field: &str, read: impl Fn(&'a Value) -> Option<T>) -> Vec<T> {
    list.as_array()
        .unwrap_or_else(|| panic!("not an array: {list}"))
        .iter()
        .map(|item| read(&item[field]).unwrap_or_else(|| panic!("no {field} in {item}")))
        .collect()
}

/// Adds the next round with `games` (white, black, result) on boards 1, 2, … and moves it to
/// `status`. Returns the game ids.
pub async fn round(
    app: &TestApp,
    leader: &str,
    comp: i64,
    games_: Boards<'_>,
    status: &str,
) -> Vec<i64> {
    let games_ = games_
        .into_iter()
        .enumerate()
        .map(|(i, (w, b, r))| (i as i32 + 1, 1, w, b, r))
        .collect();
    round_games(app, leader, comp, games_, status).await
}

/// The games of a round on boards 1, 2, …: white, black (none: a bye), result.
pub type Boards<'a> = Vec<(i64, Option<i64>, Option<&'a str>)>;

/// Adds one completed round per entry of `rounds`, in order (as [`round`] does).
pub async fn completed_rounds(app: &TestApp, leader: &str, comp: i64, rounds: Vec<Boards<'_>>) {
    for games in rounds {
        round(app, leader, comp, games, "completed").await;
    }
}

/// A game to insert: board, game number, white, black (none: a bye), result.
pub type GameSpec<'a> = (i32, i32, i64, Option<i64>, Option<&'a str>);

type OwnedSpec = (i32, i32, i64, Option<i64>, Option<String>);

/// Adds the next round with `games` (board, game number, white, black, result) and moves it
/// to `status`. Returns the game ids.
pub async fn round_games(
    app: &TestApp,
    leader: &str,
    comp: i64,
    games_: Vec<GameSpec<'_>>,
    status: &str,
) -> Vec<i64> {
    round_games_with(app, leader, comp, json!({}), games_, status)
        .await
        .1
}

/// Adds the next round of `comp` on the calendar evening `evening` with `games` (as
/// [`round`] does: white, black, result on boards 1, 2, …) and moves it to `status`. Returns
/// the round number and the game ids.
pub async fn round_on_evening(
    app: &TestApp,
    leader: &str,
    comp: i64,
    evening: i64,
    games_: Boards<'_>,
    status: &str,
) -> (i32, Vec<i64>) {
    let games_ = games_
        .into_iter()
        .enumerate()
        .map(|(i, (w, b, r))| (i as i32 + 1, 1, w, b, r))
        .collect();
    // a Keizer half bound to the calendar has its planned round on each Keizer evening; any
    // other evening becomes one first (docs/rules/keizer.md#rounds-from-the-calendar)
    let bound = app.get(&paths::competition(comp), None).await.body["kind"] == "keizer";
    if bound {
        let r = app
            .update_evening(leader, evening, json!({"kind": "keizer"}))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let planned: Option<i32> = app
        .with_conn(move |c| {
            use clubcomp_core::test_store::schema::rounds;
            rounds::table
                .filter(rounds::competition_id.eq(comp))
                .filter(rounds::evening_id.eq(evening))
                .select(rounds::number)
                .first(c)
                .optional()
                .unwrap()
        })
        .await;
    match planned {
        Some(number) => fill_round(app, comp, number, games_, status).await,
        None => {
            round_games_with(
                app,
                leader,
                comp,
                json!({ "evening_id": evening }),
                games_,
                status,
            )
            .await
        }
    }
}

/// Adds the next round of `comp` with the API body `body` and `games`, moved to `status`.
/// Returns the round number and the game ids.
async fn round_games_with(
    app: &TestApp,
    leader: &str,
    comp: i64,
    body: Value,
    games_: Vec<GameSpec<'_>>,
    status: &str,
) -> (i32, Vec<i64>) {
    let r = app.create_round(leader, comp, body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let number = r.body["number"].as_i64().unwrap() as i32;
    fill_round(app, comp, number, games_, status).await
}

/// Stores `games` in round `number` of `comp` and moves the round to `status`. Returns the
/// round number and the game ids.
async fn fill_round(
    app: &TestApp,
    comp: i64,
    number: i32,
    games_: Vec<GameSpec<'_>>,
    status: &str,
) -> (i32, Vec<i64>) {
    let games_: Vec<OwnedSpec> = games_
        .into_iter()
        .map(|(bd, n, w, b, r)| (bd, n, w, b, r.map(str::to_string)))
        .collect();
    let status = status.to_string();
    app.with_conn(move |c| {
        use clubcomp::services::rounds;
        let round = rounds::load(c, clubcomp::ids::CompetitionId(comp), number).unwrap();
        let mut ids = Vec::new();
        for (board, game_no, w, b, res) in games_ {
            let id: i64 = diesel::insert_into(games::table)
                .values(&NewGame {
                    round_id: round.id,
                    board,
                    game_no,
                    white_id: Some(PlayerId(w)),
                    black_id: b.map(PlayerId),
                    result: if b.is_none() {
                        Some(clubcomp_core::vocab::ResultCode::Bye)
                    } else {
                        res.map(|r| r.parse().expect("a result code"))
                    },
                    termination: None,
                    move_count: None,
                    version: 1,
                    updated_at: clubcomp_core::test_store::now_utc(),
                })
                .returning(games::id)
                .get_result(c)
                .unwrap();
            ids.push(id);
        }
        let order = ["planned", "paired", "published", "completed"];
        let target = order.iter().position(|s| *s == status).unwrap();
        for k in 0..target {
            rounds::transition(
                c,
                &round,
                order[k].parse().unwrap(),
                order[k + 1].parse().unwrap(),
            )
            .unwrap();
        }
        (number, ids)
    })
    .await
}

/// Marks `players` present at round `number` (200), as `token` (a leader or an arbiter).
pub async fn check_in_all(app: &TestApp, token: &str, comp: i64, number: i64, players: &[i64]) {
    let marks: Vec<Value> = players
        .iter()
        .map(|x| json!({"player_id": x, "mark": "present"}))
        .collect();
    let r = app
        .post(
            &paths::check_ins(comp, number),
            Some(token),
            json!({ "marks": marks }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

/// Records an attendance action for a player in round `number`.
pub async fn attendance(app: &TestApp, comp: i64, number: i32, player: i64, action: &str) {
    let change = NewAttendance {
        round_id: RoundId(0),
        player_id: PlayerId(player),
        action: action.parse().unwrap(),
        channel: ChangeChannel::Email,
        recorded_by: "test".into(),
        at: clubcomp_core::test_store::now_utc(),
        note: None,
    };
    record_attendance(app, comp, number, change).await
}

/// Records a sign-off of a player for round `number` with force majeure (absent with notice)
/// and the note `note`, as the leader.
pub async fn signed_off(app: &TestApp, comp: i64, number: i32, player: i64, note: &str) {
    let change = NewAttendance {
        round_id: RoundId(0),
        player_id: PlayerId(player),
        action: ChangeAction::ForceMajeure,
        channel: ChangeChannel::Phone,
        recorded_by: "leader:test".into(),
        at: clubcomp_core::test_store::now_utc(),
        note: Some(note.to_string()),
    };
    record_attendance(app, comp, number, change).await
}

/// Stores `change` for round `number` of `comp` and raises the competition's stamp, as the
/// attendance service does.
async fn record_attendance(app: &TestApp, comp: i64, number: i32, change: NewAttendance) {
    app.with_conn(move |c| {
        let round = clubcomp::services::rounds::load(c, clubcomp::ids::CompetitionId(comp), number)
            .unwrap();
        diesel::insert_into(clubcomp_core::test_store::schema::attendance::table)
            .values(&NewAttendance {
                round_id: round.id,
                ..change
            })
            .execute(c)
            .unwrap();
        clubcomp_core::test_store::stamps::touch_now(
            c,
            clubcomp_core::test_store::stamps::Scope::Competition(clubcomp::ids::CompetitionId(
                comp,
            )),
        )
        .unwrap();
    })
    .await
}

/// Moves round `number` from `from` to `to`.
pub async fn advance(app: &TestApp, comp: i64, number: i32, from: &str, to: &str) {
    let (from, to) = (from.to_string(), to.to_string());
    app.with_conn(move |c| {
        let round = clubcomp::services::rounds::load(c, clubcomp::ids::CompetitionId(comp), number)
            .unwrap();
        clubcomp::services::rounds::transition(
            c,
            &round,
            from.parse().unwrap(),
            to.parse().unwrap(),
        )
        .unwrap();
    })
    .await
}

/// A round date far ahead (Friday 2 January 2099), whose deadlines have not passed.
pub const FUTURE: &str = "2099-01-02";

/// Adds a round on `date`.
pub async fn add_round(app: &TestApp, leader: &str, cid: i64, date: &str) -> i64 {
    let r = app.create_round(leader, cid, json!({"date": date})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    r.body["number"].as_i64().unwrap()
}

/// Row counts of games, attendance and audit entries, and the rounds' statuses.
pub async fn state_of(app: &TestApp) -> (i64, i64, i64, Vec<String>) {
    app.with_conn(|c| {
        use clubcomp_core::test_store::schema::*;
        use diesel::prelude::*;
        (
            games::table.count().get_result::<i64>(c).unwrap(),
            attendance::table.count().get_result::<i64>(c).unwrap(),
            audit_log::table.count().get_result::<i64>(c).unwrap(),
            rounds::table
                .order(rounds::id)
                .select(rounds::status)
                .load::<String>(c)
                .unwrap(),
        )
    })
    .await
}

/// One stored game: (board, game_no, white, black, result).
pub type Row = (i64, i64, i64, Option<i64>, Option<String>);

/// (board, game_no, white, black, result) of the round's games as the leader sees them.
pub fn boards(round: &Value) -> Vec<Row> {
    round["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["board"].as_i64().unwrap(),
                g["game_no"].as_i64().unwrap(),
                g["white"]["id"].as_i64().unwrap(),
                g["black"]["id"].as_i64(),
                g["result"].as_str().map(str::to_string),
            )
        })
        .collect()
}

/// Sets results directly (the results API belongs to another part) and completes the round.
pub async fn finish_round(app: &TestApp, leader: &str, cid: i64, n: i64, results: &[&str]) {
    let r = app.publish_round(leader, cid, n).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let res: Vec<String> = results.iter().map(|s| s.to_string()).collect();
    app.with_conn(move |c| {
        use clubcomp_core::test_store::schema::{games, rounds};
        use diesel::prelude::*;
        let rid: i64 = rounds::table
            .filter(rounds::competition_id.eq(cid))
            .filter(rounds::number.eq(n as i32))
            .select(rounds::id)
            .first(c)
            .unwrap();
        let ids: Vec<i64> = games::table
            .filter(games::round_id.eq(rid))
            .filter(games::black_id.is_not_null())
            .order((games::board, games::game_no))
            .select(games::id)
            .load(c)
            .unwrap();
        assert_eq!(ids.len(), res.len());
        for (id, r) in ids.into_iter().zip(res) {
            diesel::update(games::table.find(id))
                .set(games::result.eq(Some(r)))
                .execute(c)
                .unwrap();
        }
    })
    .await;
    let r = app.complete_round(leader, cid, n).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

/// A season with players A–D, a completed winter Keizer half of one evening and the summer
/// half seeded from it (not played yet): `(season, [a, b, c, d], summer)`.
pub async fn summer_of_four(app: &TestApp, leader: &str) -> (i64, [i64; 4], i64) {
    let Fx {
        season,
        comp: winter,
        players: ps,
    } = CompetitionBuilder::keizer()
        .set("name", "W")
        .players(&["A", "B", "C", "D"])
        .create(app, leader)
        .await;
    let [a, b, c, d] = ps[..] else { panic!() };
    // winter: R0 [a60 b59 c58 d57]: b beats a, c beats d: b 60, c 57, a 5, d 5 → [b c a d]:
    // b = 58, c = 57 → fixed. Final order b, c, a, d.
    round(
        app,
        leader,
        winter,
        vec![(a, Some(b), Some("0-1")), (c, Some(d), Some("1-0"))],
        "completed",
    )
    .await;
    let summer = CompetitionBuilder::new(
        json!({"name": "S", "kind": "keizer", "half": "summer", "seeded_from": winter}),
    )
    .in_season(season)
    .entrants(&ps)
    .create(app, leader)
    .await
    .comp;
    // the summer half starts in the winter's final order
    let r = app.standings(summer).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(ids(&r.body["keizer"]["rows"]), [b, c, a, d]);
    (season, [a, b, c, d], summer)
}

/// Plays the summer half of [`summer_of_four`] (c and b win: final order c, b, a, d) and
/// creates the season's playoffs (201).
pub async fn playoffs_of_four(
    app: &TestApp,
    leader: &str,
    season: i64,
    [a, b, c, d]: [i64; 4],
    summer: i64,
) -> Resp {
    // summer: [b60 c59 a58 d57]: c beats a, b beats d: c 58, b 57 → [c b a d] → fixed
    round(
        app,
        leader,
        summer,
        vec![(c, Some(a), Some("1-0")), (b, Some(d), Some("1-0"))],
        "completed",
    )
    .await;
    let url = paths::season_playoffs(season);
    let r = app.post(&url, Some(leader), json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    r
}

/// A Keizer winter of four fixed members with its first round paired and published:
/// `(leader, arbiter, competition, the round's game ids)`.
pub async fn published_evening(app: &TestApp) -> (String, String, i64, Vec<i64>) {
    let club = ClubBuilder::new().build(app).await;
    let cid =
        CompetitionBuilder::new(json!({"name": "Keizer", "kind": "keizer", "half": "winter"}))
            .members_of("fixed", &["Anna", "Bert", "Cor", "Dirk"])
            .create(app, &club.leader)
            .await
            .comp;
    add_round(app, &club.leader, cid, FUTURE).await;
    let r = app.generate_pairing(&club.leader, cid, 1, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let r = app.publish_round(&club.leader, cid, 1).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let games: Vec<i64> = ints(&r.body["games"], "id");
    assert_eq!(games.len(), 2, "four players, two boards");
    (club.leader, club.arbiter, cid, games)
}
