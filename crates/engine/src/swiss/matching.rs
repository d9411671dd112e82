//! The weighted matching the Dutch system pairs its brackets with; it lives in
//! [`crate::matching_impl::weighted`], shared with the Keizer pairing.

pub use crate::matching_impl::weighted::{Matching, max_weight_matching};
