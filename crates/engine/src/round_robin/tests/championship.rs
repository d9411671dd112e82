//! A complete 12-player draughts championship (66 games) worked out by hand, whose final order
//! needs every step of the docs/rules/draughts-championship.md#final-order-and-the-tie-break-chain chain, plus smaller hand-checked examples.

use super::*;
use crate::Discipline;

/// Final order A B G C D E F H I J L K; results from each player's point of view.
///
/// Tallies (W/D/L, plusremises +, minremises −), points = 2·W + D:
/// - A: W5 (B F I K L) D6 (G C D E H J) L0 = 10 + 6 = 16
/// - B: W6 (G D I J K L) D2 (E+ F−) L3 (A C H) = 12 + 2 = 14, +1 −1
/// - G: W5 (C I J K L) D4 (A D F− H−) L2 (B E) = 10 + 4 = 14, +0 −2 (the guest)
/// - C: W4 (B J K L) D6 (A D E F+ H+ I) L1 (G) = 8 + 6 = 14, +2 −0
/// - D: W3 (E I K) D6 (A G C F+ H L) L2 (B J) = 6 + 6 = 12, +1 −0
/// - E: W3 (G I L) D6 (A B− C F H K) L2 (D, J by forfeit) = 12, +0 −1
/// - F: W3 (H I J) D5 (B+ G+ C− D− E) L3 (A K L) = 6 + 5 = 11, +2 −2
/// - H: W3 (B I J) D5 (A G+ C− D E) L3 (F K L) = 11, +1 −1
/// - I: W3 (J K L) D1 (C) L7 = 7;  J: W3 (D, E by forfeit, K) D1 (A) L7 = 7
/// - K: W3 (F H L) D1 (E) L7 = 7;  L: W3 (F H J) D1 (D) L7 = 7
///
/// Total 16 + 3·14 + 2·12 + 2·11 + 4·7 = 132 = 66 games × 2 points.
const GRID: &str = "
A: B W, G D, C D, D D, E D, F W, H D, I W, J D, K W, L W
B: A L, G W, C L, D W, E +, F -, H L, I W, J W, K W, L W
G: A D, B L, C W, D D, E L, F -, H -, I W, J W, K W, L W
C: A D, B W, G L, D D, E D, F +, H +, I D, J W, K W, L W
D: A D, B L, G D, C D, E W, F +, H D, I W, J L, K W, L D
E: A D, B -, G W, C D, D L, F D, H D, I W, J f, K D, L W
F: A L, B +, G +, C -, D -, E D, H W, I W, J W, K L, L L
H: A D, B W, G +, C -, D D, E D, F L, I W, J W, K L, L L
I: A L, B L, G L, C D, D L, E L, F L, H L, J W, K W, L W
J: A D, B L, G L, C L, D W, E F, F L, H L, I L, K W, L L
K: A L, B L, G L, C L, D L, E D, F W, H W, I L, J L, L W
L: A L, B L, G L, C L, D D, E L, F W, H W, I L, J W, K L
";

/// Pairing numbers deliberately unlike the final order.
const PAIRING: [&str; 12] = ["k", "c", "h", "a", "i", "e", "l", "b", "g", "d", "j", "f"];

fn championship() -> Scenario {
    let mut s = draughts_from_grid(&PAIRING, GRID);
    s.tiebreaks = Some(default_tiebreaks(Discipline::Draughts));
    // drawn by hand: l before k
    s.lots_order = Some(vec!["l".into(), "k".into()]);
    s.points_tables = vec![
        PointsTable {
            name: "grandmaster".into(),
            by_place: nums(&[3, 2, 1]),
        },
        PointsTable {
            name: "master".into(),
            by_place: nums(&[5, 4, 3, 2, 1]),
        },
    ];
    s.excluded_from_points = vec!["g".into()];
    s.prize_money = nums(&[1500, 1000, 700, 500, 300, 200]);
    s.rights = vec![
        Right::Title {
            name: "champion".into(),
            places: 1,
        },
        Right::Qualification {
            name: "world_championship".into(),
            slots: 2,
            prequalified: vec!["b".into()],
        },
        Right::Cut {
            name: "next_final".into(),
            places: 4,
            others: Some("semi_final".into()),
        },
    ];
    s
}

fn row<'a>(out: &'a RoundRobinOutput, id: &str) -> &'a Row {
    out.standings.iter().find(|r| r.id == id).unwrap()
}

#[test]
fn final_order_uses_every_tie_break_step() {
    let s = championship();
    assert_eq!(s.games.len(), 66);
    let out = compute_round_robin(&s).unwrap();
    let order: Vec<&str> = out.standings.iter().map(|r| r.id.as_str()).collect();
    // 16 | 14 14 14 | 12 12 | 11 11 | 7 7 7 7
    assert_eq!(
        order,
        ["a", "b", "g", "c", "d", "e", "f", "h", "i", "j", "l", "k"]
    );
    let places: Vec<u32> = out.standings.iter().map(|r| r.place).collect();
    assert_eq!(places, (1..=12).collect::<Vec<_>>());
    assert!(out.standings.iter().all(|r| r.shared_with.is_empty()));
    let decided: Vec<Option<&str>> = out
        .standings
        .iter()
        .map(|r| r.decided_by.map(|d| d.name()))
        .collect();
    assert_eq!(
        decided,
        [
            Some("points"),             // a 16 > 14
            Some("wins"),               // b 6 wins > g 5
            Some("wins"),               // g 5 > c 4
            Some("points"),             // c 14 > 12
            Some("plusremise_balance"), // d +1 > e −1 (both 3 wins)
            Some("points"),             // e 12 > 11
            Some("plusremises"),        // f +2−2, h +1−1: balance 0 both, 2 > 1
            Some("points"),             // h 11 > 7
            Some("mutual"),             // i beat j, k, l: 6 > 2 2 2
            Some("ranking_order"),      // j drew a: [1,…] > [0,…]
            Some("lots"),               // l drawn before k
            None,                       // last row
        ]
    );
    // l is placed above k although k beat l: no restart of "mutual" inside {j, k, l}
    assert_eq!(out.cross_table[6][0], "0"); // pairing 7 = l, pairing 1 = k
}

#[test]
fn tallies_and_tie_break_values() {
    let out = compute_round_robin(&championship()).unwrap();
    let a = row(&out, "a");
    assert_eq!(
        (a.points.as_i64(), a.games, a.wins, a.draws, a.losses),
        (Some(16), 11, 5, 6, 0)
    );
    let e = row(&out, "e");
    // E: 3 wins, 6 draws (one a minremise), 2 losses (one by forfeit)
    assert_eq!(
        (
            e.points.as_i64(),
            e.wins,
            e.draws,
            e.losses,
            e.plusremises,
            e.minremises
        ),
        (Some(12), 3, 6, 2, 0, 1)
    );
    // the forfeit win counts as a win for j
    assert_eq!(row(&out, "j").wins, 3);
    let f = row(&out, "f");
    assert_eq!(f.tiebreaks.get("plusremise_balance"), Some(&0.into()));
    assert_eq!(f.tiebreaks.get("plusremises"), Some(&2.into()));
    // mutual is shown where it was applied: among i j k l
    assert_eq!(row(&out, "i").tiebreaks.get("mutual"), Some(&6.into()));
    assert_eq!(row(&out, "j").tiebreaks.get("mutual"), Some(&2.into()));
    assert_eq!(row(&out, "a").tiebreaks.get("mutual"), None);
    // ranking-order keys: groups {a} {b g c} {d e} {f h} {i j k l}
    // j: drew a 1; lost to b g c 0; beat d, e (forfeit) 4; lost f h 0; beat k 2 → [1,0,4,0,2]
    // k: 0; 0; drew e 1; beat f h 4; beat l 2 → [0,0,1,4,2]; l: the same with d for e
    let key = |id: &str| row(&out, id).tiebreaks.get("ranking_order").cloned();
    assert_eq!(key("j"), Some(serde_json::json!([1, 0, 4, 0, 2])));
    assert_eq!(key("k"), Some(serde_json::json!([0, 0, 1, 4, 2])));
    assert_eq!(key("l"), Some(serde_json::json!([0, 0, 1, 4, 2])));
    // shown only where applied: i was separated by mutual, a by points
    assert_eq!(key("i"), None);
    assert_eq!(key("a"), None);
    assert_eq!(row(&out, "a").tiebreaks.0.len(), 3);
    assert_eq!(row(&out, "l").tiebreaks.get("lots"), Some(&1.into()));
    assert_eq!(row(&out, "k").tiebreaks.get("lots"), Some(&2.into()));
    // the shown values come in list order
    let names: Vec<&str> = row(&out, "k")
        .tiebreaks
        .0
        .iter()
        .map(|(k, _)| k.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "wins",
            "plusremise_balance",
            "plusremises",
            "mutual",
            "ranking_order",
            "lots"
        ]
    );
}

#[test]
fn points_tables_prizes_and_rights() {
    let out = compute_round_robin(&championship()).unwrap();
    let table = |id: &str, t: &str| row(&out, id).points_tables.get(t).cloned().unwrap();
    // guest g left out: a 1st; b and c (equal 14 points) occupy places 2-3 of the table
    // grandmaster (2 + 1) / 2 = 1.5; master (4 + 3) / 2 = 3.5; d, e places 4-5: (2 + 1) / 2
    assert_eq!(table("a", "grandmaster"), "3");
    assert_eq!(table("b", "grandmaster"), "1.5");
    assert_eq!(table("c", "grandmaster"), "1.5");
    assert_eq!(table("g", "grandmaster"), "0");
    assert_eq!(table("d", "grandmaster"), "0");
    assert_eq!(table("a", "master"), "5");
    assert_eq!(table("b", "master"), "3.5");
    assert_eq!(table("c", "master"), "3.5");
    assert_eq!(table("d", "master"), "1.5");
    assert_eq!(table("e", "master"), "1.5");
    assert_eq!(table("f", "master"), "0");
    // prize money counts everyone: b g c places 2-4: (1000 + 700 + 500) / 3 = 2200/3;
    // d e places 5-6: (300 + 200) / 2 = 250
    let money = |id: &str| row(&out, id).prize_money.clone();
    assert_eq!(money("a"), "1500");
    assert_eq!(money("b"), "2200/3");
    assert_eq!(money("g"), "2200/3");
    assert_eq!(money("c"), "2200/3");
    assert_eq!(money("d"), "250");
    assert_eq!(money("f"), "0");
    // b is pre-qualified: the slots go to a (1st) and g (3rd)
    let rights = |id: &str| row(&out, id).rights.clone();
    assert_eq!(
        rights("a"),
        ["champion", "world_championship", "next_final"]
    );
    assert_eq!(rights("b"), ["next_final"]);
    assert_eq!(rights("g"), ["world_championship", "next_final"]);
    assert_eq!(rights("c"), ["next_final"]);
    assert_eq!(rights("d"), ["semi_final"]);
    assert_eq!(rights("k"), ["semi_final"]);
}

#[test]
fn cross_table_in_pairing_order() {
    let out = compute_round_robin(&championship()).unwrap();
    let p = |id: &str| PAIRING.iter().position(|x| *x == id).unwrap();
    let cell = |i: &str, j: &str| out.cross_table[p(i)][p(j)].as_str();
    assert_eq!(cell("a", "b"), "2");
    assert_eq!(cell("b", "a"), "0");
    assert_eq!(cell("b", "e"), "1+");
    assert_eq!(cell("e", "b"), "1-");
    assert_eq!(cell("a", "g"), "1");
    assert_eq!(cell("j", "e"), "+");
    assert_eq!(cell("e", "j"), "-");
    assert_eq!(cell("k", "k"), "");
}

#[test]
fn seeded_lots_are_stable_and_independent_of_input_order() {
    let mut s = championship();
    s.lots_order = None;
    s.lots_seed = Some(2007);
    let first = compute_round_robin(&s).unwrap();
    let tail: Vec<String> = first.standings[10..].iter().map(|r| r.id.clone()).collect();
    assert!(tail == ["k", "l"] || tail == ["l", "k"]);
    assert_eq!(
        first.standings[10].decided_by.map(|d| d.name()),
        Some("lots")
    );
    s.players.reverse();
    s.games.reverse();
    let again = compute_round_robin(&s).unwrap();
    let tail2: Vec<String> = again.standings[10..].iter().map(|r| r.id.clone()).collect();
    assert_eq!(tail, tail2);
}

#[test]
fn without_lots_the_last_two_share_place_11() {
    let mut s = championship();
    s.lots_order = None;
    s.tiebreaks = Some(vec![
        RoundRobinTiebreak::Wins,
        RoundRobinTiebreak::PlusremiseBalance,
        RoundRobinTiebreak::Plusremises,
        RoundRobinTiebreak::Mutual,
        RoundRobinTiebreak::RankingOrder,
    ]);
    let out = compute_round_robin(&s).unwrap();
    let k = row(&out, "k");
    let l = row(&out, "l");
    assert_eq!((k.place, l.place), (11, 11));
    assert_eq!(k.shared_with, ["l"]);
    assert_eq!(l.shared_with, ["k"]);
    // listed by id; the first of the two is still tied with the next, so no decided_by
    assert_eq!(out.standings[10].id, "k");
    assert_eq!(out.standings[10].decided_by, None);
    assert_eq!(out.standings[11].decided_by, None);
    assert_eq!(
        out.standings[9].decided_by.map(|d| d.name()),
        Some("ranking_order")
    );
}

#[test]
fn lots_without_a_drawing_is_an_error() {
    let mut s = championship();
    s.lots_order = None;
    // k and l are still tied when the lots are reached: the error names them
    assert_eq!(
        compute_round_robin(&s),
        Err(RoundRobinError::LotsWithoutDrawing(vec![
            "k".into(),
            "l".into()
        ]))
    );
    s.lots_order = Some(vec!["k".into()]);
    assert_eq!(
        compute_round_robin(&s),
        Err(RoundRobinError::NotDrawn(vec!["l".into()]))
    );
    s.lots_seed = Some(1);
    assert_eq!(compute_round_robin(&s), Err(RoundRobinError::LotsTwice));
}

/// Without `tiebreaks` (the championship's chain, ending in lots) and without `lots_seed`, a
/// scenario in which no tie reaches the lots is ranked: a beats b and c, b beats c.
#[test]
fn lots_are_needed_only_when_a_tie_reaches_them() {
    let s = draughts_from_grid(&["a", "b", "c"], "A: B W, C W\nB: A L, C W\nC: A L, B L");
    assert_eq!(s.tiebreaks, None);
    assert_eq!(s.lots_seed, None);
    let out = compute_round_robin(&s).unwrap();
    let order: Vec<(&str, u32)> = out
        .standings
        .iter()
        .map(|r| (r.id.as_str(), r.place))
        .collect();
    assert_eq!(order, [("a", 1), ("b", 2), ("c", 3)]);
    // a tie on points, wins, plusremises and mutual result (b and c draw each other, both
    // lose to a): the same ranking-order key too, so only the lots could part them
    let s = draughts_from_grid(&["a", "b", "c"], "A: B W, C W\nB: A L, C D\nC: A L, B D");
    assert_eq!(
        compute_round_robin(&s),
        Err(RoundRobinError::LotsWithoutDrawing(vec![
            "b".into(),
            "c".into()
        ]))
    );
}

#[test]
fn an_agreed_short_draw_is_lost_for_both() {
    // three players, all draws; the b-c draw was agreed after 25 moves → 0-0.
    // a: 1 + 1 = 2; b: 1 + 0 = 1; c: 1 + 0 = 1
    let mut s = draughts_from_grid(&["a", "b", "c"], "A: B D, C D\nB: A D, C D\nC: A D, B D");
    let g = s
        .games
        .iter_mut()
        .find(|g| g.white != "a" && g.black != "a")
        .unwrap();
    g.termination = Some(Termination::Agreed);
    g.moves = Some(25);
    s.tiebreaks = Some(vec![RoundRobinTiebreak::Wins]);
    let out = compute_round_robin(&s).unwrap();
    assert_eq!(out.standings[0].id, "a");
    assert_eq!(out.standings[0].points.as_i64(), Some(2));
    assert_eq!(out.standings[1].points.as_i64(), Some(1));
    assert_eq!(out.standings[1].losses, 1);
    // b and c: 1 point, 0 wins → still tied, sharing place 2
    assert_eq!(out.standings[1].place, 2);
    assert_eq!(out.standings[2].place, 2);
    assert_eq!(out.cross_table[1][2], "0");
    assert_eq!(out.cross_table[2][1], "0");
}

#[test]
fn double_round_robin_cross_table_lists_both_games() {
    // a-b twice: a wins the first (round 1), draws the second with a plusremise (round 2)
    let s: Scenario = serde_json::from_value(serde_json::json!({
        "discipline": "draughts",
        "players": [{"id": "a"}, {"id": "b"}],
        "games": [
            {"round": 2, "white": "b", "black": "a", "result": "1--1+"},
            {"round": 1, "white": "a", "black": "b", "result": "2-0"}
        ],
        "tiebreaks": ["wins"]
    }))
    .unwrap();
    let out = compute_round_robin(&s).unwrap();
    assert_eq!(out.cross_table, [["", "2 1+"], ["0 1-", ""]]);
    // a: 2 + 1 = 3, b: 0 + 1 = 1
    assert_eq!(out.standings[0].points.as_i64(), Some(3));
    assert_eq!(out.standings[1].points.as_i64(), Some(1));
}

#[test]
fn chess_sonneborn_berger_and_direct_encounter() {
    // a ½ b, a 1 c, a 0 d, b 1 c, b 1 d, c 1 d (all as white/first named)
    // points: a 1.5, b 2.5, c 1, d 1
    // c and d: direct encounter c beat d → c above d.
    // SB a: ½·2.5 + 1·1 + 0 = 2.25
    let s: Scenario = serde_json::from_value(serde_json::json!({
        "discipline": "chess",
        "players": [{"id": "a"}, {"id": "b"}, {"id": "c"}, {"id": "d"}],
        "games": [
            {"round": 1, "white": "a", "black": "b", "result": "½-½"},
            {"round": 1, "white": "c", "black": "d", "result": "1-0"},
            {"round": 2, "white": "a", "black": "c", "result": "1-0"},
            {"round": 2, "white": "b", "black": "d", "result": "+/-"},
            {"round": 3, "white": "a", "black": "d", "result": "0-1"},
            {"round": 3, "white": "b", "black": "c", "result": "1-0"}
        ],
        "tiebreaks": ["direct_encounter", "sonneborn_berger"]
    }))
    .unwrap();
    let out = compute_round_robin(&s).unwrap();
    let order: Vec<&str> = out.standings.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(order, ["b", "a", "c", "d"]);
    assert_eq!(
        out.standings[0].points,
        serde_json::Number::from_f64(2.5).unwrap()
    );
    assert_eq!(
        out.standings[1].tiebreaks.get("sonneborn_berger"),
        Some(&serde_json::json!(2.25))
    );
    assert_eq!(
        out.standings[2].decided_by.map(|d| d.name()),
        Some("direct_encounter")
    );
    assert_eq!(out.cross_table[1][3], "+");
    assert_eq!(out.cross_table[3][1], "-");
    assert_eq!(out.cross_table[0][1], "½");
}

#[test]
fn mutual_counts_only_the_part_still_tied_at_that_step() {
    // all five on 4 points: p 2+2; q 0+1+1+2; r 0+1+2+1; s 2+1+0+1; t 2+0+1+1.
    // wins: p 2, the others 1 → p first by wins.
    // mutual among {q r s t}: q 1+1+2 = 4, r 1+2+1 = 4, s 1+0+1 = 2, t 0+1+1 = 2.
    // (Among all five each would have 4 — p's games must not count.)
    // ranking order: one points group, key = total points = 4 for all → q, r and s, t stay tied.
    let mut s = draughts_from_grid(
        &["p", "q", "r", "s", "t"],
        "P: Q W, R W, S L, T L
         Q: P L, R D, S D, T W
         R: P L, Q D, S W, T D
         S: P W, Q D, R L, T D
         T: P W, Q L, R D, S D",
    );
    s.tiebreaks = Some(vec![
        RoundRobinTiebreak::Wins,
        RoundRobinTiebreak::PlusremiseBalance,
        RoundRobinTiebreak::Plusremises,
        RoundRobinTiebreak::Mutual,
        RoundRobinTiebreak::RankingOrder,
    ]);
    let out = compute_round_robin(&s).unwrap();
    let got: Vec<(&str, u32, Option<&str>)> = out
        .standings
        .iter()
        .map(|r| (r.id.as_str(), r.place, r.decided_by.map(|d| d.name())))
        .collect();
    assert_eq!(
        got,
        [
            ("p", 1, Some("wins")),
            ("q", 2, None),
            ("r", 2, Some("mutual")),
            ("s", 4, None),
            ("t", 4, None),
        ]
    );
    assert_eq!(out.standings[1].shared_with, ["r"]);
    assert_eq!(out.standings[3].shared_with, ["t"]);
    assert_eq!(out.standings[1].tiebreaks.get("mutual"), Some(&4.into()));
    assert_eq!(out.standings[3].tiebreaks.get("mutual"), Some(&2.into()));
    assert_eq!(out.standings[0].tiebreaks.get("mutual"), None);
}
