-- The self check-in of an evening (docs/rules/rapid-blitz.md#self-check-in): while it is open
-- (closed_at empty) members check themselves in with the code the venue shows. One row per
-- evening, opened again after a close.
CREATE TABLE evening_check_ins (
    evening_id BIGINT PRIMARY KEY REFERENCES evenings(id) ON DELETE CASCADE,
    opened_by TEXT NOT NULL,
    opened_at TIMESTAMP NOT NULL,
    closed_at TIMESTAMP
);
