//! The evening read model: one evening of the calendar with every competition's round played
//! on it (boards with names and ratings, byes, absentees), read in one call by the JSON API
//! (`GET /evenings/{id}`, `GET /evenings/next`) and by the club's evening page and pairing
//! slips; and the calendar's evenings across seasons by date (`GET /evenings`).
//!
//! Pairings follow the rule of the rounds (`services::rounds::is_public`): the public sees a
//! round's boards once it is published; the club's staff always. An absentee's sign-off note
//! is for the staff only. The document's version is the evening's own version and the cache
//! stamps of its season's competitions (docs/decisions/0191-evening-read-models.md).

use crate::error::{ApiError, ApiResult};
use crate::ids::{EveningId, PlayerId, RoundId};
use crate::services::{attendance, calendar, competitions, rounds, standings, withdrawal};
use crate::store::DbConn;
use crate::store::models::competition::{Competition, Evening, Round, stamp};
use crate::store::schema::{evenings as ev, rounds as rd};
use crate::vocab::RoundStatus;
use chrono::NaiveDate;
use clubcomp_engine::attendance::Status as Engine;
use clubcomp_engine::{CompetitionKind, Discipline, EveningKind, Half, PairingSystem};
use diesel::prelude::*;
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use utoipa::ToSchema;

/// The longest span (in days) a list of evenings by date may cover.
pub const MAX_SPAN_DAYS: i64 = 400;

/// A player on a board: id, name and the rating the competition knows them by (their rating
/// when they entered it).
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct BoardPlayer {
    /// Player id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Rating at entry into the competition (none when unrated).
    #[schema(required = true)]
    pub rating: Option<i32>,
}

/// One board of a round: white and black (a bye has no black).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Board {
    /// The game's id (for results).
    pub game_id: i64,
    /// Board number.
    pub board: i32,
    /// Game number within the pairing (two-game rounds: 1 and 2).
    pub game_no: i32,
    /// White (or the player with the bye).
    #[schema(required = true)]
    pub white: Option<BoardPlayer>,
    /// Black (none for a bye).
    #[schema(required = true)]
    pub black: Option<BoardPlayer>,
    /// Result code, once entered.
    #[schema(value_type = Option<crate::services::results::ResultCode>, required = true)]
    pub result: Option<crate::vocab::ResultCode>,
    /// Whether its two players reported different results and the arbiter has not entered
    /// one yet (docs/rules/arbiter.md#results-reported-by-the-players).
    pub disputed: bool,
    /// The players' own reports while the game has no result (the club's staff only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reports: Option<Vec<crate::services::game_reports::Report>>,
}

/// An entrant who does not play the round: before the pairing, one who signed off; once the
/// boards are shown, one who is not on them.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Absentee {
    /// Player id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Their attendance status for the round (`excused`, `unexcused`, `not_signed_up`,
    /// `no_show`, `not_checked_in`, or `expected` for an entrant left off a board).
    pub status: crate::vocab::AttendanceStatus,
    /// The note of their last sign-off (the club's staff only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A competition's round on the evening.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EveningRound {
    /// Competition id.
    pub competition_id: i64,
    /// Competition name.
    pub competition_name: String,
    /// Competition kind: `keizer`, `swiss`, `round_robin` or `knockout`.
    #[schema(value_type = crate::schemas::CompetitionKind)]
    pub competition_kind: CompetitionKind,
    /// Pairing system, if any.
    #[schema(value_type = Option<crate::schemas::PairingSystem>)]
    #[schema(required = true)]
    pub system: Option<PairingSystem>,
    /// `chess` or `draughts`.
    #[schema(value_type = crate::schemas::Discipline)]
    pub discipline: Discipline,
    /// Round id.
    pub round_id: i64,
    /// Round number.
    pub number: i32,
    /// `planned`, `paired`, `published` or `completed`.
    pub status: crate::services::rounds::RoundStatus,
    /// Whether the pairings are published (before that, the public sees no boards).
    pub published: bool,
    /// The boards by number (the bye included, with no black), empty while not shown.
    pub boards: Vec<Board>,
    /// The players with a bye.
    pub byes: Vec<BoardPlayer>,
    /// The entrants who do not play, by name (none for the public while the pairing is made
    /// but not published).
    pub absentees: Vec<Absentee>,
}

/// An evening with every round played on it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EveningDetail {
    /// Evening id.
    pub id: i64,
    /// Season id.
    pub season_id: i64,
    /// Season name.
    pub season_name: String,
    /// Date.
    pub date: NaiveDate,
    /// Local start time (HH:MM, club time zone).
    pub start_time: String,
    /// `keizer`, `rapid`, `closed`, `playoff`, `blitz` or `free`.
    #[schema(value_type = crate::schemas::EveningKind)]
    pub kind: EveningKind,
    /// `winter` or `summer` for Keizer evenings.
    #[schema(value_type = Option<crate::schemas::KeizerHalf>)]
    #[schema(required = true)]
    pub half: Option<Half>,
    /// Number within the half (Keizer) or the series (rapid, playoff).
    #[schema(required = true)]
    pub number: Option<i32>,
    /// Note.
    #[schema(required = true)]
    pub note: Option<String>,
    /// The evening's own version (the `If-Match` of `PATCH /evenings/{id}` is
    /// `"evening-<id>-v<version>"`).
    pub version: i64,
    /// The ETag of this document (the same as the header).
    pub etag: String,
    /// The rounds on it, by competition.
    pub rounds: Vec<EveningRound>,
}

/// The version of an evening's document: the evening's own version and a digest of the
/// cache stamps of its season's calendar (an evening added, moved or edited: the evenings
/// before and after it on its page) and of its season's competitions (a write to any of
/// their rounds, games, entrants, players or attendance raises one).
pub fn version(c: &mut DbConn, evening: &Evening) -> ApiResult<(i64, i64)> {
    let comps = competitions::of_season(c, evening.season_id)?;
    version_with(c, evening, &comps)
}

/// [`version`] with the competitions of the evening's season already read (all of them, in
/// the order of their ids), as the front page's version has them.
pub fn version_with(
    c: &mut DbConn,
    evening: &Evening,
    comps: &[Competition],
) -> ApiResult<(i64, i64)> {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    let calendar = stamp(c, &format!("season:{}", evening.season_id))?;
    h.update(format!("season:{calendar};").as_bytes());
    for comp in comps {
        let s = stamp(c, &format!("competition:{}", comp.id))?;
        h.update(format!("{}:{s};", comp.id).as_bytes());
    }
    let d = h.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&d[..8]);
    Ok((evening.version, i64::from_be_bytes(first)))
}

/// The ETag of an evening's document at `version`, as seen by the staff (`insider`) or the
/// public.
pub fn etag(id: i64, version: (i64, i64), insider: bool) -> String {
    let who = if insider { "staff" } else { "public" };
    format!(
        "\"evening-{id}-v{}-{:016x}-{who}\"",
        version.0, version.1 as u64
    )
}

/// Which evening a read names.
#[derive(Debug, Clone, Copy)]
pub enum Which {
    /// The evening with this id.
    Id(EveningId),
    /// The first evening on or after this day (the club's today) that is not closed.
    OnOrAfter(NaiveDate),
}

/// The evening a read names, or 404.
pub fn find(c: &mut DbConn, which: Which) -> ApiResult<Evening> {
    match which {
        Which::Id(id) => calendar::load_evening(c, id),
        // on the concrete backend connection, so the prepared statement is cached
        Which::OnOrAfter(day) => crate::per_backend!(c, |b| ev::table
            .filter(ev::date.ge(day))
            .filter(ev::kind.ne(EveningKind::Closed.as_str()))
            .order((ev::date, ev::id))
            .select(Evening::as_select())
            .first(b)
            .optional())?
        .ok_or_else(|| ApiError::NotFound(format!("no evening on or after {day}"))),
    }
}

/// The evening `id` with its rounds (404 when there is none); `insider` (the staff) sees
/// unpublished pairings and sign-off notes; `time_zone` is the club's (for attendance
/// deadlines); `tag` is the document's ETag, shown in its `etag` field.
pub fn detail(
    c: &mut DbConn,
    evening: Evening,
    insider: bool,
    time_zone: &str,
    tag: String,
) -> ApiResult<EveningDetail> {
    let season = crate::services::seasons::load(c, evening.season_id)?;
    let mut out = Vec::new();
    for comp in competitions::of_season(c, evening.season_id)? {
        let on: Vec<Round> = rd::table
            .filter(rd::competition_id.eq(comp.id))
            .filter(rd::evening_id.eq(evening.id))
            .order(rd::number)
            .select(Round::as_select())
            .load(c)?;
        for r in on {
            out.push(round_on(c, &comp, r, insider, time_zone)?);
        }
    }
    Ok(EveningDetail {
        id: evening.id.get(),
        season_id: evening.season_id.get(),
        season_name: season.name,
        date: evening.date,
        start_time: evening.start_time,
        kind: evening.kind,
        half: evening.half,
        number: evening.number,
        note: evening.note,
        version: evening.version,
        etag: tag,
        rounds: out,
    })
}

/// One competition's round as shown on its evening (and on the round's own page).
pub fn round_on(
    c: &mut DbConn,
    comp: &Competition,
    round: Round,
    insider: bool,
    time_zone: &str,
) -> ApiResult<EveningRound> {
    let published = rounds::is_public(round.status);
    let show = insider || published;
    let entrants = competitions::entrants_in_seed_order(c, comp.id)?;
    let rating: HashMap<PlayerId, Option<i32>> =
        entrants.iter().map(|e| (e.player_id, e.rating)).collect();
    let games = if show {
        rounds::games_of(c, round.id)?
    } else {
        vec![]
    };
    let mut ids: Vec<PlayerId> = entrants.iter().map(|e| e.player_id).collect();
    ids.extend(
        games
            .iter()
            .flat_map(|g| [g.white_id, g.black_id])
            .flatten(),
    );
    let names = standings::names(c, ids)?;
    let player = |id: PlayerId| BoardPlayer {
        id: id.get(),
        name: names.get(&id).cloned().unwrap_or_default(),
        rating: rating.get(&id).copied().flatten(),
    };
    let ids_of: Vec<crate::ids::GameId> = games.iter().map(|g| g.id).collect();
    let mut reports = crate::services::game_reports::of_games(c, &ids_of)?;
    let mut on_board = HashSet::new();
    let mut boards = Vec::with_capacity(games.len());
    let mut byes = Vec::new();
    for g in games {
        let (white, black) = (g.white_id, g.black_id);
        on_board.extend([white, black].into_iter().flatten());
        if black.is_none()
            && let Some(w) = white
        {
            byes.push(player(w));
        }
        let told = if g.result.is_none() {
            reports.remove(&g.id).unwrap_or_default()
        } else {
            Vec::new()
        };
        boards.push(Board {
            game_id: g.id.get(),
            board: g.board,
            game_no: g.game_no,
            white: white.map(player),
            black: black.map(player),
            result: g.result,
            disputed: crate::services::game_reports::disputed(&told),
            reports: insider.then_some(told),
        });
    }
    // who does not play: before the pairing, whoever signed off; once the boards are shown,
    // every entrant still in the competition who is not on one
    let planned = round.status == RoundStatus::Planned;
    let boards_shown = show && !planned;
    let status = attendance::evening(c, comp, &round, time_zone)?;
    let withdrawn = crate::store::models::competition::withdrawals(c, comp.id)?;
    let notes = if insider {
        sign_off_notes(c, round.id)?
    } else {
        HashMap::new()
    };
    let mut absentees = Vec::new();
    for p in &status.players {
        let id = PlayerId::from_engine(&p.player)?;
        if withdrawal::gone(&withdrawn, id, round.number) {
            continue;
        }
        let listed = if boards_shown {
            !on_board.contains(&id)
        } else {
            planned && matches!(p.status, Engine::Excused | Engine::Unexcused)
        };
        if !listed {
            continue;
        }
        let status = p.status.into();
        absentees.push(Absentee {
            id: id.get(),
            name: names.get(&id).cloned().unwrap_or_default(),
            status,
            reason: notes.get(&id).cloned(),
        });
    }
    absentees.sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
    Ok(EveningRound {
        competition_id: comp.id.get(),
        competition_name: comp.name.clone(),
        competition_kind: comp.kind,
        system: comp.system,
        discipline: comp.discipline,
        round_id: round.id.get(),
        number: round.number,
        status: round.status,
        published,
        boards,
        byes,
        absentees,
    })
}

/// The note of each player's last sign-off for a round.
fn sign_off_notes(c: &mut DbConn, round: RoundId) -> ApiResult<HashMap<PlayerId, String>> {
    let mut out = HashMap::new();
    for a in attendance::history(c, round)? {
        if a.action.is_sign_off() {
            match a.note {
                Some(n) => out.insert(a.player_id, n),
                None => out.remove(&a.player_id),
            };
        }
    }
    Ok(out)
}

/// What a list of evenings is filtered by.
#[derive(Debug, Clone, Default)]
pub struct EveningFilter {
    /// The first date.
    pub from: Option<NaiveDate>,
    /// The last date.
    pub to: Option<NaiveDate>,
    /// The kind.
    pub kind: Option<EveningKind>,
    /// The season.
    pub season: Option<i64>,
}

impl EveningFilter {
    /// 422 naming `to` when it is before `from` or more than [`MAX_SPAN_DAYS`] after it.
    pub fn check(&self) -> ApiResult<()> {
        if let (Some(f), Some(t)) = (self.from, self.to) {
            if t < f {
                return Err(ApiError::invalid("to", "must not be before `from`"));
            }
            if (t - f).num_days() > MAX_SPAN_DAYS {
                return Err(ApiError::invalid(
                    "to",
                    format!("must be at most {MAX_SPAN_DAYS} days after `from`"),
                ));
            }
        }
        Ok(())
    }
}

/// The evenings matching `f`, by date then id: `limit` of them from `offset`, and how many
/// match in all.
pub fn list(
    c: &mut DbConn,
    f: &EveningFilter,
    limit: i64,
    offset: i64,
) -> ApiResult<(Vec<Evening>, i64)> {
    f.check()?;
    let query = || {
        let mut q = ev::table.into_boxed();
        if let Some(d) = f.from {
            q = q.filter(ev::date.ge(d));
        }
        if let Some(d) = f.to {
            q = q.filter(ev::date.le(d));
        }
        if let Some(k) = f.kind {
            q = q.filter(ev::kind.eq(k.as_str()));
        }
        if let Some(s) = f.season {
            q = q.filter(ev::season_id.eq(s));
        }
        q
    };
    let total: i64 = query().count().get_result(c)?;
    let rows = query()
        .order((ev::date, ev::id))
        .limit(limit)
        .offset(offset)
        .select(Evening::as_select())
        .load(c)?;
    Ok((rows, total))
}
