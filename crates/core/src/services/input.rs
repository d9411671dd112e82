//! Input rules shared by several resources, each coded once.

use crate::error::{ApiError, FieldError};

/// 422: the field holds the NUL character.
pub fn nul_refused(field: &str) -> ApiError {
    ApiError::invalid(field, "must not contain the NUL character (U+0000)")
}

/// The longest name of a season, competition or player, in characters.
pub const NAME_MAX: usize = 100;

/// A name as stored: leading and trailing blanks dropped, then 1–100 characters (so not only
/// blanks), or a field error naming `field`. Seasons and competitions.
pub fn name(field: &str, raw: &str) -> Result<String, FieldError> {
    bounded_name(field, raw, NAME_MAX)
}

/// [`name`] with another longest length (players: 200 characters). A name is a one-line
/// text: no control, bidirectional or invisible formatting character ([`one_line`]).
pub fn bounded_name(field: &str, raw: &str, max: usize) -> Result<String, FieldError> {
    let name = raw.trim();
    if name.is_empty() || name.chars().count() > max {
        Err(FieldError::new(
            field,
            format!("must be 1–{max} characters"),
        ))
    } else {
        one_line(field, name)?;
        Ok(name.to_string())
    }
}

/// A one-line text (a name, a title, a one-line note): refused, naming `field`, when it holds
/// a control, bidirectional or invisible formatting character
/// (docs/decisions/0254-one-line-texts.md).
pub fn one_line(field: &str, text: &str) -> Result<(), FieldError> {
    crate::text::one_line(text).map_err(|why| FieldError::new(field, why))
}

/// A text of several lines (a reason, grounds, a note): [`one_line`] with line feed, carriage
/// return and tab allowed.
pub fn multi_line(field: &str, text: &str) -> Result<(), FieldError> {
    crate::text::multi_line(text).map_err(|why| FieldError::new(field, why))
}

/// [`one_line`] as a 422 problem.
pub fn checked_one_line(field: &str, text: &str) -> Result<(), ApiError> {
    one_line(field, text).map_err(|e| ApiError::validation(vec![e]))
}

/// [`multi_line`] as a 422 problem.
pub fn checked_multi_line(field: &str, text: &str) -> Result<(), ApiError> {
    multi_line(field, text).map_err(|e| ApiError::validation(vec![e]))
}

/// [`name`] as a 422 problem.
pub fn checked_name(field: &str, raw: &str) -> Result<String, ApiError> {
    name(field, raw).map_err(|e| ApiError::validation(vec![e]))
}
