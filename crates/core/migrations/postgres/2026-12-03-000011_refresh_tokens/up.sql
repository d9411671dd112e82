-- Refresh tokens (docs/decisions/0215-refresh-tokens.md): only the SHA-256 of each token is
-- kept. A login starts a family; every refresh spends its token and adds the next one to the
-- family. `generation` is the user's token generation when the family started: a password
-- reset, disabling and re-enabling end the family.
CREATE TABLE refresh_tokens (
    id BIGSERIAL PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    family TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    generation BIGINT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    spent_at TIMESTAMP,
    revoked_at TIMESTAMP
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family);
CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id);
CREATE INDEX refresh_tokens_expires ON refresh_tokens (expires_at);
