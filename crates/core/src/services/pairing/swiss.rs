//! Swiss rounds from the stored games (docs/rules/rapid-blitz.md#double-swiss): the Dutch system over a TRF tournament, and
//! the Double-Swiss over its own state. Pairing numbers are the entrants' seed order; players
//! not checked in are not paired; the pairing-allocated bye is stored as a bye game.

use super::{BoardPlan, Plan, earlier, entrants, no_pairing, present};
use crate::error::{ApiError, ApiResult, FieldError};
use crate::ids::PlayerId;
use crate::services::competitions::DutchPairingParams;
use crate::services::rounds;
use crate::store::DbConn;
use crate::store::models::competition::{Competition, Entrant, Game, Round};
use crate::store::models::players;
use crate::vocab::SwissAcceleration;
use clubcomp_engine::Colour;
use clubcomp_engine::Fixed;
use clubcomp_engine::double_swiss as ds;
use clubcomp_engine::swiss::{self, ResultCode, RoundEntry};
use serde_json::json;
use std::collections::HashMap;

/// Entrants who take part by this round, with pairing numbers 1… in seed order: the
/// entrants in that order, and each one's pairing number by player id.
fn numbered(
    c: &mut DbConn,
    comp: &Competition,
    round: &Round,
) -> ApiResult<(Vec<Entrant>, HashMap<PlayerId, u32>)> {
    let ents: Vec<Entrant> = entrants(c, comp.id)?
        .into_iter()
        .filter(|e| e.joins_at <= round.number)
        .collect();
    let tpn = ents
        .iter()
        .enumerate()
        .map(|(i, e)| (e.player_id, i as u32 + 1))
        .collect();
    Ok((ents, tpn))
}

fn history(c: &mut DbConn, comp: &Competition, round: &Round) -> ApiResult<Vec<Vec<Game>>> {
    let mut out = Vec::new();
    for r in earlier(c, comp.id, round.number)? {
        out.push(rounds::games_of(c, r.id)?);
    }
    Ok(out)
}

fn entry_for(g: &Game, me: PlayerId, tpn: &HashMap<PlayerId, u32>) -> RoundEntry {
    let unplayed = RoundEntry {
        opponent: None,
        colour: None,
        result: ResultCode::ZeroBye,
    };
    let white = g.white_id == Some(me);
    let Some(opp) = (if white { g.black_id } else { g.white_id }) else {
        return RoundEntry {
            opponent: None,
            colour: None,
            result: ResultCode::PairingBye,
        };
    };
    let Some(&o) = tpn.get(&opp) else {
        return unplayed;
    };
    use crate::vocab::ResultCode as Code;
    use ResultCode::*;
    let (w, b) = match g.result {
        Some(Code::WhiteWins) => (Win, Loss),
        Some(Code::BlackWins) => (Loss, Win),
        Some(Code::DrawHalves | Code::Draw) => (Draw, Draw),
        Some(Code::WhiteForfeitWin) => (ForfeitWin, ForfeitLoss),
        Some(Code::BlackForfeitWin) => (ForfeitLoss, ForfeitWin),
        Some(Code::DoubleForfeit) => (ForfeitLoss, ForfeitLoss),
        _ => (Pending, Pending),
    };
    RoundEntry {
        opponent: Some(o),
        colour: Some(if white { Colour::White } else { Colour::Black }),
        result: if white { w } else { b },
    }
}

/// For each forbidden pair of pairing numbers (lower first), the indexes in
/// `params.forbidden_pairs` that name it.
type PairIndexes = HashMap<(u32, u32), Vec<usize>>;

/// The TRF layout with the competition's acceleration (`XXA`) and forbidden pairs (`XXP`) for
/// the Dutch pairing (docs/rules/rapid-blitz.md#acceleration), and for each forbidden pair of
/// pairing numbers (lower first) the indexes in `params.forbidden_pairs` that name it. A pair
/// naming a player who is not an entrant is refused; one naming an entrant who joins later
/// pairs nothing yet. Baku virtual points come from
/// the field in seed order and the planned number of rounds.
fn pairing_lines(
    c: &mut DbConn,
    comp: &Competition,
    ents: &[Entrant],
    players: usize,
    total_rounds: Option<u32>,
) -> ApiResult<(Vec<swiss::Line>, PairIndexes)> {
    let mut errs = Vec::new();
    let object = crate::services::competitions::stored_params(comp)?.object;
    let Some(p) = DutchPairingParams::read(&object, &mut errs) else {
        return Err(ApiError::Internal(format!(
            "competition {}: stored params do not decode: {}",
            comp.id,
            errs.iter()
                .map(|e| format!("{}: {}", e.field, e.message))
                .collect::<Vec<_>>()
                .join("; ")
        )));
    };
    let mut extra = Vec::new();
    if p.acceleration == SwissAcceleration::Baku {
        let Some(rounds) = total_rounds else {
            return Err(ApiError::invalid(
                "params.acceleration",
                "Baku acceleration needs the number of rounds (rounds_planned)",
            ));
        };
        let field: Vec<u32> = (1..=ents.len() as u32).collect();
        for (id, points) in swiss::baku_accelerations(&field, rounds) {
            let fields: Vec<String> = points
                .iter()
                .map(|v| {
                    let halves = v.0 / (Fixed::ONE.0 / 2);
                    format!("{:>2}.{}", halves / 2, if halves % 2 == 1 { 5 } else { 0 })
                })
                .collect();
            extra.push(swiss::Line::Raw(format!(
                "XXA {id:>4} {}",
                fields.join(" ")
            )));
        }
    }
    let tpn: HashMap<PlayerId, u32> = ents
        .iter()
        .enumerate()
        .map(|(i, e)| (e.player_id, i as u32 + 1))
        .collect();
    if !p.forbidden_pairs.is_empty() {
        let all: Vec<PlayerId> = entrants(c, comp.id)?
            .into_iter()
            .map(|e| e.player_id)
            .collect();
        let mut errors = Vec::new();
        for (i, (a, b)) in p.forbidden_pairs.iter().enumerate() {
            for id in [a, b] {
                if !all.contains(id) {
                    errors.push(FieldError::new(
                        format!("params.forbidden_pairs[{i}]"),
                        format!("player {id} is not an entrant of the competition"),
                    ));
                }
            }
        }
        if !errors.is_empty() {
            return Err(ApiError::Validation {
                detail: "a forbidden pair names a player who is not an entrant".into(),
                errors,
            });
        }
    }
    let mut forbidden = PairIndexes::new();
    for (i, (a, b)) in p.forbidden_pairs.iter().enumerate() {
        if let (Some(&x), Some(&y)) = (tpn.get(a), tpn.get(b)) {
            let key = (x.min(y), x.max(y));
            if !forbidden.contains_key(&key) {
                extra.push(swiss::Line::Raw(format!("XXP {} {}", key.0, key.1)));
            }
            forbidden.entry(key).or_default().push(i);
        }
    }
    if extra.is_empty() {
        return Ok((Vec::new(), forbidden));
    }
    let mut layout = vec![swiss::Line::Name];
    if total_rounds.is_some() {
        layout.push(swiss::Line::TotalRounds);
    }
    layout.extend((0..players).map(swiss::Line::Player));
    layout.extend(extra);
    Ok((layout, forbidden))
}

/// A Dutch (blitz) round, or a Burstein round when that is the competition's system
/// (docs/rules/rapid-blitz.md#the-burstein-system).
pub(super) fn dutch(
    c: &mut DbConn,
    comp: &Competition,
    round: &Round,
    tz: &str,
) -> ApiResult<Plan> {
    let (ents, tpn) = numbered(c, comp, round)?;
    // the blitz championship's check-in covers the evening: its participants play every round
    // unless marked absent; other Swiss rounds pair the players checked in for the round
    let here = if crate::services::check_in::is_blitz(comp)? {
        crate::services::check_in::present_for_round(c, comp, round)?
    } else {
        present(c, comp, round, tz)?
    };
    let past = history(c, comp, round)?;
    let mut players = Vec::new();
    for (i, e) in ents.iter().enumerate() {
        let mut entries = Vec::new();
        for games in &past {
            let g = games.iter().find(|g| {
                g.game_no == 1
                    && (g.white_id == Some(e.player_id) || g.black_id == Some(e.player_id))
            });
            entries.push(match g {
                Some(g) => entry_for(g, e.player_id, &tpn),
                None => RoundEntry {
                    opponent: None,
                    colour: None,
                    result: ResultCode::ZeroBye,
                },
            });
        }
        let half: u32 = entries.iter().map(|r| r.result.half_points()).sum();
        if !here.contains(&e.player_id) {
            // not checked in: an entry for this round keeps the player out of the pairing
            entries.push(RoundEntry {
                opponent: None,
                colour: None,
                result: ResultCode::ZeroBye,
            });
        }
        let name = players::by_id(c, e.player_id)?
            .map(|p| p.name)
            .unwrap_or_default();
        players.push(swiss::TrfPlayer {
            id: i as u32 + 1,
            sex: String::new(),
            title: String::new(),
            name,
            rating: e.rating.unwrap_or(0).max(0) as u32,
            federation: String::new(),
            fide_id: String::new(),
            birth: String::new(),
            points: Fixed(i64::from(half) * 5_000),
            rank: 0,
            rounds: entries,
        });
    }
    let present_ids: Vec<PlayerId> = ents
        .iter()
        .map(|e| e.player_id)
        .filter(|p| here.contains(p))
        .collect();
    if present_ids.is_empty() {
        return Err(ApiError::invalid(
            "players",
            "nobody is checked in to be paired",
        ));
    }
    let total_rounds = comp.rounds_planned.map(|n| n.max(1) as u32);
    let (layout, forbidden) = pairing_lines(c, comp, &ents, players.len(), total_rounds)?;
    let t = swiss::Tournament {
        name: Some(comp.name.clone()),
        total_rounds,
        initial_colour: None,
        initial_colour_text: None,
        players,
        layout,
        line_ending: "\n".into(),
        final_line_ending: true,
    };
    let n = past.len() as u32 + 1;
    let burstein = comp.system == Some(clubcomp_engine::PairingSystem::Burstein);
    let (system, title) = if burstein {
        ("burstein", "Burstein")
    } else {
        ("dutch", "Dutch")
    };
    let paired = if burstein {
        swiss::pair_burstein_round(&t, n)
    } else {
        swiss::pair_round(&t, n)
    };
    let boards = match paired {
        Ok(b) => b,
        Err(swiss::PairError::NoValidPairing { blocked, .. }) => {
            let name = |c: &mut DbConn, n: u32| -> ApiResult<String> {
                let id = ents[n as usize - 1].player_id;
                Ok(super::names(c, &[id])?.concat())
            };
            let mut errors = Vec::new();
            for b in &blocked.players {
                let mut why = Vec::new();
                let group = |c: &mut DbConn, ns: &[u32]| -> ApiResult<String> {
                    Ok(ns
                        .iter()
                        .map(|&n| name(c, n))
                        .collect::<ApiResult<Vec<_>>>()?
                        .join(", "))
                };
                if !b.met.is_empty() {
                    why.push(format!("has already played {} (C.1)", group(c, &b.met)?));
                }
                if !b.same_absolute_colour.is_empty() {
                    why.push(format!(
                        "has the same absolute colour preference as {} (C.3)",
                        group(c, &b.same_absolute_colour)?
                    ));
                }
                if b.no_second_bye {
                    why.push("may not receive a second bye (C.2)".into());
                }
                if !b.forbidden.is_empty() {
                    why.push(format!(
                        "may not meet {} (params.forbidden_pairs)",
                        group(c, &b.forbidden)?
                    ));
                    for &o in &b.forbidden {
                        let (x, y) = (b.player.min(o), b.player.max(o));
                        for &i in forbidden.get(&(x, y)).into_iter().flatten() {
                            let field = format!("params.forbidden_pairs[{i}]");
                            if !errors.iter().any(|e: &FieldError| e.field == field) {
                                errors.push(FieldError::new(
                                    field,
                                    format!("{} and {} may not meet", name(c, x)?, name(c, y)?),
                                ));
                            }
                        }
                    }
                }
                errors.push(FieldError::new(
                    "players",
                    format!(
                        "{} cannot be paired: {}",
                        name(c, b.player)?,
                        why.join("; ")
                    ),
                ));
            }
            if errors.is_empty() {
                return Err(no_pairing(
                    c,
                    &present_ids,
                    &format!(
                        "no {title} pairing satisfies the absolute criteria C.1–C.3 and the forbidden pairs"
                    ),
                )?);
            }
            return Err(ApiError::Validation {
                detail: format!(
                    "no {title} pairing satisfies the absolute criteria C.1–C.3 and the forbidden pairs: {}",
                    errors
                        .iter()
                        .map(|e| e.message.as_str())
                        .collect::<Vec<_>>()
                        .join(" | ")
                ),
                errors,
            });
        }
        Err(e) => return Err(ApiError::Internal(e.to_string())),
    };
    let id = |n: u32| ents[n as usize - 1].player_id;
    let plan: Vec<BoardPlan> = boards
        .iter()
        .enumerate()
        .map(|(i, b)| BoardPlan {
            board: i as i32 + 1,
            white: id(b.white),
            black: b.black.map(id),
        })
        .collect();
    let numbers: Vec<_> = ents
        .iter()
        .enumerate()
        .map(|(i, e)| json!({"tpn": i + 1, "player_id": e.player_id}))
        .collect();
    Ok(Plan {
        boards: plan,
        meta: json!({"system": system, "round": n, "pairing_numbers": numbers,
                     "trf": swiss::write_trf(&t)}),
    })
}

fn ds_result(code: Option<crate::vocab::ResultCode>) -> Option<ds::DoubleSwissResult> {
    use crate::vocab::ResultCode as Code;
    Some(match code? {
        Code::WhiteWins => ds::DoubleSwissResult::WhiteWins,
        Code::BlackWins => ds::DoubleSwissResult::BlackWins,
        Code::DrawHalves | Code::Draw => ds::DoubleSwissResult::Draw,
        Code::WhiteForfeitWin => ds::DoubleSwissResult::WhiteForfeitWin,
        Code::BlackForfeitWin => ds::DoubleSwissResult::BlackForfeitWin,
        Code::DoubleForfeit => ds::DoubleSwissResult::DoubleForfeit,
        _ => return None,
    })
}

/// A Double-Swiss (rapid) round: two games per pairing.
pub(super) fn double(
    c: &mut DbConn,
    comp: &Competition,
    round: &Round,
    tz: &str,
) -> ApiResult<Plan> {
    let (ents, tpn) = numbered(c, comp, round)?;
    let here = present(c, comp, round, tz)?;
    let mut records = Vec::new();
    for (k, games) in history(c, comp, round)?.iter().enumerate() {
        let mut rec = ds::RoundRecord::default();
        let mut boards: Vec<i32> = games.iter().map(|g| g.board).collect();
        boards.dedup();
        for b in boards {
            let g1 = games.iter().find(|g| g.board == b && g.game_no == 1);
            let g2 = games.iter().find(|g| g.board == b && g.game_no == 2);
            let Some(g1) = g1 else { continue };
            match (g1.white_id.and_then(|w| tpn.get(&w)), g1.black_id) {
                (Some(&w), None) => rec.byes.push(ds::Bye {
                    player: w,
                    kind: ds::ByeKind::Pairing,
                }),
                (Some(&w), Some(bl)) => {
                    let Some(&bl) = tpn.get(&bl) else { continue };
                    let bad = || {
                        ApiError::Conflict(format!(
                            "round {} board {b}: results are missing or cannot be scored",
                            k + 1
                        ))
                    };
                    rec.matches.push(ds::Match {
                        white: w,
                        black: bl,
                        game1: ds_result(g1.result).ok_or_else(bad)?,
                        game2: ds_result(g2.and_then(|g| g.result)).ok_or_else(bad)?,
                    });
                }
                _ => {}
            }
        }
        records.push(rec);
    }
    let absent: Vec<u32> = ents
        .iter()
        .enumerate()
        .filter(|(_, e)| !here.contains(&e.player_id))
        .map(|(i, _)| i as u32 + 1)
        .collect();
    if absent.len() == ents.len() {
        return Err(ApiError::invalid(
            "players",
            "nobody is checked in to be paired",
        ));
    }
    let mut dsp = Vec::new();
    for (i, e) in ents.iter().enumerate() {
        dsp.push(ds::DoubleSwissPlayer {
            id: i as u32 + 1,
            name: players::by_id(c, e.player_id)?
                .map(|p| p.name)
                .unwrap_or_default(),
            rating: e.rating.map(|r| r.max(0) as u32),
        });
    }
    let state = ds::State {
        players: dsp,
        rounds: records,
        absent,
    };
    let id = |n: u32| ents[n as usize - 1].player_id;
    let next = match ds::pair_next_round(&state) {
        Ok(n) => n,
        Err(ds::DoubleSwissError::Unpairable { players }) => {
            let ids: Vec<PlayerId> = players.into_iter().map(id).collect();
            return Err(no_pairing(
                c,
                &ids,
                "every pairing repeats a meeting or gives a second bye (C.04.5)",
            )?);
        }
        Err(e) => return Err(ApiError::Internal(e.to_string())),
    };
    let mut plan: Vec<BoardPlan> = next
        .pairings
        .iter()
        .map(|p| BoardPlan {
            board: p.board as i32,
            white: id(p.white),
            black: Some(id(p.black)),
        })
        .collect();
    if let Some(b) = next.bye {
        plan.push(BoardPlan {
            board: plan.len() as i32 + 1,
            white: id(b),
            black: None,
        });
    }
    let numbers: Vec<_> = ents
        .iter()
        .enumerate()
        .map(|(i, e)| json!({"tpn": i + 1, "player_id": e.player_id}))
        .collect();
    Ok(Plan {
        boards: plan,
        meta: json!({"system": "double_swiss", "round": next.round, "pairing_numbers": numbers}),
    })
}
