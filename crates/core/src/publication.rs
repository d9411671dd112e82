//! How a player's name reaches a reader ([decision 0326](../../../docs/decisions/0326-player-publication.md)).
//!
//! Every player row the store reads passes through [`shown`], which gives the name the
//! current reader may see: officers and the club's own work (mails, workers, the command line)
//! see every name in full; anonymous readers and members see a player whose publication is
//! `initials` by their initials and one whose publication is `hidden` by a neutral label,
//! except a member's own player. The reader is set per request around its database work
//! ([`with_audience`]), so a new read cannot forget it.

use crate::ids::PlayerId;
pub use crate::vocab::Publication;
use std::cell::Cell;

/// Who reads: what names the database work of one request may show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Audience {
    /// Officers (admins, leaders, arbiters, the rating sync) and the club's own work.
    #[default]
    Full,
    /// An anonymous reader, or an account without an officer's role and without a player.
    Public,
    /// A member linked to a player: the public view, but their own name in full.
    Member(PlayerId),
}

impl Audience {
    /// Whether this reader sees player `id` of `publication` by their full name.
    pub fn sees_full(self, id: PlayerId, publication: Publication) -> bool {
        match self {
            Audience::Full => true,
            Audience::Public => publication == Publication::Full,
            Audience::Member(own) => own == id || publication == Publication::Full,
        }
    }
}

thread_local! {
    static AUDIENCE: Cell<Audience> = const { Cell::new(Audience::Full) };
}

/// The reader of this thread's database work while it lives: made by [`Reader::set`], it
/// restores the audience before it when dropped, even when the work panics.
#[derive(Debug)]
#[must_use = "the audience holds only while the guard lives"]
pub struct Reader(Audience);

impl Reader {
    /// Makes `audience` this thread's reader until the guard is dropped.
    pub fn set(audience: Audience) -> Reader {
        Reader(AUDIENCE.with(|a| a.replace(audience)))
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        AUDIENCE.with(|a| a.set(self.0));
    }
}

/// Runs `f` (a request's database work, on one thread) for reader `audience`.
pub fn with_audience<T>(audience: Audience, f: impl FnOnce() -> T) -> T {
    let _reader = Reader::set(audience);
    f()
}

/// Runs `f` as the club's own work, which sees every name in full, whoever's request it runs
/// in: a mail goes to one member about their own game or evening, and names the players as
/// the club's officers know them, also when the request is a member's own write.
pub fn as_club<T>(f: impl FnOnce() -> T) -> T {
    with_audience(Audience::Full, f)
}

/// The reader of the database work running on this thread ([`Audience::Full`] outside a
/// request).
pub fn current() -> Audience {
    AUDIENCE.with(Cell::get)
}

/// Whether the current reader may not see player `id` at all (their page is not found).
pub fn hidden_from_reader(id: PlayerId, publication: Publication) -> bool {
    publication == Publication::Hidden && !current().sees_full(id, publication)
}

/// The name the current reader sees of player `id`, whose stored name is `name`.
pub fn shown(id: PlayerId, name: &str, publication: Publication) -> String {
    if current().sees_full(id, publication) || name == erased_label(id) {
        return name.to_string();
    }
    match publication {
        Publication::Full => name.to_string(),
        Publication::Initials => initials(name),
        Publication::Hidden => label(id),
    }
}

/// The neutral label of a hidden player: `Speler 12` (player 12, in the Dutch of the club's
/// pages), the same in every list, so a standings still reads.
pub fn label(id: PlayerId) -> String {
    format!("Speler {id}")
}

/// The neutral label of an erased player: `Oud-lid 12` (former member 12).
pub fn erased_label(id: PlayerId) -> String {
    format!("Oud-lid {id}")
}

/// Whether `name` has the shape of a neutral label (`Speler 12`, `Oud-lid 12`), which no
/// player may be given as a name: the club pages tell a hidden player by it.
pub fn is_label(name: &str) -> bool {
    let rest = name
        .strip_prefix("Speler ")
        .or_else(|| name.strip_prefix("Oud-lid "));
    rest.is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether the name is a hidden player's label (`Speler 12`): shown without a link.
pub fn is_hidden_label(name: &str) -> bool {
    name.strip_prefix("Speler ")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The Dutch name particles kept as they are in initials (`Jan de Vries` → `J. de V.`).
const PARTICLES: &[&str] = &[
    "van", "de", "der", "den", "het", "'t", "te", "ten", "ter", "in", "op", "'s", "d'", "la", "le",
    "du", "da", "di", "von", "zu", "vd",
];

/// The initials of a name: the first letter of each word, upper-case, with a full stop
/// (each part of a hyphenated word: `Jan-Willem` → `J.-W.`); a lower-case Dutch particle after
/// the first word is kept as written (`Anna van der Berg` → `A. van der B.`).
pub fn initials(name: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    for (i, word) in name.split_whitespace().enumerate() {
        if i > 0 && PARTICLES.contains(&word) {
            out.push(word.to_string());
            continue;
        }
        let parts: Vec<String> = word
            .split('-')
            .filter_map(|part| part.chars().find(|c| c.is_alphanumeric()))
            .map(|c| format!("{}.", c.to_uppercase()))
            .collect();
        if !parts.is_empty() {
            out.push(parts.join("-"));
        }
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: i64) -> PlayerId {
        PlayerId(n)
    }

    #[test]
    fn initials_keep_the_dutch_particles_in_lower_case() {
        assert_eq!(initials("Jan de Vries"), "J. de V.");
        assert_eq!(initials("Anna Maria van der Berg"), "A. M. van der B.");
        assert_eq!(initials("Jan-Willem ter Horst"), "J.-W. ter H.");
        assert_eq!(initials("Éva 't Hart"), "É. 't H.");
        assert_eq!(initials("de Groot"), "D. G.");
        assert_eq!(initials("  Piet   Paulusma "), "P. P.");
    }

    #[test]
    fn a_reader_sees_what_the_publication_allows() {
        let name = "Jan de Vries";
        assert_eq!(shown(id(3), name, Publication::Initials), name);
        with_audience(Audience::Public, || {
            assert_eq!(shown(id(3), name, Publication::Full), name);
            assert_eq!(shown(id(3), name, Publication::Initials), "J. de V.");
            assert_eq!(shown(id(3), name, Publication::Hidden), "Speler 3");
            assert!(hidden_from_reader(id(3), Publication::Hidden));
            assert!(!hidden_from_reader(id(3), Publication::Initials));
            assert_eq!(shown(id(4), "Oud-lid 4", Publication::Hidden), "Oud-lid 4");
        });
        with_audience(Audience::Member(id(3)), || {
            assert_eq!(shown(id(3), name, Publication::Hidden), name);
            assert_eq!(shown(id(5), "Kees Bos", Publication::Hidden), "Speler 5");
        });
        assert_eq!(current(), Audience::Full);
    }

    #[test]
    fn labels_are_told_from_names() {
        assert!(is_label("Speler 12"));
        assert!(is_label("Oud-lid 3"));
        assert!(!is_label("Speler"));
        assert!(!is_label("Speler 1a"));
        assert!(is_hidden_label("Speler 12"));
        assert!(!is_hidden_label("Oud-lid 12"));
    }
}
