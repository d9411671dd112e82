//! Keizer: scenario (to be written).
