//! Players (docs/rules/README.md#players-and-ratings): public reads without contact data; writes for leaders and admins.

use crate::api::{Page, PageParams, etag};
use crate::auth::{Auth, Leader, MaybeAuth, Role};
use crate::error::{ApiError, ApiResult, FieldError, Problem};
use crate::ids::PlayerId;
use crate::services::players::{self, NewPlayer, Player, PlayerChanges};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, web};
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;
use utoipa::{IntoParams, ToSchema};

pub use crate::schemas::Membership;
pub use clubcomp_core::publication::Publication;

/// A player as the API shows it. `email` and `phone` only for leaders and admins.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerView {
    /// Id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// KNSB member number.
    #[schema(required = true)]
    pub knsb_number: Option<String>,
    /// FIDE id.
    #[schema(required = true)]
    pub fide_id: Option<String>,
    /// `fixed`, `flexible` or `guest`.
    #[schema(value_type = Membership)]
    pub membership: String,
    /// Active.
    pub active: bool,
    /// The newest rating per source (`KNSB`, `KNSB-rapid`, `FIDE`, `KNDB`).
    pub ratings: BTreeMap<String, i32>,
    /// E-mail (leaders and admins only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Phone (leaders and admins only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    /// How the name is shown to readers who are not officers: `full`, `initials` or
    /// `hidden`; the name above is already as this reader may see it.
    pub publication: Publication,
    /// Version, also the ETag.
    pub version: i64,
    /// The version as the `ETag` a write sends back in `If-Match` (the same as the header).
    pub etag: String,
}

/// A new player.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Anna de Vries", "knsb_number": "8401234", "membership": "fixed", "email": "anna@example.org"}))]
pub struct CreatePlayer {
    /// Name (1–200 characters, not only blanks; leading and trailing blanks are dropped).
    #[schema(min_length = 1, max_length = 200, pattern = r"\S")]
    pub name: String,
    /// KNSB member number (1–12 digits).
    #[schema(pattern = "^[0-9]{1,12}$")]
    pub knsb_number: Option<String>,
    /// FIDE id (1–12 digits).
    #[schema(pattern = "^[0-9]{1,12}$")]
    pub fide_id: Option<String>,
    /// `fixed`, `flexible` or `guest` (default `fixed`).
    #[schema(value_type = Option<Membership>)]
    pub membership: Option<String>,
    /// E-mail (contact data).
    pub email: Option<String>,
    /// Phone (contact data).
    pub phone: Option<String>,
}

/// Deserializes a field that may be absent (`None`), `null` (`Some(None)`) or a value.
pub fn double_option<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

/// Changes to a player; a field set to `null` is cleared, an absent field is kept.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct UpdatePlayer {
    /// Name (1–200 characters, not only blanks; leading and trailing blanks are dropped).
    #[schema(min_length = 1, max_length = 200, pattern = r"\S")]
    pub name: Option<String>,
    /// KNSB member number (1–12 digits), or null.
    #[serde(default, deserialize_with = "double_option")]
    #[schema(value_type = Option<String>, pattern = "^[0-9]{1,12}$")]
    pub knsb_number: Option<Option<String>>,
    /// FIDE id (1–12 digits), or null.
    #[serde(default, deserialize_with = "double_option")]
    #[schema(value_type = Option<String>, pattern = "^[0-9]{1,12}$")]
    pub fide_id: Option<Option<String>>,
    /// Membership: `fixed`, `flexible` or `guest`.
    #[schema(value_type = Option<Membership>)]
    pub membership: Option<String>,
    /// Active.
    pub active: Option<bool>,
    /// E-mail, or null.
    #[serde(default, deserialize_with = "double_option")]
    #[schema(value_type = Option<String>)]
    pub email: Option<Option<String>>,
    /// Phone, or null.
    #[serde(default, deserialize_with = "double_option")]
    #[schema(value_type = Option<String>)]
    pub phone: Option<Option<String>>,
    /// How the name is shown to readers who are not officers: `full`, `initials` or
    /// `hidden` (docs/api-guide.md#publication-of-names).
    pub publication: Option<Publication>,
}

crate::api::paged_query! {
    /// Player list filters.
    #[derive(Debug, Deserialize, IntoParams)]
    #[into_params(parameter_in = Query)]
    #[serde(deny_unknown_fields)]
    pub struct PlayerFilter {
        /// Case-insensitive part of the name.
        pub q: Option<String>,
        /// Only active (true) or inactive (false) players.
        pub active: Option<bool>,
    }
}

fn view(p: Player, ratings: BTreeMap<String, i32>, contact: bool) -> PlayerView {
    PlayerView {
        id: p.id.get(),
        name: p.name,
        knsb_number: p.knsb_number,
        fide_id: p.fide_id,
        membership: p.membership.into(),
        active: p.active,
        ratings,
        email: if contact { p.email } else { None },
        phone: if contact { p.phone } else { None },
        publication: p.publication,
        version: p.version,
        etag: crate::services::version::etag("player", p.id, p.version),
    }
}

fn sees_contact(auth: &MaybeAuth) -> bool {
    auth.0
        .as_ref()
        .is_some_and(|p| p.has_any(&[Role::Leader, Role::Admin]))
}

fn check_digits(field: &str, v: &Option<String>, errs: &mut Vec<FieldError>) {
    if let Some(s) = v
        && (s.is_empty() || s.len() > 12 || !s.chars().all(|c| c.is_ascii_digit()))
    {
        errs.push(FieldError::new(field, "must be 1–12 digits"));
    }
}

/// The contact fields are one-line texts (docs/decisions/0254-one-line-texts.md).
fn check_contact(field: &str, v: Option<&str>, errs: &mut Vec<FieldError>) {
    if let Some(Err(e)) = v.map(|t| crate::services::input::one_line(field, t)) {
        errs.push(e);
    }
}

fn check_name(name: &str, errs: &mut Vec<FieldError>) {
    if let Err(e) = crate::services::input::bounded_name("name", name, 200) {
        errs.push(e);
    } else if clubcomp_core::publication::is_label(name.trim()) {
        errs.push(FieldError::new(
            "name",
            "must not have the shape of a neutral label ('Speler 12', 'Oud-lid 12')",
        ));
    }
}

fn check_membership(m: &str, errs: &mut Vec<FieldError>) -> Option<clubcomp_engine::Membership> {
    let parsed = m.parse().ok();
    if parsed.is_none() {
        errs.push(FieldError::new(
            "membership",
            "must be fixed, flexible or guest",
        ));
    }
    parsed
}

/// Lists players (public), by name, with search and pagination.
#[utoipa::path(tag = "players", params(PlayerFilter),
    responses((status = 200, description = "Players, by name then id", body = Page<PlayerView>,
            headers(("Link" = String, description = "RFC 8288 links to the first, previous, next and last pages"))),
        (status = 400, description = "Bad query", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Bad paging", body = Problem, content_type = "application/problem+json")))]
#[get("/players")]
pub async fn list_players(
    req: actix_web::HttpRequest,
    auth: MaybeAuth,
    state: web::Data<AppState>,
    filter: crate::api::Query<PlayerFilter>,
) -> ApiResult<HttpResponse> {
    let f = filter.into_inner();
    let paging = PageParams::of(f.page, f.per_page).paging()?;
    let (limit, offset) = (paging.limit, paging.offset);
    let contact = sees_contact(&auth);
    let (rows, total) = state
        .db(move |c| players::page(c, f.q.as_deref(), f.active, limit, offset))
        .await?;
    let items = rows.into_iter().map(|(p, r)| view(p, r, contact)).collect();
    Ok(paging.answer(&req, total, items))
}

/// One player (public); the ETag is the player's version.
#[utoipa::path(tag = "players", params(("id" = i64, Path, description = "Player id"),
           ("If-None-Match" = Option<String>, Header, description = "ETag of a previous read")),
    responses((status = 200, description = "The player", body = PlayerView),
        (status = 304, description = "Not modified"),
        (status = 404, description = "No such player", body = Problem, content_type = "application/problem+json")))]
#[get("/players/{id}")]
pub async fn get_player(
    auth: MaybeAuth,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<PlayerId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let contact = sees_contact(&auth);
    let (p, r) = state.db(move |c| players::rated(c, id)).await?;
    let tag = etag("player", p.id, p.version);
    Ok(crate::api::versioned(&req, tag, &view(p, r, contact)))
}

/// Creates a player.
#[utoipa::path(tag = "players", request_body = CreatePlayer,
    responses((status = 201, description = "Created", body = PlayerView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader or admin", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "KNSB number or FIDE id taken", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid fields", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[post("/players")]
pub async fn create_player(
    _auth: Auth<Leader>,
    state: web::Data<AppState>,
    body: crate::api::Body<CreatePlayer>,
) -> ApiResult<HttpResponse> {
    let b = body.into_inner()?;
    let mut errs = Vec::new();
    check_name(&b.name, &mut errs);
    check_contact("email", b.email.as_deref(), &mut errs);
    check_contact("phone", b.phone.as_deref(), &mut errs);
    check_digits("knsb_number", &b.knsb_number, &mut errs);
    check_digits("fide_id", &b.fide_id, &mut errs);
    let membership = match &b.membership {
        Some(m) => check_membership(m, &mut errs),
        None => Some(clubcomp_engine::Membership::Fixed),
    };
    let Some(membership) = membership.filter(|_| errs.is_empty()) else {
        return Err(ApiError::validation(errs));
    };
    let now = crate::services::date::now_utc();
    let p = state
        .tx(move |c| {
            players::create(
                c,
                &NewPlayer {
                    name: b.name.trim().to_string(),
                    knsb_number: b.knsb_number,
                    fide_id: b.fide_id,
                    membership: membership.into(),
                    active: true,
                    email: b.email,
                    phone: b.phone,
                    version: 1,
                    created_at: now,
                    updated_at: now,
                },
            )
        })
        .await?;
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/api/v1/players/{}", p.id)))
        .insert_header(("ETag", etag("player", p.id, p.version)))
        .json(view(p, BTreeMap::new(), true)))
}

async fn apply_changes(
    state: web::Data<AppState>,
    req: &HttpRequest,
    id: PlayerId,
    changes: PlayerChanges,
    actor: String,
) -> ApiResult<HttpResponse> {
    let if_match = crate::api::if_match(req)?;
    let (p, r) = state
        .tx(move |c| players::change_and_view(c, id, &if_match, &changes, &actor))
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header(("ETag", etag("player", p.id, p.version)))
        .json(view(p, r, true)))
}

/// Updates a player; `If-Match` with the ETag guards against lost updates (412 when stale).
#[utoipa::path(tag = "players", request_body = UpdatePlayer,
    params(("id" = i64, Path, description = "Player id"),
           ("If-Match" = Option<String>, Header, description = "ETag from a previous read")),
    responses((status = 200, description = "Updated", body = PlayerView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader or admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such player", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "KNSB number or FIDE id taken", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "Stale If-Match", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid fields", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[patch("/players/{id}")]
pub async fn update_player(
    auth: Auth<Leader>,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<PlayerId>,
    body: crate::api::Body<UpdatePlayer>,
) -> ApiResult<HttpResponse> {
    let b = body.into_inner()?;
    let mut errs = Vec::new();
    if let Some(n) = &b.name {
        check_name(n, &mut errs);
    }
    check_contact(
        "email",
        b.email.as_ref().and_then(Option::as_deref),
        &mut errs,
    );
    check_contact(
        "phone",
        b.phone.as_ref().and_then(Option::as_deref),
        &mut errs,
    );
    if let Some(k) = &b.knsb_number {
        check_digits("knsb_number", k, &mut errs);
    }
    if let Some(f) = &b.fide_id {
        check_digits("fide_id", f, &mut errs);
    }
    let membership = b
        .membership
        .as_deref()
        .and_then(|m| check_membership(m, &mut errs));
    if !errs.is_empty() {
        return Err(ApiError::validation(errs));
    }
    let changes = PlayerChanges {
        name: b.name.map(|n| n.trim().to_string()),
        knsb_number: b.knsb_number,
        fide_id: b.fide_id,
        membership: membership.map(String::from),
        active: b.active,
        email: b.email,
        phone: b.phone,
        publication: b.publication,
    };
    let actor = auth.principal.label;
    apply_changes(state, &req, path.into_inner(), changes, actor).await
}

/// Deactivates a player (kept for history; reactivate with `PATCH {"active": true}`).
#[utoipa::path(tag = "players",
    params(("id" = i64, Path, description = "Player id"),
           ("If-Match" = Option<String>, Header, description = "ETag from a previous read")),
    responses((status = 200, description = "Deactivated", body = PlayerView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a leader or admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such player", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "Stale If-Match", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["leader", "admin"])))]
#[delete("/players/{id}")]
pub async fn deactivate_player(
    auth: Auth<Leader>,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<PlayerId>,
) -> ApiResult<HttpResponse> {
    let changes = PlayerChanges {
        active: Some(false),
        ..Default::default()
    };
    apply_changes(
        state,
        &req,
        path.into_inner(),
        changes,
        auth.principal.label,
    )
    .await
}

/// Erases a former member on request (docs/api-guide.md#erasing-a-former-member): the name
/// becomes `Oud-lid {id}`, contact data and identifiers go, linked accounts are disabled and
/// unlinked, and mails to them are forgotten; games, ratings and standings stay. Needs
/// `If-Match` with the player's ETag.
#[utoipa::path(tag = "players",
    params(("id" = i64, Path, description = "Player id"),
           ("If-Match" = Option<String>, Header, description = "ETag of the player's current version; without it the answer is 428 (the step cannot be undone)")),
    responses((status = 200, description = "Erased", body = PlayerView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such player", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Still entered in a competition that is not over, or linked to an admin's account", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "Stale If-Match", body = Problem, content_type = "application/problem+json"),
        (status = 428, description = "No If-Match", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin"])))]
#[post("/players/{id}/erase")]
pub async fn erase_player(
    auth: Auth<crate::auth::Admin>,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<PlayerId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let if_match = crate::api::if_match(&req)?;
    let actor = auth.principal.label;
    let (p, r) = state
        .tx(move |c| crate::services::erasure::erase_and_view(c, id, &if_match, &actor))
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header(("ETag", etag("player", p.id, p.version)))
        .json(view(p, r, true)))
}
