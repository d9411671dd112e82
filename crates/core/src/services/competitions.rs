//! Competitions: validation of kinds, systems, parameters, tie-break lists, time controls and
//! rule flags (docs/rules/README.md#time-controls, docs/rules/rapid-blitz.md#tie-breaks, docs/rules/draughts-championship.md#final-order-and-the-tie-break-chain), and the seed order of entrants.

use crate::error::{ApiError, ApiResult, FieldError};
use crate::ids::{CompetitionId, PlayerId, SeasonId};
use crate::store::DbConn;
/// A stored competition: the row is the record.
pub use crate::store::models::competition::Competition;
use crate::store::models::competition::Entrant;
use crate::store::schema::{competitions as cm, entrants as en};
use crate::store::stamps::Scope;
use crate::vocab::RoundStatus;
use diesel::prelude::*;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use clubcomp_engine::{CompetitionKind, Discipline, Half};

mod params;
pub mod rows;
mod settings;
mod stored;
#[cfg(test)]
mod tests;

pub use params::*;
pub use settings::*;
pub use stored::*;

/// Loads a competition or 404.
pub fn load(c: &mut DbConn, id: CompetitionId) -> ApiResult<Competition> {
    cm::table
        .find(i64::from(id))
        .select(Competition::as_select())
        .first(c)
        .optional()?
        .ok_or_else(|| ApiError::NotFound(format!("no competition {id}")))
}

/// The entrants of a competition in seed order.
pub fn entrants_in_seed_order(
    c: &mut DbConn,
    competition: CompetitionId,
) -> ApiResult<Vec<Entrant>> {
    let mut rows: Vec<Entrant> = en::table
        .filter(en::competition_id.eq(competition))
        .select(Entrant::as_select())
        .load(c)?;
    seed_order(&mut rows);
    Ok(rows)
}

/// A new competition whose fields were checked (name, half, planned rounds, settings).
#[derive(Debug)]
pub struct NewCompetitionSpec {
    /// The season it belongs to.
    pub season_id: SeasonId,
    /// Its name, trimmed.
    pub name: String,
    /// Its validated settings.
    pub settings: Settings,
    /// Keizer: the half.
    pub half: Option<Half>,
    /// The winter half a summer half is seeded from.
    pub seeded_from: Option<CompetitionId>,
    /// Planned number of rounds.
    pub rounds_planned: Option<i32>,
}

/// Creates a competition in the caller's transaction, a Keizer half with a planned round on
/// every `keizer` evening of its half (`services::schedule`): 404 without the season; a summer Keizer
/// half may be seeded only from the winter Keizer half of the same season (422 naming
/// `seeded_from`).
#[allow(
    clippy::expect_used,
    reason = "a typed value with string keys always serializes to JSON"
)]
pub fn create(c: &mut DbConn, spec: NewCompetitionSpec) -> ApiResult<Competition> {
    use crate::store::models::competition::NewCompetition;
    let NewCompetitionSpec {
        season_id,
        name,
        settings,
        half,
        seeded_from,
        rounds_planned,
    } = spec;
    crate::services::seasons::load(c, season_id)?;
    // queue behind calendar edits of the season, so a Keizer half sees the evenings stored
    // before it (services::schedule)
    crate::services::schedule::lock_season(c, season_id)?;
    if let Some(w) = seeded_from {
        let winter = load(c, w).map_err(|e| match e {
            ApiError::NotFound(_) => {
                ApiError::invalid("seeded_from", format!("no competition {w}"))
            }
            other => other,
        })?;
        if winter.season_id != season_id
            || winter.kind != CompetitionKind::Keizer
            || winter.half != Some(Half::Winter)
        {
            return Err(ApiError::invalid(
                "seeded_from",
                "must be the winter Keizer half of the same season",
            ));
        }
        if settings.kind != CompetitionKind::Keizer || half != Some(Half::Summer) {
            return Err(ApiError::invalid(
                "seeded_from",
                "only a summer Keizer half is seeded from a winter half",
            ));
        }
    }
    let now = crate::store::now_utc();
    let comp = diesel::insert_into(cm::table)
        .values(&NewCompetition {
            season_id,
            name,
            kind: settings.kind.into(),
            discipline: settings.discipline.into(),
            system: settings.system.map(String::from),
            half: half.map(String::from),
            seeded_from,
            params: settings.params.to_string(),
            tiebreaks: serde_json::to_string(&settings.tiebreaks).expect(SERIALIZES),
            time_control: serde_json::to_string(&settings.time_control).expect(SERIALIZES),
            rules: settings.rules.to_string(),
            rounds_planned,
            version: 1,
            created_at: now,
            updated_at: now,
        })
        .returning(cm::all_columns)
        .get_result::<Competition>(c)?;
    // a Keizer half takes its planned rounds from the calendar's evenings of its half
    crate::services::schedule::sync(c, &comp)?;
    Ok(comp)
}

/// A page of a season's competitions by id, and how many it has in all, read in one
/// transaction (404 for no such season).
pub fn page_of_season(
    c: &mut DbConn,
    season: SeasonId,
    limit: i64,
    offset: i64,
) -> ApiResult<(Vec<Competition>, i64)> {
    crate::store::snapshot(c, |c| {
        crate::services::seasons::load(c, season)?;
        let total: i64 = cm::table
            .filter(cm::season_id.eq(season))
            .count()
            .get_result(c)?;
        let rows = cm::table
            .filter(cm::season_id.eq(season))
            .order(cm::id)
            .limit(limit)
            .offset(offset)
            .select(Competition::as_select())
            .load(c)?;
        Ok((rows, total))
    })
}

/// The competitions of a season (404 when there is no such season).
pub fn of_season(c: &mut DbConn, season: SeasonId) -> ApiResult<Vec<Competition>> {
    crate::services::seasons::load(c, season)?;
    Ok(cm::table
        .filter(cm::season_id.eq(season))
        .order(cm::id)
        .select(Competition::as_select())
        .load(c)?)
}

/// Changes to a competition's settings, as requested.
#[derive(Debug, Default)]
pub struct CompetitionChanges {
    /// New name (checked here: 1–100 characters after trimming).
    pub name: Option<String>,
    /// New engine parameters.
    pub params: Option<Value>,
    /// New tie-break list.
    pub tiebreaks: Option<Vec<String>>,
    /// New time control.
    pub time_control: Option<TimeControl>,
    /// New rule flags.
    pub rules: Option<Value>,
    /// New planned number of rounds (1–99).
    pub rounds_planned: Option<i32>,
}

/// Changes a competition's settings in the caller's transaction: 412 on a stale `If-Match`,
/// 422 on invalid settings, 409 when parameters, tie-breaks or time control change after a
/// round was paired.
#[allow(
    clippy::expect_used,
    reason = "a typed value with string keys always serializes to JSON"
)]
pub fn update(
    c: &mut DbConn,
    id: CompetitionId,
    expected: &crate::services::version::ExpectedVersion,
    ch: CompetitionChanges,
) -> ApiResult<Competition> {
    use crate::store::schema::rounds;
    let cur = load(c, id)?;
    // the content is checked before the precondition (RFC 9110 13.2.1: a request that would
    // fail without its If-Match fails the same way with a wrong one), the state after it
    let stored = stored_settings(&cur)?;
    let stored_input = stored.input();
    let settings = validate(&SettingsInput {
        params: ch.params.clone().unwrap_or(stored.params),
        tiebreaks: ch
            .tiebreaks
            .clone()
            .unwrap_or_else(|| stored_input.tiebreaks.clone()),
        time_control: ch.time_control.clone().unwrap_or(stored.time_control),
        rules: ch.rules.clone().unwrap_or(stored.rules),
        ..stored_input
    })?;
    let name = match ch.name {
        Some(n) => crate::services::input::checked_name("name", &n)?,
        None => cur.name.clone(),
    };
    if ch.rounds_planned.is_some_and(|n| !(1..=99).contains(&n)) {
        return Err(ApiError::invalid("rounds_planned", "must be from 1 to 99"));
    }
    expected.check(&crate::services::version::etag(
        "competition",
        cur.id,
        cur.version,
    ))?;
    let started: i64 = rounds::table
        .filter(rounds::competition_id.eq(id))
        .filter(rounds::status.ne(RoundStatus::Planned))
        .count()
        .get_result(c)?;
    if started > 0 && (ch.params.is_some() || ch.tiebreaks.is_some() || ch.time_control.is_some()) {
        return Err(ApiError::Conflict(
            "parameters, tie-breaks and time control are fixed once a round is paired".into(),
        ));
    }
    diesel::update(cm::table.find(id))
        .set((
            cm::name.eq(name),
            cm::params.eq(settings.params.to_string()),
            cm::tiebreaks.eq(serde_json::to_string(&settings.tiebreaks).expect(SERIALIZES)),
            cm::time_control.eq(serde_json::to_string(&settings.time_control).expect(SERIALIZES)),
            cm::rules.eq(settings.rules.to_string()),
            cm::rounds_planned.eq(ch.rounds_planned.or(cur.rounds_planned)),
            cm::version.eq(cm::version + 1),
            cm::updated_at.eq(crate::store::now_utc()),
        ))
        .execute(c)?;
    crate::store::stamps::touch(c, Scope::Competition(id))?;
    load(c, id)
}

/// One entry of a player into a competition.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// The player.
    pub player_id: PlayerId,
    /// The round from which the player takes part (default 1).
    pub joins_at: Option<i32>,
    /// Excused absences already used earlier in the season (default 0).
    pub excused_before: Option<i32>,
}

/// Enters players (in order of entry) in the caller's transaction; each gets the rating on the
/// seeding date. 422 naming each bad entry, or over the work limit of the competition's kind;
/// 409 when a player is entered already.
pub fn enter(
    c: &mut DbConn,
    id: CompetitionId,
    entries: &[Entry],
    limits: &crate::limits::WorkLimits,
) -> ApiResult<()> {
    use crate::store::models::competition::NewEntrant;
    use crate::store::models::{players, ratings};
    let comp = load(c, id)?;
    refuse_after_check_in(c, &comp)?;
    let season = crate::services::seasons::load(c, comp.season_id)?;
    let (source, date) = seed_rating(&comp, season.opening_date);
    // the engines' work limits hold for stored competitions too: pairing and
    // standings on request never run on a field larger than a calculator accepts
    let (var, limit) = match comp.kind {
        CompetitionKind::Keizer => ("LIMIT_KEIZER_PLAYERS", limits.keizer_players),
        CompetitionKind::RoundRobin => ("LIMIT_ROUND_ROBIN_PLAYERS", limits.round_robin_players),
        CompetitionKind::Swiss | CompetitionKind::Knockout => {
            ("LIMIT_SWISS_PLAYERS", limits.swiss_players)
        }
    };
    let entered: i64 = en::table
        .filter(en::competition_id.eq(id))
        .count()
        .get_result(c)?;
    crate::limits::check(
        "entrants",
        "entrants",
        entered as usize + entries.len(),
        var,
        limit,
    )?;
    // the competition's stamp first (the cached standings show the entrants): its row
    // lock (Postgres; SQLite holds the write lock already) queues concurrent entries,
    // so each seeds after the entrants entered before it (no two with one seed)
    crate::store::stamps::touch_now(c, Scope::Competition(id))?;
    let mut next_seed: i32 = en::table
        .filter(en::competition_id.eq(id))
        .select(diesel::dsl::max(en::seed))
        .first::<Option<i32>>(c)?
        .unwrap_or(0);
    let mut errs = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        match players::by_id(c, e.player_id)? {
            None => errs.push(FieldError::new(
                format!("entrants[{i}].player_id"),
                format!("no player {}", e.player_id),
            )),
            Some(p) if !p.active => errs.push(FieldError::new(
                format!("entrants[{i}].player_id"),
                format!("player {} is inactive", p.id),
            )),
            Some(_) => {}
        }
        if e.joins_at.is_some_and(|j| !(1..=99).contains(&j)) {
            errs.push(FieldError::new(
                format!("entrants[{i}].joins_at"),
                "must be from 1 to 99",
            ));
        }
        if e.excused_before.is_some_and(|x| !(0..=99).contains(&x)) {
            errs.push(FieldError::new(
                format!("entrants[{i}].excused_before"),
                "must be from 0 to 99",
            ));
        }
    }
    if !errs.is_empty() {
        return Err(ApiError::validation(errs));
    }
    for e in entries {
        next_seed += 1;
        let rating = ratings::on_date(c, e.player_id, source, date)?.map(|r| r.value);
        diesel::insert_into(en::table)
            .values(&NewEntrant {
                competition_id: id,
                player_id: e.player_id,
                seed: next_seed,
                rating,
                joins_at: e.joins_at.unwrap_or(1),
                excused_before: e.excused_before.unwrap_or(0),
                created_at: crate::store::now_utc(),
            })
            .execute(c)
            .map_err(|err| match ApiError::from(err) {
                ApiError::AlreadyExists { field, .. } => ApiError::AlreadyExists {
                    field,
                    detail: format!("player_id: player {} is already entered", e.player_id),
                },
                other => other,
            })?;
    }
    Ok(())
}

/// The entrants of a competition in seed order, each with the player's name.
pub fn entrants_named(
    c: &mut DbConn,
    competition: CompetitionId,
) -> ApiResult<Vec<(Entrant, String)>> {
    let rows = entrants_in_seed_order(c, competition)?;
    let mut out = Vec::with_capacity(rows.len());
    for e in rows {
        let name = crate::store::models::players::by_id(c, e.player_id)?
            .map(|p| p.name)
            .unwrap_or_default();
        out.push((e, name));
    }
    Ok(out)
}

/// Whether a competition is the blitz championship (a Dutch Swiss with a `blitz` block).
pub fn is_blitz(comp: &Competition) -> ApiResult<bool> {
    Ok(matches!(
        stored_params(comp)?.typed,
        CompetitionParams::Swiss(SwissParams { blitz: Some(_) })
    ))
}

/// 409 when the competition is a blitz championship whose check-in is closed: its number of
/// rounds was fixed from the players checked in, so the field no longer changes (a player who
/// leaves is withdrawn instead).
fn refuse_after_check_in(c: &mut DbConn, comp: &Competition) -> ApiResult<()> {
    use crate::store::schema::check_in_closures as cl;
    if is_blitz(comp)? && cl::table.find(comp.id).count().get_result::<i64>(c)? > 0 {
        return Err(ApiError::Conflict(format!(
            "the check-in of competition {} is closed: its players and its number of rounds \
             are fixed (a player who leaves is withdrawn)",
            comp.id
        )));
    }
    Ok(())
}

/// Withdraws an entrant who has no games yet (409 otherwise; 404 when not entered).
pub fn withdraw(c: &mut DbConn, id: CompetitionId, player: PlayerId) -> ApiResult<()> {
    use crate::store::schema::{games, rounds};
    let comp = load(c, id)?;
    refuse_after_check_in(c, &comp)?;
    let played: i64 = games::table
        .inner_join(rounds::table)
        .filter(rounds::competition_id.eq(id))
        .filter(games::white_id.eq(player).or(games::black_id.eq(player)))
        .count()
        .get_result(c)?;
    if played > 0 {
        return Err(ApiError::Conflict(format!(
            "player {player} already has games in competition {id}"
        )));
    }
    let n = diesel::delete(
        en::table
            .filter(en::competition_id.eq(id))
            .filter(en::player_id.eq(player)),
    )
    .execute(c)?;
    if n == 0 {
        return Err(ApiError::NotFound(format!(
            "player {player} is not entered in competition {id}"
        )));
    }
    crate::store::stamps::touch(c, Scope::Competition(id))?;
    Ok(())
}

/// The discipline of a competition for the result codes.
pub fn discipline(c: &Competition) -> Discipline {
    c.discipline
}

/// An entrant as shown.
#[derive(Debug, Serialize, ToSchema)]
pub struct EntrantView {
    /// Seed number (1 = top seed).
    pub seed: usize,
    /// Player id.
    pub player_id: i64,
    /// Player name.
    pub name: String,
    /// Rating on the seeding date (KNSB; KNSB-rapid for the rapid, KNDB for draughts).
    #[schema(required = true)]
    pub rating: Option<i32>,
    /// The round from which the player takes part.
    pub joins_at: i32,
    /// Excused absences already used earlier in the season.
    pub excused_before: i32,
    /// The first round the player no longer plays after withdrawing (`null`: not withdrawn).
    #[schema(required = true)]
    pub withdrawn_from: Option<i32>,
}

/// The entrants of a competition in seed order, as shown.
pub fn entrant_views(c: &mut DbConn, competition: CompetitionId) -> ApiResult<Vec<EntrantView>> {
    Ok(entrants_named(c, competition)?
        .into_iter()
        .enumerate()
        .map(|(i, (e, name))| EntrantView {
            seed: i + 1,
            player_id: e.player_id.get(),
            name,
            rating: e.rating,
            joins_at: e.joins_at,
            excused_before: e.excused_before,
            withdrawn_from: e.withdrawn_from,
        })
        .collect())
}

/// The entrants of competition `id` in seed order, as shown (404 when there is no such
/// competition).
pub fn entrants(c: &mut DbConn, id: CompetitionId) -> ApiResult<Vec<EntrantView>> {
    load(c, id)?;
    entrant_views(c, id)
}

/// Enters players ([`enter`]) and answers every entrant after, in the caller's transaction.
pub fn enter_and_view(
    c: &mut DbConn,
    id: CompetitionId,
    entries: &[Entry],
    limits: &crate::limits::WorkLimits,
) -> ApiResult<Vec<EntrantView>> {
    enter(c, id, entries, limits)?;
    entrant_views(c, id)
}
