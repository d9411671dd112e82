-- The event log (docs/decisions/0220-event-log.md): one row per change the changes feed and the
-- event stream report, written in the transaction of the change. Ids are taken under a
-- transaction-scoped advisory lock at the end of the writing transaction, so they commit in
-- order and a reader following by id never skips one. No foreign keys: an event outlives the
-- rows it names.
CREATE TABLE events (
    id BIGSERIAL PRIMARY KEY,
    kind TEXT NOT NULL,
    occurred_at TIMESTAMP NOT NULL,
    competition_id BIGINT,
    evening_id BIGINT,
    game_id BIGINT,
    payload TEXT NOT NULL,
    visibility TEXT NOT NULL
);
CREATE INDEX events_occurred_idx ON events (occurred_at);
CREATE INDEX events_competition_idx ON events (competition_id, id);
