//! Rating lists (docs/rules/README.md#players-and-ratings): the bulk push by KNSB number or FIDE id — atomic, idempotent,
//! rejected as a whole with row-level errors — and the KNSB rating-list CSV.

use crate::error::{ApiError, ApiResult, FieldError};
use crate::ids::PlayerId;
use crate::store::models::events::{EventKind, NewEvent, Visibility};
use crate::store::models::players;
/// A stored rating: the row is the record.
pub use crate::store::models::ratings::Rating;
use crate::store::models::ratings::{self, NewRating, RatingWrite};
use crate::store::{DbConn, now_utc};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use utoipa::ToSchema;

/// Rating sources (docs/rules/README.md#players-and-ratings).
pub use crate::vocab::RatingSource;

/// Highest accepted rating value.
pub const MAX_RATING: i32 = 3500;

/// One row of a pushed list: exactly one of `knsb_number` and `fide_id` (so two properties
/// with `value`).
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(min_properties = 2, max_properties = 2)]
pub struct RatingRow {
    /// KNSB member number (relatienummer), 1–12 digits (blanks around them are dropped).
    #[serde(default, deserialize_with = "present_string")]
    #[schema(nullable = false, pattern = r"^\s*[0-9]{1,12}\s*$")]
    pub knsb_number: Option<String>,
    /// FIDE id, 1–12 digits (blanks around them are dropped).
    #[serde(default, deserialize_with = "present_string")]
    #[schema(nullable = false, pattern = r"^\s*[0-9]{1,12}\s*$")]
    pub fide_id: Option<String>,
    /// The rating, 0–3500.
    #[schema(minimum = 0, maximum = 3500)]
    pub value: i64,
}

/// An optional string property that, when present, must be a string: an explicit `null` is
/// refused as the schema says (the row names its number by leaving the other property out).
fn present_string<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    String::deserialize(d).map(Some)
}

/// A rating list.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"source": "KNSB", "list_date": "2026-11-01",
    "ratings": [{"knsb_number": "8401234", "value": 1834}, {"fide_id": "1032345", "value": 2011}]}))]
pub struct RatingList {
    /// `KNSB`, `KNSB-rapid`, `FIDE` or `KNDB`.
    #[schema(value_type = RatingSource)]
    pub source: String,
    /// The list's date (YYYY-MM-DD, years 1900–2200).
    #[schema(value_type = crate::services::date::ApiDate)]
    pub list_date: String,
    /// The rows (at least one).
    #[schema(min_items = 1)]
    pub ratings: Vec<RatingRow>,
}

/// What a push did.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct PushReport {
    /// Ratings stored for the first time.
    pub inserted: u32,
    /// Ratings whose value changed.
    pub updated: u32,
    /// Ratings already stored with the same value.
    pub unchanged: u32,
    /// Rows naming no known player.
    pub unknown: u32,
    /// The identifiers of the unknown rows (`knsb:…` / `fide:…`).
    pub unknown_ids: Vec<String>,
}

enum Key {
    Knsb(String),
    Fide(String),
}

/// A player's rating of one source on a date: the one of the newest list on or before it
/// (404 for no such player, or no such rating).
pub fn on_date(
    c: &mut DbConn,
    player: PlayerId,
    source: RatingSource,
    date: chrono::NaiveDate,
) -> ApiResult<Rating> {
    crate::services::players::load_visible(c, player)?;
    ratings::on_date(c, player, source, date)?.ok_or_else(|| {
        ApiError::NotFound(format!("player {player} has no {source} rating on {date}"))
    })
}

/// A page of a player's rating history, newest list first, optionally of one source, and how
/// many entries it has in all, read in one transaction (404 for no such player).
pub fn history_page(
    conn: &mut DbConn,
    player: PlayerId,
    source: Option<RatingSource>,
    limit: i64,
    offset: i64,
) -> ApiResult<(Vec<ratings::Rating>, i64)> {
    crate::store::snapshot(conn, |c| {
        crate::services::players::load_visible(c, player)?;
        Ok(ratings::history_page(c, player, source, limit, offset)?)
    })
}

/// Validates the whole list first (every bad row named), then writes it in the caller's
/// transaction.
pub fn push(conn: &mut DbConn, list: &RatingList) -> ApiResult<PushReport> {
    let mut errs = Vec::new();
    let source = list.source.parse::<RatingSource>();
    if source.is_err() {
        errs.push(FieldError::new(
            "source",
            format!("must be one of {}", RatingSource::NAMES.join(", ")),
        ));
    }
    let date = crate::services::date::field("list_date", &list.list_date);
    if let Err(e) = &date {
        errs.push(e.clone());
    }
    if list.ratings.is_empty() {
        errs.push(FieldError::new("ratings", "must not be empty"));
    }
    let mut keys = Vec::with_capacity(list.ratings.len());
    let mut seen = HashSet::new();
    for (i, row) in list.ratings.iter().enumerate() {
        let key = match (row.knsb_number.as_deref(), row.fide_id.as_deref()) {
            (Some(k), None) if valid_id(k) => Some(Key::Knsb(k.trim().to_string())),
            (None, Some(f)) if valid_id(f) => Some(Key::Fide(f.trim().to_string())),
            (Some(_), None) => {
                errs.push(FieldError::new(
                    format!("ratings[{i}].knsb_number"),
                    "must be digits",
                ));
                None
            }
            (None, Some(_)) => {
                errs.push(FieldError::new(
                    format!("ratings[{i}].fide_id"),
                    "must be digits",
                ));
                None
            }
            _ => {
                errs.push(FieldError::new(
                    format!("ratings[{i}]"),
                    "must have exactly one of knsb_number and fide_id",
                ));
                None
            }
        };
        if !(0..=i64::from(MAX_RATING)).contains(&row.value) {
            errs.push(FieldError::new(
                format!("ratings[{i}].value"),
                format!("must be from 0 to {MAX_RATING}"),
            ));
        }
        if let Some(k) = &key {
            let label = label(k);
            if !seen.insert(label.clone()) {
                errs.push(FieldError::new(
                    format!("ratings[{i}]"),
                    format!("{label} appears more than once in the list"),
                ));
            }
        }
        keys.push(key);
    }
    if !errs.is_empty() {
        return Err(ApiError::validation(errs));
    }
    let date = date.map_err(|_| ApiError::invalid("list_date", "must be a date"))?;
    let source = source.map_err(|_| ApiError::invalid("source", "is not a rating source"))?;
    let knsb: Vec<String> = keys
        .iter()
        .filter_map(|k| match k {
            Some(Key::Knsb(s)) => Some(s.clone()),
            _ => None,
        })
        .collect();
    let fide: Vec<String> = keys
        .iter()
        .filter_map(|k| match k {
            Some(Key::Fide(s)) => Some(s.clone()),
            _ => None,
        })
        .collect();
    let mut by_knsb = HashMap::new();
    for chunk in knsb.chunks(500) {
        for p in players::by_knsb_numbers(conn, chunk)? {
            if let Some(n) = p.knsb_number.clone() {
                by_knsb.insert(n, p.id);
            }
        }
    }
    let mut by_fide = HashMap::new();
    for chunk in fide.chunks(500) {
        for p in players::by_fide_ids(conn, chunk)? {
            if let Some(n) = p.fide_id.clone() {
                by_fide.insert(n, p.id);
            }
        }
    }
    let now = now_utc();
    let mut report = PushReport::default();
    for (row, key) in list.ratings.iter().zip(keys) {
        let Some(key) = key else { continue };
        let player = match &key {
            Key::Knsb(k) => by_knsb.get(k),
            Key::Fide(f) => by_fide.get(f),
        };
        let Some(&player_id) = player else {
            report.unknown += 1;
            report.unknown_ids.push(label(&key));
            continue;
        };
        let new = NewRating {
            player_id,
            source,
            value: row.value as i32,
            list_date: date,
            created_at: now,
            updated_at: now,
        };
        match put_retrying(conn, &new)? {
            RatingWrite::Inserted => report.inserted += 1,
            RatingWrite::Updated => report.updated += 1,
            RatingWrite::Unchanged => {
                report.unchanged += 1;
                continue;
            }
        }
        crate::store::stamps::record(
            conn,
            NewEvent::new(EventKind::RatingChanged, Visibility::Public).payload(
                serde_json::json!({
                    "player": player_id, "source": list.source, "value": row.value,
                    "list_date": date,
                }),
            ),
        )?;
    }
    Ok(report)
}

/// Writes one rating inside a savepoint; when a concurrent push inserted the same row first
/// (unique violation), reads again — so identical concurrent pushes both succeed.
fn put_retrying(conn: &mut DbConn, new: &NewRating) -> ApiResult<RatingWrite> {
    use diesel::Connection;
    use diesel::result::{DatabaseErrorKind, Error};
    for _ in 0..3 {
        match conn.transaction(|c| ratings::put(c, new)) {
            Err(Error::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => continue,
            other => return Ok(other?),
        }
    }
    Err(ApiError::Conflict(
        "the rating list is being written concurrently; try again".into(),
    ))
}

fn label(k: &Key) -> String {
    match k {
        Key::Knsb(s) => format!("knsb:{s}"),
        Key::Fide(s) => format!("fide:{s}"),
    }
}

fn valid_id(s: &str) -> bool {
    let t = s.trim();
    !t.is_empty() && t.len() <= 12 && t.chars().all(|c| c.is_ascii_digit())
}

/// Header of the KNSB rating-list CSV.
pub const KNSB_HEADER: [&str; 8] = [
    "Relatienummer",
    "Naam",
    "Titel",
    "FED",
    "Rating",
    "Nv",
    "Geboren",
    "S",
];

/// Parses a KNSB rating-list CSV (semicolon separated, Windows-1252; UTF-8 accepted too) into
/// rating rows by KNSB number. Rows without a rating are skipped; any malformed row rejects
/// the whole file with its line number.
pub fn parse_knsb_csv(bytes: &[u8]) -> ApiResult<Vec<RatingRow>> {
    let text = match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => encoding_rs::WINDOWS_1252.decode(bytes).0.into_owned(),
    };
    let text = text.trim_start_matches('\u{feff}');
    if let Some(i) = text.lines().position(|l| l.contains('\0')) {
        return Err(crate::services::input::nul_refused(&format!(
            "line {}",
            i + 1
        )));
    }
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((_, header)) = lines.next() else {
        return Err(ApiError::invalid("file", "is empty"));
    };
    let cols: Vec<&str> = header
        .split(';')
        .map(|c| c.trim().trim_matches('"'))
        .collect();
    if cols.len() < KNSB_HEADER.len() || cols[..KNSB_HEADER.len()] != KNSB_HEADER {
        return Err(ApiError::invalid(
            "line 1",
            format!("header must be {}", KNSB_HEADER.join(";")),
        ));
    }
    let mut rows = Vec::new();
    let mut errs = Vec::new();
    for (i, line) in lines {
        let f: Vec<&str> = line
            .split(';')
            .map(|c| c.trim().trim_matches('"'))
            .collect();
        let lineno = i + 1;
        if f.len() < KNSB_HEADER.len() {
            errs.push(FieldError::new(
                format!("line {lineno}"),
                format!("has {} fields, expected {}", f.len(), KNSB_HEADER.len()),
            ));
            continue;
        }
        if !valid_id(f[0]) {
            errs.push(FieldError::new(
                format!("line {lineno}"),
                "Relatienummer must be digits",
            ));
            continue;
        }
        if let Some(why) = f[1..4].iter().find_map(|t| crate::text::one_line(t).err()) {
            // the texts of a row are one-line texts (docs/decisions/0254-one-line-texts.md)
            errs.push(FieldError::new(format!("line {lineno}"), why));
            continue;
        }
        if f[4].is_empty() {
            continue;
        }
        match f[4].parse::<i64>() {
            Ok(v) if (0..=i64::from(MAX_RATING)).contains(&v) => rows.push(RatingRow {
                knsb_number: Some(f[0].to_string()),
                fide_id: None,
                value: v,
            }),
            _ => errs.push(FieldError::new(
                format!("line {lineno}"),
                format!("Rating {:?} is not a number from 0 to {MAX_RATING}", f[4]),
            )),
        }
        if errs.len() > 100 {
            break;
        }
    }
    if !errs.is_empty() {
        return Err(ApiError::validation(errs));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Any bytes at all: rows or an error, never a panic.
        #[test]
        fn knsb_csv_never_panics(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..800)) {
            let _ = parse_knsb_csv(&bytes);
        }

        /// A header and lines of arbitrary fields.
        #[test]
        fn knsb_csv_rows_never_panic(rows in proptest::collection::vec("[^\n]{0,60}", 0..8)) {
            let text = format!("{}\n{}", KNSB_HEADER.join(";"), rows.join("\n"));
            let _ = parse_knsb_csv(text.as_bytes());
        }
    }

    #[test]
    fn knsb_csv_in_windows_1252() {
        // "Ĳ" is not in 1252; use "é" (0xE9) as a real list would contain.
        let mut bytes = b"Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S\r\n".to_vec();
        bytes.extend_from_slice(b"8401234;Ren\xe9 Jansen;;NED;1834;12;1990;M\r\n");
        bytes.extend_from_slice(b"8401235;Piet;;NED;;0;2001;M\r\n");
        let rows = parse_knsb_csv(&bytes).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].knsb_number.as_deref(), Some("8401234"));
        assert_eq!(rows[0].value, 1834);
    }

    #[test]
    fn knsb_csv_rejects_bad_rows_by_line() {
        let csv = "Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S\n1;A;;NED;abc;1;1990;M\n";
        match parse_knsb_csv(csv.as_bytes()) {
            Err(ApiError::Validation { errors, .. }) => assert_eq!(errors[0].field, "line 2"),
            other => panic!("expected validation error, got {other:?}"),
        }
        assert!(parse_knsb_csv(b"Naam;Rating\n").is_err());
    }
}
