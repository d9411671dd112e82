DROP TABLE member_preferences;
