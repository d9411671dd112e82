//! One record of a game's moves (docs/rules/arbiter.md#the-moves-of-a-game). A game's moves
//! reach the server two ways: one at a time, as move events of its log, and as a whole, as
//! the stored record (PGN, SAN or PDN). Both describe the same game, so they are read as one:
//! the record's moves where it has them, the log's moves after them. Where both hold a
//! half-move they must agree, compared as moves (SAN by what it says, see
//! `events::same_san`; a draughts move as text).

use super::events::same_san;
use super::{ChessMoves, GameEvent, pgn};
use serde::{Deserialize, Serialize};

/// A half-move the two sources write differently.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("half-move {ply} is {log} in the event log but {record} in the stored record")]
pub struct RecordConflict {
    /// The half-move, counted from 1.
    pub ply: usize,
    /// The move as the event log has it.
    pub log: String,
    /// The move as the stored record has it.
    pub record: String,
}

/// The notation of every move event of a log, in order (`None` for a move logged without
/// its notation).
pub fn logged_moves(log: &[GameEvent]) -> Vec<Option<String>> {
    log.iter()
        .filter_map(|e| match e {
            GameEvent::Move { notation, .. } => Some(notation.clone()),
            _ => None,
        })
        .collect()
}

/// The game's moves from both sources: as long as the longer of the two, each half-move the
/// record's writing where it has one, else the log's (`None` for a move the log holds without
/// notation and the record does not hold). A half-move both write, differently, is a
/// [`RecordConflict`]; a half-move the log holds without notation agrees with any.
pub fn one_record(
    log: &[Option<String>],
    record: &[String],
) -> Result<Vec<Option<String>>, RecordConflict> {
    let n = log.len().max(record.len());
    (0..n)
        .map(|i| match (log.get(i).cloned().flatten(), record.get(i)) {
            (Some(l), Some(r)) if !same_san(&l, r) => Err(RecordConflict {
                ply: i + 1,
                log: l,
                record: r.clone(),
            }),
            (_, Some(r)) => Ok(Some(r.clone())),
            (l, None) => Ok(l),
        })
        .collect()
}

/// A chess record continued by `extra` SAN moves: the moves as a SAN list, with the start
/// position a PGN's `[FEN]` tag names (a PGN ends at its result, so moves cannot simply be
/// written after it). Errors when the PGN cannot be read.
pub fn chess_record_with(
    moves: &ChessMoves,
    start_fen: Option<&str>,
    extra: &[String],
) -> Result<(ChessMoves, Option<String>), String> {
    let (mut list, fen) = match moves {
        ChessMoves::San(s) => (s.clone(), None),
        ChessMoves::Pgn(text) => {
            let game = pgn::read_pgn(text)?;
            (game.moves, game.fen)
        }
    };
    list.extend(extra.iter().cloned());
    let start = start_fen.map(str::to_string).or(fen);
    Ok((ChessMoves::San(list), start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arbiter::{RepetitionClaim, check_repetition};
    use crate::vocab::Colour;

    fn some(v: &[&str]) -> Vec<Option<String>> {
        v.iter().map(|s| Some(s.to_string())).collect()
    }

    fn owned(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_log_continues_a_shorter_record() {
        // record: 1. Nf3 Nf6 2. Ng1; the log has those and 2...Ng8 3. Nf3
        let log = some(&["Nf3", "Nf6", "Ng1", "Ng8", "Nf3"]);
        let record = owned(&["Nf3", "Nf6", "Ng1"]);
        assert_eq!(
            one_record(&log, &record),
            Ok(some(&["Nf3", "Nf6", "Ng1", "Ng8", "Nf3"]))
        );
    }

    #[test]
    fn the_record_continues_a_shorter_log_and_names_unwritten_moves() {
        // the log: two moves without notation; the record writes them and one more
        let log = vec![None, None];
        let record = owned(&["e4", "e5", "Nf3"]);
        assert_eq!(one_record(&log, &record), Ok(some(&["e4", "e5", "Nf3"])));
        // the log goes past the record with a move it did not write down
        let log = vec![Some("e4".to_string()), None, None];
        assert_eq!(
            one_record(&log, &owned(&["e4"])),
            Ok(vec![Some("e4".into()), None, None])
        );
    }

    #[test]
    fn a_move_written_two_ways_is_one_move_and_two_moves_are_a_conflict() {
        // Nbd2 and Nd2 are one move; check marks do not count
        let log = some(&["d4", "d5", "Nbd2", "Qd6+"]);
        let record = owned(&["d4", "d5", "Nd2", "Qd6"]);
        assert_eq!(
            one_record(&log, &record),
            Ok(some(&["d4", "d5", "Nd2", "Qd6"]))
        );
        // 2. Nf3 in the log, 2. Nc3 in the record: the third half-move differs
        let log = some(&["d4", "d5", "Nf3"]);
        let record = owned(&["d4", "d5", "Nc3", "Nf6"]);
        assert_eq!(
            one_record(&log, &record),
            Err(RecordConflict {
                ply: 3,
                log: "Nf3".into(),
                record: "Nc3".into()
            })
        );
        // draughts moves are compared as text
        let log = some(&["32-28", "19-23"]);
        assert!(one_record(&log, &owned(&["32-28", "18-23"])).is_err());
    }

    #[test]
    fn only_move_events_count() {
        let log = vec![
            GameEvent::Move {
                by: Colour::White,
                notation: Some("e4".into()),
            },
            GameEvent::DrawOffer { by: Colour::White },
            GameEvent::Move {
                by: Colour::Black,
                notation: None,
            },
        ];
        assert_eq!(logged_moves(&log), vec![Some("e4".to_string()), None]);
    }

    #[test]
    fn a_pgn_continued_by_the_log_keeps_its_start_position() {
        // from a position with White's knight on g1 and Black's on g8 (kings on e1 and e8):
        // the PGN holds 1. Nf3 Nf6 2. Ng1 Ng8 and ends with `*`; the log adds 3. Nf3 Nf6
        // 4. Ng1 Ng8: the start position then stands for the third time
        let fen = "4k1n1/8/8/8/8/8/8/4K1N1 w - - 0 1";
        let pgn = format!("[FEN \"{fen}\"]\n1. Nf3 Nf6 2. Ng1 Ng8 *");
        let extra = owned(&["Nf3", "Nf6", "Ng1", "Ng8"]);
        let (moves, start) = chess_record_with(&ChessMoves::Pgn(pgn), None, &extra)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(start.as_deref(), Some(fen));
        assert_eq!(
            moves,
            ChessMoves::San(owned(&[
                "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"
            ]))
        );
        let v = check_repetition(&RepetitionClaim {
            start_fen: start,
            moves,
            declared_move: None,
        })
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(v.valid);
        assert_eq!(v.occurrences, 3);
    }
}
