//! One record of a game's moves (docs/rules/arbiter.md#the-moves-of-a-game; decision 0285):
//! the stored record (or the moves sent with a claim) and the move events of the log are read
//! as one game by the engine (`clubcomp_engine::arbiter::one_record`): the record's moves,
//! then the log's after them. A write that would make the two disagree is refused.

use super::*;

fn conflict(e: engine::RecordConflict) -> ApiError {
    ApiError::Conflict(format!(
        "{e}: one game has one record of moves; correct the record (PUT /games/{{id}}/moves) \
         or the event"
    ))
}

/// The game's moves for a claim: `record` (sent with the claim, else the stored one)
/// continued by the moves the log holds after it. 409 when the two write a half-move
/// differently; 422 when the log continues the record with a move logged without its
/// notation, which a claim checked from the moves cannot read. `None` when neither holds a
/// move.
pub(super) fn claim_record(
    log: &Log,
    kind: GameKind,
    record: Option<Record>,
) -> ApiResult<Option<Record>> {
    let logged = engine::logged_moves(log.log.events());
    let base = record
        .as_ref()
        .map(read_plies)
        .transpose()?
        .unwrap_or_default();
    let merged = engine::one_record(&logged, &base).map_err(conflict)?;
    if merged.len() == base.len() {
        return Ok(record);
    }
    let extra = merged[base.len()..]
        .iter()
        .enumerate()
        .map(|(i, m)| {
            m.clone().ok_or_else(|| {
                ApiError::invalid(
                    "moves",
                    format!(
                        "half-move {} is in the event log without its notation and not in the \
                         record: record the moves (PUT /games/{{id}}/moves) or send them",
                        base.len() + i + 1
                    ),
                )
            })
        })
        .collect::<ApiResult<Vec<String>>>()?;
    Ok(Some(match (record, kind) {
        (Some(Record::Chess { moves, start_fen }), _) => {
            let (moves, start_fen) =
                engine::chess_record_with(&moves, start_fen.as_deref(), &extra)
                    .map_err(|e| ApiError::invalid("moves", e))?;
            Record::Chess { moves, start_fen }
        }
        (None, GameKind::Chess) => Record::Chess {
            moves: ChessMoves::San(extra),
            start_fen: None,
        },
        // PDN tags and results are skipped wherever they stand: the log's moves follow
        (
            Some(Record::Draughts {
                movetext,
                start_fen,
            }),
            _,
        ) => Record::Draughts {
            movetext: format!("{movetext} {}", extra.join(" ")),
            start_fen,
        },
        (None, GameKind::Draughts) => Record::Draughts {
            movetext: extra.join(" "),
            start_fen: None,
        },
    }))
}

/// 409 when a record about to be stored writes a half-move other than the log's move events
/// do (`plies`: the record's half-moves as read).
pub(super) fn record_agrees_with_log(
    c: &mut DbConn,
    game: GameId,
    plies: &[String],
) -> ApiResult<()> {
    let log = parse_log(&event_rows(c, game)?)?;
    engine::one_record(&engine::logged_moves(&log), plies).map_err(conflict)?;
    Ok(())
}

/// 409 when a move event about to be logged is not the stored record's move at that
/// half-move (a move without notation agrees with any).
pub(super) fn move_agrees_with_record(
    c: &mut DbConn,
    log: &Log,
    event: &GameEvent,
) -> ApiResult<()> {
    let GameEvent::Move {
        notation: Some(_), ..
    } = event
    else {
        return Ok(());
    };
    let Some(stored) = moves_of(c, log.game)? else {
        return Ok(());
    };
    let plies = read_plies(&stored_record(&stored)?)?;
    let mut logged = engine::logged_moves(log.log.events());
    logged.extend(engine::logged_moves(std::slice::from_ref(event)));
    engine::one_record(&logged, &plies).map_err(conflict)?;
    Ok(())
}
