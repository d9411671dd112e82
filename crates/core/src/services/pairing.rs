//! Pairings (docs/rules/keizer.md#pairing, docs/rules/rapid-blitz.md#the-dutch-system, docs/rules/draughts-championship.md#schedule-and-tempo): generating a round with the competition's engine, storing a
//! hand-made pairing (validated; a leader may override, recorded), and taking a pairing back.
//!
//! Every write runs in one transaction that first takes the round's write lock
//! ([`lock_round`]), then moves the round with `services::rounds::transition` and writes the
//! games — so of two simultaneous generate requests exactly one succeeds and the other gets 409.
//!
//! Engines: Keizer (`clubcomp_engine::keizer::pairing`, ranking from `clubcomp_engine::keizer::standings` over the
//! stored results), Swiss Dutch (`clubcomp_engine::swiss::dutch` over a TRF tournament built from the
//! stored games), Double-Swiss (`clubcomp_engine::double_swiss`, two games per pairing with colours
//! swapped), round robin (`clubcomp_engine::round_robin::schedule`, Berger tables).

use crate::error::{ApiError, ApiResult, FieldError};
use crate::ids::{CompetitionId, PlayerId, RoundId};
use crate::services::attendance as att;
use crate::services::round_views::{self, RoundView};
use crate::services::rounds;
use crate::store::DbConn;
use crate::store::models::competition::{Competition, Entrant, NewAuditEntry, NewGame, Round};
use crate::store::models::events::{EventKind, Visibility};
use crate::store::models::players;
use crate::store::now_utc;
use crate::store::stamps::Scope;
use crate::vocab::RoundStatus;
use clubcomp_engine::Membership;
use clubcomp_engine::{CompetitionKind, PairingSystem};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};

/// One board to store: `black == None` is a bye (stored with result `bye`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardPlan {
    /// Board number.
    pub board: i32,
    /// White (or the player with the bye).
    pub white: PlayerId,
    /// Black; `None` for a bye.
    pub black: Option<PlayerId>,
}

pub use crate::services::round_rows::lock_round;

/// Whether the round holds two games per pairing (the rapid, docs/rules/rapid-blitz.md#double-swiss).
pub fn two_games(comp: &Competition) -> bool {
    comp.kind == CompetitionKind::Swiss && comp.system == Some(PairingSystem::DoubleSwiss)
}

/// Player names for messages: `Name (#id)`.
pub(super) fn names(c: &mut DbConn, ids: &[PlayerId]) -> ApiResult<Vec<String>> {
    let mut out = Vec::new();
    for &id in ids {
        let n = players::by_id(c, id)?.map(|p| p.name).unwrap_or_default();
        out.push(format!("{n} (#{id})"));
    }
    Ok(out)
}

fn no_pairing(c: &mut DbConn, ids: &[PlayerId], why: &str) -> ApiResult<ApiError> {
    let list = names(c, ids)?;
    Ok(ApiError::Validation {
        detail: format!("no pairing exists: {why}; players: {}", list.join(", ")),
        errors: list
            .into_iter()
            .map(|n| FieldError::new("players", format!("{n} cannot be paired ({why})")))
            .collect(),
    })
}

/// Earlier rounds of the competition (numbers below `number`), in order.
fn earlier(c: &mut DbConn, comp: CompetitionId, number: i32) -> ApiResult<Vec<Round>> {
    Ok(rounds::list(c, comp)?
        .into_iter()
        .filter(|r| r.number < number)
        .collect())
}

/// Generation needs the results of every earlier round (Keizer ranking, Swiss scores).
fn require_completed(prev: &[Round]) -> ApiResult<()> {
    let open: Vec<String> = prev
        .iter()
        .filter(|r| r.status != RoundStatus::Completed)
        .map(|r| format!("round {} is {}", r.number, r.status))
        .collect();
    if open.is_empty() {
        Ok(())
    } else {
        Err(ApiError::Conflict(format!(
            "earlier rounds must be completed first: {}",
            open.join(", ")
        )))
    }
}

/// The players to pair: entrants whose attendance status is "paired".
fn present(
    c: &mut DbConn,
    comp: &Competition,
    round: &Round,
    tz: &str,
) -> ApiResult<HashSet<PlayerId>> {
    let a = att::evening(c, comp, round, tz)?;
    Ok(
        PlayerId::all_from_engine(a.players.iter().filter(|p| p.paired).map(|p| &p.player))?
            .into_iter()
            .collect(),
    )
}

fn entrants(c: &mut DbConn, comp: CompetitionId) -> ApiResult<Vec<Entrant>> {
    crate::services::competitions::entrants_in_seed_order(c, comp)
}

mod keizer;
mod swiss;

pub use keizer::keizer_input;

/// What the engine produced: the boards and the audit data for `pairing_meta`.
#[derive(Debug)]
pub struct Plan {
    /// Boards (the bye last).
    pub boards: Vec<BoardPlan>,
    /// Stored in `rounds.pairing_meta`.
    pub meta: Value,
}

fn round_robin(c: &mut DbConn, comp: &Competition, round: &Round) -> ApiResult<Plan> {
    use clubcomp_engine::round_robin::schedule;
    let ents = entrants(c, comp.id)?;
    let cycles = if comp.system == Some(PairingSystem::Double) {
        2
    } else {
        1
    };
    let table = schedule(ents.len() as u32, cycles)
        .map_err(|e| ApiError::invalid("entrants", e.to_string()))?;
    let Some(sr) = table.iter().find(|r| r.round as i32 == round.number) else {
        return Err(ApiError::invalid(
            "number",
            format!(
                "round {} is beyond the schedule of {} rounds",
                round.number,
                table.len()
            ),
        ));
    };
    let id = |n: u32| ents[n as usize - 1].player_id;
    // docs/rules/draughts-championship.md#withdrawal: the games of a player who withdrew are
    // not paired (the standings annul or forfeit them); the opponent is free that round
    let withdrawn = crate::store::models::competition::withdrawals(c, comp.id)?;
    let gone = |p: PlayerId| crate::services::withdrawal::gone(&withdrawn, p, round.number);
    let mut boards: Vec<BoardPlan> = sr
        .boards
        .iter()
        .filter(|b| !gone(id(b.white)) && !gone(id(b.black)))
        .enumerate()
        .map(|(i, b)| BoardPlan {
            board: i as i32 + 1,
            white: id(b.white),
            black: Some(id(b.black)),
        })
        .collect();
    if let Some(b) = sr.bye.filter(|&b| !gone(id(b))) {
        boards.push(BoardPlan {
            board: boards.len() as i32 + 1,
            white: id(b),
            black: None,
        });
    }
    let left_out: Vec<Value> = ents
        .iter()
        .filter(|e| gone(e.player_id))
        .map(|e| json!(e.player_id))
        .collect();
    let numbers: Vec<Value> = ents
        .iter()
        .enumerate()
        .map(|(i, e)| json!({"number": i + 1, "player_id": e.player_id}))
        .collect();
    let mut meta = json!({"system": "round_robin", "cycles": cycles, "berger_numbers": numbers});
    if !left_out.is_empty() {
        meta["withdrawn"] = Value::from(left_out);
    }
    Ok(Plan { boards, meta })
}

/// Computes the pairing of `round` with the competition's engine.
/// A Keizer bye is drawn with `bye_seed`, or with a seed from the OS when it is `None`.
pub fn plan(
    c: &mut DbConn,
    comp: &Competition,
    round: &Round,
    tz: &str,
    bye_seed: Option<u64>,
) -> ApiResult<Plan> {
    match (comp.kind, comp.system) {
        (CompetitionKind::RoundRobin, _) => round_robin(c, comp, round),
        (CompetitionKind::Keizer, _) => {
            require_completed(&earlier(c, comp.id, round.number)?)?;
            let (seed, source) = match bye_seed {
                Some(s) => (s, "leader"),
                None => (
                    getrandom::u64()
                        .map_err(|e| ApiError::Internal(format!("no OS randomness: {e}")))?,
                    "os",
                ),
            };
            let mut p = keizer::generate(c, comp, round, tz, seed)?;
            if let Some(m) = p.meta.as_object_mut() {
                m.insert("bye_seed_source".into(), json!(source));
            }
            Ok(p)
        }
        (CompetitionKind::Swiss, Some(PairingSystem::DoubleSwiss)) => {
            require_completed(&earlier(c, comp.id, round.number)?)?;
            swiss::double(c, comp, round, tz)
        }
        (CompetitionKind::Swiss, _) => {
            crate::services::check_in::require_closed(c, comp)?;
            require_completed(&earlier(c, comp.id, round.number)?)?;
            swiss::dutch(c, comp, round, tz)
        }
        (kind @ CompetitionKind::Knockout, _) => Err(ApiError::invalid(
            "kind",
            format!("a {kind} competition has no pairing engine"),
        )),
    }
}

fn store_games(
    c: &mut DbConn,
    comp: &Competition,
    round: RoundId,
    boards: &[BoardPlan],
) -> ApiResult<()> {
    let now = now_utc();
    let double = two_games(comp);
    for b in boards {
        let mut rows = vec![(1, b.white, b.black)];
        if double && let Some(bl) = b.black {
            rows.push((2, bl, Some(b.white)));
        }
        for (game_no, w, bl) in rows {
            crate::services::round_rows::insert_game(
                c,
                &NewGame {
                    round_id: round,
                    board: b.board,
                    game_no,
                    white_id: Some(w),
                    black_id: bl,
                    result: bl.is_none().then_some(crate::vocab::ResultCode::Bye),
                    termination: None,
                    move_count: None,
                    version: 1,
                    updated_at: now,
                },
            )?;
        }
    }
    Ok(())
}

fn set_meta(c: &mut DbConn, round: &Round, meta: Option<&Value>) -> ApiResult<()> {
    crate::services::round_rows::set_pairing_meta(c, round.id, meta.map(Value::to_string))?;
    crate::store::stamps::touch(c, Scope::Competition(round.competition_id))?;
    if meta.is_some() {
        // a pairing before it is published is the leader's (docs/rules/README.md)
        crate::store::stamps::record(
            c,
            rounds::round_event(round, EventKind::PairingGenerated, Visibility::Leader),
        )?;
    }
    Ok(())
}

fn audit(
    c: &mut DbConn,
    round: &Round,
    action: &str,
    actor: &str,
    new: Option<&Value>,
    reason: Option<String>,
) -> ApiResult<()> {
    crate::store::models::competition::audit(
        c,
        &NewAuditEntry {
            entity: crate::vocab::AuditEntity::Round,
            entity_id: round.id.get(),
            action: action.into(),
            actor: actor.into(),
            at: now_utc(),
            old_value: None,
            new_value: new.map(Value::to_string),
            reason,
        },
    )?;
    Ok(())
}

/// Checks `If-Match` against a round: the header must name the round's current version
/// (`"round-<id>-v<version>…"`, as `GET …/rounds/{n}` sends it) or be `*`.
pub fn check_round_if_match(header: Option<&str>, round: &Round) -> ApiResult<()> {
    let Some(v) = header else { return Ok(()) };
    let want = format!("\"round-{}-v{}", round.id, round.version);
    let ok = v.trim() == "*"
        || v.split(',').map(str::trim).any(|t| {
            t.strip_prefix(&want)
                .is_some_and(|rest| rest.starts_with('"') || rest.starts_with('-'))
        });
    if ok {
        Ok(())
    } else {
        Err(ApiError::PreconditionFailed(format!(
            "If-Match {v} does not match round {} version {}",
            round.number, round.version
        )))
    }
}

/// Generates the pairing of a planned round and moves it to `paired` (one transaction), and
/// answers the round as the club's staff see it.
pub fn generate_and_view(
    c: &mut DbConn,
    comp_id: CompetitionId,
    number: i32,
    tz: &str,
    actor: &str,
    expected: &crate::services::version::ExpectedVersion,
    bye_seed: Option<u64>,
) -> ApiResult<RoundView> {
    lock_round(c, comp_id, number)?;
    let comp = crate::services::competitions::load(c, comp_id)?;
    let round = rounds::load(c, comp_id, number)?;
    check_round_if_match(expected.as_header(), &round)?;
    if round.status != RoundStatus::Planned {
        return Err(ApiError::Conflict(format!(
            "round {number} is {}; only a planned round can be paired",
            round.status
        )));
    }
    let mut p = plan(c, &comp, &round, tz, bye_seed)?;
    rounds::transition(c, &round, RoundStatus::Planned, RoundStatus::Paired)?;
    store_games(c, &comp, round.id, &p.boards)?;
    if let Some(m) = p.meta.as_object_mut() {
        m.insert("generated_by".into(), json!(actor));
        m.insert(
            "generated_at".into(),
            json!(crate::wire::timestamp(chrono::Utc::now())),
        );
        m.insert("override".into(), json!(false));
    }
    set_meta(c, &round, Some(&p.meta))?;
    audit(c, &round, "pairing_generated", actor, Some(&p.meta), None)?;
    // the round as stored after the change, as the club's staff see it
    round_views::one(c, comp_id, number, true)
}

/// One board of a hand-made pairing.
#[derive(Debug, Clone, Copy, serde::Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct HandBoard {
    /// White (in game 1 of a two-game round).
    #[schema(value_type = i64)]
    pub white: PlayerId,
    /// Black (in game 1 of a two-game round).
    #[schema(value_type = i64)]
    pub black: PlayerId,
}

/// A hand-made pairing.
#[derive(Debug, Clone, serde::Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"boards": [{"white": 3, "black": 8}, {"white": 5, "black": 1}], "bye": 9}))]
pub struct HandPairing {
    /// The boards, board 1 first (at most 1000).
    #[schema(max_items = 1000)]
    pub boards: Vec<HandBoard>,
    /// The player with the bye, if any.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub bye: Option<PlayerId>,
    /// Store it even though it breaks pairing rules (leader only; recorded with the broken
    /// rules in the round's pairing details and the audit log).
    #[serde(default, rename = "override")]
    pub override_: bool,
}

/// Rule checks for systems other than Keizer: every present entrant exactly once, nobody
/// absent or unknown, no repeat where the system forbids it, a bye only on an odd field and
/// not a second pairing bye in a Swiss. Returns (hard errors, overridable broken rules).
fn generic_violations(
    c: &mut DbConn,
    comp: &Competition,
    round: &Round,
    hand: &HandPairing,
    tz: &str,
) -> ApiResult<Vec<FieldError>> {
    let ents: HashSet<PlayerId> = entrants(c, comp.id)?.iter().map(|e| e.player_id).collect();
    let expected: HashSet<PlayerId> = if comp.kind == CompetitionKind::Swiss {
        present(c, comp, round, tz)?
    } else {
        let withdrawn = crate::store::models::competition::withdrawals(c, comp.id)?;
        ents.iter()
            .copied()
            .filter(|&p| !crate::services::withdrawal::gone(&withdrawn, p, round.number))
            .collect()
    };
    let mut out = Vec::new();
    // meetings and byes in earlier rounds of this competition
    let mut met: HashMap<(PlayerId, PlayerId), u32> = HashMap::new();
    let mut had_bye: HashSet<PlayerId> = HashSet::new();
    for r in earlier(c, comp.id, round.number)? {
        for g in rounds::games_of(c, r.id)? {
            match (g.white_id, g.black_id) {
                (Some(w), Some(b)) if g.game_no == 1 => {
                    *met.entry((w.min(b), w.max(b))).or_default() += 1;
                }
                (Some(w), None) => {
                    had_bye.insert(w);
                }
                _ => {}
            }
        }
    }
    let max_meetings = match (comp.kind, comp.system) {
        (CompetitionKind::RoundRobin, Some(PairingSystem::Double)) => 2,
        _ => 1,
    };
    for (k, b) in hand.boards.iter().enumerate() {
        let pair = (b.white.min(b.black), b.white.max(b.black));
        if let Some(&n) = met.get(&pair)
            && n >= max_meetings
        {
            out.push(FieldError::new(
                format!("boards[{k}]"),
                format!(
                    "repeat: {} and {} already met {n} time(s); the {} system forbids it",
                    b.white,
                    b.black,
                    comp.system_or_kind()
                ),
            ));
        }
        for p in [b.white, b.black] {
            if ents.contains(&p) && !expected.contains(&p) {
                out.push(FieldError::new(
                    format!("boards[{k}]"),
                    format!("player {p} is paired but not present"),
                ));
            }
        }
    }
    if let Some(bye) = hand.bye {
        if ents.contains(&bye) && !expected.contains(&bye) {
            out.push(FieldError::new(
                "bye",
                format!("player {bye} is not present"),
            ));
        }
        if expected.len().is_multiple_of(2) {
            out.push(FieldError::new(
                "bye",
                format!(
                    "a bye although an even number ({}) is present",
                    expected.len()
                ),
            ));
        }
        if comp.kind == CompetitionKind::Swiss && had_bye.contains(&bye) {
            out.push(FieldError::new(
                "bye",
                format!("player {bye} already had the pairing-allocated bye (C.04.1 d)"),
            ));
        }
    } else if expected.len() % 2 == 1 {
        out.push(FieldError::new(
            "bye",
            "an odd number is present: someone must get the bye",
        ));
    }
    let named: HashSet<PlayerId> = hand
        .boards
        .iter()
        .flat_map(|b| [b.white, b.black])
        .chain(hand.bye)
        .collect();
    let mut missing: Vec<PlayerId> = expected.difference(&named).copied().collect();
    missing.sort_unstable();
    for p in missing {
        out.push(FieldError::new(
            "boards",
            format!("player {p} is present but not paired"),
        ));
    }
    Ok(out)
}

/// Hard errors that no override can pass: unknown (non-entrant) players, a player against
/// himself, a player named twice.
fn hard_violations(
    c: &mut DbConn,
    comp: &Competition,
    round: &Round,
    hand: &HandPairing,
) -> ApiResult<Vec<FieldError>> {
    let ents: HashSet<PlayerId> = entrants(c, comp.id)?.iter().map(|e| e.player_id).collect();
    let withdrawn = crate::store::models::competition::withdrawals(c, comp.id)?;
    let mut gone = Vec::new();
    for (k, b) in hand.boards.iter().enumerate() {
        for (p, side) in [(b.white, "white"), (b.black, "black")] {
            gone.push((p, format!("boards[{k}].{side}")));
        }
    }
    if let Some(b) = hand.bye {
        gone.push((b, "bye".to_string()));
    }
    gone.retain(|(p, _)| crate::services::withdrawal::gone(&withdrawn, *p, round.number));
    let mut out = Vec::new();
    if hand.boards.is_empty() && hand.bye.is_none() {
        out.push(FieldError::new("boards", "must not be empty"));
    }
    if hand.boards.len() > 1000 {
        out.push(FieldError::new("boards", "at most 1000 boards"));
    }
    let mut seen = HashSet::new();
    let mut check = |p: PlayerId, field: String, out: &mut Vec<FieldError>| {
        if !ents.contains(&p) {
            out.push(FieldError::new(
                field.clone(),
                format!("player {p} is not an entrant of competition {}", comp.id),
            ));
        }
        if !seen.insert(p) {
            out.push(FieldError::new(
                field,
                format!("player {p} is paired more than once"),
            ));
        }
    };
    for (k, b) in hand.boards.iter().enumerate() {
        if b.white == b.black {
            out.push(FieldError::new(
                format!("boards[{k}]"),
                format!("player {} is paired against himself", b.white),
            ));
            continue;
        }
        check(b.white, format!("boards[{k}].white"), &mut out);
        check(b.black, format!("boards[{k}].black"), &mut out);
    }
    if let Some(b) = hand.bye {
        check(b, "bye".into(), &mut out);
    }
    // docs/rules/README.md#withdrawal: no override pairs a player who withdrew
    for (p, field) in gone {
        let name = names(c, &[p])?.concat();
        out.push(FieldError::new(
            field,
            format!(
                "{name} withdrew from round {}: a withdrawn player is not paired again",
                withdrawn[&p]
            ),
        ));
    }
    Ok(out)
}

/// Stores a hand-made pairing for a planned or paired (unpublished) round. Broken rules are a
/// 422 naming each, unless `override` is set: then it is stored with the broken rules recorded.
/// Answers the round as the club's staff see it.
pub fn replace_and_view(
    c: &mut DbConn,
    comp_id: CompetitionId,
    number: i32,
    hand: &HandPairing,
    tz: &str,
    actor: &str,
    expected: &crate::services::version::ExpectedVersion,
) -> ApiResult<RoundView> {
    lock_round(c, comp_id, number)?;
    let comp = crate::services::competitions::load(c, comp_id)?;
    let round = rounds::load(c, comp_id, number)?;
    check_round_if_match(expected.as_header(), &round)?;
    if round.status != RoundStatus::Planned && round.status != RoundStatus::Paired {
        return Err(ApiError::Conflict(format!(
            "round {number} is {}; a pairing can be changed only before it is published",
            round.status
        )));
    }
    let hard = hard_violations(c, &comp, &round, hand)?;
    if !hard.is_empty() {
        return Err(ApiError::validation(hard));
    }
    let broken = if comp.kind == CompetitionKind::Keizer {
        keizer::validate(c, &comp, &round, hand, tz)?
    } else {
        generic_violations(c, &comp, &round, hand, tz)?
    };
    if !broken.is_empty() && !hand.override_ {
        return Err(ApiError::validation(broken));
    }
    if round.status == RoundStatus::Planned {
        rounds::transition(c, &round, RoundStatus::Planned, RoundStatus::Paired)?;
    } else {
        crate::services::round_rows::delete_games_of_round(c, round.id)?;
    }
    let mut boards: Vec<BoardPlan> = hand
        .boards
        .iter()
        .enumerate()
        .map(|(i, b)| BoardPlan {
            board: i as i32 + 1,
            white: b.white,
            black: Some(b.black),
        })
        .collect();
    if let Some(b) = hand.bye {
        boards.push(BoardPlan {
            board: boards.len() as i32 + 1,
            white: b,
            black: None,
        });
    }
    store_games(c, &comp, round.id, &boards)?;
    let rules: Vec<Value> = broken
        .iter()
        .map(|e| json!({"field": e.field, "rule": e.message}))
        .collect();
    let meta = json!({
        "system": comp.system_or_kind(),
        "manual": true,
        "override": !broken.is_empty(),
        "broken_rules": rules,
        "entered_by": actor,
        "entered_at": crate::wire::timestamp(chrono::Utc::now()),
    });
    set_meta(c, &round, Some(&meta))?;
    let (action, reason) = if broken.is_empty() {
        ("pairing_entered", None)
    } else {
        (
            "pairing_override",
            Some(
                broken
                    .iter()
                    .map(|e| format!("{}: {}", e.field, e.message))
                    .collect::<Vec<_>>()
                    .join("; "),
            ),
        )
    };
    audit(c, &round, action, actor, Some(&meta), reason)?;
    // the round as stored after the change, as the club's staff see it
    round_views::one(c, comp_id, number, true)
}

/// Returns a paired (unpublished) round to `planned`: its games and pairing details go.
/// Answers the round as the club's staff see it.
pub fn remove_and_view(
    c: &mut DbConn,
    comp_id: CompetitionId,
    number: i32,
    actor: &str,
    expected: &crate::services::version::ExpectedVersion,
) -> ApiResult<RoundView> {
    lock_round(c, comp_id, number)?;
    crate::services::competitions::load(c, comp_id)?;
    let round = rounds::load(c, comp_id, number)?;
    check_round_if_match(expected.as_header(), &round)?;
    let old = round.pairing_meta.clone();
    rounds::transition(c, &round, RoundStatus::Paired, RoundStatus::Planned)?;
    crate::services::round_rows::delete_games_of_round(c, round.id)?;
    set_meta(c, &round, None)?;
    crate::store::models::competition::audit(
        c,
        &NewAuditEntry {
            entity: crate::vocab::AuditEntity::Round,
            entity_id: round.id.get(),
            action: "pairing_deleted".into(),
            actor: actor.into(),
            at: now_utc(),
            old_value: old,
            new_value: None,
            reason: None,
        },
    )?;
    // the round as stored after the change, as the club's staff see it
    round_views::one(c, comp_id, number, true)
}

/// Membership of each entrant (for first-time flexible players).
fn memberships(c: &mut DbConn, comp: CompetitionId) -> ApiResult<HashMap<PlayerId, Membership>> {
    Ok(att::entrant_memberships(c, comp)?.into_iter().collect())
}
