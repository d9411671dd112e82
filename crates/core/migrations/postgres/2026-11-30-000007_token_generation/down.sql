DROP TABLE login_attempts;
CREATE TABLE login_attempts (
    key TEXT PRIMARY KEY,
    attempts INTEGER NOT NULL,
    since TIMESTAMP NOT NULL
);
CREATE INDEX login_attempts_since ON login_attempts (since);
ALTER TABLE users DROP COLUMN token_generation;
