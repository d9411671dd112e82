//! Rounds (evenings) of a competition: create, read, publish, complete (docs/rules/README.md, docs/api-guide.md).
//! Pairings are public only once published.

use crate::api::Body;
use crate::app::AppState;
use crate::auth::{Arbiter, Auth, Leader, MaybeAuth, Role};
use crate::db::DbConn;
use crate::db::models::competition::{Competition, Game, Round};
use crate::db::models::players;
use crate::error::{ApiError, ApiResult, Problem};
use crate::ids::{CompetitionId, EveningId, PlayerId};
use crate::services::competitions::{self, TimeControl};
use crate::services::rounds::{self, is_public};
use crate::services::tempo;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A player on a board.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlayerRef {
    /// Player id.
    pub id: i64,
    /// Name.
    pub name: String,
}

/// A game as shown.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GameView {
    /// Game id (for results).
    pub id: i64,
    /// Board number.
    pub board: i32,
    /// Game number within the pairing (two-game rounds: 1 and 2).
    pub game_no: i32,
    /// White (or the player with the bye).
    pub white: Option<PlayerRef>,
    /// Black (absent for a bye).
    pub black: Option<PlayerRef>,
    /// Result code, once entered.
    #[schema(value_type = Option<crate::services::results::ResultCode>)]
    pub result: Option<String>,
    /// How the game ended, if recorded.
    pub termination: Option<String>,
    /// Moves played, if recorded.
    pub move_count: Option<i32>,
    /// The tempo the game is played at: its own, agreed for this game
    /// (`PUT /games/{id}/time-control`), else the competition's.
    pub time_control: TimeControl,
    /// Whether the game has a tempo of its own (`time_control` is not the competition's).
    pub time_control_own: bool,
    /// Version (send as `If-Match` when entering a result or setting the tempo).
    pub version: i64,
    /// The version as the `ETag` a write sends back in `If-Match` (the same as the header).
    pub etag: String,
}

/// A round as shown.
#[derive(Debug, Serialize, ToSchema)]
pub struct RoundView {
    /// Round id.
    pub id: i64,
    /// The competition it belongs to.
    pub competition_id: i64,
    /// Round number.
    pub number: i32,
    /// Date.
    pub date: Option<NaiveDate>,
    /// The calendar evening.
    pub evening_id: Option<i64>,
    /// `planned`, `paired`, `published` or `completed`.
    #[schema(value_type = crate::schemas::RoundStatus)]
    pub status: String,
    /// Version.
    pub version: i64,
    /// The version as the `ETag` the pairing writes accept in `If-Match`
    /// (`"round-<id>-v<version>"`).
    pub etag: String,
    /// Pairing details (bye draw: seed and candidates; overrides), once paired. Who generated
    /// or entered the pairing (`generated_by`, `entered_by`) is shown to the staff only.
    #[schema(value_type = Option<Object>)]
    pub pairing: Option<serde_json::Value>,
    /// Games (the public sees them only once published).
    pub games: Vec<GameView>,
}

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

fn player_ref(c: &mut DbConn, id: Option<PlayerId>) -> ApiResult<Option<PlayerRef>> {
    Ok(match id {
        Some(id) => players::by_id(c, id.get())?.map(|p| PlayerRef {
            id: p.id,
            name: p.name,
        }),
        None => None,
    })
}

/// A game of competition `comp` with player names and the tempo it is played at.
pub fn game_view(c: &mut DbConn, comp: &Competition, g: Game) -> ApiResult<GameView> {
    let tempo = tempo::effective(comp, &g)?;
    Ok(GameView {
        id: g.id.get(),
        board: g.board,
        game_no: g.game_no,
        white: player_ref(c, g.white_id)?,
        black: player_ref(c, g.black_id)?,
        result: g.result,
        termination: g.termination,
        move_count: g.move_count,
        time_control: tempo.time_control,
        time_control_own: tempo.own,
        version: g.version,
        etag: crate::services::version::etag("game", g.id.get(), g.version),
    })
}

/// A round with its games when the caller may see them.
pub fn round_view(c: &mut DbConn, round: Round, insider: bool) -> ApiResult<RoundView> {
    let show = insider || is_public(&round.status);
    let games = if show {
        let games = rounds::games_of(c, round.id)?;
        let mut out = Vec::with_capacity(games.len());
        if !games.is_empty() {
            let comp = competitions::load(c, round.competition_id)?;
            for g in games {
                out.push(game_view(c, &comp, g)?);
            }
        }
        out
    } else {
        vec![]
    };
    Ok(RoundView {
        id: round.id.get(),
        competition_id: round.competition_id.get(),
        number: round.number,
        date: round.date,
        evening_id: round.evening_id.map(EveningId::get),
        status: round.status,
        version: round.version,
        etag: crate::services::version::etag("round", round.id.get(), round.version),
        pairing: if show {
            round
                .pairing_meta
                .as_deref()
                .and_then(|m| serde_json::from_str(m).ok())
                .map(|mut m: serde_json::Value| {
                    // who generated or entered the pairing is an account (an e-mail
                    // address): for the club's staff only
                    if !insider && let Some(o) = m.as_object_mut() {
                        o.remove("generated_by");
                        o.remove("entered_by");
                    }
                    m
                })
        } else {
            None
        },
        games,
    })
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
            let round = rounds::create(c, id, b.number, b.evening_id.map(EveningId), date)?;
            round_view(c, round, true)
        })
        .await?;
    Ok(HttpResponse::Created().json(view))
}

/// The rounds of a competition (public; games only once published). Served from the read
/// cache; `ETag` from the competition's cache stamp, `If-None-Match` → 304.
#[utoipa::path(tag = "rounds", params(("id" = i64, Path, description = "Competition id"),
           ("If-None-Match" = Option<String>, Header, description = "ETag of a previous read")),
    responses((status = 200, description = "Rounds", body = Vec<RoundView>),
        (status = 304, description = "Not modified"),
        (status = 404, description = "No such competition", body = Problem, content_type = "application/problem+json")))]
#[get("/competitions/{id}/rounds")]
pub async fn list_rounds(
    auth: MaybeAuth,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<CompetitionId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let ins = insider(&auth);
    // from the read cache while the competition's version is unchanged (every write to its
    // rounds, games and players bumps it); leaders and arbiters see unpublished pairings too
    let key = crate::cache::Key {
        competition: id.get(),
        doc: if ins {
            "rounds-insider"
        } else {
            "rounds-public"
        },
        arg: None,
    };
    crate::api::standings::serve_cached(&state, &req, key, move |c, _, _| {
        let mut out = Vec::new();
        for round in rounds::list(c, id)? {
            out.push(round_view(c, round, ins)?);
        }
        let body = serde_json::to_vec(&out).map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok((body, None))
    })
    .await
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
    };
    crate::api::standings::serve_cached(&state, &req, key, move |c, _, v| {
        let round = rounds::load(c, id, number)?;
        // `"round-<id>-v<version>…"`: the If-Match of the pairing writes names the round's
        // version; the competition's stamp makes it change with every write that shows
        let tag = format!(
            "\"round-{}-v{}-s{}-{}\"",
            round.id,
            round.version,
            v.stamp,
            u8::from(ins)
        );
        let body = serde_json::to_vec(&round_view(c, round, ins)?)
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok((body, Some(tag)))
    })
    .await
}

/// Publishes a paired round: its pairings become public.
#[utoipa::path(tag = "rounds",
    params(("id" = i64, Path, description = "Competition id"), ("number" = i32, Path, description = "Round number")),
    responses((status = 200, description = "Published", body = RoundView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such round", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not paired", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[post("/competitions/{id}/rounds/{number}/publish")]
pub async fn publish_round(
    _a: Auth<Leader>,
    state: web::Data<AppState>,
    path: web::Path<(CompetitionId, i32)>,
) -> ApiResult<HttpResponse> {
    let (id, number) = path.into_inner();
    let view = state
        .tx(move |c| {
            let round = rounds::load(c, id, number)?;
            rounds::transition(c, &round, "paired", "published")?;
            let round = rounds::load(c, id, number)?;
            round_view(c, round, true)
        })
        .await?;
    Ok(HttpResponse::Ok().json(view))
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
        .tx(move |c| {
            let round = rounds::load(c, id, number)?;
            let missing: Vec<i32> = rounds::games_of(c, round.id)?
                .into_iter()
                .filter(|g| g.result.is_none())
                .map(|g| g.board)
                .collect();
            if !missing.is_empty() && round.status == "published" {
                return Err(ApiError::Conflict(format!(
                    "results missing on boards {missing:?}"
                )));
            }
            rounds::transition(c, &round, "published", "completed")?;
            let round = rounds::load(c, id, number)?;
            round_view(c, round, true)
        })
        .await?;
    Ok(HttpResponse::Ok().json(view))
}
