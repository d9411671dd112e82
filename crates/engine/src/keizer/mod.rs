//! The Keizer internal competition (docs/rules/keizer.md#scoring, docs/rules/keizer.md#pairing, docs/rules/keizer.md#prizes): standings with recalculation until the
//! ranking settles, the scenario format of `clubcomp calc keizer`, pairing, prizes and playoffs.

pub mod entry;
pub mod pairing;
pub mod playoffs;
pub mod preview;
pub mod prizes;
pub mod scenario;
pub mod standings;
