-- Arbiter tools (docs/rules/arbiter.md#appeals, docs/rules/arbiter.md#draughts-claims, docs/rules/arbiter.md#game-events): the per-game event log, the recorded moves, claims
-- with their checked verdicts, and appeals to the board.

CREATE TABLE game_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    note TEXT,
    actor TEXT NOT NULL,
    at TIMESTAMP NOT NULL,
    UNIQUE (game_id, seq)
);

CREATE TABLE game_moves (
    game_id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    format TEXT NOT NULL,
    movetext TEXT NOT NULL,
    start_fen TEXT,
    plies INTEGER NOT NULL,
    version BIGINT NOT NULL,
    updated_by TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE claims (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    event_seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    claimant TEXT NOT NULL,
    status TEXT NOT NULL,
    valid BOOLEAN,
    check_result TEXT,
    outcome TEXT,
    opponent_extra_seconds INTEGER NOT NULL DEFAULT 0,
    created_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    decided_by TEXT,
    decided_at TIMESTAMP,
    UNIQUE (game_id, event_seq)
);

CREATE TABLE appeals (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    claim_id BIGINT REFERENCES claims(id) ON DELETE CASCADE,
    event_id BIGINT REFERENCES game_events(id) ON DELETE CASCADE,
    decided_at TIMESTAMP NOT NULL,
    grounds TEXT NOT NULL,
    lodged_by TEXT NOT NULL,
    lodged_at TIMESTAMP NOT NULL,
    last_day DATE NOT NULL,
    ruling TEXT,
    ruling_reason TEXT,
    ruled_by TEXT,
    ruled_at TIMESTAMP
);
CREATE INDEX appeals_game_idx ON appeals (game_id);
