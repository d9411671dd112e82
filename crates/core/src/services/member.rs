//! The member page: what a member linked to a player sees first (`GET /me`): their player,
//! their next evening and their game on it, their attendance for the rounds to come of every
//! competition they are in, and their last results. Only the member's own player is shown;
//! of other players, only names and ratings.

use crate::error::ApiResult;
use crate::ids::PlayerId;
use crate::services::evenings::{self, BoardPlayer, Which};
use crate::services::player_games::{self, GameFilter, PlayerGame};
use crate::services::{attendance, calendar, competitions};
use crate::store::DbConn;
use crate::store::models::competition::Round;
use crate::store::schema::{competitions as cm, entrants as en, rounds as rd};
use crate::vocab::RoundStatus;
use chrono::NaiveDate;
use diesel::prelude::*;
use serde::Serialize;
use utoipa::ToSchema;

/// The most rounds to come the attendance list shows.
pub const COMING_ROUNDS: usize = 20;
/// The most results the page shows.
pub const LAST_RESULTS: usize = 10;

/// The member's player.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MemberPlayer {
    /// Player id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// `fixed`, `flexible` or `guest`.
    #[schema(value_type = crate::schemas::Membership)]
    pub membership: clubcomp_engine::Membership,
}

/// The next evening (the first on or after today that is not closed).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct NextEvening {
    /// Evening id (`GET /evenings/{id}` has the whole evening).
    pub id: i64,
    /// Date.
    pub date: NaiveDate,
    /// Local start time.
    pub start_time: String,
    /// Kind of evening.
    #[schema(value_type = crate::schemas::EveningKind)]
    pub kind: clubcomp_engine::EveningKind,
}

/// The member's game on the next evening, once its round is published.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct NextGame {
    /// The competition.
    pub competition_id: i64,
    /// Its name.
    pub competition_name: String,
    /// Round number.
    pub round: i32,
    /// Board number.
    pub board: i32,
    /// `white` or `black`.
    #[schema(value_type = crate::services::arbiter::doc::Colour)]
    pub colour: String,
    /// The opponent with the rating the competition knows them by (none: a bye).
    #[schema(required = true)]
    pub opponent: Option<BoardPlayer>,
}

/// The member's attendance for one round to come.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ComingRound {
    /// The competition.
    pub competition_id: i64,
    /// Its name.
    pub competition_name: String,
    /// Round number.
    pub round: i32,
    /// Date.
    pub date: NaiveDate,
    /// Round status.
    pub round_status: crate::services::rounds::RoundStatus,
    /// Attendance status: `expected`, `signed_up`, `not_signed_up`, `excused`, `unexcused`,
    /// `present`, `no_show`, `checked_in` or `not_checked_in`.
    pub status: crate::vocab::AttendanceStatus,
}

/// The member page.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MemberPage {
    /// The member's player; `null` for an account not linked to a player (then every other
    /// field is empty).
    #[schema(required = true)]
    pub player: Option<MemberPlayer>,
    /// The next evening of the calendar.
    #[schema(required = true)]
    pub next_evening: Option<NextEvening>,
    /// The member's games on it (published rounds only).
    pub next_games: Vec<NextGame>,
    /// Attendance for the rounds to come (today on, by date, at most 20).
    pub attendance: Vec<ComingRound>,
    /// The last results (newest first, at most 10).
    pub last_results: Vec<PlayerGame>,
}

/// The page of the member linked to `player` (`None`: an account without a player), on
/// `today` in the club's `time_zone`, read from one snapshot so its parts agree.
pub fn page(
    c: &mut DbConn,
    player: Option<PlayerId>,
    today: NaiveDate,
    time_zone: &str,
) -> ApiResult<MemberPage> {
    crate::store::snapshot(c, |c| page_in(c, player, today, time_zone))
}

fn page_in(
    c: &mut DbConn,
    player: Option<PlayerId>,
    today: NaiveDate,
    time_zone: &str,
) -> ApiResult<MemberPage> {
    let mut out = MemberPage {
        player: None,
        next_evening: None,
        next_games: vec![],
        attendance: vec![],
        last_results: vec![],
    };
    let Some(pid) = player else {
        return Ok(out);
    };
    let Some(p) = crate::store::models::players::by_id(c, pid)? else {
        return Ok(out);
    };
    out.player = Some(MemberPlayer {
        id: p.id.get(),
        name: p.name,
        membership: p.membership,
    });
    // the next evening and the member's boards on it, as the public sees them
    if let Ok(e) = evenings::find(c, Which::OnOrAfter(today)) {
        out.next_evening = Some(NextEvening {
            id: e.id.get(),
            date: e.date,
            start_time: e.start_time.clone(),
            kind: e.kind,
        });
        let detail = evenings::detail(c, e, false, time_zone, String::new())?;
        for r in detail.rounds {
            for b in &r.boards {
                let white = b.white.as_ref().is_some_and(|w| w.id == pid.0);
                let black = b.black.as_ref().is_some_and(|w| w.id == pid.0);
                if !white && !black {
                    continue;
                }
                out.next_games.push(NextGame {
                    competition_id: r.competition_id,
                    competition_name: r.competition_name.clone(),
                    round: r.number,
                    board: b.board,
                    colour: if white { "white" } else { "black" }.to_string(),
                    opponent: if white {
                        b.black.clone()
                    } else {
                        b.white.clone()
                    },
                });
            }
        }
    }
    // attendance for the rounds to come of every competition the member is in
    let entered: Vec<(crate::ids::CompetitionId, String)> = en::table
        .inner_join(cm::table)
        .filter(en::player_id.eq(pid.0))
        .select((cm::id, cm::name))
        .load(c)?;
    let mut coming: Vec<(NaiveDate, crate::ids::CompetitionId, String, Round)> = Vec::new();
    for (comp, name) in entered {
        let rounds: Vec<Round> = rd::table
            .filter(rd::competition_id.eq(comp))
            .filter(rd::status.ne(RoundStatus::Completed))
            .order(rd::number)
            .select(Round::as_select())
            .load(c)?;
        for r in rounds {
            let date = match (r.date, r.evening_id) {
                (Some(d), _) => Some(d),
                (None, Some(e)) => Some(calendar::load_evening(c, e)?.date),
                (None, None) => None,
            };
            if let Some(d) = date.filter(|d| *d >= today) {
                coming.push((d, comp, name.clone(), r));
            }
        }
    }
    coming.sort_by_key(|a| (a.0, a.1, a.3.number));
    coming.truncate(COMING_ROUNDS);
    let key = pid.0.to_string();
    for (date, comp, name, r) in coming {
        let competition = competitions::load(c, comp)?;
        let a = attendance::evening(c, &competition, &r, time_zone)?;
        let Some(me) = a.players.iter().find(|x| x.player == key) else {
            // withdrawn by this round
            continue;
        };
        let status = me.status.into();
        out.attendance.push(ComingRound {
            competition_id: comp.get(),
            competition_name: name,
            round: r.number,
            date,
            round_status: r.status,
            status,
        });
    }
    out.last_results = player_games::all(c, pid, GameFilter::default())?
        .into_iter()
        .filter(|g| g.result.is_some())
        .take(LAST_RESULTS)
        .collect();
    Ok(out)
}
