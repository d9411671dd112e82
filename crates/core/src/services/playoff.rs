//! The play-off for first place of a Swiss competition (docs/rules/rapid-blitz.md#the-play-off-for-first):
//! when the final standings still share first place after the whole tie-break list (in the
//! blitz championship: when several players share the top score), the candidates play every other candidate with both colours, paired by FIDE's Berger tables
//! (`clubcomp_engine::blitz::first_place_playoff`); the games are decided on play-off points
//! (`clubcomp_engine::blitz::decide_playoff`), and a play-off still tied is decided by the
//! arbiter, whose decision is recorded and audited.
//!
//! The play-off is stored as one round of the competition, numbered after its last round,
//! whose `pairing_meta` holds `{"playoff": "first", "candidates": [...]}` (and, once made,
//! the arbiter's decision). Its games are ordinary games (boards 1, 2, … in the order of the
//! Berger rounds, `game_no` the play-off round), so results are entered like any other; the
//! standings count only the rounds before it.

use crate::error::{ApiError, ApiResult};
use crate::ids::{CompetitionId, PlayerId};
use crate::services::rounds;
use crate::services::standings as st;
use crate::store::DbConn;
use crate::store::models::competition::{
    Competition, NewAuditEntry, NewGame, NewRound, Round, audit,
};
use crate::store::now_utc;
use crate::store::schema::rounds as rd;
use crate::store::stamps::Scope;
use crate::vocab::{FirstPlaceStatus, RoundStatus};
use clubcomp_engine::CompetitionKind;
use clubcomp_engine::blitz::{
    FirstPlaceTie, PlayoffDecision, PlayoffResult, decide_playoff, first_place_playoff,
    title_candidates,
};
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashMap;
use utoipa::ToSchema;

/// The marker of a play-off round in `pairing_meta`.
const MARKER: &str = "first";

/// What a play-off round stores in its `pairing_meta`.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Meta {
    /// Always `first`.
    playoff: String,
    /// The candidates (player ids) in their order in the final standings: Berger numbers 1, 2, ….
    candidates: Vec<PlayerId>,
    /// The arbiter's decision, once made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    decision: Option<StoredDecision>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct StoredDecision {
    player_id: PlayerId,
    by: String,
    at: chrono::NaiveDateTime,
    reason: String,
}

fn meta_of(r: &Round) -> Option<Meta> {
    let m: Meta = serde_json::from_str(r.pairing_meta.as_deref()?).ok()?;
    (m.playoff == MARKER).then_some(m)
}

/// A player of the play-off.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct FirstPlaceCandidate {
    /// Player id.
    pub player_id: i64,
    /// Name.
    pub name: String,
}

/// One play-off game.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FirstPlaceGame {
    /// Game id: its result is entered with `PUT /api/v1/games/{id}/result`.
    pub game_id: i64,
    /// Play-off round (Berger round), from 1.
    pub playoff_round: i32,
    /// Board within the play-off round (the order of the Berger table).
    pub board: i32,
    /// White.
    pub white: FirstPlaceCandidate,
    /// Black.
    pub black: FirstPlaceCandidate,
    /// Result code, when entered.
    #[schema(value_type = Option<crate::services::results::ResultCode>)]
    #[schema(required = true)]
    pub result: Option<crate::vocab::ResultCode>,
}

/// The arbiter's decision of a play-off still tied.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FirstPlaceDecision {
    /// Who is first.
    pub player_id: i64,
    /// The arbiter (e-mail or service label).
    pub decided_by: String,
    /// When (UTC).
    #[serde(serialize_with = "crate::wire::utc")]
    pub decided_at: chrono::DateTime<chrono::Utc>,
    /// The reason given.
    pub reason: String,
}

/// The play-off for first of a competition.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FirstPlacePlayoff {
    /// Competition id.
    pub competition_id: i64,
    /// The number of the round that holds the play-off games.
    pub round_number: i32,
    /// The candidates in their order in the final standings (Berger numbers 1, 2, …).
    pub candidates: Vec<FirstPlaceCandidate>,
    /// The games in Berger order.
    pub games: Vec<FirstPlaceGame>,
    /// Play-off points per candidate (player id → points), over the games with a result.
    #[schema(value_type = Object)]
    pub points: Value,
    /// `pending` (games without a result), `champion` (most play-off points), `arbiter_decides`
    /// (still tied: the arbiter decides among `tied`) or `decided` (by the arbiter).
    pub status: FirstPlaceStatus,
    /// First place, once known (`champion` or `decided`).
    #[schema(required = true)]
    pub first: Option<i64>,
    /// The candidates still tied after the play-off (`arbiter_decides` and `decided`).
    pub tied: Vec<i64>,
    /// The arbiter's decision, when one was needed and made.
    #[schema(required = true)]
    pub arbiter_decision: Option<FirstPlaceDecision>,
}

/// White's half points of a stored chess result in the play-off (none: no result that counts).
fn white_half_points(code: crate::vocab::ResultCode) -> Option<u8> {
    use crate::vocab::ResultCode as Code;
    match code {
        Code::WhiteWins | Code::WhiteForfeitWin => Some(2),
        Code::BlackWins | Code::BlackForfeitWin => Some(0),
        Code::Draw | Code::DrawHalves => Some(1),
        _ => None,
    }
}

fn round_and_meta(c: &mut DbConn, competition: CompetitionId) -> ApiResult<Option<(Round, Meta)>> {
    Ok(rounds::list(c, competition)?
        .into_iter()
        .find_map(|r| meta_of(&r).map(|m| (r, m))))
}

fn names_of(c: &mut DbConn, ids: &[PlayerId]) -> ApiResult<HashMap<PlayerId, String>> {
    st::names(c, ids.iter().copied())
}

fn list_names(ids: &[PlayerId], names: &HashMap<PlayerId, String>) -> String {
    ids.iter()
        .map(|id| {
            format!(
                "{} (player {id})",
                names.get(id).cloned().unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The play-off of a competition, if it has one.
pub fn view(c: &mut DbConn, comp: &Competition) -> ApiResult<Option<FirstPlacePlayoff>> {
    let Some((round, meta)) = round_and_meta(c, comp.id)? else {
        return Ok(None);
    };
    let names = names_of(c, &meta.candidates)?;
    let player = |id: PlayerId| FirstPlaceCandidate {
        player_id: id.get(),
        name: names.get(&id).cloned().unwrap_or_default(),
    };
    let stored = rounds::games_of(c, round.id)?;
    let mut points: HashMap<PlayerId, u32> = meta.candidates.iter().map(|&id| (id, 0)).collect();
    let mut results = Vec::new();
    let mut games_view = Vec::new();
    for g in &stored {
        let (Some(w), Some(b)) = (g.white_id, g.black_id) else {
            continue;
        };
        if let Some(hp) = g.result.and_then(white_half_points) {
            *points.entry(w).or_default() += u32::from(hp);
            *points.entry(b).or_default() += 2 - u32::from(hp);
            results.push(PlayoffResult {
                white: w.to_string(),
                black: b.to_string(),
                white_half_points: hp,
            });
        }
        games_view.push(FirstPlaceGame {
            game_id: g.id.get(),
            playoff_round: g.game_no,
            board: g.board,
            white: player(w),
            black: player(b),
            result: g.result,
        });
    }
    let ids: Vec<String> = meta.candidates.iter().map(PlayerId::to_string).collect();
    let (mut status, mut first, tied) = match decide_playoff(&ids, &results) {
        Ok(PlayoffDecision::Champion { id }) => (
            FirstPlaceStatus::Champion,
            Some(PlayerId::from_engine(&id)?.get()),
            vec![],
        ),
        Ok(PlayoffDecision::ArbiterDecides { tied }) => (
            FirstPlaceStatus::ArbiterDecides,
            None,
            PlayerId::numbers_from_engine(&tied)?,
        ),
        Err(_) => (FirstPlaceStatus::Pending, None, vec![]),
    };
    let decision = meta
        .decision
        .as_ref()
        .filter(|_| status == FirstPlaceStatus::ArbiterDecides);
    if let Some(d) = decision {
        status = FirstPlaceStatus::Decided;
        first = Some(d.player_id.get());
    }
    let mut pts = serde_json::Map::new();
    for id in &meta.candidates {
        let hp = points.get(id).copied().unwrap_or(0);
        let v =
            serde_json::Number::from_f64(f64::from(hp) / 2.0).map_or(Value::Null, Value::Number);
        pts.insert(id.to_string(), v);
    }
    Ok(Some(FirstPlacePlayoff {
        competition_id: comp.id.get(),
        round_number: round.number,
        candidates: meta.candidates.iter().map(|&id| player(id)).collect(),
        games: games_view,
        points: Value::Object(pts),
        status,
        first,
        tied,
        arbiter_decision: decision.map(|d| FirstPlaceDecision {
            player_id: d.player_id.get(),
            decided_by: d.by.clone(),
            decided_at: d.at.and_utc(),
            reason: d.reason.clone(),
        }),
    }))
}

/// The play-off for first place of competition `id`: 404 when there is no such competition,
/// or when it has no play-off.
pub fn of_competition(c: &mut DbConn, id: CompetitionId) -> ApiResult<FirstPlacePlayoff> {
    let comp = crate::services::competitions::load(c, id)?;
    view(c, &comp)?
        .ok_or_else(|| ApiError::NotFound(format!("competition {id} has no play-off for first")))
}

/// Minutes per player of a blitz championship's play-off game (club rules,
/// *Snelschaakkampioenschap*).
pub const BLITZ_PLAYOFF_MINUTES: u32 = 5;

/// Which tie for first a competition's play-off settles: the blitz championship plays off
/// every player on the top score (club rules, *Snelschaakkampioenschap* 4: the tie-breaks
/// decide the other places), the rapid only a first place the whole tie-break list leaves
/// shared.
pub fn first_place_tie(comp: &Competition) -> ApiResult<FirstPlaceTie> {
    Ok(if crate::services::check_in::is_blitz(comp)? {
        FirstPlaceTie::OnPoints
    } else {
        FirstPlaceTie::AfterTiebreaks
    })
}

/// The final Swiss standings `standings` of `comp` (its numbers 1, 2, … mapped to player ids by
/// `ids`) with the play-off for first applied once it has a winner
/// (`clubcomp_engine::blitz::standings_after_playoff`): the champion first, the other
/// candidates after. Answers the play-off, if there is one. Every page that shows a Swiss's
/// final order reads it through here.
pub fn apply_to_standings(
    c: &mut DbConn,
    comp: &Competition,
    standings: &mut clubcomp_engine::tiebreaks::Standings,
    ids: &[PlayerId],
) -> ApiResult<Option<FirstPlacePlayoff>> {
    let Some(playoff) = view(c, comp)? else {
        return Ok(None);
    };
    let number = |pid: i64| {
        ids.iter()
            .position(|p| p.get() == pid)
            .map(|k| k as u32 + 1)
    };
    if let Some(first) = playoff.first.and_then(number) {
        let candidates: Vec<u32> = playoff
            .candidates
            .iter()
            .filter_map(|p| number(p.player_id))
            .collect();
        clubcomp_engine::blitz::standings_after_playoff(standings, &candidates, first);
    }
    Ok(Some(playoff))
}

/// Which of the players `ids` may take the title of `comp`
/// (docs/rules/rapid-blitz.md#guests-and-the-title; decision 0286): everyone, except the
/// guests of a blitz championship whose `guest_title` is `members_only`.
pub fn may_take_title(
    c: &mut DbConn,
    comp: &Competition,
    ids: &[PlayerId],
) -> ApiResult<Vec<bool>> {
    use crate::services::competitions::{CompetitionParams, SwissParams, stored_params};
    let members_only = matches!(
        stored_params(comp)?.typed,
        CompetitionParams::Swiss(SwissParams { blitz: Some(b) })
            if b.guest_title == clubcomp_engine::GuestTitle::MembersOnly
    );
    ids.iter()
        .map(|&id| {
            Ok(!members_only
                || crate::store::models::players::by_id(c, id)?
                    .is_none_or(|p| p.membership != clubcomp_engine::Membership::Guest))
        })
        .collect()
}

/// The candidates for the title in the Swiss standings (player ids, in their order in the
/// standings) under `tie`, among the players `may_take` admits (by standings number − 1, as
/// [`may_take_title`] answers them); `ids` maps the standings' numbers 1, 2, … to player ids.
/// Two or more play off; one is the champion.
pub fn candidates(
    standings: &clubcomp_engine::tiebreaks::Standings,
    ids: &[PlayerId],
    tie: FirstPlaceTie,
    may_take: &[bool],
) -> Vec<PlayerId> {
    let admitted = |n: u32| {
        may_take
            .get((n as usize).wrapping_sub(1))
            .copied()
            .unwrap_or(true)
    };
    title_candidates(standings, tie, admitted)
        .into_iter()
        .filter_map(|n| ids.get((n as usize).wrapping_sub(1)).copied())
        .collect()
}

/// 409 unless the competition is a finished Swiss: every round completed, and as many as
/// planned (`rounds_planned`) when a number is planned.
fn require_finished(c: &mut DbConn, comp: &Competition) -> ApiResult<Vec<st::RoundGames>> {
    if comp.kind != CompetitionKind::Swiss {
        return Err(ApiError::Conflict(format!(
            "a play-off for first is played in a Swiss competition; competition {} is a {}",
            comp.id, comp.kind
        )));
    }
    let all = rounds::list(c, comp.id)?;
    if let Some(r) = all.iter().find(|r| r.status != RoundStatus::Completed) {
        return Err(ApiError::Conflict(format!(
            "competition {} is not finished: round {} is {}; a play-off for first follows the \
             final standings, when every round is completed",
            comp.id, r.number, r.status
        )));
    }
    let played = all.len() as i32;
    match comp.rounds_planned {
        Some(p) if played < p => Err(ApiError::Conflict(format!(
            "competition {} is not finished: {played} of its {p} planned rounds are played; a \
             play-off for first follows the final standings",
            comp.id
        ))),
        _ if played == 0 => Err(ApiError::Conflict(format!(
            "competition {} is not finished: it has no rounds yet",
            comp.id
        ))),
        _ => {
            let counted = st::counted_rounds(c, comp.id)?;
            Ok(counted)
        }
    }
}

/// Creates the play-off for first of a finished Swiss competition (leader), in the caller's
/// transaction: a round numbered after the last, published, with every candidate against
/// every other with both colours in Berger order. 409 naming the rule and the players when the
/// competition is not finished, when first place is not shared, or when the play-off exists.
pub fn create(c: &mut DbConn, id: CompetitionId, actor: &str) -> ApiResult<FirstPlacePlayoff> {
    let comp = crate::services::competitions::load(c, id)?;
    // queue concurrent creations of the same play-off (row lock on Postgres)
    crate::store::stamps::touch_now(c, Scope::Competition(id))?;
    if let Some((_, meta)) = round_and_meta(c, id)? {
        let names = names_of(c, &meta.candidates)?;
        return Err(ApiError::Conflict(format!(
            "the play-off for first of competition {id} exists already, between {}; there is \
             one play-off per competition",
            list_names(&meta.candidates, &names)
        )));
    }
    let counted = require_finished(c, &comp)?;
    let (standings, ids) = st::swiss_compute(c, &comp, &counted)?;
    let tie = first_place_tie(&comp)?;
    let may_take = may_take_title(c, &comp, &ids)?;
    let firsts = candidates(&standings, &ids, tie, &may_take);
    let names = names_of(c, &firsts)?;
    if firsts.len() < 2 {
        let who = if firsts.is_empty() {
            "nobody".to_string()
        } else {
            list_names(&firsts, &names)
        };
        return Err(ApiError::Conflict(match tie {
            FirstPlaceTie::OnPoints => format!(
                "first place of competition {id} is not shared: {who} is first alone on \
                 points; in the blitz championship a play-off for first is played when \
                 several players share the top score"
            ),
            FirstPlaceTie::AfterTiebreaks => format!(
                "first place of competition {id} is not shared: {who} is first alone after \
                 the tie-breaks; a play-off for first is played only when the tie-breaks do \
                 not separate first place"
            ),
        }));
    }
    let candidates: Vec<String> = firsts.iter().map(PlayerId::to_string).collect();
    let schedule = first_place_playoff(&candidates)
        .map_err(|e| ApiError::Conflict(format!("no play-off for first: {e}")))?;
    let next: i32 = rd::table
        .filter(rd::competition_id.eq(id))
        .select(diesel::dsl::max(rd::number))
        .first::<Option<i32>>(c)?
        .unwrap_or(0)
        + 1;
    let meta = Meta {
        playoff: MARKER.into(),
        candidates: firsts.clone(),
        decision: None,
    };
    let now = now_utc();
    let round: Round = crate::services::round_rows::insert_round(
        c,
        &NewRound {
            competition_id: id,
            number: next,
            evening_id: None,
            date: None,
            status: RoundStatus::Published,
            pairing_meta: Some(serde_json::to_string(&meta).unwrap_or_default()),
            version: 1,
            updated_at: now,
        },
    )?;
    // the blitz championship's play-off games are played at five minutes (club rules,
    // Snelschaakkampioenschap); the rapid's at the competition's own tempo
    let playoff_tempo = match first_place_tie(&comp)? {
        FirstPlaceTie::OnPoints => Some(
            serde_json::to_string(&crate::services::competitions::TimeControl {
                periods: vec![crate::services::competitions::Period {
                    moves: None,
                    minutes: BLITZ_PLAYOFF_MINUTES,
                }],
                increment_seconds: 0,
                increment_from_move: 1,
            })
            .map_err(|e| ApiError::Internal(e.to_string()))?,
        ),
        FirstPlaceTie::AfterTiebreaks => None,
    };
    let mut board_in_round: HashMap<u32, i32> = HashMap::new();
    for g in &schedule {
        let board = board_in_round.entry(g.round).or_default();
        *board += 1;
        crate::services::round_rows::insert_game(
            c,
            &NewGame {
                round_id: round.id,
                board: *board,
                game_no: g.round as i32,
                white_id: Some(PlayerId::from_engine(&g.white)?),
                black_id: Some(PlayerId::from_engine(&g.black)?),
                result: None,
                termination: None,
                move_count: None,
                version: 1,
                updated_at: now,
            },
        )?;
    }
    if let Some(tempo) = &playoff_tempo {
        crate::services::round_rows::set_round_games_time_control(c, round.id, tempo)?;
    }
    audit(
        c,
        &NewAuditEntry {
            entity: crate::vocab::AuditEntity::Competition,
            entity_id: id.get(),
            action: "playoff_created".into(),
            actor: actor.to_string(),
            at: now,
            old_value: None,
            new_value: round.pairing_meta.clone(),
            reason: None,
        },
    )?;
    crate::store::stamps::touch(c, Scope::Competition(id))?;
    crate::store::stamps::record(
        c,
        rounds::round_event(
            &round,
            crate::store::models::events::EventKind::PairingPublished,
            crate::store::models::events::Visibility::Public,
        ),
    )?;
    view(c, &comp)?.ok_or_else(|| ApiError::Internal("the play-off just stored is gone".into()))
}

/// Records the arbiter's decision of a play-off still tied after all its games (arbiter), in
/// the caller's transaction, with an audit entry. 409 naming the rule and the players when
/// there is no play-off, when games have no result, when the play-off has a champion on
/// points, or when the arbiter decided already; 422 when the player is not among those tied.
pub fn decide(
    c: &mut DbConn,
    id: CompetitionId,
    player_id: PlayerId,
    reason: &str,
    actor: &str,
) -> ApiResult<FirstPlacePlayoff> {
    let comp = crate::services::competitions::load(c, id)?;
    crate::store::stamps::touch_now(c, Scope::Competition(id))?;
    let Some((round, mut meta)) = round_and_meta(c, id)? else {
        return Err(ApiError::Conflict(format!(
            "competition {id} has no play-off for first; the arbiter decides only a play-off \
             still tied after all its games"
        )));
    };
    let v = view(c, &comp)?.ok_or_else(|| ApiError::Internal("the play-off is gone".into()))?;
    let all: Vec<PlayerId> = meta.candidates.clone();
    let names = names_of(c, &all)?;
    match v.status {
        FirstPlaceStatus::Pending => {
            let open = v.games.iter().filter(|g| g.result.is_none()).count();
            return Err(ApiError::Conflict(format!(
                "the play-off for first of competition {id} between {} is not finished: {open} \
                 games have no result; the arbiter decides only a play-off still tied after all \
                 its games",
                list_names(&all, &names)
            )));
        }
        FirstPlaceStatus::Champion => {
            let f = PlayerId(v.first.unwrap_or_default());
            return Err(ApiError::Conflict(format!(
                "the play-off for first of competition {id} is decided on play-off points: {} \
                 is first; the arbiter decides only a play-off still tied",
                list_names(&[f], &names)
            )));
        }
        FirstPlaceStatus::Decided => {
            let f = PlayerId(v.first.unwrap_or_default());
            return Err(ApiError::Conflict(format!(
                "the arbiter decided the play-off for first of competition {id} already: {} is \
                 first; the decision is made once",
                list_names(&[f], &names)
            )));
        }
        FirstPlaceStatus::ArbiterDecides => {}
    }
    let tied: Vec<PlayerId> = v.tied.iter().copied().map(PlayerId).collect();
    if !tied.contains(&player_id) {
        return Err(ApiError::invalid(
            "player_id",
            format!(
                "player {player_id} is not among the players still tied after the play-off: {}",
                list_names(&tied, &names)
            ),
        ));
    }
    let now = now_utc();
    let old = round.pairing_meta.clone();
    meta.decision = Some(StoredDecision {
        player_id,
        by: actor.to_string(),
        at: now,
        reason: reason.to_string(),
    });
    let new = serde_json::to_string(&meta).unwrap_or_default();
    let n = crate::services::round_rows::replace_pairing_meta(c, round.id, old.as_deref(), &new)?;
    if n == 0 {
        return Err(ApiError::Conflict(
            "the play-off changed meanwhile; try again".into(),
        ));
    }
    audit(
        c,
        &NewAuditEntry {
            entity: crate::vocab::AuditEntity::Competition,
            entity_id: id.get(),
            action: "playoff_decided".into(),
            actor: actor.to_string(),
            at: now,
            old_value: old,
            new_value: Some(new),
            reason: Some(reason.to_string()),
        },
    )?;
    crate::store::stamps::touch(c, Scope::Competition(id))?;
    view(c, &comp)?.ok_or_else(|| ApiError::Internal("the play-off is gone".into()))
}
