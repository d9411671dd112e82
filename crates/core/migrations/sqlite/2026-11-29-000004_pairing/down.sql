DROP TABLE attendance_deadlines;
