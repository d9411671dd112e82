//! Worked examples and property tests of the round-robin engine.
