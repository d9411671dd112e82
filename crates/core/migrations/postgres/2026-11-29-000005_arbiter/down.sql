DROP TABLE appeals;
DROP TABLE claims;
DROP TABLE game_moves;
DROP TABLE game_events;
