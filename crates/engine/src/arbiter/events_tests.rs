//! Event-log tests: KNDB proposal rules, FIDE draw offers, claims and final decisions.

use super::*;
use Colour::{Black as B, White as W};
use proptest::prelude::*;

fn mv(by: Colour) -> GameEvent {
    GameEvent::Move { by, notation: None }
}

fn prop(by: Colour, kind: ProposalKind) -> GameEvent {
    GameEvent::Proposal { by, kind }
}

fn ok(game: GameKind, log: &[GameEvent]) -> GameState {
    replay(game, log).unwrap_or_else(|e| panic!("{e}"))
}

fn rule(game: GameKind, log: &[GameEvent]) -> (usize, EventRule) {
    let e = replay(game, log).unwrap_err();
    (e.event, e.rule)
}

/// `n` full moves (White and Black each `n`).
fn moves(n: usize) -> Vec<GameEvent> {
    (0..n).flat_map(|_| [mv(W), mv(B)]).collect()
}

const D: GameKind = GameKind::Draughts;
const C: GameKind = GameKind::Chess;

#[test]
fn proposal_right_after_own_move_is_regular() {
    let s = ok(D, &[mv(W), prop(W, ProposalKind::Draw)]);
    assert_eq!(s.pending.map(|p| (p.by, p.regular)), Some((W, true)));
}

/// KNDB: a proposal not made right after one's own move is valid; it stands until it is
/// rejected or until either player makes a move.
#[test]
fn an_irregular_proposal_is_valid_until_rejected_or_a_move() {
    // 40 moves each, then White (to move, Black moved last) proposes a draw before moving:
    // irregular, and Black may accept it: a draw (40 moves each, so not 0-0).
    let mut log = moves(40);
    log.push(prop(W, ProposalKind::Draw));
    let s = ok(D, &log);
    assert_eq!(s.pending.map(|p| (p.by, p.regular)), Some((W, false)));
    log.push(GameEvent::Accept { by: B });
    assert_eq!(ok(D, &log).result, Some(GameEnding::Draw));

    // Before any move Black proposes a plusremise for himself: irregular; White accepts.
    let s = ok(
        D,
        &[
            prop(B, ProposalKind::Plusremise),
            GameEvent::Accept { by: W },
        ],
    );
    assert_eq!(
        s.result,
        Some(GameEnding::BothLost),
        "agreed before 40 moves"
    );

    // The proposer moves: the proposal lapses, it was not rejected, so he may make it again
    // right after his next move.
    let mut log = moves(1);
    log.extend([prop(W, ProposalKind::Draw), mv(W)]);
    let s = ok(D, &log);
    assert_eq!(s.pending, None);
    assert!(s.barred.is_empty());
    log.extend([mv(B), mv(W), prop(W, ProposalKind::Draw)]);
    assert_eq!(ok(D, &log).pending.map(|p| p.regular), Some(true));

    // Black proposes before White's first move; White's move rejects it: Black is barred.
    let log = [
        prop(B, ProposalKind::Draw),
        mv(W),
        prop(B, ProposalKind::Draw),
    ];
    assert_eq!(
        rule(D, &log),
        (
            2,
            EventRule::RepeatedRejectedProposal {
                by: B,
                kind: ProposalKind::Draw
            }
        )
    );
}

#[test]
fn a_proposal_cannot_be_withdrawn_and_only_the_opponent_answers() {
    let base = [mv(W), prop(W, ProposalKind::Draw)];
    let mut log = base.to_vec();
    log.push(GameEvent::Withdraw { by: W });
    assert_eq!(rule(D, &log), (2, EventRule::CannotWithdraw));
    let mut log = base.to_vec();
    log.push(GameEvent::Accept { by: W });
    assert_eq!(rule(D, &log), (2, EventRule::OwnOffer { by: W }));
    // the proposer cannot move on either: it is Black's turn
    let mut log = base.to_vec();
    log.push(mv(W));
    assert_eq!(rule(D, &log), (2, EventRule::MoveOutOfTurn { by: W }));
}

#[test]
fn a_rejected_proposer_may_not_repeat_until_the_opponent_made_it() {
    // 1.W proposes a draw, Black rejects in words; 2.W may not propose a draw again...
    let mut log = vec![
        mv(W),
        prop(W, ProposalKind::Draw),
        GameEvent::Reject { by: B },
    ];
    log.extend([mv(B), mv(W), prop(W, ProposalKind::Draw)]);
    assert_eq!(
        rule(D, &log),
        (
            5,
            EventRule::RepeatedRejectedProposal {
                by: W,
                kind: ProposalKind::Draw
            }
        )
    );
    // ...but a different proposal (plusremise for himself) is allowed
    log.pop();
    log.push(prop(W, ProposalKind::Plusremise));
    let s = ok(D, &log);
    assert_eq!(
        s.pending.map(|p| p.outcome),
        Some(GameEnding::Plusremise { side: W })
    );
    // Black rejects by making a move, then proposes a draw himself right after that move:
    // this lifts White's bar on the draw; White rejects by moving and may propose a draw.
    log.extend([
        mv(B),
        prop(B, ProposalKind::Draw),
        mv(W),
        prop(W, ProposalKind::Draw),
    ]);
    let s = ok(D, &log);
    assert_eq!(
        s.pending.map(|p| (p.by, p.outcome)),
        Some((W, GameEnding::Draw))
    );
    // Black's draw was rejected by White's move, but White has since made that same
    // proposal, so Black's bar is lifted again; White stays barred from his plusremise
    assert!(!s.barred.contains(&(B, ProposalKind::Draw)));
    assert!(s.barred.contains(&(W, ProposalKind::Plusremise)));
    // White's plusremise stays barred until Black proposes a plusremise himself
    log.extend([
        GameEvent::Reject { by: B },
        mv(B),
        mv(W),
        prop(W, ProposalKind::Plusremise),
    ]);
    assert_eq!(
        rule(D, &log).1,
        EventRule::RepeatedRejectedProposal {
            by: W,
            kind: ProposalKind::Plusremise
        }
    );
    log.pop();
    log.pop();
    // 5...(Black) proposes plusremise right after his move; White rejects by moving and may
    // now propose a plusremise again
    log.extend([
        prop(B, ProposalKind::Plusremise),
        mv(W),
        prop(W, ProposalKind::Plusremise),
    ]);
    let s = ok(D, &log);
    assert_eq!(
        s.pending.map(|p| (p.by, p.kind)),
        Some((W, Some(ProposalKind::Plusremise)))
    );
    // and by doing so White lifts Black's bar on the plusremise in turn; what remains barred
    // is White's draw, rejected in words by Black above
    assert_eq!(s.barred, vec![(W, ProposalKind::Draw)]);
}

#[test]
fn agreements_and_the_forty_move_rule() {
    // draw agreed after White's 39th move: fewer than 40 moves each -> 0-0
    let mut log = moves(38);
    log.extend([
        mv(W),
        prop(W, ProposalKind::Draw),
        GameEvent::Accept { by: B },
    ]);
    assert_eq!(ok(D, &log).result, Some(GameEnding::BothLost));
    // after White's 41st move, both have made 40 or more -> a real draw
    let mut log = moves(40);
    log.extend([
        mv(W),
        prop(W, ProposalKind::Draw),
        GameEvent::Accept { by: B },
    ]);
    assert_eq!(ok(D, &log).result, Some(GameEnding::Draw));
    // Black proposes a minremise for himself after 40 moves each: plusremise for White
    let mut log = moves(40);
    log.extend([
        mv(W),
        mv(B),
        prop(B, ProposalKind::Minremise),
        GameEvent::Accept { by: W },
    ]);
    assert_eq!(ok(D, &log).result, Some(GameEnding::Plusremise { side: W }));
    // nothing after the end
    log.push(mv(B));
    assert_eq!(rule(D, &log).1, EventRule::GameOver);
}

#[test]
fn chess_draw_offers() {
    // proposals are for draughts
    assert_eq!(
        rule(C, &[mv(W), prop(W, ProposalKind::Draw)]).1,
        EventRule::WrongGame { game: C }
    );
    // an offer by the player to move (before moving) is valid but irregular, and stays
    // when he then moves; the opponent's move rejects it (no bar on offering again in chess)
    let s = ok(C, &[mv(W), GameEvent::DrawOffer { by: B }, mv(B)]);
    assert_eq!(s.pending.map(|p| (p.by, p.regular)), Some((B, false)));
    let s = ok(C, &[mv(W), GameEvent::DrawOffer { by: B }, mv(B), mv(W)]);
    assert_eq!(s.pending, None);
    assert!(s.barred.is_empty());
    let s = ok(
        C,
        &[
            mv(W),
            GameEvent::DrawOffer { by: W },
            GameEvent::Accept { by: B },
        ],
    );
    assert_eq!(s.result, Some(GameEnding::Draw));
}

#[test]
fn claims_and_final_decisions() {
    let claim = GameEvent::Claim {
        by: W,
        kind: ClaimKind::ThreefoldRepetition,
        declared_move: None,
    };
    // only the player to move claims
    assert_eq!(
        rule(C, &[mv(W), claim.clone()]),
        (1, EventRule::ClaimNotOnMove { by: W })
    );
    let mut log = vec![mv(W), mv(B), claim.clone()];
    // the game waits for the decision
    let mut waiting = log.clone();
    waiting.push(mv(W));
    assert_eq!(
        rule(C, &waiting).1,
        EventRule::ClaimAwaitingDecision { claim: 2 }
    );
    // rejected: Black gets two minutes; the decision is final
    log.push(GameEvent::Decision {
        claim: 2,
        ruling: Ruling::Rejected,
    });
    let s = ok(C, &log);
    assert_eq!(s.added_seconds, [0, 120]);
    log.push(GameEvent::Decision {
        claim: 2,
        ruling: Ruling::Upheld {
            outcome: GameEnding::Draw,
        },
    });
    assert!(rule(C, &log).1.is_conflict());
    assert_eq!(
        rule(C, &log),
        (
            4,
            EventRule::AlreadyDecided {
                claim: 2,
                status: ClaimStatus::Rejected
            }
        )
    );
    // a repetition claim cannot be postponed; an index that is no claim
    let p = GameEvent::Decision {
        claim: 2,
        ruling: Ruling::Postponed {
            opponent_two_minutes: false,
        },
    };
    assert_eq!(
        rule(C, &[mv(W), mv(B), claim.clone(), p]).1,
        EventRule::CannotPostpone { claim: 2 }
    );
    let u = GameEvent::Decision {
        claim: 0,
        ruling: Ruling::Rejected,
    };
    assert_eq!(
        rule(C, &[mv(W), mv(B), claim, u]).1,
        EventRule::UnknownClaim { claim: 0 }
    );
}

#[test]
fn quickplay_claim_postponed_then_decided() {
    let log = vec![
        mv(W),
        mv(B),
        GameEvent::Claim {
            by: W,
            kind: ClaimKind::QuickplayFinish,
            declared_move: None,
        },
        GameEvent::Decision {
            claim: 2,
            ruling: Ruling::Postponed {
                opponent_two_minutes: true,
            },
        },
        // the game goes on
        mv(W),
        mv(B),
        GameEvent::Decision {
            claim: 2,
            ruling: Ruling::Upheld {
                outcome: GameEnding::Draw,
            },
        },
    ];
    let s = ok(C, &log);
    assert_eq!(s.result, Some(GameEnding::Draw));
    assert_eq!(s.added_seconds, [0, 120]);
    assert_eq!(s.claims[0].status, ClaimStatus::Upheld);
    // a draughts claim upheld with a plusremise; a plusremise is no chess result
    let d = ok(
        D,
        &[
            mv(W),
            mv(B),
            GameEvent::Claim {
                by: W,
                kind: ClaimKind::DraughtsRepetition,
                declared_move: None,
            },
            GameEvent::Decision {
                claim: 2,
                ruling: Ruling::Upheld {
                    outcome: GameEnding::Plusremise { side: B },
                },
            },
        ],
    );
    assert_eq!(d.result, Some(GameEnding::Plusremise { side: B }));
    assert_eq!(d.added_seconds, [0, 0]);
}

#[test]
fn time_added_and_apply_names_the_offending_event() {
    let s = ok(
        C,
        &[
            GameEvent::TimeAdded {
                to: B,
                seconds: 300,
            },
            GameEvent::TimeAdded { to: B, seconds: 60 },
        ],
    );
    assert_eq!(s.added_seconds, [0, 360]);
    let e = apply(C, &[mv(W)], &GameEvent::TimeAdded { to: W, seconds: 0 }).unwrap_err();
    assert_eq!((e.event, e.rule), (1, EventRule::NoTimeAdded));
    let e = apply(
        C,
        &[mv(W)],
        &GameEvent::TimeAdded {
            to: W,
            seconds: 3601,
        },
    )
    .unwrap_err();
    assert_eq!(
        (e.event, e.rule),
        (1, EventRule::TooMuchTimeAdded { max: 3600 })
    );
    let hour = GameEvent::TimeAdded {
        to: W,
        seconds: 3600,
    };
    assert!(apply(C, &[mv(W)], &hour).is_ok());
    let e = apply(C, &[mv(B)], &mv(W)).unwrap_err();
    assert_eq!((e.event, e.rule), (0, EventRule::MoveOutOfTurn { by: B }));
}

fn any_event() -> impl Strategy<Value = GameEvent> {
    let side = prop_oneof![Just(W), Just(B)];
    let kind = prop_oneof![
        Just(ProposalKind::Draw),
        Just(ProposalKind::Plusremise),
        Just(ProposalKind::Minremise)
    ];
    let ruling = prop_oneof![
        Just(Ruling::Rejected),
        Just(Ruling::Upheld {
            outcome: GameEnding::Draw
        }),
        Just(Ruling::Postponed {
            opponent_two_minutes: true
        }),
    ];
    prop_oneof![
        4 => side.clone().prop_map(mv),
        1 => (side.clone(), kind).prop_map(|(by, kind)| GameEvent::Proposal { by, kind }),
        1 => side.clone().prop_map(|by| GameEvent::DrawOffer { by }),
        1 => side.clone().prop_map(|by| GameEvent::Accept { by }),
        1 => side.clone().prop_map(|by| GameEvent::Reject { by }),
        1 => side.clone().prop_map(|by| GameEvent::Claim { by, kind: ClaimKind::QuickplayFinish, declared_move: None }),
        1 => side.prop_map(|by| GameEvent::Claim { by, kind: ClaimKind::DraughtsRepetition, declared_move: None }),
        1 => (0usize..30, ruling).prop_map(|(claim, ruling)| GameEvent::Decision { claim, ruling }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Feeding random events (keeping only those accepted): a decided claim never changes, a
    /// result never changes, a rejected event leaves the state as it was, and a draughts
    /// proposal is regular only from the player who just moved.
    #[test]
    fn decided_claims_and_results_never_change(
        chess in any::<bool>(),
        events in proptest::collection::vec(any_event(), 1..60),
    ) {
        let game = if chess { C } else { D };
        let mut s = GameState::new(game);
        for e in &events {
            let before = s.clone();
            match s.apply(e) {
                Ok(next) => {
                    for (old, new) in before.claims.iter().zip(&next.claims) {
                        if matches!(old.status, ClaimStatus::Upheld | ClaimStatus::Rejected) {
                            prop_assert_eq!(old, new);
                        }
                    }
                    if before.result.is_some() {
                        prop_assert_eq!(before.result, next.result);
                    }
                    // a pending draughts proposal is regular exactly when its proposer made
                    // the last move, and never outlives a move by its proposer
                    if let (GameKind::Draughts, Some(p)) = (game, next.pending) {
                        prop_assert_eq!(p.regular, next.last_mover == Some(p.by));
                        if p.event < before.events {
                            prop_assert!(*e != mv(p.by));
                        }
                    }
                    s = next;
                }
                Err(v) => {
                    prop_assert_eq!(v.event, before.events);
                    prop_assert_eq!(&s, &before);
                }
            }
        }
    }
}

#[test]
fn a_claim_on_a_long_record_applies_each_move_once() {
    // a log of 10 moves, brought up to a record of MAX_PLIES half-moves, then a claim and
    // its decision: every event is applied exactly once
    let start = moves(5);
    let mut log = EventLog::open(C, start.clone()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(log.applied(), 10);
    for _ in start.len()..crate::arbiter::MAX_PLIES {
        let by = log.state().to_move;
        log.push(mv(by)).unwrap_or_else(|e| panic!("{e}"));
    }
    let claim = log.events().len();
    log.push(GameEvent::Claim {
        by: W,
        kind: ClaimKind::ThreefoldRepetition,
        declared_move: None,
    })
    .unwrap_or_else(|e| panic!("{e}"));
    log.push(GameEvent::Decision {
        claim,
        ruling: Ruling::Rejected,
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(log.applied(), crate::arbiter::MAX_PLIES + 2);
    assert_eq!(log.events().len(), crate::arbiter::MAX_PLIES + 2);
    assert_eq!(log.state().moves, [1000, 1000]);
    assert_eq!(log.state().added_seconds, [0, 120]);
    // the incremental state is the one a full replay gives
    assert_eq!(log.state(), &ok(C, log.events()));
}

#[test]
fn a_refused_event_leaves_the_log_as_it_was() {
    let mut log = EventLog::open(C, moves(1)).unwrap_or_else(|e| panic!("{e}"));
    let before = log.state().clone();
    let e = log.push(mv(B)).unwrap_err();
    assert_eq!((e.event, e.rule), (2, EventRule::MoveOutOfTurn { by: B }));
    assert_eq!(log.state(), &before);
    assert_eq!(log.events().len(), 2);
}

fn san(by: Colour, m: &str) -> GameEvent {
    GameEvent::Move {
        by,
        notation: Some(m.to_string()),
    }
}

/// FIDE 9.5.3: after a claim (a) the claimant plays the declared move, whatever the outcome.
/// 1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6 4.Ng1: Black claims, declaring 4...Ng8 (only the second
/// occurrence of the start position after Black's move: the claim is rejected).
#[test]
fn the_declared_move_is_the_move_played() {
    let mut log: Vec<GameEvent> = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]
        .iter()
        .enumerate()
        .map(|(i, m)| san(if i % 2 == 0 { W } else { B }, m))
        .collect();
    log.push(GameEvent::Claim {
        by: B,
        kind: ClaimKind::ThreefoldRepetition,
        declared_move: Some("Ng8".into()),
    });
    log.push(GameEvent::Decision {
        claim: 7,
        ruling: Ruling::Rejected,
    });
    let mut other = log.clone();
    other.push(san(B, "Nc6"));
    assert_eq!(
        rule(C, &other),
        (
            9,
            EventRule::DeclaredMoveNotPlayed {
                by: B,
                declared: "Ng8".into(),
                played: "Nc6".into()
            }
        )
    );
    // the knight comes from f6: Nfg8 and Nf6g8 are Ng8 written with its departure
    for written in ["Nfg8", "Nf6g8", "Ng8+"] {
        let mut otherwise = log.clone();
        otherwise.push(san(B, written));
        assert_eq!(ok(C, &otherwise).declared, None, "{written}");
    }
    log.push(san(B, "Ng8"));
    let s = ok(C, &log);
    assert_eq!(s.declared, None);
    assert_eq!(s.added_seconds, [120, 0]);
    // only that one move: the game goes on freely afterwards
    log.extend([san(W, "Nf3"), san(B, "Nc6")]);
    ok(C, &log);
    // a draughts claim declares no move here
    let e = rule(
        D,
        &[GameEvent::Claim {
            by: W,
            kind: ClaimKind::DraughtsRepetition,
            declared_move: Some("32-28".into()),
        }],
    );
    assert_eq!(
        e,
        (
            0,
            EventRule::NoDeclaredMove {
                kind: ClaimKind::DraughtsRepetition
            }
        )
    );
}
