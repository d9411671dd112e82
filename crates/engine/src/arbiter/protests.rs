//! Protests to the KNDB's protest committee against a decision of the tournament direction in
//! a draughts championship (docs/rules/draughts-championship.md#protests, the championship
//! rules' closing provisions): the direction decides disputes and cases the rules do not
//! provide for, and a dispute that qualifies under article 59 of the KNDB playing rules may be
//! protested with the committee.
//!
//! The championship rules name no time limit, form or deposit (decision 0274): each is a
//! setting of the competition, [`ProtestRules`], whose default is the literal reading — no
//! time limit, no prescribed form, no deposit. A time limit counts calendar days in Amsterdam
//! as an appeal's 8 days do (the day of the decision does not count).

use chrono::{DateTime, NaiveDate, Utc};
use chrono_tz::Europe::Amsterdam;
use serde::{Deserialize, Serialize};

use super::appeals::window_of;

/// What a competition asks of a protest; the default is the championship rules' literal
/// reading: none of the three.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProtestRules {
    /// Calendar days after the day of the decision within which a protest must be lodged;
    /// `None`: no time limit.
    pub days: Option<u32>,
    /// Whether a protest must be lodged in writing.
    pub in_writing: bool,
    /// Whether a deposit must be paid with the protest.
    pub deposit: bool,
}

/// How a protest was lodged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProtestForm {
    /// In writing.
    pub in_writing: bool,
    /// With the deposit paid.
    pub deposit_paid: bool,
}

/// Why a protest is not accepted; the variant's name is the rule it breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProtestError {
    /// Lodged before the decision it is against.
    #[error("a protest cannot be lodged before the decision it is against")]
    BeforeDecision,
    /// Lodged after the last day the competition allows.
    #[error(
        "protest lodged on {lodged_on} is too late: the competition allows {days} days, the \
         last day was {last_day} (Amsterdam)"
    )]
    TooLate {
        /// The Amsterdam date the protest came in.
        lodged_on: NaiveDate,
        /// The days the competition allows.
        days: u32,
        /// The last allowed day.
        last_day: NaiveDate,
    },
    /// Not in writing where the competition asks for it.
    #[error("the competition asks for a protest in writing")]
    NotInWriting,
    /// The deposit was not paid where the competition asks for one.
    #[error("the competition asks for a deposit with a protest, and it was not paid")]
    DepositNotPaid,
    /// A date outside the representable range.
    #[error("date out of range")]
    OutOfRange,
}

/// The protest committee's decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommitteeRuling {
    /// The protest is upheld: the direction's decision is set aside.
    Upheld,
    /// The protest is dismissed: the decision stands.
    Dismissed,
    /// The dispute does not qualify for a protest (article 59 of the playing rules): the
    /// decision stands.
    Inadmissible,
}

/// Checks a protest against a decision taken at `decided_at`, lodged at `lodged_at` in
/// `form`, under `rules`; the last day it could be lodged, when the rules set a time limit.
pub fn lodge_protest(
    decided_at: DateTime<Utc>,
    lodged_at: DateTime<Utc>,
    rules: &ProtestRules,
    form: ProtestForm,
) -> Result<Option<NaiveDate>, ProtestError> {
    if lodged_at < decided_at {
        return Err(ProtestError::BeforeDecision);
    }
    if rules.in_writing && !form.in_writing {
        return Err(ProtestError::NotInWriting);
    }
    if rules.deposit && !form.deposit_paid {
        return Err(ProtestError::DepositNotPaid);
    }
    let Some(days) = rules.days else {
        return Ok(None);
    };
    let window = window_of(decided_at, u64::from(days)).map_err(|_| ProtestError::OutOfRange)?;
    if lodged_at >= window.closes_at {
        return Err(ProtestError::TooLate {
            lodged_on: lodged_at.with_timezone(&Amsterdam).date_naive(),
            days,
            last_day: window.last_day,
        });
    }
    Ok(Some(window.last_day))
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

    const FREE: ProtestForm = ProtestForm {
        in_writing: false,
        deposit_paid: false,
    };

    #[test]
    fn the_literal_reading_sets_no_limit_form_or_deposit() {
        // The closing provision names neither a time limit, a form nor a deposit: a protest
        // made orally a year after the decision is accepted, with no last day.
        let d = utc("2026-04-10T18:00:00Z");
        let r = lodge_protest(
            d,
            utc("2027-04-10T18:00:00Z"),
            &ProtestRules::default(),
            FREE,
        );
        assert_eq!(r, Ok(None));
        assert_eq!(
            lodge_protest(
                d,
                utc("2026-04-10T17:59:59Z"),
                &ProtestRules::default(),
                FREE
            ),
            Err(ProtestError::BeforeDecision)
        );
    }

    #[test]
    fn a_time_limit_counts_amsterdam_days_after_the_decision() {
        // Decided Saturday 11 April 2026 at 21:30 CEST (19:30 UTC); 3 days: the last day is
        // Tuesday 14 April, closing at midnight CEST = 14 April 22:00 UTC.
        let d = utc("2026-04-11T19:30:00Z");
        let rules = ProtestRules {
            days: Some(3),
            ..ProtestRules::default()
        };
        assert_eq!(
            lodge_protest(d, utc("2026-04-14T21:59:59Z"), &rules, FREE),
            Ok(Some(date(2026, 4, 14)))
        );
        assert_eq!(
            lodge_protest(d, utc("2026-04-14T22:00:00Z"), &rules, FREE),
            Err(ProtestError::TooLate {
                lodged_on: date(2026, 4, 15),
                days: 3,
                last_day: date(2026, 4, 14)
            })
        );
    }

    #[test]
    fn form_and_deposit_only_where_the_competition_asks() {
        let d = utc("2026-04-11T19:30:00Z");
        let at = utc("2026-04-12T10:00:00Z");
        let rules = ProtestRules {
            days: None,
            in_writing: true,
            deposit: true,
        };
        assert_eq!(
            lodge_protest(d, at, &rules, FREE),
            Err(ProtestError::NotInWriting)
        );
        let written = ProtestForm {
            in_writing: true,
            deposit_paid: false,
        };
        assert_eq!(
            lodge_protest(d, at, &rules, written),
            Err(ProtestError::DepositNotPaid)
        );
        let both = ProtestForm {
            in_writing: true,
            deposit_paid: true,
        };
        assert_eq!(lodge_protest(d, at, &rules, both), Ok(None));
    }
}
