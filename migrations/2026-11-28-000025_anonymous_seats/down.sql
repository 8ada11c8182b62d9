ALTER TABLE match_seats DROP COLUMN anonymous;
