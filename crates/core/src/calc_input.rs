//! The checks a calculator's input passes before any engine runs, shared by the HTTP
//! calculators and the command line: the work limits (counted on the raw JSON or text, before
//! the engine's own reading), a TRF that is text at all, a pairing file whose rounds agree
//! (nobody paired with himself or twice), and a tie-break list without repeats.

use crate::error::{ApiError, ApiResult};
use crate::limits::{MAX_TIEBREAKS, WorkLimits, check};
use clubcomp_engine::swiss::Tournament;
use serde_json::Value;

/// The number of items of an optional array field of `v` (0 when absent or not an array: the
/// engine itself names a wrong shape).
fn len(v: &Value, key: &str) -> usize {
    v.get(key).and_then(Value::as_array).map_or(0, Vec::len)
}

/// The one-line texts of the players a calculator names (`id`, `name`) hold no control,
/// bidirectional or invisible formatting character (docs/decisions/0254-one-line-texts.md);
/// the refusal names the item.
fn player_texts(v: &Value, key: &str) -> ApiResult<()> {
    let items = v.get(key).and_then(Value::as_array).into_iter().flatten();
    for (i, p) in items.enumerate() {
        for field in ["id", "name"] {
            if let Some(t) = p.get(field).and_then(Value::as_str) {
                crate::text::one_line(t)
                    .map_err(|why| ApiError::invalid(&format!("{key}[{i}].{field}"), why))?;
            }
        }
    }
    Ok(())
}

/// A Keizer scenario: players, evenings, and per evening games and lists no longer than the
/// field (each player is named once an evening).
pub fn keizer_scenario(v: &Value, l: &WorkLimits) -> ApiResult<()> {
    let players = len(v, "players");
    check(
        "players",
        "players",
        players,
        "LIMIT_KEIZER_PLAYERS",
        l.keizer_players,
    )?;
    player_texts(v, "players")?;
    let evenings = len(v, "evenings");
    check(
        "evenings",
        "evenings",
        evenings,
        "LIMIT_KEIZER_EVENINGS",
        l.keizer_evenings,
    )?;
    if let Some(x) = v.get("excused_before").and_then(Value::as_object) {
        check(
            "excused_before",
            "players",
            x.len(),
            "LIMIT_KEIZER_PLAYERS",
            l.keizer_players,
        )?;
    }
    for (k, ev) in v
        .get("evenings")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        for key in ["games", "byes", "excused", "unexcused"] {
            let n = len(ev, key);
            if n > players {
                return Err(ApiError::invalid(
                    &format!("evenings[{k}].{key}"),
                    format!("{n} entries for {players} players"),
                ));
            }
        }
    }
    Ok(())
}

/// A round-robin scenario: players (the cross table is their square), games, and the lists
/// that name players or places no longer than the field.
pub fn round_robin_scenario(v: &Value, l: &WorkLimits) -> ApiResult<()> {
    let players = len(v, "players");
    check(
        "players",
        "players",
        players,
        "LIMIT_ROUND_ROBIN_PLAYERS",
        l.round_robin_players,
    )?;
    player_texts(v, "players")?;
    check(
        "games",
        "games",
        len(v, "games"),
        "LIMIT_ROUND_ROBIN_GAMES",
        l.round_robin_games,
    )?;
    for key in [
        "lots_order",
        "excluded_from_points",
        "prize_money",
        "rights",
        "points_tables",
        "tiebreaks",
    ] {
        check(
            key,
            "entries",
            len(v, key),
            "LIMIT_ROUND_ROBIN_PLAYERS",
            l.round_robin_players,
        )?;
    }
    for (i, t) in v
        .get("points_tables")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let n = len(t, "by_place");
        check(
            &format!("points_tables[{i}].by_place"),
            "places",
            n,
            "LIMIT_ROUND_ROBIN_PLAYERS",
            l.round_robin_players,
        )?;
    }
    Ok(())
}

/// A keizer-pairing request (every mode): the ranking or attendance list, the history, the
/// boards of a hand pairing, the changes of an attendance.
pub fn keizer_pairing(v: &Value, l: &WorkLimits) -> ApiResult<()> {
    let (p, h) = (l.keizer_players, l.keizer_history);
    check(
        "ranking",
        "players",
        len(v, "ranking"),
        "LIMIT_KEIZER_PLAYERS",
        p,
    )?;
    check(
        "players",
        "players",
        len(v, "players"),
        "LIMIT_KEIZER_PLAYERS",
        p,
    )?;
    player_texts(v, "ranking")?;
    player_texts(v, "players")?;
    check(
        "history",
        "meetings",
        len(v, "history"),
        "LIMIT_KEIZER_HISTORY",
        h,
    )?;
    check(
        "changes",
        "changes",
        len(v, "changes"),
        "LIMIT_KEIZER_HISTORY",
        h,
    )?;
    if let Some(pairing) = v.get("pairing") {
        for key in ["boards", "bye", "byes"] {
            let n = len(pairing, key);
            check(
                &format!("pairing.{key}"),
                "entries",
                n,
                "LIMIT_KEIZER_PLAYERS",
                p,
            )?;
        }
    }
    for key in ["knsb_rounds", "closed", "extra_rapid"] {
        check(key, "dates", len(v, key), "LIMIT_KEIZER_HISTORY", h)?;
    }
    Ok(())
}

/// A TRF file's bytes as text: refused when empty, not UTF-8, or holding control characters
/// other than tab, carriage return and line feed (a binary file).
pub fn trf_text<'a>(field: &str, bytes: &'a [u8]) -> ApiResult<&'a str> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        ApiError::invalid(
            field,
            format!(
                "not UTF-8 text (byte {} is not valid UTF-8)",
                e.valid_up_to() + 1
            ),
        )
    })?;
    trf_chars(field, text)?;
    Ok(text)
}

/// A TRF file's text: refused when empty or holding control characters other than tab,
/// carriage return and line feed (a binary file, NUL bytes), or a bidirectional control or
/// invisible formatting character (docs/decisions/0254-one-line-texts.md; a byte order mark
/// at the start is allowed).
pub fn trf_chars(field: &str, text: &str) -> ApiResult<()> {
    if text.trim().is_empty() {
        return Err(ApiError::invalid(field, "the TRF file is empty"));
    }
    if let Some((i, c)) = text
        .char_indices()
        .find(|(_, c)| c.is_control() && !matches!(c, '\t' | '\r' | '\n'))
    {
        return Err(ApiError::invalid(
            field,
            format!(
                "not a text file: control character U+{:04X} at byte {}",
                c as u32,
                i + 1
            ),
        ));
    }
    crate::text::multi_line(text.strip_prefix('\u{feff}').unwrap_or(text))
        .map_err(|why| ApiError::invalid(field, format!("not a TRF file: {why}")))
}

/// Counts a TRF file's players (`001` lines) and the rounds of its longest player line (one
/// entry of 10 columns each from column 92), before it is read: a file over the limits is
/// refused without being parsed.
pub fn trf_size(field: &str, text: &str, l: &WorkLimits) -> ApiResult<()> {
    let mut players = 0usize;
    let mut rounds = 0usize;
    for line in text.lines() {
        if line.starts_with("001") {
            players += 1;
            if players > l.swiss_players {
                // stop counting: the refusal says "more than"
                return Err(ApiError::invalid(
                    field,
                    format!(
                        "more than {} players (001 lines): over the limit LIMIT_SWISS_PLAYERS",
                        l.swiss_players
                    ),
                ));
            }
            let width = line.trim_end().chars().count();
            rounds = rounds.max(width.saturating_sub(91).div_ceil(10));
        }
    }
    check(
        field,
        "rounds",
        rounds,
        "LIMIT_SWISS_ROUNDS",
        l.swiss_rounds,
    )
}

/// The rounds of a pairing file agree: nobody is paired with himself, and whoever a player
/// names as opponent in a round names him back (so nobody is paired twice in a round).
pub fn trf_pairings(field: &str, t: &Tournament) -> ApiResult<()> {
    for p in &t.players {
        for (r, e) in p.rounds.iter().enumerate() {
            let Some(q) = e.opponent else { continue };
            let round = r + 1;
            if q == p.id {
                return Err(ApiError::invalid(
                    field,
                    format!("player {q} is paired with himself in round {round}"),
                ));
            }
            let Some(other) = t.player(q) else {
                return Err(ApiError::invalid(
                    field,
                    format!(
                        "player {}, round {round}: opponent {q} is not in the file",
                        p.id
                    ),
                ));
            };
            let back = other.rounds.get(r).and_then(|x| x.opponent);
            if back != Some(p.id) {
                let says = match back {
                    Some(b) => format!("player {b}"),
                    None => "no opponent".to_string(),
                };
                return Err(ApiError::invalid(
                    field,
                    format!(
                        "round {round}: player {} is paired with player {q}, but player {q}'s entry names {says} (a player paired twice, or entries that disagree)",
                        p.id
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// A tie-break list: at most [`MAX_TIEBREAKS`] acronyms, none twice (also not in another
/// spelling, e.g. `bh/m1` after `BH-M1`).
pub fn tiebreak_list(list: &[String]) -> ApiResult<Vec<clubcomp_engine::tiebreaks::Tiebreak>> {
    use clubcomp_engine::tiebreaks::parse_tiebreaks;
    if list.len() > MAX_TIEBREAKS {
        return Err(ApiError::invalid(
            "tiebreaks",
            format!(
                "{} acronyms: more than the limit of {MAX_TIEBREAKS}",
                list.len()
            ),
        ));
    }
    let mut out = Vec::with_capacity(list.len());
    for (i, s) in list.iter().enumerate() {
        let field = format!("tiebreaks[{i}]");
        if s.contains(',') {
            return Err(ApiError::invalid(&field, "one acronym per item"));
        }
        let one = parse_tiebreaks(s).map_err(|e| ApiError::invalid(&field, e.to_string()))?;
        for tb in one {
            if out.contains(&tb) {
                return Err(ApiError::invalid(
                    &field,
                    format!("{} is listed twice", s.trim()),
                ));
            }
            out.push(tb);
        }
    }
    Ok(out)
}
