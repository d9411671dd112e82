//! The stored rows of a game's arbiter record: its event log, its moves, its claims and its
//! appeals.

use crate::ids::{AppealId, ClaimId, GameEventId, GameId};
use crate::store::schema::{appeals, claims, game_events, game_moves};
use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

/// One stored event of a game's log.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = game_events, check_for_backend(crate::store::MultiBackend))]
pub struct EventRow {
    /// The event's id.
    pub id: GameEventId,
    /// The game whose log holds it.
    pub game_id: GameId,
    /// Its place in the game's log, from 1.
    pub seq: i32,
    /// The event as stored (JSON text).
    pub event: String,
    /// The arbiter's note, if any.
    pub note: Option<String>,
    /// Who recorded it (the token's subject).
    pub actor: String,
    /// When it was recorded (UTC).
    pub at: NaiveDateTime,
}

/// The recorded moves of a game.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = game_moves, check_for_backend(crate::store::MultiBackend))]
pub struct MovesRow {
    /// The game.
    pub game_id: GameId,
    /// The notation of `movetext` (SAN for chess, the draughts notation for draughts).
    pub format: crate::vocab::MoveFormat,
    /// The moves as written.
    pub movetext: String,
    /// The starting position when it is not the usual one.
    pub start_fen: Option<String>,
    /// The number of half-moves in `movetext`.
    pub plies: i32,
    /// Raised by every change (the `ETag`).
    pub version: i64,
    /// Who wrote the record last.
    pub updated_by: String,
    /// When the record was written last (UTC).
    pub updated_at: NaiveDateTime,
}

/// A claim with its checked verdict and where it stands.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = claims, check_for_backend(crate::store::MultiBackend))]
pub struct ClaimRow {
    /// The claim's id.
    pub id: ClaimId,
    /// The game it is made in.
    pub game_id: GameId,
    /// The place of the claim in the game's log.
    pub event_seq: i32,
    /// What is claimed.
    pub kind: crate::vocab::ClaimKind,
    /// Who claims: `white` or `black`.
    pub claimant: String,
    /// Where it stands.
    pub status: crate::vocab::ClaimStatus,
    /// The engine's verdict on the recorded moves, when it could check them.
    pub valid: Option<bool>,
    /// The engine's check as JSON text.
    pub check_result: Option<String>,
    /// What the decision does to the game, when decided.
    pub outcome: Option<String>,
    /// Time added to the opponent's clock by a rejected claim.
    pub opponent_extra_seconds: i32,
    /// Who recorded the claim.
    pub created_by: String,
    /// When it was recorded (UTC).
    pub created_at: NaiveDateTime,
    /// The arbiter who decided it.
    pub decided_by: Option<String>,
    /// When it was decided (UTC).
    pub decided_at: Option<NaiveDateTime>,
}

/// An appeal to the board.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = appeals, check_for_backend(crate::store::MultiBackend))]
pub struct AppealRow {
    /// The appeal's id.
    pub id: AppealId,
    /// The game it concerns.
    pub game_id: GameId,
    /// The claim decision appealed against, if it is one.
    pub claim_id: Option<ClaimId>,
    /// The logged arbiter decision appealed against, if it is one.
    pub event_id: Option<GameEventId>,
    /// When the decision appealed against was taken (UTC).
    pub decided_at: NaiveDateTime,
    /// Why the appellant disagrees.
    pub grounds: String,
    /// Who lodged it.
    pub lodged_by: String,
    /// When it was lodged (UTC).
    pub lodged_at: NaiveDateTime,
    /// The last day an appeal could be lodged.
    pub last_day: NaiveDate,
    /// The board's ruling, once given.
    pub ruling: Option<crate::vocab::AppealRuling>,
    /// The reasons the board gave.
    pub ruling_reason: Option<String>,
    /// Who recorded the ruling.
    pub ruled_by: Option<String>,
    /// When the ruling was recorded (UTC).
    pub ruled_at: Option<NaiveDateTime>,
}
