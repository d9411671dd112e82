//! Pure rule engines for chess and draughts club competitions: plain data in, plain data out.
//! No web framework, no database, no clock, and randomness only from a seed passed in, so
//! every rule can be tested without a server and reused by the command line. The rules as a
//! competition leader reads them are in the repository's rules book (`docs/rules/`).
//!
//! | module | what it computes |
//! |---|---|
//! | [`keizer`] | Keizer standings with recalculation, entrants, pairing, prizes, playoffs |
//! | [`swiss`] | FIDE TRF files and the FIDE Dutch system |
//! | [`double_swiss`] | the FIDE Double-Swiss system (two games per round) |
//! | [`round_robin`] | Berger schedules and round-robin standings (the KNDB chain) |
//! | [`tiebreaks`] | FIDE tie-breaks (C.07) |
//! | [`calendar`], [`attendance`] | the season calendar, sign-up deadlines |
//! | [`arbiter`] | chess and draughts moves, claims, a game's tempo, game events, appeals |
//! | [`matching`] | maximum-weight and maximum-cardinality matching, shared by the pairings |
//! | [`blitz`] | rapid and blitz: the number of Swiss rounds, the playoff for first place |
//!
//! At the root: the shared vocabulary of the engines and the service ([`Colour`], [`Half`],
//! [`Discipline`], [`Membership`], [`CompetitionKind`], [`PairingSystem`], [`EveningKind`]),
//! exact decimals in ten-thousandths ([`Fixed`]) and the cancellation hook of the long
//! computations ([`Stop`], [`Never`]). Every public name is reached through these paths and is
//! unique in the crate; the files behind each module are private, so their layout can change
//! without breaking a user. Each module's documentation opens with a worked example from the rules book or the
//! reference data.

#![warn(missing_docs)]

// Each public module keeps its implementation in private submodules and names its public
// API with `pub use` lines at its top. See docs/decisions/0154-engine-public-api.md.
mod fixed;
#[cfg(test)]
mod parser_fuzz;
mod stop;
mod vocab;

pub use fixed::{Fixed, FixedError};
pub use stop::{Never, Stop};
pub use vocab::{
    Colour, CompetitionKind, Discipline, EveningKind, GuestTitle, Half, Membership, PairingSystem,
    UnknownValue,
};

pub mod arbiter;
pub mod attendance;
pub mod blitz;
pub mod calendar;
pub mod double_swiss;
pub mod keizer;
pub mod matching;
pub mod round_robin;
pub mod swiss;
pub mod tiebreaks;
