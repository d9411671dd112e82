//! What an appeal to the board (docs/rules/arbiter.md#appeals) and a protest to the KNDB
//! protest committee (docs/rules/draughts-championship.md#protests) share: who lodges one,
//! the decision it is against, and the checks before its own rules of time and form.

use super::*;
use crate::ids::{ClaimId, GameEventId, PlayerId};

/// Who lodges an appeal or a protest: officials record it for a player; a member only for a
/// game of the player linked to their account.
#[derive(Debug, Clone)]
pub struct Appellant {
    /// Audit label.
    pub label: String,
    /// Whether the caller is an official (arbiter, leader, admin).
    pub official: bool,
    /// The caller's linked player.
    pub player_id: Option<PlayerId>,
}

/// The decision an appeal or a protest is against.
pub(super) struct Disputed {
    pub(super) game: GameId,
    pub(super) claim_id: Option<ClaimId>,
    pub(super) event_id: Option<GameEventId>,
    pub(super) decided_at: NaiveDateTime,
}

/// The decision on claim `claim_id`, or 409 while it is not decided (`what`: `appeal`,
/// `protest`).
pub(super) fn disputed_claim(c: &mut DbConn, claim_id: ClaimId, what: &str) -> ApiResult<Disputed> {
    let claim = load_claim(c, claim_id)?;
    let decided_at = claim.decided_at.ok_or_else(|| {
        ApiError::Conflict(format!(
            "claim {claim_id} is not decided yet: nothing to {what}"
        ))
    })?;
    Ok(Disputed {
        game: claim.game_id,
        claim_id: Some(claim_id),
        event_id: None,
        decided_at,
    })
}

/// The decision logged as event `event_id` (a decision on a claim, with that claim, or time
/// added); 404 when there is no such event, 422 with `refusal` for any other event.
pub(super) fn disputed_event(
    c: &mut DbConn,
    event_id: GameEventId,
    refusal: &str,
) -> ApiResult<Disputed> {
    let row: EventRow = game_events::table
        .find(event_id)
        .select(EventRow::as_select())
        .first(c)
        .optional()?
        .ok_or_else(|| ApiError::NotFound(format!("no event {event_id}")))?;
    let event: GameEvent =
        serde_json::from_str(&row.event).map_err(|e| internal("stored event", e))?;
    let claim_id = match event {
        GameEvent::Decision { claim, .. } => claims::table
            .filter(claims::game_id.eq(row.game_id))
            .filter(claims::event_seq.eq(claim as i32))
            .select(claims::id)
            .first::<ClaimId>(c)
            .optional()?,
        GameEvent::TimeAdded { .. } => None,
        _ => return Err(ApiError::invalid("event", refusal)),
    };
    Ok(Disputed {
        game: row.game_id,
        claim_id,
        event_id: Some(event_id),
        decided_at: row.at,
    })
}

/// The checks before a lodging's own rules: grounds that are not only blanks (and a valid
/// multi-line text), and a member only for their own game (`what`: `appeal`, `protest`).
/// Answers the disputed game.
pub(super) fn lodging_game(
    c: &mut DbConn,
    target: &Disputed,
    grounds: &str,
    who: &Appellant,
    what: &str,
) -> ApiResult<GameCtx> {
    if grounds.trim().is_empty() {
        return Err(ApiError::invalid("grounds", "must not be empty"));
    }
    crate::services::input::checked_multi_line("grounds", grounds)?;
    let ctx = load_game(c, target.game)?;
    let own =
        |p: Option<PlayerId>| p.is_some() && (p == ctx.game.white_id || p == ctx.game.black_id);
    if !who.official && !own(who.player_id) {
        return Err(ApiError::Forbidden(format!(
            "a member may {what} only a decision in their own game"
        )));
    }
    Ok(ctx)
}

/// The engine's refusal `e` of a lodging (`what`: `appeal`, `protest`), as a 422 naming its
/// rule.
pub(super) fn lodging_refused<E: Serialize + std::fmt::Display>(what: &str, e: &E) -> ApiError {
    let name = variant_name(e);
    ApiError::Validation {
        detail: format!("{what} refused ({name}): {e}"),
        errors: vec![FieldError::new(what, format!("{name}: {e}"))],
    }
}
