//! Attendance (SPEC §4) (to be written).
