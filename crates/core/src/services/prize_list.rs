//! The prize lists and the playoffs as readers see them (docs/rules/keizer.md#prizes,
//! docs/rules/draughts-championship.md#prize-money, docs/rules/keizer.md#playoffs): computed
//! from the standings until the list is finalized, the stored list after.

use crate::error::{ApiError, ApiResult};
use crate::ids::{CompetitionId, PlayerId, SeasonId};
use crate::services::competitions::{self, Competition};
use crate::services::outcome_mails::{self, Award};
use crate::services::prizes as svc;
use crate::services::round_views::PlayerRef;
use crate::services::standings as st;
use crate::store::DbConn;
use crate::vocab::TitleDecidedBy;
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
    pub prize: Prize,
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
    #[schema(value_type = crate::schemas::KeizerHalf)]
    pub half: String,
    /// Prizes in the order of the regulations (one per player).
    pub awards: Vec<AwardView>,
    /// Eligible players in rank order.
    pub eligible: Vec<Named>,
    /// Players not eligible (too many absences without notice; or withdrawn, where the
    /// competition's `withdrawn_prizes` is `excluded`), in rank order.
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

/// The title of a Swiss (the rapid's half, the blitz championship): first in the final
/// standings, or the winner of the play-off for first once it has one
/// (docs/rules/rapid-blitz.md#the-play-off-for-first).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SwissPrizes {
    /// The champion; `null` while first place is shared and the play-off has no winner yet.
    #[schema(required = true)]
    pub champion: Option<Named>,
    /// How first place is settled: `standings` (alone in first place), `playoff` (the
    /// play-off's winner, on points or by the arbiter) or `pending` (no round counted yet, or
    /// first place shared and the play-off not decided).
    pub decided_by: TitleDecidedBy,
    /// The rounds counted.
    pub rounds_counted: u32,
}

/// The prize list of a competition.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PrizeList {
    /// Competition id.
    pub competition_id: i64,
    /// `keizer` or `round_robin`.
    #[schema(value_type = crate::schemas::PrizeListKind)]
    pub kind: CompetitionKind,
    /// Whether this is the stored, finalized list.
    pub finalized: bool,
    /// When it was finalized.
    #[serde(serialize_with = "crate::wire::utc_opt")]
    #[schema(required = true)]
    pub finalized_at: Option<chrono::DateTime<chrono::Utc>>,
    /// Who finalized it (the account); shown to the leader, the arbiter and the admin only.
    #[schema(required = true)]
    pub finalized_by: Option<String>,
    /// Keizer prizes.
    #[schema(required = true)]
    pub keizer: Option<KeizerPrizes>,
    /// Round-robin prizes, points and rights, in final order.
    #[schema(required = true)]
    pub round_robin: Option<Vec<RoundRobinPrize>>,
    /// A Swiss's title.
    #[serde(default)]
    #[schema(required = true)]
    pub swiss: Option<SwissPrizes>,
}

fn named(names: &HashMap<PlayerId, String>, id: &str) -> ApiResult<Named> {
    let player_id = PlayerId::from_engine(id)?;
    Ok(Named {
        player_id: player_id.get(),
        name: names.get(&player_id).cloned().unwrap_or_default(),
    })
}

/// Computes the prize list of a competition from its current standings.
pub fn compute_prizes(c: &mut DbConn, comp: &Competition) -> ApiResult<PrizeList> {
    let mut out = PrizeList {
        competition_id: comp.id.get(),
        kind: comp.kind,
        finalized: false,
        finalized_at: None,
        finalized_by: None,
        keizer: None,
        round_robin: None,
        swiss: None,
    };
    match comp.kind {
        CompetitionKind::Keizer => {
            let (half, o) = svc::keizer_prizes(c, comp)?;
            let ids = PlayerId::all_from_engine(o.eligible.iter().chain(&o.not_eligible))?;
            let names = st::names(c, ids)?;
            out.keizer = Some(KeizerPrizes {
                half: half.into(),
                awards: o
                    .awards
                    .iter()
                    .map(|a| {
                        let n = named(&names, &a.id)?;
                        Ok(AwardView {
                            prize: a.prize,
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
        CompetitionKind::Swiss => {
            let v = crate::services::standings_view::standings_view(c, comp, None)?;
            let s = v.swiss.ok_or_else(|| {
                ApiError::Internal(format!("competition {} has no Swiss table", comp.id))
            })?;
            let decided_by = match (&s.playoff, s.playoff_for_first) {
                _ if v.rounds_counted == 0 => TitleDecidedBy::Pending,
                (Some(p), _) if p.first.is_some() => TitleDecidedBy::Playoff,
                (_, true) => TitleDecidedBy::Pending,
                _ => TitleDecidedBy::Standings,
            };
            let champion = s
                .champion
                .filter(|_| decided_by != TitleDecidedBy::Pending)
                .and_then(|id| s.rows.iter().find(|r| r.player_id == id))
                .map(|r| Named {
                    player_id: r.player_id,
                    name: r.name.clone(),
                });
            out.swiss = Some(SwissPrizes {
                champion,
                decided_by,
                rounds_counted: v.rounds_counted,
            });
        }
        other => {
            return Err(ApiError::Conflict(format!(
                "a {other} competition has no prize rules here (Keizer halves, round robins \
                 and Swiss titles)"
            )));
        }
    }
    Ok(out)
}

/// The finalized prize list of a competition, once stored. The names were copied in when it
/// was finalized; each is read again, as the reader may see it
/// ([decision 0326](../../../../docs/decisions/0326-player-publication.md)).
pub fn stored(c: &mut DbConn, comp: CompetitionId) -> ApiResult<Option<PrizeList>> {
    Ok(match svc::finalized(c, comp)? {
        Some(f) => {
            let mut body: serde_json::Value = serde_json::from_str(&f.body)
                .map_err(|e| ApiError::Internal(format!("stored prize list: {e}")))?;
            rename(c, &mut body)?;
            let mut list: PrizeList = serde_json::from_value(body)
                .map_err(|e| ApiError::Internal(format!("stored prize list: {e}")))?;
            list.finalized = true;
            list.finalized_by = Some(f.by);
            list.finalized_at = Some(f.at.and_utc());
            Some(list)
        }
        None => None,
    })
}

/// Gives every `{player_id, name}` object of a stored list the name the current reader may
/// see now (the stored one stays for a player who is gone).
fn rename(c: &mut DbConn, v: &mut serde_json::Value) -> ApiResult<()> {
    match v {
        serde_json::Value::Array(items) => {
            for item in items {
                rename(c, item)?;
            }
        }
        serde_json::Value::Object(map) => {
            let id = map.get("player_id").and_then(serde_json::Value::as_i64);
            if let (Some(id), Some(serde_json::Value::String(name))) = (id, map.get_mut("name"))
                && let Some(p) = crate::store::models::players::by_id(c, PlayerId(id))?
            {
                *name = p.name;
            }
            for (_, item) in map.iter_mut() {
                rename(c, item)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// One game of a playoff match.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayoffGameView {
    /// 1 for the game, 2 for the decider at a shorter tempo.
    pub game: u8,
    /// Whether this is the decider.
    pub decider: bool,
    /// The stored game (enter its result with `PUT /games/{id}/result`).
    #[schema(required = true)]
    pub game_id: Option<i64>,
    /// White (drawn by lot).
    pub white: PlayerRef,
    /// Black.
    pub black: PlayerRef,
    /// `white_wins`, `black_wins` or `draw`, once entered.
    #[schema(value_type = Option<crate::vocab::PlayoffOutcome>)]
    #[schema(required = true)]
    pub outcome: Option<crate::vocab::PlayoffOutcome>,
}

/// One match of a group.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayoffMatchView {
    /// `semi1` (1–4), `semi2` (2–3) or `final`.
    #[schema(value_type = crate::vocab::PlayoffMatch)]
    pub id: crate::vocab::PlayoffMatch,
    /// The two players, better seed first, once known.
    #[schema(required = true)]
    pub players: Option<Vec<PlayerRef>>,
    /// The games scheduled so far.
    pub games: Vec<PlayoffGameView>,
    /// The winner, once decided.
    #[schema(required = true)]
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
    #[schema(required = true)]
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
    #[schema(required = true)]
    pub without_group: Option<PlayerRef>,
    /// The club champion (winner of group 1), once decided.
    #[schema(required = true)]
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
        .chain(p.draw.without_group.iter());
    let ids = PlayerId::all_from_engine(ids)?;
    let names = st::names(c, ids)?;
    let pr = |s: &str| -> ApiResult<PlayerRef> {
        let id = PlayerId::from_engine(s)?;
        Ok(PlayerRef {
            id: id.get(),
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
                    id: m.id.into(),
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
                                outcome: x.outcome.map(Into::into),
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

/// The prize list of competition `id` (404 when there is none): the finalized one once
/// stored, else computed from the current standings.
pub fn current(c: &mut DbConn, id: CompetitionId) -> ApiResult<PrizeList> {
    let comp = competitions::load(c, id)?;
    match stored(c, id)? {
        Some(l) => Ok(l),
        None => compute_prizes(c, &comp),
    }
}

/// Finalizes the prize list of competition `id` by `actor`: the computed list is stored and
/// each winner's prize mail queued ([`outcome_mails::prizes_final`]); the stored list is
/// returned.
pub fn finalize(
    c: &mut DbConn,
    n: crate::services::notifications::Notifier<'_>,
    id: CompetitionId,
    actor: &str,
) -> ApiResult<PrizeList> {
    svc::finalize(c, id, actor, |c, comp| {
        Ok(serde_json::to_string(&compute_prizes(c, comp)?).unwrap_or_default())
    })?;
    let list = stored(c, id)?.ok_or_else(|| ApiError::Internal("prize list not stored".into()))?;
    outcome_mails::prizes_final(c, n, id, &winners(&list))?;
    Ok(list)
}

/// The winners of a prize list and their prizes, in its order: the Keizer prizes, the places
/// of a round robin with prize money, the champion of a Swiss.
pub fn winners(list: &PrizeList) -> Vec<(PlayerId, Award)> {
    let mut out = Vec::new();
    if let Some(k) = &list.keizer {
        for a in &k.awards {
            out.push((PlayerId(a.player_id), Award::Keizer(a.prize)));
        }
    }
    for r in list.round_robin.iter().flatten() {
        // an amount of only zeros (and separators) is no prize
        if r.prize_money
            .chars()
            .any(|ch| ch.is_ascii_digit() && ch != '0')
        {
            out.push((
                PlayerId(r.player_id),
                Award::Place {
                    place: r.place,
                    money: r.prize_money.clone(),
                },
            ));
        }
    }
    if let Some(ch) = list.swiss.as_ref().and_then(|s| s.champion.as_ref()) {
        out.push((PlayerId(ch.player_id), Award::Champion));
    }
    out
}

/// Creates the playoffs of `season` by `actor`, as shown.
pub fn create_playoffs(c: &mut DbConn, season: SeasonId, actor: &str) -> ApiResult<PlayoffsView> {
    let comp = svc::create_playoffs(c, season, actor)?;
    playoffs_view(c, &comp)
}

/// The playoffs of knockout competition `id` (404 when there is none).
pub fn playoffs(c: &mut DbConn, id: CompetitionId) -> ApiResult<PlayoffsView> {
    let comp = competitions::load(c, id)?;
    playoffs_view(c, &comp)
}
