//! The per-game event log (docs/rules/arbiter.md#game-events, docs/rules/arbiter.md#draughts-claims): moves, chess draw offers, draughts proposals of
//! draw / plusremise / minremise with acceptance or rejection (by words or by making a move),
//! claims, arbiter decisions and time added. [`apply`] replays a log and checks a new event
//! against the rules, naming the rule it breaks.
//!
//! Rules enforced (seed 000 for draughts, FIDE Laws 9.1.2 for chess):
//! - a draughts proposal belongs right after the proposer's move, before the opponent moves;
//!   one made at another moment is irregular but valid (recorded as such, the arbiter may
//!   warn): it may be accepted, and stands until rejected or until either player moves;
//! - an offer or proposal cannot be withdrawn; only the opponent accepts or rejects it; a move
//!   by the opponent rejects it;
//! - a rejected draughts proposer may not make the same proposal again unless the opponent
//!   has since made that same proposal;
//! - a draw agreed in draughts before both players made 40 moves is lost for both (0-0);
//! - claims by the player to move; a decision on a claim is final (only a quickplay-finish
//!   claim may first be postponed); a rejected chess claim gives the opponent two minutes;
//! - after a chess claim (a) that declares a move, the claimant's next move is that move,
//!   whatever the claim's outcome (FIDE 9.5.3).

use super::Colour;
use serde::{Deserialize, Serialize};

mod rules;
pub use rules::{EventRule, RuleViolation};

/// Which game is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    /// Chess (FIDE Laws).
    Chess,
    /// International draughts (KNDB regulations).
    Draughts,
}

/// A draughts proposal, named from the proposer's standpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProposalKind {
    /// A draw (1-1).
    Draw,
    /// The proposer books a plusremise (1+), the opponent a minremise.
    Plusremise,
    /// The proposer books a minremise (1-), the opponent a plusremise.
    Minremise,
}

/// How a game ends through this log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "outcome")]
pub enum GameEnding {
    /// Drawn (chess ½-½, draughts 1-1).
    Draw,
    /// Draughts: a plusremise for `side`, a minremise for the other.
    Plusremise {
        /// The side with the plusremise.
        side: Colour,
    },
    /// Draughts: declared lost for both (0-0), e.g. a draw agreed before 40 moves each.
    BothLost,
    /// Chess: won by `side`, e.g. after the opponent's second illegal move (FIDE 7.5.5).
    Win {
        /// The winner.
        side: Colour,
    },
}

/// What a claim is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimKind {
    /// Chess: threefold repetition (FIDE 9.2).
    ThreefoldRepetition,
    /// Chess: fifty-move rule (FIDE 9.3).
    FiftyMoves,
    /// Chess: quickplay finish (FIDE 10.2).
    QuickplayFinish,
    /// Draughts: the same position for the third time, or one that can be made again.
    DraughtsRepetition,
    /// Draughts: 25 moves each without capture or man move.
    DraughtsTwentyFiveMoves,
    /// Draughts: the 16- or 5-move endgame limit reached.
    DraughtsEndgameLimit,
    /// Draughts: a lasting advantage of at least three men (a king counts as two) — the
    /// material is checked from the moves, whether it lasts is the arbiter's judgement.
    DraughtsLastingAdvantage,
    /// Chess, rapid and blitz (FIDE A.4.2, B.3): the move just completed was illegal. Made by
    /// the opponent of the player who moved, before making their own move; the illegal move
    /// itself is not in the log (the position before it stands).
    IllegalMove,
}

impl ClaimKind {
    /// The game the claim belongs to: chess or draughts.
    pub fn game(self) -> GameKind {
        match self {
            ClaimKind::ThreefoldRepetition
            | ClaimKind::FiftyMoves
            | ClaimKind::QuickplayFinish
            | ClaimKind::IllegalMove => GameKind::Chess,
            _ => GameKind::Draughts,
        }
    }
}

/// The arbiter's ruling on a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "ruling")]
pub enum Ruling {
    /// The claim is right: the game ends with `outcome`.
    Upheld {
        /// The result (a draw, or in draughts a plusremise).
        outcome: GameEnding,
    },
    /// The claim is wrong: the game goes on.
    Rejected,
    /// Quickplay finish only: decided later; the opponent may get two minutes now.
    Postponed {
        /// Whether the opponent gets two extra minutes now.
        opponent_two_minutes: bool,
    },
    /// Illegal-move claim only: upheld for a first illegal move; the position before it
    /// stands, the player who made it moves again, and the claimant gets `seconds` more
    /// (FIDE 7.5.5). The game goes on.
    ExtraTime {
        /// Seconds added to the claimant's clock (1 to [`MAX_TIME_ADDED`]).
        seconds: u32,
    },
}

/// One event at the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum GameEvent {
    /// A move (notation optional; the log does not check legality).
    Move {
        /// Who moved.
        by: Colour,
        /// The move as written, if known.
        #[serde(default)]
        notation: Option<String>,
    },
    /// Chess: a draw offer ("=" on the score sheet).
    DrawOffer {
        /// The offering player.
        by: Colour,
    },
    /// Draughts: a proposal of draw, plusremise or minremise.
    Proposal {
        /// The proposing player.
        by: Colour,
        /// What is proposed, from the proposer's standpoint.
        kind: ProposalKind,
    },
    /// The pending offer or proposal is accepted.
    Accept {
        /// The accepting player.
        by: Colour,
    },
    /// The pending offer or proposal is rejected in words.
    Reject {
        /// The rejecting player.
        by: Colour,
    },
    /// An attempt to withdraw one's own offer or proposal (never allowed).
    Withdraw {
        /// The player trying to withdraw.
        by: Colour,
    },
    /// A claim by the player to move.
    Claim {
        /// The claimant.
        by: Colour,
        /// What is claimed.
        kind: ClaimKind,
        /// Chess claims (a) of FIDE 9.2 / 9.3: the move the claimant wrote down and declared;
        /// whatever the claim's outcome, it is the claimant's next move (FIDE 9.5.3).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        declared_move: Option<String>,
    },
    /// The arbiter's decision on the claim at log index `claim`.
    Decision {
        /// Index in the log of the claim event.
        claim: usize,
        /// The ruling.
        ruling: Ruling,
    },
    /// The arbiter adds time to a player's clock.
    TimeAdded {
        /// Whose clock.
        to: Colour,
        /// Seconds added (more than 0).
        seconds: u32,
    },
}

/// A pending offer or proposal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// Who made it.
    pub by: Colour,
    /// The result it proposes.
    pub outcome: GameEnding,
    /// The draughts proposal as made (`None` for a chess draw offer).
    pub kind: Option<ProposalKind>,
    /// Log index of the offer.
    pub event: usize,
    /// False for an offer or proposal not made right after the offerer's own move: still
    /// valid (FIDE 9.1.2.2; KNDB), but the arbiter may warn (FIDE 11.5).
    pub regular: bool,
}

/// Where a claim stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimStatus {
    /// Waiting for the arbiter (the game is stopped).
    Pending,
    /// Quickplay finish postponed (the game goes on).
    Postponed,
    /// Final: upheld.
    Upheld,
    /// Final: rejected.
    Rejected,
}

/// A claim and where it stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimRecord {
    /// Log index of the claim.
    pub event: usize,
    /// The claimant.
    pub by: Colour,
    /// What is claimed.
    pub kind: ClaimKind,
    /// Where it stands.
    pub status: ClaimStatus,
    /// Seconds given to the claimant's opponent because of this claim.
    pub opponent_extra_seconds: u32,
}

/// The most time one `time_added` event may give (one hour).
pub const MAX_TIME_ADDED: u32 = 3600;

/// The state of a game after its events.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    /// Chess or draughts.
    pub game: GameKind,
    /// Number of events applied.
    pub events: usize,
    /// The player to move.
    pub to_move: Colour,
    /// Moves made by White and by Black.
    pub moves: [u32; 2],
    /// Who made the last move, if any.
    pub last_mover: Option<Colour>,
    /// The offer or proposal waiting for an answer.
    pub pending: Option<Pending>,
    /// Draughts proposals a side may not make again: (proposer, kind of proposal).
    pub barred: Vec<(Colour, ProposalKind)>,
    /// Every claim so far.
    pub claims: Vec<ClaimRecord>,
    /// Seconds added to White's and Black's clocks (by the arbiter or after claims).
    pub added_seconds: [u32; 2],
    /// The result, once the game has ended through this log.
    pub result: Option<GameEnding>,
    /// A move declared in a chess claim (a), not yet played: the claimant must play it next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared: Option<Declared>,
}

/// A move declared in a chess claim, which must be the claimant's next move (FIDE 9.5.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Declared {
    /// The claimant.
    pub by: Colour,
    /// The declared move as written (SAN).
    pub notation: String,
}

/// Whether a move played is the move declared, compared as moves: SAN by what it says (piece,
/// squares, promotion; `Nc6` and `Nbc6`, `Nf3+` and `Nf3`, `0-0` and `O-O` are the same move,
/// see `san::same_written_move`), any other notation (draughts) as text without check, mate and
/// annotation marks.
pub(crate) fn same_san(a: &str, b: &str) -> bool {
    super::san::same_written_move(a, b).unwrap_or_else(|| {
        let norm = |s: &str| -> String {
            s.trim()
                .trim_end_matches(['+', '#', '!', '?'])
                .replace('0', "O")
        };
        norm(a) == norm(b)
    })
}

fn idx(s: Colour) -> usize {
    match s {
        Colour::White => 0,
        Colour::Black => 1,
    }
}

impl GameState {
    /// A game before any event, White to move.
    pub fn new(game: GameKind) -> GameState {
        GameState {
            game,
            events: 0,
            to_move: Colour::White,
            moves: [0, 0],
            last_mover: None,
            pending: None,
            barred: Vec::new(),
            claims: Vec::new(),
            added_seconds: [0, 0],
            result: None,
            declared: None,
        }
    }

    /// The state after `event`, or the rule it breaks.
    pub fn apply(&self, event: &GameEvent) -> Result<GameState, RuleViolation> {
        let mut s = self.clone();
        s.step(event).map_err(|rule| RuleViolation {
            event: self.events,
            rule,
        })?;
        s.events += 1;
        Ok(s)
    }

    /// How many illegal moves of `offender` were upheld in this game (FIDE 7.5.5 counts
    /// them per player).
    pub fn upheld_illegal_moves(&self, offender: Colour) -> u32 {
        self.claims
            .iter()
            .filter(|c| {
                c.kind == ClaimKind::IllegalMove
                    && c.status == ClaimStatus::Upheld
                    && c.by == offender.opposite()
            })
            .count() as u32
    }

    fn open_claim(&self) -> Option<&ClaimRecord> {
        self.claims
            .iter()
            .find(|c| c.status == ClaimStatus::Pending)
    }

    fn check_outcome(&self, outcome: GameEnding) -> Result<(), EventRule> {
        let chess = matches!(outcome, GameEnding::Draw | GameEnding::Win { .. });
        let draughts = !matches!(outcome, GameEnding::Win { .. });
        if (self.game == GameKind::Chess && !chess)
            || (self.game == GameKind::Draughts && !draughts)
        {
            return Err(EventRule::OutcomeNotInGame {
                outcome,
                game: self.game,
            });
        }
        Ok(())
    }

    fn step(&mut self, event: &GameEvent) -> Result<(), EventRule> {
        if self.result.is_some() {
            return Err(EventRule::GameOver);
        }
        match *event {
            GameEvent::Move { by, ref notation } => {
                if by != self.to_move {
                    return Err(EventRule::MoveOutOfTurn { by });
                }
                if let Some(c) = self.open_claim() {
                    return Err(EventRule::ClaimAwaitingDecision { claim: c.event });
                }
                // FIDE 9.5.3: after a claim (a) the declared move is the move played (a move
                // recorded without notation cannot be compared and is taken as that move)
                if let Some(d) = self.declared.take()
                    && let Some(played) = notation
                    && !same_san(played, &d.notation)
                {
                    return Err(EventRule::DeclaredMoveNotPlayed {
                        by,
                        declared: d.notation,
                        played: played.clone(),
                    });
                }
                // a move by the opponent rejects the pending offer or proposal; a move by the
                // proposer ends an irregular draughts proposal without rejecting it (KNDB: it
                // stands until rejected or until either player moves)
                if let Some(p) = self.pending {
                    if p.by != by {
                        self.reject(p);
                    } else if p.kind.is_some() {
                        self.pending = None;
                    }
                }
                self.moves[idx(by)] += 1;
                self.last_mover = Some(by);
                self.to_move = by.opposite();
            }
            GameEvent::DrawOffer { by } => {
                if self.game != GameKind::Chess {
                    return Err(EventRule::WrongGame { game: self.game });
                }
                if let Some(p) = self.pending {
                    return Err(EventRule::OfferPending { event: p.event });
                }
                self.pending = Some(Pending {
                    by,
                    outcome: GameEnding::Draw,
                    kind: None,
                    event: self.events,
                    regular: self.last_mover == Some(by) && self.to_move != by,
                });
            }
            GameEvent::Proposal { by, kind } => {
                if self.game != GameKind::Draughts {
                    return Err(EventRule::WrongGame { game: self.game });
                }
                if let Some(p) = self.pending {
                    return Err(EventRule::OfferPending { event: p.event });
                }
                let outcome = match kind {
                    ProposalKind::Draw => GameEnding::Draw,
                    ProposalKind::Plusremise => GameEnding::Plusremise { side: by },
                    ProposalKind::Minremise => GameEnding::Plusremise {
                        side: by.opposite(),
                    },
                };
                // "The same proposal" is the same kind of proposal (draw, plusremise,
                // minremise) as the regulation names them (seed 000; decision, docs/rules/arbiter.md#game-events).
                if self.barred.contains(&(by, kind)) {
                    return Err(EventRule::RepeatedRejectedProposal { by, kind });
                }
                // the opponent may again make this kind of proposal, since this player made it
                self.barred.retain(|b| *b != (by.opposite(), kind));
                self.pending = Some(Pending {
                    by,
                    outcome,
                    kind: Some(kind),
                    event: self.events,
                    // made other than right after one's own move: irregular but valid (the
                    // arbiter may warn); it stands until rejected or until a move is made
                    regular: self.last_mover == Some(by) && self.to_move != by,
                });
            }
            GameEvent::Accept { by } => {
                let p = self.pending.ok_or(EventRule::NothingToAnswer)?;
                if p.by == by {
                    return Err(EventRule::OwnOffer { by });
                }
                self.pending = None;
                self.result = Some(self.agreed(p.outcome));
            }
            GameEvent::Reject { by } => {
                let p = self.pending.ok_or(EventRule::NothingToAnswer)?;
                if p.by == by {
                    return Err(EventRule::OwnOffer { by });
                }
                self.reject(p);
            }
            GameEvent::Withdraw { .. } => return Err(EventRule::CannotWithdraw),
            GameEvent::Claim {
                by,
                kind,
                ref declared_move,
            } => {
                if kind.game() != self.game {
                    return Err(EventRule::WrongGame { game: self.game });
                }
                // the illegal move is completed but not logged: the player who made it is
                // still to move in the log, the claimant is the other
                if kind == ClaimKind::IllegalMove {
                    if by == self.to_move {
                        return Err(EventRule::IllegalMoveClaimByMover { by });
                    }
                } else if by != self.to_move {
                    return Err(EventRule::ClaimNotOnMove { by });
                }
                let open = self.claims.iter().find(|c| {
                    c.status == ClaimStatus::Pending
                        || (c.status == ClaimStatus::Postponed && c.kind == kind)
                });
                if let Some(c) = open {
                    return Err(EventRule::ClaimOpen { claim: c.event });
                }
                if let Some(m) = declared_move {
                    if !matches!(kind, ClaimKind::ThreefoldRepetition | ClaimKind::FiftyMoves) {
                        return Err(EventRule::NoDeclaredMove { kind });
                    }
                    self.declared = Some(Declared {
                        by,
                        notation: m.clone(),
                    });
                }
                self.claims.push(ClaimRecord {
                    event: self.events,
                    by,
                    kind,
                    status: ClaimStatus::Pending,
                    opponent_extra_seconds: 0,
                });
            }
            GameEvent::Decision { claim, ruling } => self.decide(claim, ruling)?,
            GameEvent::TimeAdded { to, seconds } => {
                if seconds == 0 {
                    return Err(EventRule::NoTimeAdded);
                }
                if seconds > MAX_TIME_ADDED {
                    return Err(EventRule::TooMuchTimeAdded {
                        max: MAX_TIME_ADDED,
                    });
                }
                let total = &mut self.added_seconds[idx(to)];
                *total = total.saturating_add(seconds);
            }
        }
        Ok(())
    }

    fn reject(&mut self, p: Pending) {
        self.pending = None;
        // KNDB: the rejected proposer may not repeat it; chess draw offers have no such bar
        if let Some(kind) = p.kind
            && !self.barred.contains(&(p.by, kind))
        {
            self.barred.push((p.by, kind));
        }
    }

    /// The result of an agreement: in draughts, a draw (also a plus/minremise) agreed before
    /// both players made 40 moves is lost for both (seed 000; docs/rules/draughts-championship.md#the-40-move-rule).
    fn agreed(&self, outcome: GameEnding) -> GameEnding {
        if self.game == GameKind::Draughts && self.moves.iter().any(|m| *m < 40) {
            GameEnding::BothLost
        } else {
            outcome
        }
    }

    fn decide(&mut self, claim: usize, ruling: Ruling) -> Result<(), EventRule> {
        let game = self.game;
        let pos = self
            .claims
            .iter()
            .position(|c| c.event == claim)
            .ok_or(EventRule::UnknownClaim { claim })?;
        let c = &self.claims[pos];
        if matches!(c.status, ClaimStatus::Upheld | ClaimStatus::Rejected) {
            return Err(EventRule::AlreadyDecided {
                claim,
                status: c.status,
            });
        }
        let opponent = c.by.opposite();
        // FIDE 9.5.3 / Guidelines III.4: a rejected chess claim gives the opponent two
        // minutes; for a quickplay claim, once (not again after a postponement that gave them).
        let two_minutes = game == GameKind::Chess
            && c.opponent_extra_seconds == 0
            && c.kind != ClaimKind::IllegalMove;
        let claimant = c.by;
        match ruling {
            Ruling::Upheld { outcome } => {
                self.check_outcome(outcome)?;
                self.claims[pos].status = ClaimStatus::Upheld;
                self.result = Some(outcome);
                self.pending = None;
            }
            Ruling::Rejected => {
                self.claims[pos].status = ClaimStatus::Rejected;
                if two_minutes {
                    self.claims[pos].opponent_extra_seconds = 120;
                    self.added_seconds[idx(opponent)] += 120;
                }
            }
            Ruling::ExtraTime { seconds } => {
                if c.kind != ClaimKind::IllegalMove {
                    return Err(EventRule::ExtraTimeOnlyForIllegalMoves { claim });
                }
                if seconds == 0 || seconds > MAX_TIME_ADDED {
                    return Err(EventRule::TooMuchTimeAdded {
                        max: MAX_TIME_ADDED,
                    });
                }
                self.claims[pos].status = ClaimStatus::Upheld;
                let total = &mut self.added_seconds[idx(claimant)];
                *total = total.saturating_add(seconds);
            }
            Ruling::Postponed {
                opponent_two_minutes,
            } => {
                if c.kind != ClaimKind::QuickplayFinish || c.status == ClaimStatus::Postponed {
                    return Err(EventRule::CannotPostpone { claim });
                }
                self.claims[pos].status = ClaimStatus::Postponed;
                if opponent_two_minutes {
                    self.claims[pos].opponent_extra_seconds = 120;
                    self.added_seconds[idx(opponent)] += 120;
                }
            }
        }
        Ok(())
    }
}

/// A log being extended: its events with the state after them, so that each new event is
/// checked against that state alone. Opening replays the log once; every event pushed
/// afterwards is applied once, never by replaying what came before (a claim that brings a
/// long log up to its record costs time linear in the moves it adds).
#[derive(Debug, Clone)]
pub struct EventLog {
    events: Vec<GameEvent>,
    state: GameState,
    applied: usize,
}

impl EventLog {
    /// Replays `events` (each once), or the first rule one of them breaks.
    pub fn open(game: GameKind, events: Vec<GameEvent>) -> Result<EventLog, RuleViolation> {
        let mut log = EventLog {
            events: Vec::with_capacity(events.len()),
            state: GameState::new(game),
            applied: 0,
        };
        for e in events {
            log.push(e)?;
        }
        Ok(log)
    }

    /// Applies `event` to the state after the log and appends it; unchanged when it breaks
    /// a rule.
    pub fn push(&mut self, event: GameEvent) -> Result<&GameState, RuleViolation> {
        self.applied += 1;
        self.state = self.state.apply(&event)?;
        self.events.push(event);
        Ok(&self.state)
    }

    /// The state after the log.
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// The events in order.
    pub fn events(&self) -> &[GameEvent] {
        &self.events
    }

    /// How many events have been applied since the log was opened (the replay included):
    /// the work done, which is the log's length when nothing was applied twice.
    pub fn applied(&self) -> usize {
        self.applied
    }
}

/// Replays `log` for a `game` and applies `new_event`: the state after it, or the first rule
/// broken (by an event of the log or by the new event), with its log index.
pub fn apply(
    game: GameKind,
    log: &[GameEvent],
    new_event: &GameEvent,
) -> Result<GameState, RuleViolation> {
    replay(game, log)?.apply(new_event)
}

/// Replays a whole log from the start.
pub fn replay(game: GameKind, log: &[GameEvent]) -> Result<GameState, RuleViolation> {
    log.iter().try_fold(GameState::new(game), |s, e| s.apply(e))
}

#[cfg(test)]
#[path = "events_tests.rs"]
mod tests;
