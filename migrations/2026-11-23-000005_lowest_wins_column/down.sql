ALTER TABLE matches DROP COLUMN lowest_wins;
