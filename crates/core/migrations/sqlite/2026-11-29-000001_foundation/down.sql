DROP TABLE ratings;
DROP TABLE players;
DROP TABLE service_tokens;
DROP TABLE users;
