//! The demo club as the tests seed it: on a fixed day, or on another one.

/// The day the demo club is seeded for in the tests: Wednesday 28 October 2026, between the
/// fifth Keizer evening of the winter half (Friday 23 October) and the sixth (30 October).
pub const DEMO_DAY: &str = "2026-10-28";

/// The demo settings for `day` (`YYYY-MM-DD`), without a bootstrap admin.
pub fn demo_on(day: &str) -> clubcomp::services::demo::Demo {
    clubcomp::services::demo::Demo {
        today: chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").unwrap(),
        admin: None,
    }
}

/// Seeds the demo club for [`DEMO_DAY`] on `c`; the summary.
pub fn seed_demo(
    c: &mut clubcomp_core::test_store::DbConn,
) -> Result<String, clubcomp_core::error::ApiError> {
    clubcomp::services::demo::seed(c, &demo_on(DEMO_DAY))
}
