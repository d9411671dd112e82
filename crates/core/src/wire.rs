//! How the answers write instants: RFC 3339 in UTC with exactly six fraction digits and `Z`
//! (`2026-09-01T18:00:00.000000Z`), one spelling on SQLite and Postgres alike
//! (docs/api-guide.md#timestamps, [decision 0211](../../../docs/decisions/0211-timestamps.md)).
//! Postgres keeps microseconds, so six digits show every stored instant exactly.

use chrono::{DateTime, SecondsFormat, Utc};
use serde::Serializer;

/// The wire spelling of an instant.
pub fn timestamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Micros, true)
}

/// Serde `serialize_with` for an instant.
pub fn utc<S: Serializer>(t: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&timestamp(*t))
}

/// Serde `serialize_with` for an optional instant (`null` when absent).
pub fn utc_opt<S: Serializer>(t: &Option<DateTime<Utc>>, s: S) -> Result<S::Ok, S::Error> {
    match t {
        Some(t) => s.serialize_str(&timestamp(*t)),
        None => s.serialize_none(),
    }
}

/// Serde `serialize_with` for an instant as stored (UTC without an offset).
pub fn naive_utc<S: Serializer>(t: &chrono::NaiveDateTime, s: S) -> Result<S::Ok, S::Error> {
    utc(&t.and_utc(), s)
}

/// Serde `serialize_with` for an optional instant as stored (`null` when absent).
pub fn naive_utc_opt<S: Serializer>(
    t: &Option<chrono::NaiveDateTime>,
    s: S,
) -> Result<S::Ok, S::Error> {
    utc_opt(&t.map(|t| t.and_utc()), s)
}

/// Serde `serialize_with` for a decimal held as text (`"58.0000"`, `"1.5"`): written as a JSON
/// number, the shortest decimal that reads back as the same double, so a value of at most four
/// decimals is written as itself (docs/decisions/0212-numbers.md).
pub fn decimal<S: Serializer>(t: &str, s: S) -> Result<S::Ok, S::Error> {
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() => s.serialize_f64(v),
        _ => Err(serde::ser::Error::custom("a decimal that is no number")),
    }
}

/// Serde `serialize_with` for an optional decimal held as text (`null` when absent).
pub fn decimal_opt<S: Serializer>(t: &Option<String>, s: S) -> Result<S::Ok, S::Error> {
    match t {
        Some(t) => decimal(t, s),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn an_instant_has_six_fraction_digits_and_z() {
        let t = Utc.with_ymd_and_hms(2026, 9, 1, 18, 0, 0).unwrap();
        assert_eq!(timestamp(t), "2026-09-01T18:00:00.000000Z");
        let nanos = t + chrono::Duration::nanoseconds(123_456_789);
        assert_eq!(timestamp(nanos), "2026-09-01T18:00:00.123456Z");
        let v = serde_json::to_value(Wrapped { t: Some(nanos) }).unwrap();
        assert_eq!(v["t"], "2026-09-01T18:00:00.123456Z");
        let v = serde_json::to_value(Wrapped { t: None }).unwrap();
        assert!(v["t"].is_null());
    }

    #[derive(serde::Serialize)]
    struct Wrapped {
        #[serde(serialize_with = "utc_opt")]
        t: Option<DateTime<Utc>>,
    }
}
