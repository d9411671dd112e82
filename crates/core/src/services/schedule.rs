//! Rounds from the calendar (docs/rules/keizer.md#rounds-from-the-calendar, decision 0195): a
//! Keizer half has one round on every `keizer` evening of its half, made when the half is
//! created, when the season's calendar is stored and when an evening is edited. Its unplayed
//! rounds are numbered by date after the last round that was paired; a round that was paired
//! never changes here.
//!
//! The writers that bind rounds to evenings queue on the season's stamp (calendar generation,
//! evening edits, competition creation) and then on the competition's, so two of them never
//! both add a round for one evening.

use crate::error::{ApiError, ApiResult};
use crate::ids::{EveningId, RoundId, SeasonId};
use crate::store::DbConn;
use crate::store::models::competition::{Competition, Evening, NewRound, Round};
use crate::store::now_utc;
use crate::store::schema::{competitions as cm, evenings as ev, rounds};
use crate::store::stamps::{Scope, touch_now};
use crate::vocab::RoundStatus;
use chrono::NaiveDate;
use clubcomp_engine::{CompetitionKind, EveningKind, Half};
use diesel::prelude::*;

/// The status of a round not yet paired.
const PLANNED: RoundStatus = RoundStatus::Planned;

/// The half whose `keizer` evenings hold a competition's rounds: a Keizer competition with a
/// half. Other competitions make their rounds by hand.
pub fn bound_half(comp: &Competition) -> Option<Half> {
    match comp.kind {
        CompetitionKind::Keizer => comp.half,
        _ => None,
    }
}

/// The `keizer` evenings of `half` in a season, by date.
pub fn keizer_evenings(c: &mut DbConn, season: SeasonId, half: Half) -> ApiResult<Vec<Evening>> {
    Ok(ev::table
        .filter(ev::season_id.eq(season))
        .filter(ev::kind.eq(EveningKind::Keizer.as_str()))
        .filter(ev::half.eq(half.as_str()))
        .order((ev::date, ev::id))
        .select(Evening::as_select())
        .load(c)?)
}

/// Whether a competition takes its rounds from the calendar: a Keizer half whose season's
/// calendar has `keizer` evenings of that half.
pub fn from_calendar(c: &mut DbConn, comp: &Competition) -> ApiResult<bool> {
    Ok(match bound_half(comp) {
        Some(half) => !keizer_evenings(c, comp.season_id, half)?.is_empty(),
        None => false,
    })
}

/// Queues behind every other writer that binds rounds to the evenings of `season` (see the
/// module documentation); call it before reading the evenings or the competitions.
pub fn lock_season(c: &mut DbConn, season: SeasonId) -> ApiResult<()> {
    Ok(touch_now(c, Scope::Season(season))?)
}

/// Brings the rounds of every Keizer half of a season in line with its calendar (see
/// [`sync`]). The caller holds [`lock_season`].
pub fn sync_season(c: &mut DbConn, season: SeasonId) -> ApiResult<()> {
    let season = season.get();
    let comps: Vec<Competition> = cm::table
        .filter(cm::season_id.eq(season))
        .filter(cm::kind.eq(CompetitionKind::Keizer.as_str()))
        .order(cm::id)
        .select(Competition::as_select())
        .load(c)?;
    for comp in &comps {
        sync(c, comp)?;
    }
    Ok(())
}

/// The date a round is played on, for ordering: its own, else none (last).
fn order_key(r: &Round) -> (Option<NaiveDate>, bool, RoundId) {
    // undated rounds (made by hand) come after the dated ones
    (r.date, r.date.is_none(), r.id)
}

/// Brings the rounds of a Keizer half in line with the `keizer` evenings of its half, in the
/// caller's transaction (which holds [`lock_season`]):
///
/// - a planned round on an evening that is no longer a `keizer` evening of the half is dropped
///   (with the sign-ups and sign-offs recorded for it);
/// - every `keizer` evening of the half after the last paired round's date without a round of
///   the competition gets a planned round;
/// - the planned rounds are numbered by date (undated ones last) after the highest number of a
///   paired, published or completed round.
///
/// A season without `keizer` evenings of the half leaves the competition's rounds alone (they
/// are made by hand). Every other competition is left alone.
pub fn sync(c: &mut DbConn, comp: &Competition) -> ApiResult<()> {
    let Some(half) = bound_half(comp) else {
        return Ok(());
    };
    let evenings = keizer_evenings(c, comp.season_id, half)?;
    if evenings.is_empty() {
        return Ok(());
    }
    // queues concurrent writers of the competition's rounds (numbering, pairing)
    touch_now(c, Scope::Competition(comp.id))?;
    let existing: Vec<Round> = rounds::table
        .filter(rounds::competition_id.eq(comp.id))
        .select(Round::as_select())
        .load(c)?;
    let (played, planned): (Vec<Round>, Vec<Round>) =
        existing.into_iter().partition(|r| r.status != PLANNED);
    let last_number = played.iter().map(|r| r.number).max().unwrap_or(0);
    let last_date = played.iter().filter_map(|r| r.date).max();
    let wanted: std::collections::HashSet<EveningId> = evenings.iter().map(|e| e.id).collect();

    let (dropped, mut kept): (Vec<Round>, Vec<Round>) = planned
        .into_iter()
        .partition(|r| r.evening_id.is_some_and(|e| !wanted.contains(&e)));
    if !dropped.is_empty() {
        let ids: Vec<RoundId> = dropped.iter().map(|r| r.id).collect();
        crate::services::round_rows::delete_rounds(c, &ids)?;
    }

    let taken: std::collections::HashSet<EveningId> = played
        .iter()
        .chain(kept.iter())
        .filter_map(|r| r.evening_id)
        .collect();
    // Rounds are unique per number: a new round, and a round on its way to its new number,
    // holds a number below every number the competition's rounds hold now, one each. (Numbers
    // taken from the evening or round ids would clash where one round's evening id is another
    // round's id.)
    let mut spare = played
        .iter()
        .chain(kept.iter())
        .map(|r| r.number)
        .min()
        .unwrap_or(0)
        .min(0);
    let mut next_spare = move || {
        spare -= 1;
        spare
    };
    for e in evenings
        .iter()
        .filter(|e| !taken.contains(&e.id) && last_date.is_none_or(|d| e.date > d))
    {
        // the numbering below gives the final number
        let round = crate::services::round_rows::insert_round(
            c,
            &NewRound {
                competition_id: comp.id,
                number: next_spare(),
                evening_id: Some(e.id),
                date: Some(e.date),
                status: PLANNED,
                pairing_meta: None,
                version: 1,
                updated_at: now_utc(),
            },
        )?;
        kept.push(round);
    }

    kept.sort_by_key(order_key);
    let moves: Vec<(RoundId, i32)> = kept
        .iter()
        .zip(last_number + 1..)
        .filter(|(r, n)| r.number != *n)
        .map(|(r, n)| (r.id, n))
        .collect();
    // two steps, so that no number is held twice on the way
    for (id, _) in &moves {
        crate::services::round_rows::renumber_round(c, *id, next_spare(), false)?;
    }
    for (id, n) in &moves {
        crate::services::round_rows::renumber_round(c, *id, *n, true)?;
    }
    Ok(())
}

/// Checks that an evening may change its date or kind: 409 when a round on it was paired
/// (its date and its evening stay), or when the new date would put a planned round of a Keizer
/// half on or before the date of a round of that half that was already paired.
pub fn check_evening_change(
    c: &mut DbConn,
    evening: &Evening,
    new_date: Option<NaiveDate>,
) -> ApiResult<()> {
    let on_it: Vec<Round> = rounds::table
        .filter(rounds::evening_id.eq(evening.id))
        .order(rounds::id)
        .select(Round::as_select())
        .load(c)?;
    if let Some(r) = on_it.iter().find(|r| r.status != PLANNED) {
        return Err(ApiError::Conflict(format!(
            "round {} of competition {} on evening {} is {}; the evening's date and kind stay",
            r.number, r.competition_id, evening.id, r.status
        )));
    }
    let Some(date) = new_date.filter(|d| *d != evening.date) else {
        return Ok(());
    };
    for r in &on_it {
        let last_paired: Option<(i32, Option<NaiveDate>)> = rounds::table
            .filter(rounds::competition_id.eq(r.competition_id))
            .filter(rounds::status.ne(PLANNED))
            .filter(rounds::date.is_not_null())
            .order(rounds::date.desc())
            .select((rounds::number, rounds::date))
            .first(c)
            .optional()?;
        if let Some((n, Some(d))) = last_paired
            && date <= d
        {
            return Err(ApiError::Conflict(format!(
                "round {n} of competition {} was paired for {d}; evening {} cannot move to {date}, on or before it",
                r.competition_id, evening.id
            )));
        }
    }
    // the rounds on the evening move with it
    crate::services::round_rows::move_rounds_of_evening(c, evening.id, date)?;
    for r in &on_it {
        touch_now(c, Scope::Competition(r.competition_id))?;
    }
    Ok(())
}

/// The half of an evening that becomes a `keizer` evening without one: the half of the
/// nearest `keizer` evening before it in the season, else of the first one after it.
pub fn half_for(c: &mut DbConn, season: SeasonId, date: NaiveDate) -> ApiResult<Option<Half>> {
    let halved = |c: &mut DbConn, before: bool| -> ApiResult<Option<Evening>> {
        let q = ev::table
            .filter(ev::season_id.eq(season))
            .filter(ev::kind.eq(EveningKind::Keizer.as_str()))
            .filter(ev::half.is_not_null())
            .select(Evening::as_select())
            .into_boxed();
        let q = if before {
            q.filter(ev::date.lt(date)).order(ev::date.desc())
        } else {
            q.filter(ev::date.gt(date)).order(ev::date.asc())
        };
        Ok(q.first(c).optional()?)
    };
    let near = match halved(c, true)? {
        Some(e) => Some(e),
        None => halved(c, false)?,
    };
    Ok(near.and_then(|e| e.half))
}
