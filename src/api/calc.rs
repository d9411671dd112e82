//! Stateless calculators (public): the engines of `clubcomp calc …` and `clubcomp pair` over
//! HTTP, with the same input and output formats, so a website can show "what if" previews.
//! Nothing is stored. Every input is checked against the work limits before any engine runs
//! (422 naming the limit, see `docs/operations.md`); every engine then runs on the bounded
//! calculator pool ([`crate::limits::CalcPool`]: 503 with `Retry-After` when it is full or a
//! calculation spends its time budget) inside `std::panic::catch_unwind`: a panic on odd input
//! answers 422 and never takes a worker down (docs/benchmarks.md: no 5xx from a schema-driven fuzzer).

use crate::api::Body;
use crate::calc_input;
use crate::error::{ApiError, ApiResult, FieldError, Problem};
use crate::limits::{Admission, engine_panicked};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, post, web};
use clubcomp_engine::Colour;
use clubcomp_engine::double_swiss::{self as ds, ByeKind, DoubleSwissResult as DsResult};
use clubcomp_engine::swiss::{PairError, next_round, pair_burstein_round_until, pair_round_until};
use clubcomp_engine::swiss::{ResultCode, Tournament, parse_trf};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

/// Runs an engine on the blocking pool; a panic in it becomes a 422 (logged).
pub async fn run_engine<T, F>(name: &'static str, f: F) -> ApiResult<T>
where
    T: Send + 'static,
    F: FnOnce() -> ApiResult<T> + Send + 'static,
{
    // in the request's span: a panic is logged with its request id (crate::panics)
    let span = tracing::Span::current();
    let work = move || {
        let _span = span.enter();
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
    };
    match web::block(work).await {
        Ok(Ok(r)) => r,
        Ok(Err(panic)) => Err(engine_panicked(name, panic.as_ref())),
        Err(e) => Err(e.into()),
    }
}

/// The request's place on the calculator pool, as an extractor: listed before the body in a
/// handler's arguments, a full pool answers 503 before the body is read.
pub struct CalcAdmission(pub Admission);

impl actix_web::FromRequest for CalcAdmission {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        std::future::ready(match req.app_data::<web::Data<AppState>>() {
            Some(state) => state.calc.admit().map(CalcAdmission),
            None => Err(ApiError::Internal("no application state".into())),
        })
    }
}

fn engine_error(message: impl std::fmt::Display) -> ApiError {
    let m = message.to_string();
    ApiError::Validation {
        detail: m.clone(),
        errors: vec![FieldError::new("body", m)],
    }
}

/// The Keizer standings after every evening of a scenario (`docs/formats/keizer-scenario.md`,
/// the same JSON as `clubcomp calc keizer`). Bad input is a 422 naming the evening and the
/// player.
///
/// Work limits (422 naming the limit; defaults, configurable): at most 300 players
/// (`LIMIT_KEIZER_PLAYERS`) and 80 evenings (`LIMIT_KEIZER_EVENINGS`); an evening names
/// each player at most once. The calculation runs within the time budget
/// (`CALC_TIME_BUDGET_MS`, default 10 s).
#[utoipa::path(tag = "calculators",
    request_body(content = Object, content_type = "application/json",
        description = "A Keizer scenario (docs/formats/keizer-scenario.md)",
        example = json!({"players": [{"id": "a", "rating": 2000}, {"id": "b", "rating": 1900}],
            "evenings": [{"games": [{"white": "a", "black": "b", "result": "1-0"}]}]})),
    responses((status = 200, description = "Standings after every evening", body = Object),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body too large (without a token: over `CALC_ANON_MAX_BODY_BYTES`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many calculator requests without a token from this address (`CALC_ANON_RATE_PER_MINUTE`; Retry-After)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid scenario (evening and player named), or over a work limit (limit named)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The calculators are busy, or the calculation spent its time budget (Retry-After)", body = Problem, content_type = "application/problem+json")))]
#[post("/calc/keizer")]
pub async fn create_keizer_calculation(
    admission: CalcAdmission,
    state: web::Data<AppState>,
    body: Body<Value>,
) -> ApiResult<HttpResponse> {
    use clubcomp_engine::keizer::run_scenario_until;
    scenario_calculation(admission, &state, body, "keizer", run_scenario_until).await
}

/// Runs `engine` on a Keizer scenario (the work limits checked first) on the calculator pool.
async fn scenario_calculation<T: Serialize + Send + 'static>(
    admission: CalcAdmission,
    state: &AppState,
    body: Body<Value>,
    name: &'static str,
    engine: fn(
        &Value,
        &dyn clubcomp_engine::Stop,
    ) -> Result<T, clubcomp_engine::keizer::ScenarioError>,
) -> ApiResult<HttpResponse> {
    let v = body.into_inner()?;
    calc_input::keizer_scenario(&v, &state.config.limits)?;
    let out = state
        .calc
        .run(admission.0, name, move |stop| {
            engine(&v, stop).map_err(scenario_error)
        })
        .await?;
    Ok(HttpResponse::Ok().json(out))
}

/// A refused scenario: 422 naming the field where the engine names one.
fn scenario_error(e: clubcomp_engine::keizer::ScenarioError) -> ApiError {
    use clubcomp_engine::keizer::ScenarioError;
    match &e {
        ScenarioError::Field { at, reason } => ApiError::Validation {
            detail: e.to_string(),
            errors: vec![FieldError::new(at.clone(), reason.clone())],
        },
        _ => engine_error(&e),
    }
}

/// Prizes of a Keizer half from a scenario, and for a summer half the playoff groups, their
/// games and colours (`docs/formats/keizer-prizes.md`, the same JSON as
/// `clubcomp calc keizer-prizes`): what the prizes would be, before the leader finalises them.
///
/// The scenario's work limits apply (as for `/calc/keizer`), and at most 1,500
/// `playoff_results`.
#[utoipa::path(tag = "calculators",
    request_body(content = Object, content_type = "application/json",
        description = "A Keizer scenario with `half` (and `playoff_seed`, `playoff_results` for a summer half) (docs/formats/keizer-prizes.md)",
        example = json!({"half": "summer", "playoff_seed": 7,
            "players": [{"id": "a", "rating": 2000}, {"id": "b", "rating": 1900}],
            "evenings": [{"games": [{"white": "a", "black": "b", "result": "1-0"}]}]})),
    responses((status = 200, description = "The final table, eligibility, prizes and playoffs", body = Object),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body too large (without a token: over `CALC_ANON_MAX_BODY_BYTES`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many calculator requests without a token from this address (`CALC_ANON_RATE_PER_MINUTE`; Retry-After)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid scenario or playoff input (field, evening and player named), or over a work limit (limit named)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The calculators are busy, or the calculation spent its time budget (Retry-After)", body = Problem, content_type = "application/problem+json")))]
#[post("/calc/keizer-prizes")]
pub async fn create_keizer_prizes_calculation(
    admission: CalcAdmission,
    state: web::Data<AppState>,
    body: Body<Value>,
) -> ApiResult<HttpResponse> {
    use clubcomp_engine::keizer::prizes_preview;
    scenario_calculation(admission, &state, body, "keizer-prizes", prizes_preview).await
}

/// Round-robin standings, points tables, prize money, rights and cross table
/// (`docs/formats/round-robin-scenario.md`, the same JSON as `clubcomp calc round-robin`).
///
/// Work limits (422 naming the limit; defaults, configurable): at most 100 players
/// (`LIMIT_ROUND_ROBIN_PLAYERS`: the cross table grows with the square) and 20,000 games
/// (`LIMIT_ROUND_ROBIN_GAMES`); lists of places or players (prize money, points tables,
/// rights, lots) no longer than the player limit.
#[utoipa::path(tag = "calculators",
    request_body(content = Object, content_type = "application/json",
        description = "A round-robin scenario (docs/formats/round-robin-scenario.md)",
        example = json!({"discipline": "draughts", "players": [{"id": "a"}, {"id": "b"}],
            "games": [{"round": 1, "white": "a", "black": "b", "result": "2-0"}], "lots_seed": 7})),
    responses((status = 200, description = "Standings and cross table", body = Object),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body too large (without a token: over `CALC_ANON_MAX_BODY_BYTES`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many calculator requests without a token from this address (`CALC_ANON_RATE_PER_MINUTE`; Retry-After)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid scenario (round and players named), or over a work limit (limit named)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The calculators are busy, or the calculation spent its time budget (Retry-After)", body = Problem, content_type = "application/problem+json")))]
#[post("/calc/round-robin")]
pub async fn create_round_robin_calculation(
    admission: CalcAdmission,
    state: web::Data<AppState>,
    body: Body<Value>,
) -> ApiResult<HttpResponse> {
    use clubcomp_engine::round_robin::{Scenario, compute_round_robin};
    let v = body.into_inner()?;
    calc_input::round_robin_scenario(&v, &state.config.limits)?;
    let out = state
        .calc
        .run(admission.0, "round-robin", move |_| {
            let s: Scenario = serde_json::from_value(v).map_err(|e| {
                engine_error(format!(
                    "not a round-robin scenario: {}",
                    crate::error::plain_serde_message(&e.to_string())
                ))
            })?;
            compute_round_robin(&s).map_err(engine_error)
        })
        .await?;
    Ok(HttpResponse::Ok().json(out))
}

/// The Keizer pairing of one evening (docs/rules/keizer.md#pairing), the check of a hand-made pairing, the
/// proposed calendar or one evening's attendance: the same JSON in and out as
/// `clubcomp calc keizer-pairing` (`mode`: `pair` (default), `validate`, `calendar`,
/// `attendance`; format in `docs/formats/keizer-pairing.md`). A rule answer (no pairing
/// possible, violations found) is a 200 with `ok: false` / `valid: false`, as the command
/// line prints it; malformed input is a 422.
///
/// Work limits (422 naming the limit; defaults, configurable): at most 300 players in the
/// ranking or attendance list (`LIMIT_KEIZER_PLAYERS`) and 20,000 earlier meetings, changes
/// or calendar dates (`LIMIT_KEIZER_HISTORY`).
#[utoipa::path(tag = "calculators",
    request_body(content = Object, content_type = "application/json",
        description = "A keizer-pairing request (docs/decisions/0003-keizer-pairing-calendar-attendance.md)",
        example = json!({"evening": 1, "half": "winter", "bye_seed": 1,
            "ranking": [{"id": "a", "present": true}, {"id": "b", "present": true}],
            "history": []})),
    responses((status = 200, description = "The command line's JSON answer", body = Object),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body too large (without a token: over `CALC_ANON_MAX_BODY_BYTES`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many calculator requests without a token from this address (`CALC_ANON_RATE_PER_MINUTE`; Retry-After)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid request, or over a work limit (limit named)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The calculators are busy, or the calculation spent its time budget (Retry-After)", body = Problem, content_type = "application/problem+json")))]
#[post("/calc/keizer-pairing")]
pub async fn create_keizer_pairing_calculation(
    admission: CalcAdmission,
    state: web::Data<AppState>,
    body: Body<Value>,
) -> ApiResult<HttpResponse> {
    let v = body.into_inner()?;
    let limits = state.config.limits;
    calc_input::keizer_pairing(&v, &limits)?;
    let out = state
        .calc
        .run(admission.0, "keizer-pairing", move |_| {
            // the command line's entry point too, so both answer the same JSON
            crate::services::calc::keizer_pairing(v, &limits)
                .map(|(json, _)| json)
                .map_err(engine_error)
        })
        .await?;
    Ok(HttpResponse::Ok().json(out))
}

/// Which Swiss system pairs the next round.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum SwissSystem {
    /// FIDE Dutch (C.04.3), one game per round.
    #[default]
    Dutch,
    /// Burstein (C.04.4.2) as bbpPairings `--burstein` pairs it (not FIDE-endorsed), one game
    /// per round.
    Burstein,
    /// FIDE Double-Swiss (C.04.5): a match of two games per round, stored in TRF as two
    /// consecutive rounds.
    DoubleSwiss,
}

/// Query of `POST /calc/pair`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PairQuery {
    /// `dutch` (default), `burstein` or `double_swiss`.
    pub system: Option<SwissSystem>,
}

/// One board of the next round.
#[derive(Debug, Serialize, ToSchema, PartialEq, Eq)]
pub struct CalcBoard {
    /// Board number, 1 = top; the bye comes last.
    pub board: u32,
    /// Pairing number of White (in game 1 for a Double-Swiss), or of the player with the bye.
    pub white: u32,
    /// Pairing number of Black (in game 1); null for the pairing-allocated bye.
    #[schema(required = true)]
    pub black: Option<u32>,
}

/// The pairing of the next round.
#[derive(Debug, Serialize, ToSchema)]
pub struct CalcPairing {
    /// The system used.
    pub system: SwissSystem,
    /// The round paired (1-based; a Double-Swiss match counts as one round).
    pub round: u32,
    /// The boards, the bye last.
    pub boards: Vec<CalcBoard>,
}

/// The engines' text format (bbpPairings): the number of boards, then `WHITE BLACK` per
/// board, the bye as `ID 0`.
pub fn boards_text(boards: &[CalcBoard]) -> String {
    let mut s = format!("{}\n", boards.len());
    for b in boards {
        s.push_str(&format!("{} {}\n", b.white, b.black.unwrap_or(0)));
    }
    s
}

/// Reads a body whole, at most `limit` bytes (413 above).
async fn read_body(mut payload: web::Payload, limit: usize) -> ApiResult<web::BytesMut> {
    use futures_util::StreamExt;
    let mut buf = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk =
            chunk.map_err(|e| ApiError::BadRequest(format!("cannot read the body: {e}")))?;
        if buf.len() + chunk.len() > limit {
            return Err(ApiError::PayloadTooLarge(format!(
                "the body is larger than {limit} bytes"
            )));
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(buf)
}

/// Whether the client prefers `text/plain` over JSON (`Accept` order; JSON by default).
fn wants_text(req: &HttpRequest) -> bool {
    let Some(accept) = req
        .headers()
        .get(actix_web::http::header::ACCEPT)
        .and_then(|h| h.to_str().ok())
    else {
        return false;
    };
    for part in accept.split(',') {
        let media = part.split(';').next().unwrap_or("").trim();
        match media {
            "text/plain" | "text/*" => return true,
            "application/json" | "application/*" | "*/*" => return false,
            _ => {}
        }
    }
    false
}

/// Pairs the next round of a TRF file (TRF-16 as UTF-8 bytes, the body as it is: sent as
/// `application/octet-stream` or `text/plain`) with the FIDE Dutch system
/// (the same pairings as `clubcomp pair --dutch`, bbpPairings-compatible), the Burstein system
/// (as `clubcomp pair --burstein` and bbpPairings `--burstein`) or the Double-Swiss.
/// JSON boards by default; the engines' text format with `Accept: text/plain`. A file without
/// a valid pairing, or with a line that cannot be read, is a 422 naming the line, player or
/// round; so is a file that is empty, not UTF-8 text, or pairs a player with himself or twice
/// in a round.
///
/// Work limits (422 naming the limit, counted before the file is read; defaults,
/// configurable): at most 500 players (`LIMIT_SWISS_PLAYERS`) and 30 rounds
/// (`LIMIT_SWISS_ROUNDS`; a Double-Swiss game counts as a round). The pairing runs within the
/// time budget (`CALC_TIME_BUDGET_MS`, default 10 s).
#[utoipa::path(tag = "calculators", params(PairQuery),
    request_body(content = inline(crate::schemas::FileBody), content_type = "application/octet-stream",
        description = "A TRF-16 file as UTF-8 bytes (`text/plain` is taken too)"),
    responses((status = 200, description = "The next round's boards (JSON, or the engines' text format with Accept: text/plain)",
            content((CalcPairing = "application/json"), (String = "text/plain"))),
        (status = 400, description = "Invalid query string", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body too large (without a token: over `CALC_ANON_MAX_BODY_BYTES`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many calculator requests without a token from this address (`CALC_ANON_RATE_PER_MINUTE`; Retry-After)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Unreadable TRF, no valid pairing, or over a work limit (limit named)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The calculators are busy, or the calculation spent its time budget (Retry-After)", body = Problem, content_type = "application/problem+json")))]
#[post("/calc/pair")]
pub async fn create_pairing_calculation(
    req: HttpRequest,
    admission: CalcAdmission,
    state: web::Data<AppState>,
    q: crate::api::Params<PairQuery>,
    payload: web::Payload,
) -> ApiResult<HttpResponse> {
    let system = q.into_inner()?.system.unwrap_or_default();
    let bytes = read_body(payload, crate::api::body_limit(&req)).await?;
    let text = calc_input::trf_text("body", &bytes)?.to_string();
    drop(bytes);
    calc_input::trf_size("body", &text, &state.config.limits)?;
    let pairing = state
        .calc
        .run(admission.0, "pairing", move |stop| {
            let t = parse_trf(&text).map_err(engine_error)?;
            drop(text);
            if t.players.is_empty() {
                return Err(engine_error("the TRF file has no player lines (001)"));
            }
            calc_input::trf_pairings("body", &t)?;
            match system {
                SwissSystem::Dutch => pair_dutch(&t, stop, SwissSystem::Dutch),
                SwissSystem::Burstein => pair_dutch(&t, stop, SwissSystem::Burstein),
                SwissSystem::DoubleSwiss => pair_double_swiss(&t),
            }
        })
        .await?;
    if wants_text(&req) {
        Ok(HttpResponse::Ok()
            .content_type("text/plain; charset=utf-8")
            .body(boards_text(&pairing.boards)))
    } else {
        Ok(HttpResponse::Ok().json(pairing))
    }
}

/// A single-game Swiss system: the Dutch or the Burstein one.
fn pair_dutch(
    t: &Tournament,
    stop: &dyn clubcomp_engine::Stop,
    system: SwissSystem,
) -> ApiResult<CalcPairing> {
    let round = next_round(t);
    let paired = if system == SwissSystem::Burstein {
        pair_burstein_round_until(t, round, stop)
    } else {
        pair_round_until(t, round, stop)
    };
    // no valid pairing is a rule answer about this file: 422 like any other input error
    let boards = paired.map_err(|e: PairError| engine_error(e))?;
    Ok(CalcPairing {
        system,
        round,
        boards: boards
            .iter()
            .enumerate()
            .map(|(i, b)| CalcBoard {
                board: i as u32 + 1,
                white: b.white,
                black: b.black,
            })
            .collect(),
    })
}

fn pair_double_swiss(t: &Tournament) -> ApiResult<CalcPairing> {
    // The Double-Swiss system scores matches 1 / ½ / 0 per game; another point system is
    // refused at its line (docs/decisions/0270-point-systems.md).
    if let Some(line) = clubcomp_engine::swiss::non_standard_point_line(t).map_err(engine_error)? {
        return Err(engine_error(format!(
            "line {line}: the Double-Swiss system supports only the standard scoring (win 1, \
             draw 0.5, loss 0)"
        )));
    }
    let state = double_swiss_state(t)?;
    let next = ds::pair_next_round(&state).map_err(engine_error)?;
    let mut boards: Vec<CalcBoard> = next
        .pairings
        .iter()
        .map(|p| CalcBoard {
            board: p.board,
            white: p.white,
            black: Some(p.black),
        })
        .collect();
    if let Some(b) = next.bye {
        boards.push(CalcBoard {
            board: boards.len() as u32 + 1,
            white: b,
            black: None,
        });
    }
    Ok(CalcPairing {
        system: SwissSystem::DoubleSwiss,
        round: next.round,
        boards,
    })
}

/// One game's result from the side of its White player, given both players' entries.
fn ds_result(own: ResultCode, other: ResultCode) -> Option<DsResult> {
    use ResultCode as R;
    Some(match own {
        R::Win | R::UnratedWin => DsResult::WhiteWins,
        R::Draw | R::UnratedDraw => DsResult::Draw,
        R::Loss | R::UnratedLoss => DsResult::BlackWins,
        R::ForfeitWin => DsResult::WhiteForfeitWin,
        R::ForfeitLoss if other == R::ForfeitLoss => DsResult::DoubleForfeit,
        R::ForfeitLoss => DsResult::BlackForfeitWin,
        _ => return None,
    })
}

/// Reads a Double-Swiss TRF (every match is two consecutive rounds in the file, one per game)
/// into the engine's state. The matches played are the complete pairs of rounds every player
/// has; a player with an entry for the next match is absent from it. (Decision, docs/rules/rapid-blitz.md#double-swiss and
/// docs/rules/README.md#exchange-with-other-programs: see `docs/decisions/0010-calculators-calendar-demo.md`.)
pub fn double_swiss_state(t: &Tournament) -> ApiResult<ds::State> {
    let bad = |player: u32, game_round: usize, why: &str| {
        engine_error(format!("player {player}, round {}: {why}", game_round + 1))
    };
    let fewest = t.players.iter().map(|p| p.rounds.len()).min().unwrap_or(0);
    let matches = fewest / 2;
    let mut rounds = Vec::with_capacity(matches);
    for k in 0..matches {
        let (g1, g2) = (2 * k, 2 * k + 1);
        let mut rec = ds::RoundRecord::default();
        for p in &t.players {
            let (e1, e2) = (p.rounds[g1], p.rounds[g2]);
            match (e1.opponent, e2.opponent) {
                (None, None) => {
                    let (r1, r2) = (e1.result, e2.result);
                    let kind = if r1 == ResultCode::PairingBye || r2 == ResultCode::PairingBye {
                        ByeKind::Pairing
                    } else {
                        match r1.half_points() + r2.half_points() {
                            0 => ByeKind::Zero,
                            4 => ByeKind::Full,
                            _ => ByeKind::Half,
                        }
                    };
                    rec.byes.push(ds::Bye { player: p.id, kind });
                }
                (Some(q), Some(q2)) if q == q2 => {
                    let white_in_game1 = match e1.colour {
                        Some(Colour::White) => true,
                        Some(Colour::Black) => false,
                        None => p.id < q,
                    };
                    if !white_in_game1 {
                        continue; // the match is read from its game-1 White
                    }
                    let other = t.player(q).ok_or_else(|| {
                        bad(p.id, g1, &format!("opponent {q} is not in the file"))
                    })?;
                    let (o1, o2) = match (other.rounds.get(g1), other.rounds.get(g2)) {
                        (Some(a), Some(b)) => (*a, *b),
                        _ => return Err(bad(q, g1, "the match has no entry")),
                    };
                    if o1.opponent != Some(p.id) || o2.opponent != Some(p.id) {
                        return Err(bad(q, g1, &format!("does not name {} as opponent", p.id)));
                    }
                    let game1 = ds_result(e1.result, o1.result)
                        .ok_or_else(|| bad(p.id, g1, "the game has no result"))?;
                    let game2 = ds_result(o2.result, e2.result)
                        .ok_or_else(|| bad(q, g2, "the game has no result"))?;
                    rec.matches.push(ds::Match {
                        white: p.id,
                        black: q,
                        game1,
                        game2,
                    });
                }
                _ => {
                    return Err(bad(
                        p.id,
                        g2,
                        "a Double-Swiss match is two games against the same opponent",
                    ));
                }
            }
        }
        rounds.push(rec);
    }
    let absent = t
        .players
        .iter()
        .filter(|p| p.rounds.len() > 2 * matches)
        .map(|p| p.id)
        .collect();
    Ok(ds::State {
        players: t
            .players
            .iter()
            .map(|p| ds::DoubleSwissPlayer {
                id: p.id,
                name: p.name.clone(),
                rating: (p.rating > 0).then_some(p.rating),
            })
            .collect(),
        rounds,
        absent,
    })
}

/// A tie-break acronym the calculator reads: every one the engine takes, each Cut-n and
/// Median-n with n from 1 to 30, as the engine writes them.
#[derive(Debug)]
pub struct TiebreakAcronym;

impl utoipa::PartialSchema for TiebreakAcronym {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some(
                "A FIDE tie-break acronym (C.07, individual events): `PTS`, `DE`, `WIN`, `WON`, `BPG`, `BWG`, `REP` (also `GE`), `PS`, `KS`, `BH`, `FB`, `SB`, `AOB`, `ARO`, `TPR`, `PTP`, `APRO` or `APPO`; Cut-n (`-Cn`) on `PS`, `BH`, `FB`, `SB` and `ARO`, Median-n (`-Mn`) on `BH`, `FB`, `SB` and `ARO`, n from 1 to 30. The list names each as the answers write it; lower case and `/` for `-` are read too.",
            ))
            .enum_values(Some(crate::schemas::standings_tiebreaks()))
            .into()
    }
}

impl utoipa::ToSchema for TiebreakAcronym {}

crate::schemas::string_enum_schema!(
    pub TiebreakRules,
    "An edition of the FIDE tie-break regulations: `2024` or `2026`.",
    ["2024", "2026"]
);

crate::schemas::string_enum_schema!(
    pub TiebreakEvent,
    "A kind of event: `swiss` or `round-robin`.",
    ["swiss", "round-robin"]
);

/// A tie-break request: a TRF file and the tie-break list.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"trf": "012 Club\n001    1      A                                 2000                             1.0    1     2 w 1\n001    2      B                                 1900                             0.0    2     1 b 0\n", "tiebreaks": ["PTS", "DE", "BH-M1", "SB"]}))]
pub struct TiebreaksRequest {
    /// The TRF-16 file as text.
    pub trf: String,
    /// Tie-break acronyms in order (C.07 2024: `PTS`, `DE`, `WIN`, `BH`, `BH-C1`, `BH-M1`,
    /// `SB`, `ARO`, `TPR`, …); `PTS` is put first when missing. Default `PTS, DE, BH-M1, SB`.
    #[schema(value_type = Option<Vec<TiebreakAcronym>>)]
    pub tiebreaks: Option<Vec<String>>,
    /// Edition of the FIDE tie-break regulations: `2024` (default) or `2026`.
    #[schema(value_type = Option<TiebreakRules>)]
    pub rules: Option<String>,
    /// `swiss` or `round-robin`; detected from the TRF when omitted.
    #[schema(value_type = Option<TiebreakEvent>)]
    pub event: Option<String>,
    /// Games per round (1, or 2 for a Double-Swiss); read from the TRF when omitted.
    #[schema(minimum = 1, maximum = 2)]
    pub games_per_round: Option<u8>,
    /// The rating an unrated player counts with in the rating-based tie-breaks (`ARO`, `TPR`,
    /// `PTP`, `APRO`, `APPO`), as the tournament regulations fix it. Without it, those
    /// tie-breaks are `null` for everyone when a player of the TRF is unrated.
    #[schema(minimum = 0, maximum = 4000)]
    pub unrated_rating: Option<u32>,
}

/// FIDE tie-breaks (C.07) of a TRF file with every value, as `clubcomp calc tiebreaks`
/// prints them. An empty or binary TRF, and an acronym listed twice, are refused (422).
///
/// Work limits (422 naming the limit; defaults, configurable): at most 500 players
/// (`LIMIT_SWISS_PLAYERS`) and 30 rounds (`LIMIT_SWISS_ROUNDS`) in the TRF, and 16 acronyms.
#[utoipa::path(tag = "calculators", request_body = TiebreaksRequest,
    responses((status = 200, description = "Standings with every tie-break value", body = Object),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body too large (without a token: over `CALC_ANON_MAX_BODY_BYTES`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many calculator requests without a token from this address (`CALC_ANON_RATE_PER_MINUTE`; Retry-After)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Unreadable, empty or binary TRF (line named), unknown or repeated tie-break, or over a work limit (limit named)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The calculators are busy, or the calculation spent its time budget (Retry-After)", body = Problem, content_type = "application/problem+json")))]
#[post("/calc/tiebreaks")]
pub async fn create_tiebreaks_calculation(
    admission: CalcAdmission,
    state: web::Data<AppState>,
    body: Body<TiebreaksRequest>,
) -> ApiResult<HttpResponse> {
    use clubcomp_engine::tiebreaks::{
        Cut, EventKind, RulesEdition, Tiebreak, compute_tiebreaks, read_trf,
    };
    let b = body.into_inner()?;
    let rules = b
        .rules
        .as_deref()
        .map(|r| r.trim().parse::<RulesEdition>())
        .transpose()
        .map_err(|why| ApiError::invalid("rules", why))?
        .unwrap_or_default();
    let event = b
        .event
        .as_deref()
        .map(|e| e.trim().parse::<EventKind>())
        .transpose()
        .map_err(|why| ApiError::invalid("event", why))?;
    if b.games_per_round.is_some_and(|g| !(1..=2).contains(&g)) {
        return Err(ApiError::invalid("games_per_round", "must be 1 or 2"));
    }
    if b.unrated_rating.is_some_and(|r| r > 4000) {
        return Err(ApiError::invalid(
            "unrated_rating",
            "must be from 0 to 4000",
        ));
    }
    let list = match &b.tiebreaks {
        None => vec![
            Tiebreak::Pts,
            Tiebreak::De,
            Tiebreak::BH_M1,
            Tiebreak::Sb(Cut::NONE),
        ],
        Some(v) if v.is_empty() => vec![Tiebreak::Pts],
        Some(v) => calc_input::tiebreak_list(v)?,
    };
    calc_input::trf_chars("trf", &b.trf)?;
    calc_input::trf_size("trf", &b.trf, &state.config.limits)?;
    let out = state
        .calc
        .run(admission.0, "tiebreaks", move |_| {
            let mut input =
                read_trf(&b.trf).map_err(|e| ApiError::invalid("trf", e.to_string()))?;
            input.rules = rules;
            if let Some(e) = event {
                input.event = e;
            }
            if let Some(g) = b.games_per_round {
                input.games_per_round = g;
            }
            if b.unrated_rating.is_some() {
                input.unrated_rating = b.unrated_rating;
            }
            compute_tiebreaks(&input, &list).map_err(|e| ApiError::invalid("trf", e.to_string()))
        })
        .await?;
    Ok(HttpResponse::Ok().json(out))
}
