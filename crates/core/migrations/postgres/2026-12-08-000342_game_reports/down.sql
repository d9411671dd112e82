DROP TABLE game_reports;
