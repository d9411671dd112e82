DROP TABLE check_in_closures;
