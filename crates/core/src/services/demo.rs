//! `clubcomp demo`: a realistic club to look at (players with KNSB ratings, a leader, an
//! arbiter and a member account) and a season 2026-2027 in play: its generated calendar, a
//! Keizer winter half with all 60 players (five evenings paired by the Keizer pairing engine
//! and completed, the sixth published), a rapid Double-Swiss with two completed rounds and a
//! 12-player draughts round robin (Berger schedule) with all results. Deterministic: fixed
//! seeds (ChaCha8) for presence and results, the engines' own seeds for byes; the same data
//! on every run. Idempotent: re-running adds nothing twice (the season is created once, with
//! everything in it, in one transaction).

use crate::error::ApiResult;
use crate::ids::{CompetitionId, PlayerId, RoundId, SeasonId};
use crate::services::ratings::{RatingList, RatingRow, push};
use crate::store::DbConn;
use crate::store::models::competition::{
    Competition, Evening, NewAttendance, NewCompetition, NewEntrant, NewGame, NewRound, NewSeason,
    Round, Season,
};
use crate::store::models::players::{self, NewPlayer, Player};
use crate::store::models::users;
use crate::store::now_utc;
use crate::store::stamps::Scope;
use clubcomp_engine::{
    CompetitionKind, Discipline, EveningKind, Half as VHalf, Membership, PairingSystem,
};
use diesel::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const FIRST: [&str; 20] = [
    "Anna", "Bram", "Carla", "Daan", "Eva", "Floor", "Gijs", "Hanna", "Ivo", "Jasmijn", "Koen",
    "Lotte", "Milan", "Noor", "Olaf", "Pien", "Quinten", "Roos", "Sem", "Tess",
];
const LAST: [&str; 10] = [
    "de Vries", "Jansen", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder", "de Groot",
    "Bos",
];

/// Seeds the demo club; returns a summary with the demo logins.
pub fn seed(conn: &mut DbConn) -> ApiResult<String> {
    conn.transaction(|c| {
        let mut created = 0;
        let mut rows = Vec::new();
        for i in 0..60usize {
            let name = format!("{} {}", FIRST[i % 20], LAST[(i * 7 + i / 20) % 10]);
            let knsb = format!("84{:05}", 1000 + i);
            // ratings from about 2150 down to 1050, a few unrated
            let rating = 2150 - (i as i64) * 18 - ((i as i64 * 37) % 23);
            let membership = if i % 7 == 6 {
                Membership::Flexible
            } else {
                Membership::Fixed
            };
            if players::by_knsb_numbers(c, std::slice::from_ref(&knsb))?.is_empty() {
                let now = now_utc();
                players::insert(
                    c,
                    &NewPlayer {
                        name,
                        knsb_number: Some(knsb.clone()),
                        fide_id: None,
                        membership: membership.into(),
                        active: true,
                        email: Some(format!("speler{i}@club.example")),
                        phone: None,
                        version: 1,
                        created_at: now,
                        updated_at: now,
                    },
                )?;
                created += 1;
            }
            if i % 13 != 12 {
                rows.push(RatingRow {
                    knsb_number: Some(knsb),
                    fide_id: None,
                    value: rating,
                });
            }
        }
        let rep = push(
            c,
            &RatingList {
                source: "KNSB".into(),
                list_date: "2026-09-01".into(),
                ratings: rows,
            },
        )?;
        let mut accounts = Vec::new();
        for (email, role) in [
            ("admin@club.example", "admin"),
            ("leader@club.example", "leader"),
            ("arbiter@club.example", "arbiter"),
            ("member@club.example", "member"),
        ] {
            if users::by_email(c, email)?.is_none() {
                crate::services::users::create_user(c, email, "demo-password", &[role.into()])?;
            }
            accounts.push(format!("  {email} / demo-password ({role})"));
        }
        let season = seed_season(c)?;
        Ok(format!(
            "demo club: {created} players created, {} ratings inserted, {} unchanged\n{season}\nlogins:\n{}",
            rep.inserted,
            rep.unchanged,
            accounts.join("\n")
        ))
    })
}

/// The demo season's name.
pub const SEASON: &str = "2026-2027";

/// Made-up KNSB round dates of the season (Saturdays) and the closed Fridays.
const KNSB_ROUNDS: [&str; 9] = [
    "2026-09-26",
    "2026-10-17",
    "2026-11-07",
    "2026-11-28",
    "2026-12-19",
    "2027-01-30",
    "2027-02-20",
    "2027-03-13",
    "2027-04-10",
];
const CLOSED: [&str; 1] = ["2026-12-25"];

/// Keizer evenings completed, and the one after them published (paired, no results yet).
const KEIZER_COMPLETED: usize = 5;
/// Rapid rounds completed.
const RAPID_ROUNDS: usize = 2;
/// Players of the rapid.
const RAPID_PLAYERS: usize = 21;

const DRAUGHTS_PLAYERS: [&str; 12] = [
    "Wouter Kuipers",
    "Ruben Dekker",
    "Sanne Hoekstra",
    "Jelle Postma",
    "Marit Veenstra",
    "Thijs Brouwer",
    "Fenna Kok",
    "Jorrit Dijkstra",
    "Ilse Prins",
    "Hidde Wijnja",
    "Lieke Sikkema",
    "Bart Boersma",
];

fn date(s: &str) -> chrono::NaiveDate {
    chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap_or_default()
}

/// A chess result for White against Black from the rating difference (deterministic draw
/// from `rng`): about 50 % ± 1 % per 20 points for White, a fifth of the games drawn.
fn chess_result(rng: &mut ChaCha8Rng, white: Option<i32>, black: Option<i32>) -> &'static str {
    let diff = white.unwrap_or(1200) - black.unwrap_or(1200);
    let expect = (50 + diff / 20).clamp(10, 90);
    let r: i32 = rng.random_range(0..100);
    if r < expect - 10 {
        "1-0"
    } else if r < expect + 10 {
        "½-½"
    } else {
        "0-1"
    }
}

fn insert_competition(c: &mut DbConn, new: NewCompetition) -> ApiResult<Competition> {
    use crate::store::schema::competitions as cm;
    Ok(diesel::insert_into(cm::table)
        .values(&new)
        .returning(cm::all_columns)
        .get_result::<Competition>(c)?)
}

#[allow(clippy::too_many_arguments)]
fn competition(
    season_id: SeasonId,
    name: &str,
    kind: CompetitionKind,
    discipline: Discipline,
    system: Option<PairingSystem>,
    half: Option<VHalf>,
    time_control: &serde_json::Value,
    rounds_planned: Option<i32>,
) -> NewCompetition {
    use crate::services::competitions::{default_rules, default_tiebreaks};
    let now = now_utc();
    NewCompetition {
        season_id,
        name: name.into(),
        kind: kind.into(),
        discipline: discipline.into(),
        system: system.map(String::from),
        half: half.map(String::from),
        seeded_from: None,
        params: "{}".into(),
        tiebreaks: serde_json::to_string(&default_tiebreaks(Some(kind), Some(discipline)))
            .unwrap_or_else(|_| "[]".into()),
        time_control: time_control.to_string(),
        rules: default_rules(Some(kind), system, Some(discipline)).to_string(),
        rounds_planned,
        version: 1,
        created_at: now,
        updated_at: now,
    }
}

fn insert_entrant(
    c: &mut DbConn,
    competition_id: CompetitionId,
    player_id: PlayerId,
    seed: i32,
    rating: Option<i32>,
) -> ApiResult<()> {
    use crate::store::schema::entrants;
    diesel::insert_into(entrants::table)
        .values(&NewEntrant {
            competition_id,
            player_id,
            seed,
            rating,
            joins_at: 1,
            excused_before: 0,
            created_at: now_utc(),
        })
        .execute(c)?;
    Ok(())
}

fn insert_round(
    c: &mut DbConn,
    competition_id: CompetitionId,
    number: i32,
    evening: Option<&Evening>,
    date: Option<chrono::NaiveDate>,
    status: &str,
    pairing_meta: Option<String>,
) -> ApiResult<Round> {
    use crate::store::schema::rounds;
    Ok(diesel::insert_into(rounds::table)
        .values(&NewRound {
            competition_id,
            number,
            evening_id: evening.map(|e| e.id),
            date: evening.map(|e| e.date).or(date),
            status: status.into(),
            pairing_meta,
            version: 1,
            updated_at: now_utc(),
        })
        .returning(rounds::all_columns)
        .get_result::<Round>(c)?)
}

fn insert_game(
    c: &mut DbConn,
    round_id: RoundId,
    board: i32,
    game_no: i32,
    white: Option<PlayerId>,
    black: Option<PlayerId>,
    result: Option<&str>,
) -> ApiResult<()> {
    use crate::store::schema::games;
    diesel::insert_into(games::table)
        .values(&NewGame {
            round_id,
            board,
            game_no,
            white_id: white,
            black_id: black,
            result: result.map(str::to_string),
            termination: None,
            move_count: None,
            version: 1,
            updated_at: now_utc(),
        })
        .execute(c)?;
    Ok(())
}

/// Creates the demo season with everything in it, once; a summary line.
fn seed_season(c: &mut DbConn) -> ApiResult<String> {
    use crate::store::schema::seasons as s;
    if s::table
        .filter(s::name.eq(SEASON))
        .count()
        .get_result::<i64>(c)?
        > 0
    {
        return Ok(format!("season {SEASON}: already there"));
    }
    let season = diesel::insert_into(s::table)
        .values(&NewSeason {
            name: SEASON.into(),
            // Saturday 5 September 2026, the Schaak-Off
            opening_date: date("2026-09-05"),
            created_at: now_utc(),
        })
        .returning(s::all_columns)
        .get_result::<Season>(c)?;
    let body = crate::services::calendar::GenerateCalendar {
        knsb_round_dates: KNSB_ROUNDS.iter().map(|d| d.to_string()).collect(),
        closed_dates: CLOSED.iter().map(|d| d.to_string()).collect(),
        extra_rapid_dates: vec![],
        season_end: None,
        replace: false,
    };
    let input = crate::services::calendar::calendar_input(season.opening_date, &body)?;
    let rows = crate::services::calendar::proposed_rows(season.id, &input)?;
    let evenings = crate::services::calendar::store_calendar(c, season.id, &rows, false)?;

    // the club's 60 players, in the order the demo created them
    let knsb: Vec<String> = (0..60).map(|i| format!("84{:05}", 1000 + i)).collect();
    let mut club = players::by_knsb_numbers(c, &knsb)?;
    club.sort_by_key(|p| p.knsb_number.clone());
    let keizer = seed_keizer(c, season.id, &club, &evenings)?;
    let rapid = seed_rapid(c, season.id, &club, &evenings)?;
    let draughts = seed_draughts(c, season.id)?;
    Ok(format!(
        "season {SEASON}: {} evenings; {keizer}; {rapid}; {draughts}",
        evenings.len()
    ))
}

/// The Keizer winter half: all 60 players entered; evenings 1–5 paired with
/// `pair_evening`, played and completed, evening 6 published, 7–10 planned.
fn seed_keizer(
    c: &mut DbConn,
    season_id: SeasonId,
    club: &[Player],
    evenings: &[Evening],
) -> ApiResult<String> {
    use crate::services::competitions::TimeControl;
    use clubcomp_engine::keizer::{self as ks, KeizerResult};
    use clubcomp_engine::keizer::{Meeting, PairingInput, RankedPlayer, pair_evening};
    use clubcomp_engine::{Colour, Half};
    let tc = serde_json::to_value(TimeControl::club_default()).unwrap_or_default();
    let comp = insert_competition(
        c,
        competition(
            season_id,
            "Keizer winter 2026",
            CompetitionKind::Keizer,
            Discipline::Chess,
            None,
            Some(VHalf::Winter),
            &tc,
            Some(10),
        ),
    )?;
    let (source, on) = crate::services::competitions::seed_rating(&comp, date("2026-09-05"));
    // entrants in order of entry; the seed order (docs/rules/keizer.md#entrants) sorts them by rating
    let mut entrants = Vec::new();
    for (i, p) in club.iter().enumerate() {
        let rating = crate::store::models::ratings::on_date(c, p.id, source, on)?.map(|r| r.value);
        insert_entrant(c, comp.id, p.id, i as i32 + 1, rating)?;
        entrants.push((p, rating, i));
    }
    entrants.sort_by(|a, b| match (a.1, b.1) {
        (Some(x), Some(y)) => y.cmp(&x).then(a.2.cmp(&b.2)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.2.cmp(&b.2),
    });
    let key = |id: PlayerId| format!("p{id}");
    let by_key: std::collections::HashMap<String, (PlayerId, Option<i32>, bool)> = entrants
        .iter()
        .map(|(p, r, _)| (key(p.id), (p.id, *r, p.membership == Membership::Flexible)))
        .collect();
    let engine = ks::Competition {
        players: entrants
            .iter()
            .map(|(p, r, _)| ks::Entrant {
                id: key(p.id),
                rating: *r,
                joins_at: 1,
                withdrawn_from: None,
            })
            .collect(),
        ..Default::default()
    };
    let mut engine = engine;
    let winter: Vec<&Evening> = evenings
        .iter()
        .filter(|e| e.kind == EveningKind::Keizer && e.half == Some(VHalf::Winter))
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(20_260_911);
    let mut colours: std::collections::HashMap<String, Vec<Colour>> = Default::default();
    let mut byes: std::collections::HashMap<String, u32> = Default::default();
    let mut seen: std::collections::HashSet<String> = Default::default();
    let mut history: Vec<Meeting> = Vec::new();
    let mut ranking: Vec<String> = engine.players.iter().map(|e| e.id.clone()).collect();
    for (k, ev) in winter.iter().enumerate() {
        let number = k as u32 + 1;
        if k > KEIZER_COMPLETED {
            insert_round(c, comp.id, number as i32, Some(ev), None, "planned", None)?;
            continue;
        }
        // presence: fixed players come 9 times in 10, flexible players 4 in 10
        let mut present = std::collections::HashMap::new();
        for id in &ranking {
            let flexible = by_key[id].2;
            let p = if flexible { 40 } else { 90 };
            present.insert(id.clone(), rng.random_range(0..100) < p);
        }
        let input = PairingInput {
            evening: number,
            half: Half::Winter,
            bye_seed: 1000 + u64::from(number),
            ranking: ranking
                .iter()
                .map(|id| RankedPlayer {
                    id: id.clone(),
                    rating: by_key[id].1,
                    present: present[id],
                    first_time: by_key[id].2 && !seen.contains(id),
                    colours: colours.get(id).cloned().unwrap_or_default(),
                    byes_this_half: byes.get(id).copied().unwrap_or(0),
                })
                .collect(),
            history: history.clone(),
            rules: Default::default(),
            forbidden: Vec::new(),
        };
        let pairing = pair_evening(&input)
            .map_err(|e| crate::error::ApiError::Internal(format!("demo pairing: {e}")))?;
        let published = k == KEIZER_COMPLETED;
        let meta =
            serde_json::json!({"engine": "keizer", "bye_seed": input.bye_seed, "pairing": pairing});
        let round = insert_round(
            c,
            comp.id,
            number as i32,
            Some(ev),
            None,
            if published { "published" } else { "completed" },
            Some(meta.to_string()),
        )?;
        let mut played = ks::KeizerEvening::default();
        for b in &pairing.boards {
            let (w, bl) = (&by_key[&b.white], &by_key[&b.black]);
            let result = (!published).then(|| chess_result(&mut rng, w.1, bl.1));
            insert_game(
                c,
                round.id,
                b.board as i32,
                1,
                Some(w.0),
                Some(bl.0),
                result,
            )?;
            if let Some(r) = result {
                played.games.push(ks::KeizerGame {
                    white: b.white.clone(),
                    black: b.black.clone(),
                    result: match r {
                        "1-0" => KeizerResult::WhiteWins,
                        "0-1" => KeizerResult::BlackWins,
                        _ => KeizerResult::Draw,
                    },
                });
                colours
                    .entry(b.white.clone())
                    .or_default()
                    .push(Colour::White);
                colours
                    .entry(b.black.clone())
                    .or_default()
                    .push(Colour::Black);
                history.push(Meeting {
                    a: b.white.clone(),
                    b: b.black.clone(),
                    evening: number,
                    half: Half::Winter,
                });
            }
        }
        if let Some(bye) = &pairing.bye {
            let p = by_key[&bye.player].0;
            // as the pairing stores it: the bye's result is set when the round is paired, so
            // the evening in play can be completed once its games have results
            insert_game(c, round.id, bye.board as i32, 1, Some(p), None, Some("bye"))?;
            if !published {
                played.byes.push(bye.player.clone());
                *byes.entry(bye.player.clone()).or_default() += 1;
            }
        }
        // absent fixed players signed off (excused) 3 times in 4, flexible ones stayed away
        for id in &ranking {
            if present[id] {
                seen.insert(id.clone());
                continue;
            }
            if by_key[id].2 {
                continue;
            }
            let excused = rng.random_range(0..4) < 3;
            if excused {
                diesel::insert_into(crate::store::schema::attendance::table)
                    .values(&NewAttendance {
                        round_id: round.id,
                        player_id: by_key[id].0,
                        action: "sign_off".into(),
                        channel: "email".into(),
                        recorded_by: "leader@club.example".into(),
                        at: ev
                            .date
                            .pred_opt()
                            .unwrap_or(ev.date)
                            .and_hms_opt(12, 0, 0)
                            .unwrap_or_default(),
                        note: None,
                    })
                    .execute(c)?;
            }
            if !published {
                if excused {
                    played.excused.push(id.clone());
                } else {
                    played.unexcused.push(id.clone());
                }
            }
        }
        if published {
            continue;
        }
        engine.evenings.push(played);
        // the ranking after this evening orders the next pairing (docs/rules/keizer.md#pairing)
        let standings = ks::compute_keizer(&engine)
            .map_err(|e| crate::error::ApiError::Internal(format!("demo standings: {e}")))?;
        if let Some(last) = standings.last() {
            ranking = last.standings.iter().map(|r| r.id.clone()).collect();
        }
    }
    crate::store::stamps::touch(c, Scope::Competition(comp.id))?;
    Ok(format!(
        "Keizer winter: 60 entrants, {KEIZER_COMPLETED} evenings completed, 1 published"
    ))
}

/// The rapid (Double-Swiss): 21 players, two rounds paired by the engine and completed on the
/// first two rapid evenings.
fn seed_rapid(
    c: &mut DbConn,
    season_id: SeasonId,
    club: &[Player],
    evenings: &[Evening],
) -> ApiResult<String> {
    use clubcomp_engine::double_swiss::{self as ds, DoubleSwissResult as G};
    let tc = serde_json::json!({"periods": [{"minutes": 25}], "increment_seconds": 0, "increment_from_move": 1});
    let comp = insert_competition(
        c,
        competition(
            season_id,
            "Rapid winter 2026",
            CompetitionKind::Swiss,
            Discipline::Chess,
            Some(PairingSystem::DoubleSwiss),
            Some(VHalf::Winter),
            &tc,
            Some(9),
        ),
    )?;
    // every other club player, strongest first: pairing numbers 1 … 21
    let field: Vec<&Player> = club.iter().step_by(2).take(RAPID_PLAYERS).collect();
    for (i, p) in field.iter().enumerate() {
        insert_entrant(c, comp.id, p.id, i as i32 + 1, None)?;
    }
    let rapid: Vec<&Evening> = evenings
        .iter()
        .filter(|e| e.kind == EveningKind::Rapid)
        .collect();
    let mut state = ds::State {
        players: (1..=field.len() as u32)
            .map(|id| ds::DoubleSwissPlayer {
                id,
                name: String::new(),
                rating: None,
            })
            .collect(),
        rounds: vec![],
        absent: vec![],
    };
    let mut rng = ChaCha8Rng::seed_from_u64(20_260_925);
    let game = |rng: &mut ChaCha8Rng| match rng.random_range(0..10) {
        0..=3 => (G::WhiteWins, "1-0"),
        4..=6 => (G::BlackWins, "0-1"),
        _ => (G::Draw, "½-½"),
    };
    for k in 0..RAPID_ROUNDS {
        let next = ds::pair_next_round(&state)
            .map_err(|e| crate::error::ApiError::Internal(format!("demo rapid: {e}")))?;
        let round = insert_round(
            c,
            comp.id,
            next.round as i32,
            rapid.get(k).copied(),
            None,
            "completed",
            Some(serde_json::json!({"engine": "double_swiss", "pairing": next}).to_string()),
        )?;
        let id = |tpn: u32| field[tpn as usize - 1].id;
        let mut rec = ds::RoundRecord::default();
        for p in &next.pairings {
            let (g1, r1) = game(&mut rng);
            let (g2, r2) = game(&mut rng);
            insert_game(
                c,
                round.id,
                p.board as i32,
                1,
                Some(id(p.white)),
                Some(id(p.black)),
                Some(r1),
            )?;
            insert_game(
                c,
                round.id,
                p.board as i32,
                2,
                Some(id(p.black)),
                Some(id(p.white)),
                Some(r2),
            )?;
            rec.matches.push(ds::Match {
                white: p.white,
                black: p.black,
                game1: g1,
                game2: g2,
            });
        }
        if let Some(b) = next.bye {
            let board = next.pairings.len() as i32 + 1;
            insert_game(c, round.id, board, 1, Some(id(b)), None, Some("bye"))?;
            rec.byes.push(ds::Bye {
                player: b,
                kind: ds::ByeKind::Pairing,
            });
        }
        state.rounds.push(rec);
    }
    crate::store::stamps::touch(c, Scope::Competition(comp.id))?;
    Ok(format!(
        "rapid: {RAPID_PLAYERS} players, {RAPID_ROUNDS} rounds completed"
    ))
}

/// A 12-player draughts round robin on the Berger schedule, all 11 rounds played.
fn seed_draughts(c: &mut DbConn, season_id: SeasonId) -> ApiResult<String> {
    let tc = serde_json::json!({"periods": [{"moves": 50, "minutes": 120}, {"moves": 25, "minutes": 60}, {"minutes": 0}],
        "increment_seconds": 20, "increment_from_move": 76});
    let comp = insert_competition(
        c,
        competition(
            season_id,
            "NK dammen 2027",
            CompetitionKind::RoundRobin,
            Discipline::Draughts,
            Some(PairingSystem::Single),
            None,
            &tc,
            Some(11),
        ),
    )?;
    let mut ids = Vec::new();
    for (i, name) in DRAUGHTS_PLAYERS.iter().enumerate() {
        let now = now_utc();
        let p = players::insert(c, &NewPlayer::guest((*name).into(), now))?;
        insert_entrant(c, comp.id, p.id, i as i32 + 1, None)?;
        ids.push(p.id);
    }
    let table = clubcomp_engine::round_robin::berger_table(ids.len() as u32)
        .map_err(|e| crate::error::ApiError::Internal(format!("demo schedule: {e}")))?;
    let mut rng = ChaCha8Rng::seed_from_u64(20_270_403);
    let first = date("2027-04-03");
    for (r, boards) in table.iter().enumerate() {
        let round = insert_round(
            c,
            comp.id,
            r as i32 + 1,
            None,
            first.checked_add_days(chrono::Days::new(r as u64)),
            "completed",
            None,
        )?;
        for (b, board) in boards.iter().enumerate() {
            let result = match rng.random_range(0..20) {
                0..=5 => "2-0",
                6..=9 => "0-2",
                10..=17 => "1-1",
                18 => "1+-1-",
                _ => "1--1+",
            };
            insert_game(
                c,
                round.id,
                b as i32 + 1,
                1,
                Some(ids[board.white as usize - 1]),
                Some(ids[board.black as usize - 1]),
                Some(result),
            )?;
        }
    }
    crate::store::stamps::touch(c, Scope::Competition(comp.id))?;
    Ok(format!(
        "draughts: {} players, {} rounds completed",
        ids.len(),
        table.len()
    ))
}
