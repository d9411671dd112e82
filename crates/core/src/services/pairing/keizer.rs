//! The Keizer pairing input from the stored season (docs/rules/keizer.md#season-halves, docs/rules/keizer.md#pairing): the ranking before the round
//! (Keizer standings over the stored results of this half; a summer half starts in the winter's
//! final order), meetings, colours and byes of BOTH halves, first-time flexible players.

use super::{BoardPlan, HandPairing, Plan, memberships, no_pairing, present};
use crate::error::{ApiError, ApiResult, FieldError};
use crate::ids::PlayerId;
use crate::services::rounds;
use crate::store::DbConn;
use crate::store::models::competition::{Competition, Round};
use crate::vocab::RoundStatus;
use chrono::NaiveDate;
use clubcomp_engine::Membership;
use clubcomp_engine::keizer::insert_entrant;
use clubcomp_engine::keizer::parse_result;
use clubcomp_engine::keizer::{self as ks, KeizerResult};
use clubcomp_engine::keizer::{
    self as kp, Meeting, PairingError, PairingInput, RankedPlayer, Rules,
};
use clubcomp_engine::{Colour, Half};
use serde_json::json;
use std::collections::{HashMap, HashSet};

/// A Keizer competition without a half is a winter half.
fn half_of(comp: &Competition) -> Half {
    comp.half.unwrap_or(Half::Winter)
}

/// The season's Keizer halves up to this one, with the evening offset of each: a summer half
/// seeded from a winter half counts on after the winter's rounds (the playing-evening index of
/// docs/rules/keizer.md#pairing, `docs/decisions/0003-keizer-pairing-calendar-attendance.md`).
fn halves(c: &mut DbConn, comp: &Competition) -> ApiResult<Vec<(Competition, u32)>> {
    let mut out = Vec::new();
    if let Some(w) = comp.seeded_from {
        let winter = crate::services::competitions::load(c, w)?;
        let last = rounds::list(c, w)?
            .iter()
            .map(|r| r.number)
            .max()
            .unwrap_or(0);
        let offset = last.max(winter.rounds_planned.unwrap_or(0)).max(0) as u32;
        out.push((winter, 0));
        out.push((comp.clone(), offset));
    } else {
        out.push((comp.clone(), 0));
    }
    Ok(out)
}

/// The season's playing evenings (docs/rules/keizer.md#calendar: every Friday that is not a rapid
/// evening and not closed, so free Fridays count too), by date. Empty without a calendar.
fn playing_dates(c: &mut DbConn, comp: &Competition) -> ApiResult<Vec<NaiveDate>> {
    let mut dates: Vec<NaiveDate> = crate::services::calendar::evenings_of(c, comp.season_id)?
        .into_iter()
        .filter(|e| {
            !matches!(
                e.kind,
                clubcomp_engine::EveningKind::Rapid | clubcomp_engine::EveningKind::Closed
            )
        })
        .map(|e| e.date)
        .collect();
    dates.sort_unstable();
    Ok(dates)
}

/// The date of a round: its own, else its calendar evening's.
fn round_date(c: &mut DbConn, r: &Round) -> Option<NaiveDate> {
    r.date.or_else(|| {
        r.evening_id
            .and_then(|e| crate::services::calendar::load_evening(c, e).ok())
            .map(|e| e.date)
    })
}

/// The playing-evening index of `date`: 1 + the playing evenings before it. Two meetings on
/// indices `i < j` then have `j − i − 1` playing evenings strictly between them.
fn playing_index(playing: &[NaiveDate], date: NaiveDate) -> u32 {
    playing.partition_point(|d| *d < date) as u32 + 1
}

fn over_the_board(result: Option<crate::vocab::ResultCode>) -> bool {
    matches!(
        result.and_then(|r| parse_result(r.as_str())),
        Some(KeizerResult::WhiteWins | KeizerResult::BlackWins | KeizerResult::Draw)
    )
}

/// The Keizer pairing input for `round` (the bye seed is the caller's).
pub fn keizer_input(
    c: &mut DbConn,
    comp: &Competition,
    round: &Round,
    tz: &str,
    seed: u64,
) -> ApiResult<PairingInput> {
    // the ranking before this round is the published standings' ranking: one input builder
    // for both (every earlier round is completed, so the counted rounds are exactly those)
    let mut input = crate::services::standings::keizer_input(c, comp)?.input;
    input
        .evenings
        .truncate(round.number.saturating_sub(1).max(0) as usize);
    let n_evenings = input.evenings.len() as u32;
    let mut ranking: Vec<String> = match ks::compute_keizer(&input)
        .map_err(|e| ApiError::Conflict(format!("standings: {e}")))?
        .last()
    {
        Some(last) => last.standings.iter().map(|r| r.id.clone()).collect(),
        None => Vec::new(),
    };
    let rating: HashMap<String, Option<i32>> = input
        .players
        .iter()
        .map(|p| (p.id.clone(), p.rating))
        .collect();
    // players who join now (or joined before any evening was played) are placed by the
    // entrant rule of docs/rules/keizer.md#entrants; on the first evening the seed order is the order itself
    for p in &input.players {
        if p.joins_at <= n_evenings + 1 && !ranking.contains(&p.id) {
            if n_evenings == 0 {
                ranking.push(p.id.clone());
            } else {
                insert_entrant(&mut ranking, p.id.clone(), |id| {
                    rating.get(id).copied().flatten()
                });
            }
        }
    }
    // season history over both halves
    let half = half_of(comp);
    let mut colours: HashMap<PlayerId, Vec<Colour>> = HashMap::new();
    let mut byes_here: HashMap<PlayerId, u32> = HashMap::new();
    let mut played_any: HashSet<PlayerId> = HashSet::new();
    let mut history = Vec::new();
    let mut evening = round.number as u32;
    // Evenings are counted on the season calendar when it has one and every round involved
    // is dated; otherwise by Keizer round numbers (winter rounds, then summer rounds).
    let playing = playing_dates(c, comp)?;
    let mut by_calendar = !playing.is_empty();
    let mut dated: Vec<(usize, Option<NaiveDate>)> = Vec::new();
    let this_date = round_date(c, round);
    by_calendar &= this_date.is_some();
    for (hc, offset) in halves(c, comp)? {
        if hc.id == comp.id {
            evening = offset + round.number as u32;
        }
        let h = half_of(&hc);
        for r in rounds::list(c, hc.id)? {
            if (hc.id == comp.id && r.number >= round.number) || r.status == RoundStatus::Planned {
                continue;
            }
            let date = round_date(c, &r);
            by_calendar &= date.is_some();
            let first_meeting = history.len();
            for g in rounds::games_of(c, r.id)? {
                let (white, black) = (g.white_id, g.black_id);
                if let Some(w) = white {
                    played_any.insert(w);
                }
                if let Some(b) = black {
                    played_any.insert(b);
                }
                match (white, black) {
                    (Some(w), None) if hc.id == comp.id => *byes_here.entry(w).or_default() += 1,
                    (Some(w), Some(b)) if over_the_board(g.result) => {
                        colours.entry(w).or_default().push(Colour::White);
                        colours.entry(b).or_default().push(Colour::Black);
                        history.push(Meeting {
                            a: w.to_string(),
                            b: b.to_string(),
                            evening: offset + r.number as u32,
                            half: h,
                        });
                    }
                    _ => {}
                }
            }
            dated.extend((first_meeting..history.len()).map(|i| (i, date)));
        }
    }
    if by_calendar && let Some(d) = this_date {
        evening = playing_index(&playing, d);
        for (i, date) in dated {
            if let Some(date) = date {
                history[i].evening = playing_index(&playing, date);
            }
        }
    }
    let here = present(c, comp, round, tz)?;
    let member = memberships(c, comp.id)?;
    let ranked = ranking
        .iter()
        .map(|id| -> ApiResult<RankedPlayer> {
            let p = PlayerId::from_engine(id)?;
            Ok(RankedPlayer {
                id: id.clone(),
                rating: rating.get(id).copied().flatten(),
                present: here.contains(&p),
                first_time: member.get(&p) == Some(&Membership::Flexible)
                    && !played_any.contains(&p),
                colours: colours.remove(&p).unwrap_or_default(),
                byes_this_half: byes_here.get(&p).copied().unwrap_or(0),
            })
        })
        .collect::<ApiResult<Vec<_>>>()?;
    Ok(PairingInput {
        evening,
        half,
        bye_seed: seed,
        ranking: ranked,
        history,
        rules: Rules::default(),
        forbidden: keizer_forbidden_pairs(comp)?,
    })
}

/// The competition's `params.forbidden_pairs` as the engine's pairs of player ids
/// (docs/rules/keizer.md#forbidden-pairs).
fn keizer_forbidden_pairs(comp: &Competition) -> ApiResult<Vec<(String, String)>> {
    let object = crate::services::competitions::stored_params(comp)?.object;
    let mut errs = Vec::new();
    let Some(pairs) = crate::services::competitions::read_forbidden_pairs(&object, &mut errs)
    else {
        return Err(ApiError::Internal(format!(
            "competition {}: stored forbidden pairs do not decode",
            comp.id
        )));
    };
    Ok(pairs
        .into_iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect())
}

/// Generates a Keizer round; the bye seed is drawn from the OS by the caller and stored with
/// the candidates (decision, docs/rules/keizer.md#byes).
pub(super) fn generate(
    c: &mut DbConn,
    comp: &Competition,
    round: &Round,
    tz: &str,
    seed: u64,
) -> ApiResult<Plan> {
    let input = keizer_input(c, comp, round, tz, seed)?;
    if !input.ranking.iter().any(|p| p.present) {
        return Err(ApiError::invalid(
            "players",
            "nobody is present to be paired",
        ));
    }
    let p = match kp::pair_evening(&input) {
        Ok(p) => p,
        Err(PairingError::NoPairing {
            unpaired, isolated, ..
        }) => {
            let mut ids = PlayerId::all_from_engine(isolated.iter().chain(&unpaired))?;
            let mut seen = HashSet::new();
            ids.retain(|id| seen.insert(*id));
            return Err(no_pairing(
                c,
                &ids,
                "every remaining opponent is excluded by the season constraints (docs/rules/keizer.md#pairing-constraints)",
            )?);
        }
        Err(e) => return Err(ApiError::Internal(e.to_string())),
    };
    let mut boards = Vec::new();
    for b in &p.boards {
        boards.push(BoardPlan {
            board: b.board as i32,
            white: PlayerId::from_engine(&b.white)?,
            black: Some(PlayerId::from_engine(&b.black)?),
        });
    }
    if let Some(bye) = &p.bye {
        boards.push(BoardPlan {
            board: bye.board as i32,
            white: PlayerId::from_engine(&bye.player)?,
            black: None,
        });
    }
    let to_ids = |v: &[String]| PlayerId::all_from_engine(v);
    let bye = p.bye.as_ref().map(|b| -> ApiResult<_> {
        Ok(json!({
            "player": PlayerId::from_engine(&b.player)?,
            "seed": b.seed,
            "seed_text": b.seed.to_string(),
            "candidates": to_ids(&b.candidates)?,
            "index": b.index,
            "excluded_unpairable": to_ids(&b.excluded_unpairable)?,
            "excluded_earlier_bye": to_ids(&b.excluded_earlier_bye)?,
        }))
    });
    let bye = bye.transpose()?;
    Ok(Plan {
        boards,
        meta: json!({
            "system": "keizer",
            "evening": input.evening,
            "half": input.half,
            "order": to_ids(&p.order)?,
            "cost": p.cost,
            "bye": bye,
        }),
    })
}

/// The broken rules of a hand-made Keizer pairing (`validate_pairing`), one field error each.
pub(super) fn validate(
    c: &mut DbConn,
    comp: &Competition,
    round: &Round,
    hand: &HandPairing,
    tz: &str,
) -> ApiResult<Vec<FieldError>> {
    let input = keizer_input(c, comp, round, tz, 0)?;
    let hp = kp::HandPairing {
        boards: hand
            .boards
            .iter()
            .map(|b| kp::HandBoard {
                white: b.white.to_string(),
                black: b.black.to_string(),
            })
            .collect(),
        bye: hand.bye.map(|b| b.to_string()),
    };
    Ok(kp::validate_pairing(&input, &hp)
        .into_iter()
        .map(|v| {
            let field = match &v {
                kp::Violation::Constraint { board, .. }
                | kp::Violation::SelfPairing { board, .. } => {
                    format!("boards[{}]", board - 1)
                }
                kp::Violation::ByeNotNeeded { .. } | kp::Violation::ByeNotEligible { .. } => {
                    "bye".to_string()
                }
                _ => "boards".to_string(),
            };
            FieldError::new(field, v.to_string())
        })
        .collect())
}
