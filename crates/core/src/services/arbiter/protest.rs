//! Protests to the KNDB protest committee against a decision of the tournament direction in a
//! draughts championship (docs/rules/draughts-championship.md#protests; decision 0274). The
//! rules of time, form and deposit are the engine's ([`engine::lodge_protest`]) under the
//! competition's `params.protest`; the committee's ruling is recorded once, and an upheld
//! protest sets the decision aside, entering the result the committee gave through the results
//! service.

use super::*;
use crate::ids::{ClaimId, CompetitionId, GameEventId, GameId, ProtestId};
use crate::services::competitions::{CompetitionParams, stored_params};
use crate::store::schema::protests;
use crate::vocab::ProtestRuling;
use chrono::NaiveDate;
use clubcomp_engine::{CompetitionKind, Discipline};

/// A protest to the protest committee.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProtestInput {
    /// The grounds, as written by the protester (not only blanks; at most 2000 characters).
    #[schema(pattern = r"\S")]
    pub grounds: String,
    /// Whether the protest was made in writing (required when the competition's
    /// `params.protest.in_writing` is true; default false).
    #[serde(default)]
    pub in_writing: bool,
    /// Whether the deposit was paid (required when the competition asks a deposit; default
    /// false).
    #[serde(default)]
    pub deposit_paid: bool,
}

/// The protest committee's decision, as the tournament direction records it.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProtestDecisionInput {
    /// `upheld`, `dismissed` or `inadmissible` (the dispute does not qualify for a protest).
    pub ruling: ProtestRuling,
    /// The committee's reasons (at most 2000 characters).
    #[serde(default)]
    pub reason: Option<String>,
    /// The game's result as the committee set it (a result code of the discipline); only with
    /// `upheld`. Without it an upheld protest only sets the decision aside, and the result can
    /// then be corrected the ordinary way.
    #[serde(default)]
    pub result: Option<String>,
}

/// A protest to the KNDB protest committee.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = protests, check_for_backend(crate::store::MultiBackend))]
pub struct ProtestRow {
    /// The protest's id.
    pub id: ProtestId,
    /// The game it concerns.
    pub game_id: GameId,
    /// The claim decision protested, if it is one.
    pub claim_id: Option<ClaimId>,
    /// The logged decision protested, if it is one.
    pub event_id: Option<GameEventId>,
    /// When the protested decision was taken (UTC).
    pub decided_at: NaiveDateTime,
    /// Why the protester disagrees.
    pub grounds: String,
    /// Whether it was made in writing.
    pub in_writing: bool,
    /// Whether the deposit was paid.
    pub deposit_paid: bool,
    /// Who lodged it.
    pub lodged_by: String,
    /// When it was lodged (UTC).
    pub lodged_at: NaiveDateTime,
    /// The last day a protest could be lodged, when the competition sets a time limit.
    pub last_day: Option<NaiveDate>,
    /// The committee's ruling, once recorded.
    pub ruling: Option<ProtestRuling>,
    /// The committee's reasons.
    pub ruling_reason: Option<String>,
    /// The result the committee set, if it set one.
    pub result: Option<String>,
    /// Who recorded the ruling.
    pub ruled_by: Option<String>,
    /// When the ruling was recorded (UTC).
    pub ruled_at: Option<NaiveDateTime>,
}

/// The championship's protest settings, or 422 naming the rule when the competition has no
/// protest route: only a draughts round robin (the KNDB championship) has one.
fn protest_params(comp: &Competition) -> ApiResult<ProtestParams> {
    let refused = || ApiError::Validation {
        detail: "protest refused (not_a_draughts_championship): a protest to the KNDB protest \
                 committee is open in a draughts round robin only; the club's competitions \
                 have the appeal to the board"
            .into(),
        errors: vec![FieldError::new(
            "protest",
            "not_a_draughts_championship: only a draughts round robin has a protest committee",
        )],
    };
    if comp.kind != CompetitionKind::RoundRobin || comp.discipline != Discipline::Draughts {
        return Err(refused());
    }
    match stored_params(comp)?.typed {
        CompetitionParams::RoundRobin(p) => Ok(p.protest),
        _ => Err(refused()),
    }
}

use crate::services::competitions::ProtestParams;

fn lodge(
    c: &mut DbConn,
    target: Disputed,
    input: &ProtestInput,
    who: &Appellant,
    now: DateTime<Utc>,
) -> ApiResult<ProtestRow> {
    let ctx = lodging_game(c, &target, &input.grounds, who, "protest")?;
    let settings = protest_params(&ctx.competition)?;
    let form = engine::ProtestForm {
        in_writing: input.in_writing,
        deposit_paid: input.deposit_paid,
    };
    let decided = DateTime::from_naive_utc_and_offset(target.decided_at, Utc);
    let last_day = engine::lodge_protest(decided, now, &settings.rules, form)
        .map_err(|e| lodging_refused("protest", &e))?;
    let row = diesel::insert_into(protests::table)
        .values((
            protests::game_id.eq(target.game),
            protests::claim_id.eq(target.claim_id),
            protests::event_id.eq(target.event_id),
            protests::decided_at.eq(target.decided_at),
            protests::grounds.eq(input.grounds.trim()),
            protests::in_writing.eq(input.in_writing),
            protests::deposit_paid.eq(input.deposit_paid),
            protests::lodged_by.eq(&who.label),
            protests::lodged_at.eq(now.naive_utc()),
            protests::last_day.eq(last_day),
        ))
        .returning(protests::all_columns)
        .get_result::<ProtestRow>(c)?;
    audit(
        c,
        &NewAuditEntry {
            entity: crate::vocab::AuditEntity::Protest,
            entity_id: row.id.get(),
            action: "protest_lodged".into(),
            actor: who.label.clone(),
            at: now.naive_utc(),
            old_value: None,
            new_value: Some(input.grounds.clone()),
            reason: None,
        },
    )?;
    Ok(row)
}

/// Lodges a protest against the decision on a claim ("now" is read here).
pub fn protest_claim(
    c: &mut DbConn,
    claim_id: ClaimId,
    input: &ProtestInput,
    who: &Appellant,
) -> ApiResult<ProtestRow> {
    protest_claim_at(c, claim_id, input, who, Utc::now())
}

/// Lodges a protest against the decision on a claim as at `now`.
pub fn protest_claim_at(
    c: &mut DbConn,
    claim_id: ClaimId,
    input: &ProtestInput,
    who: &Appellant,
    now: DateTime<Utc>,
) -> ApiResult<ProtestRow> {
    let target = disputed_claim(c, claim_id, "protest")?;
    lodge(c, target, input, who, now)
}

/// Lodges a protest against a decision event of the game's log (a decision on a claim, or
/// time added).
pub fn protest_event(
    c: &mut DbConn,
    event_id: GameEventId,
    input: &ProtestInput,
    who: &Appellant,
) -> ApiResult<ProtestRow> {
    let target = disputed_event(
        c,
        event_id,
        "only a decision of the tournament direction (a decision on a claim, time added) can \
         be protested",
    )?;
    lodge(c, target, input, who, Utc::now())
}

/// Loads a protest or 404.
pub fn load_protest(c: &mut DbConn, id: ProtestId) -> ApiResult<ProtestRow> {
    protests::table
        .find(id)
        .select(ProtestRow::as_select())
        .first(c)
        .optional()?
        .ok_or_else(|| ApiError::NotFound(format!("no protest {id}")))
}

/// One page of the protests about a game, oldest first (by id), and how many there are in all
/// (404 when there is no such game).
pub fn protests_of(
    c: &mut DbConn,
    game: GameId,
    limit: i64,
    offset: i64,
) -> ApiResult<(Vec<ProtestRow>, i64)> {
    c.transaction(|c| {
        load_game(c, game)?;
        let of_game = || protests::table.filter(protests::game_id.eq(game));
        Ok(crate::page_of!(c, of_game(), order: protests::id, rows: ProtestRow, limit, offset))
    })
}

/// One page of the protests in a competition's games, oldest first (by id), and how many
/// there are in all (404 when there is no such competition).
pub fn protests_of_competition(
    c: &mut DbConn,
    id: CompetitionId,
    limit: i64,
    offset: i64,
) -> ApiResult<(Vec<ProtestRow>, i64)> {
    c.transaction(|c| {
        crate::services::competitions::load(c, id)?;
        let ids: Vec<GameId> = games::table
            .inner_join(rounds::table)
            .filter(rounds::competition_id.eq(id))
            .select(games::id)
            .load(c)?;
        let of_comp = || protests::table.filter(protests::game_id.eq_any(&ids));
        Ok(crate::page_of!(c, of_comp(), order: protests::id, rows: ProtestRow, limit, offset))
    })
}

/// Records the committee's ruling on a protest, once (a second ruling: 409). An upheld
/// protest sets the protested decision aside; with a `result`, that result is entered through
/// the results service in the same transaction, audited with the protest as its reason. The
/// players' decision mails are queued in the same transaction
/// ([`crate::services::outcome_mails::decision_made`]).
pub fn decide_protest(
    c: &mut DbConn,
    notifier: crate::services::notifications::Notifier<'_>,
    id: ProtestId,
    input: &ProtestDecisionInput,
    actor: &str,
) -> ApiResult<ProtestRow> {
    if let Some(r) = &input.reason {
        crate::services::input::checked_multi_line("reason", r)?;
    }
    if input.result.is_some() && input.ruling != ProtestRuling::Upheld {
        return Err(ApiError::invalid(
            "result",
            "only an upheld protest sets a result; a dismissed or inadmissible one leaves the \
             decision standing",
        ));
    }
    let row = load_protest(c, id)?;
    lock_game(c, row.game_id)?;
    let now = crate::store::now_utc();
    // conditional: of two concurrent rulings exactly one is stored
    let n = diesel::update(
        protests::table
            .filter(protests::id.eq(id))
            .filter(protests::ruling.is_null()),
    )
    .set((
        protests::ruling.eq(input.ruling),
        protests::ruling_reason.eq(&input.reason),
        protests::result.eq(&input.result),
        protests::ruled_by.eq(actor),
        protests::ruled_at.eq(now),
    ))
    .execute(c)?;
    if n == 0 {
        return Err(ApiError::Conflict(format!(
            "protest {id} was already decided; the committee rules once"
        )));
    }
    audit(
        c,
        &NewAuditEntry {
            entity: crate::vocab::AuditEntity::Protest,
            entity_id: id.get(),
            action: "protest_decided".into(),
            actor: actor.into(),
            at: now,
            old_value: None,
            new_value: Some(input.ruling.as_str().to_string()),
            reason: input.reason.clone(),
        },
    )?;
    if let Some(result) = &input.result {
        let entry = crate::services::results::ResultInput {
            result: result.clone(),
            termination: None,
            move_count: None,
            reason: Some(format!("protest {id} upheld by the KNDB protest committee")),
        };
        crate::services::results::enter(
            c,
            row.game_id,
            &crate::services::version::ExpectedVersion::any(),
            &entry,
            actor,
        )?;
    }
    crate::services::outcome_mails::decision_made(
        c,
        notifier,
        row.game_id,
        crate::services::outcome_mails::Decided::Protest {
            id: id.get(),
            ruling: input.ruling,
        },
    )?;
    load_protest(c, id)
}
