//! Prizes and playoffs (docs/rules/keizer.md#prizes, docs/rules/keizer.md#playoffs, docs/rules/draughts-championship.md#master-points): the prize list of a Keizer half
//! (`clubcomp_engine::keizer::prizes`) or a round robin (points tables, prize money and rights of the
//! round-robin engine), its finalization, and the Keizer playoffs (`clubcomp_engine::keizer::playoffs`):
//! groups, colours by lot from a stored seed, and the games that become due as results come in.
//!
//! Playoff games are stored as ordinary games of a `knockout` competition: round 1 holds the
//! semi-finals, round 2 the finals; `board = group × 10 + match` (1 = semi 1–4, 2 = semi 2–3,
//! 3 = final) and `game_no` 1 for the game, 2 for the decider.

use crate::error::{ApiError, ApiResult};
use crate::ids::{CompetitionId, PlayerId, RoundId, SeasonId};
use crate::services::competitions::{CompetitionParams, KnockoutParams};
use crate::services::rounds;
use crate::services::standings as st;
use crate::store::DbConn;
use crate::store::models::competition::{
    Competition, Game, NewAuditEntry, NewCompetition, NewEntrant, NewGame, NewRound, Round, audit,
};
use crate::store::models::events::{EventKind, NewEvent, Visibility};
use crate::store::now_utc;
use crate::store::schema::{competitions as cm, prize_lists as pl};
use crate::store::stamps::Scope;
use crate::vocab::RoundStatus;
use clubcomp_engine::CompetitionKind;
use clubcomp_engine::Half;
use clubcomp_engine::keizer::{self, PrizeOutcome};
use clubcomp_engine::keizer::{
    EnteredResult, GroupState, MatchId, PlayoffGameResult, group_state, playoff_groups,
};
use diesel::prelude::*;

/// The computed prizes of a Keizer half (ids are decimal player ids).
pub fn keizer_prizes(c: &mut DbConn, comp: &Competition) -> ApiResult<(Half, PrizeOutcome)> {
    let input = st::keizer_input(c, comp)?.input;
    let out = st::keizer_compute(&input)?;
    // a Keizer competition without a half is treated as a winter half (docs/decisions)
    let half = comp.half.unwrap_or(Half::Winter);
    Ok((half, keizer::award(half, &keizer::candidates(&input, &out))))
}

/// 409 unless the competition has rounds and every one is completed.
pub fn require_finished(c: &mut DbConn, comp: &Competition) -> ApiResult<()> {
    let rs = rounds::list(c, comp.id)?;
    if rs.is_empty() {
        return Err(ApiError::Conflict(format!(
            "competition {} has no rounds yet",
            comp.id
        )));
    }
    if let Some(r) = rs.iter().find(|r| r.status != RoundStatus::Completed) {
        return Err(ApiError::Conflict(format!(
            "round {} of competition {} is {}; every round must be completed",
            r.number, comp.id, r.status
        )));
    }
    Ok(())
}

pub use crate::services::competitions::PlayoffParams;

/// Reads the playoff params of a knockout competition (409 when it is not a playoff).
pub fn playoff_params(comp: &Competition) -> ApiResult<PlayoffParams> {
    if comp.kind != CompetitionKind::Knockout {
        return Err(ApiError::Conflict(format!(
            "competition {} is a {}, not playoffs",
            comp.id, comp.kind
        )));
    }
    match crate::services::competitions::stored_params(comp)?.typed {
        CompetitionParams::Knockout(KnockoutParams {
            playoff: Some(playoff),
        }) => Ok(playoff),
        _ => Err(ApiError::Conflict(format!(
            "competition {} is a knockout without a playoff draw",
            comp.id
        ))),
    }
}

fn match_no(m: MatchId) -> i32 {
    match m {
        MatchId::Semi1 => 1,
        MatchId::Semi2 => 2,
        MatchId::Final => 3,
    }
}

fn match_of(n: i32) -> Option<MatchId> {
    match n {
        1 => Some(MatchId::Semi1),
        2 => Some(MatchId::Semi2),
        3 => Some(MatchId::Final),
        _ => None,
    }
}

fn outcome(code: crate::vocab::ResultCode) -> Option<PlayoffGameResult> {
    use crate::vocab::ResultCode as Code;
    Some(match code {
        Code::WhiteWins | Code::WhiteForfeitWin => PlayoffGameResult::WhiteWins,
        Code::BlackWins | Code::BlackForfeitWin => PlayoffGameResult::BlackWins,
        Code::Draw | Code::DrawHalves => PlayoffGameResult::Draw,
        _ => return None,
    })
}

/// The state of every group from the stored games, with the games by (group, match, game).
pub fn playoff_states(
    c: &mut DbConn,
    comp: &Competition,
) -> ApiResult<(PlayoffParams, Vec<GroupState>, Vec<Game>)> {
    let p = playoff_params(comp)?;
    let mut all = Vec::new();
    for r in rounds::list(c, comp.id)? {
        all.extend(rounds::games_of(c, r.id)?);
    }
    let mut states = Vec::new();
    for g in &p.draw.groups {
        let mut results = Vec::new();
        for game in all.iter().filter(|x| x.board / 10 == g.number as i32) {
            if let (Some(m), Some(o)) = (match_of(game.board % 10), game.result.and_then(outcome)) {
                results.push(EnteredResult {
                    match_id: m,
                    game: game.game_no as u8,
                    outcome: o,
                });
            }
        }
        states.push(
            group_state(g, p.colour_seed, &results)
                .map_err(|e| ApiError::Conflict(format!("playoffs: {e}")))?,
        );
    }
    Ok((p, states, all))
}

/// Brings the stored playoff games in line with the group states: games that became due
/// (deciders, finals) are created, games no longer due and without a result are removed; a
/// correction that would leave a played later game stranded is refused (409).
pub fn sync_playoff_games(c: &mut DbConn, comp: &Competition) -> ApiResult<()> {
    let (_, states, stored) = playoff_states(c, comp)?;
    let rs: Vec<Round> = rounds::list(c, comp.id)?;
    let mut wanted = Vec::new();
    for s in &states {
        for m in &s.matches {
            for g in &m.games {
                let white = PlayerId::from_engine(&g.white)?;
                let black = PlayerId::from_engine(&g.black)?;
                wanted.push((
                    s.group as i32 * 10 + match_no(m.id),
                    i32::from(g.game),
                    white,
                    black,
                    m.id,
                ));
            }
        }
    }
    for g in &stored {
        let ok = wanted.iter().any(|w| {
            w.0 == g.board && w.1 == g.game_no && Some(w.2) == g.white_id && Some(w.3) == g.black_id
        });
        if !ok {
            if g.result.is_some() {
                return Err(ApiError::Conflict(format!(
                    "this change would strand the played game {} (board {}, game {}); correct that game first",
                    g.id, g.board, g.game_no
                )));
            }
            crate::services::round_rows::delete_game(c, g.id)?;
        }
    }
    // the rounds that gained games: their pairing grew, and is told like any other
    let mut paired: Vec<RoundId> = Vec::new();
    for (board, game_no, white, black, m) in wanted {
        let exists = stored.iter().any(|g| {
            g.board == board
                && g.game_no == game_no
                && g.white_id == Some(white)
                && g.black_id == Some(black)
        });
        if exists {
            continue;
        }
        let number = if m == MatchId::Final { 2 } else { 1 };
        let Some(round) = rs.iter().find(|r| r.number == number) else {
            return Err(ApiError::Conflict(format!(
                "playoff round {number} is missing"
            )));
        };
        crate::services::round_rows::insert_game(
            c,
            &NewGame {
                round_id: round.id,
                board,
                game_no,
                white_id: Some(white),
                black_id: Some(black),
                result: None,
                termination: None,
                move_count: None,
                version: 1,
                updated_at: now_utc(),
            },
        )?;
        if !paired.contains(&round.id) {
            paired.push(round.id);
        }
    }
    crate::store::stamps::touch(c, Scope::Competition(comp.id))?;
    for round in rs.iter().filter(|r| paired.contains(&r.id)) {
        // games added to a round the public sees are published with it; to one still paired,
        // they are the leader's until the round is published
        let (kind, visibility) = if rounds::is_public(round.status) {
            (EventKind::PairingPublished, Visibility::Public)
        } else {
            (EventKind::PairingGenerated, Visibility::Leader)
        };
        crate::store::stamps::record(c, rounds::round_event(round, kind, visibility))?;
    }
    Ok(())
}

/// A stored (finalized) prize list.
#[derive(Debug, Clone)]
pub struct Finalized {
    /// The list as JSON.
    pub body: String,
    /// Who finalized it.
    pub by: String,
    /// When.
    pub at: chrono::NaiveDateTime,
}

/// The finalized prize list of a competition, if stored.
pub fn finalized(c: &mut DbConn, comp: CompetitionId) -> ApiResult<Option<Finalized>> {
    let row: Option<(String, String, chrono::NaiveDateTime)> = pl::table
        .filter(pl::competition_id.eq(comp))
        .select((pl::body, pl::finalized_by, pl::finalized_at))
        .first(c)
        .optional()?;
    Ok(row.map(|(body, by, at)| Finalized { body, by, at }))
}

/// Finalizes the prize list of competition `id` in the caller's transaction: every round must
/// be completed; `compute` gives the list (as JSON) that is stored, audited and from then on
/// shown. A second finalize is 409.
pub fn finalize(
    c: &mut DbConn,
    id: CompetitionId,
    actor: &str,
    compute: impl FnOnce(&mut DbConn, &Competition) -> ApiResult<String>,
) -> ApiResult<()> {
    let comp = crate::services::competitions::load(c, id)?;
    if finalized(c, id)?.is_some() {
        return Err(ApiError::Conflict(format!(
            "the prizes of competition {id} are already finalized"
        )));
    }
    require_finished(c, &comp)?;
    let body = compute(c, &comp)?;
    let now = now_utc();
    diesel::insert_into(pl::table)
        .values((
            pl::competition_id.eq(id),
            pl::body.eq(&body),
            pl::finalized_by.eq(actor),
            pl::finalized_at.eq(now),
        ))
        .execute(c)
        .map_err(|e| match ApiError::from(e) {
            ApiError::AlreadyExists { .. } => ApiError::Conflict(format!(
                "the prizes of competition {id} are already finalized"
            )),
            other => other,
        })?;
    audit(
        c,
        &NewAuditEntry {
            entity: crate::vocab::AuditEntity::Competition,
            entity_id: id.get(),
            action: "prizes_finalized".into(),
            actor: actor.to_string(),
            at: now,
            old_value: None,
            new_value: Some(body),
            reason: None,
        },
    )?;
    crate::store::stamps::touch(c, Scope::Competition(id))?;
    crate::store::stamps::record(
        c,
        NewEvent::new(EventKind::PrizesFinalized, Visibility::Public).competition(id),
    )?;
    Ok(())
}

/// Creates the playoffs of a season in the caller's transaction (docs/rules/keizer.md#playoffs):
/// a `knockout` competition from the summer half's final standings and prize eligibility, with
/// the groups of four (colour seed stored), round 1 for the semi-finals and round 2 for the
/// finals, and the first games. 409 without one finished summer half, with fewer than two
/// eligible players, or when the playoffs exist.
pub fn create_playoffs(c: &mut DbConn, season: SeasonId, actor: &str) -> ApiResult<Competition> {
    let s = crate::services::seasons::load(c, season)?;
    let summers: Vec<Competition> = cm::table
        .filter(cm::season_id.eq(season))
        .filter(cm::kind.eq(CompetitionKind::Keizer.as_str()))
        .filter(cm::half.eq(clubcomp_engine::Half::Summer.as_str()))
        .order(cm::id)
        .select(Competition::as_select())
        .load(c)?;
    let summer = match summers.as_slice() {
        [one] => one.clone(),
        [] => {
            return Err(ApiError::Conflict(format!(
                "season {season} has no summer Keizer half"
            )));
        }
        _ => {
            return Err(ApiError::Conflict(format!(
                "season {season} has several summer Keizer halves"
            )));
        }
    };
    let knockouts: Vec<Competition> = cm::table
        .filter(cm::season_id.eq(season))
        .filter(cm::kind.eq(CompetitionKind::Knockout.as_str()))
        .select(Competition::as_select())
        .load(c)?;
    if knockouts
        .iter()
        .any(|k| playoff_params(k).is_ok_and(|p| p.summer_competition == summer.id.get()))
    {
        return Err(ApiError::Conflict(format!(
            "the playoffs of season {season} already exist"
        )));
    }
    require_finished(c, &summer)?;
    let (_, outcome) = keizer_prizes(c, &summer)?;
    if outcome.playoff_places.len() < 2 {
        return Err(ApiError::Conflict(
            "fewer than two eligible players: no playoffs".into(),
        ));
    }
    let draw = playoff_groups(&outcome.playoff_places);
    // docs/rules/keizer.md#playoffs Decision: colours by lot, seed stored (53 bits, exact in JSON)
    let params = PlayoffParams {
        summer_competition: summer.id.get(),
        colour_seed: rand::random::<u64>() >> 11,
        draw,
    };
    let now = now_utc();
    let comp = crate::services::competitions::rows::insert_competition(
        c,
        &NewCompetition {
            season_id: season,
            name: format!("Playoffs {}", s.name),
            kind: CompetitionKind::Knockout.into(),
            discipline: summer.discipline.into(),
            system: None,
            half: None,
            seeded_from: None,
            params: serde_json::to_string(&params).unwrap_or_default(),
            tiebreaks: "[]".into(),
            time_control: summer.time_control.clone(),
            rules: summer.rules.clone(),
            rounds_planned: Some(2),
            version: 1,
            created_at: now,
            updated_at: now,
        },
    )?;
    let mut seed = 0;
    for g in &params.draw.groups {
        for p in &g.seeds {
            seed += 1;
            crate::services::competitions::rows::insert_entrant(
                c,
                &NewEntrant {
                    competition_id: comp.id,
                    player_id: PlayerId::from_engine(p)?,
                    seed,
                    rating: None,
                    joins_at: 1,
                    excused_before: 0,
                    created_at: now,
                },
            )?;
        }
    }
    for number in 1..=2 {
        crate::services::round_rows::insert_round(
            c,
            &NewRound {
                    competition_id: comp.id,
                    number,
                    evening_id: None,
                    date: None,
                    status: RoundStatus::Paired,
                    pairing_meta: Some(
                        serde_json::json!({"playoffs": if number == 1 { "semi-finals" } else { "finals" },
                            "colour_seed": params.colour_seed})
                        .to_string(),
                    ),
                    version: 1,
                    updated_at: now,
                },
        )?;
    }
    // the first games; deciders and finals follow from the results (sync)
    sync_playoff_games(c, &comp)?;
    audit(
        c,
        &NewAuditEntry {
            entity: crate::vocab::AuditEntity::Competition,
            entity_id: comp.id.get(),
            action: "playoffs_created".into(),
            actor: actor.to_string(),
            at: now,
            old_value: None,
            new_value: Some(comp.params.clone()),
            reason: None,
        },
    )?;
    Ok(comp)
}
