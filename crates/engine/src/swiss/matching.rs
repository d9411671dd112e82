//! The weighted matching the Dutch system pairs its brackets with; it lives in
//! [`crate::matching::weighted`], shared with the Keizer pairing.

pub use crate::matching::weighted::{Matching, max_weight_matching};
