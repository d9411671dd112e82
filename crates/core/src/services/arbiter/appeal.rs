//! Appeals to the board against an arbiter's decision (docs/rules/arbiter.md#appeals).

use super::*;
use crate::ids::{AppealId, ClaimId, GameEventId};
use crate::vocab::AppealRuling;

/// An appeal to the board (docs/rules/arbiter.md#appeals).
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AppealInput {
    /// The grounds, as written by the appellant (not only blanks).
    #[schema(pattern = r"\S")]
    pub grounds: String,
    /// Whether the appeal was made in writing (docs/rules/arbiter.md#appeals: required; default true).
    #[serde(default = "yes")]
    pub in_writing: bool,
}

fn yes() -> bool {
    true
}

/// The board's ruling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RulingInput {
    /// Upheld: the arbiter's decision is set aside.
    Upheld,
    /// Dismissed: the arbiter's decision stands.
    Dismissed,
}

/// The board's decision on an appeal.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AppealDecisionInput {
    /// Upheld or dismissed.
    pub ruling: RulingInput,
    /// The board's reasons.
    #[serde(default)]
    pub reason: Option<String>,
}

fn utc(t: NaiveDateTime) -> DateTime<Utc> {
    DateTime::from_naive_utc_and_offset(t, Utc)
}

fn lodge(
    c: &mut DbConn,
    target: Disputed,
    input: &AppealInput,
    who: &Appellant,
    now: DateTime<Utc>,
) -> ApiResult<AppealRow> {
    lodging_game(c, &target, &input.grounds, who, "appeal")?;
    let appeal = engine::lodge_appeal(utc(target.decided_at), now, input.in_writing)
        .map_err(|e| lodging_refused("appeal", &e))?;
    let row = diesel::insert_into(appeals::table)
        .values((
            appeals::game_id.eq(target.game),
            appeals::claim_id.eq(target.claim_id),
            appeals::event_id.eq(target.event_id),
            appeals::decided_at.eq(target.decided_at),
            appeals::grounds.eq(input.grounds.trim()),
            appeals::lodged_by.eq(&who.label),
            appeals::lodged_at.eq(now.naive_utc()),
            appeals::last_day.eq(appeal.window.last_day),
        ))
        .returning(appeals::all_columns)
        .get_result::<AppealRow>(c)?;
    audit(
        c,
        &NewAuditEntry {
            entity: crate::vocab::AuditEntity::Appeal,
            entity_id: row.id.get(),
            action: "appeal_lodged".into(),
            actor: who.label.clone(),
            at: now.naive_utc(),
            old_value: None,
            new_value: Some(input.grounds.clone()),
            reason: None,
        },
    )?;
    Ok(row)
}

/// Lodges an appeal against the decision on a claim ("now" is read here, docs/rules/arbiter.md#appeals).
pub fn appeal_claim(
    c: &mut DbConn,
    claim_id: ClaimId,
    input: &AppealInput,
    who: &Appellant,
) -> ApiResult<AppealRow> {
    let target = disputed_claim(c, claim_id, "appeal")?;
    lodge(c, target, input, who, Utc::now())
}

/// Lodges an appeal against an arbiter's decision event (a decision on a claim, or time
/// added).
pub fn appeal_event(
    c: &mut DbConn,
    event_id: GameEventId,
    input: &AppealInput,
    who: &Appellant,
) -> ApiResult<AppealRow> {
    let target = disputed_event(
        c,
        event_id,
        "only an arbiter's decision (a decision on a claim, time added) can be appealed",
    )?;
    lodge(c, target, input, who, Utc::now())
}

/// Loads an appeal or 404.
pub fn load_appeal(c: &mut DbConn, id: AppealId) -> ApiResult<AppealRow> {
    appeals::table
        .find(id)
        .select(AppealRow::as_select())
        .first(c)
        .optional()?
        .ok_or_else(|| ApiError::NotFound(format!("no appeal {id}")))
}

/// One page of the appeals about a game, oldest first (by id): `limit` appeals from `offset`,
/// and how many there are in all, read in one transaction (404 when there is no such game).
pub fn appeals_of(
    c: &mut DbConn,
    game: GameId,
    limit: i64,
    offset: i64,
) -> ApiResult<(Vec<AppealRow>, i64)> {
    c.transaction(|c| {
        load_game(c, game)?;
        let of_game = || appeals::table.filter(appeals::game_id.eq(game));
        Ok(crate::page_of!(c, of_game(), order: appeals::id, rows: AppealRow, limit, offset))
    })
}

/// The engine's form of a stored ruling.
fn board_ruling(r: AppealRuling) -> engine::BoardRuling {
    match r {
        AppealRuling::Upheld => engine::BoardRuling::Upheld,
        AppealRuling::Dismissed => engine::BoardRuling::Dismissed,
    }
}

/// The board decides an appeal, once (a second decision: 409), and the players' decision
/// mails are queued ([`crate::services::outcome_mails::decision_made`]).
pub fn decide_appeal(
    c: &mut DbConn,
    notifier: crate::services::notifications::Notifier<'_>,
    id: AppealId,
    input: &AppealDecisionInput,
    actor: &str,
) -> ApiResult<AppealRow> {
    let row = load_appeal(c, id)?;
    let stored = match input.ruling {
        RulingInput::Upheld => AppealRuling::Upheld,
        RulingInput::Dismissed => AppealRuling::Dismissed,
    };
    let ruling = board_ruling(stored);
    let current = engine::Appeal {
        decided_at: utc(row.decided_at),
        lodged_at: utc(row.lodged_at),
        window: engine::appeal_window(utc(row.decided_at))
            .map_err(|e| internal("appeal window", e))?,
        ruling: row.ruling.map(board_ruling),
    };
    engine::board_decides(&current, ruling).map_err(|e| ApiError::Conflict(e.to_string()))?;
    let now = crate::store::now_utc();
    // conditional: of two concurrent board decisions exactly one is stored
    let n = diesel::update(
        appeals::table
            .filter(appeals::id.eq(id))
            .filter(appeals::ruling.is_null()),
    )
    .set((
        appeals::ruling.eq(stored),
        appeals::ruling_reason.eq(&input.reason),
        appeals::ruled_by.eq(actor),
        appeals::ruled_at.eq(now),
    ))
    .execute(c)?;
    if n == 0 {
        return Err(ApiError::Conflict(format!(
            "appeal {id} was already decided; the board's decision is final"
        )));
    }
    audit(
        c,
        &NewAuditEntry {
            entity: crate::vocab::AuditEntity::Appeal,
            entity_id: id.get(),
            action: "appeal_decided".into(),
            actor: actor.into(),
            at: now,
            old_value: None,
            new_value: Some(stored.as_str().to_string()),
            reason: input.reason.clone(),
        },
    )?;
    crate::services::outcome_mails::decision_made(
        c,
        notifier,
        row.game_id,
        crate::services::outcome_mails::Decided::Appeal {
            id: id.get(),
            upheld: ruling == engine::BoardRuling::Upheld,
        },
    )?;
    load_appeal(c, id)
}
