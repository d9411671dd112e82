-- Protests to the KNDB protest committee against a decision of the tournament direction in a
-- draughts championship (docs/rules/draughts-championship.md#protests): one row per protest,
-- the committee's ruling recorded once, with the result it gave when it gave one.
CREATE TABLE protests (
    id BIGSERIAL PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    claim_id BIGINT REFERENCES claims(id) ON DELETE CASCADE,
    event_id BIGINT REFERENCES game_events(id) ON DELETE CASCADE,
    decided_at TIMESTAMP NOT NULL,
    grounds TEXT NOT NULL,
    in_writing BOOLEAN NOT NULL,
    deposit_paid BOOLEAN NOT NULL,
    lodged_by TEXT NOT NULL,
    lodged_at TIMESTAMP NOT NULL,
    last_day DATE,
    ruling TEXT,
    ruling_reason TEXT,
    result TEXT,
    ruled_by TEXT,
    ruled_at TIMESTAMP
);
CREATE INDEX protests_game_idx ON protests (game_id);
