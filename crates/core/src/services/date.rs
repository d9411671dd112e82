//! Dates in requests: `YYYY-MM-DD` with a four-digit year, in the years 1900–2200. One parser
//! for every date the API accepts (bodies, query parameters, imports), so that a date one
//! endpoint takes is taken by all and none can reach a database outside the range both
//! store alike (chrono, SQLite text and Postgres `date` all agree inside it).

use crate::error::{ApiError, ApiResult, FieldError};
use chrono::{Datelike, NaiveDate};

/// The first year accepted.
pub const FIRST_YEAR: i32 = 1900;
/// The last year accepted.
pub const LAST_YEAR: i32 = 2200;

/// The rule a refused date breaks, as the problem document states it.
pub const RULE: &str = "must be a date YYYY-MM-DD in the years 1900–2200";

/// A date as requests write it (schema only): `YYYY-MM-DD`, years 1900–2200.
#[derive(Debug)]
pub struct ApiDate;

impl utoipa::PartialSchema for ApiDate {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Date)))
            .pattern(Some(r"^(19[0-9]{2}|2[01][0-9]{2}|2200)-[0-9]{2}-[0-9]{2}$"))
            .description(Some(
                "A date, YYYY-MM-DD with a four-digit year, in the years 1900–2200.",
            ))
            .into()
    }
}

impl utoipa::ToSchema for ApiDate {}

/// Whether a date lies in the accepted years.
pub fn in_range(d: NaiveDate) -> bool {
    (FIRST_YEAR..=LAST_YEAR).contains(&d.year())
}

/// Reads `YYYY-MM-DD` (exactly four, two and two digits; a real day) in the accepted years.
pub fn read(text: &str) -> Option<NaiveDate> {
    let b = text.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' || !digits(0..4) {
        return None;
    }
    if !digits(5..7) || !digits(8..10) {
        return None;
    }
    let num = |r: std::ops::Range<usize>| text[r].parse::<u32>().ok();
    let year = i32::try_from(num(0..4)?).ok()?;
    NaiveDate::from_ymd_opt(year, num(5..7)?, num(8..10)?).filter(|d| in_range(*d))
}

/// The date in `text`, or a field error naming `field`.
pub fn field(field: &str, text: &str) -> Result<NaiveDate, FieldError> {
    read(text).ok_or_else(|| FieldError::new(field, RULE))
}

/// The date in `text`, or 422 naming `field`.
pub fn parse(field: &str, text: &str) -> ApiResult<NaiveDate> {
    read(text).ok_or_else(|| ApiError::invalid(field, RULE))
}

/// The current time in UTC, to the microsecond, as the database stores it.
pub fn now_utc() -> chrono::NaiveDateTime {
    crate::store::now_utc()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_digit_years_in_range_only() {
        let d = |y, m, d| NaiveDate::from_ymd_opt(y, m, d);
        assert_eq!(read("2026-09-04"), d(2026, 9, 4));
        assert_eq!(read("1900-01-01"), d(1900, 1, 1));
        assert_eq!(read("2200-12-31"), d(2200, 12, 31));
        assert_eq!(read("2024-02-29"), d(2024, 2, 29));
        for bad in [
            "-2026-01-01",
            "+2026-01-01",
            "0000-01-01",
            "1899-12-31",
            "2201-01-01",
            "2026-9-1",
            "2026-09-1",
            "26-09-01",
            "02026-09-01",
            "2026-02-30",
            "2025-02-29",
            "2026-13-01",
            "2026-00-10",
            "2026/09/01",
            " 2026-09-01",
            "2026-09-01 ",
            "2026-09-01T00:00",
            "２０２６-09-01",
            "",
        ] {
            assert_eq!(read(bad), None, "{bad:?}");
        }
    }
}
