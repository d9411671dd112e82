-- A token carries its user's generation; a password reset, disabling and re-enabling raise
-- it, which ends every token issued before.
ALTER TABLE users ADD COLUMN token_generation BIGINT NOT NULL DEFAULT 0;
-- Login throttling keys per (account, address), per address and per account; a key whose
-- window ended blocked keeps a strike, and each strike doubles its next window. `expires` is
-- when the row may be swept. The counters are short-lived, so the old rows are dropped.
DROP TABLE login_attempts;
CREATE TABLE login_attempts (
    key TEXT PRIMARY KEY,
    attempts INTEGER NOT NULL,
    since TIMESTAMP NOT NULL,
    strikes INTEGER NOT NULL DEFAULT 0,
    expires TIMESTAMP NOT NULL
);
CREATE INDEX login_attempts_expires ON login_attempts (expires);
