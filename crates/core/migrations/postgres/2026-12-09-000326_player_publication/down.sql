ALTER TABLE players DROP COLUMN publication;
