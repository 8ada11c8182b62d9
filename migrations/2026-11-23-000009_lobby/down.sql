DROP TABLE match_rematches;
DROP TABLE match_invites;

-- The older schema has no abandoned status: such matches go back to being in progress.
UPDATE matches SET status = 'in_progress' WHERE status = 'abandoned';
ALTER TABLE matches DROP CONSTRAINT matches_status_check;
ALTER TABLE matches ADD CONSTRAINT matches_status_check
    CHECK (status IN ('in_progress', 'finished'));
