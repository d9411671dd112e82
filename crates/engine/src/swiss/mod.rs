//! Swiss pairing (docs/rules/rapid-blitz.md#the-dutch-system): the TRF reader/writer and the FIDE Dutch system (C.04.3, the 2025
//! rules), computed as a maximum-weight matching like the FIDE-endorsed engines.

pub mod baku;
pub mod dutch;
pub mod generate;
pub mod matching;
pub mod simulate;
pub mod trf;
pub mod wide;

#[cfg(test)]
pub(crate) mod test_vectors {
    //! Locating the reference vectors shipped in `tests/data/dutch` (see its README).
    use std::path::PathBuf;

    /// The `dutch/` vector directory; panics (never skips silently) when it is missing.
    pub fn dutch_dir() -> PathBuf {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/dutch");
        assert!(
            dir.is_dir(),
            "reference vectors not found at {}: the repository is incomplete",
            dir.display()
        );
        dir
    }

    /// Every `(trf path, pairs path)` of every tournament, sorted.
    pub fn all_rounds() -> Vec<(PathBuf, PathBuf)> {
        let mut out = Vec::new();
        let mut dirs: Vec<_> = std::fs::read_dir(dutch_dir())
            .expect("read vectors dir")
            .map(|e| e.expect("dir entry").path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        for d in dirs {
            let mut files: Vec<_> = std::fs::read_dir(&d)
                .expect("read tournament dir")
                .map(|e| e.expect("dir entry").path())
                .filter(|p| p.extension().is_some_and(|e| e == "trf"))
                .collect();
            files.sort();
            for f in files {
                let pairs = f.with_extension("pairs");
                out.push((f, pairs));
            }
        }
        out
    }
}
