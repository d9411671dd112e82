//! Worked examples and properties of the tie-break engine.
