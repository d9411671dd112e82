//! Prizes (docs/rules/keizer.md#prizes, docs/rules/draughts-championship.md#prize-money) and the Keizer playoffs (docs/rules/keizer.md#playoffs).

use crate::api::rounds::PlayerRef;
use crate::app::AppState;
use crate::auth::{Auth, Leader};
use crate::db::DbConn;
use crate::db::models::competition::Competition;
use crate::error::{ApiError, ApiResult, Problem};
use crate::ids::{CompetitionId, PlayerId, SeasonId};
use crate::services::prizes as svc;
use crate::services::standings as st;
use actix_web::{HttpResponse, get, post, web};
use clubcomp_engine::CompetitionKind;
use clubcomp_engine::keizer::MatchId;
use clubcomp_engine::keizer::Prize;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashMap;
use utoipa::ToSchema;

/// A prize awarded.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AwardView {
    /// `winter_champion`, `silver`, `bronze`, `best_of_the_rest` or `summer_champion`.
    #[schema(value_type = crate::schemas::Prize)]
    pub prize: String,
    /// Player id.
    pub player_id: i64,
    /// Name.
    pub name: String,
}

/// A player in a list.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Named {
    /// Player id.
    pub player_id: i64,
    /// Name.
    pub name: String,
}

/// The prizes of a Keizer half.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct KeizerPrizes {
    /// `winter` or `summer`.
    #[schema(value_type = crate::api::competitions::KeizerHalf)]
    pub half: String,
    /// Prizes in the order of the regulations (one per player).
    pub awards: Vec<AwardView>,
    /// Eligible players in rank order.
    pub eligible: Vec<Named>,
    /// Players not eligible (too many absences without notice), in rank order.
    pub not_eligible: Vec<Named>,
    /// Summer: every eligible player gets a playoff place (not a prize).
    pub playoff_places: Vec<Named>,
}

/// The prize share of one round-robin player.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RoundRobinPrize {
    /// Place.
    pub place: u32,
    /// Player id.
    pub player_id: i64,
    /// Name.
    pub name: String,
    /// Share of each points table (grandmaster, master …), exact.
    #[schema(value_type = Object)]
    pub points_tables: Value,
    /// Share of the prize money in euros, exact, as a string: a whole or decimal amount (`75`,
    /// `37.5`), or a fraction (`100/3`) when the share has no finite decimal form.
    #[schema(pattern = r"^-?[0-9]+(\.[0-9]+|/[0-9]+)?$")]
    pub prize_money: String,
    /// Rights earned (title, qualification, cut).
    pub rights: Vec<String>,
}

/// The prize list of a competition.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PrizeList {
    /// Competition id.
    pub competition_id: i64,
    /// `keizer` or `round_robin`.
    #[schema(value_type = crate::schemas::PrizeListKind)]
    pub kind: String,
    /// Whether this is the stored, finalized list.
    pub finalized: bool,
    /// When it was finalized.
    #[serde(serialize_with = "crate::wire::utc_opt")]
    pub finalized_at: Option<chrono::DateTime<chrono::Utc>>,
    /// Who finalized it (the account); shown to the leader, the arbiter and the admin only.
    pub finalized_by: Option<String>,
    /// Keizer prizes.
    pub keizer: Option<KeizerPrizes>,
    /// Round-robin prizes, points and rights, in final order.
    pub round_robin: Option<Vec<RoundRobinPrize>>,
}

fn prize_name(p: Prize) -> String {
    serde_json::to_value(p)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn named(names: &HashMap<i64, String>, id: &str) -> ApiResult<Named> {
    let player_id = PlayerId::from_engine(id)?.0;
    Ok(Named {
        player_id,
        name: names.get(&player_id).cloned().unwrap_or_default(),
    })
}

/// Computes the prize list of a competition from its current standings.
pub fn compute_prizes(c: &mut DbConn, comp: &Competition) -> ApiResult<PrizeList> {
    let mut out = PrizeList {
        competition_id: comp.id.get(),
        kind: comp.kind.into(),
        finalized: false,
        finalized_at: None,
        finalized_by: None,
        keizer: None,
        round_robin: None,
    };
    match comp.kind {
        CompetitionKind::Keizer => {
            let (half, o) = svc::keizer_prizes(c, comp)?;
            let ids = o
                .eligible
                .iter()
                .chain(&o.not_eligible)
                .filter_map(|s| s.parse().ok());
            let names = st::names(c, ids)?;
            out.keizer = Some(KeizerPrizes {
                half: half.into(),
                awards: o
                    .awards
                    .iter()
                    .map(|a| {
                        let n = named(&names, &a.id)?;
                        Ok(AwardView {
                            prize: prize_name(a.prize),
                            player_id: n.player_id,
                            name: n.name,
                        })
                    })
                    .collect::<ApiResult<_>>()?,
                eligible: o
                    .eligible
                    .iter()
                    .map(|i| named(&names, i))
                    .collect::<ApiResult<_>>()?,
                not_eligible: o
                    .not_eligible
                    .iter()
                    .map(|i| named(&names, i))
                    .collect::<ApiResult<_>>()?,
                playoff_places: o
                    .playoff_places
                    .iter()
                    .map(|i| named(&names, i))
                    .collect::<ApiResult<_>>()?,
            });
        }
        CompetitionKind::RoundRobin => {
            let comp = st::ensure_lots_seed(c, comp)?;
            let s = st::round_robin_scenario(c, &comp, None)?;
            let o = st::round_robin_compute(&s)?;
            let names: HashMap<&str, String> = s
                .players
                .iter()
                .map(|p| (p.id.as_str(), p.name.clone().unwrap_or_default()))
                .collect();
            out.round_robin = Some(
                o.standings
                    .into_iter()
                    .map(|r| {
                        Ok(RoundRobinPrize {
                            place: r.place,
                            player_id: PlayerId::from_engine(&r.id)?.0,
                            name: names.get(r.id.as_str()).cloned().unwrap_or_default(),
                            points_tables: serde_json::to_value(&r.points_tables)
                                .unwrap_or_default(),
                            prize_money: r.prize_money,
                            rights: r.rights,
                        })
                    })
                    .collect::<ApiResult<_>>()?,
            );
        }
        other => {
            return Err(ApiError::Conflict(format!(
                "a {other} competition has no prize rules here (Keizer halves and round robins)"
            )));
        }
    }
    Ok(out)
}

/// The finalized prize list of a competition, once stored.
pub fn stored(c: &mut DbConn, comp: CompetitionId) -> ApiResult<Option<PrizeList>> {
    Ok(match svc::finalized(c, comp)? {
        Some(f) => {
            let mut list: PrizeList = serde_json::from_str(&f.body)
                .map_err(|e| ApiError::Internal(format!("stored prize list: {e}")))?;
            list.finalized = true;
            list.finalized_by = Some(f.by);
            list.finalized_at = Some(f.at.and_utc());
            Some(list)
        }
        None => None,
    })
}

/// The prizes of a competition (public): the finalized list once stored, else computed from
/// the current standings. Keizer winter: champion, silver, bronze, best of the rest; summer:
/// champion and playoff places. Round robin: points tables, prize money and rights from the
/// competition's params.
#[utoipa::path(tag = "prizes", params(("id" = i64, Path, description = "Competition id")),
    responses((status = 200, description = "Prize list", body = PrizeList),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No prize rules for this kind, or data that cannot be computed", body = Problem, content_type = "application/problem+json")))]
#[get("/competitions/{id}/prizes")]
pub async fn get_prizes(
    auth: crate::auth::MaybeAuth,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let mut list = state
        .tx(move |c| {
            let comp = crate::services::competitions::load(c, id)?;
            match stored(c, id)? {
                Some(l) => Ok(l),
                None => compute_prizes(c, &comp),
            }
        })
        .await?;
    // who finalized the list is an account (an e-mail address): for the club's staff only
    let staff = auth.0.as_ref().is_some_and(|p| {
        p.has_any(&[
            crate::auth::Role::Leader,
            crate::auth::Role::Arbiter,
            crate::auth::Role::Admin,
        ])
    });
    if !staff {
        list.finalized_by = None;
    }
    Ok(HttpResponse::Ok().json(list))
}

/// Finalizes the prize list (leader): every round must be completed; the computed list is
/// stored and from then on returned by GET. A second finalize is 409.
#[utoipa::path(tag = "prizes", params(("id" = i64, Path, description = "Competition id")),
    responses((status = 201, description = "Stored", body = PrizeList),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Already finalized, rounds not completed, or no prize rules", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[post("/competitions/{id}/prizes/finalize")]
pub async fn finalize_prizes(
    a: Auth<Leader>,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let actor = a.principal.label.clone();
    let list = state
        .tx(move |c| {
            svc::finalize(c, id, &actor, |c, comp| {
                Ok(serde_json::to_string(&compute_prizes(c, comp)?).unwrap_or_default())
            })?;
            stored(c, id)?.ok_or_else(|| ApiError::Internal("prize list not stored".into()))
        })
        .await?;
    Ok(HttpResponse::Created().json(list))
}

/// One game of a playoff match.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayoffGameView {
    /// 1 for the game, 2 for the decider at a shorter tempo.
    pub game: u8,
    /// Whether this is the decider.
    pub decider: bool,
    /// The stored game (enter its result with `PUT /games/{id}/result`).
    pub game_id: Option<i64>,
    /// White (drawn by lot).
    pub white: PlayerRef,
    /// Black.
    pub black: PlayerRef,
    /// `white_wins`, `black_wins` or `draw`, once entered.
    #[schema(value_type = Option<crate::schemas::PlayoffOutcome>)]
    pub outcome: Option<String>,
}

/// One match of a group.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayoffMatchView {
    /// `semi1` (1–4), `semi2` (2–3) or `final`.
    #[schema(value_type = crate::schemas::PlayoffMatch)]
    pub id: String,
    /// The two players, better seed first, once known.
    pub players: Option<Vec<PlayerRef>>,
    /// The games scheduled so far.
    pub games: Vec<PlayoffGameView>,
    /// The winner, once decided.
    pub winner: Option<PlayerRef>,
}

/// One playoff group.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayoffGroupView {
    /// Group number (1 = top group; its winner is club champion).
    pub number: u32,
    /// Players in summer-ranking order.
    pub seeds: Vec<PlayerRef>,
    /// Matches, semi-finals first.
    pub matches: Vec<PlayoffMatchView>,
    /// Games to play next: `{match, game}`.
    #[schema(value_type = Vec<Object>)]
    pub next: Vec<Value>,
    /// The group winner (wins a prize).
    pub winner: Option<PlayerRef>,
}

/// The playoffs of a season.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayoffsView {
    /// The knockout competition.
    pub competition_id: i64,
    /// The summer half they come from.
    pub summer_competition_id: i64,
    /// Seed of the colour lots (stored, so every draw can be reproduced).
    pub colour_seed: u64,
    /// The groups.
    pub groups: Vec<PlayoffGroupView>,
    /// A single remaining eligible player, who has no group.
    pub without_group: Option<PlayerRef>,
    /// The club champion (winner of group 1), once decided.
    pub club_champion: Option<PlayerRef>,
}

fn label<T: Serialize>(v: T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// The playoff view of a knockout competition.
pub fn playoffs_view(c: &mut DbConn, comp: &Competition) -> ApiResult<PlayoffsView> {
    let (p, states, stored) = svc::playoff_states(c, comp)?;
    let ids = p
        .draw
        .groups
        .iter()
        .flat_map(|g| g.seeds.iter())
        .chain(p.draw.without_group.iter())
        .filter_map(|s| s.parse().ok());
    let names = st::names(c, ids)?;
    let pr = |s: &str| -> ApiResult<PlayerRef> {
        let id = PlayerId::from_engine(s)?.0;
        Ok(PlayerRef {
            id,
            name: names.get(&id).cloned().unwrap_or_default(),
        })
    };
    let mut groups = Vec::new();
    for (g, s) in p.draw.groups.iter().zip(&states) {
        let matches = s
            .matches
            .iter()
            .map(|m| {
                let board = g.number as i32 * 10
                    + match m.id {
                        MatchId::Semi1 => 1,
                        MatchId::Semi2 => 2,
                        MatchId::Final => 3,
                    };
                Ok(PlayoffMatchView {
                    id: label(m.id),
                    players: m
                        .players
                        .as_ref()
                        .map(|ps| ps.iter().map(|x| pr(x)).collect::<ApiResult<_>>())
                        .transpose()?,
                    games: m
                        .games
                        .iter()
                        .map(|x| {
                            Ok(PlayoffGameView {
                                game: x.game,
                                decider: x.decider,
                                game_id: stored
                                    .iter()
                                    .find(|sg| sg.board == board && sg.game_no == i32::from(x.game))
                                    .map(|sg| sg.id.get()),
                                white: pr(&x.white)?,
                                black: pr(&x.black)?,
                                outcome: x.outcome.map(label),
                            })
                        })
                        .collect::<ApiResult<_>>()?,
                    winner: m.winner.as_deref().map(pr).transpose()?,
                })
            })
            .collect::<ApiResult<_>>()?;
        groups.push(PlayoffGroupView {
            number: g.number,
            seeds: g.seeds.iter().map(|x| pr(x)).collect::<ApiResult<_>>()?,
            matches,
            next: s
                .next
                .iter()
                .map(|(m, n)| serde_json::json!({"match": label(m), "game": n}))
                .collect(),
            winner: s.winner.as_deref().map(pr).transpose()?,
        });
    }
    let club_champion = groups
        .iter()
        .find(|g| g.number == 1)
        .and_then(|g| g.winner.clone());
    Ok(PlayoffsView {
        competition_id: comp.id.get(),
        summer_competition_id: p.summer_competition,
        colour_seed: p.colour_seed,
        groups,
        without_group: p.draw.without_group.as_deref().map(pr).transpose()?,
        club_champion,
    })
}

/// Creates the season's playoffs (leader) from the summer half's final standings and prize
/// eligibility: a `knockout` competition with the groups of four (colour seed stored), round
/// 1 with the semi-finals and round 2 for the finals (a group of two plays only the final).
/// Results are entered with `PUT /games/{id}/result`; deciders and finals appear as they
/// become due.
#[utoipa::path(tag = "prizes", params(("id" = i64, Path, description = "Season id")),
    responses((status = 201, description = "Created", body = PlayoffsView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such season", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No finished summer half, too few eligible players, or playoffs exist", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[post("/seasons/{id}/playoffs")]
pub async fn create_playoffs(
    a: Auth<Leader>,
    state: web::Data<AppState>,
    path: web::Path<SeasonId>,
) -> ApiResult<HttpResponse> {
    let season = path.into_inner();
    let actor = a.principal.label.clone();
    let view = state
        .tx(move |c| {
            let comp = svc::create_playoffs(c, season, &actor)?;
            playoffs_view(c, &comp)
        })
        .await?;
    Ok(HttpResponse::Created()
        .insert_header((
            "Location",
            format!("/api/v1/competitions/{}/playoffs", view.competition_id),
        ))
        .json(view))
}

/// The playoffs of a knockout competition (public): groups, matches with colours drawn by
/// lot, the games to play next, deciders, winners and the club champion.
#[utoipa::path(tag = "prizes", params(("id" = i64, Path, description = "Competition id")),
    responses((status = 200, description = "Playoffs", body = PlayoffsView),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not a playoff competition", body = Problem, content_type = "application/problem+json")))]
#[get("/competitions/{id}/playoffs")]
pub async fn get_playoffs(
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let view = state
        .db(move |c| {
            let comp = crate::services::competitions::load(c, id)?;
            playoffs_view(c, &comp)
        })
        .await?;
    Ok(HttpResponse::Ok().json(view))
}
