-- Which end of the totals won a finished match, in a column of its own: statistics and exports
-- read it here instead of a path inside the stored result. NULL while the match is in progress.
ALTER TABLE matches ADD COLUMN lowest_wins BOOLEAN;

UPDATE matches SET lowest_wins = (result -> 'standings' ->> 'order') = 'lowest_wins'
WHERE status = 'finished' AND result IS NOT NULL;
