//! Attendance per round (SPEC §4): the history of sign-ups, sign-offs and presence marks, and
//! each player's status for the evening.
//!
//! CONTRACT used by pairing and standings: [`statuses`] gives every entrant's status for a
//! round. (First version: the newest record decides; the full deadline rules follow.)

use crate::db::DbConn;
use crate::db::models::competition::Attendance;
use crate::db::schema::attendance as at;
use crate::error::ApiResult;
use diesel::prelude::*;
use std::collections::HashMap;

/// A player's status for one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Expected / signed up: to be paired.
    Playing,
    /// Absent with notice (excused).
    Excused,
    /// Absent without notice.
    Unexcused,
}

/// The attendance history of a round, oldest first.
pub fn history(c: &mut DbConn, round: i64) -> ApiResult<Vec<Attendance>> {
    Ok(at::table
        .filter(at::round_id.eq(round))
        .order(at::id)
        .select(Attendance::as_select())
        .load(c)?)
}

/// Each listed player's status for the round. `flexible` players are absent without notice
/// unless they signed up; others are expected unless they signed off.
pub fn statuses(
    c: &mut DbConn,
    round: i64,
    players: &[(i64, bool)],
) -> ApiResult<HashMap<i64, Status>> {
    let mut last: HashMap<i64, String> = HashMap::new();
    for a in history(c, round)? {
        last.insert(a.player_id, a.action);
    }
    Ok(players
        .iter()
        .map(|&(id, flexible)| {
            let s = match last.get(&id).map(String::as_str) {
                Some("sign_up") | Some("present") => Status::Playing,
                Some("sign_off") | Some("force_majeure") => Status::Excused,
                Some("absent") => Status::Unexcused,
                _ if flexible => Status::Unexcused,
                _ => Status::Playing,
            };
            (id, s)
        })
        .collect())
}
