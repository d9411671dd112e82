//! Worked examples (values worked out by hand in the comments) and properties of the
//! tie-break engine.

use super::*;
use crate::Colour;
use crate::fixed::Fixed;
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One event of a round: a game `white`–`black` with a result, or a bye/absence.
enum E {
    /// `1-0`, `0-1`, `=`, `+-` (white wins by forfeit), `-+`.
    G(u32, u32, &'static str),
    /// A player not paired in this round, with what they got.
    B(u32, RoundOutcome),
}

fn tournament(n: u32, rounds: Vec<Vec<E>>) -> Input {
    let mut players: Vec<PlayerResults> = (1..=n)
        .map(|id| PlayerResults {
            id,
            name: format!("P{id}"),
            rating: None,
            rounds: vec![RoundResult::ABSENT; rounds.len()],
        })
        .collect();
    for (r, events) in rounds.iter().enumerate() {
        for e in events {
            match *e {
                E::G(w, b, res) => {
                    let (ow, ob) = match res {
                        "1-0" => (RoundOutcome::Win, RoundOutcome::Loss),
                        "0-1" => (RoundOutcome::Loss, RoundOutcome::Win),
                        "=" => (RoundOutcome::Draw, RoundOutcome::Draw),
                        "+-" => (RoundOutcome::ForfeitWin, RoundOutcome::ForfeitLoss),
                        "-+" => (RoundOutcome::ForfeitLoss, RoundOutcome::ForfeitWin),
                        _ => panic!("bad result {res}"),
                    };
                    players[w as usize - 1].rounds[r] = RoundResult {
                        opponent: Some(b),
                        colour: Some(Colour::White),
                        outcome: ow,
                    };
                    players[b as usize - 1].rounds[r] = RoundResult {
                        opponent: Some(w),
                        colour: Some(Colour::Black),
                        outcome: ob,
                    };
                }
                E::B(p, outcome) => {
                    players[p as usize - 1].rounds[r] = RoundResult {
                        opponent: None,
                        colour: None,
                        outcome,
                    };
                }
            }
        }
    }
    Input {
        players,
        rules: RulesEdition::Fide2024,
        games_per_round: 1,
        event: EventKind::Swiss,
        unrated_rating: None,
    }
}

fn v(x: &str) -> Value {
    Value(Fixed::parse_decimal(x).expect("decimal"))
}

fn row(s: &Standings, id: u32) -> &TiebreakRow {
    s.rows.iter().find(|r| r.id == id).expect("row")
}

fn values(s: &Standings, id: u32) -> Vec<Value> {
    plain(row(s, id))
}

/// The values of a row, every one present.
fn plain(r: &TiebreakRow) -> Vec<Value> {
    r.values.iter().map(|v| v.expect("a value")).collect()
}

fn all() -> Vec<Tiebreak> {
    parse_tiebreaks("PTS,DE,WIN,WON,BH,BH-C1,BH-M1,SB").expect("list")
}

/// Six players, three rounds, all games played. 1, 2 and 3 finish on 2 points; 1 beat both 2
/// and 3, who never met.
fn swiss_six() -> Input {
    tournament(
        6,
        vec![
            vec![E::G(1, 2, "1-0"), E::G(3, 4, "1-0"), E::G(5, 6, "=")],
            vec![E::G(1, 3, "1-0"), E::G(2, 5, "1-0"), E::G(4, 6, "1-0")],
            vec![E::G(1, 5, "0-1"), E::G(2, 4, "1-0"), E::G(3, 6, "1-0")],
        ],
    )
}

#[test]
fn swiss_six_every_value() {
    let s = compute_tiebreaks(&swiss_six(), &all()).expect("ok");
    // Points: 1: 1+1+0 = 2; 2: 0+1+1 = 2; 3: 1+0+1 = 2; 4: 0+1+0 = 1; 5: ½+0+1 = 1½;
    // 6: ½+0+0 = ½.
    // DE among {1,2,3}: not all met (2 and 3 did not). 1 scored 2 (met both, max 2); 2 and 3
    // scored 0 with one encounter missing (max 1 each). 2 > 1, so 1 is placed first; 2 and 3
    // stay tied (0 is not more than 1), and DE inside {2,3} (never met) separates nobody:
    // DE 1, 2, 2.
    // BH: 1: 2(p2)+2(p3)+1½(p5) = 5½; 2: 2+1½+1 = 4½; 3: 1+2+½ = 3½.
    // BH-C1 cuts the lowest: 5½-1½ = 4; 4½-1 = 3½; 3½-½ = 3.
    // BH-M1 also cuts the highest (2): 2; 1½; 1.
    // SB: 1: 2·1 + 2·1 + 1½·0 = 4; 2: 2·0 + 1½·1 + 1·1 = 2½; 3: 1·1 + 2·0 + ½·1 = 1½.
    assert_eq!(
        values(&s, 1),
        ["2", "1", "2", "2", "5.5", "4", "2", "4"].map(v)
    );
    assert_eq!(
        values(&s, 2),
        ["2", "2", "2", "2", "4.5", "3.5", "1.5", "2.5"].map(v)
    );
    assert_eq!(
        values(&s, 3),
        ["2", "2", "2", "2", "3.5", "3", "1", "1.5"].map(v)
    );
    // 5: ½ + 0 + 1 = 1½; opponents 6 (½), 2 (2), 1 (2): BH 4½; SB ½·½ + 0 + 2·1 = 2¼.
    assert_eq!(values(&s, 5)[0], v("1.5"));
    assert_eq!(values(&s, 5)[4], v("4.5"));
    assert_eq!(values(&s, 5)[7], v("2.25"));
    let order: Vec<u32> = s.rows.iter().map(|r| r.id).collect();
    assert_eq!(order, vec![1, 2, 3, 5, 4, 6]);
    assert!(s.rows.iter().all(|r| !r.shared));
    assert!(!s.playoff_for_first);
    // Neighbours level on points: 1 and 2 (2 points), split by DE (1 against 2); 2 and 3
    // (2 points), equal on DE, WIN and WON, split by BH (4½ against 3½). 3–5 and 5–4 are
    // not level on points.
    let sep = |above, below, tb: &str, a: &str, b: &str| Separation {
        above,
        below,
        tiebreak: Tiebreak::parse(tb),
        above_value: Some(v(a)),
        below_value: Some(v(b)),
    };
    assert_eq!(
        s.separations,
        vec![sep(1, 2, "DE", "1", "2"), sep(2, 3, "BH", "4.5", "3.5")]
    );
}

#[test]
fn de_when_all_tied_players_met() {
    // 1-2 1-0, 3-4 ½ | 1-3 0-1, 2-4 1-0 | 1-4 ½, 2-3 1-0.
    // Points: 1: 1+0+½ = 1½; 2: 0+1+1 = 2; 3: ½+1+0 = 1½; 4: ½+0+½ = 1.
    // 1 and 3 are tied and met: 3 won, so DE puts 3 (value 1) above 1 (value 2).
    let input = tournament(
        4,
        vec![
            vec![E::G(1, 2, "1-0"), E::G(3, 4, "=")],
            vec![E::G(1, 3, "0-1"), E::G(2, 4, "1-0")],
            vec![E::G(1, 4, "="), E::G(2, 3, "1-0")],
        ],
    );
    let s = compute_tiebreaks(&input, &parse_tiebreaks("PTS,DE").expect("list")).expect("ok");
    let order: Vec<(u32, Value)> = s.rows.iter().map(|r| (r.id, plain(r)[1])).collect();
    assert_eq!(
        order,
        vec![(2, v("0")), (3, v("1")), (1, v("2")), (4, v("0"))]
    );
}

#[test]
fn everything_tied_stays_shared_and_calls_a_playoff() {
    // A round robin of four where everyone scores 1½: 1-2 1-0, 3-4 ½ | 1-3 ½, 2-4 1-0 |
    // 1-4 0-1, 2-3 ½. DE: all met, everyone scored 1½ among the tied: no split. BH: 4½ each;
    // SB: 1½ × 1½ = 2¼ each (every opponent has 1½).
    let input = tournament(
        4,
        vec![
            vec![E::G(1, 2, "1-0"), E::G(3, 4, "=")],
            vec![E::G(1, 3, "="), E::G(2, 4, "1-0")],
            vec![E::G(1, 4, "0-1"), E::G(2, 3, "=")],
        ],
    );
    let list = parse_tiebreaks("PTS,DE,BH-M1,SB").expect("list");
    let s = compute_tiebreaks(&input, &list).expect("ok");
    for r in &s.rows {
        assert_eq!(plain(r), ["1.5", "0", "1.5", "2.25"].map(v).to_vec());
        assert_eq!(r.rank, 1);
        assert_eq!(r.place, "1-4");
        assert!(r.shared);
    }
    assert!(s.playoff_for_first);
    // three neighbour pairs, none separated by any tie-break
    assert_eq!(s.separations.len(), 3);
    for x in &s.separations {
        assert_eq!(
            (x.tiebreak, x.above_value, x.below_value),
            (None, None, None)
        );
    }
}

/// Byes, forfeits and absences (C.07 art. 16):
/// R1: 1-2 1-0, 3-4 0-1 | R2: 1 half-point bye, 2-3 ½, 4 pairing bye |
/// R3: 1-3 1-0, 2-4 1-0 | R4: 1-4 forfeit (4 wins), 2 half-point bye, 3 absent (zero bye).
fn unplayed() -> Input {
    tournament(
        4,
        vec![
            vec![E::G(1, 2, "1-0"), E::G(3, 4, "0-1")],
            vec![
                E::B(1, RoundOutcome::HalfPointBye),
                E::G(2, 3, "="),
                E::B(4, RoundOutcome::PairingBye),
            ],
            vec![E::G(1, 3, "1-0"), E::G(2, 4, "1-0")],
            vec![
                E::G(1, 4, "-+"),
                E::B(2, RoundOutcome::HalfPointBye),
                E::B(3, RoundOutcome::ZeroPointBye),
            ],
        ],
    )
}

#[test]
fn unplayed_rounds_2024() {
    let s = compute_tiebreaks(&unplayed(), &all()).expect("ok");
    // Points: 1: 1+½+1+0 = 2½; 2: 0+½+1+½ = 2; 3: 0+½+0+0 = ½; 4: 1+1+0+1 = 3.
    // Scores as opponents see them (16.3): the last round of 2 and 3 is a requested bye
    // after their last round not voluntarily unplayed (R3), so it counts as a draw:
    // 2 stays 2 (it was ½ anyway), 3 becomes ½ + ½ = 1. 1's R4 forfeit has an opponent:
    // it keeps its 0, so 1 stays 2½; 4 stays 3.
    //
    // Player 1: R1 vs 2 → 2; R2 half-point bye → dummy with own score 2½ (voluntary);
    // R3 vs 3 → 1; R4 forfeit loss → dummy 2½ (voluntary). BH = 2+2½+1+2½ = 8.
    // BH-C1 cuts a voluntarily unplayed round first (2½), not the lowest (1): 5½.
    // BH-M1 then cuts the highest of 2, 1, 2½: 3.
    // SB = 2·1 + 2½·½ + 1·1 + 2½·0 = 4¼. WIN 2, WON 2.
    assert_eq!(
        values(&s, 1),
        ["2.5", "0", "2", "2", "8", "5.5", "3", "4.25"].map(v)
    );
    // Player 2: R1 vs 1 → 2½; R2 vs 3 → 1; R3 vs 4 → 3; R4 half bye → dummy 2 (voluntary).
    // BH = 8½; C1 cuts the bye (2): 6½; M1 cuts 3: 3½. SB = 0 + ½·1 + 1·3 + ½·2 = 4½.
    assert_eq!(
        values(&s, 2),
        ["2", "0", "1", "1", "8.5", "6.5", "3.5", "4.5"].map(v)
    );
    // Player 3: vs 4 → 3, vs 2 → 2, vs 1 → 2½, R4 absent → dummy ½. BH 8; C1 7½; M1 4½.
    // SB = 0 + ½·2 + 0 + 0 = 1.
    assert_eq!(
        values(&s, 3),
        ["0.5", "0", "0", "0", "8", "7.5", "4.5", "1"].map(v)
    );
    // Player 4: R1 vs 3 → 1; R2 pairing bye → dummy 3 (not voluntary); R3 vs 2 → 2;
    // R4 forfeit win → dummy 3 (not voluntary). BH 9; C1 cuts the lowest (1): 8; M1: 5.
    // SB = 1·1 + 3·1 + 2·0 + 3·1 = 7. WIN counts the bye and the forfeit: 3; WON 1.
    assert_eq!(
        values(&s, 4),
        ["3", "0", "3", "1", "9", "8", "5", "7"].map(v)
    );
}

#[test]
fn unplayed_rounds_2026_caps_the_dummy() {
    let mut input = unplayed();
    input.rules = RulesEdition::Fide2026;
    let list = parse_tiebreaks("BH").expect("list");
    let s = compute_tiebreaks(&input, &list).expect("ok");
    // Player 1: the half-point bye's dummy is capped at ½ × 4 rounds = 2 (own score 2½);
    // the forfeit's dummy at the scheduled opponent's score 3 (stays 2½).
    // BH = 2 + 2 + 1 + 2½ = 7½.
    assert_eq!(values(&s, 1)[1], v("7.5"));
    // Player 4: pairing bye capped at 2; the forfeit win at opponent 1's 2½.
    // BH = 1 + 2 + 2 + 2½ = 7½.
    assert_eq!(values(&s, 4)[1], v("7.5"));
}

#[test]
fn pts_is_put_first() {
    let s = compute_tiebreaks(&swiss_six(), &[Tiebreak::Bh(Cut::NONE)]).expect("ok");
    assert_eq!(s.tiebreaks, vec![Tiebreak::Pts, Tiebreak::Bh(Cut::NONE)]);
    assert_eq!(s.rows[0].id, 1);
}

#[test]
fn double_swiss_single_forfeit_counts_as_played() {
    // One match of two games: 1 wins game 1 over the board, 2 forfeits game 2. With two
    // games per round the forfeited game counts as played (C.04.5 Preface): WON 2 for 1.
    let mut input = tournament(2, vec![vec![E::G(1, 2, "1-0")], vec![E::G(2, 1, "-+")]]);
    let list = parse_tiebreaks("WON").expect("list");
    let single = compute_tiebreaks(&input, &list).expect("ok");
    assert_eq!(values(&single, 1)[1], v("1"));
    input.games_per_round = 2;
    let double = compute_tiebreaks(&input, &list).expect("ok");
    assert_eq!(values(&double, 1)[1], v("2"));
}

#[test]
fn errors_name_the_offender() {
    let mut input = swiss_six();
    input.players[0].rounds[1].opponent = Some(9);
    assert_eq!(
        compute_tiebreaks(&input, &all()),
        Err(TiebreakError::UnknownOpponent {
            player: 1,
            round: 2,
            opponent: 9
        })
    );
    assert_eq!(
        parse_tiebreaks("PTS,XYZ"),
        Err(TiebreakError::UnknownTiebreak("XYZ".into()))
    );
}

#[test]
fn fore_buchholz_listed_first_leaves_buchholz_and_sonneborn_berger_alone() {
    // R1: 1-2 1-0, 3-4 1-0 | R2: 1-3 ½, 2 pairing-allocated bye, 4 absent (zero-point bye) |
    // R3: 3-2 0-1, 1-4 forfeit (4 does not turn up). Points: 1: 2½, 2: 2, 3: 1½, 4: 0.
    // 4's last round that is not voluntarily unplayed is round 1, so for the Buchholz of their
    // opponents (16.3) round 2 counts as a draw and round 3 (paired) as it was: ½.
    // 3 met 4, 1 and 2 over the board: BH = ½ + 2½ + 2 = 5; SB = 1·½ + ½·2½ + 0·2 = 1¾.
    // Fore Buchholz treats 4 as having played up to the last round, but only for FB itself.
    let input = tournament(
        4,
        vec![
            vec![E::G(1, 2, "1-0"), E::G(3, 4, "1-0")],
            vec![
                E::G(1, 3, "="),
                E::B(2, RoundOutcome::PairingBye),
                E::B(4, RoundOutcome::ZeroPointBye),
            ],
            vec![E::G(3, 2, "0-1"), E::G(1, 4, "+-")],
        ],
    );
    let alone = compute_tiebreaks(&input, &parse_tiebreaks("BH,SB").expect("list")).expect("ok");
    assert_eq!(values(&alone, 3), vec![v("1.5"), v("5"), v("1.75")]);
    let after = compute_tiebreaks(&input, &parse_tiebreaks("FB,BH,SB").expect("list")).expect("ok");
    assert_eq!(values(&after, 3)[2..], [v("5"), v("1.75")]);
}

#[test]
fn reads_trf() {
    let text = "012 Test\r\
001    1      A                                 2000                             1.5    1     2 w 1  0000 - H\r\
001    2      B                                 1900                             1.0    2     1 b 0  0000 - U\r";
    let input = trf::read_trf(text).expect("trf");
    assert_eq!(input.players.len(), 2);
    assert_eq!(
        input.players[0].rounds[1].outcome,
        RoundOutcome::HalfPointBye
    );
    assert_eq!(input.players[1].rounds[1].outcome, RoundOutcome::PairingBye);
    let s = compute_tiebreaks(&input, &[Tiebreak::Pts]).expect("ok");
    assert_eq!(values(&s, 1)[0], v("1.5"));
    assert_eq!(values(&s, 2)[0], v("1"));
}

/// A random Swiss-like tournament: random pairings, results, forfeits, byes and absences.
fn random_tournament(seed: u64) -> Input {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = rng.random_range(2..=10u32);
    let rounds = rng.random_range(1..=6usize);
    let mut events = Vec::new();
    for _ in 0..rounds {
        let mut ids: Vec<u32> = (1..=n).collect();
        ids.shuffle(&mut rng);
        let mut round = Vec::new();
        while ids.len() >= 2 && rng.random_range(0..10) > 0 {
            let (w, b) = (ids.pop().unwrap_or(1), ids.pop().unwrap_or(2));
            let res = ["1-0", "0-1", "=", "+-", "-+"][rng.random_range(0..5)];
            round.push(E::G(w, b, res));
        }
        for id in ids {
            let o = [
                RoundOutcome::PairingBye,
                RoundOutcome::FullPointBye,
                RoundOutcome::HalfPointBye,
                RoundOutcome::ZeroPointBye,
            ][rng.random_range(0..4)];
            round.push(E::B(id, o));
        }
        events.push(round);
    }
    tournament(n, events)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Values and the order do not depend on the order in which players are given.
    #[test]
    fn order_of_players_does_not_matter(seed in any::<u64>(), shuffle in any::<u64>()) {
        let input = random_tournament(seed);
        let list = all();
        let a = compute_tiebreaks(&input, &list).expect("ok");
        let mut shuffled = input.clone();
        shuffled.players.shuffle(&mut ChaCha8Rng::seed_from_u64(shuffle));
        let b = compute_tiebreaks(&shuffled, &list).expect("ok");
        prop_assert_eq!(a, b);
    }

    /// C.07 defines each tie-break on its own: its value does not depend on which tie-breaks
    /// come before it in the list (DE excepted, which C.07 defines among the players still
    /// tied). Every tie-break of a shuffled list equals its value computed alone.
    #[test]
    fn a_tiebreak_value_does_not_depend_on_its_place_in_the_list(
        seed in any::<u64>(),
        shuffle in any::<u64>(),
        len in 1usize..23,
    ) {
        let mut input = random_tournament(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(shuffle);
        for p in &mut input.players {
            p.rating = Some(rng.random_range(1000..=2800));
        }
        let mut list = parse_tiebreaks(
            "WIN,WON,BPG,BWG,REP,PS,PS-C1,KS,BH,BH-C1,BH-M1,FB,FB-C1,FB-M1,SB,SB-C1,SB-M1,AOB,\
             ARO,TPR,PTP,APRO,APPO",
        )
        .expect("list");
        list.shuffle(&mut rng);
        list.truncate(len);
        let together = compute_tiebreaks(&input, &list).expect("ok");
        for (k, tb) in list.iter().enumerate() {
            let alone = compute_tiebreaks(&input, &[*tb]).expect("ok");
            for row in &together.rows {
                let single = alone.rows.iter().find(|r| r.id == row.id).expect("row");
                // index 0 is PTS, put in front of both lists
                prop_assert_eq!(
                    row.values[k + 1],
                    single.values[1],
                    "{} of player {} in {:?}",
                    tb.acronym(),
                    row.id,
                    list.iter().map(|t| t.acronym()).collect::<Vec<_>>()
                );
            }
        }
    }

    /// Cuts only remove values, ranks are consistent with the values.
    #[test]
    fn cuts_and_ranks_are_consistent(seed in any::<u64>()) {
        let s = compute_tiebreaks(&random_tournament(seed), &all()).expect("ok");
        for r in &s.rows {
            prop_assert!(plain(r)[4] >= plain(r)[5]);
            prop_assert!(plain(r)[5] >= plain(r)[6]);
            prop_assert!(plain(r)[2] >= plain(r)[3]);
        }
        for w in s.rows.windows(2) {
            prop_assert!(w[0].rank <= w[1].rank);
            prop_assert!(plain(&w[0])[0] >= plain(&w[1])[0]);
            if w[0].rank == w[1].rank {
                prop_assert_eq!(&w[0].values, &w[1].values);
            }
        }
    }
}

#[test]
fn round_robin_counts_forfeits_against_the_scheduled_opponent() {
    // R1: 1-2 1-0, 3-4 forfeit (3 wins) | R2: 1-3 ½, 2-4 1-0 | R3: 1-4 1-0, 2-3 0-1.
    // Points: 1: 2½, 2: 1, 3: 2½, 4: 0.
    let mut input = tournament(
        4,
        vec![
            vec![E::G(1, 2, "1-0"), E::G(3, 4, "+-")],
            vec![E::G(1, 3, "="), E::G(2, 4, "1-0")],
            vec![E::G(1, 4, "1-0"), E::G(2, 3, "0-1")],
        ],
    );
    let list = parse_tiebreaks("BH,SB").expect("list");
    // Swiss: 3's forfeit win is a game against a dummy with 3's own 2½:
    // BH(3) = 2½ + 2½ (p1) + 1 (p2) = 6; SB(3) = 2½·1 + 2½·½ + 1·1 = 4¾.
    let swiss = compute_tiebreaks(&input, &list).expect("ok");
    assert_eq!(values(&swiss, 3), ["2.5", "6", "4.75"].map(v));
    // Round robin: it counts against 4 (0 points): BH(3) = 0 + 2½ + 1 = 3½;
    // SB(3) = 0·1 + 2½·½ + 1·1 = 2¼. Player 1: BH 1 + 2½ + 0 = 3½, SB 1 + 1¼ + 0 = 2¼.
    input.event = EventKind::RoundRobin;
    let rr = compute_tiebreaks(&input, &list).expect("ok");
    assert_eq!(values(&rr, 3), ["2.5", "3.5", "2.25"].map(v));
    assert_eq!(values(&rr, 1), ["2.5", "3.5", "2.25"].map(v));
    assert_eq!(rr.rows[0].place, "1-2");
}

#[test]
fn points_agree_with_every_reference_trf() {
    // The TRF points column of every reference vector equals our PTS (byes, forfeits and
    // known absences included).
    for (trf_path, _) in crate::swiss::test_vectors::all_rounds() {
        let text = std::fs::read_to_string(&trf_path).expect("read vector");
        let parsed = crate::swiss::trf::parse_trf(&text).expect("parse vector");
        let s = compute_tiebreaks(&trf::input_from_trf(&parsed), &all()).expect("standings");
        for p in &parsed.players {
            assert_eq!(
                row(&s, p.id).values[0],
                Some(Value(p.points)),
                "{} player {}",
                trf_path.display(),
                p.id
            );
        }
    }
}

#[test]
fn edition_by_start_date() {
    let body = "001    1      A                                 2000                             0.0    1\n";
    let with = |date: &str| {
        let t = crate::swiss::trf::parse_trf(&format!("042 {date}\n{body}")).expect("trf");
        trf::edition_for(&t)
    };
    assert_eq!(with("2026/02/28"), RulesEdition::Fide2024);
    assert_eq!(with("2026/03/01"), RulesEdition::Fide2026);
    let none = crate::swiss::trf::parse_trf(body).expect("trf");
    assert_eq!(trf::edition_for(&none), RulesEdition::Fide2024);
}

#[test]
fn swiss_six_the_other_tiebreaks() {
    let list = parse_tiebreaks("BPG,BWG,REP,GE,PS,PS-C1,KS,FB,AOB,BH-C2,SB-C1").expect("list");
    let s = compute_tiebreaks(&swiss_six(), &list).expect("ok");
    // Colours: 1 had White three times; 2 Black in round 1 (lost); 5 Black in rounds 2 (lost)
    // and 3 (beat 1); 6 Black throughout. Every game was played: REP = GE = 3.
    // PS: running scores 1: 1, 2, 2 → 5 (Cut-1: 4); 2: 0, 1, 2 → 3 (3); 5: ½, ½, 1½ → 2½ (2).
    // KS, limit half of 3 rounds = 1½: 1 scored 1 + 1 + 0 against 2, 3 and 5 (all ≥ 1½) → 2;
    // 2 scored 0 against 1 and 1 against 5 (4 has 1 < 1½) → 1; 5 scored 0 against 2 and 1
    // against 1 (6 has ½) → 1.
    // FB: every last-round game becomes a draw, so the scores are 1: 2½, 2: 1½, 3: 1½,
    // 4: 1½, 5: 1, 6: 1. FB(1) = 1½ + 1½ + 1 = 4; FB(2) = 2½ + 1 + 1½ = 5; FB(5) = 1 + 1½ + 2½.
    // AOB: Buchholz 1: 5½, 2: 4½, 3: 3½, 4: 4½ (2 + ½ + 2), 5: 4½, 6: 4½ (1½ + 1 + 2).
    // AOB(1) = (4½ + 3½ + 4½) / 3 = 4.1666… → 4.17; AOB(2) = (5½ + 4½ + 4½) / 3 → 4.83;
    // AOB(5) = (4½ + 4½ + 5½) / 3 → 4.83.
    // BH-C2(1) leaves out 1½ and one 2 → 2; BH-C2(2) leaves 2 (opponent 1).
    // SB-C1 cuts the opponent with the lowest score: 1 loses 5's 1½·0 → 4; 2 loses 4's 1·1 →
    // 0 + 1½ = 1½; 5 loses 6's ½·½ → 0 + 2 = 2.
    let want = |id: u32| values(&s, id)[1..].to_vec();
    assert_eq!(
        want(1),
        ["0", "0", "3", "3", "5", "4", "2", "4", "4.17", "2", "4"].map(v)
    );
    assert_eq!(
        want(2),
        ["1", "0", "3", "3", "3", "3", "1", "5", "4.83", "2", "1.5"].map(v)
    );
    assert_eq!(
        want(5),
        ["2", "1", "3", "3", "2.5", "2", "1", "5", "4.83", "2", "2"].map(v)
    );
    assert_eq!(values(&s, 6)[1], v("3"));
}

#[test]
fn rating_based_tiebreaks_by_hand() {
    let mut input = swiss_six();
    for p in &mut input.players {
        p.rating = Some(2100 - 100 * p.id);
    }
    let list = parse_tiebreaks("ARO,ARO-C1,ARO-M1,TPR").expect("list");
    let s = compute_tiebreaks(&input, &list).expect("ok");
    // 1 (2000) met 2 (1900), 3 (1800) and 5 (1600): ARO 5300 / 3 = 1766.67 → 1767; Cut-1
    // leaves out 1600 → 1850; Median-1 also 1900 → 1800. 2 of 3 is 67 % → +125: TPR 1892.
    assert_eq!(values(&s, 1)[1..], ["1767", "1850", "1800", "1892"].map(v));
    // 6 met 5 (1600), 4 (1700) and 3 (1800), scoring ½: ARO 1700, Cut-1 1750, Median-1 1700;
    // ½ of 3 is 17 % → −273: TPR 1427.
    assert_eq!(values(&s, 6)[1..], ["1700", "1750", "1700", "1427"].map(v));

    // One unrated player: no value for anyone, unless the regulations give them a rating.
    input.players[5].rating = None;
    let s = compute_tiebreaks(&input, &list).expect("ok");
    assert!(
        s.rows
            .iter()
            .all(|r| r.values[1..].iter().all(Option::is_none))
    );
    input.unrated_rating = Some(1500);
    let s = compute_tiebreaks(&input, &list).expect("ok");
    // 5 met 6 (now 1500), 2 (1900) and 1 (2000): ARO 5400 / 3 = 1800.
    assert_eq!(values(&s, 5)[1], v("1800"));
}

#[test]
fn acronyms_with_modifiers() {
    for (text, acronym) in [
        ("bh/c3", "BH-C3"),
        ("SB-M2", "SB-M2"),
        ("aro-c1", "ARO-C1"),
        ("PS/C1", "PS-C1"),
        ("fb-m1", "FB-M1"),
        ("GE", "GE"),
    ] {
        let tb = Tiebreak::parse(text).expect(text);
        assert_eq!(tb.acronym(), acronym);
        assert_eq!(Tiebreak::parse(&tb.acronym()), Some(tb));
    }
    for bad in [
        "BH-C0", "BH-C31", "PS-M1", "TPR-C1", "KS-C1", "BH-X1", "BH-", "BH-C1-M1",
    ] {
        assert_eq!(Tiebreak::parse(bad), None, "{bad}");
    }
}

#[test]
fn an_edition_and_an_event_kind_are_read_as_the_calculator_names_them() {
    assert_eq!("2024".parse::<RulesEdition>(), Ok(RulesEdition::Fide2024));
    assert_eq!("2026".parse::<RulesEdition>(), Ok(RulesEdition::Fide2026));
    assert_eq!("2025".parse::<RulesEdition>(), Err("must be 2024 or 2026"));
    assert_eq!(
        "fide2024".parse::<RulesEdition>(),
        Err("must be 2024 or 2026")
    );
    assert_eq!("swiss".parse::<EventKind>(), Ok(EventKind::Swiss));
    assert_eq!(
        "round-robin".parse::<EventKind>(),
        Ok(EventKind::RoundRobin)
    );
    assert!("round_robin".parse::<EventKind>().is_err());
}
