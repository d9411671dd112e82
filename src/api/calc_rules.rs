//! The rapid and blitz calculators (docs/rules/rapid-blitz.md#the-calculators): who plays off
//! first place, and how many rounds a blitz field plays. Public, nothing stored, the same
//! JSON as `clubcomp calc swiss-playoff` and `clubcomp calc blitz-rounds`
//! (`clubcomp_core::services::calc_rules`).

use crate::api::Body;
use crate::api::calc::CalcAdmission;
use crate::error::{ApiResult, Problem};
use crate::services::calc_rules::{
    BlitzRoundsAnswer, BlitzRoundsRequest, PlayoffAnswer, PlayoffRequest, blitz_rounds,
    swiss_playoff,
};
use crate::state::AppState;
use actix_web::{HttpResponse, post, web};

/// Who must play off first place of a Swiss, from its final standings list: in the blitz
/// championship everyone level on points for first, in the rapid only the players still level
/// after the whole tie-break list (`GET /competitions/{id}/playoff` decides it the same way);
/// with `guest_title` `members_only` the blitz leaves guests out. Answers the candidates, the
/// champion when there is one, and the play-off games by FIDE's Berger tables.
///
/// Bounds (422 naming the row and field): at most `LIMIT_SWISS_PLAYERS` rows, ids of 1 to 64
/// characters named once, points from 0 to 1000, at most 16 tie-break values (as many in
/// every row), the rows in the order of a standings list.
#[utoipa::path(tag = "calculators", request_body = PlayoffRequest,
    responses((status = 200, description = "The candidates, the champion or the play-off games", body = PlayoffAnswer),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body too large (without a token: over `CALC_ANON_MAX_BODY_BYTES`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many calculator requests without a token from this address (`CALC_ANON_RATE_PER_MINUTE`; Retry-After)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A row out of bounds or out of order (row and field named), or over a work limit (limit named)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The calculators are busy, or the calculation spent its time budget (Retry-After)", body = Problem, content_type = "application/problem+json")))]
#[post("/calc/swiss-playoff")]
pub async fn create_swiss_playoff_calculation(
    admission: CalcAdmission,
    state: web::Data<AppState>,
    body: Body<PlayoffRequest>,
) -> ApiResult<HttpResponse> {
    let req = body.into_inner()?;
    let limits = state.config.limits;
    let out: PlayoffAnswer = state
        .calc
        .run(admission.0, "swiss-playoff", move |_| {
            swiss_playoff(&req, &limits)
        })
        .await?;
    Ok(HttpResponse::Ok().json(out))
}

/// The number of Swiss rounds of a blitz championship from the number of participants, as
/// closing its check-in fixes it: ⌈log2 n⌉ + `extra_rounds`, at most `max_rounds` and at most
/// n − 1 (0 for fewer than two players), and which of the three bounds it.
///
/// Bounds (422 naming the field): `participants` at most `LIMIT_SWISS_PLAYERS`,
/// `extra_rounds` 0 to 10, `max_rounds` 1 to 99 (the `blitz` block's ranges and defaults).
#[utoipa::path(tag = "calculators", request_body = BlitzRoundsRequest,
    responses((status = 200, description = "The number of rounds", body = BlitzRoundsAnswer),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body too large (without a token: over `CALC_ANON_MAX_BODY_BYTES`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many calculator requests without a token from this address (`CALC_ANON_RATE_PER_MINUTE`; Retry-After)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field out of its range (field named), or over a work limit (limit named)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The calculators are busy (Retry-After)", body = Problem, content_type = "application/problem+json")))]
#[post("/calc/blitz-rounds")]
pub async fn create_blitz_rounds_calculation(
    admission: CalcAdmission,
    state: web::Data<AppState>,
    body: Body<BlitzRoundsRequest>,
) -> ApiResult<HttpResponse> {
    let req = body.into_inner()?;
    let limits = state.config.limits;
    let out: BlitzRoundsAnswer = state
        .calc
        .run(admission.0, "blitz-rounds", move |_| {
            blitz_rounds(&req, &limits)
        })
        .await?;
    Ok(HttpResponse::Ok().json(out))
}
