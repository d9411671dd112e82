//! Keizer: prizes (to be written).
