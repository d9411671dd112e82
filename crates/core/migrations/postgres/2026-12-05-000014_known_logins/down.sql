DROP TABLE known_logins;
