//! Standings (public) as JSON and CSV, and the FIDE TRF export (docs/rules/keizer.md#scoring, docs/rules/rapid-blitz.md#the-dutch-system, docs/rules/rapid-blitz.md#tie-breaks, docs/rules/draughts-championship.md#scoring-2-1-0-plusremise-and-minremise, docs/rules/README.md#exchange-with-other-programs, docs/api-guide.md#versions-etags-and-conditional-requests).
//! Every answer carries an ETag from the competition's cache stamp; `If-None-Match` → 304.

use crate::cached::{conditional_read, not_modified_response, serve_cached};
use crate::error::{ApiError, ApiResult, Problem};
use crate::ids::CompetitionId;
use crate::services::reads::Conditional;
use crate::services::standings as svc;
pub use crate::services::standings_view::{
    KeizerRow, KeizerStandings, RoundRobinRow, RoundRobinStandings, StandingsView, SwissRow,
    SwissStandings, standings_view,
};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, get, web};
use serde::Deserialize;
use serde_json::Value;
use utoipa::IntoParams;

/// Query of a standings read.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StandingsQuery {
    /// Standings after this round / evening, from 1 (default: the last one that counts).
    #[param(minimum = 1)]
    pub after: Option<u32>,
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
        audience: crate::reader::current(),
    };
    serve_cached(&state, &req, key, move |c, comp, _| {
        let view = standings_view(c, comp, after)?;
        let body = serde_json::to_vec(&view).map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok((body, None))
    })
    .await
}

fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The standings as CSV (RFC 4180: comma, CRLF, header line; formulas neutralised, see
/// [`crate::csv`]).
pub fn to_csv(v: &StandingsView) -> String {
    let mut out = String::new();
    if let Some(k) = &v.keizer {
        out.push_str(&crate::csv::line(
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
            out.push_str(&crate::csv::line(&[
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
        out.push_str(&crate::csv::line(&head));
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
            out.push_str(&crate::csv::line(&f));
        }
    }
    if let Some(s) = &v.swiss {
        let mut head: Vec<String> = ["rank", "place", "player_id", "name"]
            .map(String::from)
            .to_vec();
        let acronyms: Vec<String> = s.tiebreaks.iter().map(|t| t.acronym()).collect();
        head.extend(acronyms.iter().cloned());
        out.push_str(&crate::csv::line(&head));
        for r in &s.rows {
            let mut f = vec![
                r.rank.to_string(),
                r.place.clone(),
                r.player_id.to_string(),
                r.name.clone(),
            ];
            f.extend(
                acronyms
                    .iter()
                    .map(|k| r.values.get(k).map(plain).unwrap_or_default()),
            );
            out.push_str(&crate::csv::line(&f));
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
    match conditional_read(
        &state,
        &req,
        id.get(),
        "standings-csv",
        after,
        move |c, comp| Ok(to_csv(&standings_view(c, comp, after)?)),
    )
    .await?
    {
        Conditional::Unchanged(e) => Ok(not_modified_response(e)),
        Conditional::Fresh(e, body) => Ok(HttpResponse::Ok()
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
    match conditional_read(&state, &req, id.get(), "trf", None, move |c, comp| {
        svc::trf_export(c, comp)
    })
    .await?
    {
        Conditional::Unchanged(e) => Ok(not_modified_response(e)),
        Conditional::Fresh(e, body) => Ok(HttpResponse::Ok()
            .insert_header(("ETag", e))
            .content_type("text/plain; charset=utf-8")
            .body(body)),
    }
}
