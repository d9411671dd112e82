//! Keizer: standings (to be written).
