ALTER TABLE refresh_tokens DROP COLUMN successor_seed;
