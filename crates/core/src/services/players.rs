//! Players (docs/rules/README.md#players-and-ratings): registration and changes. A change of name
//! or membership gives every competition the player is entered in a new version (standings
//! show the name and count a flexible player's absences differently).

use crate::store::DbConn;
use crate::store::models::events::{EventKind, NewEvent, Visibility};
use crate::store::models::players;
/// A stored player (the row is the record), its insert form and its changes.
pub use crate::store::models::players::{NewPlayer, Player, PlayerChanges};
use std::collections::BTreeMap;

/// A player's latest rating per source (`KNSB` → 1843).
pub type Ratings = BTreeMap<String, i32>;
use crate::error::{ApiError, ApiResult};
use crate::ids::{CompetitionId, PlayerId};
use crate::store::schema::entrants;
use crate::store::stamps::Scope;
use diesel::prelude::*;

/// Registers a player (the fields checked; 409 when the KNSB number or FIDE id is taken).
pub fn create(c: &mut DbConn, new: &NewPlayer) -> ApiResult<Player> {
    Ok(players::insert(c, new)?)
}

/// Loads a player or 404.
pub fn load(c: &mut DbConn, id: PlayerId) -> ApiResult<Player> {
    players::by_id(c, id)?.ok_or_else(|| ApiError::NotFound(format!("no player {id}")))
}

/// Loads a player for a read of the player themselves (their card, games, row), or 404 — also
/// when the reader may not see them at all (a hidden player to the public,
/// [decision 0326](../../../../docs/decisions/0326-player-publication.md)).
pub fn load_visible(c: &mut DbConn, id: PlayerId) -> ApiResult<Player> {
    let p = load(c, id)?;
    if p.hidden_from_reader() {
        return Err(ApiError::NotFound(format!("no player {id}")));
    }
    Ok(p)
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
    let p = players::update(c, id, changes, crate::store::now_utc())?;
    if changes.name.is_some() || changes.membership.is_some() || changes.publication.is_some() {
        // standings show the name (as its publication allows) and count a flexible player's
        // absences differently:
        // every competition the player is entered in gets a new version
        let comps: Vec<CompetitionId> = entrants::table
            .filter(entrants::player_id.eq(id))
            .select(entrants::competition_id)
            .distinct()
            .load(c)?;
        for comp in comps {
            crate::store::stamps::touch(c, Scope::Competition(comp))?;
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
        ("publication", changes.publication.is_some()),
    ]
    .into_iter()
    .filter_map(|(f, changed)| changed.then_some(f))
    .collect();
    crate::store::stamps::record(
        c,
        NewEvent::new(EventKind::PlayerChanged, Visibility::Leader)
            .payload(serde_json::json!({"player": id, "version": p.version, "fields": fields})),
    )?;
    Ok(p)
}

/// The latest rating per source of each of `ids` (a player without ratings is absent).
fn ratings_of(c: &mut DbConn, ids: &[PlayerId]) -> ApiResult<BTreeMap<PlayerId, Ratings>> {
    let mut m: BTreeMap<PlayerId, Ratings> = BTreeMap::new();
    for r in crate::store::models::ratings::latest_for(c, ids)? {
        m.entry(r.player_id)
            .or_default()
            .insert(r.source.to_string(), r.value);
    }
    Ok(m)
}

/// A player's latest rating per source.
pub fn ratings(c: &mut DbConn, id: PlayerId) -> ApiResult<Ratings> {
    Ok(ratings_of(c, &[id])?.remove(&id).unwrap_or_default())
}

/// A player with their latest ratings, or 404 (also for a reader who may not see them).
pub fn rated(c: &mut DbConn, id: PlayerId) -> ApiResult<(Player, Ratings)> {
    let p = load_visible(c, id)?;
    Ok((p, ratings(c, id)?))
}

/// Changes a player ([`change`]) and answers them after with their latest ratings, in the
/// caller's transaction; a change of the publication setting is audited with `actor`.
pub fn change_and_view(
    c: &mut DbConn,
    id: PlayerId,
    expected: &crate::services::version::ExpectedVersion,
    changes: &PlayerChanges,
    actor: &str,
) -> ApiResult<(Player, Ratings)> {
    let before = load(c, id)?.publication;
    let p = change(c, id, expected, changes)?;
    audit_publication(c, id, before, p.publication, actor)?;
    Ok((p, ratings(c, id)?))
}

/// Audits a change of a player's publication setting (`player` / `publication`, old and new
/// value); nothing when it stayed.
pub(crate) fn audit_publication(
    c: &mut DbConn,
    id: PlayerId,
    before: crate::publication::Publication,
    after: crate::publication::Publication,
    actor: &str,
) -> ApiResult<()> {
    if before == after {
        return Ok(());
    }
    crate::store::models::competition::audit(
        c,
        &crate::store::models::competition::NewAuditEntry {
            entity: crate::vocab::AuditEntity::Player,
            entity_id: id.get(),
            action: "publication".into(),
            actor: actor.to_string(),
            at: crate::store::now_utc(),
            old_value: Some(before.as_str().to_string()),
            new_value: Some(after.as_str().to_string()),
            reason: None,
        },
    )?;
    Ok(())
}

/// One page of the players by name then id (`q`: a case-insensitive part of the name;
/// `active`: only active or inactive ones) with their latest ratings, and how many match in
/// all: the total, the rows and their ratings from one snapshot, so the page agrees.
pub fn page(
    c: &mut DbConn,
    q: Option<&str>,
    active: Option<bool>,
    limit: i64,
    offset: i64,
) -> ApiResult<(Vec<(Player, Ratings)>, i64)> {
    crate::store::snapshot(c, |c| {
        let (rows, total) = players::search(c, q, active, limit, offset)?;
        let ids: Vec<PlayerId> = rows.iter().map(|p| p.id).collect();
        let mut ratings = ratings_of(c, &ids)?;
        let rows = rows
            .into_iter()
            .map(|p| {
                let r = ratings.remove(&p.id).unwrap_or_default();
                (p, r)
            })
            .collect();
        Ok((rows, total))
    })
}
