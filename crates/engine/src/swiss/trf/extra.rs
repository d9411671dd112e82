//! The pairing lines the TRF reader keeps verbatim but the Dutch pairing reads: acceleration
//! (`XXA` of the bbpPairings/JaVaFo extension, `250` of TRF-2026) and forbidden pairs (`XXP`,
//! JaVaFo's extension). The reader checks them when it reads a file; the pairing reads them
//! from the kept lines, so the writer gives them back unchanged.

use super::{Line, Tournament, TrfError};
use crate::fixed::Fixed;
use std::collections::{BTreeMap, BTreeSet};

/// The most rounds an acceleration line may name: a TRF round number has three digits.
pub const MAX_ACCELERATED_ROUND: u32 = 999;

/// Virtual points per player: for each pairing number, the points added to the pairing score
/// in round `r` at index `r − 1` (missing rounds add nothing).
pub type Accelerations = BTreeMap<u32, Vec<Fixed>>;

fn chars_slice(chars: &[char], a: usize, b: usize) -> String {
    // 0-based, half-open, clipped to the line
    if a >= chars.len() {
        return String::new();
    }
    chars[a..b.min(chars.len())].iter().collect()
}

fn bad(line: usize, field: &'static str, message: String) -> TrfError {
    TrfError::Field {
        line,
        field,
        message,
    }
}

fn points(text: &str, line: usize, field: &'static str) -> Result<Fixed, TrfError> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(Fixed::ZERO);
    }
    let v = Fixed::parse_decimal(t).map_err(|e| bad(line, field, format!("`{t}` {e}")))?;
    if v.0 < 0 || v.0 % (Fixed::ONE.0 / 2) != 0 {
        return Err(bad(
            line,
            field,
            format!("`{t}` is not a whole or half number of points of at least 0"),
        ));
    }
    Ok(v)
}

fn whole(text: &str, line: usize, field: &'static str, max: u32) -> Result<u32, TrfError> {
    let t = text.trim();
    let n: u32 = t
        .parse()
        .map_err(|_| bad(line, field, format!("`{t}` is not a whole number")))?;
    if n == 0 || n > max {
        return Err(bad(
            line,
            field,
            format!("`{t}` is not between 1 and {max}"),
        ));
    }
    Ok(n)
}

fn known(t: &Tournament, id: u32, line: usize, field: &'static str) -> Result<u32, TrfError> {
    if t.player(id).is_none() {
        return Err(bad(
            line,
            field,
            format!("no player has pairing number {id}"),
        ));
    }
    Ok(id)
}

fn set(acc: &mut Accelerations, id: u32, round: u32, p: Fixed) {
    let v = acc.entry(id).or_default();
    let i = round as usize - 1;
    if v.len() <= i {
        v.resize(i + 1, Fixed::ZERO);
    }
    v[i] = p;
}

/// An `XXA` line: `XXA`, the pairing number in columns 5–8, then from column 10 one field of
/// four columns per round (round 1 first, a blank separating them) holding the virtual points
/// (blank: none).
fn read_xxa(
    t: &Tournament,
    raw: &str,
    line: usize,
    acc: &mut Accelerations,
) -> Result<(), TrfError> {
    let chars: Vec<char> = raw.chars().collect();
    let id = whole(
        &chars_slice(&chars, 4, 8),
        line,
        "XXA pairing number",
        9_999,
    )?;
    let id = known(t, id, line, "XXA pairing number")?;
    let mut start = 9;
    let mut round = 1u32;
    while start < chars.len() {
        if round > MAX_ACCELERATED_ROUND {
            return Err(bad(
                line,
                "XXA points",
                format!("more than {MAX_ACCELERATED_ROUND} rounds"),
            ));
        }
        let field = chars_slice(&chars, start, start + 4);
        if start > 9 && chars[start - 1] != ' ' {
            return Err(bad(
                line,
                "XXA points",
                format!("round {round}: fields are four columns apart with a blank between"),
            ));
        }
        let p = points(&field, line, "XXA points")?;
        set(acc, id, round, p);
        start += 5;
        round += 1;
    }
    acc.entry(id).or_default();
    Ok(())
}

/// A TRF-2026 `250` line: match points (columns 5–8, blank), game points (10–13), first and
/// last round (15–17, 19–21), first and last pairing number (23–26, 28–31).
fn read_250(
    t: &Tournament,
    raw: &str,
    line: usize,
    acc: &mut Accelerations,
) -> Result<(), TrfError> {
    let chars: Vec<char> = raw.chars().collect();
    if chars.len() < 31 {
        return Err(bad(
            line,
            "250",
            "the line ends before column 31 (the last pairing number)".into(),
        ));
    }
    let mp = chars_slice(&chars, 4, 8);
    if !mp.trim().is_empty() && points(&mp, line, "250 match points")? != Fixed::ZERO {
        return Err(bad(
            line,
            "250 match points",
            "match points are not supported; leave the columns blank".into(),
        ));
    }
    let gp = points(&chars_slice(&chars, 9, 13), line, "250 game points")?;
    if gp == Fixed::ZERO {
        return Err(bad(line, "250 game points", "missing or zero".into()));
    }
    let r1 = whole(
        &chars_slice(&chars, 14, 17),
        line,
        "250 first round",
        MAX_ACCELERATED_ROUND,
    )?;
    let r2 = whole(
        &chars_slice(&chars, 18, 21),
        line,
        "250 last round",
        MAX_ACCELERATED_ROUND,
    )?;
    if r1 > r2 {
        return Err(bad(
            line,
            "250 last round",
            format!("{r2} is before the first round {r1}"),
        ));
    }
    let p1 = whole(
        &chars_slice(&chars, 22, 26),
        line,
        "250 first player",
        9_999,
    )?;
    let p2 = whole(&chars_slice(&chars, 27, 31), line, "250 last player", 9_999)?;
    if p1 > p2 {
        return Err(bad(
            line,
            "250 last player",
            format!("{p2} is below the first player {p1}"),
        ));
    }
    if !chars_slice(&chars, 31, chars.len()).trim().is_empty() {
        return Err(bad(line, "250", "text after column 31".into()));
    }
    for id in p1..=p2 {
        let id = known(t, id, line, "250 player")?;
        for r in r1..=r2 {
            set(acc, id, r, gp);
        }
    }
    Ok(())
}

/// An `XXP` line: `XXP` followed by pairing numbers, separated by blanks, no two of whom may
/// meet.
fn read_xxp(
    t: &Tournament,
    raw: &str,
    line: usize,
    pairs: &mut BTreeSet<(u32, u32)>,
) -> Result<(), TrfError> {
    let mut ids: Vec<u32> = Vec::new();
    for tok in raw.get(3..).unwrap_or("").split_whitespace() {
        let id = whole(tok, line, "XXP pairing number", 9_999)?;
        let id = known(t, id, line, "XXP pairing number")?;
        if ids.contains(&id) {
            return Err(bad(
                line,
                "XXP pairing number",
                format!("{id} is named twice"),
            ));
        }
        ids.push(id);
    }
    if ids.len() < 2 {
        return Err(bad(line, "XXP", "names fewer than two players".into()));
    }
    for (i, &a) in ids.iter().enumerate() {
        for &b in &ids[i + 1..] {
            pairs.insert((a.min(b), a.max(b)));
        }
    }
    Ok(())
}

/// The kept lines with this three-character code, with their 1-based line numbers.
fn lines_with<'a>(t: &'a Tournament, code: &'a str) -> impl Iterator<Item = (usize, &'a str)> {
    t.layout
        .iter()
        .enumerate()
        .filter_map(move |(i, l)| match l {
            Line::Raw(s) if s.get(..3) == Some(code) && s.get(3..4).is_none_or(|c| c == " ") => {
                Some((i + 1, s.as_str()))
            }
            _ => None,
        })
}

/// The virtual points of the file's `XXA` and `250` lines, in file order (a later line for
/// the same player and round replaces an earlier one). A line naming a player the file does
/// not hold, or a malformed line, is refused with its line number.
pub fn accelerations(t: &Tournament) -> Result<Accelerations, TrfError> {
    let mut acc = Accelerations::new();
    for (i, l) in t.layout.iter().enumerate() {
        let Line::Raw(s) = l else { continue };
        match s.get(..4) {
            Some("XXA ") => read_xxa(t, s, i + 1, &mut acc)?,
            Some("250 ") => read_250(t, s, i + 1, &mut acc)?,
            _ => {}
        }
    }
    Ok(acc)
}

/// The pairs of the file's `XXP` lines (lower pairing number first) that may not meet. An
/// `XXP` line naming a player twice, or a player the file does not hold, is refused with its
/// line number.
pub fn forbidden_pairs(t: &Tournament) -> Result<BTreeSet<(u32, u32)>, TrfError> {
    let mut pairs = BTreeSet::new();
    for (line, s) in lines_with(t, "XXP") {
        read_xxp(t, s, line, &mut pairs)?;
    }
    Ok(pairs)
}

/// The virtual points of player `id` in round `round` (1-based; round 0 has none).
pub fn virtual_points(acc: &Accelerations, id: u32, round: u32) -> Fixed {
    let Some(i) = (round as usize).checked_sub(1) else {
        return Fixed::ZERO;
    };
    acc.get(&id)
        .and_then(|v| v.get(i))
        .copied()
        .unwrap_or(Fixed::ZERO)
}

#[cfg(test)]
#[path = "extra_tests.rs"]
mod tests;
