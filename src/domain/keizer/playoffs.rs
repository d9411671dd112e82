//! Keizer: playoffs (to be written).
