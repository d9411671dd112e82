-- Per-competition sign-up/sign-off deadline (docs/rules/keizer.md#attendance-and-deadlines: "configurable per competition").
CREATE TABLE attendance_deadlines (
    competition_id BIGINT PRIMARY KEY REFERENCES competitions(id) ON DELETE CASCADE,
    days_before INTEGER NOT NULL,
    deadline_time TEXT NOT NULL
);
