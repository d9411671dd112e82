//! Competitions and their entrants (docs/rules/README.md): kinds `keizer`, `swiss` (Dutch or Double-Swiss),
//! `round_robin`, `knockout`; discipline, parameters, tie-breaks, time control and rule flags.

use crate::api::{Body, Page, PageParams, etag, if_match};
use crate::auth::{Auth, Leader};
use crate::error::{ApiError, ApiResult, FieldError, Problem};
use crate::ids::{CompetitionId, PlayerId, SeasonId};
use crate::services::competitions::{
    self as svc, SettingsInput, TimeControl, default_rules, default_tiebreaks, validate,
};
pub use crate::services::competitions::{Competition, EntrantView, entrants_in_seed_order, load};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, web};
use clubcomp_core::vocab::CompetitionTiebreak;
use clubcomp_engine as v;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

pub use crate::schemas::{CompetitionKind, Discipline, KeizerHalf, PairingSystem};

/// A competition.
#[derive(Debug, Serialize, ToSchema)]
pub struct CompetitionView {
    /// Id.
    pub id: i64,
    /// The season.
    pub season_id: i64,
    /// Name.
    pub name: String,
    /// `keizer`, `swiss`, `round_robin` or `knockout`.
    #[schema(value_type = CompetitionKind)]
    pub kind: String,
    /// `chess` or `draughts`.
    #[schema(value_type = Discipline)]
    pub discipline: String,
    /// `dutch` / `double_swiss` (swiss), `single` / `double` (round robin).
    #[schema(value_type = Option<PairingSystem>)]
    #[schema(required = true)]
    pub system: Option<String>,
    /// `winter` or `summer` for a Keizer half.
    #[schema(value_type = Option<KeizerHalf>)]
    #[schema(required = true)]
    pub half: Option<String>,
    /// The winter half a summer half is seeded from.
    #[schema(required = true)]
    pub seeded_from: Option<i64>,
    /// Engine parameters (Keizer: top_value, step, win, draw, loss, bye, excused, excused_cap,
    /// forfeit_win, withdrawn_prizes; a Dutch Swiss that is the blitz championship: `blitz`, a
    /// `BlitzParams` with every default filled in).
    #[schema(value_type = Object)]
    pub params: Value,
    /// Ordered tie-break list: FIDE acronyms for a Swiss, criteria for a round robin.
    pub tiebreaks: Vec<CompetitionTiebreak>,
    /// Time control.
    pub time_control: TimeControl,
    /// Rule flags.
    #[schema(value_type = Object)]
    pub rules: Value,
    /// Planned number of rounds.
    #[schema(required = true)]
    pub rounds_planned: Option<i32>,
    /// Version (ETag).
    pub version: i64,
    /// The version as the `ETag` a write sends back in `If-Match` (the same as the header).
    pub etag: String,
}

/// Converts a row; a stored JSON column that does not decode is an internal error.
pub fn view(c: Competition) -> ApiResult<CompetitionView> {
    let settings = svc::stored_settings(&c)?;
    Ok(CompetitionView {
        id: c.id.get(),
        season_id: c.season_id.get(),
        name: c.name,
        kind: c.kind.into(),
        discipline: c.discipline.into(),
        system: c.system.map(String::from),
        half: c.half.map(String::from),
        seeded_from: c.seeded_from.map(CompetitionId::get),
        params: settings.params,
        tiebreaks: settings.tiebreaks,
        time_control: settings.time_control,
        rules: settings.rules,
        rounds_planned: c.rounds_planned,
        version: c.version,
        etag: crate::services::version::etag("competition", c.id, c.version),
    })
}

/// A new competition.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Keizer winter", "kind": "keizer", "discipline": "chess", "half": "winter"}))]
pub struct CreateCompetition {
    /// Name (unique in the season; 1–100 characters, not only blanks; leading and trailing
    /// blanks are dropped).
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub name: String,
    /// `keizer`, `swiss`, `round_robin` or `knockout`.
    #[schema(value_type = CompetitionKind)]
    pub kind: String,
    /// `chess` (default) or `draughts`.
    #[schema(value_type = Option<Discipline>)]
    pub discipline: Option<String>,
    /// Swiss: `dutch`, `burstein` or `double_swiss`; round robin: `single` (default) or `double`.
    #[schema(value_type = Option<PairingSystem>)]
    pub system: Option<String>,
    /// Keizer: `winter` or `summer`.
    #[schema(value_type = Option<KeizerHalf>)]
    pub half: Option<String>,
    /// Keizer summer half: the winter half of the same season it is seeded from.
    pub seeded_from: Option<i64>,
    /// Engine parameters (defaults: the club's settings, docs/rules/keizer.md#scoring). A Dutch
    /// Swiss with a `blitz` block (`BlitzParams`: the evening's `date`, `check_in_closes`,
    /// `extra_rounds`, `max_rounds`) is the blitz championship, with check-in
    /// (docs/rules/rapid-blitz.md#the-blitz-championship).
    #[schema(value_type = Option<Object>)]
    pub params: Option<Value>,
    /// Tie-break list (defaults per kind).
    #[schema(value_type = Option<Vec<CompetitionTiebreak>>)]
    pub tiebreaks: Option<Vec<String>>,
    /// Time control (default: the club's 40/90 + 30 min + 30 s; 10 minutes for the blitz
    /// championship).
    pub time_control: Option<TimeControl>,
    /// Rule flags, e.g. `{"quickplay_finish": false}`.
    #[schema(value_type = Option<HashMap<String, bool>>)]
    pub rules: Option<Value>,
    /// Planned number of rounds, 1–99.
    #[schema(minimum = 1, maximum = 99)]
    pub rounds_planned: Option<i32>,
}

/// Changes to a competition (only before its first round is paired, except name and rules).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateCompetition {
    /// Name (1–100 characters, not only blanks; leading and trailing blanks are dropped).
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub name: Option<String>,
    /// Engine parameters.
    #[schema(value_type = Option<Object>)]
    pub params: Option<Value>,
    /// Tie-break list.
    #[schema(value_type = Option<Vec<CompetitionTiebreak>>)]
    pub tiebreaks: Option<Vec<String>>,
    /// Time control.
    pub time_control: Option<TimeControl>,
    /// Rule flags (true/false each).
    #[schema(value_type = Option<HashMap<String, bool>>)]
    pub rules: Option<Value>,
    /// Planned number of rounds.
    #[schema(minimum = 1, maximum = 99)]
    pub rounds_planned: Option<i32>,
}

/// The half of a new competition: only a Keizer half has one.
fn check_half(
    kind: Option<v::CompetitionKind>,
    half: Option<&str>,
    errs: &mut Vec<FieldError>,
) -> Option<v::Half> {
    match (kind, half.map(|h| h.parse::<v::Half>())) {
        (Some(v::CompetitionKind::Keizer), None) => None,
        (Some(v::CompetitionKind::Keizer), Some(Ok(h))) => Some(h),
        (Some(v::CompetitionKind::Keizer), Some(Err(_))) => {
            errs.push(FieldError::new("half", "must be winter or summer"));
            None
        }
        (_, Some(_)) => {
            errs.push(FieldError::new(
                "half",
                "only a Keizer competition has a half",
            ));
            None
        }
        (_, None) => None,
    }
}

/// Creates a competition in a season.
#[utoipa::path(tag = "competitions", request_body = CreateCompetition,
    params(("id" = i64, Path, description = "Season id")),
    responses((status = 201, description = "Created", body = CompetitionView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such season", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Name taken in the season", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid fields", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[post("/seasons/{id}/competitions")]
pub async fn create_competition(
    _a: Auth<Leader>,
    state: web::Data<AppState>,
    path: web::Path<SeasonId>,
    body: Body<CreateCompetition>,
) -> ApiResult<HttpResponse> {
    let season_id = path.into_inner();
    let b = body.into_inner()?;
    let discipline = b
        .discipline
        .clone()
        .unwrap_or_else(|| v::Discipline::Chess.into());
    let kind = b.kind.parse::<v::CompetitionKind>().ok();
    let system = b.system.clone().or_else(|| {
        (kind == Some(v::CompetitionKind::RoundRobin)).then(|| v::PairingSystem::Single.into())
    });
    let typed_system = system.as_deref().and_then(|s| s.parse().ok());
    let input = SettingsInput {
        kind: b.kind.clone(),
        discipline: discipline.clone(),
        system: system.clone(),
        params: b.params.clone().unwrap_or_else(|| serde_json::json!({})),
        tiebreaks: b.tiebreaks.clone().unwrap_or_else(|| {
            default_tiebreaks(kind, discipline.parse().ok())
                .iter()
                .map(|t| t.name())
                .collect()
        }),
        time_control: b.time_control.clone().unwrap_or_else(|| {
            svc::default_time_control(
                kind,
                typed_system,
                discipline.parse().ok(),
                b.params.as_ref().and_then(|p| p.get("blitz")).is_some(),
            )
        }),
        rules: b
            .rules
            .clone()
            .unwrap_or_else(|| default_rules(kind, typed_system, discipline.parse().ok())),
    };
    let mut errs = Vec::new();
    let name = crate::services::input::name("name", &b.name)
        .map_err(|e| errs.push(e))
        .unwrap_or_default();
    let half = check_half(kind, b.half.as_deref(), &mut errs);
    if let Some(n) = b.rounds_planned
        && !(1..=99).contains(&n)
    {
        errs.push(FieldError::new("rounds_planned", "must be from 1 to 99"));
    }
    let settings = match validate(&input) {
        Ok(settings) if errs.is_empty() => settings,
        Ok(_) => return Err(ApiError::validation(errs)),
        Err(ApiError::Validation { errors, .. }) => {
            errs.extend(errors);
            return Err(ApiError::validation(errs));
        }
        Err(other) => return Err(other),
    };
    let spec = svc::NewCompetitionSpec {
        season_id,
        name,
        settings,
        half,
        seeded_from: b.seeded_from.map(CompetitionId),
        rounds_planned: b.rounds_planned,
    };
    let comp = state.tx(move |c| svc::create(c, spec)).await?;
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/api/v1/competitions/{}", comp.id)))
        .insert_header(("ETag", etag("competition", comp.id, comp.version)))
        .json(view(comp)?))
}

/// Lists the competitions of a season, by id (public; a page, docs/api-guide.md#paging).
#[utoipa::path(tag = "competitions", params(("id" = i64, Path, description = "Season id"), PageParams),
    responses((status = 200, description = "Competitions, by id", body = Page<CompetitionView>,
            headers(("Link" = String, description = "RFC 8288 links to the first, previous, next and last pages"))),
        (status = 400, description = "Unknown query parameter", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such season", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Bad paging", body = Problem, content_type = "application/problem+json")))]
#[get("/seasons/{id}/competitions")]
pub async fn list_competitions(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<SeasonId>,
    q: crate::api::Params<PageParams>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let paging = q.into_inner()?.paging()?;
    let (rows, total) = state
        .db(move |c| svc::page_of_season(c, id, paging.limit, paging.offset))
        .await?;
    let items = rows.into_iter().map(view).collect::<ApiResult<Vec<_>>>()?;
    Ok(paging.answer(&req, total, items))
}

/// One competition (public).
#[utoipa::path(tag = "competitions", params(("id" = i64, Path, description = "Competition id"),
           ("If-None-Match" = Option<String>, Header, description = "ETag of a previous read")),
    responses((status = 200, description = "The competition", body = CompetitionView),
        (status = 304, description = "Not modified"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json")))]
#[get("/competitions/{id}")]
pub async fn get_competition(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let comp = state.db(move |c| load(c, id)).await?;
    let tag = etag("competition", comp.id, comp.version);
    Ok(crate::api::versioned(&req, tag, &view(comp)?))
}

/// Changes a competition's settings. Parameters, tie-breaks and time control are fixed once a
/// round is paired (409).
#[utoipa::path(tag = "competitions", request_body = UpdateCompetition,
    params(("id" = i64, Path, description = "Competition id"),
           ("If-Match" = Option<String>, Header, description = "ETag from a previous read")),
    responses((status = 200, description = "Updated", body = CompetitionView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Already under way", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "Stale If-Match", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid fields", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[patch("/competitions/{id}")]
pub async fn update_competition(
    _a: Auth<Leader>,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
    body: Body<UpdateCompetition>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let im = if_match(&req)?;
    let changes = svc::CompetitionChanges {
        name: b.name,
        params: b.params,
        tiebreaks: b.tiebreaks,
        time_control: b.time_control,
        rules: b.rules,
        rounds_planned: b.rounds_planned,
    };
    let comp = state.tx(move |c| svc::update(c, id, &im, changes)).await?;
    Ok(HttpResponse::Ok()
        .insert_header(("ETag", etag("competition", comp.id, comp.version)))
        .json(view(comp)?))
}

/// One entry.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EntryRequest {
    /// The player.
    pub player_id: i64,
    /// The round from which the player takes part, 1–99 (default 1; a later entrant is
    /// placed by rating, docs/rules/keizer.md#entrants).
    #[schema(minimum = 1, maximum = 99)]
    pub joins_at: Option<i32>,
    /// Excused absences already used earlier in the season, 0–99 (default 0).
    #[schema(minimum = 0, maximum = 99)]
    pub excused_before: Option<i32>,
}

/// Entries to add.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"entrants": [{"player_id": 1}, {"player_id": 2, "joins_at": 3}]}))]
pub struct AddEntrants {
    /// The players, in order of entry (at least one).
    #[schema(min_items = 1)]
    pub entrants: Vec<EntryRequest>,
}

/// Enters players (in order of entry); each gets the rating on the seeding date.
#[utoipa::path(tag = "competitions", request_body = AddEntrants,
    params(("id" = i64, Path, description = "Competition id")),
    responses((status = 200, description = "All entrants in seed order", body = Vec<EntrantView>),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Already entered", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid entries, or more entrants than the work limit of the competition's kind (LIMIT_KEIZER_PLAYERS 300, LIMIT_SWISS_PLAYERS 500, LIMIT_ROUND_ROBIN_PLAYERS 100 by default; limit named)", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[post("/competitions/{id}/entrants")]
pub async fn create_entrants(
    _a: Auth<Leader>,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
    body: Body<AddEntrants>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    if b.entrants.is_empty() {
        return Err(ApiError::invalid("entrants", "must not be empty"));
    }
    let limits = state.config.limits;
    let entries: Vec<svc::Entry> = b
        .entrants
        .iter()
        .map(|e| svc::Entry {
            player_id: PlayerId(e.player_id),
            joins_at: e.joins_at,
            excused_before: e.excused_before,
        })
        .collect();
    let views = state
        .tx(move |c| svc::enter_and_view(c, id, &entries, &limits))
        .await?;
    Ok(HttpResponse::Ok().json(views))
}

/// The entrants in the order the competition starts in (public): seed order, a summer Keizer
/// half in the winter's final order.
#[utoipa::path(tag = "competitions", params(("id" = i64, Path, description = "Competition id")),
    responses((status = 200, description = "Entrants", body = Vec<EntrantView>),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json")))]
#[get("/competitions/{id}/entrants")]
pub async fn list_entrants(
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let views = state
        .db(move |c| crate::services::standings::entrants_in_start_order(c, id))
        .await?;
    Ok(HttpResponse::Ok().json(views))
}

/// Withdraws an entrant who has no games yet.
#[utoipa::path(tag = "competitions",
    params(("id" = i64, Path, description = "Competition id"), ("player_id" = i64, Path, description = "Player id")),
    responses((status = 204, description = "Removed"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Not entered", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The player has games", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[delete("/competitions/{id}/entrants/{player_id}")]
pub async fn delete_entrant(
    _a: Auth<Leader>,
    state: web::Data<AppState>,
    path: web::Path<(CompetitionId, PlayerId)>,
) -> ApiResult<HttpResponse> {
    let (id, player) = path.into_inner();
    state.tx(move |c| svc::withdraw(c, id, player)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// A withdrawal: from a round, or from a date (the first round dated on or after it); with
/// neither, from the first round not yet paired.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"from_round": 6, "reason": "moved abroad"}))]
pub struct WithdrawRequest {
    /// The first round the player no longer plays, 1–99; it and every later round must be
    /// still unpaired.
    #[schema(minimum = 1, maximum = 99)]
    pub from_round: Option<i32>,
    /// The date from which the player no longer plays (`YYYY-MM-DD`); not with `from_round`.
    #[schema(format = Date)]
    pub date: Option<String>,
    /// Why (kept in the audit log), at most 500 characters.
    #[schema(max_length = 500)]
    pub reason: Option<String>,
}

/// Withdraws an entrant from a round not yet paired on (docs/rules/README.md#withdrawal): never
/// paired again; earlier games stand and the standings apply the rule of the competition's
/// kind; audited.
#[utoipa::path(tag = "competitions", request_body = WithdrawRequest,
    params(("id" = i64, Path, description = "Competition id"), ("player_id" = i64, Path, description = "Player id")),
    responses((status = 200, description = "The entrants in seed order, the withdrawn one with `withdrawn_from`", body = Vec<EntrantView>),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Withdrawn already, or the round is already paired or published (named, with the player's board)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Not an entrant, a round already played or beyond the last one, a date without a round on or after it, or a bad field (named)", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[post("/competitions/{id}/entrants/{player_id}/withdraw")]
pub async fn withdraw_entrant(
    auth: Auth<Leader>,
    state: web::Data<AppState>,
    path: web::Path<(CompetitionId, PlayerId)>,
    body: Body<WithdrawRequest>,
) -> ApiResult<HttpResponse> {
    let (id, player) = path.into_inner();
    let b = body.into_inner()?;
    let date = b
        .date
        .as_deref()
        .map(|d| crate::services::date::parse("date", d))
        .transpose()?;
    let req = crate::services::withdrawal::Request {
        from_round: b.from_round,
        date,
        reason: b.reason,
    };
    let actor = auth.principal.label.clone();
    let views = state
        .tx(move |c| crate::services::withdrawal::withdraw_and_view(c, id, player, &req, &actor))
        .await?;
    Ok(HttpResponse::Ok().json(views))
}
