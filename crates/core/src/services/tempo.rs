//! A game's own tempo (docs/rules/README.md#time-controls): the time control one game is
//! played at when both players agreed to another than the competition's. The rule of which
//! tempos a competition allows is the engine's (`clubcomp_engine::arbiter::tempo`); this module
//! loads the game, applies it, and stores the tempo with an audit entry, before the result.

use crate::error::{ApiError, ApiResult, FieldError};
use crate::ids::GameId;
use crate::services::competitions::{TimeControl, stored_time_control};
use crate::services::results::{bump_game_version, load_game, lock_game};
use crate::services::version::{ExpectedVersion, etag};
use crate::store::DbConn;
use crate::store::models::competition::{Competition, Game, NewAuditEntry, audit};
use crate::store::now_utc;
use crate::store::schema::{claims, games};
use crate::store::stamps::Scope;
use clubcomp_engine::arbiter::tempo::{
    GameTempo, TempoRefusal, TempoRule, check_game_tempo, same_tempo,
};
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The tempo a game is to be played at.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"time_control": {"periods": [{"moves": 40, "minutes": 90}, {"minutes": 15}]}, "agreed": true}))]
pub struct TempoInput {
    /// The time control of this game, with the bounds of a competition's. `null` (or the
    /// competition's own time control): the game is played at the competition's tempo.
    #[serde(default)]
    pub time_control: Option<TimeControl>,
    /// Both players agreed to this tempo: required for any tempo other than the
    /// competition's.
    #[serde(default)]
    pub agreed: bool,
}

/// The tempo a game is played at.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct GameTimeControl {
    /// The time control that applies: the game's own, else the competition's.
    pub time_control: TimeControl,
    /// Whether the game has a tempo of its own (agreed for this game).
    pub own: bool,
}

/// The tempo game `game` of `comp` is played at: its own when one is stored, else the
/// competition's (an internal error when a stored one does not decode).
pub fn effective(comp: &Competition, game: &Game) -> ApiResult<GameTimeControl> {
    match &game.time_control {
        Some(text) => Ok(GameTimeControl {
            time_control: serde_json::from_str(text).map_err(|e| {
                ApiError::Internal(format!(
                    "game {}: stored time control does not decode: {e}",
                    game.id
                ))
            })?,
            own: true,
        }),
        None => Ok(GameTimeControl {
            time_control: stored_time_control(comp)?,
            own: false,
        }),
    }
}

/// The audit value of a change of tempo.
#[derive(Debug, Serialize)]
struct AuditValue<'a> {
    time_control: Option<&'a TimeControl>,
    #[serde(skip_serializing_if = "Option::is_none")]
    agreed: Option<bool>,
}

fn refusal_name(r: &TempoRefusal) -> String {
    serde_json::to_value(r)
        .ok()
        .and_then(|v| {
            v.get("refusal")
                .and_then(|x| x.as_str())
                .map(str::to_string)
        })
        .unwrap_or_default()
}

/// Sets (or clears) the tempo of game `id` in one transaction, before its result: the
/// structure of the time control and the competition's rule (422 naming the field and the
/// rule), the leader's approval where the rule needs it (403), `If-Match` against the game's
/// version (412), the game's state (409: a bye, a result entered, a quickplay-finish claim
/// made at the tempo), then the write, an audit entry and the competition's cache stamp.
/// `leader` says whether the caller is a leader (or an administrator).
pub fn set(
    c: &mut DbConn,
    id: GameId,
    expected: &ExpectedVersion,
    input: &TempoInput,
    leader: bool,
    actor: &str,
) -> ApiResult<(Game, Competition)> {
    let mut errs = Vec::new();
    if let Some(tc) = &input.time_control {
        tc.check(&mut errs);
    }
    if !errs.is_empty() {
        return Err(ApiError::validation(errs));
    }
    // the game's write lock first (as a result entry takes it), then the arbiter's lock of the
    // game, which a claim takes: a claim and a change of tempo are applied one after the other
    lock_game(c, id)?;
    let (game, _round, comp) = load_game(c, id)?;
    crate::store::stamps::touch_now(c, Scope::GameArbiter(id))?;
    let competition_tc = stored_time_control(&comp)?;
    let rule = TempoRule::of(comp.kind, comp.system);
    // the competition's own tempo is stored as none: the game follows the competition
    let own = input
        .time_control
        .clone()
        .filter(|tc| !same_tempo(&tc.to_engine(), &competition_tc.to_engine()));
    if let Some(tc) = &own {
        let (game_tc, comp_tc) = (tc.to_engine(), competition_tc.to_engine());
        let proposed = GameTempo {
            competition: &comp_tc,
            game: &game_tc,
            agreed: input.agreed,
        };
        if let Err(refusal) = check_game_tempo(rule, &proposed) {
            let field = match refusal {
                TempoRefusal::NotAgreed => "agreed",
                _ => "time_control",
            };
            let msg = format!("refused ({}): {refusal}", refusal_name(&refusal));
            return Err(ApiError::Validation {
                detail: format!("the game's tempo {msg}"),
                errors: vec![FieldError::new(field, msg)],
            });
        }
        if rule.needs_leader_approval() && !leader {
            return Err(ApiError::Forbidden(
                "the Keizer's alternative tempo needs the leader's approval (club rules, \
                 Algemeen): the leader records it"
                    .into(),
            ));
        }
    }
    expected.check(&etag("game", game.id, game.version))?;
    if game.black_id.is_none() {
        return Err(ApiError::Conflict(format!(
            "game {id} is a bye: there is no game to play at a tempo"
        )));
    }
    if let Some(result) = &game.result {
        return Err(ApiError::Conflict(format!(
            "game {id} has its result ({result}): its tempo is set before the result"
        )));
    }
    let quickplay_claims: i64 = claims::table
        .filter(claims::game_id.eq(id))
        .filter(claims::kind.eq(crate::vocab::ClaimKind::QuickplayFinish))
        .count()
        .get_result(c)?;
    if quickplay_claims > 0 {
        return Err(ApiError::Conflict(format!(
            "a quickplay-finish claim was made in game {id} at its tempo: the tempo is fixed"
        )));
    }
    let old = effective(&comp, &game)?;
    let text = own
        .as_ref()
        .map(|tc| serde_json::to_string(tc).map_err(|e| ApiError::Internal(e.to_string())))
        .transpose()?;
    bump_game_version(c, game.id, game.version)?;
    crate::services::round_rows::set_game_time_control(c, game.id, text.as_deref())?;
    let old_value = AuditValue {
        time_control: old.own.then_some(&old.time_control),
        agreed: None,
    };
    let new_value = AuditValue {
        time_control: own.as_ref(),
        agreed: own.is_some().then_some(input.agreed),
    };
    audit(
        c,
        &NewAuditEntry {
            entity: crate::vocab::AuditEntity::Game,
            entity_id: game.id.get(),
            action: "time_control_set".into(),
            actor: actor.to_string(),
            at: now_utc(),
            old_value: serde_json::to_string(&old_value).ok(),
            new_value: serde_json::to_string(&new_value).ok(),
            reason: None,
        },
    )?;
    crate::store::stamps::touch(c, Scope::Competition(comp.id))?;
    let game = games::table.find(id).select(Game::as_select()).first(c)?;
    Ok((game, comp))
}
