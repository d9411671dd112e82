//! Pure rule engines for chess and draughts club competitions: plain data in, plain data out.
//! No web framework, no database, no clock, and randomness only from a seed passed in, so
//! every rule can be tested without a server and reused by the command line. The rules as a
//! competition leader reads them are in the repository's rules book (`docs/rules/`).
//!
//! | module | what it computes |
//! |---|---|
//! | [`keizer`] | Keizer standings with recalculation, entrants, pairing, prizes, playoffs |
//! | [`swiss`] | FIDE TRF files and the FIDE Dutch system |
//! | [`double_swiss`] | the FIDE Double-Swiss system (two games per round) |
//! | [`round_robin`] | Berger schedules and round-robin standings (the KNDB chain) |
//! | [`tiebreaks`] | FIDE tie-breaks (C.07) |
//! | [`calendar`], [`attendance`] | the season calendar, sign-up deadlines |
//! | [`arbiter`] | chess and draughts moves, claims, a game's tempo, game events, appeals |
//! | [`matching`] | maximum-weight and maximum-cardinality matching, shared by the pairings |
//! | [`blitz`] | rapid and blitz: the number of Swiss rounds, the playoff for first place |
//!
//! At the root: the shared vocabulary of the engines and the service ([`Colour`], [`Half`],
//! [`Discipline`], [`Membership`], [`CompetitionKind`], [`PairingSystem`], [`EveningKind`]),
//! exact decimals in ten-thousandths ([`Fixed`]) and the cancellation hook of the long
//! computations ([`Stop`], [`Never`]). Everything public is reached through these paths; the
//! modules behind them are private, so their layout can change without breaking a user.
//!
//! # Keizer standings
//!
//! The worked evening of the rules book (`docs/rules/keizer.md`): Anna and Bram draw, Dirk
//! beats Cor, Eva is excused. The recalculation cycles between two orders, and the scores are
//! averaged over the cycle.
//!
//! ```
//! use clubcomp_engine::keizer::run_scenario_str;
//!
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/formats/examples/keizer-one-evening.json");
//! let text = std::fs::read_to_string(path).expect("the rules book's example file");
//! let out = run_scenario_str(&text).unwrap();
//! let evening = &out.evenings[0];
//! assert!(!evening.converged);
//! assert_eq!(evening.cycle_length, Some(2));
//! assert_eq!(evening.iterations, 4);
//! let table: Vec<(u32, &str, i64, String)> = evening
//!     .standings
//!     .iter()
//!     .map(|r| (r.rank, r.id.as_str(), r.value, r.score.to_string()))
//!     .collect();
//! assert_eq!(
//!     table,
//!     [
//!         (1, "dirk", 60, "56.0000".to_string()),
//!         (2, "bram", 59, "29.2500".to_string()),
//!         (3, "anna", 58, "29.2500".to_string()),
//!         (4, "eva", 57, "18.9981".to_string()),
//!         (5, "cor", 56, "5.0000".to_string()),
//!     ]
//! );
//! ```
//!
//! # Keizer pairing
//!
//! Five present players, one of them (fleur) new and placed by rating; dirk and eva met on
//! evening 11, so the cheapest allowed pairing is bram–dirk and fleur–eva (cost 2² + 2² = 8).
//!
//! ```
//! use clubcomp_engine::keizer::{PairingInput, pair_evening};
//!
//! let input: PairingInput = serde_json::from_value(serde_json::json!({
//!     "evening": 12, "half": "summer", "bye_seed": 20261204,
//!     "ranking": [
//!         {"id": "anna", "rating": 1980, "present": true, "colours": ["W", "B", "W"]},
//!         {"id": "bram", "rating": 1850, "present": true, "colours": ["B", "W", "B"], "byes_this_half": 1},
//!         {"id": "cor", "rating": 1720, "present": false},
//!         {"id": "dirk", "rating": 1690, "present": true, "colours": ["W", "W", "B"]},
//!         {"id": "eva", "rating": 1600, "present": true, "colours": ["B", "B"]},
//!         {"id": "fleur", "rating": 1800, "present": true, "first_time": true}
//!     ],
//!     "history": [
//!         {"a": "anna", "b": "bram", "evening": 8, "half": "winter"},
//!         {"a": "dirk", "b": "eva", "evening": 11, "half": "summer"}
//!     ]
//! }))
//! .unwrap();
//! let p = pair_evening(&input).unwrap();
//! assert_eq!(p.order, ["anna", "bram", "fleur", "dirk", "eva"]);
//! let boards: Vec<(&str, &str)> =
//!     p.boards.iter().map(|b| (b.white.as_str(), b.black.as_str())).collect();
//! assert_eq!(boards, [("bram", "dirk"), ("eva", "fleur")]);
//! assert_eq!(p.bye.unwrap().player, "anna");
//! assert_eq!(p.cost, 8);
//! ```
//!
//! # Dutch pairing from a TRF file
//!
//! One of the reference tournaments paired by bbpPairings (`tests/data/dutch`): the engine
//! reproduces its pairing of round 2, boards in the same order.
//!
//! ```
//! use clubcomp_engine::swiss::{next_round, pair_round, parse_trf};
//!
//! let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dutch/t1000-n10-r5");
//! let text = std::fs::read_to_string(format!("{dir}/round-02.trf")).unwrap();
//! let tournament = parse_trf(&text).unwrap();
//! let round = next_round(&tournament);
//! assert_eq!(round, 2);
//! let boards = pair_round(&tournament, round).unwrap();
//! let pairs: Vec<(u32, u32)> =
//!     boards.iter().map(|b| (b.white, b.black.unwrap_or(0))).collect();
//! assert_eq!(pairs, [(4, 1), (2, 3), (6, 5), (10, 7), (8, 9)]);
//! ```
//!
//! # Double-Swiss
//!
//! Round 1 of five players: the bye goes to the lowest-ranked, neighbours meet, and the
//! higher-ranked player has White in game 1 on odd boards.
//!
//! ```
//! use clubcomp_engine::double_swiss::{State, pair_next_round};
//!
//! let state: State = serde_json::from_value(serde_json::json!({
//!     "players": [{"id": 1}, {"id": 2}, {"id": 3}, {"id": 4}, {"id": 5}]
//! }))
//! .unwrap();
//! let next = pair_next_round(&state).unwrap();
//! assert_eq!(next.round, 1);
//! let matches: Vec<(u32, u32)> = next.pairings.iter().map(|m| (m.white, m.black)).collect();
//! assert_eq!(matches, [(1, 2), (4, 3)]);
//! assert_eq!(next.bye, Some(5));
//! ```
//!
//! # Round robin
//!
//! The worked championship of the rules book (`docs/rules/draughts-championship.md`): an
//! agreed draw before move 40 is lost for both, Arie is placed above Cees by their mutual
//! result, and the two share the master points and prize money of places 2 and 3.
//!
//! ```
//! use clubcomp_engine::round_robin::{Scenario, compute};
//!
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/formats/examples/draughts-championship.json");
//! let s: Scenario = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
//! let out = compute(&s).unwrap();
//! let rows: Vec<(&str, u32, String, &str, &str)> = out
//!     .standings
//!     .iter()
//!     .map(|r| {
//!         let master = r.points_tables.get("master").unwrap().as_str();
//!         (r.id.as_str(), r.place, r.points.to_string(), master, r.prize_money.as_str())
//!     })
//!     .collect();
//! assert_eq!(
//!     rows,
//!     [
//!         ("bert", 1, "4".to_string(), "5", "1000"),
//!         ("arie", 2, "3".to_string(), "3.5", "500"),
//!         ("cees", 3, "3".to_string(), "3.5", "500"),
//!         ("dick", 4, "0".to_string(), "2", "200"),
//!     ]
//! );
//! assert_eq!(out.standings[1].decided_by.as_deref(), Some("mutual"));
//! ```
//!
//! # Tie-breaks
//!
//! Two rounds of four players: 1 beats 3 and draws with 2; 2 also draws with 4; 3 beats 4.
//! Players 2 and 3 both have 1 point; Sonneborn-Berger puts 2 (two draws against 0.5 and
//! 1.5 points: 0.25 + 0.75) above 3 (a win against 0.5 points).
//!
//! ```
//! use clubcomp_engine::tiebreaks::{Input, compute_tiebreaks, parse_tiebreaks};
//!
//! let game = |opponent: u32, colour: &str, outcome: &str| {
//!     serde_json::json!({"opponent": opponent, "colour": colour, "outcome": outcome})
//! };
//! let input: Input = serde_json::from_value(serde_json::json!({"players": [
//!     {"id": 1, "rounds": [game(3, "white", "win"), game(2, "black", "draw")]},
//!     {"id": 2, "rounds": [game(4, "white", "draw"), game(1, "white", "draw")]},
//!     {"id": 3, "rounds": [game(1, "black", "loss"), game(4, "white", "win")]},
//!     {"id": 4, "rounds": [game(2, "black", "draw"), game(3, "black", "loss")]}
//! ]}))
//! .unwrap();
//! let standings = compute_tiebreaks(&input, &parse_tiebreaks("PTS,SB").unwrap()).unwrap();
//! let rows: Vec<(u32, String, String)> = standings
//!     .rows
//!     .iter()
//!     .map(|r| (r.id, r.values[0].unwrap().to_string(), r.values[1].unwrap().to_string()))
//!     .collect();
//! assert_eq!(
//!     rows,
//!     [
//!         (1, "1.5000".to_string(), "1.5000".to_string()),
//!         (2, "1.0000".to_string(), "1.0000".to_string()),
//!         (3, "1.0000".to_string(), "0.5000".to_string()),
//!         (4, "0.5000".to_string(), "0.5000".to_string()),
//!     ]
//! );
//! ```
//!
//! # Arbiter claims
//!
//! Both knights go out and back twice: the starting position stands on the board for the
//! third time, with White to move, so White's claim (FIDE 9.2, claim (b)) is valid.
//!
//! ```
//! use clubcomp_engine::arbiter::{ChessMoves, RepetitionClaim, check_repetition};
//!
//! let moves = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"];
//! let claim = RepetitionClaim {
//!     start_fen: None,
//!     moves: ChessMoves::San(moves.iter().map(|m| m.to_string()).collect()),
//!     declared_move: None,
//! };
//! let verdict = check_repetition(&claim).unwrap();
//! assert!(verdict.valid);
//! assert_eq!(verdict.occurrences, 3);
//! assert_eq!(verdict.earlier.len(), 2);
//! ```

#![warn(missing_docs)]

// The implementation modules are private; the public API is the re-exports below (at the
// root and in the facade modules, which hold nothing but `pub use` lines). See
// docs/decisions/0154-engine-public-api.md.
#[path = "arbiter/mod.rs"]
mod arbiter_impl;
#[path = "attendance.rs"]
mod attendance_impl;
#[path = "blitz.rs"]
mod blitz_impl;
#[path = "calendar.rs"]
mod calendar_impl;
#[path = "double_swiss/mod.rs"]
mod double_swiss_impl;
mod fixed;
#[path = "keizer/mod.rs"]
mod keizer_impl;
#[path = "matching/mod.rs"]
mod matching_impl;
#[cfg(test)]
mod parser_fuzz;
#[path = "round_robin/mod.rs"]
mod round_robin_impl;
mod stop;
#[path = "swiss/mod.rs"]
mod swiss_impl;
#[path = "tiebreaks/mod.rs"]
mod tiebreaks_impl;
mod vocab;

pub use fixed::{Fixed, FixedError};
pub use stop::{Never, Stop};
pub use vocab::{
    Colour, CompetitionKind, Discipline, EveningKind, Half, Membership, PairingSystem, UnknownValue,
};

pub mod keizer {
    //! The Keizer internal competition (`docs/rules/keizer.md`): standings with recalculation
    //! until the ranking settles, the scenario format of `clubcomp calc keizer`, entrants,
    //! pairing of an evening, prizes and the playoffs for tied prizes.
    pub use crate::keizer_impl::entry::{insert_entrant, insertion_index};
    pub use crate::keizer_impl::pairing::{
        Board, Broken, ByeDraw, HandBoard, HandPairing, Meeting, Pairing, PairingError,
        PairingInput, PlayerId, RankedPlayer, Rule, Rules, Violation, high_gets_white,
        pair_evening, pairing_order, validate_pairing,
    };
    pub use crate::keizer_impl::playoffs::{
        EnteredResult, GameState, GroupState, MatchId, MatchState, PlayoffDraw, PlayoffError,
        PlayoffGameResult, PlayoffGroup, better_seed_has_white, group_state, playoff_groups,
    };
    pub use crate::keizer_impl::preview::{
        MAX_PLAYOFF_RESULTS, PlayoffPreview, PlayoffResultInput, PrizePreview, prizes_preview,
    };
    pub use crate::keizer_impl::prizes::{
        Award, Prize, PrizeCandidate, PrizeOutcome, WithdrawnPrizes, award, candidates,
    };
    pub use crate::keizer_impl::scenario::{
        Output, ScenarioError, parse_result, parse_scenario, run_scenario, run_scenario_str,
        run_scenario_until,
    };
    pub use crate::keizer_impl::standings::{
        Competition, Entrant, Evening, EveningStandings, Game, GameResult, MAX_STEPS, Params,
        SeasonCarry, StandingRow, StandingsError, compute, compute_until, summer_start,
        value_of_place,
    };
}

pub mod swiss {
    //! Swiss pairing (`docs/rules/rapid-blitz.md`): the FIDE TRF reader and writer, the FIDE
    //! Dutch system (C.04.3) with acceleration (`XXA`, `250`, the Baku method) and forbidden
    //! pairs (`XXP`), and a generator of random tournaments for tests and benchmarks.
    pub use crate::swiss_impl::baku::{baku_accelerations, baku_group_a};
    pub use crate::swiss_impl::dutch::{
        Blocked, BlockedPlayer, Board, PairError, next_round, pair_round, pair_round_until,
    };
    pub use crate::swiss_impl::dutch::{Breach, Difference, Incomplete, Verdict, check_tournament};
    pub use crate::swiss_impl::generate::random_tournament;
    pub use crate::swiss_impl::simulate::{
        ConfigError, GeneratorConfig, generate_tournament, parse_config,
    };
    pub use crate::swiss_impl::trf::{
        Accelerations, Line, MAX_ACCELERATED_ROUND, MAX_PLAYERS, Player, ResultCode, RoundEntry,
        Tournament, TrfError, accelerations, forbidden_pairs, format_player, parse_trf,
        virtual_points, write_trf,
    };
    pub use crate::swiss_impl::trf::{
        MAX_RESULT_POINTS, PointSystem, non_standard_point_line, point_system,
    };
}

pub mod double_swiss {
    //! The FIDE Double-Swiss system (C.04.5): every round a two-game match against one
    //! opponent; the tournament state in, the next round's matches and bye out.
    pub use crate::double_swiss_impl::{
        Bye, ByeKind, Error, GameResult, Match, NextRound, Pairing, Player, RoundRecord, State,
        pair_next_round,
    };
}

pub mod round_robin {
    //! Round robins and the Dutch draughts championship: Berger schedules, result codes,
    //! standings with an ordered tie-break list, points tables, shared prize money, rights and
    //! the cross table (the calculator behind `clubcomp calc round-robin`).
    pub use crate::round_robin_impl::result::AGREED_DRAW_MIN_MOVES;
    pub use crate::round_robin_impl::{
        Board, Conversion, Discipline, Error, Game, GameResult, OrderedMap, Output, Player,
        PointsTable, ResultError, Right, Row, Scenario, ScheduleError, ScheduledRound, SideOutcome,
        Termination, Tiebreak, Withdrawal, WithdrawalOutcome, WithdrawalRule, berger_table,
        compute, convert_result, default_tiebreaks, format_amount, schedule,
    };
}

pub mod tiebreaks {
    //! FIDE tie-breaks (C.07): the input per player and round, the tie-break list, and the
    //! standings they order; a reader from TRF files.
    pub use crate::tiebreaks_impl::trf::standard_scoring;
    pub use crate::tiebreaks_impl::trf::{
        TrfError, detect_event, edition_for, input_from_trf, read_trf, start_date,
    };
    pub use crate::tiebreaks_impl::{
        Cut, Error, EventKind, Input, MAX_CUT, PlayerResults, RoundOutcome, RoundResult,
        RulesEdition, Separation, StandingRow, Standings, Tiebreak, Value, compute_tiebreaks,
        parse_tiebreaks,
    };
}

pub mod calendar {
    //! The season calendar: the club evenings of a season proposed from its dates and
    //! exceptions.
    pub use crate::calendar_impl::{
        CalendarError, CalendarInput, Evening, FridayKind, friday_before,
        is_first_friday_of_january, playing_start, propose_calendar, rapid_start,
    };
}

pub mod attendance {
    //! Sign-up, excuse and check-in per round, with their deadlines: who is to be paired.
    pub use crate::attendance_impl::{
        Action, Attendance, AttendanceError, AttendanceInput, Attendee, Change, Channel,
        DeadlineRule, EveningType, PlayerAttendance, Recorder, Refusal, Status, attendance,
        deadline, local_to_utc, on_time_for_check_in,
    };
}

pub mod blitz {
    //! Rapid and blitz tournaments: the number of Swiss rounds, the blitz check-in's closing
    //! minute, and the playoff for first place.
    pub use crate::blitz_impl::{
        FirstPlaceTie, PlayoffDecision, PlayoffError, PlayoffGame, PlayoffResult, RoundsRule,
        checked_in_on_time, decide_playoff, first_place_candidates, first_place_playoff,
        standings_after_playoff, swiss_rounds,
    };
}

pub mod arbiter {
    //! Arbiter tools: the per-game event log and its validator, the chess threefold-repetition
    //! (FIDE 9.2) and fifty-move (9.3) checks, the quickplay-finish claim (10.2), international
    //! draughts, and appeals against arbiter decisions.
    pub use crate::arbiter_impl::appeals::APPEAL_DAYS;
    pub use crate::arbiter_impl::events::{
        ClaimRecord, ClaimStatus, Declared, MAX_TIME_ADDED, Pending,
    };
    pub use crate::arbiter_impl::repetition::{InvalidReason, RepetitionKind, record_moves};
    pub use crate::arbiter_impl::{
        Appeal, AppealError, AppealWindow, BoardRuling, ChessMoves, ClaimKind, EventLog,
        FiftyMovesClaim, FiftyMovesVerdict, GameEnding, GameEvent, GameKind, GameState, MAX_PLIES,
        MoveRef, Occurrence, ProposalKind, QuickplayClaim, QuickplayDecision, QuickplayState,
        RepetitionClaim, RepetitionError, RepetitionVerdict, Rule, RuleViolation, Ruling, Side,
        appeal_window, apply, board_decides, check_fifty_moves, check_quickplay_claim,
        check_repetition, lodge_appeal, move_number_of, replay,
    };

    pub mod quickplay {
        //! The quickplay-finish claim (FIDE 10.2): the time control, the claim and the
        //! arbiter's decision.
        pub use crate::arbiter_impl::quickplay::{
            ClaimStatus, DecisionError, EXTRA_SECONDS, Increment, Period, QuickplayClaim,
            QuickplayDecision, QuickplayState, Refusal, TWO_MINUTES_MS, TimeControl, check_claim,
            decide,
        };
    }

    pub mod tempo {
        //! The tempo a game may be played at: the competition's own, the Keizer's alternative
        //! by agreement, or a rapid game's shorter tempo of at least ten minutes.
        pub use crate::arbiter_impl::tempo::{
            GameTempo, RAPID_MINIMUM_MINUTES, TempoRefusal, TempoRule, check_game_tempo,
            keizer_alternative, same_tempo,
        };
    }

    pub mod draughts {
        //! International draughts (10×10): board and FEN, legal moves, PDN movetext, and the
        //! claim checks (repetition, 25 moves, the 16- and 5-move endgames).
        pub use crate::arbiter_impl::draughts::claims::{claim_verdict, endgame_status};
        pub use crate::arbiter_impl::draughts::{
            ClaimCheck, Colour, DraughtsClaim, DraughtsClaimRequest, DraughtsVerdict,
            EndgameCounter, EndgameKind, FenError, Game, Move, PdnError, Piece, Position,
            check_claim, legal_moves, perft, play, read_game,
        };
    }
}

pub mod matching {
    //! Matchings in general graphs, shared by the pairing engines: maximum-weight matching
    //! (with a warm start for re-solving), the maximum-weight matching among those of maximum
    //! cardinality, maximum-cardinality matching and the Gallai–Edmonds decomposition.
    pub use crate::matching_impl::cardinality::{
        Decomposition, Dense, Graph, decompose, matching_size, max_matching,
    };
    pub use crate::matching_impl::weighted::{
        MatchWeight, Matching, max_weight_matching, max_weight_max_cardinality,
    };
}
