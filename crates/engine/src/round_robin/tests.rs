//! Worked examples and property tests of the round-robin engine.

mod championship;
mod errors;
mod properties;
mod withdrawal;

use super::*;
use crate::Discipline;

/// A scenario from a results grid: `rows` are `"X: Y r, Z r, …"` with r one of `W` (win),
/// `L`, `D` (draw), `+` (plusremise), `-` (minremise), `F` (forfeit win), `f` (forfeit loss),
/// from X's point of view. Rounds and colours follow the Berger table of `pairing` (the player
/// ids in pairing-number order); ids are the lowercase letters.
pub(super) fn draughts_from_grid(pairing: &[&str], rows: &str) -> Scenario {
    use std::collections::HashMap;
    let mut grid: HashMap<(String, String), char> = HashMap::new();
    for line in rows.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let (me, rest) = line.split_once(": ").unwrap();
        for cell in rest.split(", ") {
            let (opp, r) = cell.split_once(' ').unwrap();
            let r = r.chars().next().unwrap();
            grid.insert((me.to_lowercase(), opp.to_lowercase()), r);
        }
    }
    // the grid is consistent: what X got against Y is the mirror of what Y got against X
    for ((me, opp), r) in &grid {
        let mirror = match r {
            'W' => 'L',
            'L' => 'W',
            'D' => 'D',
            '+' => '-',
            '-' => '+',
            'F' => 'f',
            'f' => 'F',
            _ => panic!("bad cell {r}"),
        };
        assert_eq!(grid[&(opp.clone(), me.clone())], mirror, "{me} v {opp}");
    }
    let n = pairing.len() as u32;
    let mut games = Vec::new();
    for round in schedule(n, 1).unwrap() {
        for b in round.boards {
            let white = pairing[b.white as usize - 1].to_string();
            let black = pairing[b.black as usize - 1].to_string();
            let code = match grid[&(white.clone(), black.clone())] {
                'W' => "2-0",
                'L' => "0-2",
                'D' => "1-1",
                '+' => "1+-1-",
                '-' => "1--1+",
                'F' => "+/-",
                'f' => "-/+",
                _ => unreachable!(),
            };
            games.push(RoundRobinGame {
                round: round.round,
                white,
                black,
                result: Some(code.to_string()),
                termination: None,
                moves: None,
            });
        }
    }
    Scenario {
        discipline: Discipline::Draughts,
        players: pairing
            .iter()
            .map(|id| RoundRobinPlayer {
                id: id.to_string(),
                name: None,
            })
            .collect(),
        games,
        tiebreaks: None,
        lots_seed: None,
        lots_order: None,
        points_tables: Vec::new(),
        excluded_from_points: Vec::new(),
        prize_money: Vec::new(),
        rights: Vec::new(),
        withdrawn: Vec::new(),
        cycles: None,
    }
}

/// JSON numbers for amounts.
pub(super) fn nums(v: &[i64]) -> Vec<serde_json::Number> {
    v.iter().map(|&x| serde_json::Number::from(x)).collect()
}
