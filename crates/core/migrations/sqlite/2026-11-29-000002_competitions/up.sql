CREATE TABLE seasons (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    opening_date DATE NOT NULL,
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE evenings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    season_id BIGINT NOT NULL REFERENCES seasons(id) ON DELETE CASCADE,
    date DATE NOT NULL,
    start_time TEXT NOT NULL,
    kind TEXT NOT NULL,
    half TEXT,
    number INTEGER,
    note TEXT,
    version BIGINT NOT NULL DEFAULT 1,
    UNIQUE (season_id, date)
);

CREATE TABLE competitions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    season_id BIGINT NOT NULL REFERENCES seasons(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    discipline TEXT NOT NULL,
    system TEXT,
    half TEXT,
    seeded_from BIGINT REFERENCES competitions(id),
    params TEXT NOT NULL,
    tiebreaks TEXT NOT NULL,
    time_control TEXT NOT NULL,
    rules TEXT NOT NULL,
    rounds_planned INTEGER,
    version BIGINT NOT NULL DEFAULT 1,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (season_id, name)
);

CREATE TABLE entrants (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    competition_id BIGINT NOT NULL REFERENCES competitions(id) ON DELETE CASCADE,
    player_id BIGINT NOT NULL REFERENCES players(id),
    seed INTEGER NOT NULL,
    rating INTEGER,
    joins_at INTEGER NOT NULL DEFAULT 1,
    excused_before INTEGER NOT NULL DEFAULT 0,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (competition_id, player_id)
);

CREATE TABLE rounds (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    competition_id BIGINT NOT NULL REFERENCES competitions(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    evening_id BIGINT REFERENCES evenings(id),
    date DATE,
    status TEXT NOT NULL,
    pairing_meta TEXT,
    version BIGINT NOT NULL DEFAULT 1,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (competition_id, number)
);

CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    round_id BIGINT NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    board INTEGER NOT NULL,
    game_no INTEGER NOT NULL DEFAULT 1,
    white_id BIGINT REFERENCES players(id),
    black_id BIGINT REFERENCES players(id),
    result TEXT,
    termination TEXT,
    move_count INTEGER,
    version BIGINT NOT NULL DEFAULT 1,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (round_id, board, game_no)
);

CREATE TABLE attendance (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    round_id BIGINT NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    player_id BIGINT NOT NULL REFERENCES players(id),
    action TEXT NOT NULL,
    channel TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    at TIMESTAMP NOT NULL,
    note TEXT
);
CREATE INDEX attendance_round_idx ON attendance (round_id, player_id);

CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    entity TEXT NOT NULL,
    entity_id BIGINT NOT NULL,
    action TEXT NOT NULL,
    actor TEXT NOT NULL,
    at TIMESTAMP NOT NULL,
    old_value TEXT,
    new_value TEXT,
    reason TEXT
);
CREATE INDEX audit_entity_idx ON audit_log (entity, entity_id);

CREATE TABLE cache_stamps (
    scope TEXT PRIMARY KEY,
    stamp BIGINT NOT NULL
);

ALTER TABLE users ADD COLUMN player_id BIGINT;
