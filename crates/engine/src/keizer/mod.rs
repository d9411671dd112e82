//! The Keizer internal competition (SPEC §3, §6, §7): standings with recalculation until the
//! ranking settles, the scenario format of `clubcomp calc keizer`, pairing, prizes and playoffs.

pub mod entry;
pub mod pairing;
pub mod playoffs;
pub mod prizes;
pub mod scenario;
pub mod standings;
