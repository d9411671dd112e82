DROP TABLE protests;
