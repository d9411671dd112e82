//! The random tournament generator of the FIDE endorsement kit (C.04.A;
//! docs/rules/rapid-blitz.md#the-random-tournament-generator): a field with random ratings
//! plays every round of a tournament paired by a Swiss system, with random results, forfeits,
//! half-point byes and withdrawals, from a seed. The configuration uses the keys of
//! bbpPairings' generator (`PlayersNumber=…` lines); a key left out is drawn from the seed
//! in the same range as there.

use super::dutch::{PairError, PairFn, SwissBoard};
use super::trf::{Colour, Line, PointSystem, ResultCode, RoundEntry, Tournament, TrfPlayer};
use crate::fixed::Fixed;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The most players the generator makes.
pub const MAX_GENERATED_PLAYERS: u32 = 1_000;
/// The most rounds the generator plays.
pub const MAX_GENERATED_ROUNDS: u32 = 99;
/// The most characters a configuration may hold.
pub const MAX_CONFIG_CHARS: usize = 10_000;

/// The settings of one generated tournament; `None` is drawn from the seed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GeneratorConfig {
    /// `PlayersNumber` (2 to [`MAX_GENERATED_PLAYERS`]; drawn from 15–215).
    pub players: Option<u32>,
    /// `RoundsNumber` (1 to [`MAX_GENERATED_ROUNDS`]; drawn from 5–15).
    pub rounds: Option<u32>,
    /// `DrawPercentage`: the share of played games drawn (0–100; drawn from 10–50).
    pub draw_percentage: Option<u32>,
    /// `ForfeitRate`: one game in this many is forfeited (at least 1; drawn from 6–30).
    pub forfeit_rate: Option<Fixed>,
    /// `RetiredRate`: one player in this many withdraws (at least 2; drawn from 15–3225).
    pub retired_rate: Option<Fixed>,
    /// `HalfPointByeRate`: one player in this many takes a half-point bye (at least 1; drawn
    /// from 15–3225).
    pub half_point_bye_rate: Option<Fixed>,
    /// `HighestRating` (drawn from 2400–2800).
    pub highest_rating: Option<u32>,
    /// `LowestRating` (drawn from 1400–2300).
    pub lowest_rating: Option<u32>,
    /// `HasRating`: whether the players have ratings (default yes).
    pub has_rating: Option<bool>,
    /// `PointsForWin`, `PointsForDraw`, `PointsForLoss`, `PointsForZPB`,
    /// `PointsForForfeitLoss` (also the zero-point bye), `PointsForPAB` (default: a win).
    pub points: PointSystem,
}

/// Why a configuration was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A line of the configuration.
    #[error("line {line}: {key}: {message}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// The key (or the line's text when it has no `=`).
        key: String,
        /// What is wrong.
        message: String,
    },
    /// The configuration is longer than [`MAX_CONFIG_CHARS`].
    #[error("the configuration holds more than {MAX_CONFIG_CHARS} characters")]
    TooLong,
    /// The lowest rating is above the highest.
    #[error("LowestRating {low} is above HighestRating {high}")]
    Ratings {
        /// The lowest rating.
        low: u32,
        /// The highest rating.
        high: u32,
    },
}

fn whole(v: &str, line: usize, key: &str, lo: u32, hi: u32) -> Result<u32, ConfigError> {
    let err = || ConfigError::Line {
        line,
        key: key.to_string(),
        message: format!("`{v}` is not a whole number from {lo} to {hi}"),
    };
    let n: u32 = v.parse().map_err(|_| err())?;
    if n < lo || n > hi {
        return Err(err());
    }
    Ok(n)
}

fn decimal(v: &str, line: usize, key: &str, lo: Fixed, hi: Fixed) -> Result<Fixed, ConfigError> {
    let err = || ConfigError::Line {
        line,
        key: key.to_string(),
        message: format!(
            "`{v}` is not a number from {} to {}",
            lo.0 / 10_000,
            hi.0 / 10_000
        ),
    };
    let x = Fixed::parse_decimal(v).map_err(|_| err())?;
    if x < lo || x > hi {
        return Err(err());
    }
    Ok(x)
}

fn points(v: &str, line: usize, key: &str) -> Result<Fixed, ConfigError> {
    let x = decimal(v, line, key, Fixed::ZERO, Fixed(999_000))?;
    if x.0 % 1_000 != 0 {
        return Err(ConfigError::Line {
            line,
            key: key.to_string(),
            message: format!("`{v}` is not a number of points in tenths"),
        });
    }
    Ok(x)
}

/// Reads a configuration: `Key=value` lines, `#` comments and blank lines; an unknown key or
/// a value out of its range is refused with its line number.
pub fn parse_config(text: &str) -> Result<GeneratorConfig, ConfigError> {
    if text.chars().count() > MAX_CONFIG_CHARS {
        return Err(ConfigError::TooLong);
    }
    let mut c = GeneratorConfig::default();
    let mut pab_set = false;
    let rate_max = Fixed::from_int(1_000_000);
    for (i, raw) in text.split(['\n', '\r']).enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let Some((key, value)) = l.split_once('=') else {
            return Err(ConfigError::Line {
                line,
                key: l.chars().take(40).collect(),
                message: "is not a `Key=value` line".into(),
            });
        };
        let (key, v) = (key.trim(), value.trim());
        match key {
            "PlayersNumber" => c.players = Some(whole(v, line, key, 2, MAX_GENERATED_PLAYERS)?),
            "RoundsNumber" => c.rounds = Some(whole(v, line, key, 1, MAX_GENERATED_ROUNDS)?),
            "DrawPercentage" => c.draw_percentage = Some(whole(v, line, key, 0, 100)?),
            "ForfeitRate" => c.forfeit_rate = Some(decimal(v, line, key, Fixed::ONE, rate_max)?),
            "RetiredRate" => {
                c.retired_rate = Some(decimal(v, line, key, Fixed::from_int(2), rate_max)?)
            }
            "HalfPointByeRate" | "HalfPointByteRate" => {
                c.half_point_bye_rate = Some(decimal(v, line, key, Fixed::ONE, rate_max)?)
            }
            "HighestRating" => c.highest_rating = Some(whole(v, line, key, 0, 9_999)?),
            "LowestRating" => c.lowest_rating = Some(whole(v, line, key, 0, 9_999)?),
            "HasRating" => {
                c.has_rating = Some(match v {
                    "true" | "1" | "yes" => true,
                    "false" | "0" | "no" => false,
                    _ => {
                        return Err(ConfigError::Line {
                            line,
                            key: key.into(),
                            message: format!("`{v}` is not true or false"),
                        });
                    }
                })
            }
            "PointsForWin" => c.points.win = points(v, line, key)?,
            "PointsForDraw" => c.points.draw = points(v, line, key)?,
            "PointsForLoss" => c.points.loss = points(v, line, key)?,
            "PointsForZPB" => c.points.zero_bye = points(v, line, key)?,
            "PointsForForfeitLoss" => {
                c.points.forfeit_loss = points(v, line, key)?;
                c.points.zero_bye = c.points.forfeit_loss;
            }
            "PointsForPAB" => {
                c.points.pab = points(v, line, key)?;
                pab_set = true;
            }
            _ => {
                return Err(ConfigError::Line {
                    line,
                    key: key.chars().take(40).collect(),
                    message: "is not a key of the generator".into(),
                });
            }
        }
    }
    if !pab_set {
        c.points.pab = c.points.win;
    }
    if let (Some(low), Some(high)) = (c.lowest_rating, c.highest_rating)
        && low > high
    {
        return Err(ConfigError::Ratings { low, high });
    }
    Ok(c)
}

/// Whether an event with probability 1 / `rate` happens.
fn one_in(rng: &mut ChaCha8Rng, rate: Fixed) -> bool {
    rng.random_range(0..rate.0.max(1)) < Fixed::ONE.0
}

/// How many of `n` happen at one in `rate`, rounded down.
fn share(n: u32, rate: Fixed) -> u32 {
    ((i64::from(n) * Fixed::ONE.0) / rate.0.max(1)).min(i64::from(n)) as u32
}

/// The point-system lines of a file for `ps` (none for the standard scoring).
fn point_lines(ps: &PointSystem) -> Vec<Line> {
    let std = PointSystem::STANDARD;
    let mut out = Vec::new();
    let w = |code: &str, v: Fixed| {
        let text = format!("{}.{}", v.0 / 10_000, v.0 % 10_000 / 1_000);
        Line::Raw(format!("{code} {text:>4}"))
    };
    if *ps == std {
        return out;
    }
    out.push(w("BBW", ps.win));
    out.push(w("BBD", ps.draw));
    out.push(w("BBL", ps.loss));
    out.push(w("BBZ", ps.zero_bye));
    out.push(w("BBF", ps.forfeit_loss));
    out.push(w("BBU", ps.pab));
    out
}

/// Plays a random tournament from `config` and `seed`, every round paired by `pair`.
pub fn generate_tournament(
    config: &GeneratorConfig,
    seed: u64,
    pair: &PairFn,
) -> Result<Tournament, PairError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let rounds = config.rounds.unwrap_or_else(|| rng.random_range(5..=15));
    let forfeit = config
        .forfeit_rate
        .unwrap_or_else(|| Fixed::from_int(rng.random_range(6..=30)));
    let retired = config
        .retired_rate
        .unwrap_or_else(|| Fixed::from_int(rng.random_range(15..=3225)));
    let hpb = config
        .half_point_bye_rate
        .unwrap_or_else(|| Fixed::from_int(rng.random_range(15..=3225)));
    let draws = config
        .draw_percentage
        .unwrap_or_else(|| rng.random_range(10..=50));
    let n = config.players.unwrap_or_else(|| rng.random_range(15..=215));
    let high = config
        .highest_rating
        .unwrap_or_else(|| rng.random_range(2400..=2800));
    let low = config
        .lowest_rating
        .unwrap_or_else(|| rng.random_range(1400..=2300))
        .min(high);
    let rated = config.has_rating.unwrap_or(true);
    let mut ratings: Vec<u32> = (0..n).map(|_| rng.random_range(low..=high)).collect();
    ratings.sort_unstable_by(|a, b| b.cmp(a));
    let white1 = rng.random_bool(0.5);
    // Withdrawals: absent from a random round on; half-point byes: one round each.
    let mut absent_from = vec![u32::MAX; n as usize];
    for _ in 0..share(n, retired) {
        let p = rng.random_range(0..n) as usize;
        absent_from[p] = rng.random_range(2..=rounds.max(2));
    }
    let mut hpb_round = vec![0u32; n as usize];
    for _ in 0..share(n, hpb) {
        let p = rng.random_range(0..n) as usize;
        hpb_round[p] = rng.random_range(1..=rounds);
    }
    let players = ratings
        .iter()
        .enumerate()
        .map(|(i, &r)| TrfPlayer {
            id: i as u32 + 1,
            sex: String::new(),
            title: String::new(),
            name: format!("Player {:04}", i + 1),
            rating: if rated { r } else { 0 },
            federation: String::new(),
            fide_id: String::new(),
            birth: String::new(),
            points: Fixed::ZERO,
            rank: 0,
            rounds: Vec::new(),
        })
        .collect();
    let mut layout = vec![Line::Name, Line::TotalRounds, Line::InitialColour];
    layout.extend(point_lines(&config.points));
    layout.extend((0..n as usize).map(Line::Player));
    let mut t = Tournament {
        name: Some(format!("Random tournament, seed {seed}")),
        total_rounds: Some(rounds),
        initial_colour: Some(if white1 { Colour::White } else { Colour::Black }),
        initial_colour_text: None,
        players,
        layout,
        line_ending: "\n".into(),
        final_line_ending: true,
    };
    for round in 1..=rounds {
        for (i, p) in t.players.iter_mut().enumerate() {
            let result = if round >= absent_from[i] {
                ResultCode::ZeroBye
            } else if round == hpb_round[i] {
                ResultCode::HalfBye
            } else {
                continue;
            };
            p.rounds.push(RoundEntry {
                opponent: None,
                colour: None,
                result,
            });
        }
        let boards = pair(&t, round)?;
        play_round(&mut t, &boards, &mut rng, forfeit, draws);
    }
    for p in &mut t.players {
        p.points = config.points.score(&p.rounds);
    }
    Ok(t)
}

/// Enters random results for the boards of one round.
fn play_round(
    t: &mut Tournament,
    boards: &[SwissBoard],
    rng: &mut ChaCha8Rng,
    forfeit: Fixed,
    draws: u32,
) {
    for b in boards {
        let Some(black) = b.black else {
            push(t, b.white, None, None, ResultCode::PairingBye);
            continue;
        };
        let rating = |id: u32| t.player(id).map_or(0, |p| i64::from(p.rating));
        let (rw, rb) = if one_in(rng, forfeit) {
            if rng.random_bool(0.5) {
                (ResultCode::ForfeitWin, ResultCode::ForfeitLoss)
            } else {
                (ResultCode::ForfeitLoss, ResultCode::ForfeitWin)
            }
        } else if rng.random_range(0..100) < draws {
            (ResultCode::Draw, ResultCode::Draw)
        } else {
            // White's chance in per mille: ½ plus 0.625 per rating point of difference.
            let p_white = (500 + (rating(b.white) - rating(black)) * 5 / 8).clamp(50, 950);
            if rng.random_range(0..1000) < p_white {
                (ResultCode::Win, ResultCode::Loss)
            } else {
                (ResultCode::Loss, ResultCode::Win)
            }
        };
        push(t, b.white, Some(black), Some(Colour::White), rw);
        push(t, black, Some(b.white), Some(Colour::Black), rb);
    }
}

fn push(
    t: &mut Tournament,
    id: u32,
    opponent: Option<u32>,
    colour: Option<Colour>,
    result: ResultCode,
) {
    if let Some(p) = t.players.iter_mut().find(|p| p.id == id) {
        p.rounds.push(RoundEntry {
            opponent,
            colour,
            result,
        });
    }
}

#[cfg(test)]
#[path = "simulate_tests.rs"]
mod tests;
