-- Single-use links of accounts (docs/decisions/0321-account-links.md): invitations, password
-- resets and changes of address. Only the SHA-256 of a token is kept; a token works once
-- (`used_at`) and until `expires_at`. `new_email` is the address a change confirms.
CREATE TABLE account_tokens (
    id BIGSERIAL PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    purpose TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    new_email TEXT,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    used_at TIMESTAMP
);
CREATE INDEX account_tokens_user ON account_tokens (user_id, purpose);
ALTER TABLE users ADD COLUMN email_verified_at TIMESTAMP;
