//! Liveness and readiness.

use crate::app::AppState;
use crate::error::ApiResult;
use actix_web::{HttpResponse, get, web};
use serde::Serialize;
use utoipa::ToSchema;

/// Health answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`.
    pub status: &'static str,
}

/// The process is up.
#[utoipa::path(tag = "operations", operation_id = "get_healthz",
    responses((status = 200, description = "The process is up", body = Health)))]
#[get("/healthz")]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(Health { status: "ok" })
}

/// The database is reachable.
#[utoipa::path(tag = "operations", operation_id = "get_readyz",
    responses((status = 200, description = "The database is reachable", body = Health),
              (status = 503, description = "The database is not reachable", body = crate::error::Problem, content_type = "application/problem+json")))]
#[get("/readyz")]
pub async fn readyz(state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    state
        .db(|conn| {
            use diesel::RunQueryDsl;
            diesel::sql_query("SELECT 1").execute(conn)?;
            Ok(())
        })
        .await
        .map_err(|e| match e {
            crate::error::ApiError::Internal(m) => crate::error::ApiError::Unavailable(m),
            other => other,
        })?;
    Ok(HttpResponse::Ok().json(Health { status: "ok" }))
}
