//! The tie-breaks of the reference tournaments in `tests/data/tiebreaks/` (see the README
//! there) against the values FIDE's reference implementation computed for them: every value
//! and every rank.

use super::trf::{edition_for, input_from_trf};
use super::{Tiebreak, Value, compute_tiebreaks};
use crate::fixed::Fixed;
use crate::swiss::trf::parse_trf;
use std::path::PathBuf;

fn folder() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/tiebreaks")
}

/// One expected table: the tie-break list from its header, then per player the rank and the
/// values (`-0` is the reference's spelling of "no value").
struct Table {
    list: Vec<Tiebreak>,
    rows: Vec<(u32, u32, Vec<Option<Value>>)>,
}

fn read_table(text: &str, name: &str) -> Table {
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().expect("header").split('\t').collect();
    assert_eq!(head[..2], ["StartNo", "Rank"], "{name}: header");
    let list = head[2..]
        .iter()
        .map(|a| Tiebreak::parse(a).unwrap_or_else(|| panic!("{name}: acronym {a}")))
        .collect();
    let rows = lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let values = f[2..]
                .iter()
                .map(|v| {
                    (*v != "-0").then(|| {
                        Value(
                            Fixed::parse_decimal(v).unwrap_or_else(|e| panic!("{name}: {v}: {e}")),
                        )
                    })
                })
                .collect();
            (
                f[0].parse().expect("start number"),
                f[1].parse().expect("rank"),
                values,
            )
        })
        .collect();
    Table { list, rows }
}

#[test]
fn every_value_as_the_reference_computes_it() {
    let dir = folder();
    let mut trfs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    trfs.sort();
    assert!(
        trfs.len() >= 20,
        "{} tournaments in {}",
        trfs.len(),
        dir.display()
    );
    let (mut tables, mut values) = (0, 0);
    for trf in &trfs {
        let stem = trf
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("name")
            .to_string();
        let text = std::fs::read_to_string(trf).expect("trf");
        let t = parse_trf(&text).unwrap_or_else(|e| panic!("{stem}: {e}"));
        let mut expected: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("dir")
            .map(|e| e.expect("entry").path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(&format!("{stem}.")) && n.ends_with(".tsv"))
            })
            .collect();
        expected.sort();
        assert!(expected.len() >= 2, "{stem}: expected tables");
        for path in expected {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .expect("name")
                .to_string();
            let table = read_table(&std::fs::read_to_string(&path).expect("tsv"), &name);
            let mut input = input_from_trf(&t);
            input.rules = edition_for(&t);
            if name.contains("-u1400") {
                input.unrated_rating = Some(1400);
            }
            let got =
                compute_tiebreaks(&input, &table.list).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(got.rows.len(), table.rows.len(), "{name}: players");
            for (id, rank, want) in &table.rows {
                let row = got.rows.iter().find(|r| r.id == *id).expect("player");
                for (k, tb) in table.list.iter().enumerate() {
                    assert_eq!(
                        row.values[k],
                        want[k],
                        "{name}: player {id}, {}",
                        tb.acronym()
                    );
                    values += 1;
                }
                assert_eq!(row.rank, *rank, "{name}: player {id}, rank");
            }
            tables += 1;
        }
    }
    assert!(
        tables >= 50 && values >= 10_000,
        "{tables} tables, {values} values"
    );
}
