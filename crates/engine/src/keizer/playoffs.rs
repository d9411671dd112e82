//! Keizer playoffs after the summer half (docs/rules/keizer.md#playoffs): groups from the summer final ranking of the
//! eligible players, and the state of a group given the results entered so far.
//!
//! A group of four plays semi-finals 1–4 and 2–3, then a final between the winners. A drawn
//! game is followed by one decider; a drawn decider is won by black. A drawn final is settled
//! the same way. A last group of three sends its first seed straight to the final (2–3 is the
//! only semi-final), a last group of two plays only the final, a single remaining player has no
//! group. Colours of every game and decider are drawn by lot from a stored seed (ChaCha8,
//! one stream per group, match and game, so a draw never depends on the order of entry).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// One playoff group: 2 to 4 players, best seed first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayoffGroup {
    /// Group number, 1 = the top group (its winner is club champion).
    pub number: u32,
    /// Player ids in summer-ranking order.
    pub seeds: Vec<String>,
}

/// The cut of the eligible players into groups.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayoffDraw {
    /// The groups, top group first.
    pub groups: Vec<PlayoffGroup>,
    /// A single remaining player, who has no group.
    pub without_group: Option<String>,
}

/// Cuts the summer final ranking of the eligible players (best first) into groups of four;
/// the last group may have 3 or 2 players; a single remaining player has no group.
pub fn playoff_groups(eligible_in_rank_order: &[String]) -> PlayoffDraw {
    let mut groups = Vec::new();
    let mut without_group = None;
    for (i, chunk) in eligible_in_rank_order.chunks(4).enumerate() {
        if chunk.len() == 1 {
            without_group = Some(chunk[0].clone());
        } else {
            groups.push(PlayoffGroup {
                number: i as u32 + 1,
                seeds: chunk.to_vec(),
            });
        }
    }
    PlayoffDraw {
        groups,
        without_group,
    }
}

/// A match of a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchId {
    /// Seed 1 against seed 4 (groups of four).
    Semi1,
    /// Seed 2 against seed 3 (groups of four and three).
    Semi2,
    /// The winners (a group of three: seed 1 against the winner of `Semi2`; of two: 1–2).
    Final,
}

impl MatchId {
    fn stream(self) -> u64 {
        match self {
            MatchId::Semi1 => 0,
            MatchId::Semi2 => 1,
            MatchId::Final => 2,
        }
    }
}

/// The outcome of one playoff game over the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayoffGameResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

/// A result entered for a group: game 1 is the game itself, game 2 the decider.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnteredResult {
    /// Which match.
    pub match_id: MatchId,
    /// 1 for the game, 2 for the decider after a draw.
    pub game: u8,
    /// The outcome.
    pub outcome: PlayoffGameResult,
}

/// One game of a match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayoffGameState {
    /// 1 for the game, 2 for the decider.
    pub game: u8,
    /// Whether this is the decider at a shorter tempo.
    pub decider: bool,
    /// White (drawn by lot).
    pub white: String,
    /// Black.
    pub black: String,
    /// The result, when entered.
    pub outcome: Option<PlayoffGameResult>,
}

/// The state of one match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchState {
    /// Which match.
    pub id: MatchId,
    /// The two players, better seed first, once known.
    pub players: Option<[String; 2]>,
    /// The games scheduled so far.
    pub games: Vec<PlayoffGameState>,
    /// The winner, once decided.
    pub winner: Option<String>,
}

/// The state of a group: matches, the games to play next, and the group winner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupState {
    /// Group number.
    pub group: u32,
    /// The matches, semi-finals first.
    pub matches: Vec<MatchState>,
    /// Games scheduled and not yet played: (match, game).
    pub next: Vec<(MatchId, u8)>,
    /// The group winner (wins a prize; of group 1: club champion).
    pub winner: Option<String>,
}

/// Why the results of a group cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeizerPlayoffError {
    /// A group needs 2 to 4 players.
    #[error("group {group}: {size} players, a group has 2 to 4")]
    GroupSize {
        /// Group number.
        group: u32,
        /// Players given.
        size: usize,
    },
    /// A result for a game that is not (yet) to be played.
    #[error("group {group}: {match_id:?} game {game} is not scheduled")]
    NotScheduled {
        /// Group number.
        group: u32,
        /// Which match.
        match_id: MatchId,
        /// Which game.
        game: u8,
    },
    /// Two results for the same game.
    #[error("group {group}: {match_id:?} game {game} has two results")]
    Duplicate {
        /// Group number.
        group: u32,
        /// Which match.
        match_id: MatchId,
        /// Which game.
        game: u8,
    },
}

/// Colours by lot: whether the better seed of the match gets white in this game. Each
/// (group, match, game) reads its own ChaCha8 stream of `seed`.
pub fn better_seed_has_white(seed: u64, group: u32, match_id: MatchId, game: u8) -> bool {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(u64::from(group) * 16 + match_id.stream() * 4 + u64::from(game));
    rng.random::<bool>()
}

/// The state of `group` given the results entered so far (in any order) and the stored
/// colour seed.
pub fn group_state(
    group: &PlayoffGroup,
    seed: u64,
    results: &[EnteredResult],
) -> Result<GroupState, KeizerPlayoffError> {
    let g = group.number;
    let s = &group.seeds;
    let mut used = vec![false; results.len()];
    let mut find =
        |m: MatchId, game: u8| -> Result<Option<PlayoffGameResult>, KeizerPlayoffError> {
            let mut found = None;
            for (i, r) in results.iter().enumerate() {
                if r.match_id == m && r.game == game {
                    if found.is_some() {
                        return Err(KeizerPlayoffError::Duplicate {
                            group: g,
                            match_id: m,
                            game,
                        });
                    }
                    used[i] = true;
                    found = Some(r.outcome);
                }
            }
            Ok(found)
        };
    let mut matches = Vec::new();
    let mut next = Vec::new();
    let mut play =
        |m: MatchId, players: Option<[String; 2]>| -> Result<MatchState, KeizerPlayoffError> {
            let mut state = MatchState {
                id: m,
                players: players.clone(),
                games: Vec::new(),
                winner: None,
            };
            let Some([a, b]) = players else {
                return Ok(state);
            };
            for game in 1..=2u8 {
                let (white, black) = if better_seed_has_white(seed, g, m, game) {
                    (a.clone(), b.clone())
                } else {
                    (b.clone(), a.clone())
                };
                let outcome = find(m, game)?;
                state.games.push(PlayoffGameState {
                    game,
                    decider: game == 2,
                    white: white.clone(),
                    black: black.clone(),
                    outcome,
                });
                match outcome {
                    None => {
                        next.push((m, game));
                        break;
                    }
                    Some(PlayoffGameResult::WhiteWins) => state.winner = Some(white),
                    Some(PlayoffGameResult::BlackWins) => state.winner = Some(black),
                    // docs/rules/keizer.md#playoffs: a drawn decider is won by black.
                    Some(PlayoffGameResult::Draw) if game == 2 => state.winner = Some(black),
                    Some(PlayoffGameResult::Draw) => continue,
                }
                break;
            }
            Ok(state)
        };
    let pair = |x: &String, y: &String| Some([x.clone(), y.clone()]);
    let final_players = match s.len() {
        4 => {
            let s1 = play(MatchId::Semi1, pair(&s[0], &s[3]))?;
            let s2 = play(MatchId::Semi2, pair(&s[1], &s[2]))?;
            // better seed first in the final
            let seed_of = |x: &String| s.iter().position(|y| y == x);
            let fp = s1.winner.clone().zip(s2.winner.clone()).map(|(x, y)| {
                if seed_of(&x) <= seed_of(&y) {
                    [x, y]
                } else {
                    [y, x]
                }
            });
            matches.push(s1);
            matches.push(s2);
            fp
        }
        3 => {
            let s2 = play(MatchId::Semi2, pair(&s[1], &s[2]))?;
            let fp = s2.winner.clone().map(|y| [s[0].clone(), y]);
            matches.push(s2);
            fp
        }
        2 => pair(&s[0], &s[1]),
        size => return Err(KeizerPlayoffError::GroupSize { group: g, size }),
    };
    let fin = play(MatchId::Final, final_players)?;
    let winner = fin.winner.clone();
    matches.push(fin);
    if let Some(i) = used.iter().position(|u| !u) {
        return Err(KeizerPlayoffError::NotScheduled {
            group: g,
            match_id: results[i].match_id,
            game: results[i].game,
        });
    }
    Ok(GroupState {
        group: g,
        matches,
        next,
        winner,
    })
}

#[cfg(test)]
mod tests;
