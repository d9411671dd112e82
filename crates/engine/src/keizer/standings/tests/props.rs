//! Property tests over random seasons (seeded, so every failure reproduces).

use super::super::*;
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A random but plausible season half: late entrants, absences, byes, forfeits.
pub(crate) fn random_season(seed: u64, n: usize, evenings: usize, top: i64) -> Competition {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let players: Vec<Entrant> = (0..n)
        .map(|i| Entrant {
            id: format!("p{i}"),
            rating: if rng.random_bool(0.8) {
                Some(rng.random_range(1000..2300))
            } else {
                None
            },
            joins_at: if i >= 2 && rng.random_bool(0.2) {
                rng.random_range(1..=evenings as u32)
            } else {
                1
            },
            withdrawn_from: None,
        })
        .collect();
    let mut excused_before = BTreeMap::new();
    for p in &players {
        if rng.random_bool(0.2) {
            excused_before.insert(p.id.clone(), rng.random_range(0..6));
        }
    }
    let results = [
        KeizerResult::WhiteWins,
        KeizerResult::BlackWins,
        KeizerResult::Draw,
        KeizerResult::WhiteWins,
        KeizerResult::BlackWins,
        KeizerResult::Draw,
        KeizerResult::WhiteForfeitWin,
        KeizerResult::BlackForfeitWin,
        KeizerResult::DoubleForfeit,
        KeizerResult::WhiteLostByArbiter,
    ];
    let evs = (1..=evenings as u32)
        .map(|k| {
            let mut present: Vec<&Entrant> = players.iter().filter(|p| p.joins_at <= k).collect();
            present.shuffle(&mut rng);
            let mut ev = KeizerEvening::default();
            let mut playing = Vec::new();
            for p in present {
                match rng.random_range(0..10) {
                    0 => ev.excused.push(p.id.clone()),
                    1 => ev.unexcused.push(p.id.clone()),
                    2 => {} // not listed: absent without notice
                    _ => playing.push(p.id.clone()),
                }
            }
            if playing.len() % 2 == 1 {
                ev.byes.extend(playing.pop());
            }
            for pair in playing.chunks(2) {
                ev.games.push(KeizerGame {
                    white: pair[0].clone(),
                    black: pair[1].clone(),
                    result: results[rng.random_range(0..results.len())],
                });
            }
            ev
        })
        .collect();
    Competition {
        params: Params {
            top_value: top,
            ..Params::default()
        },
        players,
        excused_before,
        evenings: evs,
    }
}

/// An independent, naive reading of docs/rules/keizer.md#recalculation: every player's score over evenings 1..=k with
/// the values of `ranking`.
fn naive_scores(c: &Competition, k: usize, ranking: &[&str]) -> BTreeMap<String, i64> {
    let p = &c.params;
    let value = |id: &str| {
        let place = ranking.iter().position(|r| *r == id).unwrap() as i64;
        (p.top_value - place * p.step).max(1)
    };
    let mut score: BTreeMap<String, i64> = ranking.iter().map(|r| (r.to_string(), 0)).collect();
    let mut used = c.excused_before.clone();
    for ev in &c.evenings[..k] {
        for g in &ev.games {
            let (w, b) = (g.white.as_str(), g.black.as_str());
            let (dw, db) = match g.result {
                KeizerResult::WhiteWins | KeizerResult::BlackLostByArbiter => {
                    (p.win.times(value(b)), p.loss)
                }
                KeizerResult::BlackWins | KeizerResult::WhiteLostByArbiter => {
                    (p.loss, p.win.times(value(w)))
                }
                KeizerResult::Draw => (p.draw.times(value(b)), p.draw.times(value(w))),
                KeizerResult::WhiteForfeitWin => (p.forfeit_win.times(value(w)), Fixed::ZERO),
                KeizerResult::BlackForfeitWin => (Fixed::ZERO, p.forfeit_win.times(value(b))),
                KeizerResult::DoubleForfeit => (Fixed::ZERO, Fixed::ZERO),
            };
            *score.get_mut(w).unwrap() += dw.units();
            *score.get_mut(b).unwrap() += db.units();
        }
        for id in &ev.byes {
            *score.get_mut(id).unwrap() += p.bye.times(value(id)).units();
        }
        for id in &ev.excused {
            let n = used.entry(id.clone()).or_insert(0);
            if *n < p.excused_cap {
                *score.get_mut(id).unwrap() += p.excused.times(value(id)).units();
            }
            *n += 1;
        }
    }
    score
}

fn shuffled(c: &Competition, seed: u64) -> Competition {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut c = c.clone();
    for ev in &mut c.evenings {
        ev.games.shuffle(&mut rng);
        ev.byes.shuffle(&mut rng);
        ev.excused.shuffle(&mut rng);
        ev.unexcused.shuffle(&mut rng);
    }
    c
}

/// A literal, slow replay of docs/rules/keizer.md#recalculation for evening `k` (1-based) from the
/// engine's published ranking of evening k − 1: (ranking, scores, cycle length).
fn naive_evening(
    c: &Competition,
    k: usize,
    previous: &[&str],
) -> (Vec<String>, BTreeMap<String, i64>, usize) {
    let mut r0: Vec<String> = previous.iter().map(|s| s.to_string()).collect();
    for e in c.players.iter().filter(|e| e.joins_at as usize == k) {
        if k == 1 {
            r0.push(e.id.clone());
        } else {
            let rating = |id: &String| c.players.iter().find(|p| &p.id == id).unwrap().rating;
            let ratings: Vec<Option<i32>> = r0.iter().map(rating).collect();
            let at = crate::keizer::entry::insertion_index(&ratings, e.rating);
            r0.insert(at, e.id.clone());
        }
    }
    let mut rankings = vec![r0];
    let mut scores: Vec<BTreeMap<String, i64>> = Vec::new();
    loop {
        let r = rankings.last().unwrap().clone();
        let refs: Vec<&str> = r.iter().map(|s| s.as_str()).collect();
        let s = naive_scores(c, k, &refs);
        let mut next = r.clone();
        next.sort_by(|a, b| s[b].cmp(&s[a]));
        scores.push(s);
        if let Some(j) = rankings.iter().position(|x| *x == next) {
            let len = rankings.len() - j;
            let sums: BTreeMap<String, i64> = next
                .iter()
                .map(|id| (id.clone(), scores[j..].iter().map(|s| s[id]).sum()))
                .collect();
            let mut fin = rankings[j].clone();
            fin.sort_by(|a, b| sums[b].cmp(&sums[a]));
            let avg = sums
                .iter()
                .map(|(id, x)| (id.clone(), Fixed(*x).div_round(len as i64).units()))
                .collect();
            return (fin, avg, len);
        }
        rankings.push(next);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn published_tables_are_sorted_and_valued_by_place(
        seed in any::<u64>(), n in 2usize..14, k in 1usize..9, top in 3i64..70
    ) {
        let c = random_season(seed, n, k, top);
        for e in compute_keizer(&c).unwrap() {
            for (pos, row) in e.standings.iter().enumerate() {
                prop_assert_eq!(row.rank as usize, pos + 1);
                prop_assert_eq!(row.value, (top - pos as i64).max(1));
            }
            for w in e.standings.windows(2) {
                prop_assert!(w[0].score >= w[1].score);
            }
            prop_assert_eq!(e.converged, e.cycle_length.is_none());
        }
    }

    #[test]
    fn converged_evenings_are_fixed_points(
        seed in any::<u64>(), n in 2usize..14, k in 1usize..9, top in 3i64..70
    ) {
        let c = random_season(seed, n, k, top);
        for (i, e) in compute_keizer(&c).unwrap().iter().enumerate() {
            let ranking: Vec<&str> = e.standings.iter().map(|r| r.id.as_str()).collect();
            let naive = naive_scores(&c, i + 1, &ranking);
            if e.converged {
                for row in &e.standings {
                    prop_assert_eq!(naive[&row.id], row.score.units(), "player {}", row.id);
                }
            } else {
                // a cycle's averages are not a fixed point, but every score stays in range
                prop_assert!(e.cycle_length.unwrap() >= 2);
            }
        }
    }

    #[test]
    fn same_input_same_output_whatever_the_list_order(
        seed in any::<u64>(), n in 2usize..14, k in 1usize..9, top in 3i64..70
    ) {
        let c = random_season(seed, n, k, top);
        let a = compute_keizer(&c).unwrap();
        prop_assert_eq!(&a, &compute_keizer(&c).unwrap());
        prop_assert_eq!(&a, &compute_keizer(&shuffled(&c, seed ^ 0x5eed)).unwrap());
    }

    #[test]
    fn every_evening_matches_a_literal_replay(
        seed in any::<u64>(), n in 2usize..12, k in 1usize..8, top in 3i64..70
    ) {
        let c = random_season(seed, n, k, top);
        let out = compute_keizer(&c).unwrap();
        let mut previous: Vec<&str> = Vec::new();
        for (i, e) in out.iter().enumerate() {
            let (ranking, scores, len) = naive_evening(&c, i + 1, &previous);
            let got: Vec<&str> = e.standings.iter().map(|r| r.id.as_str()).collect();
            prop_assert_eq!(&got, &ranking);
            for row in &e.standings {
                prop_assert_eq!(row.score.units(), scores[&row.id]);
            }
            prop_assert_eq!(e.cycle_length, (len > 1).then_some(len as u32));
            previous = got;
        }
    }
}
