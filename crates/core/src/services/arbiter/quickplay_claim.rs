//! Quickplay-finish claims (docs/rules/arbiter.md#quickplay-finish-fide-102): whether the
//! competition applies FIDE 10.2, and the claim checked against the tempo the game is played
//! at; the arbiter decides it, now or later.

use super::claim::Checked;
use super::*;

/// Whether the competition applies the quickplay-finish rule: its `rules.quickplay_finish`,
/// else the default for its kind (docs/rules/rapid-blitz.md#double-swiss: not in the rapid).
fn applies_quickplay(comp: &Competition) -> bool {
    let rules: serde_json::Value = serde_json::from_str(&comp.rules).unwrap_or_default();
    rules
        .get("quickplay_finish")
        .and_then(|v| v.as_bool())
        .unwrap_or_else(|| {
            default_rules(Some(comp.kind), comp.system, Some(comp.discipline))["quickplay_finish"]
                .as_bool()
                .unwrap_or(true)
        })
}

/// The largest move number a quickplay-finish claim may name (the longest games played
/// have fewer than 300 moves).
pub const MAX_MOVE_NUMBER: u32 = 1000;

pub(super) fn check_quickplay(
    ctx: &GameCtx,
    input: &ClaimInput,
    record: Option<Record>,
    state: &GameState,
) -> ApiResult<Checked> {
    let remaining_ms = input
        .remaining_ms
        .ok_or_else(|| ApiError::invalid("remaining_ms", "the claimant's time left is required"))?;
    // bounded before anything is built from it: a game without moves gets that many
    // anonymous moves
    if input
        .move_number
        .is_some_and(|n| !(1..=MAX_MOVE_NUMBER).contains(&n))
    {
        return Err(ApiError::invalid(
            "move_number",
            format!("must be from 1 to {MAX_MOVE_NUMBER}"),
        ));
    }
    // the record (if any) gives the moves; else the claimant and move number place the claim
    let plies = record.as_ref().map(read_plies).transpose()?;
    let (claimant, move_number, plies) = match plies {
        Some(mut p) => {
            // moves the log holds past the record count as moves without notation
            let have = (state.moves[0] + state.moves[1]) as usize;
            if p.len() < have {
                p.resize(have, String::new());
            }
            let n = p.len() as u32;
            let to_move = if n.is_multiple_of(2) {
                Colour::White
            } else {
                Colour::Black
            };
            let claimant = input.claimant.unwrap_or(to_move);
            (claimant, input.move_number.unwrap_or(n / 2 + 1), p)
        }
        None => {
            let claimant = input.claimant.unwrap_or(state.to_move);
            let idx = usize::from(claimant == Colour::Black);
            let mn = input.move_number.unwrap_or(state.moves[idx] + 1);
            if mn == 0 {
                return Err(ApiError::invalid("move_number", "must be 1 or more"));
            }
            let before = 2 * (mn as usize - 1) + idx;
            let have = (state.moves[0] + state.moves[1]) as usize;
            // anonymous moves up to the claimant's turn at that move number
            (claimant, mn, vec![String::new(); before.max(have)])
        }
    };
    let claim = QuickplayClaim {
        claimant,
        remaining_ms,
        move_number,
        competition_applies_rule: applies_quickplay(&ctx.competition),
        // the tempo the game is played at: its own (agreed) or the competition's
        time_control: crate::services::tempo::effective(&ctx.competition, &ctx.game)?
            .time_control
            .to_engine(),
    };
    if let Err(refusal) = engine::quickplay::check_quickplay_claim(&claim) {
        let name = variant_name(&refusal);
        let msg = format!("refused ({name}): {refusal}");
        return Err(ApiError::Validation {
            detail: format!("quickplay-finish claim {msg}"),
            errors: vec![FieldError::new("kind", msg)],
        });
    }
    Ok(Checked {
        claimant,
        valid: None,
        check: Some(json(&claim)?),
        ruling: None,
        plies,
        declared: None,
    })
}
