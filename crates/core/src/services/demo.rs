//! `clubcomp demo`: a realistic club to look at (players with KNSB ratings and addresses at
//! `club.example`, a leader, an arbiter and a member account linked to a player) and a season
//! in play around the demo's day, by default today in the club's time zone
//! (docs/decisions/0380-demo-around-today.md): its generated calendar; a Keizer half with all
//! 60 players whose evenings before the day are paired by the Keizer pairing engine and
//! completed, the first on or after it published and the later ones planned (after the
//! winter half, the winter half completed and the summer half in play); a rapid Double-Swiss
//! on the rapid evenings and a 12-player draughts round robin (Berger schedule, a round a week)
//! in the same way. Deterministic for a given day: fixed seeds (ChaCha8) for presence and
//! results, the engines' own seeds for byes. Idempotent: re-running adds nothing twice (the
//! season is created once, with everything in it, in one transaction).

mod dates;
mod draughts;
mod keizer;
mod rapid;

use crate::error::ApiResult;
use crate::ids::{CompetitionId, PlayerId, RoundId, SeasonId};
use crate::services::ratings::{RatingList, RatingRow, push};
use crate::services::users::DEMO_PASSWORD;
use crate::store::DbConn;
use crate::store::models::competition::{
    Competition, Evening, NewCompetition, NewEntrant, NewGame, NewRound, Round,
};
use crate::store::models::players::{self, NewPlayer};
use crate::store::models::users;
use crate::store::now_utc;
use crate::vocab::{ResultCode, RoundStatus};
use chrono::NaiveDate;
use clubcomp_engine::{CompetitionKind, Discipline, Half as VHalf, Membership, PairingSystem};
use diesel::prelude::*;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

const FIRST: [&str; 20] = [
    "Anna", "Bram", "Carla", "Daan", "Eva", "Floor", "Gijs", "Hanna", "Ivo", "Jasmijn", "Koen",
    "Lotte", "Milan", "Noor", "Olaf", "Pien", "Quinten", "Roos", "Sem", "Tess",
];
const LAST: [&str; 10] = [
    "de Vries", "Jansen", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder", "de Groot",
    "Bos",
];

/// The demo's accounts, each with [`DEMO_PASSWORD`].
const ACCOUNTS: [(&str, &str); 4] = [
    ("admin@club.example", "admin"),
    ("leader@club.example", "leader"),
    ("arbiter@club.example", "arbiter"),
    ("member@club.example", "member"),
];
/// The demo account linked to a player.
const MEMBER: &str = "member@club.example";

/// What the demo is built for.
#[derive(Debug, Clone)]
pub struct Demo {
    /// The demo's day: evenings before it are played, the first on or after it is published.
    pub today: NaiveDate,
    /// The bootstrap admin of the settings (e-mail, password), made as `serve` makes it, so
    /// that its password works whether the demo or the first start comes first.
    pub admin: Option<(String, String)>,
}

/// Seeds the demo club; returns a summary with the demo logins that work.
pub fn seed(conn: &mut DbConn, demo: &Demo) -> ApiResult<String> {
    conn.transaction(|c| {
        let (created, ratings) = seed_players(c)?;
        if let Some((email, password)) = &demo.admin {
            crate::services::users::bootstrap_admin(c, email, password)?;
        }
        let logins = logins(c, demo)?;
        let (season, member) = seed_season(c, demo.today)?;
        if let Some(player) = member {
            link_member(c, player)?;
        }
        Ok(format!(
            "demo club: {created} players created, {ratings}\n{season}\nlogins:\n{}",
            logins.join("\n")
        ))
    })
}

/// The 60 club players (once) and their KNSB ratings; how many players were created, and
/// what the rating list did.
fn seed_players(c: &mut DbConn) -> ApiResult<(usize, String)> {
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
            source: crate::vocab::RatingSource::Knsb.to_string(),
            list_date: "2026-09-01".into(),
            ratings: rows,
        },
    )?;
    Ok((
        created,
        format!(
            "{} ratings inserted, {} unchanged",
            rep.inserted, rep.unchanged
        ),
    ))
}

/// Makes the demo accounts that are missing; the lines of the logins that work: an account
/// made now or one that still holds its password, and the bootstrap admin when its password
/// from the settings is the account's.
fn logins(c: &mut DbConn, demo: &Demo) -> ApiResult<Vec<String>> {
    use crate::services::credentials::verify_password;
    let mut lines = Vec::new();
    let bootstrap = demo.admin.as_ref().map(|(e, _)| e.trim().to_lowercase());
    if let Some((email, password)) = &demo.admin {
        match users::by_email(c, email)? {
            Some(u) if verify_password(password, &u.password_hash) => lines.push(format!(
                "  {} / the BOOTSTRAP_ADMIN_PASSWORD (admin)",
                u.email
            )),
            _ => lines.push(format!(
                "  {} (admin): an existing account, its password unchanged",
                email.trim().to_lowercase()
            )),
        }
    }
    for (email, role) in ACCOUNTS {
        if bootstrap.as_deref() == Some(email) {
            continue;
        }
        let works = match users::by_email(c, email)? {
            None => {
                crate::services::users::create_user(c, email, DEMO_PASSWORD, &[role.into()])?;
                true
            }
            Some(u) => verify_password(DEMO_PASSWORD, &u.password_hash),
        };
        if works {
            lines.push(format!("  {email} / {DEMO_PASSWORD} ({role})"));
        } else {
            lines.push(format!(
                "  {email} ({role}): an existing account, its password unchanged"
            ));
        }
    }
    Ok(lines)
}

/// Links the demo member account to `player` when it is linked to none yet.
fn link_member(c: &mut DbConn, player: PlayerId) -> ApiResult<()> {
    crate::services::users::rows::link_player_if_unlinked(c, MEMBER, player)?;
    Ok(())
}

/// A chess result for White against Black from the rating difference (deterministic draw
/// from `rng`): about 50 % ± 1 % per 20 points for White, a fifth of the games drawn.
fn chess_result(rng: &mut ChaCha8Rng, white: Option<i32>, black: Option<i32>) -> ResultCode {
    let diff = white.unwrap_or(1200) - black.unwrap_or(1200);
    let expect = (50 + diff / 20).clamp(10, 90);
    let r: i32 = rng.random_range(0..100);
    if r < expect - 10 {
        ResultCode::WhiteWins
    } else if r < expect + 10 {
        ResultCode::DrawHalves
    } else {
        ResultCode::BlackWins
    }
}

fn insert_competition(c: &mut DbConn, new: NewCompetition) -> ApiResult<Competition> {
    crate::services::competitions::rows::insert_competition(c, &new)
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
    crate::services::competitions::rows::insert_entrant(
        c,
        &NewEntrant {
            competition_id,
            player_id,
            seed,
            rating,
            joins_at: 1,
            excused_before: 0,
            created_at: now_utc(),
        },
    )
}

fn insert_round(
    c: &mut DbConn,
    competition_id: CompetitionId,
    number: i32,
    evening: Option<&Evening>,
    date: Option<chrono::NaiveDate>,
    status: RoundStatus,
    pairing_meta: Option<String>,
) -> ApiResult<Round> {
    crate::services::round_rows::insert_round(
        c,
        &NewRound {
            competition_id,
            number,
            evening_id: evening.map(|e| e.id),
            date: evening.map(|e| e.date).or(date),
            status,
            pairing_meta,
            version: 1,
            updated_at: now_utc(),
        },
    )
}

fn insert_game(
    c: &mut DbConn,
    round_id: RoundId,
    board: i32,
    game_no: i32,
    white: Option<PlayerId>,
    black: Option<PlayerId>,
    result: Option<ResultCode>,
) -> ApiResult<()> {
    crate::services::round_rows::insert_game(
        c,
        &NewGame {
            round_id,
            board,
            game_no,
            white_id: white,
            black_id: black,
            result,
            termination: None,
            move_count: None,
            version: 1,
            updated_at: now_utc(),
        },
    )
}

/// Creates the demo season around `today` with everything in it, once; a summary line and
/// the player the member account is to be linked to.
fn seed_season(c: &mut DbConn, today: NaiveDate) -> ApiResult<(String, Option<PlayerId>)> {
    use crate::services::calendar::{GenerateCalendar, calendar_input, proposed_rows};
    use crate::store::schema::seasons as s;
    let input = |d: &dates::SeasonDates| {
        calendar_input(
            d.opening,
            &GenerateCalendar {
                knsb_round_dates: d.knsb_rounds.iter().map(|d| d.to_string()).collect(),
                closed_dates: d.closed.iter().map(|d| d.to_string()).collect(),
                extra_rapid_dates: vec![],
                season_end: None,
                replace: false,
            },
        )
    };
    // the season of the day, or the next one once its last Keizer evening is past
    let mut dates = dates::season(dates::season_year(today));
    let last_keizer = |d: &dates::SeasonDates| -> ApiResult<Option<NaiveDate>> {
        Ok(proposed_rows(SeasonId(0), &input(d)?)?
            .iter()
            .filter(|e| e.kind == clubcomp_engine::EveningKind::Keizer.as_str())
            .map(|e| e.date)
            .max())
    };
    if last_keizer(&dates)?.is_none_or(|d| d <= today) {
        dates = dates::season(dates::season_year(today) + 1);
    }
    if s::table
        .filter(s::name.eq(&dates.name))
        .count()
        .get_result::<i64>(c)?
        > 0
    {
        return Ok((format!("season {}: already there", dates.name), None));
    }
    let season = crate::services::seasons::create(c, dates.name.clone(), dates.opening)?;
    let rows = proposed_rows(season.id, &input(&dates)?)?;
    let evenings = crate::services::calendar::store_calendar(c, season.id, &rows, false)?;

    // the club's 60 players, in the order the demo created them
    let knsb: Vec<String> = (0..60).map(|i| format!("84{:05}", 1000 + i)).collect();
    let mut club = players::by_knsb_numbers(c, &knsb)?;
    club.sort_by_key(|p| p.knsb_number.clone());
    let winter = keizer::seed_half(c, season.id, &club, &evenings, VHalf::Winter, today)?;
    let mut lines = vec![winter.summary];
    let mut member = winter.member;
    let summer_begun = evenings
        .iter()
        .filter(|e| e.kind == clubcomp_engine::EveningKind::Keizer && e.half == Some(VHalf::Winter))
        .all(|e| e.date < today);
    if summer_begun {
        let summer = keizer::seed_half(c, season.id, &club, &evenings, VHalf::Summer, today)?;
        lines.push(summer.summary);
        member = summer.member.or(member);
    }
    lines.push(rapid::seed(c, season.id, &club, &evenings, today)?);
    lines.push(draughts::seed(c, season.id, today)?);
    let member = member.or_else(|| {
        club.iter()
            .find(|p| p.membership == Membership::Fixed)
            .map(|p| p.id)
    });
    Ok((
        format!(
            "season {}: {} evenings; {}",
            dates.name,
            evenings.len(),
            lines.join("; ")
        ),
        member,
    ))
}
