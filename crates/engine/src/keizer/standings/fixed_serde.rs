//! Serde glue for [`Fixed`] fields: written as JSON numbers (at most 4 decimals), read
//! exactly from a JSON number's decimal text (more than 4 decimals is an error).

use crate::fixed::Fixed;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Serializes a [`Fixed`] as a JSON number.
pub fn serialize<S: Serializer>(f: &Fixed, s: S) -> Result<S::Ok, S::Error> {
    f.serialize(s)
}

/// Deserializes a [`Fixed`] from a JSON number, exactly.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Fixed, D::Error> {
    let n = serde_json::Number::deserialize(d)?;
    Fixed::from_json_number(&n).map_err(|e| serde::de::Error::custom(format!("{n} {e}")))
}
