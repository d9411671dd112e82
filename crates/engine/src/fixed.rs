//! Exact fixed-point numbers in ten-thousandths (docs/rules/README.md#results: "never compare floating-point
//! scores"). Keizer factors such as 0.3333 and all scores are held as integers.

use std::fmt;

/// Units per whole point: scores and factors are held in ten-thousandths.
pub const SCALE: i64 = 10_000;

/// A number held exactly in ten-thousandths (`Fixed(6_000)` is 0.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Fixed(pub i64);

/// Why a decimal could not be read as a [`Fixed`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FixedError {
    /// More than four digits after the decimal point.
    #[error("has more than 4 decimals")]
    TooManyDecimals,
    /// Not a decimal number at all.
    #[error("is not a decimal number")]
    NotANumber,
    /// Outside the range that can be held.
    #[error("is out of range")]
    OutOfRange,
}

impl Fixed {
    /// Zero.
    pub const ZERO: Fixed = Fixed(0);
    /// One whole point.
    pub const ONE: Fixed = Fixed(SCALE);

    /// A whole number of points.
    pub fn from_int(n: i64) -> Fixed {
        Fixed(n * SCALE)
    }

    /// The raw count of ten-thousandths.
    pub fn units(self) -> i64 {
        self.0
    }

    /// This factor times a whole number (e.g. a Keizer value): exact.
    pub fn times(self, n: i64) -> Fixed {
        Fixed(self.0 * n)
    }

    /// Reads a decimal such as `0.3333`, `1`, `-2.5`; at most 4 decimals.
    pub fn parse_decimal(s: &str) -> Result<Fixed, FixedError> {
        let s = s.trim();
        let (neg, body) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        let (int_part, frac_part) = match body.split_once('.') {
            Some((i, f)) => (i, f),
            None => (body, ""),
        };
        if int_part.is_empty() && frac_part.is_empty() {
            return Err(FixedError::NotANumber);
        }
        if !int_part.chars().all(|c| c.is_ascii_digit())
            || !frac_part.chars().all(|c| c.is_ascii_digit())
        {
            return Err(FixedError::NotANumber);
        }
        let frac_trimmed = frac_part.trim_end_matches('0');
        if frac_trimmed.len() > 4 {
            return Err(FixedError::TooManyDecimals);
        }
        let whole: i64 = if int_part.is_empty() {
            0
        } else {
            int_part.parse().map_err(|_| FixedError::OutOfRange)?
        };
        let mut frac: i64 = 0;
        for (i, c) in frac_trimmed.chars().enumerate() {
            frac += i64::from(c as u8 - b'0') * 10_i64.pow(3 - i as u32);
        }
        let units = whole
            .checked_mul(SCALE)
            .and_then(|w| w.checked_add(frac))
            .ok_or(FixedError::OutOfRange)?;
        Ok(Fixed(if neg { -units } else { units }))
    }

    /// Reads a JSON number exactly via its shortest decimal text; at most 4 decimals.
    pub fn from_json_number(n: &serde_json::Number) -> Result<Fixed, FixedError> {
        if let Some(i) = n.as_i64() {
            return i
                .checked_mul(SCALE)
                .map(Fixed)
                .ok_or(FixedError::OutOfRange);
        }
        // serde_json prints an f64 as its shortest round-trip decimal, so "0.3333" stays "0.3333".
        let text = n.to_string();
        if text.contains(['e', 'E']) {
            let f = n.as_f64().ok_or(FixedError::NotANumber)?;
            let scaled = f * SCALE as f64;
            if (scaled - scaled.round()).abs() > 1e-6 {
                return Err(FixedError::TooManyDecimals);
            }
            return Ok(Fixed(scaled.round() as i64));
        }
        Fixed::parse_decimal(&text)
    }

    /// The value as an `f64`, for JSON output only (never for comparisons).
    pub fn to_f64(self) -> f64 {
        self.0 as f64 / SCALE as f64
    }

    /// `self / n` rounded to the nearest ten-thousandth, halves away from zero.
    pub fn div_round(self, n: i64) -> Fixed {
        assert!(n > 0, "division by a positive count only");
        let q = self.0.div_euclid(n);
        let r = self.0.rem_euclid(n);
        // round half away from zero
        let up = if self.0 >= 0 { 2 * r >= n } else { 2 * r > n };
        Fixed(if up { q + 1 } else { q })
    }
}

impl std::ops::Add for Fixed {
    type Output = Fixed;
    fn add(self, o: Fixed) -> Fixed {
        Fixed(self.0 + o.0)
    }
}

impl std::ops::AddAssign for Fixed {
    fn add_assign(&mut self, o: Fixed) {
        self.0 += o.0;
    }
}

impl std::ops::Sub for Fixed {
    type Output = Fixed;
    fn sub(self, o: Fixed) -> Fixed {
        Fixed(self.0 - o.0)
    }
}

impl std::iter::Sum for Fixed {
    fn sum<I: Iterator<Item = Fixed>>(iter: I) -> Fixed {
        Fixed(iter.map(|f| f.0).sum())
    }
}

impl fmt::Display for Fixed {
    /// Always four decimals: `64.0000`, `-0.3333`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let a = self.0.unsigned_abs();
        write!(f, "{sign}{}.{:04}", a / SCALE as u64, a % SCALE as u64)
    }
}

impl serde::Serialize for Fixed {
    /// Serialized as a JSON number with at most 4 decimals (exact decimal text).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.to_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_exactly() {
        assert_eq!(Fixed::parse_decimal("0.3333"), Ok(Fixed(3333)));
        assert_eq!(Fixed::parse_decimal("1"), Ok(Fixed(10_000)));
        assert_eq!(Fixed::parse_decimal("0.50"), Ok(Fixed(5_000)));
        assert_eq!(Fixed::parse_decimal("-2.5"), Ok(Fixed(-25_000)));
        assert_eq!(
            Fixed::parse_decimal("0.33333"),
            Err(FixedError::TooManyDecimals)
        );
        assert_eq!(Fixed::parse_decimal("abc"), Err(FixedError::NotANumber));
        assert_eq!(Fixed(3333).to_string(), "0.3333");
        assert_eq!(Fixed(-3333).to_string(), "-0.3333");
        assert_eq!(Fixed::from_int(64).to_string(), "64.0000");
    }

    #[test]
    fn json_numbers_are_read_exactly() {
        let n: serde_json::Number = serde_json::from_str("0.3333").unwrap();
        assert_eq!(Fixed::from_json_number(&n), Ok(Fixed(3333)));
        let n: serde_json::Number = serde_json::from_str("0.12345").unwrap();
        assert_eq!(
            Fixed::from_json_number(&n),
            Err(FixedError::TooManyDecimals)
        );
        let n: serde_json::Number = serde_json::from_str("5").unwrap();
        assert_eq!(Fixed::from_json_number(&n), Ok(Fixed(50_000)));
    }

    #[test]
    fn excused_third_of_sixty() {
        // 0.3333 × 60 = 19.9980 (not 20): the club's Sevilla factor is truncated to 4 decimals.
        assert_eq!(Fixed(3333).times(60), Fixed(199_980));
    }

    #[test]
    fn rounding_average() {
        assert_eq!(Fixed(10).div_round(4), Fixed(3)); // 2.5 -> 3
        assert_eq!(Fixed(9).div_round(4), Fixed(2)); // 2.25 -> 2
        assert_eq!(Fixed(-10).div_round(4), Fixed(-3));
    }
}
