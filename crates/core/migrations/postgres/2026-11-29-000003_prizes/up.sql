-- Finalized prize lists (docs/rules/keizer.md#playoffs, docs/rules/draughts-championship.md#prize-money): one per competition, stored as JSON text.
CREATE TABLE prize_lists (
    id BIGSERIAL PRIMARY KEY,
    competition_id BIGINT NOT NULL UNIQUE REFERENCES competitions(id) ON DELETE CASCADE,
    body TEXT NOT NULL,
    finalized_by TEXT NOT NULL,
    finalized_at TIMESTAMP NOT NULL
);
