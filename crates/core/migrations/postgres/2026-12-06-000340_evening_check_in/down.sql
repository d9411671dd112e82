DROP TABLE evening_check_ins;
