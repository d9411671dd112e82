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
}
