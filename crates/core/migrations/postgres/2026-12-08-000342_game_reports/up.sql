-- The results the two players of a game report themselves (docs/rules/arbiter.md#results-reported-by-the-players):
-- one row per player and game, replaced when the player reports again. Two agreeing reports
-- enter the result; two different ones leave the game disputed for the arbiter.
CREATE TABLE game_reports (
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    account TEXT NOT NULL,
    result TEXT NOT NULL,
    reported_at TIMESTAMP NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
