//! Keizer: pairing (to be written).
