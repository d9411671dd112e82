//! Tests of the Keizer pairing: hand-worked examples for every rule of docs/rules/keizer.md#pairing and property
//! tests against an exhaustive search.

use super::*;
use proptest::prelude::*;

fn p(id: &str) -> RankedPlayer {
    RankedPlayer {
        id: id.into(),
        rating: None,
        present: true,
        first_time: false,
        colours: Vec::new(),
        byes_this_half: 0,
    }
}

fn met(a: &str, b: &str, evening: u32, half: Half) -> Meeting {
    Meeting {
        a: a.into(),
        b: b.into(),
        evening,
        half,
    }
}

fn input(ranking: Vec<RankedPlayer>, history: Vec<Meeting>, evening: u32) -> PairingInput {
    PairingInput {
        evening,
        half: if evening <= 10 {
            Half::Winter
        } else {
            Half::Summer
        },
        bye_seed: 7,
        ranking,
        history,
        rules: Rules::default(),
        forbidden: Vec::new(),
    }
}

fn boards(pg: &KeizerPairing) -> Vec<(String, String)> {
    pg.boards
        .iter()
        .map(|b| (b.white.clone(), b.black.clone()))
        .collect()
}

fn pair(w: &str, b: &str) -> (String, String) {
    (w.into(), b.into())
}

#[test]
fn neighbours_meet_and_the_higher_player_gets_white_without_history() {
    // 6 present, nobody met: 1–2, 3–4, 5–6, cost 1 + 1 + 1 = 3; equal surplus (0), nobody
    // had black last → the higher in pairing order gets white.
    let inp = input(["a", "b", "c", "d", "e", "f"].map(p).to_vec(), vec![], 1);
    let pg = pair_evening(&inp).unwrap();
    assert_eq!(
        boards(&pg),
        vec![pair("a", "b"), pair("c", "d"), pair("e", "f")]
    );
    assert_eq!(pg.cost, 3);
    assert!(pg.bye.is_none());
}

#[test]
fn nobody_or_one_player_present() {
    // nobody: an empty pairing; one player: the bye, board 1, the only candidate
    let mut none = input(vec![p("a")], vec![], 1);
    none.ranking[0].present = false;
    let pg = pair_evening(&none).unwrap();
    assert!(pg.boards.is_empty() && pg.bye.is_none());
    let pg = pair_evening(&input(vec![p("a")], vec![], 1)).unwrap();
    let bye = pg.bye.unwrap();
    assert_eq!((bye.player.as_str(), bye.board), ("a", 1));
    assert_eq!(
        pair_evening(&input(vec![p("a"), p("a")], vec![], 1)),
        Err(PairingError::DuplicatePlayer { player: "a".into() })
    );
}

#[test]
fn each_constraint_is_named_with_its_earlier_evenings() {
    let r = Rules::default();
    let h = |ms: &[(u32, Half)]| {
        let list: Vec<Meeting> = ms.iter().map(|&(e, hf)| met("a", "b", e, hf)).collect();
        History::new(&list, |id| match id {
            "a" => Some(0),
            "b" => Some(1),
            _ => None,
        })
    };
    // Once per half: met on evening 2 (winter); evening 9 (winter) has 3…8 = 6 evenings
    // between (enough), but it is the same half → only the half limit.
    let b = h(&[(2, Half::Winter)]).broken(0, 1, 9, Half::Winter, &r);
    assert_eq!(
        b,
        vec![Broken {
            rule: PairingRule::HalfLimit,
            earlier_evenings: vec![2]
        }]
    );
    // Five evenings between: met on evening 8 (winter); on evening 13 (summer) the evenings
    // strictly between are 9, 10, 11, 12 = 4 < 5 → too soon; on evening 14: 9…13 = 5 → fine.
    let hist = h(&[(8, Half::Winter)]);
    assert_eq!(
        hist.broken(0, 1, 13, Half::Summer, &r),
        vec![Broken {
            rule: PairingRule::TooSoon,
            earlier_evenings: vec![8]
        }]
    );
    assert!(hist.broken(0, 1, 14, Half::Summer, &r).is_empty());
    // Twice per season: met on 1 (winter) and 11 (summer); on evening 19 (summer) 12…18 = 7
    // between is enough, but the season limit (2) and the summer's half limit are reached.
    let b = h(&[(1, Half::Winter), (11, Half::Summer)]).broken(0, 1, 19, Half::Summer, &r);
    assert_eq!(
        b,
        vec![
            Broken {
                rule: PairingRule::SeasonLimit,
                earlier_evenings: vec![1, 11]
            },
            Broken {
                rule: PairingRule::HalfLimit,
                earlier_evenings: vec![11]
            }
        ]
    );
    // The season limit alone, with a club that allows two meetings per half.
    let two = Rules {
        max_per_half: 2,
        ..r
    };
    let b = h(&[(1, Half::Winter), (8, Half::Winter)]).broken(0, 1, 20, Half::Summer, &two);
    assert_eq!(b[0].rule, PairingRule::SeasonLimit);
    assert_eq!(b.len(), 1);
}

#[test]
fn forbidden_neighbours_are_split_at_least_cost() {
    // a–b met on evening 1. On evening 3 the options are a–c & b–d (2² + 2² = 8) or
    // a–d & b–c (3² + 1² = 10) → a–c, b–d.
    let inp = input(
        ["a", "b", "c", "d"].map(p).to_vec(),
        vec![met("a", "b", 1, Half::Winter)],
        3,
    );
    let pg = pair_evening(&inp).unwrap();
    assert_eq!(boards(&pg), vec![pair("a", "c"), pair("b", "d")]);
    assert_eq!(pg.cost, 8);
    // the board of the top player first; positions are 1-based
    assert_eq!(
        (pg.boards[1].white_position, pg.boards[1].black_position),
        (2, 4)
    );
}

#[test]
fn equal_cost_takes_the_closest_opponent_for_the_top_player() {
    // Allowed only: a–c, b–f, d–e, a–e, b–c, d–f (everything else met on evening 1 or 2).
    //   a–c (4) + b–f (16) + d–e (1) = 21  and  a–e (16) + b–c (1) + d–f (4) = 21.
    // Tie: the top player's opponent decides, c (position 3) before e (5).
    let ids = ["a", "b", "c", "d", "e", "f"];
    let allowed = [
        ("a", "c"),
        ("b", "f"),
        ("d", "e"),
        ("a", "e"),
        ("b", "c"),
        ("d", "f"),
    ];
    let mut hist = Vec::new();
    for (i, x) in ids.iter().enumerate() {
        for y in &ids[i + 1..] {
            if !allowed.contains(&(x, y)) {
                hist.push(met(x, y, 1, Half::Winter));
            }
        }
    }
    let pg = pair_evening(&input(ids.map(p).to_vec(), hist, 4)).unwrap();
    assert_eq!(pg.cost, 21);
    assert_eq!(
        boards(&pg),
        vec![pair("a", "c"), pair("b", "f"), pair("d", "e")]
    );
}

#[test]
fn colours_follow_surplus_then_last_black_then_order() {
    use Colour::{Black as B, White as W};
    let with = |id: &str, c: &[Colour]| RankedPlayer {
        colours: c.to_vec(),
        ..p(id)
    };
    // surplus: high W,W (+2), low W,B (0) → the smaller surplus (low) gets white
    assert!(!high_gets_white(&with("h", &[W, W]), &with("l", &[W, B])));
    // equal surplus 0; high's last game black, low's white → high gets white
    assert!(high_gets_white(&with("h", &[W, B]), &with("l", &[B, W])));
    // equal surplus 0; only low had black last → low gets white
    assert!(!high_gets_white(&with("h", &[B, W]), &with("l", &[W, B])));
    // equal surplus, both had black last → the higher in pairing order
    assert!(high_gets_white(&with("h", &[W, B]), &with("l", &[W, B])));
    // no games at all → the higher in pairing order
    assert!(high_gets_white(&with("h", &[]), &with("l", &[])));
}

#[test]
fn first_time_flexible_player_is_placed_by_rating() {
    // Ranking A 1900, B 1700, C 1500, D 1450, F (first time, 1750, at the bottom).
    // F's nearest rated player: A 150, B 50, C 250, D 300 → B; F is rated higher → above B.
    // Order A, F, B, C, D — odd, so one bye; then the neighbours meet.
    let r = |id: &str, rating: i32| RankedPlayer {
        rating: Some(rating),
        ..p(id)
    };
    let ranking = vec![
        r("A", 1900),
        r("B", 1700),
        r("C", 1500),
        r("D", 1450),
        RankedPlayer {
            first_time: true,
            ..r("F", 1750)
        },
    ];
    let pg = pair_evening(&input(ranking.clone(), vec![], 2)).unwrap();
    assert_eq!(pg.order, ["A", "F", "B", "C", "D"]);
    // The nearest rated player may be absent: with B absent, F (1750) is still placed above
    // B in the ranking and so between A and C among those present.
    let mut r2 = ranking;
    r2[1].present = false;
    let pg = pair_evening(&input(r2, vec![], 2)).unwrap();
    assert_eq!(pg.order, ["A", "F", "C", "D"]);
    assert_eq!(boards(&pg), vec![pair("A", "F"), pair("C", "D")]);
}

#[test]
fn bye_goes_to_someone_without_a_bye_in_this_half() {
    // 5 present; a, b, c, d had a bye this half, e did not → e is the only candidate,
    // whatever the seed. The rest pair as neighbours a–b, c–d; the bye is board 3.
    let mut ranking: Vec<RankedPlayer> = ["a", "b", "c", "d", "e"].map(p).to_vec();
    for pl in &mut ranking[..4] {
        pl.byes_this_half = 1;
    }
    for seed in 0..20 {
        let mut inp = input(ranking.clone(), vec![], 5);
        inp.bye_seed = seed;
        let pg = pair_evening(&inp).unwrap();
        let bye = pg.bye.unwrap();
        assert_eq!(bye.player, "e");
        assert_eq!(bye.candidates, ["e"]);
        assert_eq!(bye.excluded_earlier_bye, ["a", "b", "c", "d"]);
        assert_eq!(bye.board, 3);
        assert_eq!(bye.seed, seed);
    }
}

#[test]
fn bye_must_leave_a_pairable_rest() {
    // a, b, c present; a–b met on evening 1. A bye for c would force a–b on evening 2 → c is
    // not a candidate; the candidates are a and b.
    let inp = input(
        ["a", "b", "c"].map(p).to_vec(),
        vec![met("a", "b", 1, Half::Winter)],
        2,
    );
    let pg = pair_evening(&inp).unwrap();
    let bye = pg.bye.clone().unwrap();
    assert_eq!(bye.candidates, ["a", "b"]);
    assert_eq!(bye.excluded_unpairable, ["c"]);
    assert_eq!(bye.candidates[bye.index], bye.player);
    // reproducible: same input, same draw
    assert_eq!(pair_evening(&inp).unwrap(), pg);
    // over many seeds both candidates get drawn (it is random, not the lowest)
    let drawn: std::collections::HashSet<String> = (0..40)
        .map(|s| {
            let mut i = inp.clone();
            i.bye_seed = s;
            pair_evening(&i).unwrap().bye.unwrap().player
        })
        .collect();
    assert_eq!(drawn.len(), 2);
}

#[test]
fn impossible_pairing_names_the_players() {
    // a met b, c and d on evening 3: on evening 5 a may meet nobody.
    let hist = vec![
        met("a", "b", 3, Half::Winter),
        met("a", "c", 3, Half::Winter),
        met("a", "d", 3, Half::Winter),
    ];
    let err = pair_evening(&input(["a", "b", "c", "d"].map(p).to_vec(), hist, 5)).unwrap_err();
    let PairingError::NoPairing {
        short, isolated, ..
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!(isolated, &["a"]);
    assert!(err.to_string().contains("may meet nobody present: a"));
    // a stays alone, and then one of b, c, d too: 2 short
    assert_eq!(*short, 2);
    // A barrier: b, c, d have all met each other; only a may meet them. a can take one of
    // them, the other two stay unpaired: groups {b}, {c}, {d}, barrier {a}, 3 − 1 = 2 short.
    let hist = vec![
        met("b", "c", 1, Half::Winter),
        met("b", "d", 1, Half::Winter),
        met("c", "d", 1, Half::Winter),
    ];
    let err = pair_evening(&input(["a", "b", "c", "d"].map(p).to_vec(), hist, 5)).unwrap_err();
    assert_eq!(
        err,
        PairingError::NoPairing {
            short: 2,
            unpaired: match &err {
                PairingError::NoPairing { unpaired, .. } => unpaired.clone(),
                _ => vec![],
            },
            isolated: vec![],
            groups: vec![vec!["b".into()], vec!["c".into()], vec!["d".into()]],
            barrier: vec!["a".into()],
        }
    );
    assert!(
        err.to_string()
            .contains("the groups {b}, {c}, {d} can each be completed only with one of a")
    );
}

#[test]
fn validation_names_pair_rule_and_evening() {
    // a–b met on evening 8 (winter); on evening 12 (summer) 9, 10, 11 = 3 between < 5.
    let inp = input(
        ["a", "b", "c", "d", "e"].map(p).to_vec(),
        vec![met("a", "b", 8, Half::Winter)],
        12,
    );
    let mut ranking = inp.ranking.clone();
    ranking[4].present = false;
    let inp = PairingInput { ranking, ..inp };
    let hand = HandPairing {
        boards: vec![
            HandBoard {
                white: "b".into(),
                black: "a".into(),
            },
            HandBoard {
                white: "c".into(),
                black: "e".into(),
            },
        ],
        bye: None,
    };
    let v = validate_pairing(&inp, &hand);
    assert_eq!(
        v,
        vec![
            Violation::Constraint {
                board: 1,
                white: "b".into(),
                black: "a".into(),
                rule: PairingRule::TooSoon,
                earlier_evenings: vec![8],
            },
            Violation::NotPresent { player: "e".into() },
            Violation::NotPaired { player: "d".into() },
        ]
    );
    assert_eq!(
        v[0].to_string(),
        "board 1 (b–a): too few evenings since they last met; an earlier meeting on evening 8"
    );
    // a valid hand pairing has no violations
    let ok = HandPairing {
        boards: vec![
            HandBoard {
                white: "a".into(),
                black: "c".into(),
            },
            HandBoard {
                white: "d".into(),
                black: "b".into(),
            },
        ],
        bye: None,
    };
    assert!(validate_pairing(&inp, &ok).is_empty());
}

#[test]
fn validation_of_the_bye() {
    // 3 present, a had a bye this half, b and c not: a bye for a is not eligible.
    let mut ranking = ["a", "b", "c"].map(p).to_vec();
    ranking[0].byes_this_half = 1;
    let inp = input(ranking, vec![], 3);
    let hand = HandPairing {
        boards: vec![HandBoard {
            white: "b".into(),
            black: "c".into(),
        }],
        bye: Some("a".into()),
    };
    assert_eq!(
        validate_pairing(&inp, &hand),
        vec![Violation::ByeNotEligible {
            player: "a".into(),
            eligible: vec!["b".into(), "c".into()],
        }]
    );
}

// ---------------------------------------------------------------- property tests

/// An independent statement of the constraints, straight from docs/rules/keizer.md#pairing-constraints.
fn may_meet(inp: &PairingInput, a: &str, b: &str) -> bool {
    let ms: Vec<&Meeting> = inp
        .history
        .iter()
        .filter(|m| (m.a == a && m.b == b) || (m.a == b && m.b == a))
        .collect();
    ms.len() < 2
        && !ms.iter().any(|m| m.half == inp.half)
        && ms.iter().all(|m| inp.evening - m.evening > 5)
}

fn arb_input(max_players: usize) -> impl Strategy<Value = PairingInput> {
    (2..=max_players, 1u32..=20, any::<u64>()).prop_flat_map(|(n, evening, seed)| {
        let meetings = proptest::collection::vec((0..n, 0..n, 1..evening.max(2)), 0..(3 * n));
        let present = proptest::collection::vec(prop::bool::weighted(0.85), n);
        let byes = proptest::collection::vec(0u32..2, n);
        (meetings, present, byes).prop_map(move |(ms, present, byes)| {
            let half = |e: u32| if e <= 10 { Half::Winter } else { Half::Summer };
            let ranking = (0..n)
                .map(|i| RankedPlayer {
                    id: format!("p{i}"),
                    rating: None,
                    present: present[i],
                    first_time: false,
                    colours: Vec::new(),
                    byes_this_half: byes[i],
                })
                .collect();
            let history = ms
                .into_iter()
                .filter(|(a, b, e)| a != b && *e < evening)
                .map(|(a, b, e)| met(&format!("p{a}"), &format!("p{b}"), e, half(e)))
                .collect();
            PairingInput {
                evening,
                half: half(evening),
                bye_seed: seed,
                ranking,
                history,
                rules: Rules::default(),
                forbidden: Vec::new(),
            }
        })
    })
}

/// Exhaustive answer on positions of `ids` (pairing order): the optimal, lexicographically
/// first matching, or None.
fn exhaustive_on(inp: &PairingInput, ids: &[String]) -> Option<optimal::Optimum> {
    let n = ids.len();
    let g: Vec<Vec<bool>> = (0..n)
        .map(|a| {
            (0..n)
                .map(|b| a != b && may_meet(inp, &ids[a], &ids[b]))
                .collect()
        })
        .collect();
    optimal::exhaustive(&g)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn pairing_is_valid_optimal_and_fair(inp in arb_input(11)) {
        let present: Vec<String> =
            inp.ranking.iter().filter(|p| p.present).map(|p| p.id.clone()).collect();
        match pair_evening(&inp) {
            Ok(pg) => {
                // never breaks a constraint; everyone present paired exactly once
                let hand = HandPairing {
                    boards: pg.boards.iter().map(|b| HandBoard {
                        white: b.white.clone(), black: b.black.clone() }).collect(),
                    bye: pg.bye.as_ref().map(|b| b.player.clone()),
                };
                prop_assert!(validate_pairing(&inp, &hand).is_empty());
                for b in &pg.boards {
                    prop_assert!(may_meet(&inp, &b.white, &b.black));
                }
                // cost and lexicographic choice equal the exhaustive search
                let paired: Vec<String> = pg.order.iter()
                    .filter(|id| pg.bye.as_ref().is_none_or(|b| &b.player != *id))
                    .cloned().collect();
                let best = exhaustive_on(&inp, &paired);
                prop_assert!(best.is_some());
                let best = best.unwrap();
                prop_assert_eq!(pg.cost, best.cost);
                for b in &pg.boards {
                    let (w, bl) = (b.white_position as usize - 1, b.black_position as usize - 1);
                    prop_assert_eq!(best.mate[w], bl);
                }
                // the bye: nobody with fewer byes could have taken it
                if let Some(bye) = &pg.bye {
                    let byes = |id: &str| inp.ranking.iter()
                        .find(|p| p.id == id).map_or(0, |p| p.byes_this_half);
                    for other in &present {
                        if byes(other) < byes(&bye.player) {
                            let rest: Vec<String> =
                                pg.order.iter().filter(|x| *x != other).cloned().collect();
                            prop_assert!(exhaustive_on(&inp, &rest).is_none(),
                                "{} had fewer byes and could have taken it", other);
                        }
                    }
                }
                // same input, same output; the order of the history does not matter
                let mut shuffled = inp.clone();
                shuffled.history.reverse();
                prop_assert_eq!(pair_evening(&shuffled).unwrap(), pg);
            }
            Err(PairingError::NoPairing { .. }) => {
                // then really no choice of bye leaves a pairable field
                let order = present.clone();
                if order.len().is_multiple_of(2) {
                    prop_assert!(exhaustive_on(&inp, &order).is_none());
                } else {
                    for skip in &order {
                        let rest: Vec<String> =
                            order.iter().filter(|x| *x != skip).cloned().collect();
                        prop_assert!(exhaustive_on(&inp, &rest).is_none());
                    }
                }
            }
            Err(e) => prop_assert!(false, "unexpected {e}"),
        }
    }
}

/// Size of a maximum matching among `ids` over the allowed pairs (the weighted matching with
/// unit weights, whose maximum weight is the maximum cardinality — independent of the
/// cardinality module).
fn max_pairs(inp: &PairingInput, ids: &[&String]) -> usize {
    let mut edges = Vec::new();
    for a in 0..ids.len() {
        for b in a + 1..ids.len() {
            if may_meet(inp, ids[a], ids[b]) {
                edges.push((a, b, 1u64));
            }
        }
    }
    crate::matching::weighted::max_weight_matching(ids.len(), &edges)
        .iter()
        .filter(|m| m.is_some())
        .count()
        / 2
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Larger fields (up to 40 players, up to 120 earlier meetings): never a broken
    /// constraint; an error only when no bye leaves a pairable field; the bye only to a
    /// player with the fewest byes among those who could take it.
    #[test]
    fn larger_fields_never_break_a_constraint(inp in arb_input(40)) {
        let present: Vec<&String> =
            inp.ranking.iter().filter(|p| p.present).map(|p| &p.id).collect();
        let n = present.len();
        match pair_evening(&inp) {
            Ok(pg) => {
                for b in &pg.boards {
                    prop_assert!(may_meet(&inp, &b.white, &b.black));
                }
                prop_assert_eq!(2 * pg.boards.len() + usize::from(pg.bye.is_some()), n);
                if let Some(bye) = &pg.bye {
                    let byes = |id: &str| inp.ranking.iter()
                        .find(|p| p.id == id).map_or(0, |p| p.byes_this_half);
                    for other in &present {
                        if byes(other) < byes(&bye.player) {
                            let rest: Vec<&String> =
                                present.iter().copied().filter(|x| x != other).collect();
                            prop_assert!(max_pairs(&inp, &rest) < n / 2);
                        }
                    }
                }
            }
            Err(PairingError::NoPairing { short, unpaired, .. }) => {
                prop_assert!(max_pairs(&inp, &present) < n / 2);
                prop_assert_eq!(short, n - 2 * max_pairs(&inp, &present) - n % 2);
                prop_assert_eq!(unpaired.len(), n - 2 * max_pairs(&inp, &present));
            }
            Err(e) => prop_assert!(false, "unexpected {e}"),
        }
    }
}

#[test]
fn a_forbidden_pair_is_never_paired() {
    // Nobody has met: a–b & c–d costs 1² + 1² = 2. With a–b forbidden the options are a–c &
    // b–d (2² + 2² = 8) or a–d & b–c (3² + 1² = 10) → a–c, b–d; the pair counts on every
    // evening, and is named among the broken constraints.
    let mut inp = input(["a", "b", "c", "d"].map(p).to_vec(), Vec::new(), 3);
    assert_eq!(
        boards(&pair_evening(&inp).unwrap()),
        vec![pair("a", "b"), pair("c", "d")]
    );
    inp.forbidden = vec![("b".into(), "a".into())];
    let pg = pair_evening(&inp).unwrap();
    assert_eq!(boards(&pg), vec![pair("a", "c"), pair("b", "d")]);
    assert_eq!(pg.cost, 8);
    let h = history_of(&inp);
    assert_eq!(
        h.broken(0, 1, 3, Half::Winter, &inp.rules),
        vec![Broken {
            rule: PairingRule::Forbidden,
            earlier_evenings: Vec::new()
        }]
    );
    // a hand-made pairing of the pair breaks the constraint on its board
    let hand = HandPairing {
        boards: vec![
            HandBoard {
                white: "c".into(),
                black: "d".into(),
            },
            HandBoard {
                white: "a".into(),
                black: "b".into(),
            },
        ],
        bye: None,
    };
    assert_eq!(
        validate_pairing(&inp, &hand),
        vec![Violation::Constraint {
            board: 2,
            white: "a".into(),
            black: "b".into(),
            rule: PairingRule::Forbidden,
            earlier_evenings: Vec::new(),
        }]
    );
    assert_eq!(
        validate_pairing(&inp, &hand)[0].to_string(),
        "board 2 (a–b): the competition forbids this pair (forbidden pairs)"
    );
    // a pair naming a player outside the ranking constrains nothing
    inp.forbidden = vec![("a".into(), "z".into())];
    assert_eq!(
        boards(&pair_evening(&inp).unwrap()),
        vec![pair("a", "b"), pair("c", "d")]
    );
    // two players who may not meet: no pairing
    let mut two = input(["a", "b"].map(p).to_vec(), Vec::new(), 3);
    two.forbidden = vec![("a".into(), "b".into())];
    assert!(pair_evening(&two).is_err());
}
