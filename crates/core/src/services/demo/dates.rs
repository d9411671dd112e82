//! The demo season's dates around a given day (docs/decisions/0380-demo-around-today.md): the
//! season that holds the day, or the next one once its last Keizer evening is past.

use chrono::{Datelike, Days, NaiveDate, Weekday};

/// The made-up KNSB round dates of a season opening in 2026 (Saturdays), as (month, day,
/// year after the opening year); other seasons move each to the Saturday on or after the
/// same day.
const KNSB_ROUNDS: [(u32, u32, i32); 9] = [
    (9, 26, 0),
    (10, 17, 0),
    (11, 7, 0),
    (11, 28, 0),
    (12, 19, 0),
    (1, 30, 1),
    (2, 20, 1),
    (3, 13, 1),
    (4, 10, 1),
];

/// The dates the demo season is generated from.
#[derive(Debug, Clone)]
pub(super) struct SeasonDates {
    /// `YYYY-YYYY`.
    pub name: String,
    /// The first Saturday of September (the Schaak-Off).
    pub opening: NaiveDate,
    /// The KNSB match Saturdays (the Friday before each is a rapid evening).
    pub knsb_rounds: Vec<NaiveDate>,
    /// The Friday of Christmas week, closed.
    pub closed: Vec<NaiveDate>,
}

fn on_or_after(d: NaiveDate, day: Weekday) -> NaiveDate {
    let ahead = (7 + day.num_days_from_monday() - d.weekday().num_days_from_monday()) % 7;
    d.checked_add_days(Days::new(u64::from(ahead))).unwrap_or(d)
}

fn ymd(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap_or_default()
}

/// The dates of the season opening in September of `year`.
pub(super) fn season(year: i32) -> SeasonDates {
    SeasonDates {
        name: format!("{year}-{}", year + 1),
        opening: on_or_after(ymd(year, 9, 1), Weekday::Sat),
        knsb_rounds: KNSB_ROUNDS
            .iter()
            .map(|&(m, d, later)| on_or_after(ymd(year + later, m, d), Weekday::Sat))
            .collect(),
        closed: vec![on_or_after(ymd(year, 12, 22), Weekday::Fri)],
    }
}

/// The opening year of the season `day` falls in when seasons turn on 1 July.
pub(super) fn season_year(day: NaiveDate) -> i32 {
    if day.month() >= 7 {
        day.year()
    } else {
        day.year() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_season_of_2026_opens_on_5_september_with_the_knsb_saturdays_as_listed() {
        let s = season(2026);
        assert_eq!(s.name, "2026-2027");
        assert_eq!(s.opening, ymd(2026, 9, 5));
        assert_eq!(s.knsb_rounds[0], ymd(2026, 9, 26));
        assert_eq!(s.knsb_rounds[8], ymd(2027, 4, 10));
        assert_eq!(s.closed, vec![ymd(2026, 12, 25)]);
    }

    #[test]
    fn another_season_keeps_saturdays_and_closes_the_friday_of_christmas_week() {
        // 1 September 2029 is a Saturday; 26 September 2029 a Wednesday → Saturday 29th;
        // Christmas week 22–28 December 2029 has Friday the 28th
        let s = season(2029);
        assert_eq!(s.opening, ymd(2029, 9, 1));
        assert_eq!(s.knsb_rounds[0], ymd(2029, 9, 29));
        assert!(s.knsb_rounds.iter().all(|d| d.weekday() == Weekday::Sat));
        assert_eq!(s.closed, vec![ymd(2029, 12, 28)]);
    }

    #[test]
    fn a_day_in_june_belongs_to_the_season_that_opened_the_september_before() {
        assert_eq!(season_year(ymd(2027, 6, 12)), 2026);
        assert_eq!(season_year(ymd(2027, 7, 1)), 2027);
        assert_eq!(season_year(ymd(2026, 12, 2)), 2026);
    }
}
