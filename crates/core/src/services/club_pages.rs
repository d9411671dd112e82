//! The reads behind the club's published pages (`/club/…`): every page gets its data here,
//! from the same view builders the JSON API uses, so a page shows exactly what the API
//! answers. Public data only: names, games, results, standings, the calendar and ratings —
//! never contact data.

use crate::error::{ApiError, ApiResult};
use crate::ids::{CompetitionId, EveningId, PlayerId, SeasonId};
use crate::services::attendance::default_time_zone;
use crate::services::evenings::{self, EveningDetail, EveningRound};
use crate::services::player_card::{self, PlayerCard};
use crate::services::prize_list::{self, PlayoffsView, PrizeList};
use crate::services::standings_view::{StandingsView, standings_view};
use crate::store::DbConn;
use crate::store::models::competition::{Competition, Evening, Round, Season};
use chrono::NaiveDate;
use clubcomp_engine::{CompetitionKind, Half};
use diesel::prelude::*;
use std::collections::HashMap;

/// All seasons, newest first. On the concrete backend connection, so the prepared statement
/// is cached (the front page's version reads it on every request).
pub fn seasons(c: &mut DbConn) -> ApiResult<Vec<Season>> {
    use crate::store::schema::seasons as s;
    Ok(crate::per_backend!(c, |b| s::table
        .order((s::opening_date.desc(), s::id.desc()))
        .select(Season::as_select())
        .load(b))?)
}

/// One season or 404.
pub fn season(c: &mut DbConn, id: SeasonId) -> ApiResult<Season> {
    crate::services::seasons::load(c, id)
}

/// The competitions of a season, in the order they were created (prepared once per
/// connection, as [`seasons`]).
pub fn competitions_of(c: &mut DbConn, season: SeasonId) -> ApiResult<Vec<Competition>> {
    use crate::store::schema::competitions as cm;
    Ok(crate::per_backend!(c, |b| cm::table
        .filter(cm::season_id.eq(season))
        .order(cm::id)
        .select(Competition::as_select())
        .load(b))?)
}

/// One competition or 404.
pub fn competition(c: &mut DbConn, id: CompetitionId) -> ApiResult<Competition> {
    crate::services::competitions::load(c, id)
}

/// The front page: the newest season, its next evening with what is played on it, its
/// competitions and the calendar from that evening on.
#[derive(Debug)]
pub struct Front {
    /// The newest season (none before the first is created).
    pub season: Option<Season>,
    /// The next evening, as `GET /evenings/next` answers it: the first on or after `today`
    /// that is not closed (of any season).
    pub next: Option<Evening>,
    /// The rounds of the next evening, as the public sees them.
    pub next_rounds: Vec<EveningRound>,
    /// The season's competitions.
    pub competitions: Vec<Competition>,
    /// The calendar from the next evening on (at most `upcoming` evenings).
    pub upcoming: Vec<Evening>,
    /// Older seasons (the archive).
    pub archive: Vec<Season>,
}

/// The version of the front page on `today`: a hash of what [`front`] shows and of the cache
/// stamps that version the rest. Read in full are the seasons (their ids, names and opening
/// dates: the newest, the archive) and the newest season's competitions (ids, names, kinds,
/// systems); the newest season's evenings (the calendar from the next evening on) are versioned
/// by its calendar stamp, which every evening added, moved or edited raises; the next evening
/// by its row and its version as `GET /evenings/next` has it (its own version and the stamps
/// of its season's calendar and competitions); and the day. So a read costs about what the
/// next evening's JSON does: the calendar's rows are not read.
pub fn front_version(c: &mut DbConn, today: NaiveDate) -> ApiResult<(i64, i64)> {
    use sha2::Digest;
    use std::fmt::Write;
    let mut text = format!("{today};");
    let all = seasons(c)?;
    for s in &all {
        let _ = write!(text, "s{}:{:?}:{};", s.id, s.name, s.opening_date);
    }
    let mut first = 0;
    if let Some(season) = all.first() {
        first = season.id.0;
        let comps = competitions_of(c, season.id)?;
        for comp in &comps {
            let _ = write!(
                text,
                "c{}:{:?}:{:?}:{:?};",
                comp.id, comp.name, comp.kind, comp.system
            );
        }
        let next = match evenings::find(c, evenings::Which::OnOrAfter(today)) {
            Ok(e) => Some(e),
            Err(ApiError::NotFound(_)) => None,
            Err(e) => return Err(e),
        };
        // the next evening is mostly of the newest season, whose competitions are read and
        // whose calendar stamp its version holds
        match &next {
            Some(e) if e.season_id == season.id => {
                let v = evenings::version_with(c, e, &comps)?;
                let _ = write!(text, "{e:?}:{v:?};");
            }
            other => {
                if let Some(e) = other {
                    let v = evenings::version(c, e)?;
                    let _ = write!(text, "{e:?}:{v:?};");
                }
                let calendar =
                    crate::store::models::competition::stamp(c, &format!("season:{}", season.id))?;
                let _ = write!(text, "calendar:{calendar};");
            }
        }
    }
    let d = sha2::Sha256::digest(text.as_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&d[..8]);
    Ok((first, i64::from_be_bytes(bytes)))
}

/// The data of the front page (`today` in the club's time zone).
pub fn front(c: &mut DbConn, today: NaiveDate, upcoming: usize) -> ApiResult<Front> {
    let mut all = seasons(c)?;
    if all.is_empty() {
        return Ok(Front {
            season: None,
            next: None,
            next_rounds: vec![],
            competitions: vec![],
            upcoming: vec![],
            archive: vec![],
        });
    }
    let season = all.remove(0);
    let competitions = competitions_of(c, season.id)?;
    let evenings = crate::services::calendar::evenings_of(c, season.id)?;
    // the next evening is the one `GET /evenings/next` answers: the first on or after today
    // that is not closed
    let next = match evenings::find(c, evenings::Which::OnOrAfter(today)) {
        Ok(e) => Some(e),
        Err(ApiError::NotFound(_)) => None,
        Err(e) => return Err(e),
    };
    let next_rounds = match &next {
        Some(e) => {
            evenings::detail(c, e.clone(), false, &default_time_zone(), String::new())?.rounds
        }
        None => vec![],
    };
    let upcoming = match &next {
        Some(n) => evenings
            .iter()
            .filter(|e| e.date >= n.date)
            .take(upcoming)
            .cloned()
            .collect(),
        None => vec![],
    };
    Ok(Front {
        season: Some(season),
        next,
        next_rounds,
        competitions,
        upcoming,
        archive: all,
    })
}

/// A season's calendar.
#[derive(Debug)]
pub struct Calendar {
    /// The season.
    pub season: Season,
    /// Its evenings by date.
    pub evenings: Vec<Evening>,
}

/// The calendar of season `id` (404 when there is none).
pub fn calendar(c: &mut DbConn, id: SeasonId) -> ApiResult<Calendar> {
    let season = season(c, id)?;
    let evenings = crate::services::calendar::evenings_of(c, id)?;
    Ok(Calendar { season, evenings })
}

/// One competition's line in a season archive: its leaders.
#[derive(Debug)]
pub struct ArchiveLine {
    /// The competition.
    pub competition: Competition,
    /// Rounds counted so far.
    pub rounds_counted: u32,
    /// The first three (name and player id), from its standings or playoffs.
    pub podium: Vec<(i64, String)>,
    /// The club champion, for the playoffs.
    pub champion: Option<(i64, String)>,
    /// The title holder when it is not the first of the podium: a Swiss's (a blitz title for
    /// members only, a guest first in the table: docs/rules/rapid-blitz.md#guests-and-the-title)
    /// or the champion of a Keizer half's finalized prize list (a withdrawn player first in a
    /// competition that excludes them: docs/rules/keizer.md#withdrawal).
    pub title_below: Option<(i64, String)>,
}

/// A season archive: every competition with its leaders.
#[derive(Debug)]
pub struct Archive {
    /// The season.
    pub season: Season,
    /// Its competitions.
    pub lines: Vec<ArchiveLine>,
}

/// The archive page of season `id`.
pub fn archive(c: &mut DbConn, id: SeasonId) -> ApiResult<Archive> {
    let season = season(c, id)?;
    let mut lines = Vec::new();
    for comp in competitions_of(c, id)? {
        let mut line = ArchiveLine {
            competition: comp.clone(),
            rounds_counted: 0,
            podium: vec![],
            champion: None,
            title_below: None,
        };
        if comp.kind == CompetitionKind::Knockout {
            if let Ok(p) = prize_list::playoffs_view(c, &comp) {
                line.champion = p.club_champion.map(|x| (x.id, x.name));
            }
        } else if let Ok(v) = standings_view(c, &comp, None) {
            line.rounds_counted = v.rounds_counted;
            line.podium = podium(&v);
            line.title_below = match comp.kind {
                CompetitionKind::Keizer => keizer_title_below(c, comp.id, &line.podium)?,
                _ => title_below(&v, &line.podium),
            };
        }
        lines.push(line);
    }
    Ok(Archive { season, lines })
}

/// The title holder of a Swiss's final standings, when the podium's first is someone else.
/// The standings already put a play-off's winner first, so this is only a champion below a
/// guest.
fn title_below(v: &StandingsView, podium: &[(i64, String)]) -> Option<(i64, String)> {
    let s = v.swiss.as_ref()?;
    let id = s.champion?;
    if podium.first().is_some_and(|(first, _)| *first == id) {
        return None;
    }
    s.rows
        .iter()
        .find(|r| r.player_id == id)
        .map(|r| (r.player_id, r.name.clone()))
}

/// The champion of a Keizer half's finalized prize list, when the podium's first is someone
/// else: a withdrawn player first in the table of a competition that excludes withdrawn
/// players from its prizes (docs/rules/keizer.md#withdrawal), or a player absent without
/// notice too often (docs/rules/keizer.md#prizes). A provisional list names no champion.
fn keizer_title_below(
    c: &mut DbConn,
    comp: CompetitionId,
    podium: &[(i64, String)],
) -> ApiResult<Option<(i64, String)>> {
    let Some(list) = prize_list::stored(c, comp)? else {
        return Ok(None);
    };
    // the awards are in the order of the regulations: the half's champion first
    let champion = list.keizer.and_then(|k| k.awards.into_iter().next());
    Ok(champion
        .filter(|a| {
            podium
                .first()
                .is_none_or(|(first, _)| *first != a.player_id)
        })
        .map(|a| (a.player_id, a.name)))
}

/// The first three of a table: the Keizer, round-robin or Swiss one, whichever it has.
fn podium(v: &StandingsView) -> Vec<(i64, String)> {
    /// The player id and name of the first three of `rows`, by `who`.
    fn first_three<R>(rows: &[R], who: impl Fn(&R) -> (i64, &String)) -> Vec<(i64, String)> {
        rows.iter()
            .take(3)
            .map(|r| {
                let (id, name) = who(r);
                (id, name.clone())
            })
            .collect()
    }
    if let Some(k) = &v.keizer {
        first_three(&k.rows, |r| (r.player_id, &r.name))
    } else if let Some(t) = &v.round_robin {
        first_three(&t.rows, |r| (r.player_id, &r.name))
    } else if let Some(s) = &v.swiss {
        first_three(&s.rows, |r| (r.player_id, &r.name))
    } else {
        vec![]
    }
}

/// A competition's page: its rounds and entrants.
#[derive(Debug)]
pub struct CompetitionPage {
    /// The competition.
    pub competition: Competition,
    /// Its season.
    pub season: Season,
    /// Its rounds by number.
    pub rounds: Vec<Round>,
    /// Entrants in seed order: player id, name, rating at entry.
    pub entrants: Vec<(PlayerId, String, Option<i32>)>,
    /// The season's playoffs, for a summer half.
    pub playoffs: Option<CompetitionId>,
    /// The competition's time control (none when it has none stored).
    pub time_control: Option<crate::services::competitions::TimeControl>,
}

/// The data of a competition's page.
pub fn competition_page(c: &mut DbConn, comp: &Competition) -> ApiResult<CompetitionPage> {
    let season = season(c, comp.season_id)?;
    let rounds = crate::services::rounds::list(c, comp.id)?;
    let mut entrants = crate::services::competitions::entrants_in_seed_order(c, comp.id)?;
    // a summer half starts in the winter's final order (docs/rules/keizer.md#season-halves)
    let order = crate::services::standings::start_order(c, comp)?;
    entrants.sort_by_key(|e| order.iter().position(|p| *p == e.player_id));
    let names = crate::services::standings::names(c, entrants.iter().map(|e| e.player_id))?;
    let playoffs = if comp.half == Some(Half::Summer) {
        competitions_of(c, comp.season_id)?
            .into_iter()
            .find(|x| x.kind == CompetitionKind::Knockout)
            .map(|x| x.id)
    } else {
        None
    };
    Ok(CompetitionPage {
        competition: comp.clone(),
        season,
        rounds,
        entrants: entrants
            .iter()
            .map(|e| {
                (
                    e.player_id,
                    names.get(&e.player_id).cloned().unwrap_or_default(),
                    e.rating,
                )
            })
            .collect(),
        playoffs,
        time_control: crate::services::competitions::stored_time_control(comp).ok(),
    })
}

/// A competition's standings with what the page shows beside them.
#[derive(Debug)]
pub struct StandingsPage {
    /// The competition.
    pub competition: Competition,
    /// The standings, as the JSON API answers them.
    pub standings: StandingsView,
    /// Round robin: the entrants in seed order (the cross table's order), id and name.
    pub seed_order: Vec<(PlayerId, String)>,
}

/// The standings of `comp` after round `after` (default the last counted).
pub fn standings(
    c: &mut DbConn,
    comp: &Competition,
    after: Option<u32>,
) -> ApiResult<StandingsPage> {
    let standings = standings_view(c, comp, after)?;
    let seed_order = if comp.kind == CompetitionKind::RoundRobin {
        let entrants = crate::services::competitions::entrants_in_seed_order(c, comp.id)?;
        let names = crate::services::standings::names(c, entrants.iter().map(|e| e.player_id))?;
        entrants
            .iter()
            .map(|e| {
                (
                    e.player_id,
                    names.get(&e.player_id).cloned().unwrap_or_default(),
                )
            })
            .collect()
    } else {
        vec![]
    };
    Ok(StandingsPage {
        competition: comp.clone(),
        standings,
        seed_order,
    })
}

/// What the prizes page of a competition shows.
#[derive(Debug)]
pub enum Prizes {
    /// A Keizer half or round robin: its prize list (finalized or provisional).
    List(Box<PrizeList>),
    /// The playoffs (a knockout competition).
    Playoffs(Box<PlayoffsView>),
}

/// The prizes of a Keizer half or round robin, or the playoffs of a knockout competition.
pub fn prizes(c: &mut DbConn, comp: &Competition) -> ApiResult<Prizes> {
    if comp.kind == CompetitionKind::Knockout {
        return Ok(Prizes::Playoffs(Box::new(prize_list::playoffs_view(
            c, comp,
        )?)));
    }
    let list = match prize_list::stored(c, comp.id)? {
        Some(l) => l,
        None => prize_list::compute_prizes(c, comp)?,
    };
    Ok(Prizes::List(Box::new(list)))
}

/// The evening `id` as the public sees it (404 when there is none): the read model of
/// `GET /evenings/{id}`.
pub fn evening(c: &mut DbConn, id: EveningId) -> ApiResult<EveningDetail> {
    let e = evenings::find(c, evenings::Which::Id(id))?;
    evening_found(c, e)
}

/// Evening `e` (found in the same read) as the public sees it: [`evening`] of a found one.
pub fn evening_found(c: &mut DbConn, e: Evening) -> ApiResult<EveningDetail> {
    evenings::detail(c, e, false, &default_time_zone(), String::new())
}

/// An evening's page: the evening as the public sees it, the evenings before and after it in
/// its season's calendar, and for each of its rounds the facts of the standings beside the
/// boards.
#[derive(Debug)]
pub struct EveningPage {
    /// The evening, as `GET /evenings/{id}` answers the public.
    pub detail: EveningDetail,
    /// The evening before it in the season's calendar.
    pub previous: Option<Evening>,
    /// The evening after it in the season's calendar.
    pub next: Option<Evening>,
    /// For each round of `detail.rounds`, in the same order: the standings' facts.
    pub facts: Vec<RoundFacts>,
}

/// What the standings say beside a round's boards.
#[derive(Debug, Default)]
pub struct RoundFacts {
    /// Each entrant's score before the round (player id → the score of the standings after
    /// the round before: game points in a Swiss or round robin, the Keizer score in a Keizer
    /// competition; a player not listed has 0); `None` while the round before does not count.
    pub before: Option<HashMap<i64, f64>>,
    /// What each pairing bye scored (player id → score): in a Swiss or round robin the points
    /// the round added, in a Keizer competition the bye factor times the player's value after
    /// the evening; none while the round does not count yet.
    pub byes: HashMap<i64, f64>,
}

/// Evening `e` (found in the same read) as its page shows it ([`EveningPage`]).
pub fn evening_page(c: &mut DbConn, e: Evening) -> ApiResult<EveningPage> {
    let calendar = crate::services::calendar::evenings_of(c, e.season_id)?;
    let at = calendar.iter().position(|x| x.id == e.id);
    let previous = at
        .and_then(|i| i.checked_sub(1))
        .and_then(|i| calendar.get(i))
        .cloned();
    let next = at.and_then(|i| calendar.get(i + 1)).cloned();
    let detail = evening_found(c, e)?;
    let mut facts = Vec::with_capacity(detail.rounds.len());
    for r in &detail.rounds {
        let comp = competition(c, CompetitionId(r.competition_id))?;
        facts.push(round_facts(c, &comp, r.number, &r.byes)?);
    }
    Ok(EveningPage {
        detail,
        previous,
        next,
        facts,
    })
}

/// Each player's score in the standings after round `after` of `comp` (0: before the first,
/// everyone's 0, none listed): Keizer score, or game points; `None` when round `after` does
/// not count yet (`counted` rounds do).
fn scores_after(
    c: &mut DbConn,
    comp: &Competition,
    after: u32,
    counted: u32,
) -> ApiResult<Option<HashMap<i64, f64>>> {
    if after > counted {
        return Ok(None);
    }
    if after == 0 || comp.kind == CompetitionKind::Knockout {
        return Ok(Some(HashMap::new()));
    }
    let v = standings_view(c, comp, Some(after))?;
    let mut out = HashMap::new();
    if let Some(k) = &v.keizer {
        out.extend(k.rows.iter().map(|r| (r.player_id, r.score)));
    }
    if let Some(s) = &v.swiss {
        let points = clubcomp_engine::tiebreaks::Tiebreak::Pts.acronym();
        out.extend(s.rows.iter().map(|r| {
            (
                r.player_id,
                r.values[points.as_str()].as_f64().unwrap_or(0.0),
            )
        }));
    }
    if let Some(t) = &v.round_robin {
        out.extend(
            t.rows
                .iter()
                .map(|r| (r.player_id, r.points.as_f64().unwrap_or(0.0))),
        );
    }
    out.retain(|_, v| v.is_finite());
    Ok(Some(out))
}

/// The standings' facts beside round `number` of `comp` (docs/decisions/0364-pairing-list-facts.md).
pub fn round_facts(
    c: &mut DbConn,
    comp: &Competition,
    number: i32,
    byes: &[evenings::BoardPlayer],
) -> ApiResult<RoundFacts> {
    let number = u32::try_from(number).unwrap_or(0);
    let counted = if comp.kind == CompetitionKind::Knockout {
        0
    } else {
        standings_view(c, comp, None)?.rounds_counted
    };
    let before = scores_after(c, comp, number.saturating_sub(1), counted)?;
    let mut scored = HashMap::new();
    if !byes.is_empty() && number >= 1 && number <= counted {
        if comp.kind == CompetitionKind::Keizer {
            let factor = crate::services::standings::keizer_params(comp)?
                .bye
                .to_f64();
            if let Some(k) = standings_view(c, comp, Some(number))?.keizer {
                for r in k
                    .rows
                    .iter()
                    .filter(|r| byes.iter().any(|b| b.id == r.player_id))
                {
                    scored.insert(r.player_id, factor * r.value as f64);
                }
            }
        } else {
            let after = scores_after(c, comp, number, counted)?.unwrap_or_default();
            for b in byes {
                let was = before.as_ref().and_then(|m| m.get(&b.id)).copied();
                let now = after.get(&b.id).copied().unwrap_or(0.0);
                scored.insert(b.id, now - was.unwrap_or(0.0));
            }
        }
    }
    Ok(RoundFacts {
        before,
        byes: scored,
    })
}

/// A round's page: its pairings and results as the public sees them, with the standings'
/// facts beside the boards.
#[derive(Debug)]
pub struct RoundPage {
    /// The competition.
    pub competition: Competition,
    /// The round, as its evening shows it.
    pub round: EveningRound,
    /// Its date (from its evening, else its own), if known.
    pub date: Option<NaiveDate>,
    /// The evening it is played on.
    pub evening_id: Option<i64>,
    /// The competition's round numbers, in order (for the links to the other rounds).
    pub numbers: Vec<i32>,
    /// The standings' facts beside its boards.
    pub facts: RoundFacts,
}

/// Round `number` of `comp` as its page shows it (404 when there is none).
pub fn round_page(c: &mut DbConn, comp: &Competition, number: i32) -> ApiResult<RoundPage> {
    let all = crate::services::rounds::list(c, comp.id)?;
    let numbers = all.iter().map(|r| r.number).collect();
    let r = crate::services::rounds::load(c, comp.id, number)?;
    let (date, evening_id) = match r.evening_id {
        Some(e) => {
            let ev = crate::services::calendar::load_evening(c, e)?;
            (Some(ev.date), Some(e.get()))
        }
        None => (r.date, None),
    };
    let round = evenings::round_on(c, comp, r, false, &default_time_zone())?;
    let facts = round_facts(c, comp, round.number, &round.byes)?;
    Ok(RoundPage {
        competition: comp.clone(),
        round,
        date,
        evening_id,
        numbers,
        facts,
    })
}

/// The card of player `id` over every season (404 when there is none).
pub fn player(c: &mut DbConn, id: PlayerId) -> ApiResult<PlayerCard> {
    player_card::card(c, id, None, String::new())
}

/// One member's attendance over a competition's evenings so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttendanceLine {
    /// Player id.
    pub player_id: i64,
    /// Name.
    pub name: String,
    /// Games played over the board.
    pub played: u32,
    /// Pairing byes.
    pub byes: u32,
    /// Absences with notice.
    pub excused: u32,
    /// Absences without notice.
    pub unexcused: u32,
}

/// The attendance of every entrant of a Keizer competition after its last counted evening,
/// in standings order, with the number of evenings counted.
pub fn attendance(c: &mut DbConn, comp: &Competition) -> ApiResult<(u32, Vec<AttendanceLine>)> {
    if comp.kind != CompetitionKind::Keizer {
        return Err(ApiError::Conflict(format!(
            "attendance bars are kept for Keizer competitions, not {}",
            comp.kind
        )));
    }
    let v = standings_view(c, comp, None)?;
    let rows = v.keizer.map(|k| k.rows).unwrap_or_default();
    Ok((
        v.rounds_counted,
        rows.into_iter()
            .map(|r| AttendanceLine {
                player_id: r.player_id,
                name: r.name,
                played: r.played,
                byes: r.byes,
                excused: r.excused,
                unexcused: r.unexcused,
            })
            .collect(),
    ))
}

/// Competition `id` (404 when there is none) with its attendance ([`attendance`]).
pub fn attendance_page(
    c: &mut DbConn,
    id: CompetitionId,
) -> ApiResult<(Competition, (u32, Vec<AttendanceLine>))> {
    let comp = competition(c, id)?;
    let a = attendance(c, &comp)?;
    Ok((comp, a))
}
