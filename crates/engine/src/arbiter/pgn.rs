//! PGN reading for the arbiter: the tag pairs (only `[FEN "..."]` is used) and the movetext of
//! ONE game reduced to its main-line moves. Skipped: move numbers (`12.`, `12...`, also glued
//! to the move), comments (`{...}`, and `;` to the end of the line), variations (`( ... )`,
//! nested), NAGs (`$n`), lone annotation marks (`!`, `?!`, ...), a separate `e.p.` mark and
//! `%` escape lines. The game
//! ends at its result (`1-0`, `0-1`, `1/2-1/2`, `*`) or at the end of the text.

/// The main line of a PGN game.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct PgnGame {
    /// The `[FEN "..."]` tag, when present.
    pub fen: Option<String>,
    /// The main-line moves as written (SAN), move numbers stripped.
    pub moves: Vec<String>,
}

fn is_result(t: &str) -> bool {
    matches!(t, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*")
}

/// Strips a move number: `12.`, `12...` → empty; `12.e4`, `12...e5` → the move.
fn strip_number(t: &str) -> &str {
    match t.rfind('.') {
        Some(i) if t[..i].chars().all(|c| c.is_ascii_digit() || c == '.') => &t[i + 1..],
        _ => t,
    }
}

fn is_annotation(t: &str) -> bool {
    !t.is_empty() && t.chars().all(|c| matches!(c, '!' | '?'))
}

/// Reads a tag pair line `[Name "value"]` (value with `\"` and `\\` escapes).
fn tag(line: &str) -> Option<(String, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                value.push(n);
            }
        } else {
            value.push(c);
        }
    }
    Some((name.to_string(), value))
}

/// Reads one PGN game. Errors (naming what is wrong) on an unterminated comment or variation,
/// an unmatched `)`, or a malformed tag pair.
pub(crate) fn read_pgn(text: &str) -> Result<PgnGame, String> {
    let mut game = PgnGame::default();
    let mut movetext = String::new();
    let mut in_tags = true;
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with('%') {
            continue;
        }
        if in_tags && t.starts_with('[') {
            let (name, value) =
                tag(t).ok_or_else(|| format!("line {}: malformed tag pair '{t}'", n + 1))?;
            if name == "FEN" {
                game.fen = Some(value);
            }
            continue;
        }
        if !t.is_empty() {
            in_tags = false;
        }
        movetext.push_str(line);
        movetext.push('\n');
    }
    let mut depth = 0u32; // variation nesting
    let mut cur = String::new();
    let mut chars = movetext.chars();
    let mut done = false;
    // returns true when the result ends the game
    let flush = |cur: &mut String, depth: u32, moves: &mut Vec<String>| -> bool {
        let t = std::mem::take(cur);
        if depth > 0 || t.is_empty() {
            return false;
        }
        if is_result(&t) {
            return true;
        }
        let t = strip_number(&t);
        if !t.is_empty() && !t.starts_with('$') && !is_annotation(t) && t != "e.p." {
            moves.push(t.to_string());
        }
        false
    };
    while let Some(c) = chars.next() {
        let ends = match c {
            '{' => {
                let e = flush(&mut cur, depth, &mut game.moves);
                if !chars.by_ref().any(|c| c == '}') {
                    return Err("a comment '{' is not closed".into());
                }
                e
            }
            ';' => {
                let e = flush(&mut cur, depth, &mut game.moves);
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
                e
            }
            '(' => {
                let e = flush(&mut cur, depth, &mut game.moves);
                depth += 1;
                e
            }
            ')' => {
                let e = flush(&mut cur, depth, &mut game.moves);
                if depth == 0 {
                    return Err("a ')' closes no variation".into());
                }
                depth -= 1;
                e
            }
            '$' => {
                let e = flush(&mut cur, depth, &mut game.moves);
                cur.push('$');
                e
            }
            c if c.is_whitespace() => flush(&mut cur, depth, &mut game.moves),
            c => {
                cur.push(c);
                false
            }
        };
        if ends {
            done = true;
            break;
        }
    }
    if !done {
        if depth > 0 {
            return Err("a variation '(' is not closed".into());
        }
        flush(&mut cur, depth, &mut game.moves);
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<String> {
        read_pgn(text).unwrap_or_else(|e| panic!("{e}")).moves
    }

    #[test]
    fn tags_numbers_comments_variations_nags_and_result() {
        let pgn = "[Event \"Club \\\"A\\\"\"]\n[FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 40\"]\n\n\
                   40. Kb2 {a (note; here} Kd2 ; rest ignored (\n41.Ka3 $14 41...Kc3 \
                   (41...Ke3 42.Kb4 (42.Ka4) Kd4) 42. Ka4 !? Kc4 ?? 1/2-1/2 43. Ka5";
        let g = read_pgn(pgn).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(g.fen.as_deref(), Some("8/8/8/8/8/8/8/K1k5 w - - 0 40"));
        // main line only; the result ends the game (43.Ka5 is not part of it)
        assert_eq!(g.moves, ["Kb2", "Kd2", "Ka3", "Kc3", "Ka4", "Kc4"]);
    }

    #[test]
    fn glued_numbers_suffixes_and_all_results() {
        assert_eq!(
            moves("1.e4 e5 2.Nf3+! Nc6?! *"),
            ["e4", "e5", "Nf3+!", "Nc6?!"]
        );
        assert_eq!(moves("1. e4 0-1"), ["e4"]);
        assert_eq!(moves("1. e4 1-0"), ["e4"]);
        assert_eq!(moves("1. O-O 0-0-0"), ["O-O", "0-0-0"]);
        assert_eq!(moves("1. e4 e5"), ["e4", "e5"]);
        assert_eq!(moves("10. exd6 e.p. Kd7"), ["exd6", "Kd7"]);
        assert_eq!(moves(""), Vec::<String>::new());
    }

    #[test]
    fn malformed_movetext_is_an_error() {
        assert!(read_pgn("1. e4 {never closed").is_err());
        assert!(read_pgn("1. e4 (1. d4").is_err());
        assert!(read_pgn("1. e4 ) e5").is_err());
        assert!(read_pgn("[Event Club]\n1. e4").is_err());
    }
}
