//! Property tests: order independence, shares adding up, pre-qualified players passed over.

use super::*;
use crate::Discipline;
use proptest::prelude::*;
use std::collections::BTreeMap;

const CODES: [Option<&str>; 10] = [
    Some("2-0"),
    Some("0-2"),
    Some("1-1"),
    Some("1-1"),
    Some("1+-1-"),
    Some("1--1+"),
    Some("0-0"),
    Some("+/-"),
    Some("-/+"),
    None,
];

/// A random draughts round robin of `n` players; `picks` chooses each game's result.
fn random(n: usize, picks: &[usize], with_lots: bool) -> Scenario {
    let ids: Vec<String> = (0..n).map(|i| format!("p{i:02}")).collect();
    let mut games = Vec::new();
    let mut k = 0;
    for round in schedule(n as u32, 1).unwrap() {
        for b in round.boards {
            let code = CODES[picks[k] % CODES.len()];
            k += 1;
            games.push(RoundRobinGame {
                round: round.round,
                white: ids[b.white as usize - 1].clone(),
                black: ids[b.black as usize - 1].clone(),
                result: code.map(str::to_string),
                termination: None,
                moves: None,
            });
        }
    }
    let mut tiebreaks = default_tiebreaks(Discipline::Draughts);
    if !with_lots {
        tiebreaks.pop();
    }
    Scenario {
        discipline: Discipline::Draughts,
        players: ids
            .iter()
            .map(|id| RoundRobinPlayer {
                id: id.clone(),
                name: None,
            })
            .collect(),
        games,
        tiebreaks: Some(tiebreaks),
        lots_seed: with_lots.then_some(7),
        lots_order: None,
        points_tables: vec![
            PointsTable {
                name: "gm".into(),
                by_place: nums(&[3, 2, 1]),
            },
            PointsTable {
                name: "m".into(),
                by_place: nums(&[5, 4, 3, 2, 1]),
            },
        ],
        excluded_from_points: vec![ids[n - 1].clone()],
        prize_money: nums(&[700, 300, 100, 50]),
        rights: vec![Right::Qualification {
            name: "q".into(),
            slots: 2,
            prequalified: vec![ids[0].clone()],
        }],
        withdrawn: Vec::new(),
        cycles: None,
    }
}

fn championship() -> impl Strategy<Value = (usize, Vec<usize>, Vec<usize>, bool)> {
    (3usize..=9, any::<bool>()).prop_flat_map(|(n, lots)| {
        let games = n * (n - 1) / 2;
        (
            Just(n),
            proptest::collection::vec(0usize..CODES.len(), games),
            Just((0..n + games).collect::<Vec<_>>()).prop_shuffle(),
            Just(lots),
        )
    })
}

/// What must not depend on the input order, per id.
fn by_id(out: &RoundRobinOutput) -> BTreeMap<String, String> {
    out.standings
        .iter()
        .map(|r| {
            let mut shared = r.shared_with.clone();
            shared.sort();
            let v = format!(
                "{} {:?} {} {:?} {:?} {} {:?}",
                r.place, shared, r.points, r.tiebreaks, r.points_tables, r.prize_money, r.rights
            );
            (r.id.clone(), v)
        })
        .collect()
}

fn sum(v: &[i64]) -> num_rational::Ratio<i128> {
    num_rational::Ratio::from_integer(v.iter().map(|&x| i128::from(x)).sum())
}

fn parse(s: &str) -> num_rational::Ratio<i128> {
    let r: Result<num_rational::Ratio<i128>, _> = s.parse();
    match r {
        Ok(r) => r,
        Err(_) => {
            let (i, f) = s.split_once('.').unwrap();
            let d = 10i128.pow(f.len() as u32);
            num_rational::Ratio::new(format!("{i}{f}").parse().unwrap(), d)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn order_of_players_and_games_does_not_matter((n, picks, perm, lots) in championship()) {
        let s = random(n, &picks, lots);
        let a = compute_round_robin(&s).unwrap();
        let mut t = s.clone();
        // permute players and games with the same shuffled index list
        let pp: Vec<usize> = perm.iter().copied().filter(|&i| i < n).collect();
        t.players = pp.iter().map(|&i| s.players[i].clone()).collect();
        let gp: Vec<usize> = perm.iter().filter(|&&i| i >= n).map(|&i| i - n).collect();
        t.games = gp.iter().map(|&i| s.games[i].clone()).collect();
        let b = compute_round_robin(&t).unwrap();
        prop_assert_eq!(by_id(&a), by_id(&b));
        let ids_a: Vec<&String> = a.standings.iter().map(|r| &r.id).collect();
        let ids_b: Vec<&String> = b.standings.iter().map(|r| &r.id).collect();
        prop_assert_eq!(ids_a, ids_b);
        // the cross table follows the players: same cells under the permutation
        for (x, &i) in pp.iter().enumerate() {
            for (y, &j) in pp.iter().enumerate() {
                prop_assert_eq!(&a.cross_table[i][j], &b.cross_table[x][y]);
            }
        }
    }

    #[test]
    fn places_ties_and_decided_by_agree((n, picks, _p, lots) in championship()) {
        let out = compute_round_robin(&random(n, &picks, lots)).unwrap();
        let rows = &out.standings;
        for (k, r) in rows.iter().enumerate() {
            match rows.get(k + 1) {
                // tied with the next row: same place, listed in each other's shared_with,
                // no decided_by; otherwise the next row's place is its position
                Some(next) if next.place == r.place => {
                    prop_assert!(r.shared_with.contains(&next.id));
                    prop_assert!(r.decided_by.is_none());
                    prop_assert!(!lots);
                }
                Some(next) => {
                    prop_assert_eq!(next.place as usize, k + 2);
                    prop_assert!(!r.shared_with.contains(&next.id));
                    prop_assert!(r.decided_by.is_some());
                    prop_assert_eq!(r.decided_by.map(|d| d.name()) == Some("points"), r.points != next.points);
                }
                None => prop_assert!(r.decided_by.is_none()),
            }
        }
        prop_assert_eq!(rows[0].place, 1);
    }

    #[test]
    fn hand_drawn_lots_follow_the_ids((n, picks, perm, _l) in championship()) {
        // a drawing by hand in a random order, then every id renamed: same order, renamed
        let mut s = random(n, &picks, true);
        s.lots_seed = None;
        let order: Vec<usize> = perm.iter().copied().filter(|&i| i < n).collect();
        s.lots_order = Some(order.iter().map(|&i| s.players[i].id.clone()).collect());
        let a = compute_round_robin(&s).unwrap();
        let rename = |id: &str| format!("x{}", 99 - id[1..].parse::<u32>().unwrap());
        let mut t = s.clone();
        for p in &mut t.players { p.id = rename(&p.id); }
        for g in &mut t.games { g.white = rename(&g.white); g.black = rename(&g.black); }
        t.lots_order = s.lots_order.as_ref().map(|o| o.iter().map(|id| rename(id)).collect());
        t.excluded_from_points = s.excluded_from_points.iter().map(|id| rename(id)).collect();
        t.rights = vec![Right::Qualification {
            name: "q".into(), slots: 2, prequalified: vec![rename(&s.players[0].id)],
        }];
        let b = compute_round_robin(&t).unwrap();
        let ia: Vec<String> = a.standings.iter().map(|r| rename(&r.id)).collect();
        let ib: Vec<String> = b.standings.iter().map(|r| r.id.clone()).collect();
        prop_assert_eq!(ia, ib);
        prop_assert!(b.standings.iter().all(|r| r.shared_with.is_empty()));
    }

    #[test]
    fn shares_add_up_to_the_places_awarded((n, picks, _p, lots) in championship()) {
        let s = random(n, &picks, lots);
        let out = compute_round_robin(&s).unwrap();
        // one player is excluded from the tables; everyone counts for the money
        let eligible = n - 1;
        for (name, table) in [("gm", vec![3, 2, 1]), ("m", vec![5, 4, 3, 2, 1])] {
            let total: num_rational::Ratio<i128> = out.standings.iter()
                .map(|r| parse(r.points_tables.get(name).unwrap())).sum();
            let k = table.len().min(eligible);
            prop_assert_eq!(total, sum(&table[..k]));
        }
        let money = [700, 300, 100, 50];
        let total: num_rational::Ratio<i128> =
            out.standings.iter().map(|r| parse(&r.prize_money)).sum();
        prop_assert_eq!(total, sum(&money[..money.len().min(n)]));
        // equal points, equal shares
        for w in out.standings.windows(2) {
            if w[0].points == w[1].points {
                prop_assert_eq!(&w[0].prize_money, &w[1].prize_money);
            }
        }
    }

    #[test]
    fn prequalified_players_never_take_a_slot(
        (n, picks, perm, _l) in championship(), pre in 0usize..4
    ) {
        let mut s = random(n, &picks, true);
        let pre_ids: Vec<String> =
            perm.iter().filter(|&&i| i < n).take(pre.min(n)).map(|&i| s.players[i].id.clone()).collect();
        s.rights = vec![Right::Qualification { name: "q".into(), slots: 2, prequalified: pre_ids.clone() }];
        let out = compute_round_robin(&s).unwrap();
        let qualified: Vec<&Row> = out.standings.iter()
            .filter(|r| r.rights.iter().any(|x| x == "q")).collect();
        prop_assert!(qualified.iter().all(|r| !pre_ids.contains(&r.id)));
        // with lots nothing is shared: exactly min(2, others) qualify, the best-placed others
        let others: Vec<&Row> = out.standings.iter().filter(|r| !pre_ids.contains(&r.id)).collect();
        let expect: Vec<&String> = others.iter().take(2).map(|r| &r.id).collect();
        let got: Vec<&String> = qualified.iter().map(|r| &r.id).collect();
        prop_assert_eq!(got, expect);
    }
}
