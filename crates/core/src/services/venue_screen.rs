//! The venue screen's read (docs/decisions/0348-the-venue-screen.md): the evening it shows
//! (tonight's, or the one asked for), its pairings and results as the public sees them, and
//! the check-in code while the evening's self check-in is open — one read, one snapshot.

use crate::error::{ApiError, ApiResult};
use crate::ids::EveningId;
use crate::services::club_pages;
use crate::services::evenings::{self, EveningDetail, Which};
use crate::services::presence::{self, CheckInCode, code::CodeKey};
use crate::store::DbConn;
use chrono::{DateTime, NaiveDate, Utc};

/// What the venue screen shows.
#[derive(Debug, Clone)]
pub struct Screen {
    /// The evening shown: tonight's, the one asked for, or the next one (then `tonight` is
    /// false and no boards are shown); none when no evening is planned.
    pub evening: Option<EveningDetail>,
    /// Whether the evening is played today (or was asked for by its id).
    pub tonight: bool,
    /// The code shown while the evening's self check-in is open.
    pub check_in: Option<CheckInCode>,
}

/// The screen of evening `asked` (else of the first evening on or after `today`), at `now`.
/// 404 only when an evening asked for by its id does not exist.
pub fn screen(
    c: &mut DbConn,
    asked: Option<EveningId>,
    today: NaiveDate,
    key: &CodeKey,
    now: DateTime<Utc>,
) -> ApiResult<Screen> {
    let which = match asked {
        Some(id) => Which::Id(id),
        None => Which::OnOrAfter(today),
    };
    let found = match evenings::find(c, which) {
        Ok(e) => e,
        Err(ApiError::NotFound(_)) if asked.is_none() => {
            return Ok(Screen {
                evening: None,
                tonight: false,
                check_in: None,
            });
        }
        Err(e) => return Err(e),
    };
    let detail = club_pages::evening_found(c, found)?;
    let tonight = asked.is_some() || detail.date == today;
    let id = EveningId(detail.id);
    let check_in = if tonight && presence::state(c, id)?.open {
        Some(presence::current_code(c, key, id, now)?)
    } else {
        None
    };
    Ok(Screen {
        evening: Some(detail),
        tonight,
        check_in,
    })
}
