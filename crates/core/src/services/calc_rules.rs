//! The rapid and blitz calculators (docs/rules/rapid-blitz.md#the-calculators): who plays the
//! play-off for first place from a final standings list, and how many Swiss rounds a blitz
//! field plays. `POST /calc/swiss-playoff`, `POST /calc/blitz-rounds` and
//! `clubcomp calc swiss-playoff`, `clubcomp calc blitz-rounds` call these, so both answer the
//! same JSON. The rules are the engine's (`clubcomp_engine::blitz::title_candidates`,
//! `first_place_playoff`, `swiss_rounds`), the very functions the competitions use.

use crate::error::{ApiError, ApiResult};
use crate::limits::{MAX_TIEBREAKS, WorkLimits, check};
use clubcomp_engine::GuestTitle;
use clubcomp_engine::blitz::{
    FirstPlaceTie, PlayoffGame, RoundsRule, first_place_playoff, swiss_rounds, title_candidates,
};
use clubcomp_engine::tiebreaks::{RulesEdition, Standings, Tiebreak, TiebreakRow, Value};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The longest player id in a standings list.
pub const MAX_ID_CHARS: usize = 64;

/// The most points a row may have (a Swiss of at most 200 rounds scoring at most 5 a game).
const MAX_POINTS: i64 = 1000;

/// Which of the club's rules decides who plays off first place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlayoffRule {
    /// The blitz championship: everyone on the top score plays, whatever the tie-breaks say.
    Blitz,
    /// The rapid: only the players still level after the whole tie-break list.
    Rapid,
}

/// One row of a final standings list.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayoffRow {
    /// The player (1 to 64 characters, unique in the list).
    pub id: String,
    /// Points (exact to 0.0001; from 0 to 1000).
    #[schema(value_type = f64, minimum = 0, maximum = 1000)]
    pub points: Value,
    /// The tie-break values after points, in the order of the competition's list (at most 16,
    /// the same number in every row); higher is better. Only the rapid rule reads them.
    #[serde(default)]
    #[schema(value_type = Vec<f64>)]
    pub tiebreaks: Vec<Value>,
    /// A guest of the club (default false): with `guest_title` `members_only` a guest plays no
    /// play-off and takes no title.
    #[serde(default)]
    pub guest: bool,
}

/// `POST /calc/swiss-playoff`: a final standings list, best first.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"rule": "blitz", "standings": [
    {"id": "A", "points": 6, "tiebreaks": [30]}, {"id": "B", "points": 5.5, "tiebreaks": [31]},
    {"id": "C", "points": 6, "tiebreaks": [28]}]}))]
pub struct PlayoffRequest {
    /// `blitz` (level on points) or `rapid` (level after every tie-break).
    pub rule: PlayoffRule,
    /// Who may take the blitz title: `eligible` (default, the regulation's reading) or
    /// `members_only`. The rapid takes only the default.
    #[serde(default)]
    #[schema(value_type = Option<crate::services::competitions::GuestTitleSchema>)]
    pub guest_title: Option<GuestTitle>,
    /// The rows, best first: points never rise down the list, and among rows level on points
    /// the tie-break values never rise either (at most `LIMIT_SWISS_PLAYERS` rows).
    pub standings: Vec<PlayoffRow>,
}

/// Who must play off first place.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct PlayoffAnswer {
    /// The rule applied.
    pub rule: PlayoffRule,
    /// Who may take the title, as applied.
    #[schema(value_type = crate::services::competitions::GuestTitleSchema)]
    pub guest_title: GuestTitle,
    /// The candidates for the title in their order in the standings (Berger numbers 1, 2, …).
    pub candidates: Vec<String>,
    /// True when two or more candidates play off first place.
    pub playoff: bool,
    /// The champion when one candidate remains; none when there is a play-off.
    #[schema(required = true)]
    pub champion: Option<String>,
    /// The play-off games: every candidate against every other with both colours (FIDE's
    /// Berger tables, the second cycle with the colours reversed); empty without a play-off.
    pub games: Vec<CalcPlayoffGame>,
}

/// One game of the play-off for first.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct CalcPlayoffGame {
    /// Play-off round (Berger round), from 1.
    pub round: u32,
    /// White.
    pub white: String,
    /// Black.
    pub black: String,
}

impl From<PlayoffGame> for CalcPlayoffGame {
    fn from(g: PlayoffGame) -> CalcPlayoffGame {
        CalcPlayoffGame {
            round: g.round,
            white: g.white,
            black: g.black,
        }
    }
}

/// The candidates and games of the play-off for first from a final standings list
/// (docs/rules/rapid-blitz.md#the-play-off-for-first). Every bound is checked first: 422
/// naming the row and field.
pub fn swiss_playoff(req: &PlayoffRequest, limits: &WorkLimits) -> ApiResult<PlayoffAnswer> {
    check(
        "standings",
        "rows",
        req.standings.len(),
        "LIMIT_SWISS_PLAYERS",
        limits.swiss_players,
    )?;
    if req.standings.is_empty() {
        return Err(ApiError::invalid("standings", "must name at least one row"));
    }
    let guest_title = req.guest_title.unwrap_or(GuestTitle::Eligible);
    if req.rule == PlayoffRule::Rapid && guest_title != GuestTitle::Eligible {
        return Err(ApiError::invalid(
            "guest_title",
            "applies to the blitz rule only: the rapid's title is open to every player",
        ));
    }
    check_rows(&req.standings)?;
    let standings = standings_of(&req.standings);
    let tie = match req.rule {
        PlayoffRule::Blitz => FirstPlaceTie::OnPoints,
        PlayoffRule::Rapid => FirstPlaceTie::AfterTiebreaks,
    };
    let members_only = guest_title == GuestTitle::MembersOnly;
    let may_take = |id: u32| !(members_only && req.standings[id as usize - 1].guest);
    let candidates: Vec<String> = title_candidates(&standings, tie, may_take)
        .into_iter()
        .map(|n| req.standings[n as usize - 1].id.clone())
        .collect();
    let (champion, games) = match candidates.len() {
        0 => (None, Vec::new()),
        1 => (candidates.first().cloned(), Vec::new()),
        _ => (
            None,
            first_place_playoff(&candidates)
                .map_err(|e| ApiError::invalid("standings", e.to_string()))?
                .into_iter()
                .map(CalcPlayoffGame::from)
                .collect(),
        ),
    };
    Ok(PlayoffAnswer {
        rule: req.rule,
        guest_title,
        playoff: candidates.len() > 1,
        candidates,
        champion,
        games,
    })
}

/// Ids, points and tie-breaks bounded, and the list in the order of a standings list.
fn check_rows(rows: &[PlayoffRow]) -> ApiResult<()> {
    let width = rows.first().map_or(0, |r| r.tiebreaks.len());
    let mut seen = std::collections::HashSet::new();
    for (i, r) in rows.iter().enumerate() {
        let at = |f: &str| format!("standings[{i}].{f}");
        let chars = r.id.chars().count();
        if chars == 0 || chars > MAX_ID_CHARS || r.id.chars().any(char::is_control) {
            return Err(ApiError::invalid(
                &at("id"),
                format!("must be 1 to {MAX_ID_CHARS} characters without control characters"),
            ));
        }
        if !seen.insert(r.id.as_str()) {
            return Err(ApiError::invalid(&at("id"), "is named twice"));
        }
        if r.points < Value::ZERO || r.points > Value::from_int(MAX_POINTS) {
            return Err(ApiError::invalid(
                &at("points"),
                format!("must be from 0 to {MAX_POINTS}"),
            ));
        }
        if r.tiebreaks.len() > MAX_TIEBREAKS || r.tiebreaks.len() != width {
            return Err(ApiError::invalid(
                &at("tiebreaks"),
                format!(
                    "every row has the same number of tie-break values as the first ({width}), \
                     at most {MAX_TIEBREAKS}"
                ),
            ));
        }
        if let Some(prev) = i.checked_sub(1).map(|k| &rows[k]) {
            if r.points > prev.points {
                return Err(ApiError::invalid(
                    &at("points"),
                    "is above the row before: the list must be in the order of the standings",
                ));
            }
            if r.points == prev.points && r.tiebreaks > prev.tiebreaks {
                return Err(ApiError::invalid(
                    &at("tiebreaks"),
                    "are above those of the row before, on the same points: the list must be \
                     in the order of the standings",
                ));
            }
        }
    }
    Ok(())
}

/// The list as the engine's standings: ids 1, 2, … in list order, points first; rows level on
/// points and on every tie-break share the rank of the first of them.
fn standings_of(rows: &[PlayoffRow]) -> Standings {
    let mut out: Vec<TiebreakRow> = Vec::with_capacity(rows.len());
    for (i, r) in rows.iter().enumerate() {
        let level = i > 0 && rows[i - 1].points == r.points && rows[i - 1].tiebreaks == r.tiebreaks;
        let rank = match out.last() {
            Some(prev) if level => prev.rank,
            _ => i as u32 + 1,
        };
        let mut values = vec![Some(r.points)];
        values.extend(r.tiebreaks.iter().copied().map(Some));
        out.push(TiebreakRow {
            rank,
            place: rank.to_string(),
            shared: false,
            id: i as u32 + 1,
            name: r.id.clone(),
            values,
        });
    }
    Standings {
        rules: RulesEdition::Fide2024,
        rounds: 0,
        tiebreaks: vec![Tiebreak::Pts],
        rows: out,
        playoff_for_first: false,
        separations: Vec::new(),
    }
}

/// `POST /calc/blitz-rounds`: the size of the field and the rounds rule.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"participants": 9}))]
pub struct BlitzRoundsRequest {
    /// The players checked in (0 to `LIMIT_SWISS_PLAYERS`).
    pub participants: u32,
    /// Rounds beyond ⌈log2 n⌉ (0 to 10, default 2), as the `blitz` block's `extra_rounds`.
    #[schema(minimum = 0, maximum = 10)]
    pub extra_rounds: Option<u32>,
    /// The most rounds the evening holds (1 to 99, default 11), as the `blitz` block's
    /// `max_rounds`.
    #[schema(minimum = 1, maximum = 99)]
    pub max_rounds: Option<u32>,
}

/// What bounds the number of rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RoundsBound {
    /// ⌈log2 n⌉ + `extra_rounds`.
    Formula,
    /// The evening's `max_rounds`.
    MaxRounds,
    /// n − 1: nobody meets an opponent twice.
    Participants,
    /// Fewer than two players: no rounds.
    TooFew,
}

/// The number of rounds a blitz field plays.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct BlitzRoundsAnswer {
    /// The players.
    pub participants: u32,
    /// Rounds beyond ⌈log2 n⌉, as applied.
    pub extra_rounds: u32,
    /// The most rounds, as applied.
    pub max_rounds: u32,
    /// ⌈log2 n⌉ + `extra_rounds` (0 for fewer than two players).
    pub formula: u32,
    /// The number of Swiss rounds.
    pub rounds: u32,
    /// What bounds it.
    pub bound: RoundsBound,
}

/// The number of Swiss rounds of a blitz field (docs/rules/rapid-blitz.md#the-blitz-championship),
/// as closing check-in fixes it.
pub fn blitz_rounds(req: &BlitzRoundsRequest, limits: &WorkLimits) -> ApiResult<BlitzRoundsAnswer> {
    check(
        "participants",
        "players",
        req.participants as usize,
        "LIMIT_SWISS_PLAYERS",
        limits.swiss_players,
    )?;
    let extra = req.extra_rounds.unwrap_or(RoundsRule::default().extra);
    if extra > 10 {
        return Err(ApiError::invalid("extra_rounds", "must be from 0 to 10"));
    }
    let max = req.max_rounds.unwrap_or(RoundsRule::default().max);
    if !(1..=99).contains(&max) {
        return Err(ApiError::invalid("max_rounds", "must be from 1 to 99"));
    }
    let n = req.participants;
    let rounds = swiss_rounds(n, RoundsRule { extra, max });
    // ⌈log2 n⌉ (the bits needed for n − 1) + extra, before the two caps
    let formula = if n < 2 {
        0
    } else {
        u32::BITS - (n - 1).leading_zeros() + extra
    };
    let bound = if n < 2 {
        RoundsBound::TooFew
    } else if rounds == formula {
        RoundsBound::Formula
    } else if rounds == max {
        RoundsBound::MaxRounds
    } else {
        RoundsBound::Participants
    };
    Ok(BlitzRoundsAnswer {
        participants: n,
        extra_rounds: extra,
        max_rounds: max,
        formula,
        rounds,
        bound,
    })
}
