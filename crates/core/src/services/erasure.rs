//! Erasing a former member on request ([decision 0302](../../../../docs/decisions/0302-erasing-a-former-member.md)):
//! the player keeps their id, games, ratings and places in every standings, but their name
//! becomes a neutral label, their contact data and identifiers go, their account is disabled
//! and unlinked, and what the club queued or kept to mail them is forgotten. One transaction,
//! audited without the old values.

use crate::error::{ApiError, ApiResult};
use crate::ids::{CompetitionId, PlayerId};
use crate::services::players::{self, Player, PlayerChanges};
use crate::services::version::ExpectedVersion;
use crate::store::DbConn;
use crate::store::models::competition::{NewAuditEntry, audit};
use crate::store::models::users;
use crate::store::now_utc;
use crate::store::schema::entrants;
use crate::vocab::RoundStatus;
use diesel::prelude::*;

/// The neutral label an erased player is shown by: `Oud-lid 12` (former member 12, in the
/// Dutch of the club's pages and regulations), unique because the id is.
pub fn label(id: PlayerId) -> String {
    crate::publication::erased_label(id)
}

/// The address an erased account keeps in place of its own (not an address: no `@`, so no
/// login or mail can ever match it).
pub fn account_placeholder(id: crate::ids::UserId) -> String {
    format!("erased-account-{id}")
}

/// Erases player `id` in the caller's transaction; `expected` must name the player's current
/// version (428 without it, 412 when stale). 409 while the player is still entered in a
/// competition that is not over, or linked to an admin's account.
pub fn erase(
    c: &mut DbConn,
    id: PlayerId,
    expected: &ExpectedVersion,
    actor: &str,
) -> ApiResult<Player> {
    if !expected.is_conditional() {
        return Err(ApiError::PreconditionRequired(
            "erasing a player needs If-Match with the ETag of the player's current version".into(),
        ));
    }
    let before = players::load(c, id)?;
    expected.check(&crate::services::version::etag(
        "player",
        before.id,
        before.version,
    ))?;
    if let Some(comp) = running_competition(c, id)? {
        return Err(ApiError::Conflict(format!(
            "player {id} is still entered in competition {comp}, which is not over; \
             withdraw them there first"
        )));
    }
    let accounts = users::of_player(c, id)?;
    if let Some(a) = accounts.iter().find(|a| {
        crate::services::credentials::parse_roles(&a.roles)
            .contains(&crate::services::credentials::Role::Admin)
    }) {
        return Err(ApiError::Conflict(format!(
            "player {id} is linked to account {}, which holds the admin role; \
             take the role away first",
            a.id
        )));
    }
    let now = now_utc();
    for a in &accounts {
        crate::services::account_links::forget(c, a.id)?;
        crate::services::mail::forget_recipient(c, &a.email)?;
        crate::store::models::refresh_tokens::revoke_user(c, a.id, now)?;
        crate::services::users::rows::erase(c, a.id, &account_placeholder(a.id), now)?;
    }
    if let Some(e) = &before.email {
        crate::services::mail::forget_recipient(c, e)?;
    }
    crate::services::preferences::forget(c, id)?;
    let changes = PlayerChanges {
        name: Some(label(id)),
        knsb_number: Some(None),
        fide_id: Some(None),
        membership: None,
        active: Some(false),
        email: Some(None),
        phone: Some(None),
        publication: None,
    };
    let after = players::change(c, id, &ExpectedVersion::any(), &changes)?;
    audit(
        c,
        &NewAuditEntry {
            entity: crate::vocab::AuditEntity::Player,
            entity_id: id.get(),
            action: "erased".into(),
            actor: actor.to_string(),
            at: now,
            old_value: None,
            new_value: None,
            reason: Some(format!("{} linked account(s) disabled", accounts.len())),
        },
    )?;
    Ok(after)
}

/// Erases player `id` ([`erase`]) and answers them after with their ratings, which stay.
pub fn erase_and_view(
    c: &mut DbConn,
    id: PlayerId,
    expected: &ExpectedVersion,
    actor: &str,
) -> ApiResult<(Player, players::Ratings)> {
    let p = erase(c, id, expected, actor)?;
    Ok((p, players::ratings(c, id)?))
}

/// A competition `player` is entered in (not withdrawn) that is not over: one without
/// rounds, with a round not completed, or with fewer rounds than planned.
fn running_competition(c: &mut DbConn, player: PlayerId) -> ApiResult<Option<CompetitionId>> {
    let comps: Vec<CompetitionId> = entrants::table
        .filter(entrants::player_id.eq(player))
        .filter(entrants::withdrawn_from.is_null())
        .select(entrants::competition_id)
        .distinct()
        .load(c)?;
    for comp in comps {
        let planned = crate::services::competitions::load(c, comp)?.rounds_planned;
        let rounds = crate::services::rounds::list(c, comp)?;
        let open = rounds.is_empty()
            || rounds.iter().any(|r| r.status != RoundStatus::Completed)
            || planned.is_some_and(|p| usize::try_from(p).is_ok_and(|p| rounds.len() < p));
        if open {
            return Ok(Some(comp));
        }
    }
    Ok(None)
}
