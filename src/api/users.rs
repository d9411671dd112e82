//! User administration (admin only): create, list, set roles, disable, reset passwords.

use crate::api::{Page, PageParams};
use crate::auth::{Admin, Auth, Role, hash_password, parse_roles};
use crate::error::{ApiError, ApiResult, Problem};
use crate::ids::{PlayerId, UserId};
use crate::services::users::MIN_PASSWORD;
use crate::services::users::{self, User};
use crate::state::AppState;
use actix_web::{HttpResponse, get, patch, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A user as the API shows it (never the password hash).
#[derive(Debug, Serialize, ToSchema)]
pub struct UserView {
    /// Id.
    pub id: i64,
    /// E-mail (login name).
    pub email: String,
    /// Roles.
    pub roles: Vec<Role>,
    /// Whether the account may log in.
    pub active: bool,
    /// The player this account belongs to (members sign up and off for this player).
    #[schema(required = true)]
    pub player_id: Option<i64>,
    /// Created (RFC 3339 UTC).
    #[schema(format = DateTime)]
    pub created_at: String,
}

impl From<User> for UserView {
    fn from(x: User) -> UserView {
        UserView {
            id: x.id.get(),
            email: x.email,
            roles: parse_roles(&x.roles),
            active: x.active,
            player_id: x.player_id.map(PlayerId::get),
            created_at: crate::wire::timestamp(x.created_at.and_utc()),
        }
    }
}

/// A new user.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"email": "arbiter@club.example", "password": "a long secret", "roles": ["arbiter"]}))]
pub struct CreateUser {
    /// E-mail: one `@` with something before it, no blanks inside, a dot inside the domain;
    /// at most 254 bytes of UTF-8 once leading and trailing blanks are dropped.
    #[schema(
        max_length = 254,
        pattern = r"^\s*[^\s@]+@[^\s@.][^\s@]*\.[^\s@]*[^\s@.]\s*$"
    )]
    pub email: String,
    /// Password (at least 8 characters).
    #[schema(min_length = 8)]
    pub password: String,
    /// Roles (at least one): admin, leader, arbiter, member, rating_sync.
    #[schema(value_type = Vec<Role>, min_items = 1)]
    pub roles: Vec<String>,
}

/// Changes to a user.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateUser {
    /// New role list (at least one role; replaces the old one).
    #[schema(value_type = Option<Vec<Role>>, min_items = 1)]
    pub roles: Option<Vec<String>>,
    /// Enable or disable the account (a disabled account's tokens stop working at once; both
    /// changes end every token issued before them).
    pub active: Option<bool>,
    /// Link the account to a player (or `null` to unlink).
    #[serde(default, deserialize_with = "crate::api::double_option")]
    #[schema(value_type = Option<i64>)]
    pub player_id: Option<Option<i64>>,
}

/// A new password.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResetPassword {
    /// The new password (at least 8 characters).
    #[schema(min_length = 8)]
    pub password: String,
}

/// Lists users.
#[utoipa::path(tag = "users", params(PageParams),
    responses((status = 200, description = "Users, by id", body = Page<UserView>,
            headers(("Link" = String, description = "RFC 8288 links to the first, previous, next and last pages"))),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin"])))]
#[get("/users")]
pub async fn list_users(
    req: actix_web::HttpRequest,
    _auth: Auth<Admin>,
    state: web::Data<AppState>,
    q: crate::api::Params<PageParams>,
) -> ApiResult<HttpResponse> {
    let paging = q.into_inner()?.paging()?;
    let (limit, offset) = (paging.limit, paging.offset);
    let (rows, total) = state
        .db(move |c| {
            // the total and the rows from one snapshot, so the page agrees
            users::page(c, limit, offset)
        })
        .await?;
    let items: Vec<UserView> = rows.into_iter().map(UserView::from).collect();
    Ok(paging.answer(&req, total, items))
}

/// Creates a user.
#[utoipa::path(tag = "users", request_body = CreateUser,
    responses((status = 201, description = "Created", body = UserView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "E-mail taken", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid fields", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin"])))]
#[post("/users")]
pub async fn create_user(
    _auth: Auth<Admin>,
    state: web::Data<AppState>,
    body: crate::api::Body<CreateUser>,
) -> ApiResult<HttpResponse> {
    let b = body.into_inner()?;
    let user = state
        .tx(move |c| crate::services::users::create_user(c, &b.email, &b.password, &b.roles))
        .await?;
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/api/v1/users/{}", user.id)))
        .json(UserView::from(user)))
}

/// Sets a user's roles or enables/disables the account.
#[utoipa::path(tag = "users", request_body = UpdateUser,
    params(("id" = i64, Path, description = "User id")),
    responses((status = 200, description = "Updated", body = UserView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such user", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "An admin cannot disable or demote their own account", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid fields", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin"])))]
#[patch("/users/{id}")]
pub async fn update_user(
    auth: Auth<Admin>,
    state: web::Data<AppState>,
    path: web::Path<UserId>,
    body: crate::api::Body<UpdateUser>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let me = auth.principal.user_id;
    let user = state
        .tx(move |c| {
            crate::services::users::update_user(
                c,
                id,
                me,
                crate::services::users::UserChanges {
                    roles: b.roles,
                    active: b.active,
                    player_id: b.player_id.map(|p| p.map(PlayerId)),
                },
            )
        })
        .await?;
    Ok(HttpResponse::Ok().json(UserView::from(user)))
}

/// Resets a user's password; every token issued to the user before ends.
#[utoipa::path(tag = "users", request_body = ResetPassword,
    params(("id" = i64, Path, description = "User id")),
    responses((status = 204, description = "Password reset"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such user", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Password too short", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin"])))]
#[post("/users/{id}/password")]
pub async fn reset_password(
    _auth: Auth<Admin>,
    state: web::Data<AppState>,
    path: web::Path<UserId>,
    body: crate::api::Body<ResetPassword>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let pw = body.into_inner()?.password;
    if pw.chars().count() < MIN_PASSWORD {
        return Err(ApiError::invalid(
            "password",
            format!("must be at least {MIN_PASSWORD} characters"),
        ));
    }
    let hash = web::block(move || hash_password(&pw)).await??;
    state
        .tx(move |c| crate::services::users::set_password_hash(c, id, &hash))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
