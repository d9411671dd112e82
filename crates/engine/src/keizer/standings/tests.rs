//! Tests of the standings engine: hand-worked examples (arithmetic in the comments) and
//! property tests over random seasons.

use super::*;

fn player(id: &str, rating: Option<i32>, joins_at: u32) -> Entrant {
    Entrant {
        id: id.to_string(),
        rating,
        joins_at,
        withdrawn_from: None,
    }
}

fn players(ids: &[&str]) -> Vec<Entrant> {
    ids.iter().map(|id| player(id, None, 1)).collect()
}

fn game(w: &str, b: &str, result: KeizerResult) -> KeizerGame {
    KeizerGame {
        white: w.into(),
        black: b.into(),
        result,
    }
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// (id, value, score in ten-thousandths) of a table, best first.
fn table(e: &EveningStandings) -> Vec<(&str, i64, i64)> {
    e.standings
        .iter()
        .map(|r| (r.id.as_str(), r.value, r.score.units()))
        .collect()
}

const fn pts(units: i64) -> i64 {
    units * 10_000
}

#[test]
fn a_win_settles_at_once() {
    // R_0 = [p1 (60), p2 (59)]; p1 beats p2: S_0 = p1 1×59 = 59, p2 loss 5.
    // R_1 = [p1, p2] = R_0: fixed point; rankings computed R_0, R_1 → iterations 2.
    let c = Competition {
        players: players(&["p1", "p2"]),
        evenings: vec![KeizerEvening {
            games: vec![game("p1", "p2", KeizerResult::WhiteWins)],
            ..KeizerEvening::default()
        }],
        ..Competition::default()
    };
    let out = compute_keizer(&c).unwrap();
    assert_eq!(table(&out[0]), [("p1", 60, pts(59)), ("p2", 59, pts(5))]);
    assert!(out[0].converged);
    assert_eq!(out[0].iterations, 2);
    assert_eq!(out[0].cycle_length, None);
    assert_eq!(out[0].standings[0].game_points, Fixed(10_000));
    assert_eq!(out[0].standings[1].played, 1);
}

#[test]
fn an_upset_moves_the_winner_up() {
    // R_0 = [p1 60, p2 59]; p2 (black) wins: S_0 p2 = 60, p1 = 5 → R_1 = [p2, p1].
    // S_1: p2 = value(p1 at place 2) = 59, p1 = 5 → R_2 = R_1: converged, iterations 3.
    let c = Competition {
        players: players(&["p1", "p2"]),
        evenings: vec![KeizerEvening {
            games: vec![game("p1", "p2", KeizerResult::BlackWins)],
            ..KeizerEvening::default()
        }],
        ..Competition::default()
    };
    let out = compute_keizer(&c).unwrap();
    assert_eq!(table(&out[0]), [("p2", 60, pts(59)), ("p1", 59, pts(5))]);
    assert_eq!(out[0].iterations, 3);
    assert!(out[0].converged);
}

#[test]
fn neighbours_who_drew_swap_forever_and_are_averaged() {
    // R_0 = [a 60, b 59], a–b ½-½. S_0: a = ½×59 = 29.5, b = ½×60 = 30 → R_1 = [b, a].
    // S_1: b = ½×59 = 29.5, a = ½×60 = 30 → R_2 = [a, b] = R_0: a cycle of length 2.
    // Sums over the cycle: a = 29.5 + 30 = 59.5, b = 30 + 29.5 = 59.5: equal, so R_0's order
    // stays; averages 59.5 / 2 = 29.75. Rankings computed R_0, R_1, R_2 → iterations 3.
    let c = Competition {
        players: players(&["a", "b"]),
        evenings: vec![KeizerEvening {
            games: vec![game("a", "b", KeizerResult::Draw)],
            ..KeizerEvening::default()
        }],
        ..Competition::default()
    };
    let out = compute_keizer(&c).unwrap();
    let e = &out[0];
    assert!(!e.converged);
    assert_eq!(e.cycle_length, Some(2));
    assert_eq!(e.iterations, 3);
    assert_eq!(table(e), [("a", 60, 297_500), ("b", 59, 297_500)]);
    assert_eq!(e.standings[0].game_points, Fixed(5_000));
}

#[test]
fn cycle_average_rounds_half_away_from_zero() {
    // draw factor 0.3333: S_0 a = 0.3333×59 = 19.6647, b = 0.3333×60 = 19.998 → R_1 = [b, a];
    // S_1 the mirror → cycle of 2; sums 39.6627 each; 39.6627 / 2 = 19.83135 → 19.8314.
    let c = Competition {
        params: Params {
            draw: Fixed(3_333),
            ..Params::default()
        },
        players: players(&["a", "b"]),
        evenings: vec![KeizerEvening {
            games: vec![game("a", "b", KeizerResult::Draw)],
            ..KeizerEvening::default()
        }],
        ..Competition::default()
    };
    let out = compute_keizer(&c).unwrap();
    assert_eq!(table(&out[0]), [("a", 60, 198_314), ("b", 59, 198_314)]);
}

#[test]
fn old_results_are_valued_with_the_current_ranking() {
    // Evening 1, R_0 = [a 60, b 59, c 58]: a beats b, c has the bye.
    //   S_0: a = 59, b = 5, c = 1×58 = 58 → R_1 = [a, c, b] (values 60, 59, 58)
    //   S_1: a = value(b) = 58, c = 59, b = 5 → R_2 = [c, a, b]
    //   S_2: c = 60, a = 58 (b still 58), b = 5 → R_3 = R_2: converged, iterations 4.
    // Evening 2, R_0 = [c 60, a 59, b 58]: b beats c, a excused.
    //   S_0: c = 60 + 5 = 65; a = 58 + 0.3333×59 = 77.6647; b = 5 + 60 = 65
    //   → R_1 = [a, c, b] (c stays before b: equal 65, stable)
    //   S_1 (a 60, c 59, b 58): a = 58 + 0.3333×60 = 77.998; c = 59 + 5 = 64; b = 5 + 59 = 64
    //   → R_2 = R_1: converged, iterations 3.
    let c = Competition {
        players: players(&["a", "b", "c"]),
        evenings: vec![
            KeizerEvening {
                games: vec![game("a", "b", KeizerResult::WhiteWins)],
                byes: strings(&["c"]),
                ..KeizerEvening::default()
            },
            KeizerEvening {
                games: vec![game("b", "c", KeizerResult::WhiteWins)],
                excused: strings(&["a"]),
                ..KeizerEvening::default()
            },
        ],
        ..Competition::default()
    };
    let out = compute_keizer(&c).unwrap();
    assert_eq!(
        table(&out[0]),
        [("c", 60, pts(60)), ("a", 59, pts(58)), ("b", 58, pts(5))]
    );
    assert_eq!(out[0].iterations, 4);
    assert_eq!(
        table(&out[1]),
        [("a", 60, 779_980), ("c", 59, pts(64)), ("b", 58, pts(64))]
    );
    assert_eq!(out[1].iterations, 3);
    let a = &out[1].standings[0];
    assert_eq!((a.excused, a.byes, a.played), (1, 0, 1));
    assert_eq!(out[1].standings[1].byes, 1);
}

#[test]
fn excused_cap_counts_the_season_and_the_sixth_scores_zero() {
    // a used 4 excused absences earlier in the season (cap 5).
    // Evening 1: a excused (5th: scores), b bye. R_0 = [a 60, b 59]:
    //   S_0: a = 0.3333×60 = 19.998, b = 59 → R_1 = [b, a]
    //   S_1: b = 60, a = 0.3333×59 = 19.6647 → converged, iterations 3.
    // Evening 2: a excused (6th: 0 points, still counted), b bye. R_0 = [b 60, a 59]:
    //   S_0: b = 60 + 60 = 120, a = 19.6647 + 0 → converged, iterations 2.
    let c = Competition {
        players: players(&["a", "b"]),
        excused_before: BTreeMap::from([("a".to_string(), 4)]),
        evenings: vec![
            KeizerEvening {
                byes: strings(&["b"]),
                excused: strings(&["a"]),
                ..KeizerEvening::default()
            };
            2
        ],
        ..Competition::default()
    };
    let out = compute_keizer(&c).unwrap();
    assert_eq!(table(&out[0]), [("b", 60, pts(60)), ("a", 59, 196_647)]);
    assert_eq!(out[0].iterations, 3);
    assert!(out[0].warnings.is_empty());
    assert_eq!(table(&out[1]), [("b", 60, pts(120)), ("a", 59, 196_647)]);
    assert_eq!(out[1].standings[1].excused, 2);
    assert_eq!(out[1].warnings.len(), 1);
    assert!(out[1].warnings[0].contains("\"a\""));
}

#[test]
fn late_entrant_is_inserted_by_rating_before_the_recalculation() {
    // Evening 1: p1 (2000) beats p2 (1600): [p1 59, p2 5].
    // Evening 2: p3 (1790) enters: nearest rating p2 (190 < 210), rated higher → above p2:
    //   R_0 = [p1 60, p3 59, p2 58]. p1–p2 draw, p3 bye.
    //   S_0: p1 = value(p2) 58 + ½×58 = 87; p3 = 1×59 = 59; p2 = 5 + ½×60 = 35
    //   → R_1 = R_0: converged. The ladder counts p3: p2's value is 58, not 59.
    let c = Competition {
        players: vec![
            player("p1", Some(2000), 1),
            player("p2", Some(1600), 1),
            player("p3", Some(1790), 2),
        ],
        evenings: vec![
            KeizerEvening {
                games: vec![game("p1", "p2", KeizerResult::WhiteWins)],
                ..KeizerEvening::default()
            },
            KeizerEvening {
                games: vec![game("p1", "p2", KeizerResult::Draw)],
                byes: strings(&["p3"]),
                ..KeizerEvening::default()
            },
        ],
        ..Competition::default()
    };
    let out = compute_keizer(&c).unwrap();
    assert_eq!(out[0].standings.len(), 2);
    assert_eq!(
        table(&out[1]),
        [
            ("p1", 60, pts(87)),
            ("p3", 59, pts(59)),
            ("p2", 58, pts(35))
        ]
    );
    assert!(out[1].converged);
    assert_eq!(out[1].iterations, 2);
}

#[test]
fn value_floor_warns_and_never_drops_below_one() {
    // top 2, step 1, three players: values 2, 1, 0 → floored to 2, 1, 1 (warning).
    // R_0 = [a 2, b 1, c 1]: a beats c, b has the bye.
    //   S_0: a = value(c) = 1, b = 1×1 = 1, c = 5 → R_1 = [c, a, b] (a before b: equal 1)
    //   S_1 (c 2, a 1, b 1): a = value(c) = 2, b = 1, c = 5 → R_2 = R_1: iterations 3.
    let c = Competition {
        params: Params {
            top_value: 2,
            ..Params::default()
        },
        players: players(&["a", "b", "c"]),
        evenings: vec![KeizerEvening {
            games: vec![game("a", "c", KeizerResult::WhiteWins)],
            byes: strings(&["b"]),
            ..KeizerEvening::default()
        }],
        ..Competition::default()
    };
    let out = compute_keizer(&c).unwrap();
    assert_eq!(
        table(&out[0]),
        [("c", 2, pts(5)), ("a", 1, pts(2)), ("b", 1, pts(1))]
    );
    assert_eq!(out[0].iterations, 3);
    assert_eq!(out[0].warnings.len(), 1);
    assert!(
        out[0].warnings[0].contains("ranks 3–3"),
        "{:?}",
        out[0].warnings
    );
}

#[test]
fn forfeit_win_is_a_bye_and_the_no_show_is_unexcused() {
    // R_0 = [p2 60, p1 59]; p1 (white) +/- p2: p1 = 1×own 59, p2 = 0 (unexcused)
    //   → R_1 = [p1, p2]; S_1: p1 = 1×60 = 60 → R_2 = R_1: iterations 3.
    let c = Competition {
        players: players(&["p2", "p1"]),
        evenings: vec![KeizerEvening {
            games: vec![game("p1", "p2", KeizerResult::WhiteForfeitWin)],
            ..KeizerEvening::default()
        }],
        ..Competition::default()
    };
    let out = compute_keizer(&c).unwrap();
    assert_eq!(table(&out[0]), [("p1", 60, pts(60)), ("p2", 59, 0)]);
    let (w, l) = (&out[0].standings[0], &out[0].standings[1]);
    assert_eq!((w.played, w.byes, w.unexcused), (0, 0, 0));
    assert_eq!((l.played, l.unexcused), (0, 1));
}

#[test]
fn arbiter_loss_is_a_loss_and_a_win_for_the_opponent() {
    // R_0 = [p1 60, p2 59]; p1's phone sounds: p1 loses (5), p2 wins value(p1) = 60
    //   → R_1 = [p2, p1]; S_1: p2 = 59, p1 = 5 → converged, iterations 3.
    // An unlisted player (p3, value 58 then 58) is absent without notice: 0.
    let c = Competition {
        players: players(&["p1", "p2", "p3"]),
        evenings: vec![KeizerEvening {
            games: vec![game("p1", "p2", KeizerResult::WhiteLostByArbiter)],
            ..KeizerEvening::default()
        }],
        ..Competition::default()
    };
    let out = compute_keizer(&c).unwrap();
    assert_eq!(
        table(&out[0]),
        [("p2", 60, pts(59)), ("p1", 59, pts(5)), ("p3", 58, 0)]
    );
    assert_eq!(out[0].standings[0].game_points, Fixed::ONE);
    assert_eq!(out[0].standings[2].unexcused, 1);
}

#[test]
fn double_forfeit_is_unexcused_for_both() {
    let c = Competition {
        players: players(&["a", "b"]),
        evenings: vec![KeizerEvening {
            games: vec![game("a", "b", KeizerResult::DoubleForfeit)],
            ..KeizerEvening::default()
        }],
        ..Competition::default()
    };
    let out = compute_keizer(&c).unwrap();
    assert_eq!(table(&out[0]), [("a", 60, 0), ("b", 59, 0)]);
    assert!(out[0].standings.iter().all(|r| r.unexcused == 1));
}

#[test]
fn bad_input_names_the_evening_and_the_player() {
    let mut c = Competition {
        players: players(&["a", "b"]),
        evenings: vec![KeizerEvening::default(), KeizerEvening::default()],
        ..Competition::default()
    };
    c.evenings[1].byes = strings(&["zz"]);
    assert_eq!(
        compute_keizer(&c),
        Err(StandingsError::UnknownPlayer {
            evening: 2,
            player: "zz".into()
        })
    );
    c.evenings[1].byes = strings(&["a"]);
    c.evenings[1].excused = strings(&["a"]);
    let e = compute_keizer(&c).unwrap_err();
    assert_eq!(
        e.to_string(),
        "evening 2: player \"a\" appears more than once"
    );
    c.evenings[1].excused.clear();
    c.players.push(player("late", None, 3));
    c.evenings[1].unexcused = strings(&["late"]);
    assert!(matches!(
        compute_keizer(&c),
        Err(StandingsError::NotYetEntered { evening: 2, .. })
    ));
}

#[test]
fn summer_starts_at_zero_in_winter_order_and_carries_excused() {
    // winter: b beats a → final [b, a]; a was excused 2× before and 0× in the winter.
    let winter = Competition {
        players: vec![player("a", Some(1900), 1), player("b", Some(1800), 1)],
        excused_before: BTreeMap::from([("a".to_string(), 2)]),
        evenings: vec![
            KeizerEvening {
                games: vec![game("a", "b", KeizerResult::BlackWins)],
                ..KeizerEvening::default()
            },
            KeizerEvening {
                byes: strings(&["a"]),
                excused: strings(&["b"]),
                ..KeizerEvening::default()
            },
        ],
        ..Competition::default()
    };
    let out = compute_keizer(&winter).unwrap();
    let carry = summer_start(&winter, out.last().unwrap());
    let order: Vec<_> = carry.players.iter().map(|p| p.id.as_str()).collect();
    let expected: Vec<&str> = out[1].standings.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(order, expected);
    assert_eq!(
        carry.players.iter().find(|p| p.id == "a").unwrap().rating,
        Some(1900)
    );
    assert_eq!(
        carry.excused_before,
        BTreeMap::from([("a".to_string(), 2), ("b".to_string(), 1)])
    );
    let summer = Competition {
        players: carry.players,
        excused_before: carry.excused_before,
        evenings: vec![KeizerEvening::default()],
        ..Competition::default()
    };
    let s = compute_keizer(&summer).unwrap();
    assert!(s[0].standings.iter().all(|r| r.score == Fixed::ZERO));
}

mod props;

#[test]
fn a_withdrawn_player_keeps_the_past_and_is_not_booked_absent() {
    // p3 withdraws from evening 2 (docs/rules/keizer.md#withdrawal).
    // Evening 1: p1 beats p3, p2 has the bye. R_0 = [p1 60, p2 59, p3 58]:
    //   S_0 p1 = 58, p2 = 1×59 = 59, p3 = 5 → R_1 = [p2, p1, p3] (60, 59, 58):
    //   S_1 p2 = 60, p1 = 58, p3 = 5 → R_2 = R_1, fixed.
    // Evening 2: p1 beats p2; p3 is listed nowhere. R_0 = [p2 60, p1 59, p3 58]:
    //   S_0 p1 = 58 + 60 = 118, p2 = 60 + 5 = 65, p3 = 5 → R_1 = [p1, p2, p3] (60, 59, 58):
    //   S_1 p1 = 58 + 59 = 117, p2 = 59 + 5 = 64, p3 = 5 → fixed.
    // p3 stays listed with the score of the win p1 took from them, and no absence is booked.
    let mut ps = players(&["p1", "p2", "p3"]);
    ps[2].withdrawn_from = Some(2);
    let c = Competition {
        players: ps,
        evenings: vec![
            KeizerEvening {
                games: vec![game("p1", "p3", KeizerResult::WhiteWins)],
                byes: strings(&["p2"]),
                ..KeizerEvening::default()
            },
            KeizerEvening {
                games: vec![game("p1", "p2", KeizerResult::WhiteWins)],
                ..KeizerEvening::default()
            },
        ],
        ..Competition::default()
    };
    let out = compute_keizer(&c).unwrap();
    assert_eq!(
        table(&out[0]),
        [("p2", 60, pts(60)), ("p1", 59, pts(58)), ("p3", 58, pts(5))]
    );
    assert_eq!(out[0].standings[2].withdrawn_from, None);
    assert_eq!(
        table(&out[1]),
        [
            ("p1", 60, pts(117)),
            ("p2", 59, pts(64)),
            ("p3", 58, pts(5))
        ]
    );
    let p3 = &out[1].standings[2];
    assert_eq!(p3.withdrawn_from, Some(2));
    assert_eq!((p3.played, p3.unexcused, p3.excused), (1, 0, 0));
}

#[test]
fn a_withdrawn_player_cannot_be_listed_afterwards() {
    let mut ps = players(&["p1", "p2"]);
    ps[1].withdrawn_from = Some(1);
    let c = Competition {
        players: ps,
        evenings: vec![KeizerEvening {
            excused: strings(&["p2"]),
            ..KeizerEvening::default()
        }],
        ..Competition::default()
    };
    assert_eq!(
        compute_keizer(&c).unwrap_err().to_string(),
        "evening 1: player \"p2\" withdrew from evening 1"
    );
}
