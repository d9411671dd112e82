//! Claims (docs/rules/arbiter.md#draughts-claims, docs/rules/arbiter.md#quickplay-finish-fide-102): checked from the moves by the engines and decided at once, or
//! refused / opened for the arbiter (quickplay finish), and the arbiter's later decisions.

use super::*;
use crate::ids::{ClaimId, CompetitionId, EveningId, GameId};
use crate::store::models::events::{EventKind, NewEvent, Visibility};
use crate::vocab::ClaimKind;

/// The arbiter's decision on a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DecisionKind {
    /// The claim is upheld (chess: a draw).
    Accept,
    /// Quickplay finish only: decided later in the game or after a flag fall.
    Postpone,
    /// The claim is rejected (chess: the opponent gets two extra minutes).
    Reject,
}

/// A result an upheld claim gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeInput {
    /// A draw (chess ½-½, draughts 1-1).
    Draw,
    /// Draughts: plusremise for White, minremise for Black.
    PlusremiseWhite,
    /// Draughts: plusremise for Black, minremise for White.
    PlusremiseBlack,
}

impl From<OutcomeInput> for GameEnding {
    fn from(o: OutcomeInput) -> GameEnding {
        match o {
            OutcomeInput::Draw => GameEnding::Draw,
            OutcomeInput::PlusremiseWhite => GameEnding::Plusremise {
                side: Colour::White,
            },
            OutcomeInput::PlusremiseBlack => GameEnding::Plusremise {
                side: Colour::Black,
            },
        }
    }
}

/// A decision on a claim.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"decision": "postpone", "opponent_two_minutes": true}))]
pub struct DecisionInput {
    /// Accept, postpone (quickplay finish only) or reject.
    pub decision: DecisionKind,
    /// Postpone: whether the opponent gets two extra minutes now (default false).
    #[serde(default)]
    pub opponent_two_minutes: bool,
    /// Accept: the result (default: the checked verdict, else a draw).
    #[serde(default)]
    pub outcome: Option<OutcomeInput>,
    /// A note kept with the decision event (at most 500 characters).
    #[serde(default)]
    #[schema(max_length = 500)]
    pub note: Option<String>,
}

/// A claim brought to the arbiter.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"kind": "threefold_repetition", "declared_move": "Ng8"}))]
pub struct ClaimInput {
    /// What is claimed.
    #[schema(value_type = crate::vocab::ClaimType)]
    pub kind: ClaimKind,
    /// Claim (a): the move the claimant writes down and declares (SAN or PDN); absent for
    /// claim (b), the position now on the board with the claimant to move. At most 64
    /// characters.
    #[serde(default)]
    #[schema(max_length = 64)]
    pub declared_move: Option<String>,
    /// Illegal-move claim: the move claimed illegal, as made, in SAN (for example Ke2) or by
    /// its squares (for example e1e2); at most 16 characters. It is not entered as a move:
    /// the moves recorded end before it.
    #[serde(default)]
    #[schema(max_length = 16)]
    pub illegal_move: Option<String>,
    /// The moves up to the claim; the game's stored moves when absent.
    #[serde(default)]
    pub moves: Option<MovesInput>,
    /// Quickplay finish: the claimant (default: the player to move in the stored moves).
    #[serde(default)]
    #[schema(value_type = Option<super::doc::Colour>)]
    pub claimant: Option<Colour>,
    /// Quickplay finish: the claimant's time left in milliseconds.
    #[serde(default)]
    pub remaining_ms: Option<u64>,
    /// Quickplay finish: the claimant's current move number, 1–1000 (default: from the
    /// stored moves or the event log).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 1000)]
    pub move_number: Option<u32>,
    /// Quickplay finish: the arbiter's decision, when taken at once.
    #[serde(default)]
    pub decision: Option<DecisionInput>,
    /// A note kept with the claim event (at most 500 characters).
    #[serde(default)]
    #[schema(max_length = 500)]
    pub note: Option<String>,
}

// ---------------------------------------------------------------------------------------
// claims

/// One page of the claims of a game, oldest first (by id): `limit` claims from `offset`, and
/// how many there are in all, read in one transaction (404 when there is no such game).
pub fn claims_of(
    c: &mut DbConn,
    game: GameId,
    limit: i64,
    offset: i64,
) -> ApiResult<(Vec<ClaimRow>, i64)> {
    c.transaction(|c| {
        load_game(c, game)?;
        let of_game = || claims::table.filter(claims::game_id.eq(game));
        Ok(crate::page_of!(c, of_game(), order: claims::id, rows: ClaimRow, limit, offset))
    })
}

pub(super) fn claim_by_seq(c: &mut DbConn, game: GameId, seq: i32) -> ApiResult<ClaimRow> {
    Ok(claims::table
        .filter(claims::game_id.eq(game))
        .filter(claims::event_seq.eq(seq))
        .select(ClaimRow::as_select())
        .first(c)?)
}

/// Loads a claim or 404.
pub fn load_claim(c: &mut DbConn, id: ClaimId) -> ApiResult<ClaimRow> {
    claims::table
        .find(id)
        .select(ClaimRow::as_select())
        .first(c)
        .optional()?
        .ok_or_else(|| ApiError::NotFound(format!("no claim {id}")))
}

fn draughts_outcome(v: DraughtsVerdict) -> Option<GameEnding> {
    match v {
        DraughtsVerdict::Draw => Some(GameEnding::Draw),
        DraughtsVerdict::Plusremise { side } => Some(GameEnding::Plusremise { side }),
        DraughtsVerdict::ArbiterToJudgePromotion { .. } => None,
    }
}

/// What the engines found: the claimant, validity, the verdict JSON and — when the check
/// settles the claim — the ruling.
pub(super) struct Checked {
    pub(super) claimant: Colour,
    pub(super) valid: Option<bool>,
    pub(super) check: Option<String>,
    pub(super) ruling: Option<Ruling>,
    /// Half-moves of the record and their notation, to bring the log up to the claim.
    pub(super) plies: Vec<String>,
    /// Chess claim (a): the declared move when it is legal, as SAN; the claimant's next move.
    pub(super) declared: Option<String>,
}

/// The moves the claim is judged on: those sent, else the stored record; a claim checked
/// from the moves reads them continued by the log's ([`claim_record`]).
fn checked_moves(c: &mut DbConn, ctx: &GameCtx, input: &ClaimInput) -> ApiResult<Option<Record>> {
    match &input.moves {
        Some(m) => record_of(ctx.kind, m).map(Some),
        None => moves_of(c, ctx.game.id)?
            .map(|r| stored_record(&r))
            .transpose(),
    }
}

fn need_record(r: Option<Record>) -> ApiResult<Record> {
    r.ok_or_else(|| {
        ApiError::invalid(
            "moves",
            "no moves are recorded for this game: store them (PUT /games/{id}/moves) or send them",
        )
    })
}

fn check_chess(kind: ClaimKind, record: Record, declared: Option<String>) -> ApiResult<Checked> {
    let Record::Chess { moves, start_fen } = record else {
        return Err(ApiError::invalid("moves", "chess moves expected"));
    };
    let plies = read_plies(&Record::Chess {
        moves: moves.clone(),
        start_fen: start_fen.clone(),
    })?;
    let bad = |e: engine::RepetitionError| ApiError::invalid("moves", e.to_string());
    let (claimant, valid, check, declared) = if kind == ClaimKind::ThreefoldRepetition {
        let v = engine::check_repetition(&RepetitionClaim {
            start_fen,
            moves,
            declared_move: declared.clone(),
        })
        .map_err(bad)?;
        // the declared move as the engine read it (None when it is not a legal move)
        let played = declared.and(
            v.claimed
                .as_ref()
                .and_then(|o| o.after.as_ref())
                .map(|m| m.notation.clone()),
        );
        (v.claimant, v.valid, json(&v)?, played)
    } else {
        let v = engine::check_fifty_moves(&FiftyMovesClaim {
            start_fen,
            moves,
            declared_move: declared.clone(),
        })
        .map_err(bad)?;
        // an illegal declared move cannot be played; the verdict says so in its reason
        let illegal = v
            .reason
            .as_deref()
            .is_some_and(|r| r.starts_with("the declared move"));
        let played = declared.filter(|_| !illegal);
        (v.claimant, v.valid, json(&v)?, played)
    };
    Ok(Checked {
        claimant,
        valid: Some(valid),
        check: Some(check),
        ruling: Some(if valid {
            Ruling::Upheld {
                outcome: GameEnding::Draw,
            }
        } else {
            Ruling::Rejected
        }),
        plies,
        declared,
    })
}

/// docs/rules/draughts-championship.md: a lasting advantage of three men ends the game in a
/// plusremise. The material after the last move decides whether the claim can stand; a
/// claim that can is left pending for the arbiter, who judges on the board whether the
/// advantage lasts.
fn lasting_advantage(game: &draughts::DraughtsGame, plies: Vec<String>) -> Checked {
    let positions = game.positions();
    let last = positions.last();
    let claimant = last.map(|p| p.turn).unwrap_or(Colour::White);
    let verdict = last.map(draughts::claim_verdict);
    let ahead = matches!(verdict, Some(DraughtsVerdict::Plusremise { .. }));
    let material = last.map(|p| {
        [
            p.material(clubcomp_engine::Colour::White),
            p.material(clubcomp_engine::Colour::Black),
        ]
    });
    let check = serde_json::json!({
        "valid": ahead,
        "verdict": if ahead { verdict } else { None },
        "material": material,
        "reason": (!ahead).then_some(
            "neither side is three men ahead (a king counts as two)"
        ),
    });
    Checked {
        claimant,
        valid: Some(ahead),
        check: Some(check.to_string()),
        ruling: if ahead { None } else { Some(Ruling::Rejected) },
        plies,
        declared: None,
    }
}

fn check_draughts(kind: ClaimKind, record: Record, declared: Option<String>) -> ApiResult<Checked> {
    let Record::Draughts {
        movetext,
        start_fen,
    } = record
    else {
        return Err(ApiError::invalid("moves", "draughts moves expected"));
    };
    let game = draughts::read_game(start_fen.as_deref(), &movetext)
        .map_err(|e| ApiError::invalid("moves", e.to_string()))?;
    let plies: Vec<String> = game.moves.iter().map(|m| m.notation()).collect();
    if kind == ClaimKind::DraughtsEndgameLimit {
        let claimant = game
            .positions()
            .last()
            .map(|p| p.turn)
            .unwrap_or(Colour::White);
        let counter = draughts::endgame_status(&game);
        let reached = counter.as_ref().is_some_and(|e| e.limit_reached);
        // docs/rules/arbiter.md#draughts-claims: two of the three pieces still men → the arbiter judges on the board
        // whether their promotion can be permanently prevented; the claim then waits.
        let ruling = match &counter {
            Some(e) if reached => {
                draughts_outcome(e.verdict_at_limit).map(|outcome| Ruling::Upheld { outcome })
            }
            _ => Some(Ruling::Rejected),
        };
        let check = serde_json::json!({
            "valid": reached,
            "endgame": counter,
            "reason": (!reached).then_some(match &counter {
                None => "no counted endgame (16- or 5-move) is on the board".to_string(),
                Some(e) => format!(
                    "the limit of {} moves each is not reached ({} and {})",
                    e.limit, e.moves_lone_king, e.moves_other
                ),
            }),
        });
        return Ok(Checked {
            claimant,
            valid: Some(reached),
            check: Some(json(&check)?),
            ruling,
            plies,
            declared: None,
        });
    }
    if kind == ClaimKind::DraughtsLastingAdvantage {
        return Ok(lasting_advantage(&game, plies));
    }
    let claim = match kind {
        ClaimKind::DraughtsThirdTime => DraughtsClaim::ThirdTime,
        ClaimKind::DraughtsCanRepeat => DraughtsClaim::CanRepeat {
            declared_move: declared,
        },
        _ => DraughtsClaim::TwentyFiveMoves,
    };
    let v = draughts::check_draughts_claim(&DraughtsClaimRequest {
        start_fen,
        movetext,
        claim,
    })
    .map_err(|e| ApiError::invalid("moves", e.to_string()))?;
    let ruling = match (v.valid, v.verdict) {
        (true, Some(verdict)) => {
            draughts_outcome(verdict).map(|outcome| Ruling::Upheld { outcome })
        }
        (true, None) => None,
        (false, _) => Some(Ruling::Rejected),
    };
    Ok(Checked {
        claimant: v.claimant,
        valid: Some(v.valid),
        check: Some(json(&v)?),
        ruling,
        plies,
        declared: None,
    })
}

fn quickplay_decision(d: &DecisionInput) -> QuickplayDecision {
    match d.decision {
        DecisionKind::Accept => QuickplayDecision::Accept,
        DecisionKind::Postpone => QuickplayDecision::Postpone {
            opponent_two_minutes: d.opponent_two_minutes,
        },
        DecisionKind::Reject => QuickplayDecision::Reject,
    }
}

fn ruling_of(d: &DecisionInput, default_outcome: Option<GameEnding>) -> Ruling {
    match d.decision {
        DecisionKind::Accept => Ruling::Upheld {
            outcome: d
                .outcome
                .map(GameEnding::from)
                .or(default_outcome)
                .unwrap_or(GameEnding::Draw),
        },
        DecisionKind::Postpone => Ruling::Postponed {
            opponent_two_minutes: d.opponent_two_minutes,
        },
        DecisionKind::Reject => Ruling::Rejected,
    }
}

/// Records a claim: checked from the moves by the engines where the rules allow (repetition,
/// fifty moves, the draughts claims: decided at once), or refused/opened for the arbiter
/// (quickplay finish).
pub fn make_claim(
    c: &mut DbConn,
    game: GameId,
    input: &ClaimInput,
    actor: &str,
) -> ApiResult<ClaimRow> {
    if let Some(m) = &input.moves {
        check_record_size(m)?;
    }
    check_note("note", input.note.as_deref())?;
    if let Some(d) = &input.decision {
        check_note("decision/note", d.note.as_deref())?;
    }
    if input
        .declared_move
        .as_ref()
        .is_some_and(|m| m.chars().count() > MAX_DECLARED_CHARS)
    {
        return Err(ApiError::invalid(
            "declared_move",
            format!("at most {MAX_DECLARED_CHARS} characters"),
        ));
    }
    if !input.kind.is_brought() {
        return Err(ApiError::invalid(
            "kind",
            "draughts_repetition is the kind of a plain claim event; a claim names \
             draughts_third_time or draughts_can_repeat",
        ));
    }
    check_illegal_move_text(input)?;
    lock_game(c, game)?;
    let ctx = load_game(c, game)?;
    if input.kind.game() != ctx.kind {
        return Err(ApiError::invalid(
            "kind",
            format!(
                "a {} claim in a {} game",
                kind_str(&input.kind.game()),
                kind_str(&ctx.kind)
            ),
        ));
    }
    if input.kind != ClaimKind::QuickplayFinish {
        for (set, field) in [
            (input.claimant.is_some(), "claimant"),
            (input.remaining_ms.is_some(), "remaining_ms"),
            (input.move_number.is_some(), "move_number"),
            (input.decision.is_some(), "decision"),
        ] {
            if set {
                return Err(ApiError::invalid(
                    field,
                    "only for a quickplay-finish claim (the others are checked from the moves)",
                ));
            }
        }
    }
    if input.declared_move.is_some()
        && !matches!(
            input.kind,
            ClaimKind::ThreefoldRepetition | ClaimKind::FiftyMoves | ClaimKind::DraughtsCanRepeat
        )
    {
        return Err(ApiError::invalid(
            "declared_move",
            "only for a repetition (a), fifty-move (a) or draughts can-repeat claim",
        ));
    }
    let mut log = Log::open(c, &ctx, actor)?;
    let record = checked_moves(c, &ctx, input)?;
    let checked = match input.kind {
        ClaimKind::QuickplayFinish => check_quickplay(&ctx, input, record, log.state())?,
        ClaimKind::IllegalMove => {
            // without the move named there is nothing to check the moves against
            let record = match input.illegal_move {
                Some(_) => claim_record(&log, ctx.kind, record)?,
                None => None,
            };
            illegal::check(&ctx, input, record, log.state())?
        }
        ClaimKind::ThreefoldRepetition | ClaimKind::FiftyMoves => check_chess(
            input.kind,
            need_record(claim_record(&log, ctx.kind, record)?)?,
            input.declared_move.clone(),
        )?,
        _ => check_draughts(
            input.kind,
            need_record(claim_record(&log, ctx.kind, record)?)?,
            input.declared_move.clone(),
        )?,
    };
    let plies = checked.plies.clone();
    log.sync_moves(c, plies.len(), |i| {
        plies.get(i).filter(|s| !s.is_empty()).cloned()
    })?;
    let claim_row = log.append(
        c,
        GameEvent::Claim {
            by: checked.claimant,
            kind: input.kind.event_kind(),
            declared_move: checked.declared.clone(),
        },
        input.note.clone(),
    )?;
    let seq = claim_row.seq;
    insert_claim(
        c,
        &log,
        seq,
        input.kind,
        checked.claimant,
        checked.valid,
        checked.check.clone(),
    )?;
    let ruling = match (&input.decision, input.kind) {
        (Some(d), ClaimKind::QuickplayFinish) => {
            let state = QuickplayState {
                claimant: checked.claimant,
                status: quickplay::QuickplayClaimStatus::Pending,
                opponent_extra_seconds: 0,
            };
            quickplay::decide(&state, quickplay_decision(d))
                .map_err(|e| ApiError::Conflict(e.to_string()))?;
            Some(ruling_of(d, None))
        }
        _ => checked.ruling,
    };
    if let Some(ruling) = ruling {
        let note = input.decision.as_ref().and_then(|d| d.note.clone());
        log.append(
            c,
            GameEvent::Decision {
                claim: seq as usize,
                ruling,
            },
            note,
        )?;
        sync_claim_row(c, &log, seq)?;
    }
    let row = claim_by_seq(c, game, seq)?;
    audit_game(
        c,
        game,
        "claim",
        actor,
        &serde_json::json!({
            "claim": row.id, "kind": row.kind, "claimant": row.claimant,
            "valid": row.valid, "status": row.status,
        }),
    )?;
    record_claim_event(c, EventKind::ClaimFiled, &row)?;
    if row.status.is_final() {
        record_claim_event(c, EventKind::ClaimDecided, &row)?;
    }
    enter_decided_result(c, &log, seq)?;
    Ok(row)
}

/// `illegal_move` belongs to an illegal-move claim, and is bounded.
fn check_illegal_move_text(input: &ClaimInput) -> ApiResult<()> {
    let Some(m) = &input.illegal_move else {
        return Ok(());
    };
    if input.kind != ClaimKind::IllegalMove {
        return Err(ApiError::invalid(
            "illegal_move",
            "only for an illegal-move claim",
        ));
    }
    if m.chars().count() > illegal::MAX_ILLEGAL_MOVE_CHARS {
        return Err(ApiError::invalid(
            "illegal_move",
            format!("at most {} characters", illegal::MAX_ILLEGAL_MOVE_CHARS),
        ));
    }
    crate::text::one_line(m).map_err(|why| ApiError::invalid("illegal_move", why))
}

/// Records an event about a claim for the arbiters (its game, round and competition).
fn record_claim_event(c: &mut DbConn, kind: EventKind, row: &ClaimRow) -> ApiResult<()> {
    use crate::store::schema::{games, rounds};
    let (competition, evening, number): (CompetitionId, Option<EveningId>, i32) = games::table
        .inner_join(rounds::table)
        .filter(games::id.eq(row.game_id))
        .select((rounds::competition_id, rounds::evening_id, rounds::number))
        .first(c)?;
    crate::store::stamps::record(
        c,
        NewEvent::new(kind, Visibility::Arbiter)
            .competition(competition)
            .evening(evening)
            .game(row.game_id)
            .payload(serde_json::json!({
                "round": number, "claim": row.id, "kind": row.kind, "status": row.status,
            })),
    )?;
    Ok(())
}

/// The longest declared move, in characters (a SAN move or a draughts capture naming every
/// landing square, `28x19x10x...`: at most 20 captures of 3 characters).
const MAX_DECLARED_CHARS: usize = 64;

/// Decides a pending or postponed claim and queues the players' decision mails
/// ([`crate::services::outcome_mails::decision_made`]). A final decision cannot be changed
/// (409).
pub fn decide_claim(
    c: &mut DbConn,
    n: crate::services::notifications::Notifier<'_>,
    id: ClaimId,
    input: &DecisionInput,
    actor: &str,
) -> ApiResult<ClaimRow> {
    check_note("note", input.note.as_deref())?;
    // a write first (SQLite takes the write lock before any read; one more lock row on
    // Postgres, always taken before the game's), then the game's lock
    crate::store::stamps::touch_now(c, Scope::ArbiterDecisions)?;
    let claim = load_claim(c, id)?;
    lock_game(c, claim.game_id)?;
    let ctx = load_game(c, claim.game_id)?;
    let mut log = Log::open(c, &ctx, actor)?;
    let rec = log
        .claim_record(claim.event_seq)
        .cloned()
        .ok_or_else(|| internal("claim", "not in the log"))?;
    if matches!(rec.status, ClaimStatus::Upheld | ClaimStatus::Rejected) {
        return Err(ApiError::Conflict(format!(
            "claim {id} was already decided ({}); the decision is final",
            crate::vocab::ClaimStatus::from(rec.status)
        )));
    }
    if rec.kind == engine::ClaimKind::QuickplayFinish {
        let state = QuickplayState {
            claimant: rec.by,
            status: match rec.status {
                ClaimStatus::Postponed => quickplay::QuickplayClaimStatus::Postponed,
                _ => quickplay::QuickplayClaimStatus::Pending,
            },
            opponent_extra_seconds: rec.opponent_extra_seconds,
        };
        quickplay::decide(&state, quickplay_decision(input))
            .map_err(|e| ApiError::Conflict(e.to_string()))?;
    }
    // the checked verdict's result is the default for an accepted draughts claim
    let verdict = claim
        .check_result
        .as_deref()
        .and_then(|s| serde_json::from_str::<serde_json::Value>(s).ok())
        .and_then(|v| {
            let verdict = match v.get("verdict") {
                Some(x) if !x.is_null() => x.clone(),
                _ => v.get("endgame")?.get("verdict_at_limit")?.clone(),
            };
            serde_json::from_value::<DraughtsVerdict>(verdict).ok()
        });
    if let Some(DraughtsVerdict::ArbiterToJudgePromotion { .. }) = verdict
        && input.decision == DecisionKind::Accept
        && input.outcome.is_none()
    {
        // docs/rules/draughts-championship.md#scoring-2-1-0-plusremise-and-minremise: whether the minority can permanently prevent the promotion of the two
        // men is judged on the board; the arbiter names the result
        return Err(ApiError::invalid(
            "outcome",
            "required: judge whether the promotion of the two men can be prevented \
             (plusremise for the side with three pieces, or draw)",
        ));
    }
    let default_outcome = verdict.and_then(draughts_outcome);
    let ruling = if rec.kind == engine::ClaimKind::IllegalMove {
        illegal::decided(input, log.state(), rec.by)?
    } else {
        ruling_of(input, default_outcome)
    };
    log.append(
        c,
        GameEvent::Decision {
            claim: claim.event_seq as usize,
            ruling,
        },
        input.note.clone(),
    )?;
    sync_claim_row(c, &log, claim.event_seq)?;
    let row = load_claim(c, id)?;
    audit_game(
        c,
        claim.game_id,
        "claim_decided",
        actor,
        &serde_json::json!({
            "claim": id, "decision": input.decision, "status": row.status,
            "opponent_extra_seconds": row.opponent_extra_seconds,
        }),
    )?;
    record_claim_event(c, EventKind::ClaimDecided, &row)?;
    enter_decided_result(c, &log, claim.event_seq)?;
    let upheld = match log.claim_record(claim.event_seq).map(|r| r.status) {
        Some(ClaimStatus::Upheld) => Some(true),
        Some(ClaimStatus::Rejected) => Some(false),
        _ => None,
    };
    crate::services::outcome_mails::decision_made(
        c,
        n,
        row.game_id,
        crate::services::outcome_mails::Decided::Claim {
            id: id.get(),
            upheld,
        },
    )?;
    Ok(row)
}
