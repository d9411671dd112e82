//! Standings (public) as JSON and CSV, and the FIDE TRF export (docs/rules/keizer.md#scoring, docs/rules/rapid-blitz.md#the-dutch-system, docs/rules/rapid-blitz.md#tie-breaks, docs/rules/draughts-championship.md#scoring-2-1-0-plusremise-and-minremise, docs/rules/README.md#exchange-with-other-programs, docs/api-guide.md#versions-etags-and-conditional-requests).
//! Every answer carries an ETag from the competition's cache stamp; `If-None-Match` → 304.

use crate::app::AppState;
use crate::cache::CompetitionVersion;
use crate::db::DbConn;
use crate::db::models::competition::{Competition, stamp};
use crate::error::{ApiError, ApiResult, Problem};
use crate::ids::{CompetitionId, PlayerId};
use crate::services::standings as svc;
use actix_web::{HttpRequest, HttpResponse, get, web};
use clubcomp_engine::CompetitionKind;
use clubcomp_engine::keizer;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::Arc;
use utoipa::{IntoParams, ToSchema};

/// Query of a standings read.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StandingsQuery {
    /// Standings after this round / evening, from 1 (default: the last one that counts).
    #[param(minimum = 1)]
    pub after: Option<u32>,
}

/// One row of a Keizer table.
#[derive(Debug, Serialize, ToSchema)]
pub struct KeizerRow {
    /// Place (1 = top).
    pub rank: u32,
    /// Player id.
    pub player_id: i64,
    /// Name.
    pub name: String,
    /// Value of this place.
    pub value: i64,
    /// Keizer score (a cycle average when the evening did not converge): a JSON number, exact
    /// to four decimals (the engine counts in ten-thousandths), e.g. `107` or `53.5`.
    pub score: f64,
    /// Games played over the board.
    pub played: u32,
    /// Points from those games (1, ½, 0): a JSON number, e.g. `3.5`.
    pub game_points: f64,
    /// Pairing byes.
    pub byes: u32,
    /// Absences with notice.
    pub excused: u32,
    /// Absences without notice (forfeit no-shows included).
    pub unexcused: u32,
    /// Eligible for a prize after this evening (docs/rules/keizer.md#prizes: unexcused on at most 50% of the
    /// evenings since entry; never after withdrawing).
    pub eligible: bool,
    /// The evening from which the player withdrew (docs/rules/keizer.md#withdrawal); `null`
    /// when they have not withdrawn by this evening.
    pub withdrawn_from: Option<u32>,
}

/// A Keizer table after one evening.
#[derive(Debug, Serialize, ToSchema)]
pub struct KeizerStandings {
    /// Whether the recalculation of this evening reached a fixed point.
    pub converged: bool,
    /// Rankings computed.
    pub iterations: u32,
    /// Length of the cycle averaged over, when not converged.
    pub cycle_length: Option<u32>,
    /// Warnings for the leader (value floor, excused cap, step cap).
    pub warnings: Vec<String>,
    /// The table, best first.
    pub rows: Vec<KeizerRow>,
}

/// One row of a round-robin table.
#[derive(Debug, Serialize, ToSchema)]
pub struct RoundRobinRow {
    /// Place after all tie-breaks (still-tied players share the highest place of their part).
    pub place: u32,
    /// Player id.
    pub player_id: i64,
    /// Name.
    pub name: String,
    /// Players still tied with this one when the tie-break list is exhausted.
    pub shared_with: Vec<i64>,
    /// Match points (chess: halves as 5.5).
    #[schema(value_type = f64)]
    pub points: serde_json::Number,
    /// Games with a result.
    pub games: u32,
    /// Wins (forfeit wins included).
    pub wins: u32,
    /// Draws (plus- and minremises included).
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Plusremises.
    pub plusremises: u32,
    /// Minremises.
    pub minremises: u32,
    /// Tie-break values in list order.
    #[schema(value_type = Object)]
    pub tiebreaks: Value,
    /// The criterion that separated this row from the next (`points` when points did).
    pub decided_by: Option<String>,
    /// Share of each points table, exact.
    #[schema(value_type = Object)]
    pub points_tables: Value,
    /// Share of the prize money in euros, exact, as a string: a whole or decimal amount (`75`,
    /// `37.5`), or a fraction (`100/3`) when the share has no finite decimal form.
    #[schema(pattern = r"^-?[0-9]+(\.[0-9]+|/[0-9]+)?$")]
    pub prize_money: String,
    /// Rights earned.
    pub rights: Vec<String>,
    /// The round from which the player withdrew (docs/rules/draughts-championship.md#withdrawal:
    /// results stand, the games still due are lost by forfeit); `null` when they did not.
    pub withdrawn_from: Option<u32>,
}

/// A round-robin table.
#[derive(Debug, Serialize, ToSchema)]
pub struct RoundRobinStandings {
    /// Rows in final order.
    pub rows: Vec<RoundRobinRow>,
    /// `cross_table[i][j]`: what the i-th entrant (seed order) scored against the j-th.
    pub cross_table: Vec<Vec<String>>,
    /// What the withdrawal rule made of each withdrawal (docs/rules/draughts-championship.md#withdrawal):
    /// `{player_id, from_round, played, due, rule, forfeits}`, `rule` being `results_annulled`
    /// (the player has no row) or `remaining_forfeited`.
    #[schema(value_type = Vec<Object>)]
    pub withdrawals: Vec<Value>,
}

/// One row of a Swiss table.
#[derive(Debug, Serialize, ToSchema)]
pub struct SwissRow {
    /// Rank (shared places get the best rank of their block).
    pub rank: u32,
    /// The place as printed (`3` or `3-4`).
    pub place: String,
    /// Still shared after the whole tie-break list.
    pub shared: bool,
    /// Player id.
    pub player_id: i64,
    /// Name.
    pub name: String,
    /// Tie-break values by acronym (PTS first), each a JSON number (points in halves, e.g.
    /// `5.5`; averages and ratings as FIDE rounds them).
    #[schema(value_type = std::collections::HashMap<String, f64>)]
    pub values: Value,
    /// The round from which the player withdrew (absent from every later round; FIDE C.07
    /// counts those rounds as unplayed); `null` when they did not.
    pub withdrawn_from: Option<i32>,
}

/// A Swiss table.
#[derive(Debug, Serialize, ToSchema)]
pub struct SwissStandings {
    /// Tie-breaks applied (PTS first).
    pub tiebreaks: Vec<String>,
    /// First place still shared after the tie-breaks (in the blitz championship: the top score
    /// shared): settled by a play-off (docs/rules/rapid-blitz.md#tie-breaks).
    pub playoff_for_first: bool,
    /// The play-off for first, once created (final standings only): its games and outcome
    /// (docs/rules/rapid-blitz.md#the-play-off-for-first).
    pub playoff: Option<crate::services::playoff::FirstPlacePlayoff>,
    /// Rows, best first.
    pub rows: Vec<SwissRow>,
}

/// The standings of a competition.
#[derive(Debug, Serialize, ToSchema)]
pub struct StandingsView {
    /// Competition id.
    pub competition_id: i64,
    /// `keizer`, `swiss` or `round_robin`.
    #[schema(value_type = crate::schemas::StandingsKind)]
    pub kind: String,
    /// Rounds (evenings) that count so far.
    pub rounds_counted: u32,
    /// The round (evening) these standings are after; 0 before any.
    pub after: u32,
    /// Keizer table.
    pub keizer: Option<KeizerStandings>,
    /// Round-robin table.
    pub round_robin: Option<RoundRobinStandings>,
    /// Swiss table.
    pub swiss: Option<SwissStandings>,
}

fn check_after(after: Option<u32>, counted: usize) -> ApiResult<u32> {
    match after {
        None => Ok(counted as u32),
        Some(0) => Err(ApiError::invalid("after", "must be 1 or more")),
        Some(n) if n as usize > counted => Err(ApiError::invalid(
            "after",
            format!("only {counted} rounds count so far"),
        )),
        Some(n) => Ok(n),
    }
}

/// Computes the standings view of a competition after round `after` (default the last).
pub fn standings_view(
    c: &mut DbConn,
    comp: &Competition,
    after: Option<u32>,
) -> ApiResult<StandingsView> {
    let mut view = StandingsView {
        competition_id: comp.id.get(),
        kind: comp.kind.into(),
        rounds_counted: 0,
        after: 0,
        keizer: None,
        round_robin: None,
        swiss: None,
    };
    match comp.kind {
        CompetitionKind::Keizer => {
            let input = svc::keizer_input(c, comp)?.input;
            let out = svc::keizer_compute(&input)?;
            let n = check_after(after, out.len())?;
            view.rounds_counted = out.len() as u32;
            view.after = n;
            let ids = input.players.iter().filter_map(|p| p.id.parse().ok());
            let names = svc::names(c, ids)?;
            if n == 0 {
                // before the first evening: the seed order, nothing scored
                let value = |i: usize| clubcomp_engine::keizer::value_of_place(&input.params, i);
                let rows = input
                    .players
                    .iter()
                    .filter(|p| p.joins_at <= 1)
                    .enumerate()
                    .map(|(i, p)| {
                        let id = PlayerId::from_engine(&p.id)?.0;
                        Ok(KeizerRow {
                            rank: i as u32 + 1,
                            player_id: id,
                            name: names.get(&id).cloned().unwrap_or_default(),
                            value: value(i),
                            score: 0.0,
                            played: 0,
                            game_points: 0.0,
                            byes: 0,
                            excused: 0,
                            unexcused: 0,
                            eligible: p.withdrawn_from.is_none_or(|w| w > 1),
                            withdrawn_from: p.withdrawn_from.filter(|&w| w <= 1),
                        })
                    })
                    .collect::<ApiResult<_>>()?;
                view.keizer = Some(KeizerStandings {
                    converged: true,
                    iterations: 0,
                    cycle_length: None,
                    warnings: vec![],
                    rows,
                });
                return Ok(view);
            }
            let k = n as usize;
            let mut upto = input.clone();
            upto.evenings.truncate(k);
            let eligible: std::collections::HashMap<String, bool> =
                keizer::candidates(&upto, &out[..k])
                    .into_iter()
                    .map(|p| (p.id.clone(), p.eligible()))
                    .collect();
            let e = &out[k - 1];
            view.keizer = Some(KeizerStandings {
                converged: e.converged,
                iterations: e.iterations,
                cycle_length: e.cycle_length,
                warnings: e.warnings.clone(),
                rows: e
                    .standings
                    .iter()
                    .map(|r| {
                        let id = PlayerId::from_engine(&r.id)?.0;
                        Ok(KeizerRow {
                            rank: r.rank,
                            player_id: id,
                            name: names.get(&id).cloned().unwrap_or_default(),
                            value: r.value,
                            score: r.score.to_f64(),
                            played: r.played,
                            game_points: r.game_points.to_f64(),
                            byes: r.byes,
                            excused: r.excused,
                            unexcused: r.unexcused,
                            eligible: eligible.get(&r.id).copied().unwrap_or(false),
                            withdrawn_from: r.withdrawn_from,
                        })
                    })
                    .collect::<ApiResult<_>>()?,
            });
        }
        CompetitionKind::RoundRobin => {
            let comp = svc::ensure_lots_seed(c, comp)?;
            let played = svc::counted_rounds(c, comp.id)?.len();
            let n = check_after(after, played)?;
            view.rounds_counted = played as u32;
            view.after = n;
            let s = svc::round_robin_scenario(c, &comp, after.map(|a| a as i32))?;
            let out = svc::round_robin_compute(&s)?;
            let names: std::collections::HashMap<String, String> = s
                .players
                .iter()
                .map(|p| (p.id.clone(), p.name.clone().unwrap_or_default()))
                .collect();
            view.round_robin = Some(RoundRobinStandings {
                rows: out
                    .standings
                    .into_iter()
                    .map(|r| {
                        Ok(RoundRobinRow {
                            place: r.place,
                            player_id: PlayerId::from_engine(&r.id)?.0,
                            name: names.get(&r.id).cloned().unwrap_or_default(),
                            shared_with: r
                                .shared_with
                                .iter()
                                .map(|x| PlayerId::from_engine(x).map(|id| id.0))
                                .collect::<ApiResult<_>>()?,
                            points: r.points,
                            games: r.games,
                            wins: r.wins,
                            draws: r.draws,
                            losses: r.losses,
                            plusremises: r.plusremises,
                            minremises: r.minremises,
                            tiebreaks: serde_json::to_value(&r.tiebreaks).unwrap_or_default(),
                            decided_by: r.decided_by,
                            points_tables: serde_json::to_value(&r.points_tables)
                                .unwrap_or_default(),
                            prize_money: r.prize_money,
                            rights: r.rights,
                            withdrawn_from: r.withdrawn_from,
                        })
                    })
                    .collect::<ApiResult<_>>()?,
                cross_table: out.cross_table,
                withdrawals: out
                    .withdrawals
                    .iter()
                    .map(|w| {
                        serde_json::json!({
                            "player_id": w.id.parse::<i64>().unwrap_or_default(),
                            "from_round": w.from_round,
                            "played": w.played,
                            "due": w.due,
                            "rule": w.rule,
                            "forfeits": w.forfeits,
                        })
                    })
                    .collect(),
            });
        }
        CompetitionKind::Swiss => {
            let mut rounds = svc::counted_rounds(c, comp.id)?;
            let n = check_after(after, rounds.len())?;
            view.rounds_counted = rounds.len() as u32;
            view.after = n;
            rounds.truncate(n as usize);
            let (st, ids) = svc::swiss_compute(c, comp, &rounds)?;
            let tie = crate::services::playoff::first_place_tie(comp)?;
            let playoff_for_first = crate::services::playoff::candidates(&st, &ids, tie).len() > 1;
            let playoff = if n == view.rounds_counted {
                crate::services::playoff::view(c, comp)?
            } else {
                None
            };
            let names = svc::names(c, ids.iter().copied())?;
            let withdrawn = crate::db::models::competition::withdrawals(c, comp.id)?;
            let acr: Vec<String> = st
                .tiebreaks
                .iter()
                .map(|t| t.acronym().to_string())
                .collect();
            view.swiss = Some(SwissStandings {
                tiebreaks: acr.clone(),
                playoff_for_first,
                playoff,
                rows: st
                    .rows
                    .into_iter()
                    .map(|r| {
                        let id = ids.get(r.id as usize - 1).copied().unwrap_or_default();
                        let mut values = serde_json::Map::new();
                        for (a, v) in acr.iter().zip(&r.values) {
                            values.insert(a.clone(), serde_json::to_value(v).unwrap_or_default());
                        }
                        SwissRow {
                            rank: r.rank,
                            place: r.place,
                            shared: r.shared,
                            player_id: id,
                            name: names.get(&id).cloned().unwrap_or_default(),
                            values: Value::Object(values),
                            withdrawn_from: withdrawn.get(&id).copied(),
                        }
                    })
                    .collect(),
            });
        }
        other => {
            return Err(ApiError::Conflict(format!(
                "a {other} competition has no standings table (see its playoffs)"
            )));
        }
    }
    Ok(view)
}

/// The ETag of a competition's computed reads: its cache stamp (and, for a summer half, the
/// winter's), the kind of document and the `after` asked for.
pub fn read_etag(
    c: &mut DbConn,
    comp: &Competition,
    doc: &str,
    after: Option<u32>,
) -> ApiResult<String> {
    let v = version_of(c, comp.id.get(), comp.seeded_from.map(CompetitionId::get))?;
    Ok(etag_of(&v, doc, after))
}

/// A competition's version: the stamps its computed reads depend on.
fn version_of(c: &mut DbConn, id: i64, seeded_from: Option<i64>) -> ApiResult<CompetitionVersion> {
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

/// The ETag of document `doc` (after round `after`) of a competition version.
pub fn etag_of(v: &CompetitionVersion, doc: &str, after: Option<u32>) -> String {
    let a = after.map_or("last".to_string(), |a| a.to_string());
    format!("\"{doc}-{}-s{}-w{}-a{a}\"", v.id, v.stamp, v.winter)
}

/// The current version of competition `id`, from a lookup that started after this call
/// (coalesced with concurrent reads of the same competition, see [`crate::cache::Coalescer`]):
/// never older than the last write committed before the call. 404 when there is no such
/// competition.
pub async fn competition_version(
    state: &web::Data<AppState>,
    id: i64,
) -> ApiResult<Arc<CompetitionVersion>> {
    // a lookup started less than the reuse time ago (writes wait that long before they
    // answer, so it already shows every write answered before this read arrived)
    if let Some((v, refresh)) = state.versions.db.reusable(id) {
        if refresh {
            // past half its reuse time: look up the next version in the background, so the
            // reads after this one find it instead of waiting for a lookup
            state
                .versions
                .flights
                .start_if_idle(id, version_lookup(state, id));
        }
        return Ok(v);
    }
    // SQLite: nothing committed since this competition's last lookup started, so its result
    // is still the current version (no query)
    if let Some(v) = state.versions.db.unchanged(id) {
        return Ok(v);
    }
    let lookup = state.versions.flights.get(id, version_lookup(state, id));
    lookup.await.map_err(|e| reissue(&e))
}

/// A lookup of competition `id`'s version (for [`crate::cache::Coalescer`]): its stamps, from
/// a query that starts when the lookup does.
fn version_lookup(
    state: &web::Data<AppState>,
    id: i64,
) -> impl FnOnce() -> futures_util::future::BoxFuture<'static, crate::cache::VersionLookup> + use<>
{
    let db = state.versions.db.clone();
    move || {
        use futures_util::FutureExt;
        async move {
            let work = move |db: &crate::cache::LookupDb| {
                let started = std::time::Instant::now();
                let header = db.wal_header();
                let v = db
                    .with_conn(|c| {
                        let seeded_from = match db.seed(id) {
                            Some(s) => s,
                            None => {
                                // first read of this competition: it exists, and its fixed seed
                                let comp = crate::services::competitions::load(
                                    c,
                                    crate::ids::CompetitionId(id),
                                )?;
                                let seeded_from = comp.seeded_from.map(CompetitionId::get);
                                db.remember_seed(id, seeded_from);
                                seeded_from
                            }
                        };
                        version_of(c, id, seeded_from)
                    })
                    .map(Arc::new)?;
                db.record(id, header, &v);
                db.record_recent(id, started, &v);
                Ok(v)
            };
            let r = if db.inline() {
                work(&db)
            } else {
                web::block(move || work(&db))
                    .await
                    .unwrap_or_else(|e| Err(ApiError::from(e)))
            };
            r.map_err(Arc::new)
        }
        .boxed()
    }
}

/// The same error again (a coalesced lookup's error is shared by every read that joined it).
fn reissue(e: &ApiError) -> ApiError {
    match e {
        ApiError::NotFound(s) => ApiError::NotFound(s.clone()),
        ApiError::Conflict(s) => ApiError::Conflict(s.clone()),
        ApiError::Unavailable(s) => ApiError::Unavailable(s.clone()),
        ApiError::Internal(s) => ApiError::Internal(s.clone()),
        other => ApiError::Internal(other.to_string()),
    }
}

/// The `If-None-Match` header's value, if readable.
pub fn if_none_match(req: &HttpRequest) -> Option<String> {
    req.headers()
        .get(actix_web::http::header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// Whether an `If-None-Match` value matches the current ETag: weak comparison (RFC 9110
/// 13.1.2), so `W/"x"` matches `"x"`.
pub fn not_modified(inm: Option<&str>, etag: &str) -> bool {
    crate::cache::none_match(inm, etag)
}

/// Either a 304 or the computed document, with its ETag.
enum Read<T> {
    NotModified(String),
    Fresh(String, T),
}

async fn read<T: Send + 'static>(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    id: i64,
    doc: &'static str,
    after: Option<u32>,
    f: impl FnOnce(&mut DbConn, &Competition) -> ApiResult<T> + Send + 'static,
) -> ApiResult<Read<T>> {
    let inm = if_none_match(req);
    state
        .db(move |c| {
            crate::db::snapshot(c, |c| {
                let comp = crate::services::competitions::load(c, crate::ids::CompetitionId(id))?;
                let etag = read_etag(c, &comp, doc, after)?;
                if not_modified(inm.as_deref(), &etag) {
                    return Ok(Read::NotModified(etag));
                }
                Ok(Read::Fresh(etag, f(c, &comp)?))
            })
        })
        .await
}

fn not_modified_response(etag: String) -> HttpResponse {
    HttpResponse::NotModified()
        .insert_header(("ETag", etag))
        .finish()
}

/// Standings after the last counting round, or after round `after` (public). Keizer: rank,
/// value, score, converged flag and cycle length of that evening, prize eligibility. Round
/// robin: the draughts/chess chain with tie-break values, `decided_by` and `shared_with`.
/// Swiss: the FIDE tie-break list. `ETag` from the competition's cache stamp; send it as
/// `If-None-Match` for a 304.
#[utoipa::path(tag = "standings",
    params(("id" = i64, Path, description = "Competition id"), StandingsQuery,
           ("If-None-Match" = Option<String>, Header, description = "ETag of a previous read")),
    responses((status = 200, description = "Standings", body = StandingsView),
        (status = 304, description = "Not modified"),
        (status = 400, description = "Bad query string", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No standings for this kind, or stored data that cannot be computed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`after` out of range", body = Problem, content_type = "application/problem+json")))]
#[get("/competitions/{id}/standings")]
pub async fn get_standings(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
    q: crate::api::Params<StandingsQuery>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let after = q.into_inner()?.after;
    let key = crate::cache::Key {
        competition: id.get(),
        doc: "standings",
        arg: after.map(i64::from),
    };
    serve_cached(&state, &req, key, move |c, comp, _| {
        let view = standings_view(c, comp, after)?;
        let body = serde_json::to_vec(&view).map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok((body, None))
    })
    .await
}

/// Serves a computed JSON document from the read cache while its competition's version
/// (from the database's cache stamps) is unchanged; the version comes from a coalesced lookup
/// that started after this read arrived ([`competition_version`]), so the answer is never
/// older than a write committed before the read. On a miss, `compute` makes the body (and,
/// when the document has an ETag of its own, that tag; otherwise [`etag_of`] the version) in
/// one transaction together with the version it is stored under. Answers 304 for a matching
/// `If-None-Match`, and gzip to clients that accept it (`Vary: Accept-Encoding`).
pub async fn serve_cached(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    key: crate::cache::Key,
    compute: impl FnOnce(
        &mut DbConn,
        &Competition,
        &CompetitionVersion,
    ) -> ApiResult<(Vec<u8>, Option<String>)>
    + Send
    + 'static,
) -> ApiResult<HttpResponse> {
    serve_cached_as(state, req, key, CachedType::JSON, compute).await
}

/// The media type, `Vary` and further headers of a cached document's answer.
#[derive(Debug, Clone, Copy)]
pub struct CachedType<'a> {
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The `Vary` (it names `Accept-Encoding`: the answer may be gzip-compressed).
    pub vary: &'static str,
    /// Headers the answer carries besides those (on a 304 too, as the 200 would), made
    /// once when the service starts.
    pub headers: &'a [(
        actix_web::http::header::HeaderName,
        actix_web::http::header::HeaderValue,
    )],
}

impl CachedType<'static> {
    /// A JSON document.
    pub const JSON: CachedType<'static> = CachedType {
        content_type: "application/json",
        vary: "Accept-Encoding",
        headers: &[],
    };
}

/// [`serve_cached`] for a document of another media type.
pub async fn serve_cached_as(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    key: crate::cache::Key,
    kind: CachedType<'_>,
    compute: impl FnOnce(
        &mut DbConn,
        &Competition,
        &CompetitionVersion,
    ) -> ApiResult<(Vec<u8>, Option<String>)>
    + Send
    + 'static,
) -> ApiResult<HttpResponse> {
    let id = key.competition;
    let version = competition_version(state, id).await?;
    let entry = match state.cache.get(&key, version.stamps()) {
        Some(e) => e,
        None => {
            let after = key.arg.and_then(|a| u32::try_from(a).ok());
            let entry = state
                .db(move |c| {
                    // recompute the version inside the same snapshot as the body
                    crate::db::snapshot(c, |c| {
                        let comp =
                            crate::services::competitions::load(c, crate::ids::CompetitionId(id))?;
                        let v =
                            version_of(c, comp.id.get(), comp.seeded_from.map(CompetitionId::get))?;
                        let (body, tag) = compute(c, &comp, &v)?;
                        let tag = tag.unwrap_or_else(|| etag_of(&v, key.doc, after));
                        Ok(crate::cache::Entry::new(body, v.stamps(), &tag))
                    })
                })
                .await?;
            state.cache.put(key, entry)
        }
    };
    Ok(answer_entry(req, &entry, kind))
}

/// The answer of a cached document: 304 when `If-None-Match` names either of its tags,
/// else the body (gzip to a client that accepts it), with `ETag`, `Vary` and `kind`'s headers.
pub fn answer_entry(
    req: &HttpRequest,
    entry: &crate::cache::Entry,
    kind: CachedType<'_>,
) -> HttpResponse {
    use actix_web::http::header::{self, HeaderValue};
    let gz = crate::cache::accepts_gzip(
        req.headers()
            .get(header::ACCEPT_ENCODING)
            .and_then(|v| v.to_str().ok()),
    );
    let tag = if gz && entry.gzip.is_some() {
        &entry.gz_tag
    } else {
        &entry.tag
    };
    let vary = (header::VARY, HeaderValue::from_static(kind.vary));
    if let Some(inm) = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
    {
        let matches = |t: &HeaderValue| t.to_str().is_ok_and(|t| not_modified(Some(inm), t));
        if matches(&entry.tag) || matches(&entry.gz_tag) {
            let res = HttpResponse::NotModified()
                .insert_header((header::ETAG, tag.clone()))
                .insert_header(vary)
                .finish();
            return with_headers(res, kind.headers);
        }
    }
    let mut res = HttpResponse::Ok();
    res.insert_header(vary)
        .insert_header((header::ETAG, tag.clone()))
        .insert_header((
            header::CONTENT_TYPE,
            HeaderValue::from_static(kind.content_type),
        ));
    let res = match (&entry.gzip, gz) {
        (Some(z), true) => res
            .insert_header((header::CONTENT_ENCODING, HeaderValue::from_static("gzip")))
            .body(z.clone()),
        _ => res.body(entry.body.clone()),
    };
    with_headers(res, kind.headers)
}

/// Serves a JSON document that is not one competition's from the read cache: `version` looks
/// up, in the same snapshot as the body, which object the read names (its id goes into the
/// cache key with `doc`), the version the document is valid for and its ETag; `compute`
/// makes the body on a miss. Every read looks the version up in the database, so a document
/// is never older than a write committed before the read arrived. Answers as
/// [`answer_entry`].
pub async fn serve_versioned<V: Send + 'static>(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    doc: &'static str,
    version: impl FnOnce(&mut DbConn) -> ApiResult<(i64, (i64, i64), String, V)> + Send + 'static,
    compute: impl FnOnce(&mut DbConn, V, String) -> ApiResult<Vec<u8>> + Send + 'static,
) -> ApiResult<HttpResponse> {
    let st = state.clone();
    let entry = state
        .db(move |c| {
            crate::db::snapshot(c, |c| {
                let (id, v, tag, found) = version(c)?;
                let key = crate::cache::Key {
                    competition: id,
                    doc,
                    arg: None,
                };
                if let Some(e) = st.cache.get(&key, v) {
                    return Ok(e);
                }
                let body = compute(c, found, tag.clone())?;
                Ok(st.cache.put(key, crate::cache::Entry::new(body, v, &tag)))
            })
        })
        .await?;
    Ok(answer_entry(req, &entry, CachedType::JSON))
}

/// `res` with `headers` added (straight into its header map: they are valid already).
fn with_headers(
    mut res: HttpResponse,
    headers: &[(
        actix_web::http::header::HeaderName,
        actix_web::http::header::HeaderValue,
    )],
) -> HttpResponse {
    let map = res.headers_mut();
    for (name, value) in headers {
        map.insert(name.clone(), value.clone());
    }
    res
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn csv_line(fields: &[String]) -> String {
    let mut l = fields
        .iter()
        .map(|f| csv_field(f))
        .collect::<Vec<_>>()
        .join(",");
    l.push_str("\r\n");
    l
}

fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The standings as CSV (RFC 4180: comma, CRLF, header line).
pub fn to_csv(v: &StandingsView) -> String {
    let mut out = String::new();
    if let Some(k) = &v.keizer {
        out.push_str(&csv_line(
            &[
                "rank",
                "player_id",
                "name",
                "value",
                "score",
                "played",
                "game_points",
                "byes",
                "excused",
                "unexcused",
                "eligible",
            ]
            .map(String::from),
        ));
        for r in &k.rows {
            out.push_str(&csv_line(&[
                r.rank.to_string(),
                r.player_id.to_string(),
                r.name.clone(),
                r.value.to_string(),
                // the CSV keeps the engine's four decimals
                format!("{:.4}", r.score),
                r.played.to_string(),
                format!("{:.4}", r.game_points),
                r.byes.to_string(),
                r.excused.to_string(),
                r.unexcused.to_string(),
                r.eligible.to_string(),
            ]));
        }
    }
    if let Some(t) = &v.round_robin {
        let tb: Vec<String> = t
            .rows
            .first()
            .and_then(|r| r.tiebreaks.as_object())
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default();
        let mut head: Vec<String> = [
            "place",
            "player_id",
            "name",
            "points",
            "games",
            "wins",
            "draws",
            "losses",
        ]
        .map(String::from)
        .to_vec();
        head.extend(tb.iter().cloned());
        head.extend(["prize_money", "rights", "shared_with"].map(String::from));
        out.push_str(&csv_line(&head));
        for r in &t.rows {
            let mut f = vec![
                r.place.to_string(),
                r.player_id.to_string(),
                r.name.clone(),
                r.points.to_string(),
                r.games.to_string(),
                r.wins.to_string(),
                r.draws.to_string(),
                r.losses.to_string(),
            ];
            f.extend(
                tb.iter()
                    .map(|k| r.tiebreaks.get(k).map(plain).unwrap_or_default()),
            );
            f.push(r.prize_money.clone());
            f.push(r.rights.join(" "));
            f.push(
                r.shared_with
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(" "),
            );
            out.push_str(&csv_line(&f));
        }
    }
    if let Some(s) = &v.swiss {
        let mut head: Vec<String> = ["rank", "place", "player_id", "name"]
            .map(String::from)
            .to_vec();
        head.extend(s.tiebreaks.iter().cloned());
        out.push_str(&csv_line(&head));
        for r in &s.rows {
            let mut f = vec![
                r.rank.to_string(),
                r.place.clone(),
                r.player_id.to_string(),
                r.name.clone(),
            ];
            f.extend(
                s.tiebreaks
                    .iter()
                    .map(|k| r.values.get(k).map(plain).unwrap_or_default()),
            );
            out.push_str(&csv_line(&f));
        }
    }
    out
}

/// The standings as CSV (public; same rows and ETag rules as the JSON).
#[utoipa::path(tag = "standings",
    params(("id" = i64, Path, description = "Competition id"), StandingsQuery,
           ("If-None-Match" = Option<String>, Header, description = "ETag of a previous read")),
    responses((status = 200, description = "CSV with a header line", body = String, content_type = "text/csv"),
        (status = 304, description = "Not modified"),
        (status = 400, description = "Bad query string", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No standings for this kind", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`after` out of range", body = Problem, content_type = "application/problem+json")))]
#[get("/competitions/{id}/standings.csv")]
pub async fn get_standings_csv(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
    q: crate::api::Params<StandingsQuery>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let after = q.into_inner()?.after;
    match read(
        &state,
        &req,
        id.get(),
        "standings-csv",
        after,
        move |c, comp| Ok(to_csv(&standings_view(c, comp, after)?)),
    )
    .await?
    {
        Read::NotModified(e) => Ok(not_modified_response(e)),
        Read::Fresh(e, body) => Ok(HttpResponse::Ok()
            .insert_header(("ETag", e))
            .insert_header((
                "Content-Disposition",
                format!("attachment; filename=\"standings-{id}.csv\""),
            ))
            .content_type("text/csv; charset=utf-8")
            .body(body)),
    }
}

/// FIDE TRF-16 export of a Swiss or round robin (public): the published and completed
/// rounds; a pairing-allocated bye is `U` (never `F`), an absence `Z`, a game still without a
/// result is blank; a Double-Swiss round takes two TRF rounds.
#[utoipa::path(tag = "standings",
    params(("id" = i64, Path, description = "Competition id"),
           ("If-None-Match" = Option<String>, Header, description = "ETag of a previous read")),
    responses((status = 200, description = "TRF-16 text", body = String, content_type = "text/plain"),
        (status = 304, description = "Not modified"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not a Swiss or round robin", body = Problem, content_type = "application/problem+json")))]
#[get("/competitions/{id}/trf")]
pub async fn get_competition_trf(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    match read(&state, &req, id.get(), "trf", None, move |c, comp| {
        if !matches!(
            comp.kind,
            CompetitionKind::Swiss | CompetitionKind::RoundRobin
        ) {
            return Err(ApiError::Conflict(format!(
                "TRF export is for Swiss and round-robin competitions, not {}",
                comp.kind
            )));
        }
        // the play-off for first is not a round of the tournament file
        let mut rounds = svc::public_rounds(c, comp.id)?;
        rounds.retain(|(r, _)| !crate::services::rounds::is_playoff_round(r));
        let (t, _) = svc::build_trf(c, comp, &rounds)?;
        Ok(clubcomp_engine::swiss::write_trf(&t))
    })
    .await?
    {
        Read::NotModified(e) => Ok(not_modified_response(e)),
        Read::Fresh(e, body) => Ok(HttpResponse::Ok()
            .insert_header(("ETag", e))
            .content_type("text/plain; charset=utf-8")
            .body(body)),
    }
}
