//! Webhook subscriptions and their delivery log (admin only; docs/api-guide.md#webhooks).

use crate::api::{Body, Page, PageParams, Params};
use crate::auth::{Admin, Auth};
use crate::error::{ApiResult, Problem};
use crate::ids::{DeliveryId, WebhookId};
use crate::services::webhooks::{
    self as svc, CreatedWebhook, DeliveryStatus, DeliveryView, Draft, WebhookView,
};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, web};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

/// A new subscription.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"url": "https://hooks.example.org/clubcomp", "event_types": ["result.entered", "result.corrected"], "description": "results to the league site"}))]
pub struct CreateWebhook {
    /// Where deliveries are sent: an `http` or `https` URL of at most 2000 bytes, without a
    /// user name, password or fragment; its host must be a public address.
    #[schema(min_length = 1, max_length = 2000, pattern = "^https?://")]
    pub url: String,
    /// The event types to deliver, each at most once; empty or absent: every type.
    #[schema(value_type = Option<Vec<clubcomp_core::vocab::EventType>>, max_items = 14)]
    pub event_types: Option<Vec<String>>,
    /// The signing secret, `whsec_` and the base64 of 24 to 64 bytes; absent: the server
    /// generates one. Shown only in the answer to this request.
    #[schema(pattern = "^whsec_[A-Za-z0-9+/]+={0,2}$", max_length = 100)]
    pub secret: Option<String>,
    /// Whether deliveries are queued and sent (default true).
    pub enabled: Option<bool>,
    /// What it is for: at most 500 characters (default empty).
    #[schema(max_length = 500)]
    pub description: Option<String>,
}

/// Changes to a subscription; absent fields are kept.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"enabled": false}))]
pub struct UpdateWebhook {
    /// Where deliveries are sent (as when created).
    #[schema(min_length = 1, max_length = 2000, pattern = "^https?://")]
    pub url: Option<String>,
    /// The event types to deliver; empty: every type.
    #[schema(value_type = Option<Vec<clubcomp_core::vocab::EventType>>, max_items = 14)]
    pub event_types: Option<Vec<String>>,
    /// A new signing secret (`whsec_…`, 24 to 64 bytes); never shown again.
    #[schema(pattern = "^whsec_[A-Za-z0-9+/]+={0,2}$", max_length = 100)]
    pub secret: Option<String>,
    /// Whether deliveries are queued and sent; once enabled again, the events recorded
    /// from then on are delivered (not those recorded while it was disabled).
    pub enabled: Option<bool>,
    /// What it is for: at most 500 characters.
    #[schema(max_length = 500)]
    pub description: Option<String>,
}

crate::api::paged_query! {
    /// The delivery log's query.
    #[derive(Debug, Deserialize, IntoParams)]
    #[into_params(parameter_in = Query)]
    #[serde(deny_unknown_fields)]
    pub struct DeliveryFilter {
        /// Only deliveries of this status.
        #[param(value_type = Option<DeliveryStatus>)]
        pub status: Option<String>,
    }
}

/// Subscribes a URL to events: the public events recorded from now on are delivered to it,
/// signed as Standard Webhooks with the secret in the answer (shown only now).
#[utoipa::path(tag = "webhooks", request_body = CreateWebhook,
    responses((status = 201, description = "Subscribed; the answer holds the secret", body = CreatedWebhook,
            headers(("Location" = String, description = "The subscription's URL"))),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The limit of 100 subscriptions is reached", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field is invalid (the URL, an event type, the secret, an unknown field)", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin"])))]
#[post("/webhooks")]
pub async fn create_webhook(
    _a: Auth<Admin>,
    state: web::Data<AppState>,
    body: Body<CreateWebhook>,
) -> ApiResult<HttpResponse> {
    let b = body.into_inner()?;
    let checked = svc::check(
        Draft {
            url: Some(b.url),
            event_types: b.event_types,
            secret: b.secret,
            enabled: b.enabled,
            description: b.description,
        },
        state.config.webhook_allow_private,
    )?;
    let created: CreatedWebhook = state.tx(move |c| svc::create(c, checked)).await?;
    Ok(HttpResponse::Created()
        .insert_header((
            "Location",
            format!("/api/v1/webhooks/{}", created.webhook.id),
        ))
        .json(created))
}

/// Lists the subscriptions, by id (never their secrets).
#[utoipa::path(tag = "webhooks", params(PageParams),
    responses((status = 200, description = "Subscriptions, by id", body = Page<WebhookView>,
            headers(("Link" = String, description = "RFC 8288 links to the first, previous, next and last pages"))),
        (status = 400, description = "Bad query", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Bad paging", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin"])))]
#[get("/webhooks")]
pub async fn list_webhooks(
    req: HttpRequest,
    _a: Auth<Admin>,
    state: web::Data<AppState>,
    q: Params<PageParams>,
) -> ApiResult<HttpResponse> {
    let paging = q.into_inner()?.paging()?;
    let (items, total) = state
        .db(move |c| svc::list(c, paging.limit, paging.offset))
        .await?;
    Ok(paging.answer(&req, total, items))
}

/// One subscription (never its secret).
#[utoipa::path(tag = "webhooks", params(("id" = i64, Path, description = "Subscription id")),
    responses((status = 200, description = "The subscription", body = WebhookView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such subscription", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin"])))]
#[get("/webhooks/{id}")]
pub async fn get_webhook(
    _a: Auth<Admin>,
    state: web::Data<AppState>,
    path: web::Path<WebhookId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let w = state.db(move |c| svc::get(c, id)).await?;
    Ok(HttpResponse::Ok().json(w))
}

/// Changes a subscription.
#[utoipa::path(tag = "webhooks", params(("id" = i64, Path, description = "Subscription id")),
    request_body = UpdateWebhook,
    responses((status = 200, description = "Changed", body = WebhookView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such subscription", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field is invalid", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin"])))]
#[patch("/webhooks/{id}")]
pub async fn update_webhook(
    _a: Auth<Admin>,
    state: web::Data<AppState>,
    path: web::Path<WebhookId>,
    body: Body<UpdateWebhook>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let b = body.into_inner()?;
    let checked = svc::check(
        Draft {
            url: b.url,
            event_types: b.event_types,
            secret: b.secret,
            enabled: b.enabled,
            description: b.description,
        },
        state.config.webhook_allow_private,
    )?;
    let w = state.tx(move |c| svc::update(c, id, checked)).await?;
    Ok(HttpResponse::Ok().json(w))
}

/// Deletes a subscription and its delivery log; nothing more is sent to it.
#[utoipa::path(tag = "webhooks", params(("id" = i64, Path, description = "Subscription id")),
    responses((status = 204, description = "Deleted"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such subscription", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin"])))]
#[delete("/webhooks/{id}")]
pub async fn delete_webhook(
    _a: Auth<Admin>,
    state: web::Data<AppState>,
    path: web::Path<WebhookId>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    state.tx(move |c| svc::delete(c, id)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// A subscription's delivery log, newest first: each delivery's status, attempts, the last
/// answer's status code or error.
#[utoipa::path(tag = "webhooks", params(("id" = i64, Path, description = "Subscription id"), DeliveryFilter),
    responses((status = 200, description = "Deliveries, newest first", body = Page<DeliveryView>,
            headers(("Link" = String, description = "RFC 8288 links to the first, previous, next and last pages"))),
        (status = 400, description = "Bad query", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such subscription", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Bad status or paging", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin"])))]
#[get("/webhooks/{id}/deliveries")]
pub async fn list_webhook_deliveries(
    req: HttpRequest,
    _a: Auth<Admin>,
    state: web::Data<AppState>,
    path: web::Path<WebhookId>,
    q: Params<DeliveryFilter>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let f = q.into_inner()?;
    let paging = PageParams::of(f.page, f.per_page).paging()?;
    let status = match f.status.as_deref() {
        Some(s) => Some(svc::check_status("status", s)?),
        None => None,
    };
    let (items, total) = state
        .db(move |c| svc::deliveries(c, id, status, paging.limit, paging.offset))
        .await?;
    Ok(paging.answer(&req, total, items))
}

/// Queues a fresh delivery of a delivery's event: the same body and `webhook-id`, attempted
/// anew after the subscription's other pending deliveries.
#[utoipa::path(tag = "webhooks",
    params(("id" = i64, Path, description = "Subscription id"), ("delivery_id" = i64, Path, description = "Delivery id")),
    responses((status = 202, description = "Queued: the new delivery", body = DeliveryView),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such subscription or delivery", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = ["admin"])))]
#[post("/webhooks/{id}/deliveries/{delivery_id}/redeliver")]
pub async fn redeliver_webhook_delivery(
    _a: Auth<Admin>,
    state: web::Data<AppState>,
    path: web::Path<(WebhookId, DeliveryId)>,
) -> ApiResult<HttpResponse> {
    let (id, delivery) = path.into_inner();
    let d = state.tx(move |c| svc::redeliver(c, id, delivery)).await?;
    Ok(HttpResponse::Accepted().json(d))
}

#[cfg(test)]
mod tests {
    use super::{CreateWebhook, UpdateWebhook};
    use crate::services::events::EventKind;
    use crate::services::webhooks::signature::{MAX_KEY_BYTES, PREFIX};
    use crate::services::webhooks::{MAX_DESCRIPTION_CHARS, MAX_URL_BYTES};
    use utoipa::PartialSchema;

    /// The schema attributes take only literal numbers: these are the bounds the service
    /// checks, as the document states them for a new subscription and for its changes.
    #[test]
    fn the_documented_bounds_are_the_checked_ones() {
        let longest_secret = PREFIX.len() + MAX_KEY_BYTES.div_ceil(3) * 4;
        for (name, schema) in [
            ("CreateWebhook", CreateWebhook::schema()),
            ("UpdateWebhook", UpdateWebhook::schema()),
        ] {
            let doc = serde_json::to_value(schema).unwrap();
            let field = |f: &str, bound: &str| -> u64 {
                doc["properties"][f][bound]
                    .as_u64()
                    .unwrap_or_else(|| panic!("{name}.{f}: no {bound} in {doc}"))
            };
            assert_eq!(field("url", "maxLength"), MAX_URL_BYTES as u64, "{name}");
            assert_eq!(field("url", "minLength"), 1, "{name}");
            assert_eq!(
                field("description", "maxLength"),
                MAX_DESCRIPTION_CHARS as u64,
                "{name}"
            );
            assert_eq!(
                field("event_types", "maxItems"),
                EventKind::ALL.len() as u64,
                "{name}"
            );
            assert!(
                field("secret", "maxLength") >= longest_secret as u64,
                "{name}: a secret of {MAX_KEY_BYTES} bytes is {longest_secret} characters"
            );
        }
    }

    /// The descriptions name the same numbers as the bounds.
    #[test]
    fn the_descriptions_name_the_checked_bounds() {
        let doc = serde_json::to_value(CreateWebhook::schema()).unwrap();
        let text = |f: &str| {
            doc["properties"][f]["description"]
                .as_str()
                .map(str::to_string)
        };
        let url = text("url").unwrap();
        assert!(
            url.contains(&format!("at most {MAX_URL_BYTES} bytes")),
            "{url}"
        );
        let description = text("description").unwrap();
        assert!(
            description.contains(&format!("at most {MAX_DESCRIPTION_CHARS} characters")),
            "{description}"
        );
    }
}
