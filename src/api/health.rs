//! Liveness and readiness.

use crate::error::{ApiError, ApiResult, UNAVAILABLE};
use crate::state::AppState;
use actix_web::{HttpResponse, get, web};
use serde::Serialize;
use utoipa::ToSchema;

/// Health answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`.
    pub status: clubcomp_core::vocab::HealthStatus,
}

/// The process is up.
#[utoipa::path(tag = "operations", operation_id = "get_healthz",
    responses((status = 200, description = "The process is up", body = Health)))]
#[get("/healthz")]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(Health {
        status: clubcomp_core::vocab::HealthStatus::Up,
    })
}

/// The service can do its work: a database connection comes within the pool's wait, every
/// migration the binary embeds is applied, the schema answers a query, and a write goes
/// through (in a transaction that is rolled back). Otherwise 503 with `Retry-After`; the
/// cause is logged, never shown.
#[utoipa::path(tag = "operations", operation_id = "get_readyz",
    responses((status = 200, description = "The database is reachable, at the expected schema version and writable", body = Health),
              (status = 503, description = "The database is unreachable, behind the expected schema version, or refuses writes (read-only, disk full)", body = crate::error::Problem, content_type = "application/problem+json",
               headers(("Retry-After" = u64, description = "Seconds to wait before asking again")))))]
#[get("/readyz")]
pub async fn readyz(state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    state
        .tx(crate::services::health::check)
        .await
        .map_err(|e| {
            if !matches!(e, ApiError::Unavailable(_)) {
                tracing::error!(cause = %e, "readiness check failed");
            }
            ApiError::Unavailable(UNAVAILABLE.into())
        })?;
    Ok(HttpResponse::Ok().json(Health {
        status: clubcomp_core::vocab::HealthStatus::Up,
    }))
}
