-- Figures people brag about (jackpots by symbol, LUCK OUTs, best lei...), per seat of a finished
-- match, as the game computed them: statistics add them up.
ALTER TABLE match_seats ADD COLUMN highlights JSONB;

-- Statistics and history by player read finished matches in the order they ended.
CREATE INDEX matches_finished_idx ON matches (finished_at, id) WHERE status = 'finished';
