//! The proposed season calendar (docs/rules/keizer.md#calendar): every Friday of the season with its kind (Keizer
//! evening of the winter or summer half, rapid evening, closed, playoff, free), start time,
//! half and number in the half. The leader edits the proposal afterwards; this module only
//! proposes.
//!
//! Rules and decisions (also in `docs/decisions/0003-keizer-pairing-calendar-attendance.md`):
//! - A *playing evening* is a Friday of the season that is neither a rapid evening nor closed
//!   (docs/rules/keizer.md#calendar). A closed Friday is therefore never a playing evening and is not counted.
//! - A rapid evening is the last Friday strictly before a KNSB round (or a date the arbiter
//!   names). When that Friday is closed, it stays closed and the rapid round is not moved.
//! - The first Friday of January, when it is a playing evening, may not *start* the summer
//!   half; it stays a playing evening without a Keizer round (`free`), and the summer starts
//!   at the next playing evening. Inside a half it is an ordinary Keizer evening. When it is
//!   closed or a rapid evening it is not a playing evening and the rule does not apply.
//! - The season-wide `keizer_index` (1…20) numbers the Keizer evenings of both halves. The
//!   pairing constraints (docs/rules/keizer.md#pairing-constraints) count playing evenings
//!   instead, free Fridays included: the service numbers them from the stored calendar.
//! - If the season opens on a Friday, that Friday is the opening evening (`opening`), since
//!   the winter starts on the first Friday *after* the opening.
//!
//! # Example
//!
//! The Friday strictly before a date, and the first Friday of January (no club evening then).
//!
//! ```
//! use chrono::NaiveDate;
//! use clubcomp_engine::calendar::{friday_before, is_first_friday_of_january};
//!
//! let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
//! assert_eq!(friday_before(day(2026, 12, 2)), day(2026, 11, 27)); // a Wednesday
//! assert_eq!(friday_before(day(2026, 12, 4)), day(2026, 11, 27)); // a Friday: the one before
//! assert!(is_first_friday_of_january(day(2027, 1, 1)));
//! assert!(!is_first_friday_of_january(day(2027, 1, 8)));
//! ```

use chrono::{Datelike, Duration, NaiveDate, NaiveTime, Weekday};
use serde::{Deserialize, Serialize};

use crate::keizer::pairing::Half;

/// What the calendar is built from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalendarInput {
    /// The season opening (Schaak-Off).
    pub opening: NaiveDate,
    /// The last date of the season (inclusive), e.g. 30 June.
    pub season_end: NaiveDate,
    /// Dates of the KNSB competition rounds.
    #[serde(default)]
    pub knsb_rounds: Vec<NaiveDate>,
    /// Dates on which the venue is closed.
    #[serde(default)]
    pub closed: Vec<NaiveDate>,
    /// Further rapid evenings named by the arbiter.
    #[serde(default)]
    pub extra_rapid: Vec<NaiveDate>,
    /// Keizer evenings per half (default 10).
    #[serde(default = "ten")]
    pub evenings_per_half: u32,
}

fn ten() -> u32 {
    10
}

/// The kind of a Friday in a proposed calendar (the engine's view, with the season opening as
/// a kind of its own); the service stores each as a [`crate::EveningKind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FridayKind {
    /// The season opening itself, when it falls on a Friday.
    Opening,
    /// A Keizer evening of the winter or summer half.
    Keizer,
    /// A rapid evening (starts 20:30).
    Rapid,
    /// The venue is closed.
    Closed,
    /// A playoff evening (first and third playing evening after the summer half).
    Playoff,
    /// A playing evening without a Keizer or playoff round.
    Free,
}

/// One Friday of the proposed calendar.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CalendarEvening {
    /// The date.
    pub date: NaiveDate,
    /// Start time (local, Europe/Amsterdam); none when closed.
    pub start_time: Option<NaiveTime>,
    /// What happens that evening.
    pub kind: FridayKind,
    /// The Keizer half, for Keizer evenings.
    pub half: Option<Half>,
    /// 1-based number in the half (Keizer) or playoff round (1 or 2).
    pub number_in_half: Option<u32>,
    /// Season-wide Keizer evening index (1 … 2 × evenings per half).
    pub keizer_index: Option<u32>,
}

/// Why no calendar could be proposed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum CalendarError {
    /// The season ends before the opening.
    #[error("season end {season_end} is before the opening {opening}")]
    EndBeforeOpening {
        /// Opening.
        opening: NaiveDate,
        /// Season end.
        season_end: NaiveDate,
    },
    /// Not enough playing evenings for a half before the season ends.
    #[error("the {half:?} half gets only {found} of {needed} playing evenings before {season_end}")]
    SeasonTooShort {
        /// The half that does not fit.
        half: Half,
        /// Playing evenings found.
        found: u32,
        /// Playing evenings needed.
        needed: u32,
        /// Season end.
        season_end: NaiveDate,
    },
}

/// 20:15, the start of a playing evening.
pub fn playing_start() -> NaiveTime {
    NaiveTime::from_hms_opt(20, 15, 0).unwrap_or(NaiveTime::MIN)
}

/// 20:30, the start of a rapid evening.
pub fn rapid_start() -> NaiveTime {
    NaiveTime::from_hms_opt(20, 30, 0).unwrap_or(NaiveTime::MIN)
}

/// The last Friday strictly before `d`.
pub fn friday_before(d: NaiveDate) -> NaiveDate {
    let back = (d.weekday().num_days_from_monday() + 7 - Weekday::Fri.num_days_from_monday()) % 7;
    let back = if back == 0 { 7 } else { back };
    d - Duration::days(i64::from(back))
}

/// Whether `d` is the first Friday of January.
pub fn is_first_friday_of_january(d: NaiveDate) -> bool {
    d.month() == 1 && d.weekday() == Weekday::Fri && d.day() <= 7
}

/// Proposes the season calendar (docs/rules/keizer.md#calendar).
pub fn propose_calendar(input: &CalendarInput) -> Result<Vec<CalendarEvening>, CalendarError> {
    if input.season_end < input.opening {
        return Err(CalendarError::EndBeforeOpening {
            opening: input.opening,
            season_end: input.season_end,
        });
    }
    let rapid: Vec<NaiveDate> = input
        .knsb_rounds
        .iter()
        .map(|&d| friday_before(d))
        .chain(input.extra_rapid.iter().copied())
        .collect();
    // first Friday on or after the opening
    let mut d = input.opening;
    while d.weekday() != Weekday::Fri {
        d += Duration::days(1);
    }
    let mut out = Vec::new();
    while d <= input.season_end {
        let (kind, start_time) = if input.closed.contains(&d) {
            (FridayKind::Closed, None)
        } else if d == input.opening {
            (FridayKind::Opening, Some(playing_start()))
        } else if rapid.contains(&d) {
            (FridayKind::Rapid, Some(rapid_start()))
        } else {
            (FridayKind::Free, Some(playing_start()))
        };
        out.push(CalendarEvening {
            date: d,
            start_time,
            kind,
            half: None,
            number_in_half: None,
            keizer_index: None,
        });
        d += Duration::days(7);
    }
    // the playing evenings, in date order, are the `Free` ones so far
    let playing: Vec<usize> = (0..out.len())
        .filter(|&i| out[i].kind == FridayKind::Free)
        .collect();
    let per = input.evenings_per_half as usize;
    let mut next = 0; // index into `playing`
    let mut keizer_index = 0;
    for half in [Half::Winter, Half::Summer] {
        if half == Half::Summer {
            while next < playing.len() && is_first_friday_of_january(out[playing[next]].date) {
                next += 1; // stays `Free`: may not start the summer half
            }
        }
        let found = playing.len().saturating_sub(next).min(per);
        if found < per {
            return Err(CalendarError::SeasonTooShort {
                half,
                found: found as u32,
                needed: per as u32,
                season_end: input.season_end,
            });
        }
        for k in 0..per {
            keizer_index += 1;
            let e = &mut out[playing[next + k]];
            e.kind = FridayKind::Keizer;
            e.half = Some(half);
            e.number_in_half = Some(k as u32 + 1);
            e.keizer_index = Some(keizer_index);
        }
        next += per;
    }
    // playoffs: first and third playing evening after the summer half
    for (round, offset) in [(1, 0), (2, 2)] {
        if let Some(&i) = playing.get(next + offset) {
            out[i].kind = FridayKind::Playoff;
            out[i].number_in_half = Some(round);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    fn season_2026_27() -> CalendarInput {
        CalendarInput {
            // Saturday 5 September 2026
            opening: date("2026-09-05"),
            season_end: date("2027-06-30"),
            // made-up KNSB rounds, all Saturdays
            knsb_rounds: [
                "2026-09-26",
                "2026-10-17",
                "2026-11-07",
                "2026-11-28",
                "2026-12-19",
                "2027-01-30",
                "2027-02-20",
                "2027-03-13",
                "2027-04-10",
            ]
            .map(date)
            .to_vec(),
            // Christmas Day is a Friday in 2026
            closed: vec![date("2026-12-25")],
            extra_rapid: vec![],
            evenings_per_half: 10,
        }
    }

    #[test]
    fn season_2026_27_by_hand() {
        // Fridays from 11 Sep 2026. Rapid = Friday before each KNSB Saturday: 25 Sep, 16 Oct,
        // 6 Nov, 27 Nov, 18 Dec, 29 Jan, 19 Feb, 12 Mar, 9 Apr. Closed: 25 Dec.
        // Winter: 11 Sep (1), 18 Sep (2), 2 Oct (3), 9 Oct (4), 23 Oct (5), 30 Oct (6),
        //         13 Nov (7), 20 Nov (8), 4 Dec (9), 11 Dec (10).
        // Next playing evening: 1 Jan 2027 = first Friday of January → free; summer from 8 Jan:
        //         8 Jan (1), 15 Jan (2), 22 Jan (3), 5 Feb (4), 12 Feb (5), 26 Feb (6),
        //         5 Mar (7), 19 Mar (8), 26 Mar (9), 2 Apr (10).
        // After the summer: 16 Apr playoff 1, 23 Apr free, 30 Apr playoff 2 (final).
        let cal = propose_calendar(&season_2026_27()).unwrap();
        let keizer = |h: Half| -> Vec<String> {
            cal.iter()
                .filter(|e| e.kind == FridayKind::Keizer && e.half == Some(h))
                .map(|e| e.date.format("%m-%d").to_string())
                .collect()
        };
        assert_eq!(
            keizer(Half::Winter),
            [
                "09-11", "09-18", "10-02", "10-09", "10-23", "10-30", "11-13", "11-20", "12-04",
                "12-11"
            ]
        );
        assert_eq!(
            keizer(Half::Summer),
            [
                "01-08", "01-15", "01-22", "02-05", "02-12", "02-26", "03-05", "03-19", "03-26",
                "04-02"
            ]
        );
        let on = |s: &str| cal.iter().find(|e| e.date == date(s)).unwrap().clone();
        assert_eq!(on("2027-01-01").kind, FridayKind::Free);
        assert_eq!(on("2026-12-25").kind, FridayKind::Closed);
        assert_eq!(on("2026-12-25").start_time, None);
        assert_eq!(on("2026-12-18").kind, FridayKind::Rapid);
        assert_eq!(on("2026-12-18").start_time, Some(rapid_start()));
        assert_eq!(on("2027-01-08").keizer_index, Some(11));
        assert_eq!(on("2027-01-08").number_in_half, Some(1));
        assert_eq!(on("2027-01-08").start_time, Some(playing_start()));
        assert_eq!(on("2027-04-16").kind, FridayKind::Playoff);
        assert_eq!(on("2027-04-16").number_in_half, Some(1));
        assert_eq!(on("2027-04-23").kind, FridayKind::Free);
        assert_eq!(on("2027-04-30").kind, FridayKind::Playoff);
        assert_eq!(on("2027-04-30").number_in_half, Some(2));
        // the last Friday of the season is 25 June 2027
        assert_eq!(cal.last().unwrap().date, date("2027-06-25"));
    }

    #[test]
    fn first_friday_of_january_inside_a_half_is_ordinary() {
        // Opening Saturday 14 Nov 2026, nothing closed, no KNSB rounds: winter = 20 Nov, 27
        // Nov, 4, 11, 18, 25 Dec, 1 Jan (7th, inside the half: allowed), 8, 15, 22 Jan.
        let cal = propose_calendar(&CalendarInput {
            opening: date("2026-11-14"),
            season_end: date("2027-06-30"),
            knsb_rounds: vec![],
            closed: vec![],
            extra_rapid: vec![],
            evenings_per_half: 10,
        })
        .unwrap();
        let jan1 = cal.iter().find(|e| e.date == date("2027-01-01")).unwrap();
        assert_eq!(jan1.kind, FridayKind::Keizer);
        assert_eq!(jan1.number_in_half, Some(7));
    }

    #[test]
    fn closed_first_friday_of_january_lets_the_summer_start_a_week_later() {
        // As 2026–27, but 1 Jan 2027 closed too: it is no playing evening, the summer starts
        // on the next playing evening, 8 Jan — the same date, reached for another reason.
        let mut inp = season_2026_27();
        inp.closed.push(date("2027-01-01"));
        let cal = propose_calendar(&inp).unwrap();
        let jan1 = cal.iter().find(|e| e.date == date("2027-01-01")).unwrap();
        assert_eq!(jan1.kind, FridayKind::Closed);
        let jan8 = cal.iter().find(|e| e.date == date("2027-01-08")).unwrap();
        assert_eq!(
            (jan8.half, jan8.number_in_half),
            (Some(Half::Summer), Some(1))
        );
    }

    #[test]
    fn opening_on_a_friday_and_too_short_a_season() {
        // Opening Friday 4 Sep 2026: that evening is the opening; the winter starts 11 Sep.
        let mut inp = season_2026_27();
        inp.opening = date("2026-09-04");
        let cal = propose_calendar(&inp).unwrap();
        assert_eq!(cal[0].kind, FridayKind::Opening);
        assert_eq!(cal[1].number_in_half, Some(1));
        // A season ending 1 March 2027 has only 6 summer evenings (8 Jan … 26 Feb).
        inp.season_end = date("2027-03-01");
        assert_eq!(
            propose_calendar(&inp),
            Err(CalendarError::SeasonTooShort {
                half: Half::Summer,
                found: 6,
                needed: 10,
                season_end: date("2027-03-01")
            })
        );
    }

    #[test]
    fn friday_before_a_round() {
        // Saturday 26 Sep 2026 → Friday 25 Sep; a Friday round → the week before.
        assert_eq!(friday_before(date("2026-09-26")), date("2026-09-25"));
        assert_eq!(friday_before(date("2026-09-25")), date("2026-09-18"));
        assert_eq!(friday_before(date("2026-09-28")), date("2026-09-25"));
    }
}
