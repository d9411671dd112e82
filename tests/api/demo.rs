//! `clubcomp demo`: deterministic, idempotent, and visible through the public endpoints.
