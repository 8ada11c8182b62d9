DROP INDEX matches_finished_idx;
ALTER TABLE match_seats DROP COLUMN highlights;
