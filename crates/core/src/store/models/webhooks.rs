//! `webhooks` and `webhook_deliveries`: the subscriptions of integrations and what was sent to
//! them ([decision 0222](../../../../../docs/decisions/0222-webhooks.md)).

use crate::ids::{DeliveryId, WebhookId};
use crate::store::schema::{webhook_deliveries, webhooks};
use crate::store::{DbConn, MultiBackend};
use crate::vocab::DeliveryStatus;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// A stored subscription.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = webhooks, check_for_backend(MultiBackend))]
pub struct Webhook {
    pub id: WebhookId,
    pub url: String,
    pub description: String,
    /// Event types, comma-separated (empty: every type).
    pub event_types: String,
    /// The signing secret as given (`whsec_<base64>`).
    pub secret: String,
    pub enabled: bool,
    /// The newest event id deliveries were queued for.
    pub last_event_id: i64,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// Insert form of a subscription.
#[derive(Debug, Insertable)]
#[diesel(table_name = webhooks)]
pub struct NewWebhook<'a> {
    pub url: &'a str,
    pub description: &'a str,
    pub event_types: &'a str,
    pub secret: &'a str,
    pub enabled: bool,
    pub last_event_id: i64,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// Changes to a subscription (absent fields are kept).
#[derive(Debug, Default, AsChangeset)]
#[diesel(table_name = webhooks)]
pub struct WebhookChanges {
    pub url: Option<String>,
    pub description: Option<String>,
    pub event_types: Option<String>,
    pub secret: Option<String>,
    pub enabled: Option<bool>,
    pub last_event_id: Option<i64>,
    pub updated_at: Option<NaiveDateTime>,
}

/// A stored delivery.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = webhook_deliveries, check_for_backend(MultiBackend))]
pub struct Delivery {
    pub id: DeliveryId,
    pub webhook_id: WebhookId,
    pub event_id: i64,
    pub event_type: crate::vocab::EventType,
    /// The JSON body sent.
    pub body: String,
    /// `pending`, `delivered` or `failed`.
    pub status: DeliveryStatus,
    pub attempts: i32,
    pub next_attempt_at: NaiveDateTime,
    pub last_attempt_at: Option<NaiveDateTime>,
    pub last_status_code: Option<i32>,
    pub last_error: Option<String>,
    pub created_at: NaiveDateTime,
}

/// Insert form of a delivery.
#[derive(Debug, Insertable)]
#[diesel(table_name = webhook_deliveries)]
pub struct NewDelivery<'a> {
    pub webhook_id: WebhookId,
    pub event_id: i64,
    pub event_type: crate::vocab::EventType,
    pub body: &'a str,
    pub status: DeliveryStatus,
    pub attempts: i32,
    pub next_attempt_at: NaiveDateTime,
    pub created_at: NaiveDateTime,
}

/// The outcome of one attempt.
#[derive(Debug, AsChangeset)]
#[diesel(table_name = webhook_deliveries, treat_none_as_null = true)]
pub struct Attempt {
    pub status: DeliveryStatus,
    pub attempts: i32,
    pub next_attempt_at: NaiveDateTime,
    pub last_attempt_at: Option<NaiveDateTime>,
    pub last_status_code: Option<i32>,
    pub last_error: Option<String>,
}

/// Inserts a subscription.
pub fn insert(conn: &mut DbConn, new: &NewWebhook) -> QueryResult<Webhook> {
    diesel::insert_into(webhooks::table)
        .values(new)
        .returning(webhooks::all_columns)
        .get_result(conn)
}

/// A subscription by id.
pub fn by_id(conn: &mut DbConn, id: WebhookId) -> QueryResult<Option<Webhook>> {
    webhooks::table
        .find(id)
        .select(Webhook::as_select())
        .first(conn)
        .optional()
}

/// How many subscriptions there are.
pub fn count(conn: &mut DbConn) -> QueryResult<i64> {
    webhooks::table.count().get_result(conn)
}

/// One page of the subscriptions, by id.
pub fn page(conn: &mut DbConn, limit: i64, offset: i64) -> QueryResult<Vec<Webhook>> {
    webhooks::table
        .order(webhooks::id)
        .limit(limit)
        .offset(offset)
        .select(Webhook::as_select())
        .load(conn)
}

/// The enabled subscriptions, by id.
pub fn enabled(conn: &mut DbConn) -> QueryResult<Vec<Webhook>> {
    webhooks::table
        .filter(webhooks::enabled.eq(true))
        .order(webhooks::id)
        .select(Webhook::as_select())
        .load(conn)
}

/// Changes a subscription; returns it changed (none when there is no such one).
pub fn update(
    conn: &mut DbConn,
    id: WebhookId,
    changes: &WebhookChanges,
) -> QueryResult<Option<Webhook>> {
    diesel::update(webhooks::table.find(id))
        .set(changes)
        .returning(webhooks::all_columns)
        .get_result(conn)
        .optional()
}

/// Moves a subscription's cursor forward (never back).
pub fn advance(conn: &mut DbConn, id: WebhookId, last_event_id: i64) -> QueryResult<usize> {
    diesel::update(
        webhooks::table
            .filter(webhooks::id.eq(id))
            .filter(webhooks::last_event_id.lt(last_event_id)),
    )
    .set(webhooks::last_event_id.eq(last_event_id))
    .execute(conn)
}

/// Deletes a subscription and its deliveries; returns whether there was one.
pub fn delete(conn: &mut DbConn, id: WebhookId) -> QueryResult<bool> {
    diesel::delete(webhook_deliveries::table.filter(webhook_deliveries::webhook_id.eq(id)))
        .execute(conn)?;
    Ok(diesel::delete(webhooks::table.find(id)).execute(conn)? > 0)
}

/// Queues deliveries.
pub fn insert_deliveries(conn: &mut DbConn, rows: &[NewDelivery]) -> QueryResult<usize> {
    let mut n = 0;
    for r in rows {
        n += diesel::insert_into(webhook_deliveries::table)
            .values(r)
            .execute(conn)?;
    }
    Ok(n)
}

/// A delivery of a subscription.
pub fn delivery(
    conn: &mut DbConn,
    webhook: WebhookId,
    id: DeliveryId,
) -> QueryResult<Option<Delivery>> {
    of_webhook(webhook, None)
        .filter(webhook_deliveries::id.eq(id))
        .select(Delivery::as_select())
        .first(conn)
        .optional()
}

/// The oldest pending delivery of a subscription (the next one it is sent, in order).
pub fn head(conn: &mut DbConn, webhook: WebhookId) -> QueryResult<Option<Delivery>> {
    of_webhook(webhook, Some(DeliveryStatus::Pending))
        .order(webhook_deliveries::id)
        .select(Delivery::as_select())
        .first(conn)
        .optional()
}

/// The oldest pending delivery of every subscription that has one.
pub fn heads(conn: &mut DbConn) -> QueryResult<Vec<Delivery>> {
    let oldest: Vec<Option<DeliveryId>> = webhook_deliveries::table
        .filter(webhook_deliveries::status.eq(DeliveryStatus::Pending))
        .group_by(webhook_deliveries::webhook_id)
        .select(diesel::dsl::min(webhook_deliveries::id))
        .load(conn)?;
    let ids: Vec<DeliveryId> = oldest.into_iter().flatten().collect();
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    webhook_deliveries::table
        .filter(webhook_deliveries::id.eq_any(ids))
        .order(webhook_deliveries::webhook_id)
        .select(Delivery::as_select())
        .load(conn)
}

/// One page of a subscription's deliveries, newest first, with the total; only those of
/// `status` when given.
pub fn deliveries(
    conn: &mut DbConn,
    webhook: WebhookId,
    status: Option<DeliveryStatus>,
    limit: i64,
    offset: i64,
) -> QueryResult<(Vec<Delivery>, i64)> {
    let total = of_webhook(webhook, status).count().get_result(conn)?;
    let rows = of_webhook(webhook, status)
        .order(webhook_deliveries::id.desc())
        .limit(limit)
        .offset(offset)
        .select(Delivery::as_select())
        .load(conn)?;
    Ok((rows, total))
}

/// Records an attempt's outcome.
pub fn record_attempt(conn: &mut DbConn, id: DeliveryId, attempt: &Attempt) -> QueryResult<usize> {
    diesel::update(webhook_deliveries::table.find(id))
        .set(attempt)
        .execute(conn)
}

/// The deliveries of a subscription; only those of `status` when given. The one filter every
/// delivery lookup starts from.
fn of_webhook(
    webhook: WebhookId,
    status: Option<DeliveryStatus>,
) -> webhook_deliveries::BoxedQuery<'static, MultiBackend> {
    let q = webhook_deliveries::table
        .filter(webhook_deliveries::webhook_id.eq(webhook))
        .into_boxed();
    match status {
        Some(s) => q.filter(webhook_deliveries::status.eq(s)),
        None => q,
    }
}
