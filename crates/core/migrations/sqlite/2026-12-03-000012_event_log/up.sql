-- The event log (docs/decisions/0220-event-log.md): one row per change the changes feed and the
-- event stream report, written in the transaction of the change. AUTOINCREMENT: an id is never
-- used twice, even after the newest rows were purged. No foreign keys: an event outlives the
-- rows it names.
CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
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
