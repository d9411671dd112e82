//! swiss engine (to be written).
