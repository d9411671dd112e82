//! Appeals against an arbiter's (competition leader's) decision (docs/rules/arbiter.md#appeals, seed 001 "Algemeen"
//! 5): in writing to the board within 8 days; the board decides once and its decision is final.
//!
//! Boundary (decision, recorded in `docs/decisions/0007-arbiter-engines.md`): days are calendar days in the
//! club's time zone, Europe/Amsterdam. The day of the decision does not count; the appeal must
//! be lodged at the latest on the 8th day after it, before midnight Amsterdam time. A decision
//! taken on Friday 20 March may be appealed until Saturday 28 March 23:59:59 (Amsterdam).

use chrono::{DateTime, Days, NaiveDate, TimeZone, Utc};
use chrono_tz::Europe::Amsterdam;
use serde::{Deserialize, Serialize};

/// Days allowed for an appeal after the day of the decision.
pub const APPEAL_DAYS: u64 = 8;

/// The appeal window of a decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AppealWindow {
    /// The calendar date (Amsterdam) of the decision.
    pub decision_date: NaiveDate,
    /// The last calendar date (Amsterdam) on which an appeal may be lodged.
    pub last_day: NaiveDate,
    /// The first instant at which an appeal is too late (midnight after `last_day`, in UTC).
    pub closes_at: DateTime<Utc>,
}

/// Why an appeal or a board decision is not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum AppealError {
    /// Lodged after the last day.
    #[error("appeal lodged on {lodged_on} is too late: the last day was {last_day} (Amsterdam)")]
    TooLate {
        /// The Amsterdam date the appeal came in.
        lodged_on: NaiveDate,
        /// The last allowed day.
        last_day: NaiveDate,
    },
    /// Lodged before the decision it appeals against.
    #[error("appeal lodged before the decision it is against")]
    BeforeDecision,
    /// Not in writing.
    #[error("an appeal must be lodged in writing with the board")]
    NotInWriting,
    /// The board has already decided; its decision is final.
    #[error("the board already decided this appeal ({ruling:?}); its decision is final")]
    AlreadyDecided {
        /// The board's ruling.
        ruling: BoardRuling,
    },
    /// A date outside the representable range.
    #[error("date out of range")]
    OutOfRange,
}

/// The board's ruling on an appeal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoardRuling {
    /// The appeal is upheld: the arbiter's decision is set aside.
    Upheld,
    /// The appeal is dismissed: the arbiter's decision stands.
    Dismissed,
}

/// An appeal and its state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Appeal {
    /// When the arbiter's decision was taken.
    pub decided_at: DateTime<Utc>,
    /// When the appeal was lodged.
    pub lodged_at: DateTime<Utc>,
    /// The window it was lodged in.
    pub window: AppealWindow,
    /// The board's ruling, once given (final).
    pub ruling: Option<BoardRuling>,
}

/// The appeal window of a decision taken at `decided_at`.
pub fn appeal_window(decided_at: DateTime<Utc>) -> Result<AppealWindow, AppealError> {
    window_of(decided_at, APPEAL_DAYS)
}

/// The window of `days` calendar days (Amsterdam) after the day of a decision taken at
/// `decided_at`, counted as an appeal's 8 days are.
pub(crate) fn window_of(decided_at: DateTime<Utc>, days: u64) -> Result<AppealWindow, AppealError> {
    let decision_date = decided_at.with_timezone(&Amsterdam).date_naive();
    let last_day = decision_date
        .checked_add_days(Days::new(days))
        .ok_or(AppealError::OutOfRange)?;
    let next = last_day
        .checked_add_days(Days::new(1))
        .ok_or(AppealError::OutOfRange)?;
    // Midnight exists on every Amsterdam day (the clocks change at 02:00/03:00).
    let closes_at = Amsterdam
        .from_local_datetime(&next.and_time(chrono::NaiveTime::MIN))
        .earliest()
        .ok_or(AppealError::OutOfRange)?
        .with_timezone(&Utc);
    Ok(AppealWindow {
        decision_date,
        last_day,
        closes_at,
    })
}

/// Lodges an appeal against a decision taken at `decided_at`.
pub fn lodge_appeal(
    decided_at: DateTime<Utc>,
    lodged_at: DateTime<Utc>,
    in_writing: bool,
) -> Result<Appeal, AppealError> {
    if !in_writing {
        return Err(AppealError::NotInWriting);
    }
    if lodged_at < decided_at {
        return Err(AppealError::BeforeDecision);
    }
    let window = appeal_window(decided_at)?;
    if lodged_at >= window.closes_at {
        return Err(AppealError::TooLate {
            lodged_on: lodged_at.with_timezone(&Amsterdam).date_naive(),
            last_day: window.last_day,
        });
    }
    Ok(Appeal {
        decided_at,
        lodged_at,
        window,
        ruling: None,
    })
}

/// The board decides the appeal; once decided, it is final.
pub fn board_decides(appeal: &Appeal, ruling: BoardRuling) -> Result<Appeal, AppealError> {
    if let Some(r) = appeal.ruling {
        return Err(AppealError::AlreadyDecided { ruling: r });
    }
    Ok(Appeal {
        ruling: Some(ruling),
        ..appeal.clone()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s)
            .unwrap_or_else(|e| panic!("{e}"))
            .with_timezone(&Utc)
    }

    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap_or_else(|| panic!("date"))
    }

    #[test]
    fn eight_calendar_days_in_amsterdam() {
        // 2026-03-20 22:30 UTC = 23:30 CET on Friday 20 March: last day Saturday 28 March,
        // closing at 29 March 00:00 CET = 28 March 23:00 UTC.
        let d = utc("2026-03-20T22:30:00Z");
        let w = appeal_window(d).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (w.decision_date, w.last_day),
            (date(2026, 3, 20), date(2026, 3, 28))
        );
        assert_eq!(w.closes_at, utc("2026-03-28T23:00:00Z"));
        assert!(lodge_appeal(d, utc("2026-03-28T22:59:59Z"), true).is_ok());
        assert_eq!(
            lodge_appeal(d, utc("2026-03-28T23:00:00Z"), true),
            Err(AppealError::TooLate {
                lodged_on: date(2026, 3, 29),
                last_day: date(2026, 3, 28)
            })
        );
    }

    #[test]
    fn the_amsterdam_date_counts_not_the_utc_date_and_summer_time_is_respected() {
        // 2026-03-20 23:30 UTC is already 21 March 00:30 CET: last day 29 March, the day the
        // clocks go forward; it closes at 30 March 00:00 CEST = 29 March 22:00 UTC.
        let d = utc("2026-03-20T23:30:00Z");
        let w = appeal_window(d).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (w.decision_date, w.last_day),
            (date(2026, 3, 21), date(2026, 3, 29))
        );
        assert_eq!(w.closes_at, utc("2026-03-29T22:00:00Z"));
    }

    #[test]
    fn in_writing_after_the_decision_and_decided_once() {
        let d = utc("2026-09-01T19:00:00Z");
        assert_eq!(
            lodge_appeal(d, utc("2026-09-02T10:00:00Z"), false),
            Err(AppealError::NotInWriting)
        );
        assert_eq!(
            lodge_appeal(d, utc("2026-09-01T18:00:00Z"), true),
            Err(AppealError::BeforeDecision)
        );
        let a =
            lodge_appeal(d, utc("2026-09-02T10:00:00Z"), true).unwrap_or_else(|e| panic!("{e}"));
        let b = board_decides(&a, BoardRuling::Dismissed).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(b.ruling, Some(BoardRuling::Dismissed));
        assert_eq!(
            board_decides(&b, BoardRuling::Upheld),
            Err(AppealError::AlreadyDecided {
                ruling: BoardRuling::Dismissed
            })
        );
    }
}
