//! The point system of a Swiss tournament (docs/rules/rapid-blitz.md#point-systems): the
//! points of a win, a draw, a played loss, a zero-point bye or absence, a forfeit loss and the
//! pairing-allocated bye. A TRF file gives them with the `BBW`, `BBD`, `BBL`, `BBZ`, `BBF`
//! and `BBU` lines of the bbpPairings/JaVaFo extension, or with the `162` line of TRF-2026
//! (`W`, `D`, `L`, `Z` for both the zero-point bye and the forfeit loss, `P` for the bye).
//! Without them the standard 1 / ½ / 0 applies, and a pairing-allocated bye is worth a win
//! (docs/decisions/0270-point-systems.md).

use super::{Line, ResultCode, RoundEntry, Tournament, TrfError};
use crate::fixed::Fixed;
use serde::Serialize;

/// The most points one result may be worth: four columns with one decimal (`99.9`).
pub const MAX_RESULT_POINTS: Fixed = Fixed(999_000);

/// The points of each kind of result; every value is a whole number of tenths of a point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PointSystem {
    /// A won game, a forfeit win, a full-point bye (`1`, `W`, `+`, `F`).
    pub win: Fixed,
    /// A drawn game or a half-point bye (`=`, `D`, `H`).
    pub draw: Fixed,
    /// A lost game played over the board (`0`, `L`).
    pub loss: Fixed,
    /// A zero-point bye or an absence without an opponent (`Z`, `0000 - -`).
    pub zero_bye: Fixed,
    /// A forfeit loss against an opponent (`-`).
    pub forfeit_loss: Fixed,
    /// The pairing-allocated bye (`U`, or `+` without an opponent).
    pub pab: Fixed,
}

impl Default for PointSystem {
    fn default() -> Self {
        PointSystem::STANDARD
    }
}

impl PointSystem {
    /// Win 1, draw ½, loss 0; the pairing-allocated bye is worth a win.
    pub const STANDARD: PointSystem = PointSystem {
        win: Fixed::ONE,
        draw: Fixed(5_000),
        loss: Fixed::ZERO,
        zero_bye: Fixed::ZERO,
        forfeit_loss: Fixed::ZERO,
        pab: Fixed::ONE,
    };

    /// The points one round entry scores (a game not yet played scores as an absence).
    pub fn points(&self, e: &RoundEntry) -> Fixed {
        match e.result {
            ResultCode::Win | ResultCode::UnratedWin | ResultCode::FullBye => self.win,
            ResultCode::ForfeitWin if e.opponent.is_some() => self.win,
            ResultCode::ForfeitWin | ResultCode::PairingBye => self.pab,
            ResultCode::Draw | ResultCode::UnratedDraw | ResultCode::HalfBye => self.draw,
            ResultCode::Loss | ResultCode::UnratedLoss => self.loss,
            ResultCode::ForfeitLoss | ResultCode::Pending if e.opponent.is_some() => {
                self.forfeit_loss
            }
            ResultCode::ForfeitLoss | ResultCode::Pending | ResultCode::ZeroBye => self.zero_bye,
        }
    }

    /// The points of the first `rounds` entries of a player.
    pub fn score(&self, rounds: &[RoundEntry]) -> Fixed {
        Fixed(rounds.iter().map(|e| self.points(e).0).sum())
    }

    /// Whether a round entry scored a win's points (or more) without a game, or is the
    /// pairing-allocated bye: such a player may not get the bye again (C.04.3 C.2).
    pub fn bye_like(&self, e: &RoundEntry) -> bool {
        !e.played()
            && (self.points(e) >= self.win
                || e.result == ResultCode::PairingBye
                || (e.result == ResultCode::ForfeitWin && e.opponent.is_none()))
    }
}

fn bad(line: usize, field: &'static str, message: String) -> TrfError {
    TrfError::Field {
        line,
        field,
        message,
    }
}

/// One value of a point-system line: 0 to 99.9 points in tenths.
fn value(text: &str, line: usize, field: &'static str) -> Result<Fixed, TrfError> {
    let t = text.trim();
    let v = Fixed::parse_decimal(t).map_err(|e| bad(line, field, format!("`{t}` {e}")))?;
    if v.0 < 0 || v > MAX_RESULT_POINTS || v.0 % 1_000 != 0 {
        return Err(bad(
            line,
            field,
            format!("`{t}` is not a number of points from 0 to 99.9 in tenths"),
        ));
    }
    Ok(v)
}

/// A TRF-2026 `162` line: from column 6, fields of nine columns, each a result code (`W`, `D`,
/// `L`, `Z`, `P`) and the points in the next four columns.
fn read_162(
    raw: &str,
    line: usize,
    ps: &mut PointSystem,
    pab_set: &mut bool,
) -> Result<(), TrfError> {
    let chars: Vec<char> = raw.chars().collect();
    let mut start = 5;
    while start < chars.len() {
        let field: String = chars[start..(start + 9).min(chars.len())].iter().collect();
        if field.trim().is_empty() {
            start += 9;
            continue;
        }
        let code = chars[start];
        let points: String = chars[start + 1..(start + 5).min(chars.len())]
            .iter()
            .collect();
        let v = value(&points, line, "162 points")?;
        match code {
            'W' => ps.win = v,
            'D' => ps.draw = v,
            'L' => ps.loss = v,
            'Z' => {
                ps.zero_bye = v;
                ps.forfeit_loss = v;
            }
            'P' => {
                ps.pab = v;
                *pab_set = true;
            }
            c => {
                return Err(bad(
                    line,
                    "162 result",
                    format!("`{c}` is not W, D, L, Z or P"),
                ));
            }
        }
        if !field.get(5..).unwrap_or("").trim().is_empty() {
            return Err(bad(
                line,
                "162",
                "fields are nine columns apart: a code and four columns of points".into(),
            ));
        }
        start += 9;
    }
    Ok(())
}

/// Applies one kept line to `ps` when it is a point-system line; returns whether it was one.
fn apply_line(
    s: &str,
    line: usize,
    ps: &mut PointSystem,
    pab_set: &mut bool,
) -> Result<bool, TrfError> {
    let (code, rest) = (s.get(..3).unwrap_or(""), s.get(3..).unwrap_or(""));
    if !rest.is_empty() && !rest.starts_with(' ') {
        return Ok(false);
    }
    let field = match code {
        "BBW" => "BBW",
        "BBD" => "BBD",
        "BBL" => "BBL",
        "BBZ" => "BBZ",
        "BBF" => "BBF",
        "BBU" => "BBU",
        "162" => {
            read_162(s, line, ps, pab_set)?;
            return Ok(true);
        }
        _ => return Ok(false),
    };
    let v = value(rest, line, field)?;
    match field {
        "BBW" => ps.win = v,
        "BBD" => ps.draw = v,
        "BBL" => ps.loss = v,
        "BBZ" => ps.zero_bye = v,
        "BBF" => ps.forfeit_loss = v,
        _ => {
            ps.pab = v;
            *pab_set = true;
        }
    }
    Ok(true)
}

/// The point system of a file: its `BB*` and `162` lines in file order (a later line for the
/// same result replaces an earlier one). Without a `BBU` (or `162 P`) value the
/// pairing-allocated bye is worth a win. A malformed line is refused with its line number.
pub fn point_system(t: &Tournament) -> Result<PointSystem, TrfError> {
    let mut ps = PointSystem::STANDARD;
    let mut pab_set = false;
    for (i, l) in t.layout.iter().enumerate() {
        if let Line::Raw(s) = l {
            apply_line(s, i + 1, &mut ps, &mut pab_set)?;
        }
    }
    if !pab_set {
        ps.pab = ps.win;
    }
    Ok(ps)
}

/// The first point-system line that gives a value other than the standard one (win 1, draw
/// ½, loss, byes without points and forfeit loss 0, pairing-allocated bye 1), with the 1-based
/// line number; for the calculations that know only the standard scoring.
pub fn non_standard_point_line(t: &Tournament) -> Result<Option<usize>, TrfError> {
    for (i, l) in t.layout.iter().enumerate() {
        let Line::Raw(s) = l else { continue };
        let mut ps = PointSystem::STANDARD;
        if apply_line(s, i + 1, &mut ps, &mut false)? && ps != PointSystem::STANDARD {
            return Ok(Some(i + 1));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::super::parse_trf;
    use super::*;

    fn ps(text: &str) -> Result<PointSystem, TrfError> {
        parse_trf(text).and_then(|t| point_system(&t))
    }

    #[test]
    fn a_file_without_point_lines_scores_one_half_and_nothing() {
        assert_eq!(ps("012 Plain\n").unwrap(), PointSystem::STANDARD);
    }

    #[test]
    fn three_one_zero_gives_the_bye_three_points_unless_bbu_says_otherwise() {
        let p = ps("012 T\nBBW  3.0\nBBD  1.0\n").unwrap();
        assert_eq!(
            (p.win, p.draw, p.loss, p.pab),
            (Fixed(30_000), Fixed::ONE, Fixed::ZERO, Fixed(30_000))
        );
        let p = ps("012 T\nBBU  1.0\nBBW  3.0\nBBD  1.0\n").unwrap();
        assert_eq!(p.pab, Fixed::ONE);
    }

    #[test]
    fn the_162_line_sets_the_forfeit_loss_with_the_zero_point_bye() {
        let p = ps("012 T\n162  W 3.0    D 1.0    Z 0.5    P 2.0\n").unwrap();
        assert_eq!(p.win, Fixed(30_000));
        assert_eq!(p.draw, Fixed::ONE);
        assert_eq!((p.zero_bye, p.forfeit_loss), (Fixed(5_000), Fixed(5_000)));
        assert_eq!(p.pab, Fixed(20_000));
    }

    #[test]
    fn a_point_value_outside_tenths_or_the_columns_is_refused_with_its_line() {
        let e = ps("012 T\nXXR 5\nBBW  3.25\n").unwrap_err().to_string();
        assert!(e.starts_with("line 3: field BBW:"), "{e}");
        let e = ps("012 T\nBBD 100\n").unwrap_err().to_string();
        assert!(e.starts_with("line 2: field BBD:"), "{e}");
        let e = ps("012 T\nBBL -1\n").unwrap_err().to_string();
        assert!(e.starts_with("line 2: field BBL:"), "{e}");
        let e = ps("012 T\n162  X 1.0\n").unwrap_err().to_string();
        assert!(e.starts_with("line 2: field 162 result:"), "{e}");
    }

    #[test]
    fn only_a_line_that_changes_a_value_is_non_standard() {
        let t = parse_trf("012 T\nBBW  1.0\nBBD  0.5\nBBL  0.0\n").unwrap();
        assert_eq!(non_standard_point_line(&t).unwrap(), None);
        let t = parse_trf("012 T\nBBW  1.0\nBBD  1.0\n").unwrap();
        assert_eq!(non_standard_point_line(&t).unwrap(), Some(3));
    }

    #[test]
    fn each_result_scores_as_the_system_says() {
        let p = ps("012 T\nBBW  3.0\nBBD  1.0\nBBL  0.5\nBBZ  0.2\nBBF  0.1\nBBU  2.0\n").unwrap();
        let e = |opponent: Option<u32>, result| RoundEntry {
            opponent,
            colour: None,
            result,
        };
        use ResultCode as R;
        // by hand: each code against the table of the lines above
        let cases = [
            (e(Some(2), R::Win), 30_000),
            (e(Some(2), R::ForfeitWin), 30_000),
            (e(None, R::ForfeitWin), 20_000),
            (e(None, R::FullBye), 30_000),
            (e(None, R::PairingBye), 20_000),
            (e(Some(2), R::Draw), 10_000),
            (e(None, R::HalfBye), 10_000),
            (e(Some(2), R::Loss), 5_000),
            (e(Some(2), R::ForfeitLoss), 1_000),
            (e(None, R::ForfeitLoss), 2_000),
            (e(None, R::ZeroBye), 2_000),
        ];
        for (entry, units) in cases {
            assert_eq!(p.points(&entry), Fixed(units), "{entry:?}");
        }
    }
}
