//! The names of the days and months in Dutch and English, written the same on the club pages
//! and in the mails.

use chrono::{Datelike, NaiveDate};

/// The names, Monday (January) first.
pub const NL_DAYS: [&str; 7] = [
    "maandag",
    "dinsdag",
    "woensdag",
    "donderdag",
    "vrijdag",
    "zaterdag",
    "zondag",
];
/// The names, Monday (January) first.
pub const EN_DAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];
/// The names, Monday (January) first.
pub const NL_MONTHS: [&str; 12] = [
    "januari",
    "februari",
    "maart",
    "april",
    "mei",
    "juni",
    "juli",
    "augustus",
    "september",
    "oktober",
    "november",
    "december",
];
/// The names, Monday (January) first.
pub const EN_MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A date written out with its weekday: `donderdag 3 december 2026` /
/// `Thursday 3 December 2026`.
pub fn long_date(english: bool, d: NaiveDate) -> String {
    let wd = d.weekday().num_days_from_monday() as usize;
    let m = d.month0() as usize;
    if english {
        format!("{} {} {} {}", EN_DAYS[wd], d.day(), EN_MONTHS[m], d.year())
    } else {
        format!("{} {} {} {}", NL_DAYS[wd], d.day(), NL_MONTHS[m], d.year())
    }
}

/// A short date: `11 sep` / `11 Sep`.
pub fn short_date(english: bool, d: NaiveDate) -> String {
    let m = d.month0() as usize;
    let month = if english { EN_MONTHS[m] } else { NL_MONTHS[m] };
    format!("{} {}", d.day(), &month[..3])
}
