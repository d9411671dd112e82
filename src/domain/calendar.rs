//! Calendar (SPEC §5) (to be written).
