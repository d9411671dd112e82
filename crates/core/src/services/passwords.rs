//! The password rule of the accounts' own links and changes
//! ([decision 0321](../../../../docs/decisions/0321-account-links.md)): at least
//! [`MIN_CHARS`] characters, at most [`MAX_CHARS`], and not one of the common passwords
//! shipped with the service (`passwords/common.txt`, compared without regard to case).

use crate::error::FieldError;

/// The fewest characters of a new password.
pub const MIN_CHARS: usize = 10;
/// The most characters of a new password (argon2 hashes any length; this bounds the work).
pub const MAX_CHARS: usize = 200;

const COMMON: &str = include_str!("passwords/common.txt");

/// Whether `password` is on the list of common passwords.
pub fn is_common(password: &str) -> bool {
    let p = password.trim().to_lowercase();
    COMMON
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .any(|l| l == p)
}

/// Checks a new password in field `field`.
pub fn check(field: &str, password: &str) -> Result<(), FieldError> {
    let n = password.chars().count();
    if n < MIN_CHARS {
        return Err(FieldError::new(
            field,
            format!("must be at least {MIN_CHARS} characters"),
        ));
    }
    if n > MAX_CHARS {
        return Err(FieldError::new(
            field,
            format!("must be at most {MAX_CHARS} characters"),
        ));
    }
    if password.contains('\0') {
        return Err(FieldError::new(field, "must not hold the NUL character"));
    }
    if is_common(password) {
        return Err(FieldError::new(
            field,
            "is one of the most common passwords; choose another",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_long_and_common_passwords_are_refused() {
        assert!(check("password", "a quiet rook on e-file").is_ok());
        assert_eq!(
            check("password", "short1234").unwrap_err().message,
            "must be at least 10 characters"
        );
        assert!(check("password", &"x".repeat(201)).is_err());
        for common in ["1234567890", "Wachtwoord123", "QWERTYUIOP", "Schaakclub"] {
            assert!(check("password", common).is_err(), "{common}");
        }
    }
}
