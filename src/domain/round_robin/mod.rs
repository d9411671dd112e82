//! round_robin engine (to be written).
