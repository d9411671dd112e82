-- The grace period of a refresh (docs/decisions/0387-refresh-grace.md): a spent token keeps the
-- random value its successor was derived from, so a retry within the grace period answers the
-- same successor. The successor itself is not stored (only its SHA-256, as every token's).
ALTER TABLE refresh_tokens ADD COLUMN successor_seed TEXT;
