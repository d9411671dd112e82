//! The consistent reads behind the documents a request reads: the work a read hands down
//! runs in one snapshot of the database, together with the version (the cache stamps) the
//! document is valid for, so a body and its ETag always agree. The HTTP layer decides what
//! to answer (304, the cache, gzip); the work it hands down is made of service calls, named
//! here by what it is given (`Work`, `KeyedWork`, `CompetitionWork`, `DocumentWork`,
//! `VersionedWork`).

use crate::cache::CompetitionVersion;
use crate::error::ApiResult;
use crate::ids::CompetitionId;
use crate::services::competitions::{self, Competition};
use crate::store::DbConn;
use crate::store::models::competition::stamp;

/// Work a read runs on the database.
pub trait Work<T>: FnOnce(&mut DbConn) -> ApiResult<T> + Send + 'static {}
impl<T, F> Work<T> for F where F: FnOnce(&mut DbConn) -> ApiResult<T> + Send + 'static {}

/// Work a read runs on the database for a key (the id a path names).
pub trait KeyedWork<K, T>: FnOnce(&mut DbConn, K) -> ApiResult<T> + Send + 'static {}
impl<K, T, F> KeyedWork<K, T> for F where F: FnOnce(&mut DbConn, K) -> ApiResult<T> + Send + 'static {}

/// Work a read runs on the database with something found before it (in the same snapshot)
/// and the document's ETag.
pub trait VersionedWork<V, T>:
    FnOnce(&mut DbConn, V, String) -> ApiResult<T> + Send + 'static
{
}
impl<V, T, F> VersionedWork<V, T> for F where
    F: FnOnce(&mut DbConn, V, String) -> ApiResult<T> + Send + 'static
{
}

/// Work a read of one competition runs on the database, given the competition.
pub trait CompetitionWork<T>:
    FnOnce(&mut DbConn, &Competition) -> ApiResult<T> + Send + 'static
{
}
impl<T, F> CompetitionWork<T> for F where
    F: FnOnce(&mut DbConn, &Competition) -> ApiResult<T> + Send + 'static
{
}

/// Work that makes a competition's document, given the competition and the version the
/// document is valid for.
pub trait DocumentWork<T>:
    FnOnce(&mut DbConn, &Competition, &CompetitionVersion) -> ApiResult<T> + Send + 'static
{
}
impl<T, F> DocumentWork<T> for F where
    F: FnOnce(&mut DbConn, &Competition, &CompetitionVersion) -> ApiResult<T> + Send + 'static
{
}

/// Runs `f` in one transaction, so that its reads see one snapshot of the database.
pub fn snapshot<T>(c: &mut DbConn, f: impl Work<T>) -> ApiResult<T> {
    crate::store::snapshot(c, f)
}

/// A competition's version: the stamps its computed reads depend on (its own and, for a
/// summer half, the winter's it is seeded from).
pub fn version_of(
    c: &mut DbConn,
    id: CompetitionId,
    seeded_from: Option<i64>,
) -> ApiResult<CompetitionVersion> {
    let s = stamp(c, &format!("competition:{id}"))?;
    let w = match seeded_from {
        Some(w) => stamp(c, &format!("competition:{w}"))?,
        None => 0,
    };
    Ok(CompetitionVersion {
        id,
        seeded_from,
        stamp: s,
        winter: w,
    })
}

/// The current version of competition `id` (404 when there is none); `seeded_from` is the
/// winter half it is seeded from when already known (it is fixed at creation), and the
/// version comes back with it.
pub fn current_version(
    c: &mut DbConn,
    id: i64,
    seeded_from: Option<Option<i64>>,
) -> ApiResult<CompetitionVersion> {
    let id = CompetitionId(id);
    let seeded_from = match seeded_from {
        Some(s) => s,
        None => competitions::load(c, id)?
            .seeded_from
            .map(CompetitionId::get),
    };
    version_of(c, id, seeded_from)
}

/// Competition `id` (404 when there is none), its version and what `f` makes of them, from
/// one snapshot.
pub fn document<T>(c: &mut DbConn, id: i64, f: impl DocumentWork<T>) -> ApiResult<T> {
    crate::store::snapshot(c, |c| {
        let comp = competitions::load(c, CompetitionId(id))?;
        let v = version_of(c, comp.id, comp.seeded_from.map(CompetitionId::get))?;
        f(c, &comp, &v)
    })
}

/// Either the ETag alone (the reader has the current document) or the document with it.
#[derive(Debug)]
pub enum Conditional<T> {
    /// The reader's copy is current.
    Unchanged(String),
    /// The current document.
    Fresh(String, T),
}

/// A conditional read of competition `id` (404 when there is none), from one snapshot: the
/// ETag `etag` makes of its version; when `unchanged` says the reader holds it, only the tag,
/// else also what `f` makes of the competition.
pub fn conditional<T>(
    c: &mut DbConn,
    id: i64,
    etag: impl FnOnce(&CompetitionVersion) -> String,
    unchanged: impl FnOnce(&str) -> bool,
    f: impl CompetitionWork<T>,
) -> ApiResult<Conditional<T>> {
    crate::store::snapshot(c, |c| {
        let comp = competitions::load(c, CompetitionId(id))?;
        let tag = etag(&version_of(
            c,
            comp.id,
            comp.seeded_from.map(CompetitionId::get),
        )?);
        if unchanged(&tag) {
            return Ok(Conditional::Unchanged(tag));
        }
        let body = f(c, &comp)?;
        Ok(Conditional::Fresh(tag, body))
    })
}
