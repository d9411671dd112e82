//! Rounds (evenings) of a competition: create, read, publish, complete (docs/rules/README.md, docs/api-guide.md).
//! Pairings are public only once published.

use crate::api::Body;
use crate::auth::{Arbiter, Auth, Leader, MaybeAuth, Role};
use crate::error::{ApiError, ApiResult, Problem};
use crate::ids::{CompetitionId, EveningId};
use crate::services::round_views;
pub use crate::services::round_views::{GameView, PlayerRef, RoundSummary, RoundView};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use clubcomp_core::vocab::{RoundListView, RoundStatus};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// A new round.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct CreateRound {
    /// Round number, 1–99 (default: the next one).
    #[schema(minimum = 1, maximum = 99)]
    pub number: Option<i32>,
    /// The calendar evening it is played on.
    pub evening_id: Option<i64>,
    /// Date, YYYY-MM-DD in the years 1900–2200 (default: the evening's date).
    #[schema(value_type = Option<crate::api::date::ApiDate>)]
    pub date: Option<String>,
}

fn insider(auth: &MaybeAuth) -> bool {
    auth.0
        .as_ref()
        .is_some_and(|p| p.has_any(&[Role::Leader, Role::Arbiter, Role::Admin]))
}

/// Adds a round (status `planned`). A Keizer half whose season calendar has Keizer evenings of
/// its half takes its rounds from them instead (409; docs/rules/keizer.md#rounds-from-the-calendar).
#[utoipa::path(tag = "rounds", request_body = CreateRound,
    params(("id" = i64, Path, description = "Competition id")),
    responses((status = 201, description = "Created", body = RoundView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Round number taken, or a Keizer half that takes its rounds from the calendar", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid fields", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[post("/competitions/{id}/rounds")]
pub async fn create_round(
    _a: Auth<Leader>,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
    body: Body<CreateRound>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let date = match &b.date {
        Some(d) => Some(crate::api::date::parse("date", d)?),
        None => None,
    };
    if b.number.is_some_and(|n| !(1..=99).contains(&n)) {
        return Err(ApiError::invalid("number", "must be from 1 to 99"));
    }
    let view = state
        .tx(move |c| {
            round_views::create_round_and_view(c, id, b.number, b.evening_id.map(EveningId), date)
        })
        .await?;
    Ok(HttpResponse::Created().json(view))
}

/// What a list of rounds may be filtered by, and how it is shown.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct RoundsQuery {
    /// Only rounds of these statuses (`planned`, `paired`, `published`, `completed`; all when
    /// absent): repeat the parameter (`status=paired&status=published`) or give a comma list
    /// (`status=paired,published`); at most 100 characters in all.
    #[param(value_type = Option<Vec<RoundStatus>>, style = Form, explode)]
    pub status: Option<String>,
    /// `full` (default: each round with its games, as `RoundView`) or `summary` (each round
    /// without its games, as `RoundSummary`).
    #[param(value_type = Option<clubcomp_core::vocab::RoundListView>)]
    pub view: Option<String>,
}

/// The longest `status` list accepted, in characters.
const MAX_STATUS_CHARS: usize = 100;

impl RoundsQuery {
    /// The statuses asked for (none: every round) and the view, each checked (422 naming
    /// `status` or `view`).
    fn resolve(&self) -> ApiResult<(Vec<RoundStatus>, RoundListView)> {
        let mut statuses = Vec::new();
        if let Some(text) = self.status.as_deref() {
            if text.chars().count() > MAX_STATUS_CHARS {
                return Err(ApiError::invalid(
                    "status",
                    format!("at most {MAX_STATUS_CHARS} characters"),
                ));
            }
            for part in text.split(',').map(str::trim) {
                let s: RoundStatus = part.parse().map_err(|_| {
                    ApiError::invalid(
                        "status",
                        format!("must be one of {}", RoundStatus::NAMES.join(", ")),
                    )
                })?;
                if !statuses.contains(&s) {
                    statuses.push(s);
                }
            }
        }
        let view = match self.view.as_deref() {
            None => RoundListView::Full,
            Some(v) => v.parse().map_err(|_| {
                ApiError::invalid(
                    "view",
                    format!("must be one of {}", RoundListView::NAMES.join(", ")),
                )
            })?,
        };
        Ok((statuses, view))
    }
}

/// The rounds of a competition (public; games only once published), optionally only those of
/// some statuses, with their games (`view=full`, the default) or without them, counted
/// (`view=summary`, as `RoundSummary`). Served from the read cache; `ETag` from the
/// competition's cache stamp, `If-None-Match` → 304.
#[utoipa::path(tag = "rounds", params(("id" = i64, Path, description = "Competition id"),
           ("If-None-Match" = Option<String>, Header, description = "ETag of a previous read"), RoundsQuery),
    responses((status = 200, description = "Rounds: `RoundView` items, or `RoundSummary` items with `view=summary`", body = RoundList),
        (status = 304, description = "Not modified"),
        (status = 400, description = "Unknown query parameter", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "An unknown `status` or `view`, or `status` too long", body = Problem, content_type = "application/problem+json")))]
#[get("/competitions/{id}/rounds")]
pub async fn list_rounds(
    auth: MaybeAuth,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let q: RoundsQuery =
        crate::api::parse_query(&crate::api::join_repeated(req.query_string(), "status"))?;
    let (statuses, view) = q.resolve()?;
    let ins = insider(&auth);
    // from the read cache while the competition's version is unchanged (every write to its
    // rounds, games and players bumps it); leaders and arbiters see unpublished pairings too.
    // A status filter is the argument: the bit of each status asked for
    let mask = statuses
        .iter()
        .map(|s| 1_i64 << RoundStatus::ALL.iter().position(|a| a == s).unwrap_or(0))
        .sum::<i64>();
    let key = crate::cache::Key {
        competition: id.get(),
        doc: match (view, ins) {
            (RoundListView::Full, true) => "rounds-insider",
            (RoundListView::Full, false) => "rounds-public",
            (RoundListView::Summary, true) => "rounds-summary-insider",
            (RoundListView::Summary, false) => "rounds-summary-public",
        },
        arg: (mask != 0).then_some(mask),
        audience: crate::reader::current(),
    };
    crate::cached::serve_cached(&state, &req, key, move |c, _, _| {
        let list = match view {
            RoundListView::Full => {
                RoundList::Full(round_views::of_competition_in(c, id, &statuses, ins)?)
            }
            RoundListView::Summary => {
                RoundList::Summary(round_views::summaries_of(c, id, &statuses, ins)?)
            }
        };
        let body = serde_json::to_vec(&list).map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok((body, None))
    })
    .await
}

/// A list of rounds as `GET …/rounds` answers it: one of the two arrays. Documented as `anyOf`
/// (an empty list is both), by hand: the derived schema of an untagged enum is a `oneOf`.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum RoundList {
    /// `view=full` (the default): each round with its games.
    Full(Vec<RoundView>),
    /// `view=summary`: each round without its games.
    Summary(Vec<RoundSummary>),
}

/// One round with its games (public once published; leaders and arbiters always). Served
/// from the read cache; its `ETag` (`"round-<id>-v<version>…"`) is also the `If-Match` of the
/// pairing writes; `If-None-Match` → 304.
#[utoipa::path(tag = "rounds",
    params(("id" = i64, Path, description = "Competition id"), ("number" = i32, Path, description = "Round number"),
           ("If-None-Match" = Option<String>, Header, description = "ETag of a previous read")),
    responses((status = 200, description = "The round", body = RoundView),
        (status = 304, description = "Not modified"),
        (status = 404, description = "No such round", body = Problem, content_type = "application/problem+json")))]
#[get("/competitions/{id}/rounds/{number}")]
pub async fn get_round(
    auth: MaybeAuth,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(CompetitionId, i32)>,
) -> ApiResult<HttpResponse> {
    let (id, number) = path.into_inner();
    let ins = insider(&auth);
    // the published pairing from the read cache (see `list_rounds`)
    let key = crate::cache::Key {
        competition: id.get(),
        doc: if ins { "round-insider" } else { "round-public" },
        arg: Some(i64::from(number)),
        audience: crate::reader::current(),
    };
    crate::cached::serve_cached(&state, &req, key, move |c, _, v| {
        let view = round_views::one(c, id, number, ins)?;
        // `"round-<id>-v<version>…"`: the If-Match of the pairing writes names the round's
        // version; the competition's stamp makes it change with every write that shows
        let tag = format!(
            "\"round-{}-v{}-s{}-{}\"",
            view.id,
            view.version,
            v.stamp,
            u8::from(ins)
        );
        let body = serde_json::to_vec(&view).map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok((body, Some(tag)))
    })
    .await
}

/// Whether the request asks for `Prefer: return=minimal` (RFC 7240: among other
/// preferences, in any case, with or without quotes).
pub fn prefers_minimal(req: &HttpRequest) -> bool {
    req.headers()
        .get_all("prefer")
        .filter_map(|h| h.to_str().ok())
        .flat_map(|h| h.split(','))
        .any(|p| {
            let pref = p.split(';').next().unwrap_or_default();
            let mut kv = pref.splitn(2, '=');
            kv.next()
                .is_some_and(|k| k.trim().eq_ignore_ascii_case("return"))
                && kv
                    .next()
                    .is_some_and(|v| v.trim().trim_matches('"').eq_ignore_ascii_case("minimal"))
        })
}

/// The answer of a round write: the round as the club's staff see it, or, asked for with
/// `Prefer: return=minimal`, 204 with the round's URL (`Location`) and its `ETag`.
pub fn round_answer(
    req: &HttpRequest,
    mut ok: actix_web::HttpResponseBuilder,
    view: &RoundView,
) -> HttpResponse {
    if !prefers_minimal(req) {
        return ok.json(view);
    }
    HttpResponse::NoContent()
        .insert_header((
            "Location",
            format!(
                "/api/v1/competitions/{}/rounds/{}",
                view.competition_id, view.number
            ),
        ))
        .insert_header(("ETag", view.etag.clone()))
        .insert_header(("Preference-Applied", "return=minimal"))
        .finish()
}

/// Publishes a paired round: its pairings become public. With `Prefer: return=minimal` the
/// answer is 204 with the round's `Location` and `ETag`.
#[utoipa::path(tag = "rounds",
    params(("id" = i64, Path, description = "Competition id"), ("number" = i32, Path, description = "Round number"),
           ("Prefer" = Option<String>, Header, description = "`return=minimal`: answer 204 without the round")),
    responses((status = 200, description = "Published", body = RoundView),
        (status = 204, description = "Published (`Prefer: return=minimal`)",
            headers(("Location" = String, description = "The round's URL"),
                ("ETag" = String, description = "The round's ETag (`\"round-<id>-v<version>\"`)"),
                ("Preference-Applied" = String, description = "`return=minimal`"))),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such round", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not paired", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[post("/competitions/{id}/rounds/{number}/publish")]
pub async fn publish_round(
    _a: Auth<Leader>,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(CompetitionId, i32)>,
) -> ApiResult<HttpResponse> {
    let (id, number) = path.into_inner();
    let mail = state.config.mail.clone();
    let key = state.unsubscribe.clone();
    let view = state
        .tx(move |c| round_views::publish_round_and_view(c, (&mail, &key), id, number))
        .await?;
    Ok(round_answer(&req, HttpResponse::Ok(), &view))
}

/// Completes a published round once every game has a result.
#[utoipa::path(tag = "rounds",
    params(("id" = i64, Path, description = "Competition id"), ("number" = i32, Path, description = "Round number")),
    responses((status = 200, description = "Completed", body = RoundView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an arbiter or leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such round", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not published, or results missing", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["arbiter", "leader", "admin"])))]
#[post("/competitions/{id}/rounds/{number}/complete")]
pub async fn complete_round(
    _a: Auth<Arbiter>,
    state: web::Data<AppState>,
    path: web::Path<(CompetitionId, i32)>,
) -> ApiResult<HttpResponse> {
    let (id, number) = path.into_inner();
    let view = state
        .tx(move |c| round_views::complete_round_and_view(c, id, number))
        .await?;
    Ok(HttpResponse::Ok().json(view))
}

impl utoipa::PartialSchema for RoundList {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{AnyOfBuilder, ArrayBuilder};
        use utoipa::openapi::{Ref, RefOr};
        let array = |item: &str, about: &str| {
            ArrayBuilder::new()
                .items(RefOr::Ref(Ref::from_schema_name(item)))
                .description(Some(about))
                .build()
        };
        AnyOfBuilder::new()
            .item(array(
                "RoundView",
                "`view=full` (the default): each round with its games.",
            ))
            .item(array(
                "RoundSummary",
                "`view=summary`: each round without its games.",
            ))
            .description(Some(
                "A list of rounds as `GET …/rounds` answers it: one of the two arrays.",
            ))
            .into()
    }
}

impl utoipa::ToSchema for RoundList {
    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        use utoipa::PartialSchema;
        schemas.push(("RoundView".into(), RoundView::schema()));
        <RoundView as utoipa::ToSchema>::schemas(schemas);
        schemas.push(("RoundSummary".into(), RoundSummary::schema()));
        <RoundSummary as utoipa::ToSchema>::schemas(schemas);
    }
}
