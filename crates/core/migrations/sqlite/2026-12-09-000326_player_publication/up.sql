-- How a player's name is shown to the public (docs/decisions/0326-player-publication.md):
-- `full` (the default), `initials` or `hidden`.
ALTER TABLE players ADD COLUMN publication TEXT NOT NULL DEFAULT 'full';
