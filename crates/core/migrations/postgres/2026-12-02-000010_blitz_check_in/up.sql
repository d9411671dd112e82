-- The check-in of the blitz championship, once closed (docs/rules/rapid-blitz.md#the-blitz-championship):
-- how many participants were checked in and the number of rounds fixed from them. One row per
-- competition: check-in closes once.
CREATE TABLE check_in_closures (
    competition_id BIGINT PRIMARY KEY REFERENCES competitions(id) ON DELETE CASCADE,
    participants INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    closed_by TEXT NOT NULL,
    closed_at TIMESTAMP NOT NULL
);
