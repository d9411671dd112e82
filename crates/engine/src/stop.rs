//! Cooperative cancellation of long calculations. The engines hold no clock: the caller
//! decides when a calculation must end (a time budget spent, a client gone) and raises a flag;
//! the engines look at it at coarse points (once per bracket, evening or round), never inside
//! a matching, and give up with a "stopped" error when it is raised.

use std::sync::atomic::{AtomicBool, Ordering};

/// Something that says whether a calculation should give up.
pub trait Stop: Sync {
    /// True once the calculation should end as soon as possible.
    fn stopped(&self) -> bool;
}

impl Stop for AtomicBool {
    fn stopped(&self) -> bool {
        self.load(Ordering::Relaxed)
    }
}

/// Never stops: the plain entry points use it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Never;

impl Stop for Never {
    fn stopped(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_raised_flag_stops() {
        let flag = AtomicBool::new(false);
        assert!(!flag.stopped());
        flag.store(true, Ordering::Relaxed);
        assert!(flag.stopped());
        assert!(!Never.stopped());
    }

    #[test]
    fn the_engines_give_up_when_stopped() {
        use crate::swiss_impl::dutch::{PairError, next_round, pair_round_until};
        let t = crate::swiss_impl::generate::random_tournament(40, 3, 9, 7);
        let (go, halt) = (AtomicBool::new(false), AtomicBool::new(true));
        assert!(pair_round_until(&t, next_round(&t), &go).is_ok());
        assert_eq!(
            pair_round_until(&t, next_round(&t), &halt),
            Err(PairError::Stopped)
        );
        use crate::keizer_impl::scenario::{ScenarioError, run_scenario_until};
        use crate::keizer_impl::standings::StandingsError;
        let v = serde_json::json!({"players": [{"id": "a"}, {"id": "b"}],
            "evenings": [{"games": [{"white": "a", "black": "b", "result": "1-0"}]}]});
        assert!(run_scenario_until(&v, &go).is_ok());
        assert!(matches!(
            run_scenario_until(&v, &halt),
            Err(ScenarioError::Rule(StandingsError::Stopped))
        ));
    }
}
