//! A deserializer's message (serde, serde_json, serde_urlencoded) told in our own words: no
//! position in the text, no Rust type names, no library sentence. The field is named by the
//! caller (`players[2].rating: …`); an unknown or missing field is named here.

/// `message` in our words (see the module). A message this does not know (one of our own
/// `Deserialize` implementations, which are written in our words) is kept without its
/// position.
pub fn plain_serde_message(message: &str) -> String {
    let text = match message.rfind(" at line ") {
        Some(i) if message[i..].contains(" column ") => &message[..i],
        _ => message,
    };
    if [
        "invalid digit",
        "number too large",
        "number too small",
        "cannot parse",
        "invalid float",
        "provided string was not",
        "invalid number",
        "number out of range",
    ]
    .iter()
    .any(|p| text.starts_with(p))
    {
        return "not a valid number".to_string();
    }
    if let Some(rest) = text.strip_prefix("unknown field ") {
        return match rest.split_once(", expected ") {
            Some((name, known)) => format!(
                "unknown field {}; the fields are {}",
                quoted(name),
                quoted(known.trim_start_matches("one of "))
            ),
            None => format!(
                "unknown field {}",
                quoted(rest.split(',').next().unwrap_or(rest))
            ),
        };
    }
    if let Some(rest) = text.strip_prefix("unknown variant ") {
        return match rest.split_once(", expected ") {
            Some((value, known)) => format!(
                "{} is not one of {}",
                quoted(value),
                quoted(known.trim_start_matches("one of "))
            ),
            None => format!(
                "{} is not a known value",
                quoted(rest.split(',').next().unwrap_or(rest))
            ),
        };
    }
    if let Some(name) = text.strip_prefix("missing field ") {
        return format!("{} is required", quoted(name));
    }
    if let Some(name) = text.strip_prefix("duplicate field ") {
        return format!("{} is given more than once", quoted(name));
    }
    if let Some(rest) = text.strip_prefix("invalid type: ")
        && let Some((got, want)) = rest.split_once(", expected ")
    {
        return format!("must be {}, not {}", expected(want), kind(got));
    }
    if let Some(rest) = text.strip_prefix("invalid value: ")
        && let Some((got, want)) = rest.split_once(", expected ")
    {
        return format!("{} is not allowed: must be {}", value(got), expected(want));
    }
    if let Some(rest) = text.strip_prefix("invalid length ")
        && let Some((n, want)) = rest.split_once(", expected ")
    {
        return format!("holds {n} items: must be {}", expected(want));
    }
    if text.starts_with("EOF while parsing") {
        return "the JSON text ends too early".to_string();
    }
    if [
        "expected ",
        "trailing ",
        "key must be",
        "control character",
        "invalid escape",
        "invalid unicode",
        "lone leading surrogate",
        "unexpected end of hex",
        "recursion limit",
    ]
    .iter()
    .any(|p| text.starts_with(p))
    {
        return "not well-formed JSON".to_string();
    }
    text.to_string()
}

/// Names written in backticks (`` `name` ``) as quoted names (`"name"`).
fn quoted(text: &str) -> String {
    text.trim().replace('`', "\"")
}

/// What a deserializer expected, in our words.
fn expected(want: &str) -> String {
    let w = want.trim();
    let integer = [
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
    ];
    if integer.contains(&w) {
        return "an integer".into();
    }
    match w {
        "f32" | "f64" => return "a number".into(),
        "a boolean" | "bool" => return "true or false".into(),
        "a borrowed string" | "a string" | "char" | "a character" => return "a string".into(),
        "a sequence" => return "a list".into(),
        "a map" => return "an object".into(),
        "option" => return "a value or null".into(),
        "unit" => return "null".into(),
        _ => {}
    }
    if w.starts_with("struct ") {
        return "an object".into();
    }
    if w.starts_with("enum ") || w.starts_with("variant identifier") {
        return "one of the listed values".into();
    }
    if w.starts_with("tuple") || w.starts_with("a tuple") {
        return "a list".into();
    }
    quoted(w)
}

/// The kind of value a deserializer got (`string "x"`, ``integer `5` ``), in our words.
fn kind(got: &str) -> &'static str {
    let g = got.trim();
    let first = |p: &str| g.starts_with(p);
    if first("string") || first("character") {
        "a string"
    } else if first("integer") || first("floating point") {
        "a number"
    } else if first("boolean") {
        "true or false"
    } else if first("map") {
        "an object"
    } else if first("sequence") {
        "a list"
    } else if first("null") || first("unit") {
        "null"
    } else {
        "another kind of value"
    }
}

/// The value a deserializer refused (`integer `-1``: `-1`), or its kind.
fn value(got: &str) -> String {
    let g = got.trim();
    if let Some(s) = g.strip_prefix("string ") {
        return s.to_string();
    }
    for p in ["integer ", "floating point ", "boolean "] {
        if let Some(v) = g.strip_prefix(p) {
            return v.trim_matches('`').to_string();
        }
    }
    kind(g).to_string()
}

#[cfg(test)]
mod tests {
    use super::plain_serde_message as m;

    #[test]
    fn serde_messages_are_told_in_our_words() {
        assert_eq!(
            m("invalid type: string \"x\", expected u32 at line 1 column 9"),
            "must be an integer, not a string"
        );
        assert_eq!(
            m("invalid type: integer `5`, expected struct NewPlayer"),
            "must be an object, not a number"
        );
        assert_eq!(
            m("invalid type: null, expected a boolean"),
            "must be true or false, not null"
        );
        assert_eq!(
            m("invalid value: integer `-1`, expected u32"),
            "-1 is not allowed: must be an integer"
        );
        assert_eq!(m("invalid digit found in string"), "not a valid number");
        assert_eq!(
            m("unknown field `nmae`, expected `name` or `rating`"),
            "unknown field \"nmae\"; the fields are \"name\" or \"rating\""
        );
        assert_eq!(
            m("unknown field `x`, expected one of `page`, `per_page`"),
            "unknown field \"x\"; the fields are \"page\", \"per_page\""
        );
        assert_eq!(
            m("unknown variant `Blitz`, expected one of `keizer`, `swiss`"),
            "\"Blitz\" is not one of \"keizer\", \"swiss\""
        );
        assert_eq!(m("missing field `name`"), "\"name\" is required");
        assert_eq!(
            m("duplicate field `name`"),
            "\"name\" is given more than once"
        );
        assert_eq!(
            m("EOF while parsing an object at line 1 column 7"),
            "the JSON text ends too early"
        );
        assert_eq!(
            m("expected `,` or `}` at line 1 column 12"),
            "not well-formed JSON"
        );
        assert_eq!(
            m("invalid length 3, expected a tuple of size 2"),
            "holds 3 items: must be a list"
        );
        // our own messages keep their words
        assert_eq!(
            m("unknown round status \"Planned\""),
            "unknown round status \"Planned\""
        );
    }
}
