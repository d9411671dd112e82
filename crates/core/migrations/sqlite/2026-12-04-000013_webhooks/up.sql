-- Webhook subscriptions and their deliveries (docs/decisions/0222-webhooks.md). A subscription
-- follows the event log with its own cursor (`last_event_id`: the newest event it has queued
-- deliveries for); each delivery holds the body it sends, so a retry sends the same bytes even
-- after the event was purged. The secret is kept as given: deliveries are signed with it.
CREATE TABLE webhooks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    url TEXT NOT NULL,
    description TEXT NOT NULL,
    event_types TEXT NOT NULL,
    secret TEXT NOT NULL,
    enabled BOOLEAN NOT NULL,
    last_event_id BIGINT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE TABLE webhook_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    webhook_id BIGINT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event_id BIGINT NOT NULL,
    event_type TEXT NOT NULL,
    body TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at TIMESTAMP NOT NULL,
    last_attempt_at TIMESTAMP,
    last_status_code INTEGER,
    last_error TEXT,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX webhook_deliveries_queue ON webhook_deliveries (webhook_id, status, id);
