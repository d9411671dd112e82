//! The cross table: what each player scored against each other player, in the discipline's
//! notation. With several games between two players (double round robin) the results are
//! listed in round order, separated by a space (e.g. `"2 1+"`); unplayed games are left out,
//! and the diagonal is empty.

use super::model::Model;

/// `table[i][j]`: what player i scored against player j (pairing-number order).
pub(crate) fn cross_table(m: &Model) -> Vec<Vec<String>> {
    let n = m.len();
    let mut cells: Vec<Vec<Vec<(u32, &'static str)>>> = vec![vec![Vec::new(); n]; n];
    for g in &m.games {
        let (ow, ob) = g.result.outcomes();
        cells[g.white][g.black].push((g.round, ow.notation(m.discipline)));
        cells[g.black][g.white].push((g.round, ob.notation(m.discipline)));
    }
    cells
        .into_iter()
        .map(|row| {
            row.into_iter()
                .map(|mut c| {
                    c.sort_by_key(|&(round, _)| round);
                    c.iter().map(|&(_, s)| s).collect::<Vec<_>>().join(" ")
                })
                .collect()
        })
        .collect()
}
