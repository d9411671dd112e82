//! The demo's Keizer halves: the evenings before the demo's day paired by the Keizer pairing
//! engine, played and completed, the first on or after it published (paired, no results), the
//! later ones planned.

use super::{
    chess_result, competition, insert_competition, insert_entrant, insert_game, insert_round,
};
use crate::error::{ApiError, ApiResult};
use crate::ids::{PlayerId, SeasonId};
use crate::store::DbConn;
use crate::store::models::competition::{Evening, NewAttendance};
use crate::store::models::players::Player;
use crate::store::stamps::Scope;
use crate::vocab::RoundStatus;
use chrono::NaiveDate;
use clubcomp_engine::keizer::{self as ks, KeizerResult, Meeting, PairingInput, RankedPlayer};
use clubcomp_engine::{Colour, CompetitionKind, Discipline, EveningKind, Half, Membership};
use diesel::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{HashMap, HashSet};

/// What a half left behind for the rest of the demo.
pub(super) struct HalfOutcome {
    /// A summary line.
    pub summary: String,
    /// The first fixed player, in the club's order, who played a game and signed off for an
    /// evening of the half: the one the member account is linked to.
    pub member: Option<PlayerId>,
}

/// The state of the pairing between evenings of one half.
#[derive(Default)]
struct Played {
    colours: HashMap<String, Vec<Colour>>,
    byes: HashMap<String, u32>,
    seen: HashSet<String>,
    history: Vec<Meeting>,
    signed_off: HashSet<String>,
    games: HashSet<String>,
}

// Long: the demo builds this step by step in the order the club plays it; split, the steps would lose that order.
/// One Keizer half of the season with all club players entered.
pub(super) fn seed_half(
    c: &mut DbConn,
    season_id: SeasonId,
    club: &[Player],
    evenings: &[Evening],
    half: Half,
    today: NaiveDate,
) -> ApiResult<HalfOutcome> {
    use crate::services::competitions::TimeControl;
    let days: Vec<&Evening> = evenings
        .iter()
        .filter(|e| e.kind == EveningKind::Keizer && e.half == Some(half))
        .collect();
    let year = days
        .first()
        .map(|e| chrono::Datelike::year(&e.date))
        .unwrap_or_default();
    let name = match half {
        Half::Winter => format!("Keizer winter {year}"),
        Half::Summer => format!("Keizer summer {year}"),
    };
    let tc = serde_json::to_value(TimeControl::club_default()).unwrap_or_default();
    let comp = insert_competition(
        c,
        competition(
            season_id,
            &name,
            CompetitionKind::Keizer,
            Discipline::Chess,
            None,
            Some(half),
            &tc,
            Some(days.len() as i32),
        ),
    )?;
    let opening = days.first().map(|e| e.date).unwrap_or(today);
    let (source, on) = crate::services::competitions::seed_rating(&comp, opening);
    // entrants in order of entry; the seed order (docs/rules/keizer.md#entrants) sorts them by rating
    let mut entrants = Vec::new();
    for (i, p) in club.iter().enumerate() {
        let rating = crate::store::models::ratings::on_date(c, p.id, source, on)?.map(|r| r.value);
        insert_entrant(c, comp.id, p.id, i as i32 + 1, rating)?;
        entrants.push((p, rating, i));
    }
    entrants.sort_by(|a, b| match (a.1, b.1) {
        (Some(x), Some(y)) => y.cmp(&x).then(a.2.cmp(&b.2)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.2.cmp(&b.2),
    });
    let by_key: HashMap<String, (PlayerId, Option<i32>, bool)> = entrants
        .iter()
        .map(|(p, r, _)| (key(p.id), (p.id, *r, p.membership == Membership::Flexible)))
        .collect();
    let mut engine = ks::Competition {
        players: entrants
            .iter()
            .map(|(p, r, _)| ks::Entrant {
                id: key(p.id),
                rating: *r,
                joins_at: 1,
                withdrawn_from: None,
            })
            .collect(),
        ..Default::default()
    };
    let seed = match half {
        Half::Winter => 20_260_911,
        Half::Summer => 20_270_115,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut played = Played::default();
    let mut ranking: Vec<String> = engine.players.iter().map(|e| e.id.clone()).collect();
    let completed = days.iter().filter(|e| e.date < today).count();
    for (k, ev) in days.iter().enumerate() {
        let number = k as u32 + 1;
        if k > completed {
            insert_round(
                c,
                comp.id,
                number as i32,
                Some(ev),
                None,
                RoundStatus::Planned,
                None,
            )?;
            continue;
        }
        let evening = EveningToStore {
            comp: comp.id,
            number,
            half,
            at: ev,
            published: k == completed,
        };
        let result = play_evening(c, &evening, &ranking, &by_key, &mut rng, &mut played)?;
        if evening.published {
            continue;
        }
        engine.evenings.push(result);
        // the ranking after this evening orders the next pairing (docs/rules/keizer.md#pairing)
        let standings = ks::compute_keizer(&engine)
            .map_err(|e| ApiError::Internal(format!("demo standings: {e}")))?;
        if let Some(last) = standings.last() {
            ranking = last.standings.iter().map(|r| r.id.clone()).collect();
        }
    }
    crate::store::stamps::touch(c, Scope::Competition(comp.id))?;
    let member = club
        .iter()
        .filter(|p| p.membership == Membership::Fixed)
        .map(|p| key(p.id))
        .find(|k| played.signed_off.contains(k) && played.games.contains(k))
        .map(|k| by_key[&k].0);
    let published = usize::from(completed < days.len());
    Ok(HalfOutcome {
        summary: format!(
            "{name}: {} entrants, {} evenings completed, {published} published",
            club.len(),
            completed.min(days.len())
        ),
        member,
    })
}

fn key(id: PlayerId) -> String {
    format!("p{id}")
}

/// One evening to store: completed (with results) or published (paired, no results).
struct EveningToStore<'a> {
    comp: crate::ids::CompetitionId,
    number: u32,
    half: Half,
    at: &'a Evening,
    published: bool,
}

// Long: the demo builds this step by step in the order the club plays it; split, the steps would lose that order.
/// Pairs one evening with `pair_evening` and stores its round, games and sign-offs; the
/// evening's results for the standings (empty when published).
fn play_evening(
    c: &mut DbConn,
    ev: &EveningToStore,
    ranking: &[String],
    by_key: &HashMap<String, (PlayerId, Option<i32>, bool)>,
    rng: &mut ChaCha8Rng,
    st: &mut Played,
) -> ApiResult<ks::KeizerEvening> {
    // presence: fixed players come 9 times in 10, flexible players 4 in 10
    let mut present = HashMap::new();
    for id in ranking {
        let p = if by_key[id].2 { 40 } else { 90 };
        present.insert(id.clone(), rng.random_range(0..100) < p);
    }
    let input = PairingInput {
        evening: ev.number,
        half: ev.half,
        bye_seed: 1000 + u64::from(ev.number),
        ranking: ranking
            .iter()
            .map(|id| RankedPlayer {
                id: id.clone(),
                rating: by_key[id].1,
                present: present[id],
                first_time: by_key[id].2 && !st.seen.contains(id),
                colours: st.colours.get(id).cloned().unwrap_or_default(),
                byes_this_half: st.byes.get(id).copied().unwrap_or(0),
            })
            .collect(),
        history: st.history.clone(),
        rules: Default::default(),
        forbidden: Vec::new(),
    };
    let pairing =
        ks::pair_evening(&input).map_err(|e| ApiError::Internal(format!("demo pairing: {e}")))?;
    let meta =
        serde_json::json!({"engine": "keizer", "bye_seed": input.bye_seed, "pairing": pairing});
    let status = if ev.published {
        RoundStatus::Published
    } else {
        RoundStatus::Completed
    };
    let round = insert_round(
        c,
        ev.comp,
        ev.number as i32,
        Some(ev.at),
        None,
        status,
        Some(meta.to_string()),
    )?;
    let mut played = ks::KeizerEvening::default();
    for b in &pairing.boards {
        let (w, bl) = (&by_key[&b.white], &by_key[&b.black]);
        let result = (!ev.published).then(|| chess_result(rng, w.1, bl.1));
        insert_game(
            c,
            round.id,
            b.board as i32,
            1,
            Some(w.0),
            Some(bl.0),
            result,
        )?;
        let Some(r) = result else { continue };
        played.games.push(ks::KeizerGame {
            white: b.white.clone(),
            black: b.black.clone(),
            result: match r {
                crate::vocab::ResultCode::WhiteWins => KeizerResult::WhiteWins,
                crate::vocab::ResultCode::BlackWins => KeizerResult::BlackWins,
                _ => KeizerResult::Draw,
            },
        });
        st.colours
            .entry(b.white.clone())
            .or_default()
            .push(Colour::White);
        st.colours
            .entry(b.black.clone())
            .or_default()
            .push(Colour::Black);
        st.games.insert(b.white.clone());
        st.games.insert(b.black.clone());
        st.history.push(Meeting {
            a: b.white.clone(),
            b: b.black.clone(),
            evening: ev.number,
            half: ev.half,
        });
    }
    if let Some(bye) = &pairing.bye {
        let p = by_key[&bye.player].0;
        // as the pairing stores it: the bye's result is set when the round is paired, so
        // the evening in play can be completed once its games have results
        insert_game(
            c,
            round.id,
            bye.board as i32,
            1,
            Some(p),
            None,
            Some(crate::vocab::ResultCode::Bye),
        )?;
        if !ev.published {
            played.byes.push(bye.player.clone());
            *st.byes.entry(bye.player.clone()).or_default() += 1;
        }
    }
    // absent fixed players signed off (excused) 3 times in 4, flexible ones stayed away
    for id in ranking {
        if present[id] {
            st.seen.insert(id.clone());
            continue;
        }
        if by_key[id].2 {
            continue;
        }
        let excused = rng.random_range(0..4) < 3;
        if excused {
            sign_off(c, round.id, by_key[id].0, ev.at.date)?;
            st.signed_off.insert(id.clone());
        }
        if !ev.published {
            if excused {
                played.excused.push(id.clone());
            } else {
                played.unexcused.push(id.clone());
            }
        }
    }
    Ok(played)
}

/// A sign-off by e-mail at noon the day before the evening.
fn sign_off(
    c: &mut DbConn,
    round: crate::ids::RoundId,
    player: PlayerId,
    date: NaiveDate,
) -> ApiResult<()> {
    diesel::insert_into(crate::store::schema::attendance::table)
        .values(&NewAttendance {
            round_id: round,
            player_id: player,
            action: crate::vocab::ChangeAction::SignOff,
            channel: crate::vocab::ChangeChannel::Email,
            recorded_by: "leader@club.example".into(),
            at: date
                .pred_opt()
                .unwrap_or(date)
                .and_hms_opt(12, 0, 0)
                .unwrap_or_default(),
            note: None,
        })
        .execute(c)?;
    Ok(())
}
