DROP TABLE prize_lists;
