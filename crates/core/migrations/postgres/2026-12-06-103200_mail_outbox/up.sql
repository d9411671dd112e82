-- The mail outbox (docs/decisions/0320-mail-outbox.md): a mail is queued in the transaction of
-- the change that causes it and sent by one worker; a row is never deleted by sending, so no
-- mail is lost to a crash. `message_id` is derived from the event and the recipient, so the
-- same event queues its mail to one recipient once. The bodies are cleared once the mail is
-- sent (they may hold single-use links).
CREATE TABLE mail_outbox (
    id BIGSERIAL PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    recipient TEXT NOT NULL,
    recipient_name TEXT NOT NULL,
    subject TEXT NOT NULL,
    body_text TEXT NOT NULL,
    body_html TEXT NOT NULL,
    unsubscribe_url TEXT,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at TIMESTAMP NOT NULL,
    last_attempt_at TIMESTAMP,
    last_error TEXT,
    created_at TIMESTAMP NOT NULL,
    sent_at TIMESTAMP
);
CREATE INDEX mail_outbox_queue ON mail_outbox (status, next_attempt_at, id);
