//! double_swiss engine (to be written).
