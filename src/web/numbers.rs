//! Numbers as a club writes them (docs/decisions/0360-numbers-on-the-pages.md): at most two
//! decimals, rounded half away from zero only here, at display, from the exact decimal text
//! the read models give (the engine counts in ten-thousandths); trailing zeros dropped; a
//! decimal comma in Dutch. Every page shows its numbers through [`show`].

use super::Lang;

/// A decimal text (`22.9997`, `-3.5`, `107`) as shown: `23`, `-3,5`, `107`. A text that is no
/// decimal number is shown as it is.
pub fn show(lang: Lang, text: &str) -> String {
    let Some((negative, hundredths)) = hundredths(text) else {
        return text.to_string();
    };
    let whole = hundredths / 100;
    let frac = hundredths % 100;
    let sign = if negative && hundredths != 0 { "-" } else { "" };
    let sep = match lang {
        Lang::Nl => ",",
        Lang::En => ".",
    };
    match frac {
        0 => format!("{sign}{whole}"),
        f if f % 10 == 0 => format!("{sign}{whole}{sep}{}", f / 10),
        f => format!("{sign}{whole}{sep}{f:02}"),
    }
}

/// A number of a read model that is a JSON float holding an exact decimal of at most four
/// places (a Keizer score, game points), as shown.
pub fn show_f64(lang: Lang, x: f64) -> String {
    show(lang, &format!("{x:.4}"))
}

/// An amount of prize money as shown: `€ 25`, `€ 12,50` (whole cents always with two
/// digits); empty for no amount.
pub fn money(lang: Lang, text: &str) -> String {
    let Some((negative, h)) = hundredths(text) else {
        return text.trim().to_string();
    };
    if h == 0 {
        return String::new();
    }
    let sign = if negative { "-" } else { "" };
    let sep = match lang {
        Lang::Nl => ",",
        Lang::En => ".",
    };
    match h % 100 {
        0 => format!("€ {sign}{}", h / 100),
        c => format!("€ {sign}{}{sep}{c:02}", h / 100),
    }
}

/// Whether a prize-money text is an amount above zero.
pub fn is_money(text: &str) -> bool {
    hundredths(text).is_some_and(|(neg, h)| !neg && h > 0)
}

/// The sign and the magnitude in hundredths, rounded half away from zero, of a decimal text;
/// `None` when the text is not a plain decimal number (or too large).
fn hundredths(text: &str) -> Option<(bool, u128)> {
    let t = text.trim();
    let (negative, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let plain = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    if int.is_empty() && frac.is_empty() || !plain(int) || !plain(frac) || int.len() > 30 {
        return None;
    }
    let whole: u128 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let mut f = frac.bytes().map(|b| u128::from(b - b'0'));
    let first = f.next().unwrap_or(0);
    let second = f.next().unwrap_or(0);
    let third = f.next().unwrap_or(0);
    let up = u128::from(third >= 5);
    Some((negative, whole * 100 + first * 10 + second + up))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_keizer_score_shows_with_at_most_two_decimals() {
        // 22.9997 rounds to 23.00, shown without its zeros
        assert_eq!(show(Lang::Nl, "22.9997"), "23");
        assert_eq!(show(Lang::Nl, "53.5"), "53,5");
        assert_eq!(show(Lang::En, "53.5000"), "53.5");
        assert_eq!(show(Lang::Nl, "10.125"), "10,13");
        assert_eq!(show(Lang::Nl, "10.1249"), "10,12");
        assert_eq!(show(Lang::Nl, "-2.005"), "-2,01");
        assert_eq!(show(Lang::Nl, "-0.001"), "0");
        assert_eq!(show(Lang::En, "107"), "107");
        assert_eq!(show(Lang::Nl, "0.05"), "0,05");
        assert_eq!(show_f64(Lang::Nl, 33.3333), "33,33");
        assert_eq!(show_f64(Lang::Nl, 66.6667), "66,67");
    }

    #[test]
    fn prize_money_shows_in_euros_with_whole_cents() {
        assert_eq!(money(Lang::Nl, "12.5"), "€ 12,50");
        assert_eq!(money(Lang::En, "25.00"), "€ 25");
        assert_eq!(money(Lang::Nl, "0"), "");
        assert_eq!(money(Lang::Nl, ""), "");
        assert!(is_money("0.01"));
        assert!(!is_money("0.00"));
        assert!(!is_money(""));
    }

    #[test]
    fn a_text_that_is_no_number_is_shown_as_it_is() {
        assert_eq!(show(Lang::Nl, ""), "");
        assert_eq!(show(Lang::Nl, "—"), "—");
        assert_eq!(show(Lang::Nl, "1.2.3"), "1.2.3");
        assert_eq!(show(Lang::Nl, "-"), "-");
    }
}
