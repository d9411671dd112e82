-- A member's own choices for the mails the club sends (docs/decisions/0323-member-import.md):
-- the language, and each kind of notification on or off. NULL is the club's default, so a
-- change of the defaults reaches every member who did not choose.
CREATE TABLE member_preferences (
    player_id BIGINT PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
    language TEXT,
    pairing BOOLEAN,
    reminder BOOLEAN,
    result BOOLEAN,
    decision BOOLEAN,
    prizes BOOLEAN,
    updated_at TIMESTAMP NOT NULL
);
