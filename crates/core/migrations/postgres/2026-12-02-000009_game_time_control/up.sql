-- A game's own time control, agreed for that game (JSON text in the shape of the
-- competition's time control). NULL: the game is played at the competition's tempo.
ALTER TABLE games ADD COLUMN time_control TEXT;
