-- Failed-login throttling, shared by every instance on the database: one row per account
-- ("acct:<e-mail>") and per client address ("addr:<ip>"), counting the attempts since the
-- start of its 15-minute window.
CREATE TABLE login_attempts (
    key TEXT PRIMARY KEY,
    attempts INTEGER NOT NULL,
    since TIMESTAMP NOT NULL
);
CREATE INDEX login_attempts_since ON login_attempts (since);
