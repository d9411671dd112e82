//! Players (docs/rules/README.md#players-and-ratings): registration and changes. A change of name
//! or membership gives every competition the player is entered in a new version (standings
//! show the name and count a flexible player's absences differently).

use crate::db::DbConn;
use crate::db::models::events::{EventKind, NewEvent, Visibility};
use crate::db::models::players::{self, NewPlayer, Player, PlayerChanges};
use crate::db::schema::entrants;
use crate::db::stamps::Scope;
use crate::error::{ApiError, ApiResult};
use crate::ids::{CompetitionId, PlayerId};
use diesel::prelude::*;

/// Registers a player (the fields checked; 409 when the KNSB number or FIDE id is taken).
pub fn create(c: &mut DbConn, new: &NewPlayer) -> ApiResult<Player> {
    Ok(players::insert(c, new)?)
}

/// Loads a player or 404.
pub fn load(c: &mut DbConn, id: PlayerId) -> ApiResult<Player> {
    players::by_id(c, id.get())?.ok_or_else(|| ApiError::NotFound(format!("no player {id}")))
}

/// Changes a player in the caller's transaction (412 on a stale `If-Match`).
pub fn change(
    c: &mut DbConn,
    id: PlayerId,
    expected: &crate::services::version::ExpectedVersion,
    changes: &PlayerChanges,
) -> ApiResult<Player> {
    let cur = load(c, id)?;
    expected.check(&crate::services::version::etag(
        "player",
        cur.id,
        cur.version,
    ))?;
    let p = players::update(c, id.get(), changes, crate::db::now_utc())?;
    if changes.name.is_some() || changes.membership.is_some() {
        // standings show the name and count a flexible player's absences differently:
        // every competition the player is entered in gets a new version
        let comps: Vec<CompetitionId> = entrants::table
            .filter(entrants::player_id.eq(id))
            .select(entrants::competition_id)
            .distinct()
            .load(c)?;
        for comp in comps {
            crate::db::stamps::touch(c, Scope::Competition(comp))?;
        }
    }
    // names the fields changed, never their values (contact data stays out of the log)
    let fields: Vec<&str> = [
        ("name", changes.name.is_some()),
        ("knsb_number", changes.knsb_number.is_some()),
        ("fide_id", changes.fide_id.is_some()),
        ("membership", changes.membership.is_some()),
        ("active", changes.active.is_some()),
        ("email", changes.email.is_some()),
        ("phone", changes.phone.is_some()),
    ]
    .into_iter()
    .filter_map(|(f, changed)| changed.then_some(f))
    .collect();
    crate::db::stamps::record(
        c,
        NewEvent::new(EventKind::PlayerChanged, Visibility::Leader)
            .payload(serde_json::json!({"player": id, "version": p.version, "fields": fields})),
    )?;
    Ok(p)
}
