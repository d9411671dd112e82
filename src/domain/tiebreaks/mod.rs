//! tiebreaks engine (to be written).
