//! Withdrawal of an entrant from a competition (docs/rules/README.md#withdrawal): from a round
//! not yet paired on, the player is left out of every pairing; their earlier games stand and
//! the standings apply the rule of the competition's kind (Keizer, round robin, Swiss).
//!
//! Refused, with nothing stored: a player who is not entered, a second withdrawal, a round
//! that is already paired, published or played (the arbiter scores a game already paired as
//! a forfeit instead), a round beyond the planned ones, a date without a round on or after it
//! to take effect from.

use crate::error::{ApiError, ApiResult, FieldError};
use crate::ids::{CompetitionId, PlayerId};
use crate::services::rounds;
use crate::store::DbConn;
use crate::store::models::competition::{Entrant, NewAuditEntry, Round};
use crate::store::now_utc;
use crate::store::schema::entrants as en;
use crate::store::stamps::Scope;
use crate::vocab::RoundStatus;
use chrono::NaiveDate;
use clubcomp_engine::{CompetitionKind, PairingSystem};
use diesel::prelude::*;

/// The longest reason, in characters.
pub const REASON_MAX: usize = 500;

/// A withdrawal as requested: from a round, or from a date (the first round on or after it);
/// without either, from the first round not yet paired.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The first round the player no longer plays.
    pub from_round: Option<i32>,
    /// The date from which the player no longer plays.
    pub date: Option<NaiveDate>,
    /// Why (kept in the audit log).
    pub reason: Option<String>,
}

fn who(c: &mut DbConn, player: PlayerId) -> ApiResult<String> {
    let name = crate::store::models::players::by_id(c, player)?
        .map(|p| p.name)
        .unwrap_or_default();
    Ok(format!("{name} (#{player})"))
}

/// The date of a round: its own, else its calendar evening's.
fn round_date(c: &mut DbConn, r: &Round) -> Option<NaiveDate> {
    r.date.or_else(|| {
        r.evening_id
            .and_then(|e| crate::services::calendar::load_evening(c, e).ok())
            .map(|e| e.date)
    })
}

/// The number of rounds the competition has at most: the round-robin schedule of its field,
/// else the planned number of rounds when one is set.
fn last_round(
    c: &mut DbConn,
    comp: &crate::store::models::competition::Competition,
) -> ApiResult<Option<i32>> {
    if comp.kind == CompetitionKind::RoundRobin {
        let n: i64 = en::table
            .filter(en::competition_id.eq(comp.id))
            .count()
            .get_result(c)?;
        let per_cycle = if n % 2 == 0 { n - 1 } else { n };
        let cycles = if comp.system == Some(PairingSystem::Double) {
            2
        } else {
            1
        };
        return Ok(Some((per_cycle.max(0) * cycles) as i32));
    }
    Ok(comp.rounds_planned)
}

/// Withdraws `player` from competition `comp_id` in the caller's transaction, audited as
/// `withdrawn` on the entrant. Returns the updated entrant.
pub fn withdraw(
    c: &mut DbConn,
    comp_id: CompetitionId,
    player: PlayerId,
    req: &Request,
    actor: &str,
) -> ApiResult<Entrant> {
    let comp = crate::services::competitions::load(c, comp_id)?;
    if let Some(r) = &req.reason
        && r.chars().count() > REASON_MAX
    {
        return Err(ApiError::invalid(
            "reason",
            format!("must be at most {REASON_MAX} characters"),
        ));
    }
    if let Some(r) = &req.reason {
        crate::services::input::checked_multi_line("reason", r)?;
    }
    if req.from_round.is_some() && req.date.is_some() {
        return Err(ApiError::invalid(
            "date",
            "give from_round or date, not both",
        ));
    }
    if let Some(n) = req.from_round
        && !(1..=99).contains(&n)
    {
        return Err(ApiError::invalid("from_round", "must be from 1 to 99"));
    }
    // the competition's stamp first: its row lock (Postgres; SQLite holds the write lock
    // already) queues a withdrawal behind a pairing of the same competition
    crate::store::stamps::touch_now(c, Scope::Competition(comp_id))?;
    let Some(entrant) = en::table
        .filter(en::competition_id.eq(comp_id))
        .filter(en::player_id.eq(player))
        .select(Entrant::as_select())
        .first(c)
        .optional()?
    else {
        let name = who(c, player)?;
        return Err(ApiError::invalid(
            "player_id",
            format!("only an entrant can withdraw: {name} is not entered in competition {comp_id}"),
        ));
    };
    let name = who(c, player)?;
    if let Some(w) = entrant.withdrawn_from {
        return Err(ApiError::Conflict(format!(
            "a withdrawal is final: {name} already withdrew from round {w} of competition {comp_id}"
        )));
    }
    let list = rounds::list(c, comp_id)?;
    // the first round not yet paired: every round from it on is still planned
    let first_open = list
        .iter()
        .rev()
        .take_while(|r| r.status == RoundStatus::Planned)
        .map(|r| r.number)
        .min()
        .unwrap_or_else(|| list.iter().map(|r| r.number).max().unwrap_or(0) + 1);
    let (from, field) = match (req.from_round, req.date) {
        (Some(n), _) => (n, "from_round"),
        (None, Some(d)) => {
            let mut on_or_after = None;
            for r in &list {
                if round_date(c, r).is_some_and(|rd| rd >= d) {
                    on_or_after = Some(r.number);
                    break;
                }
            }
            let Some(n) = on_or_after else {
                return Err(ApiError::invalid(
                    "date",
                    format!(
                        "no round of competition {comp_id} is dated on or after {d}; give \
                         from_round instead"
                    ),
                ));
            };
            (n, "date")
        }
        (None, None) => (first_open, "from_round"),
    };
    if let Some(last) = last_round(c, &comp)?
        && from > last
    {
        return Err(ApiError::invalid(
            field,
            format!(
                "round {from} is beyond the last round ({last}) of competition {comp_id}: \
                 {name} has no round left to withdraw from"
            ),
        ));
    }
    let mut played = Vec::new();
    for r in list
        .iter()
        .filter(|r| r.number >= from && r.status != RoundStatus::Planned)
    {
        played.push(r);
    }
    if let Some(r) = played.first() {
        let board = rounds::games_of(c, r.id)?
            .into_iter()
            .find(|g| g.white_id == Some(player) || g.black_id == Some(player))
            .map(|g| format!(" ({name} is on board {})", g.board))
            .unwrap_or_default();
        let rule = format!(
            "a withdrawal takes effect from a round not yet paired (the first is round \
             {first_open})"
        );
        return Err(if r.status == RoundStatus::Completed {
            ApiError::Validation {
                detail: format!(
                    "round {} of competition {comp_id} is already played; {rule}",
                    r.number
                ),
                errors: vec![FieldError::new(
                    field,
                    format!(
                        "{name} cannot withdraw from round {}: it is played; {rule}",
                        r.number
                    ),
                )],
            }
        } else {
            ApiError::Conflict(format!(
                "{name} cannot withdraw from round {}: it is already {}{board}; {rule} — the \
                 arbiter scores a paired game as a forfeit, or the leader takes an \
                 unpublished pairing back first",
                r.number, r.status
            ))
        });
    }
    crate::services::competitions::rows::set_withdrawn_from(c, entrant.id, from)?;
    crate::store::models::competition::audit(
        c,
        &NewAuditEntry {
            entity: crate::vocab::AuditEntity::Entrant,
            entity_id: entrant.id.get(),
            action: "withdrawn".into(),
            actor: actor.into(),
            at: now_utc(),
            old_value: None,
            new_value: Some(
                serde_json::json!({
                    "competition_id": comp_id,
                    "player_id": player,
                    "from_round": from,
                    "date": req.date.map(|d| d.to_string()),
                })
                .to_string(),
            ),
            reason: req.reason.clone(),
        },
    )?;
    crate::store::stamps::touch(c, Scope::Competition(comp_id))?;
    Ok(en::table
        .find(entrant.id)
        .select(Entrant::as_select())
        .first(c)?)
}

/// Withdraws `player` ([`withdraw`]) and answers every entrant of the competition after, in
/// the caller's transaction.
pub fn withdraw_and_view(
    c: &mut DbConn,
    comp_id: CompetitionId,
    player: PlayerId,
    req: &Request,
    actor: &str,
) -> ApiResult<Vec<crate::services::competitions::EntrantView>> {
    withdraw(c, comp_id, player, req, actor)?;
    crate::services::competitions::entrant_views(c, comp_id)
}

/// Whether `player` withdrew by round `number` (the map of
/// `db::models::competition::withdrawals`).
pub fn gone(
    withdrawn: &std::collections::HashMap<PlayerId, i32>,
    player: PlayerId,
    number: i32,
) -> bool {
    withdrawn.get(&player).is_some_and(|&w| w <= number)
}
