//! arbiter engine (to be written).
