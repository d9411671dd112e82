//! An upheld claim decides the game: its result is entered with the decision
//! (docs/rules/arbiter.md#results-and-corrections; decision 0284).

use super::*;

/// When the claim at log index `seq` is upheld in `log`, enters the result the decision gave
/// the game through the results service, in the caller's transaction: audited as a result
/// entry whose reason names the claim, with the moves completed by both players in the log.
/// A claim still pending, postponed or rejected leaves the result alone.
pub(super) fn enter_decided_result(c: &mut DbConn, log: &Log, seq: i32) -> ApiResult<()> {
    let upheld = log
        .claim_record(seq)
        .is_some_and(|r| r.status == ClaimStatus::Upheld);
    let Some(ending) = log.state().result.filter(|_| upheld) else {
        return Ok(());
    };
    let claim = claim_by_seq(c, log.game, seq)?;
    let plies = log.state().moves[0] + log.state().moves[1];
    let move_count = (plies > 0).then_some((plies / 2) as i32);
    crate::services::results::enter_decided(
        c,
        log.game,
        ending,
        move_count,
        &format!("claim {} ({}) upheld by the arbiter", claim.id, claim.kind),
        &log.actor,
    )
}
