//! Reading and writing the FIDE Tournament Report File (TRF-16) with the TRF-2026 extensions
//! that pairing engines use (docs/rules/rapid-blitz.md#the-dutch-system): `012` tournament name, `XXR` total rounds, `XXC` initial
//! colour, `001` player lines whose rounds are `opponent colour result` blocks (forfeits `+ -`,
//! byes `H F Z U`, `0000` for an unplayed round) and any line ending (CR only, LF, CR LF);
//! acceleration (`XXA`, `250`), forbidden pairs (`XXP`) and the point system (`BBW` … `BBU`,
//! `162`) are checked and kept verbatim.
//!
//! The reader keeps every line it does not interpret (verbatim, in place) so that
//! `write_trf(&parse_trf(text)?)` gives back `text` byte for byte for well-formed files.

use crate::fixed::Fixed;
use serde::{Deserialize, Serialize};

/// A colour in one round (`w`, `b` in the file).
pub(crate) use crate::vocab::Colour;

/// The result code of one round entry (TRF-16 field "result").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResultCode {
    /// `1`: won a played game.
    Win,
    /// `=`: drew a played game.
    Draw,
    /// `0`: lost a played game.
    Loss,
    /// `+`: won by forfeit (the opponent did not appear).
    ForfeitWin,
    /// `-`: lost by forfeit, or absent without a bye (`0000 - -`).
    ForfeitLoss,
    /// `W`: won a game that is not rated.
    UnratedWin,
    /// `D`: drew a game that is not rated.
    UnratedDraw,
    /// `L`: lost a game that is not rated.
    UnratedLoss,
    /// `H`: half-point bye (requested absence).
    HalfBye,
    /// `F`: full-point bye (requested absence, full point).
    FullBye,
    /// `U`: pairing-allocated bye (the odd player out).
    PairingBye,
    /// `Z`: zero-point bye (absent).
    ZeroBye,
    /// A blank result: the game is paired but not yet played.
    Pending,
}

impl ResultCode {
    /// Reads the one-character code.
    pub fn from_char(c: char) -> Option<ResultCode> {
        Some(match c {
            '1' => ResultCode::Win,
            '=' => ResultCode::Draw,
            '0' => ResultCode::Loss,
            '+' => ResultCode::ForfeitWin,
            '-' => ResultCode::ForfeitLoss,
            'W' | 'w' => ResultCode::UnratedWin,
            'D' | 'd' => ResultCode::UnratedDraw,
            'L' | 'l' => ResultCode::UnratedLoss,
            'H' | 'h' => ResultCode::HalfBye,
            'F' | 'f' => ResultCode::FullBye,
            'U' | 'u' => ResultCode::PairingBye,
            'Z' | 'z' => ResultCode::ZeroBye,
            ' ' => ResultCode::Pending,
            _ => return None,
        })
    }

    /// The one-character code.
    pub fn to_char(self) -> char {
        match self {
            ResultCode::Win => '1',
            ResultCode::Draw => '=',
            ResultCode::Loss => '0',
            ResultCode::ForfeitWin => '+',
            ResultCode::ForfeitLoss => '-',
            ResultCode::UnratedWin => 'W',
            ResultCode::UnratedDraw => 'D',
            ResultCode::UnratedLoss => 'L',
            ResultCode::HalfBye => 'H',
            ResultCode::FullBye => 'F',
            ResultCode::PairingBye => 'U',
            ResultCode::ZeroBye => 'Z',
            ResultCode::Pending => ' ',
        }
    }

    /// Points in half-points under the standard 1 / ½ / 0 scoring (a pairing-allocated bye
    /// scores a win, FIDE C.04.1 c; a pending game scores nothing yet).
    pub fn half_points(self) -> u32 {
        match self {
            ResultCode::Win
            | ResultCode::ForfeitWin
            | ResultCode::UnratedWin
            | ResultCode::FullBye
            | ResultCode::PairingBye => 2,
            ResultCode::Draw | ResultCode::UnratedDraw | ResultCode::HalfBye => 1,
            _ => 0,
        }
    }
}

/// One round of one player: opponent (none for a bye or absence), colour, result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundEntry {
    /// The opponent's pairing number; `None` is written `0000`.
    pub opponent: Option<u32>,
    /// The colour; `None` is written `-`.
    pub colour: Option<Colour>,
    /// The result code.
    pub result: ResultCode,
}

impl RoundEntry {
    /// True when a game was actually played over the board (not forfeited, not a bye).
    pub fn played(&self) -> bool {
        self.opponent.is_some()
            && matches!(
                self.result,
                ResultCode::Win
                    | ResultCode::Draw
                    | ResultCode::Loss
                    | ResultCode::UnratedWin
                    | ResultCode::UnratedDraw
                    | ResultCode::UnratedLoss
                    | ResultCode::Pending
            )
    }
}

/// One `001` player line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrfPlayer {
    /// Starting rank = pairing number (columns 5–8).
    pub id: u32,
    /// Sex (column 10), as written.
    #[serde(default)]
    pub sex: String,
    /// Title (columns 11–13), as written without padding.
    #[serde(default)]
    pub title: String,
    /// Name (columns 15–47).
    pub name: String,
    /// Rating (columns 49–52), 0 when blank.
    #[serde(default)]
    pub rating: u32,
    /// Federation (columns 54–56).
    #[serde(default)]
    pub federation: String,
    /// FIDE id (columns 58–68).
    #[serde(default)]
    pub fide_id: String,
    /// Birth date (columns 70–79).
    #[serde(default)]
    pub birth: String,
    /// Points as declared in the file (columns 81–84).
    #[serde(with = "fixed_serde")]
    pub points: Fixed,
    /// Rank as declared in the file (columns 86–89), 0 when blank.
    #[serde(default)]
    pub rank: u32,
    /// Per-round entries, round 1 first.
    pub rounds: Vec<RoundEntry>,
}

impl TrfPlayer {
    /// Score in half-points over the first `rounds` rounds (computed from the results).
    pub fn half_points_before(&self, rounds: usize) -> u32 {
        self.rounds
            .iter()
            .take(rounds)
            .map(|r| r.result.half_points())
            .sum()
    }
}

/// Where a line of the file goes, so that the writer reproduces the original layout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Line {
    /// The `012` tournament name line.
    Name,
    /// The `XXR` line.
    TotalRounds,
    /// The `XXC` line.
    InitialColour,
    /// The player with this index in [`Tournament::players`].
    Player(usize),
    /// Any other line, kept verbatim.
    Raw(String),
}

/// A whole TRF file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    /// Tournament name (`012`).
    #[serde(default)]
    pub name: Option<String>,
    /// Total number of rounds (`XXR`).
    #[serde(default)]
    pub total_rounds: Option<u32>,
    /// Colour of the top seed in round 1 (`XXC white1` / `black1`); the raw `XXC` text is
    /// kept in `initial_colour_text`.
    #[serde(default)]
    pub initial_colour: Option<Colour>,
    /// The `XXC` value as written (e.g. `white1`, `black1 rank`).
    #[serde(default)]
    pub initial_colour_text: Option<String>,
    /// The players in file order.
    pub players: Vec<TrfPlayer>,
    /// File layout; empty means the standard order (name, XXR, XXC, players).
    #[serde(default)]
    pub layout: Vec<Line>,
    /// Line terminator used by the file (`"\r"`, `"\n"` or `"\r\n"`).
    #[serde(default = "default_eol")]
    pub line_ending: String,
    /// Whether the last line is followed by a terminator.
    #[serde(default = "yes")]
    pub final_line_ending: bool,
}

fn default_eol() -> String {
    "\n".to_string()
}
fn yes() -> bool {
    true
}

impl Tournament {
    /// The player with this pairing number.
    pub fn player(&self, id: u32) -> Option<&TrfPlayer> {
        self.players.iter().find(|p| p.id == id)
    }

    /// Number of rounds with at least one entry in the file.
    pub fn rounds_in_file(&self) -> usize {
        self.players
            .iter()
            .map(|p| p.rounds.len())
            .max()
            .unwrap_or(0)
    }
}

/// The most players a TRF file holds: pairing numbers have four digits.
pub const MAX_PLAYERS: usize = 9_999;

/// Why a TRF file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TrfError {
    /// A field of a line could not be read.
    #[error("line {line}: field {field}: {message}")]
    Field {
        /// 1-based line number.
        line: usize,
        /// Name of the field.
        field: &'static str,
        /// What is wrong.
        message: String,
    },
    /// More player lines than a TRF file can number (four-digit pairing numbers).
    #[error(
        "line {line}: player {}: a TRF file holds at most {MAX_PLAYERS} players",
        MAX_PLAYERS + 1
    )]
    TooManyPlayers {
        /// 1-based line number of the first player line beyond the maximum.
        line: usize,
    },
    /// A player line holds more rounds than the `XXR` line announces.
    #[error("line {line}: player {id} has {rounds} rounds, more than the {total} of XXR")]
    RoundsBeyondTotal {
        /// 1-based line number of the first player line with too many rounds.
        line: usize,
        /// The player's pairing number.
        id: u32,
        /// Rounds on the player's line.
        rounds: usize,
        /// Rounds the `XXR` line announces.
        total: u32,
    },
    /// Two player lines carry the same pairing number.
    #[error("line {line}: pairing number {id} is used twice")]
    DuplicateId {
        /// 1-based line number.
        line: usize,
        /// The pairing number.
        id: u32,
    },
}

mod extra;
mod points;
pub use extra::{
    Accelerations, MAX_ACCELERATED_ROUND, accelerations, forbidden_pairs, virtual_points,
};
pub use points::{MAX_RESULT_POINTS, PointSystem, non_standard_point_line, point_system};

mod fixed_serde {
    use crate::fixed::Fixed;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &Fixed, s: S) -> Result<S::Ok, S::Error> {
        v.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Fixed, D::Error> {
        let n = serde_json::Number::deserialize(d)?;
        Fixed::from_json_number(&n).map_err(serde::de::Error::custom)
    }
}

/// Columns (1-based, inclusive) of a player line.
const COL_ID: (usize, usize) = (5, 8);
const COL_SEX: (usize, usize) = (10, 10);
const COL_TITLE: (usize, usize) = (11, 13);
const COL_NAME: (usize, usize) = (15, 47);
const COL_RATING: (usize, usize) = (49, 52);
const COL_FED: (usize, usize) = (54, 56);
const COL_FIDE: (usize, usize) = (58, 68);
const COL_BIRTH: (usize, usize) = (70, 79);
const COL_POINTS: (usize, usize) = (81, 84);
const COL_RANK: (usize, usize) = (86, 89);
/// First column of round 1; each round takes 10 columns (`  oooo c r`).
const COL_ROUND1: usize = 92;

fn slice(chars: &[char], (a, b): (usize, usize)) -> String {
    let a = a - 1;
    if a >= chars.len() {
        return String::new();
    }
    let b = b.min(chars.len());
    chars[a..b].iter().collect()
}

fn parse_u32(s: &str, line: usize, field: &'static str) -> Result<u32, TrfError> {
    let t = s.trim();
    if t.is_empty() {
        return Ok(0);
    }
    t.parse().map_err(|_| TrfError::Field {
        line,
        field,
        message: format!("`{t}` is not a whole number"),
    })
}

fn parse_player(text: &str, line: usize) -> Result<TrfPlayer, TrfError> {
    let chars: Vec<char> = text.chars().collect();
    let id = parse_u32(&slice(&chars, COL_ID), line, "pairing number")?;
    if id == 0 {
        return Err(TrfError::Field {
            line,
            field: "pairing number",
            message: "missing or zero".into(),
        });
    }
    let pts_text = slice(&chars, COL_POINTS);
    let points = if pts_text.trim().is_empty() {
        Fixed::ZERO
    } else {
        Fixed::parse_decimal(&pts_text).map_err(|e| TrfError::Field {
            line,
            field: "points",
            message: format!("`{}` {e}", pts_text.trim()),
        })?
    };
    let mut rounds = Vec::new();
    let mut start = COL_ROUND1;
    while start <= chars.len() {
        let block = slice(&chars, (start, start + 7));
        if block.trim().is_empty() {
            break;
        }
        let round_no = rounds.len() + 1;
        let bchars: Vec<char> = block.chars().collect();
        let opp_text: String = bchars.iter().take(4).collect();
        let opp = parse_u32(&opp_text, line, "round opponent")?;
        let colour_c = bchars.get(5).copied().unwrap_or(' ');
        let colour = match colour_c {
            'w' | 'W' => Some(Colour::White),
            'b' | 'B' => Some(Colour::Black),
            '-' | ' ' => None,
            c => {
                return Err(TrfError::Field {
                    line,
                    field: "round colour",
                    message: format!("round {round_no}: `{c}` is not w, b or -"),
                });
            }
        };
        let res_c = bchars.get(7).copied().unwrap_or(' ');
        let result = ResultCode::from_char(res_c).ok_or_else(|| TrfError::Field {
            line,
            field: "round result",
            message: format!("round {round_no}: `{res_c}` is not a TRF result code"),
        })?;
        rounds.push(RoundEntry {
            opponent: (opp != 0).then_some(opp),
            colour,
            result,
        });
        start += 10;
    }
    Ok(TrfPlayer {
        id,
        sex: slice(&chars, COL_SEX).trim().to_string(),
        title: slice(&chars, COL_TITLE).trim().to_string(),
        name: slice(&chars, COL_NAME).trim().to_string(),
        rating: parse_u32(&slice(&chars, COL_RATING), line, "rating")?,
        federation: slice(&chars, COL_FED).trim().to_string(),
        fide_id: slice(&chars, COL_FIDE).trim().to_string(),
        birth: slice(&chars, COL_BIRTH).trim().to_string(),
        points,
        rank: parse_u32(&slice(&chars, COL_RANK), line, "rank")?,
        rounds,
    })
}

/// Reads a TRF file.
pub fn parse_trf(text: &str) -> Result<Tournament, TrfError> {
    let line_ending = if text.contains("\r\n") {
        "\r\n"
    } else if text.contains('\r') {
        "\r"
    } else {
        "\n"
    };
    let final_line_ending = text.ends_with(line_ending);
    let body = text.strip_suffix(line_ending).unwrap_or(text);
    let mut t = Tournament {
        name: None,
        total_rounds: None,
        initial_colour: None,
        initial_colour_text: None,
        players: Vec::new(),
        layout: Vec::new(),
        line_ending: line_ending.to_string(),
        final_line_ending,
    };
    if text.is_empty() {
        t.final_line_ending = false;
        return Ok(t);
    }
    let mut seen = std::collections::HashSet::new();
    for (i, raw) in body.split(line_ending).enumerate() {
        let line_no = i + 1;
        let code = raw.get(..3).unwrap_or("");
        let rest = raw.get(4..).unwrap_or("");
        match code {
            "012" if t.name.is_none() && raw.get(3..4) == Some(" ") => {
                t.name = Some(rest.to_string());
                t.layout.push(Line::Name);
            }
            "XXR" if t.total_rounds.is_none() && raw.get(3..4) == Some(" ") => {
                let n: u32 = rest.trim().parse().map_err(|_| TrfError::Field {
                    line: line_no,
                    field: "XXR",
                    message: format!("`{}` is not a number of rounds", rest.trim()),
                })?;
                t.total_rounds = Some(n);
                // A non-canonical spelling (e.g. padded) is kept verbatim.
                t.layout.push(if rest == n.to_string() {
                    Line::TotalRounds
                } else {
                    Line::Raw(raw.to_string())
                });
            }
            "XXC" if t.initial_colour_text.is_none() && raw.get(3..4) == Some(" ") => {
                let first = rest.split_whitespace().next().unwrap_or("");
                t.initial_colour = match first {
                    "white1" => Some(Colour::White),
                    "black1" => Some(Colour::Black),
                    _ => None,
                };
                t.initial_colour_text = Some(rest.to_string());
                t.layout.push(Line::InitialColour);
            }
            "001" => {
                if t.players.len() == MAX_PLAYERS {
                    return Err(TrfError::TooManyPlayers { line: line_no });
                }
                let p = parse_player(raw, line_no)?;
                if !seen.insert(p.id) {
                    return Err(TrfError::DuplicateId {
                        line: line_no,
                        id: p.id,
                    });
                }
                t.layout.push(Line::Player(t.players.len()));
                t.players.push(p);
            }
            _ => t.layout.push(Line::Raw(raw.to_string())),
        }
    }
    if let Some(total) = t.total_rounds {
        for (k, p) in t.players.iter().enumerate() {
            if p.rounds.len() > total as usize {
                let line = player_line(&t.layout, k);
                return Err(TrfError::RoundsBeyondTotal {
                    line,
                    id: p.id,
                    rounds: p.rounds.len(),
                    total,
                });
            }
        }
    }
    accelerations(&t)?;
    forbidden_pairs(&t)?;
    point_system(&t)?;
    Ok(t)
}

/// The 1-based line number of the player with index `k` (as the reader laid the file out).
fn player_line(layout: &[Line], k: usize) -> usize {
    layout
        .iter()
        .position(|l| *l == Line::Player(k))
        .map_or(0, |i| i + 1)
}

/// A text written into a line: a line break or other control character (or a line or
/// paragraph separator) becomes a space, so no text can end its line and start another
/// (docs/decisions/0255-csv-and-trf-output.md).
fn in_line(c: char) -> char {
    if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
        ' '
    } else {
        c
    }
}

fn put(buf: &mut Vec<char>, (a, b): (usize, usize), s: &str, right: bool) {
    let width = b - a + 1;
    let s: Vec<char> = s.chars().map(in_line).collect();
    let s = &s[..s.len().min(width)];
    let start = if right {
        a - 1 + width - s.len()
    } else {
        a - 1
    };
    if buf.len() < start + s.len() {
        buf.resize(start + s.len(), ' ');
    }
    buf[start..start + s.len()].copy_from_slice(s);
}

fn format_points(p: Fixed) -> String {
    let u = p.units();
    let sign = if u < 0 { "-" } else { "" };
    let a = u.unsigned_abs();
    let int = a / 10_000;
    let mut frac = format!("{:04}", a % 10_000);
    while frac.len() > 1 && frac.ends_with('0') {
        frac.pop();
    }
    format!("{sign}{int}.{frac}")
}

/// Formats one `001` player line.
pub fn format_player(p: &TrfPlayer) -> String {
    let mut buf: Vec<char> = "001".chars().collect();
    put(&mut buf, COL_ID, &p.id.to_string(), true);
    put(&mut buf, COL_SEX, &p.sex, false);
    put(&mut buf, COL_TITLE, &p.title, true);
    put(&mut buf, COL_NAME, &p.name, false);
    if p.rating > 0 {
        put(&mut buf, COL_RATING, &p.rating.to_string(), true);
    }
    put(&mut buf, COL_FED, &p.federation, false);
    put(&mut buf, COL_FIDE, &p.fide_id, true);
    put(&mut buf, COL_BIRTH, &p.birth, false);
    put(&mut buf, COL_POINTS, &format_points(p.points), true);
    if p.rank > 0 {
        put(&mut buf, COL_RANK, &p.rank.to_string(), true);
    }
    for (i, r) in p.rounds.iter().enumerate() {
        let start = COL_ROUND1 + 10 * i;
        let opp = match r.opponent {
            Some(o) => format!("{o:>4}"),
            None => "0000".to_string(),
        };
        let colour = match r.colour {
            Some(Colour::White) => 'w',
            Some(Colour::Black) => 'b',
            None => '-',
        };
        let block = format!("{opp} {colour} {}", r.result.to_char());
        put(&mut buf, (start, start + 7), &block, false);
    }
    let s: String = buf.into_iter().collect();
    s.trim_end().to_string()
}

/// Writes a TRF file (the exact inverse of [`parse_trf`] for the layouts it reads).
pub fn write_trf(t: &Tournament) -> String {
    let default_layout;
    let layout = if t.layout.is_empty() {
        let mut l = Vec::new();
        if t.name.is_some() {
            l.push(Line::Name);
        }
        if t.total_rounds.is_some() {
            l.push(Line::TotalRounds);
        }
        if t.initial_colour.is_some() || t.initial_colour_text.is_some() {
            l.push(Line::InitialColour);
        }
        l.extend((0..t.players.len()).map(Line::Player));
        default_layout = l;
        &default_layout
    } else {
        &t.layout
    };
    let mut lines = Vec::with_capacity(layout.len());
    for l in layout {
        match l {
            Line::Name => {
                let name: String = t
                    .name
                    .as_deref()
                    .unwrap_or("")
                    .chars()
                    .map(in_line)
                    .collect();
                lines.push(format!("012 {name}"));
            }
            Line::TotalRounds => {
                lines.push(format!("XXR {}", t.total_rounds.unwrap_or_default()));
            }
            Line::InitialColour => {
                let text = match (&t.initial_colour_text, t.initial_colour) {
                    (Some(s), _) => s.clone(),
                    (None, Some(Colour::Black)) => "black1".into(),
                    (None, _) => "white1".into(),
                };
                lines.push(format!(
                    "XXC {}",
                    text.chars().map(in_line).collect::<String>()
                ));
            }
            Line::Player(i) => {
                if let Some(p) = t.players.get(*i) {
                    lines.push(format_player(p));
                }
            }
            Line::Raw(s) => lines.push(s.clone()),
        }
    }
    let eol = if t.line_ending.is_empty() {
        "\n"
    } else {
        t.line_ending.as_str()
    };
    let mut out = lines.join(eol);
    if t.final_line_ending && !lines.is_empty() {
        out.push_str(eol);
    }
    out
}

#[cfg(test)]
mod tests;
