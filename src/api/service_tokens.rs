//! Service tokens for rating-sync jobs (admin only): issue, list, revoke.

use crate::api::{Page, PageParams, Params};
use crate::auth::{Admin, Auth, Role, format_roles, parse_roles};
use crate::error::{ApiError, ApiResult, Problem};
use crate::ids::ServiceTokenId;
use crate::services::service_tokens::ServiceToken;
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A service token record (the token itself is shown once, at creation).
#[derive(Debug, Serialize, ToSchema)]
pub struct ServiceTokenView {
    /// Id.
    pub id: i64,
    /// What the token is for.
    pub name: String,
    /// Roles.
    pub roles: Vec<Role>,
    /// Issued (RFC 3339 UTC).
    #[schema(format = DateTime)]
    pub created_at: String,
    /// Revoked (RFC 3339 UTC), if so.
    #[schema(format = DateTime)]
    #[schema(required = true)]
    pub revoked_at: Option<String>,
}

impl From<ServiceToken> for ServiceTokenView {
    fn from(t: ServiceToken) -> Self {
        ServiceTokenView {
            id: t.id.get(),
            name: t.name,
            roles: parse_roles(&t.roles),
            created_at: crate::wire::timestamp(t.created_at.and_utc()),
            revoked_at: t.revoked_at.map(|d| crate::wire::timestamp(d.and_utc())),
        }
    }
}

/// A newly issued token.
#[derive(Debug, Serialize, ToSchema)]
pub struct IssuedServiceToken {
    /// The record.
    #[serde(flatten)]
    pub record: ServiceTokenView,
    /// The bearer token (shown only now).
    pub token: String,
    /// Expiry (RFC 3339 UTC).
    #[schema(format = DateTime)]
    pub expires_at: String,
}

/// A token request.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "nightly KNSB sync", "valid_days": 365}))]
pub struct CreateServiceToken {
    /// What the token is for: not only blanks, at most 200 bytes of UTF-8 once leading and
    /// trailing blanks are dropped (200 characters without accents, fewer with them).
    #[schema(min_length = 1, max_length = 200, pattern = r"\S")]
    pub name: String,
    /// Lifetime in days, 1–1000 (default 365).
    #[schema(minimum = 1, maximum = 1000)]
    pub valid_days: Option<i64>,
}

/// Lists service tokens, newest first (by id), a page at a time (docs/api-guide.md#paging);
/// revoked ones stay in the list with their revocation time.
#[utoipa::path(tag = "service-tokens", params(PageParams),
    responses((status = 200, description = "One page of tokens, newest first", body = Page<ServiceTokenView>,
            headers(("Link" = String, description = "RFC 8288 links to the first, previous, next and last pages"))),
        (status = 400, description = "A query parameter the list does not know (named)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "page or per_page out of range", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin"])))]
#[get("/service-tokens")]
pub async fn list_service_tokens(
    _a: Auth<Admin>,
    state: web::Data<AppState>,
    req: HttpRequest,
    q: Params<PageParams>,
) -> ApiResult<HttpResponse> {
    let paging = q.into_inner()?.paging()?;
    let (rows, total) = state
        .db(move |c| crate::services::service_tokens::page(c, paging.limit, paging.offset))
        .await?;
    let items: Vec<ServiceTokenView> = rows.into_iter().map(ServiceTokenView::from).collect();
    Ok(paging.answer(&req, total, items))
}

/// Issues a `rating_sync` service token.
#[utoipa::path(tag = "service-tokens", request_body = CreateServiceToken,
    responses((status = 201, description = "Issued", body = IssuedServiceToken),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid fields", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin"])))]
#[post("/service-tokens")]
pub async fn create_service_token(
    auth: Auth<Admin>,
    state: web::Data<AppState>,
    body: crate::api::Body<CreateServiceToken>,
) -> ApiResult<HttpResponse> {
    let b = body.into_inner()?;
    let name = b.name.trim().to_string();
    if name.is_empty() || name.len() > 200 {
        return Err(ApiError::invalid("name", "must be 1–200 characters"));
    }
    crate::services::input::checked_one_line("name", &name)?;
    let days = b.valid_days.unwrap_or(365);
    if !(1..=1000).contains(&days) {
        return Err(ApiError::invalid("valid_days", "must be from 1 to 1000"));
    }
    let creator = auth.principal.user_id;
    let record = state
        .tx(move |c| {
            crate::services::service_tokens::create(
                c,
                &name,
                &format_roles(&[Role::RatingSync]),
                creator,
            )
        })
        .await?;
    let (token, exp) = state.jwt.issue(
        format!("service:{}", record.id),
        vec![Role::RatingSync],
        chrono::Duration::days(days),
    )?;
    Ok(HttpResponse::Created().json(IssuedServiceToken {
        record: record.into(),
        token,
        expires_at: crate::api::auth::rfc3339(exp),
    }))
}

/// Revokes a service token: it stops working at once.
#[utoipa::path(tag = "service-tokens",
    params(("id" = i64, Path, description = "Token id")),
    responses((status = 204, description = "Revoked"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such token", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin"])))]
#[delete("/service-tokens/{id}")]
pub async fn revoke_service_token(
    _a: Auth<Admin>,
    state: web::Data<AppState>,
    path: web::Path<ServiceTokenId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    state
        .tx(move |c| crate::services::service_tokens::revoke(c, id))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
