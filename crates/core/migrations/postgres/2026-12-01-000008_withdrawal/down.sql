ALTER TABLE entrants DROP COLUMN withdrawn_from;
