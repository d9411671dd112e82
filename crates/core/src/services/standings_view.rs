//! The standings as readers see them (docs/rules/keizer.md#scoring,
//! docs/rules/rapid-blitz.md#tie-breaks, docs/rules/draughts-championship.md#scoring-2-1-0-plusremise-and-minremise):
//! the engines' tables with the players named, after any round that counts.

use crate::error::{ApiError, ApiResult};
use crate::ids::PlayerId;
use crate::services::standings as svc;
use crate::store::DbConn;
use crate::store::models::competition::Competition;
use clubcomp_engine::CompetitionKind;
use clubcomp_engine::tiebreaks::Tiebreak;
use clubcomp_engine::{keizer, round_robin};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

/// One row of a Keizer table.
#[derive(Debug, Serialize, ToSchema)]
pub struct KeizerRow {
    /// Place (1 = top).
    pub rank: u32,
    /// Player id.
    pub player_id: i64,
    /// Name.
    pub name: String,
    /// Value of this place.
    pub value: i64,
    /// Keizer score (a cycle average when the evening did not converge): a JSON number, exact
    /// to four decimals (the engine counts in ten-thousandths), e.g. `107` or `53.5`.
    pub score: f64,
    /// Games played over the board.
    pub played: u32,
    /// Points from those games (1, ½, 0): a JSON number, e.g. `3.5`.
    pub game_points: f64,
    /// Pairing byes.
    pub byes: u32,
    /// Absences with notice.
    pub excused: u32,
    /// Absences without notice (forfeit no-shows included).
    pub unexcused: u32,
    /// Eligible for a prize after this evening (docs/rules/keizer.md#prizes: unexcused on at
    /// most 50% of the evenings since entry; after withdrawing, only where the competition's
    /// `withdrawn_prizes` is `eligible`, docs/rules/keizer.md#withdrawal).
    pub eligible: bool,
    /// The evening from which the player withdrew (docs/rules/keizer.md#withdrawal); `null`
    /// when they have not withdrawn by this evening.
    #[schema(required = true)]
    pub withdrawn_from: Option<u32>,
}

/// A Keizer table after one evening.
#[derive(Debug, Serialize, ToSchema)]
pub struct KeizerStandings {
    /// Whether the recalculation of this evening reached a fixed point.
    pub converged: bool,
    /// Rankings computed.
    pub iterations: u32,
    /// Length of the cycle averaged over, when not converged.
    #[schema(required = true)]
    pub cycle_length: Option<u32>,
    /// Warnings for the leader (value floor, excused cap, step cap).
    pub warnings: Vec<String>,
    /// The table, best first.
    pub rows: Vec<KeizerRow>,
}

/// One row of a round-robin table.
#[derive(Debug, Serialize, ToSchema)]
pub struct RoundRobinRow {
    /// Place after all tie-breaks (still-tied players share the highest place of their part).
    pub place: u32,
    /// Player id.
    pub player_id: i64,
    /// Name.
    pub name: String,
    /// Players still tied with this one when the tie-break list is exhausted.
    pub shared_with: Vec<i64>,
    /// Match points (chess: halves as 5.5).
    #[schema(value_type = f64)]
    pub points: serde_json::Number,
    /// Games with a result.
    pub games: u32,
    /// Wins (forfeit wins included).
    pub wins: u32,
    /// Draws (plus- and minremises included).
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Plusremises.
    pub plusremises: u32,
    /// Minremises.
    pub minremises: u32,
    /// Tie-break values in list order.
    #[schema(value_type = Object)]
    pub tiebreaks: Value,
    /// The criterion that separated this row from the next (`points` when points did).
    #[schema(value_type = Option<crate::schemas::RoundRobinDecidedBy>, required = true)]
    pub decided_by: Option<round_robin::Separator>,
    /// Share of each points table, exact.
    #[schema(value_type = Object)]
    pub points_tables: Value,
    /// Share of the prize money in euros, exact, as a string: a whole or decimal amount (`75`,
    /// `37.5`), or a fraction (`100/3`) when the share has no finite decimal form.
    #[schema(pattern = r"^-?[0-9]+(\.[0-9]+|/[0-9]+)?$")]
    pub prize_money: String,
    /// Rights earned.
    pub rights: Vec<String>,
    /// The round from which the player withdrew (docs/rules/draughts-championship.md#withdrawal:
    /// results stand, the games still due are lost by forfeit); `null` when they did not.
    #[schema(required = true)]
    pub withdrawn_from: Option<u32>,
}

/// The engine's row as readers see it, its name still empty (the engine knows the players by
/// id only): an internal error when the engine answers with a text that is no player id.
impl TryFrom<round_robin::Row> for RoundRobinRow {
    type Error = ApiError;

    fn try_from(r: round_robin::Row) -> ApiResult<Self> {
        Ok(RoundRobinRow {
            place: r.place,
            player_id: PlayerId::from_engine(&r.id)?.get(),
            name: String::new(),
            shared_with: PlayerId::numbers_from_engine(&r.shared_with)?,
            points: r.points,
            games: r.games,
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
            plusremises: r.plusremises,
            minremises: r.minremises,
            tiebreaks: serde_json::to_value(&r.tiebreaks).unwrap_or_default(),
            decided_by: r.decided_by,
            points_tables: serde_json::to_value(&r.points_tables).unwrap_or_default(),
            prize_money: r.prize_money,
            rights: r.rights,
            withdrawn_from: r.withdrawn_from,
        })
    }
}

/// A round-robin table.
#[derive(Debug, Serialize, ToSchema)]
pub struct RoundRobinStandings {
    /// Rows in final order.
    pub rows: Vec<RoundRobinRow>,
    /// `cross_table[i][j]`: what the i-th entrant (seed order) scored against the j-th.
    pub cross_table: Vec<Vec<String>>,
    /// What the withdrawal rule made of each withdrawal (docs/rules/draughts-championship.md#withdrawal):
    /// `{player_id, from_round, played, due, rule, forfeits}`, `rule` being `results_annulled`
    /// (the player has no row) or `remaining_forfeited`.
    #[schema(value_type = Vec<Object>)]
    pub withdrawals: Vec<Value>,
}

/// One row of a Swiss table.
#[derive(Debug, Serialize, ToSchema)]
pub struct SwissRow {
    /// Rank (shared places get the best rank of their block).
    pub rank: u32,
    /// The place as printed (`3` or `3-4`).
    pub place: String,
    /// Still shared after the whole tie-break list.
    pub shared: bool,
    /// Player id.
    pub player_id: i64,
    /// Name.
    pub name: String,
    /// Tie-break values by acronym (PTS first), each a JSON number (points in halves, e.g.
    /// `5.5`; averages and ratings as FIDE rounds them).
    #[schema(value_type = std::collections::HashMap<String, f64>)]
    pub values: Value,
    /// The round from which the player withdrew (absent from every later round; FIDE C.07
    /// counts those rounds as unplayed); `null` when they did not.
    #[schema(required = true)]
    pub withdrawn_from: Option<i32>,
    /// The start number: the place in the seeding order (the tournament file's pairing
    /// number), 1 for the first seed.
    pub start_number: u32,
    /// The rating the competition knows the player by (at entry); `null` when unrated.
    #[schema(required = true)]
    pub rating: Option<u32>,
    /// Each game of the rounds these standings count, round 1 first (two per round in a
    /// double Swiss): the round-by-round table.
    pub games: Vec<SwissGameCell>,
}

/// One game of a player in a round of a Swiss, as the tournament file holds it.
#[derive(Debug, Serialize, ToSchema)]
pub struct SwissGameCell {
    /// The round.
    pub round: u32,
    /// The opponent's start number; `null` for a bye or an absence.
    #[schema(required = true)]
    pub opponent: Option<u32>,
    /// The player's colour; `null` for a bye or an absence.
    #[schema(value_type = Option<crate::schemas::Colour>, required = true)]
    pub colour: Option<clubcomp_engine::Colour>,
    /// The result as FIDE's tournament file writes it: `1`, `=`, `0` (played), `+`, `-`
    /// (forfeit), `U` (pairing bye), `H`, `F` (half and full bye), `Z` (absent, no point);
    /// empty while the game has no result.
    #[schema(pattern = r"^[10=+\-WDLHFUZ]?$")]
    pub result: String,
}

/// Why a player stands above the next one level on points: the first tie-break of the list
/// whose values differ for them (the one that separated them) and both values
/// (docs/rules/rapid-blitz.md#tie-breaks).
#[derive(Debug, Serialize, ToSchema)]
pub struct SwissSeparation {
    /// The player above.
    pub above_player_id: i64,
    /// The player right below, level on points.
    pub below_player_id: i64,
    /// The acronym of the tie-break that separated them; `null` when the place is still
    /// shared after the whole list.
    #[schema(value_type = Option<String>, required = true)]
    pub tiebreak: Option<Tiebreak>,
    /// The value of the player above for that tie-break; `null` when they have none or are
    /// not separated.
    #[schema(value_type = Option<f64>, required = true)]
    pub above_value: Value,
    /// The value of the player below for that tie-break; `null` when they have none or are
    /// not separated.
    #[schema(value_type = Option<f64>, required = true)]
    pub below_value: Value,
}

/// A Swiss table.
#[derive(Debug, Serialize, ToSchema)]
pub struct SwissStandings {
    /// Tie-breaks applied (PTS first).
    #[schema(value_type = Vec<crate::schemas::StandingsTiebreak>)]
    pub tiebreaks: Vec<Tiebreak>,
    /// First place still shared after the tie-breaks (in the blitz championship: the top score
    /// shared): settled by a play-off (docs/rules/rapid-blitz.md#tie-breaks). False once the
    /// play-off has a winner, who is then the first row (place `1`), the other candidates
    /// after in their order.
    pub playoff_for_first: bool,
    /// The title holder (player id) of the final standings: the play-off's winner, else the
    /// only candidate for the title; `null` while the title is shared or before the last
    /// round. In a blitz championship for members only a guest may be placed above them
    /// (docs/rules/rapid-blitz.md#guests-and-the-title).
    #[schema(required = true)]
    pub champion: Option<i64>,
    /// The play-off for first, once created (final standings only): its games and outcome
    /// (docs/rules/rapid-blitz.md#the-play-off-for-first).
    #[schema(required = true)]
    pub playoff: Option<crate::services::playoff::FirstPlacePlayoff>,
    /// Rows, best first.
    pub rows: Vec<SwissRow>,
    /// For each two neighbours in `rows` level on points, top first: the tie-break that put
    /// one above the other, and the two values.
    pub separations: Vec<SwissSeparation>,
}

/// The standings of a competition.
#[derive(Debug, Serialize, ToSchema)]
pub struct StandingsView {
    /// Competition id.
    pub competition_id: i64,
    /// `keizer`, `swiss` or `round_robin`.
    #[schema(value_type = crate::schemas::StandingsKind)]
    pub kind: CompetitionKind,
    /// Rounds (evenings) that count so far.
    pub rounds_counted: u32,
    /// The round (evening) these standings are after; 0 before any.
    pub after: u32,
    /// Keizer table.
    #[schema(required = true)]
    pub keizer: Option<KeizerStandings>,
    /// Round-robin table.
    #[schema(required = true)]
    pub round_robin: Option<RoundRobinStandings>,
    /// Swiss table.
    #[schema(required = true)]
    pub swiss: Option<SwissStandings>,
}

/// A player's rounds of the tournament file as the standings' cells (`per_round` games a
/// round).
fn game_cells(
    rounds: &[clubcomp_engine::swiss::RoundEntry],
    per_round: usize,
) -> Vec<SwissGameCell> {
    use clubcomp_engine::swiss::ResultCode;
    rounds
        .iter()
        .enumerate()
        .map(|(k, e)| SwissGameCell {
            round: (k / per_round) as u32 + 1,
            opponent: e.opponent,
            colour: e.colour,
            result: match e.result {
                ResultCode::Pending => String::new(),
                code => code.to_char().to_string(),
            },
        })
        .collect()
}

fn check_after(after: Option<u32>, counted: usize) -> ApiResult<u32> {
    match after {
        None => Ok(counted as u32),
        Some(0) => Err(ApiError::invalid("after", "must be 1 or more")),
        Some(n) if n as usize > counted => Err(ApiError::invalid(
            "after",
            format!("only {counted} rounds count so far"),
        )),
        Some(n) => Ok(n),
    }
}

/// Computes the standings view of a competition after round `after` (default the last).
pub fn standings_view(
    c: &mut DbConn,
    comp: &Competition,
    after: Option<u32>,
) -> ApiResult<StandingsView> {
    let mut view = StandingsView {
        competition_id: comp.id.get(),
        kind: comp.kind,
        rounds_counted: 0,
        after: 0,
        keizer: None,
        round_robin: None,
        swiss: None,
    };
    match comp.kind {
        CompetitionKind::Keizer => {
            let input = svc::keizer_input(c, comp)?.input;
            let out = svc::keizer_compute(&input)?;
            let n = check_after(after, out.len())?;
            view.rounds_counted = out.len() as u32;
            view.after = n;
            let ids = PlayerId::all_from_engine(input.players.iter().map(|p| &p.id))?;
            let names = svc::names(c, ids)?;
            if n == 0 {
                // before the first evening: the seed order, nothing scored
                let value = |i: usize| clubcomp_engine::keizer::value_of_place(&input.params, i);
                let rows = input
                    .players
                    .iter()
                    .filter(|p| p.joins_at <= 1)
                    .enumerate()
                    .map(|(i, p)| {
                        let id = PlayerId::from_engine(&p.id)?;
                        Ok(KeizerRow {
                            rank: i as u32 + 1,
                            player_id: id.get(),
                            name: names.get(&id).cloned().unwrap_or_default(),
                            value: value(i),
                            score: 0.0,
                            played: 0,
                            game_points: 0.0,
                            byes: 0,
                            excused: 0,
                            unexcused: 0,
                            eligible: p.withdrawn_from.is_none_or(|w| w > 1),
                            withdrawn_from: p.withdrawn_from.filter(|&w| w <= 1),
                        })
                    })
                    .collect::<ApiResult<_>>()?;
                view.keizer = Some(KeizerStandings {
                    converged: true,
                    iterations: 0,
                    cycle_length: None,
                    warnings: vec![],
                    rows,
                });
                return Ok(view);
            }
            let k = n as usize;
            let mut upto = input.clone();
            upto.evenings.truncate(k);
            let eligible: std::collections::HashMap<String, bool> =
                keizer::candidates(&upto, &out[..k])
                    .into_iter()
                    .map(|p| (p.id.clone(), p.eligible()))
                    .collect();
            let e = &out[k - 1];
            view.keizer = Some(KeizerStandings {
                converged: e.converged,
                iterations: e.iterations,
                cycle_length: e.cycle_length,
                warnings: e.warnings.clone(),
                rows: e
                    .standings
                    .iter()
                    .map(|r| {
                        let id = PlayerId::from_engine(&r.id)?;
                        Ok(KeizerRow {
                            rank: r.rank,
                            player_id: id.get(),
                            name: names.get(&id).cloned().unwrap_or_default(),
                            value: r.value,
                            score: r.score.to_f64(),
                            played: r.played,
                            game_points: r.game_points.to_f64(),
                            byes: r.byes,
                            excused: r.excused,
                            unexcused: r.unexcused,
                            eligible: eligible.get(&r.id).copied().unwrap_or(false),
                            withdrawn_from: r.withdrawn_from,
                        })
                    })
                    .collect::<ApiResult<_>>()?,
            });
        }
        CompetitionKind::RoundRobin => {
            let comp = svc::ensure_lots_seed(c, comp)?;
            let played = svc::counted_rounds(c, comp.id)?.len();
            let n = check_after(after, played)?;
            view.rounds_counted = played as u32;
            view.after = n;
            let s = svc::round_robin_scenario(c, &comp, after.map(|a| a as i32))?;
            let out = svc::round_robin_compute(&s)?;
            let names: std::collections::HashMap<String, String> = s
                .players
                .iter()
                .map(|p| (p.id.clone(), p.name.clone().unwrap_or_default()))
                .collect();
            view.round_robin = Some(RoundRobinStandings {
                rows: out
                    .standings
                    .into_iter()
                    .map(|r| {
                        let name = names.get(&r.id).cloned().unwrap_or_default();
                        Ok(RoundRobinRow {
                            name,
                            ..RoundRobinRow::try_from(r)?
                        })
                    })
                    .collect::<ApiResult<_>>()?,
                cross_table: out.cross_table,
                withdrawals: out
                    .withdrawals
                    .iter()
                    .map(|w| -> ApiResult<_> {
                        Ok(serde_json::json!({
                            "player_id": PlayerId::from_engine(&w.id)?.get(),
                            "from_round": w.from_round,
                            "played": w.played,
                            "due": w.due,
                            "rule": w.rule,
                            "forfeits": w.forfeits,
                        }))
                    })
                    .collect::<ApiResult<_>>()?,
            });
        }
        CompetitionKind::Swiss => {
            let mut rounds = svc::counted_rounds(c, comp.id)?;
            let n = check_after(after, rounds.len())?;
            view.rounds_counted = rounds.len() as u32;
            view.after = n;
            rounds.truncate(n as usize);
            let (mut st, trf, ids) = svc::swiss_compute_with_trf(c, comp, &rounds)?;
            let per_round = crate::services::standings::games_per_round(comp).max(1);
            let tie = crate::services::playoff::first_place_tie(comp)?;
            let may_take = crate::services::playoff::may_take_title(c, comp, &ids)?;
            let title = crate::services::playoff::candidates(&st, &ids, tie, &may_take);
            let mut playoff_for_first = title.len() > 1;
            // the final standings show the play-off's winner first
            // (docs/rules/rapid-blitz.md#the-play-off-for-first)
            let playoff = if n == view.rounds_counted {
                crate::services::playoff::apply_to_standings(c, comp, &mut st, &ids)?
            } else {
                None
            };
            if playoff.as_ref().is_some_and(|p| p.first.is_some()) {
                playoff_for_first = false;
            }
            // the title of the final standings: the play-off's winner, else the one candidate
            let champion = match (playoff.as_ref().and_then(|p| p.first), title.as_slice()) {
                _ if n != view.rounds_counted || n == 0 => None,
                (Some(first), _) => Some(first),
                (None, [one]) => Some(one.get()),
                _ => None,
            };
            let names = svc::names(c, ids.iter().copied())?;
            let withdrawn = crate::store::models::competition::withdrawals(c, comp.id)?;
            let acr: Vec<String> = st.tiebreaks.iter().map(|t| t.acronym()).collect();
            // the engine numbers the players of the TRF it was given, 1, 2, …
            let player = |n: u32| {
                (n as usize)
                    .checked_sub(1)
                    .and_then(|k| ids.get(k))
                    .copied()
                    .ok_or_else(|| {
                        ApiError::Internal(format!(
                            "the standings name player number {n}, which the tournament file \
                             does not hold"
                        ))
                    })
            };
            // the same JSON numbers as the rows' values
            let number = |v: Option<clubcomp_engine::tiebreaks::Value>| {
                serde_json::to_value(v).unwrap_or_default()
            };
            let separations = st
                .separations
                .iter()
                .map(|x| {
                    Ok(SwissSeparation {
                        above_player_id: player(x.above)?.get(),
                        below_player_id: player(x.below)?.get(),
                        tiebreak: x.tiebreak,
                        above_value: number(x.above_value),
                        below_value: number(x.below_value),
                    })
                })
                .collect::<ApiResult<_>>()?;
            view.swiss = Some(SwissStandings {
                tiebreaks: st.tiebreaks.clone(),
                playoff_for_first,
                champion,
                playoff,
                separations,
                rows: st
                    .rows
                    .into_iter()
                    .map(|r| {
                        let id = player(r.id)?;
                        let mut values = serde_json::Map::new();
                        for (a, v) in acr.iter().zip(&r.values) {
                            values.insert(a.clone(), serde_json::to_value(v).unwrap_or_default());
                        }
                        Ok(SwissRow {
                            rank: r.rank,
                            place: r.place,
                            shared: r.shared,
                            player_id: id.get(),
                            name: names.get(&id).cloned().unwrap_or_default(),
                            values: Value::Object(values),
                            withdrawn_from: withdrawn.get(&id).copied(),
                            start_number: r.id,
                            rating: trf
                                .players
                                .get(r.id as usize - 1)
                                .map(|p| p.rating)
                                .filter(|r| *r > 0),
                            games: trf
                                .players
                                .get(r.id as usize - 1)
                                .map(|p| game_cells(&p.rounds, per_round))
                                .unwrap_or_default(),
                        })
                    })
                    .collect::<ApiResult<_>>()?,
            });
        }
        other => {
            return Err(ApiError::Conflict(format!(
                "a {other} competition has no standings table (see its playoffs)"
            )));
        }
    }
    Ok(view)
}
