//! Standings of a competition (docs/rules/keizer.md#scoring, docs/rules/rapid-blitz.md, docs/rules/rapid-blitz.md#tie-breaks, docs/rules/draughts-championship.md#scoring-2-1-0-plusremise-and-minremise): the stored rounds, games and attendance turned
//! into the input of the pure engines — Keizer (`clubcomp_engine::keizer::standings`), round robin
//! (`clubcomp_engine::round_robin`) and Swiss tie-breaks over a TRF (`clubcomp_engine::tiebreaks`) — and the TRF
//! export (`clubcomp_engine::swiss::trf`). No scoring rule lives here.
//!
//! Which rounds count (docs/decisions/0012-results-standings-exports-prizes.md): the leading run of rounds numbered
//! 1, 2, 3, … that are `completed`, or `published` with a result on every game. A round that
//! does not count ends the run, so evenings always replay in order (docs/rules/keizer.md#recalculation).

use crate::error::{ApiError, ApiResult};
use crate::ids::{CompetitionId, PlayerId};
use crate::services::attendance::{Status, statuses};
use crate::services::competitions::discipline;
use crate::services::competitions::entrants_in_seed_order;
use crate::services::competitions::{
    CompetitionParams, RoundRobinParams, stored_params, stored_tiebreaks,
};
use crate::services::rounds;
use crate::services::rounds::ARBITER_DECISION;
use crate::store::DbConn;
use crate::store::models::competition::{Competition, Entrant, Game, Round};
use crate::store::models::players;
use crate::vocab::{CompetitionTiebreak, ResultCode, RoundStatus};
use clubcomp_engine::Fixed;
use clubcomp_engine::keizer as ks;
use clubcomp_engine::round_robin as rr;
use clubcomp_engine::swiss;
use clubcomp_engine::{CompetitionKind, PairingSystem};
use serde_json::Value;
use std::collections::HashMap;

/// A round with its games.
pub type RoundGames = (Round, Vec<Game>);

/// Whether a round counts for the standings: completed, or published with every result in.
fn round_counts(r: &Round, games: &[Game]) -> bool {
    r.status == RoundStatus::Completed
        || (r.status == RoundStatus::Published
            && !games.is_empty()
            && games.iter().all(|g| g.result.is_some()))
}

/// The rounds that count, in order (the leading run 1, 2, 3, … of counting rounds).
pub fn counted_rounds(c: &mut DbConn, competition: CompetitionId) -> ApiResult<Vec<RoundGames>> {
    let mut out = Vec::new();
    for (k, r) in rounds::list(c, competition)?.into_iter().enumerate() {
        // the play-off for first follows the final standings and is not one of their rounds
        if r.number != k as i32 + 1 || rounds::is_playoff_round(&r) {
            break;
        }
        let games = rounds::games_of(c, r.id)?;
        if !round_counts(&r, &games) {
            break;
        }
        out.push((r, games));
    }
    Ok(out)
}

/// The rounds the public may see (published or completed), in order, with their games.
pub fn public_rounds(c: &mut DbConn, competition: CompetitionId) -> ApiResult<Vec<RoundGames>> {
    let mut out = Vec::new();
    for r in rounds::list(c, competition)? {
        if rounds::is_public(r.status) {
            let games = rounds::games_of(c, r.id)?;
            out.push((r, games));
        }
    }
    Ok(out)
}

/// Player names by id.
pub fn names(
    c: &mut DbConn,
    ids: impl IntoIterator<Item = PlayerId>,
) -> ApiResult<HashMap<PlayerId, String>> {
    let mut out = HashMap::new();
    for id in ids {
        if let std::collections::hash_map::Entry::Vacant(e) = out.entry(id) {
            e.insert(players::by_id(c, id)?.map(|p| p.name).unwrap_or_default());
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// Keizer

/// The engine input of a Keizer half, with the number of evenings it holds.
#[derive(Debug, Clone)]
pub struct KeizerInput {
    /// The engine's competition (player ids are the decimal player ids).
    pub input: ks::Competition,
}

/// The Keizer parameters stored with a competition (validated when stored; an internal error
/// when they no longer decode).
pub fn keizer_params(comp: &Competition) -> ApiResult<ks::Params> {
    match stored_params(comp)?.typed {
        CompetitionParams::Keizer(p) => Ok(*p),
        _ => Err(ApiError::Conflict(format!(
            "competition {} is a {}, not a Keizer half",
            comp.id, comp.kind
        ))),
    }
}

/// The round-robin parameters stored with a competition.
fn round_robin_params(
    comp: &Competition,
) -> ApiResult<(serde_json::Map<String, Value>, RoundRobinParams)> {
    let stored = stored_params(comp)?;
    match stored.typed {
        CompetitionParams::RoundRobin(p) => Ok((stored.object, p)),
        _ => Err(ApiError::Conflict(format!(
            "competition {} is a {}, not a round robin",
            comp.id, comp.kind
        ))),
    }
}

/// The Keizer game result of a stored game (docs/rules/keizer.md#scoring: `arbiter_decision` losses).
fn keizer_result(g: &Game) -> Option<ks::KeizerResult> {
    use ks::KeizerResult::*;
    let arb = g.termination.as_deref() == Some(ARBITER_DECISION);
    Some(match g.result? {
        ResultCode::WhiteWins if arb => BlackLostByArbiter,
        ResultCode::BlackWins if arb => WhiteLostByArbiter,
        code => clubcomp_engine::keizer::parse_result(code.as_str())?,
    })
}

/// The order competition `comp` starts in (docs/rules/keizer.md#season-halves): a summer
/// Keizer half (`seeded_from`) in the winter's final order, the later entrants placed by
/// rating after it, as its standings start; every other competition in seed order. Answers the
/// player ids.
pub fn start_order(c: &mut DbConn, comp: &Competition) -> ApiResult<Vec<PlayerId>> {
    if comp.kind == CompetitionKind::Keizer && comp.seeded_from.is_some() {
        return keizer_input(c, comp)?
            .input
            .players
            .iter()
            .map(|p| PlayerId::from_engine(&p.id))
            .collect();
    }
    Ok(entrants_in_seed_order(c, comp.id)?
        .into_iter()
        .map(|e| e.player_id)
        .collect())
}

/// The entrants of competition `id` as shown, in the order it starts in ([`start_order`]),
/// numbered from 1 in that order (404 when there is no such competition).
pub fn entrants_in_start_order(
    c: &mut DbConn,
    id: CompetitionId,
) -> ApiResult<Vec<crate::services::competitions::EntrantView>> {
    let comp = crate::services::competitions::load(c, id)?;
    let mut views = crate::services::competitions::entrant_views(c, id)?;
    let order = start_order(c, &comp)?;
    let at = |pid: i64| {
        order
            .iter()
            .position(|p| p.get() == pid)
            .unwrap_or(usize::MAX)
    };
    views.sort_by_key(|v| at(v.player_id));
    for (i, v) in views.iter_mut().enumerate() {
        v.seed = i + 1;
    }
    Ok(views)
}

/// Builds the engine input of a Keizer half from its entrants, counted rounds, games and
/// attendance. A summer half (`seeded_from`) starts in the winter's final order with the
/// season's excused absences carried (`summer_start`).
pub fn keizer_input(c: &mut DbConn, comp: &Competition) -> ApiResult<KeizerInput> {
    let params = keizer_params(comp)?;
    let entrants = entrants_in_seed_order(c, comp.id)?;
    let row_of: HashMap<PlayerId, &Entrant> = entrants.iter().map(|e| (e.player_id, e)).collect();
    let mut players: Vec<ks::Entrant> = Vec::with_capacity(entrants.len());
    let mut excused_before = std::collections::BTreeMap::new();
    let mut placed = std::collections::HashSet::new();
    if let Some(w) = comp.seeded_from {
        let winter = crate::services::competitions::load(c, w)?;
        let wi = keizer_input(c, &winter)?;
        let computed = ks::compute_keizer(&wi.input)
            .map_err(|e| ApiError::Conflict(format!("winter half {w}: {e}")))?;
        let carry = match computed.last() {
            Some(last) => ks::summer_start(&wi.input, last),
            None => ks::SeasonCarry {
                players: wi.input.players.clone(),
                excused_before: wi.input.excused_before.clone(),
            },
        };
        for p in carry.players {
            if let Some(e) = row_of.get(&PlayerId::from_engine(&p.id)?) {
                placed.insert(e.player_id);
                if let Some(n) = carry.excused_before.get(&p.id) {
                    excused_before.insert(p.id.clone(), *n);
                }
                players.push(ks::Entrant {
                    id: p.id,
                    rating: e.rating,
                    joins_at: e.joins_at.max(1) as u32,
                    withdrawn_from: e.withdrawn_from.map(|w| w.max(1) as u32),
                });
            }
        }
    }
    for e in &entrants {
        if placed.contains(&e.player_id) {
            continue;
        }
        if e.excused_before > 0 {
            excused_before.insert(e.player_id.to_string(), e.excused_before as u32);
        }
        players.push(ks::Entrant {
            id: e.player_id.to_string(),
            rating: e.rating,
            joins_at: e.joins_at.max(1) as u32,
            withdrawn_from: e.withdrawn_from.map(|w| w.max(1) as u32),
        });
    }
    let flexible: HashMap<PlayerId, bool> = {
        let mut m = HashMap::new();
        for e in &entrants {
            let f = players::by_id(c, e.player_id)?
                .is_some_and(|p| p.membership == clubcomp_engine::Membership::Flexible);
            m.insert(e.player_id, f);
        }
        m
    };
    let mut evenings = Vec::new();
    for (k, (round, games)) in counted_rounds(c, comp.id)?.into_iter().enumerate() {
        let evening = k as u32 + 1;
        let mut ev = ks::KeizerEvening::default();
        let mut listed = std::collections::HashSet::new();
        for g in &games {
            match (g.white_id, g.black_id) {
                (Some(w), None) => {
                    listed.insert(w);
                    ev.byes.push(w.to_string());
                }
                (Some(w), Some(b)) => {
                    // a game without a result (only in a completed round) books nobody
                    if let Some(result) = keizer_result(g) {
                        listed.insert(w);
                        listed.insert(b);
                        ev.games.push(ks::KeizerGame {
                            white: w.to_string(),
                            black: b.to_string(),
                            result,
                        });
                    }
                }
                _ => {}
            }
        }
        let absent: Vec<(PlayerId, bool)> = players
            .iter()
            .filter(|p| p.joins_at <= evening)
            // a withdrawn player is no longer expected (docs/rules/keizer.md#withdrawal)
            .filter(|p| p.withdrawn_from.is_none_or(|w| w > evening))
            .map(|p| PlayerId::from_engine(&p.id))
            .collect::<ApiResult<Vec<PlayerId>>>()?
            .into_iter()
            .filter(|id| !listed.contains(id))
            .map(|id| (id, flexible.get(&id).copied().unwrap_or(false)))
            .collect();
        let st = statuses(c, round.id, &absent)?;
        for (id, _) in &absent {
            // docs/rules/keizer.md#scoring, docs/rules/keizer.md#attendance-and-deadlines: excused → with notice; anything else unpaired (unexcused, or
            // expected but not paired) → without notice
            match st.get(id) {
                Some(Status::Excused) => ev.excused.push(id.to_string()),
                _ => ev.unexcused.push(id.to_string()),
            }
        }
        evenings.push(ev);
    }
    Ok(KeizerInput {
        input: ks::Competition {
            params,
            players,
            excused_before,
            evenings,
        },
    })
}

/// Computes a Keizer half (409 when the stored data cannot be computed, naming why).
pub fn keizer_compute(input: &ks::Competition) -> ApiResult<Vec<ks::EveningStandings>> {
    ks::compute_keizer(input)
        .map_err(|e| ApiError::Conflict(format!("standings cannot be computed: {e}")))
}

// ---------------------------------------------------------------------------------------
// Round robin

/// Makes sure a round robin that breaks ties by lots has a stored drawing: a seed is generated
/// once and stored in the competition's params (`lots_seed`), docs/rules/draughts-championship.md#final-order-and-the-tie-break-chain.
pub fn ensure_lots_seed(c: &mut DbConn, comp: &Competition) -> ApiResult<Competition> {
    let tiebreaks = stored_tiebreaks(comp)?;
    let (mut object, params) = round_robin_params(comp)?;
    let lots = CompetitionTiebreak::RoundRobin(rr::RoundRobinTiebreak::Lots);
    let needs =
        tiebreaks.contains(&lots) && params.lots_seed.is_none() && params.lots_order.is_none();
    if !needs {
        return Ok(comp.clone());
    }
    // 53 bits: exact in every JSON reader
    object.insert("lots_seed".into(), Value::from(rand::random::<u64>() >> 11));
    // conditional on the params read, so two first readers store one seed
    crate::services::competitions::rows::replace_params(
        c,
        comp.id,
        &comp.params,
        &Value::Object(object).to_string(),
    )?;
    crate::services::competitions::load(c, comp.id)
}

/// Builds the round-robin scenario: entrants in seed order (pairing numbers), the games with
/// a result of rounds numbered up to `upto`, the tie-break list, the lots drawing and the
/// points tables, prize money and rights stored in the params.
pub fn round_robin_scenario(
    c: &mut DbConn,
    comp: &Competition,
    upto: Option<i32>,
) -> ApiResult<rr::Scenario> {
    let entrants = entrants_in_seed_order(c, comp.id)?;
    let nm = names(c, entrants.iter().map(|e| e.player_id))?;
    let mut games = Vec::new();
    for (r, gs) in public_rounds(c, comp.id)? {
        if upto.is_some_and(|u| r.number > u) {
            continue;
        }
        for g in gs {
            if let (Some(w), Some(b), Some(res)) = (g.white_id, g.black_id, g.result) {
                games.push(serde_json::json!({
                    "round": r.number, "white": w.to_string(), "black": b.to_string(),
                    "result": res,
                }));
            }
        }
    }
    let (_, params) = round_robin_params(comp)?;
    let mut s = serde_json::json!({
        "discipline": comp.discipline,
        "players": entrants.iter().map(|e| serde_json::json!({
            "id": e.player_id.to_string(), "name": nm.get(&e.player_id)})).collect::<Vec<_>>(),
        "games": games,
        "tiebreaks": stored_tiebreaks(comp)?,
    });
    // docs/rules/draughts-championship.md#withdrawal: the engine applies the rule
    let withdrawn: Vec<Value> = entrants
        .iter()
        .filter_map(|e| {
            e.withdrawn_from
                .map(|w| serde_json::json!({"id": e.player_id.to_string(), "from_round": w.max(1)}))
        })
        .collect();
    if !withdrawn.is_empty() {
        s["withdrawn"] = Value::from(withdrawn);
        if comp.system == Some(PairingSystem::Double) {
            s["cycles"] = Value::from(2);
        }
    }
    let mut scenario: rr::Scenario = serde_json::from_value(s)
        .map_err(|e| ApiError::Conflict(format!("competition {} games: {e}", comp.id)))?;
    params.apply(&mut scenario);
    Ok(scenario)
}

/// Computes a round robin (409 naming the problem when the stored data does not compute).
pub fn round_robin_compute(s: &rr::Scenario) -> ApiResult<rr::RoundRobinOutput> {
    rr::compute_round_robin(s)
        .map_err(|e| ApiError::Conflict(format!("standings cannot be computed: {e}")))
}

// ---------------------------------------------------------------------------------------
// Swiss and TRF

/// Games per round of a competition: 2 for a Double-Swiss (docs/rules/rapid-blitz.md#double-swiss).
pub fn games_per_round(comp: &Competition) -> usize {
    if comp.system == Some(PairingSystem::DoubleSwiss) {
        2
    } else {
        1
    }
}

/// The TRF result characters of a stored result code for (white, black).
fn trf_codes(
    d: clubcomp_engine::Discipline,
    code: Option<&str>,
) -> (swiss::ResultCode, swiss::ResultCode) {
    use swiss::ResultCode as R;
    let Some(r) = code.and_then(|c| rr::RoundRobinResult::parse(d, c)) else {
        return (R::Pending, R::Pending);
    };
    let map = |o: rr::SideOutcome| match o {
        rr::SideOutcome::Win => R::Win,
        rr::SideOutcome::ForfeitWin => R::ForfeitWin,
        rr::SideOutcome::Draw | rr::SideOutcome::Plusremise | rr::SideOutcome::Minremise => R::Draw,
        rr::SideOutcome::Loss => R::Loss,
        rr::SideOutcome::ForfeitLoss => R::ForfeitLoss,
    };
    let (w, b) = r.outcomes();
    (map(w), map(b))
}

/// Builds a TRF-16 tournament from the given rounds: entrants in seed order are the pairing
/// numbers; a pairing-allocated bye is `U` (never `F`), an absence `Z`, a game without a
/// result is left blank; a Double-Swiss round takes two TRF rounds (one per game).
pub fn build_trf(
    c: &mut DbConn,
    comp: &Competition,
    rounds: &[RoundGames],
) -> ApiResult<(swiss::Tournament, Vec<PlayerId>)> {
    let entrants = entrants_in_seed_order(c, comp.id)?;
    let gpr = games_per_round(comp);
    let number: HashMap<PlayerId, u32> = entrants
        .iter()
        .enumerate()
        .map(|(i, e)| (e.player_id, i as u32 + 1))
        .collect();
    let absent = swiss::RoundEntry {
        opponent: None,
        colour: None,
        result: swiss::ResultCode::ZeroBye,
    };
    let slots = rounds.len() * gpr;
    let mut entries = vec![vec![absent; slots]; entrants.len()];
    let d = discipline(comp);
    for (k, (_, games)) in rounds.iter().enumerate() {
        for g in games {
            let Some(w) = g.white_id.and_then(|w| number.get(&w)).copied() else {
                continue;
            };
            match g.black_id.and_then(|b| number.get(&b)).copied() {
                None => {
                    // the pairing bye covers every game of the round
                    for s in 0..gpr {
                        entries[w as usize - 1][k * gpr + s] = swiss::RoundEntry {
                            opponent: None,
                            colour: None,
                            result: swiss::ResultCode::PairingBye,
                        };
                    }
                }
                Some(b) => {
                    let slot = k * gpr + (g.game_no.clamp(1, gpr as i32) as usize - 1);
                    let (rw, rb) = trf_codes(d, g.result.map(ResultCode::as_str));
                    entries[w as usize - 1][slot] = swiss::RoundEntry {
                        opponent: Some(b),
                        colour: Some(clubcomp_engine::Colour::White),
                        result: rw,
                    };
                    entries[b as usize - 1][slot] = swiss::RoundEntry {
                        opponent: Some(w),
                        colour: Some(clubcomp_engine::Colour::Black),
                        result: rb,
                    };
                }
            }
        }
    }
    let mut players = Vec::with_capacity(entrants.len());
    for (i, e) in entrants.iter().enumerate() {
        let p = players::by_id(c, e.player_id)?;
        let rounds = std::mem::take(&mut entries[i]);
        let half: u32 = rounds.iter().map(|r| r.result.half_points()).sum();
        players.push(swiss::TrfPlayer {
            id: i as u32 + 1,
            sex: String::new(),
            title: String::new(),
            name: p.as_ref().map(|p| p.name.clone()).unwrap_or_default(),
            rating: e.rating.map_or(0, |r| r.max(0) as u32),
            federation: String::new(),
            fide_id: p.and_then(|p| p.fide_id).unwrap_or_default(),
            birth: String::new(),
            points: Fixed(i64::from(half) * 5_000),
            rank: 0,
            rounds,
        });
    }
    let kind_line = match (comp.kind, gpr) {
        (CompetitionKind::RoundRobin, _) => "092 ROUND ROBIN",
        (_, 2) => "092 DOUBLESWISS",
        _ => "092 SWISS DUTCH",
    };
    let planned = comp
        .rounds_planned
        .map_or(rounds.len(), |r| (r.max(0) as usize).max(rounds.len()));
    let mut layout = vec![
        swiss::Line::Name,
        swiss::Line::Raw(kind_line.to_string()),
        swiss::Line::TotalRounds,
        swiss::Line::InitialColour,
    ];
    layout.extend((0..players.len()).map(swiss::Line::Player));
    let ids = entrants.iter().map(|e| e.player_id).collect();
    Ok((
        swiss::Tournament {
            name: Some(comp.name.clone()),
            total_rounds: Some((planned * gpr) as u32),
            initial_colour: Some(clubcomp_engine::Colour::White),
            initial_colour_text: None,
            players,
            layout,
            line_ending: "\n".into(),
            final_line_ending: true,
        },
        ids,
    ))
}

/// Swiss standings: the competition's FIDE tie-break list over the TRF of the counted rounds.
pub fn swiss_compute(
    c: &mut DbConn,
    comp: &Competition,
    rounds: &[RoundGames],
) -> ApiResult<(clubcomp_engine::tiebreaks::Standings, Vec<PlayerId>)> {
    let (st, _, ids) = swiss_compute_with_trf(c, comp, rounds)?;
    Ok((st, ids))
}

/// [`swiss_compute`] with the tournament file it was computed from (its players in start
/// order, each with their rounds).
pub fn swiss_compute_with_trf(
    c: &mut DbConn,
    comp: &Competition,
    rounds: &[RoundGames],
) -> ApiResult<(
    clubcomp_engine::tiebreaks::Standings,
    swiss::Tournament,
    Vec<PlayerId>,
)> {
    let (t, ids) = build_trf(c, comp, rounds)?;
    let list = stored_tiebreaks(comp)?
        .into_iter()
        .map(|t| {
            t.fide().ok_or_else(|| {
                ApiError::Conflict(format!(
                    "competition {}: tiebreaks: {t} is not a FIDE tie-break",
                    comp.id
                ))
            })
        })
        .collect::<ApiResult<Vec<_>>>()?;
    let input = clubcomp_engine::tiebreaks::input_from_trf(&t);
    let st = clubcomp_engine::tiebreaks::compute_tiebreaks(&input, &list)
        .map_err(|e| ApiError::Conflict(format!("standings cannot be computed: {e}")))?;
    Ok((st, t, ids))
}

/// The FIDE TRF-16 export of a Swiss or round robin (409 for another kind): its published and
/// completed rounds, without the play-off for first (not a round of the tournament file).
pub fn trf_export(c: &mut DbConn, comp: &Competition) -> ApiResult<String> {
    if !matches!(
        comp.kind,
        CompetitionKind::Swiss | CompetitionKind::RoundRobin
    ) {
        return Err(ApiError::Conflict(format!(
            "TRF export is for Swiss and round-robin competitions, not {}",
            comp.kind
        )));
    }
    let mut rounds = public_rounds(c, comp.id)?;
    rounds.retain(|(r, _)| !rounds::is_playoff_round(r));
    let (t, _) = build_trf(c, comp, &rounds)?;
    Ok(swiss::write_trf(&t))
}
