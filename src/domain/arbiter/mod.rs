//! Arbiter rule engines (SPEC §8, §10, §11): the per-game event log and its validator, the
//! chess threefold-repetition check (FIDE 9.2), the quickplay-finish claim (FIDE 10.2),
//! international draughts (move generation, PDN, claim checks) and appeals against arbiter
//! decisions. Pure: plain serde data in and out, no clock, no I/O.

pub mod draughts;
