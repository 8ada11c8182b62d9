DROP TRIGGER sheet_entries_append_only ON sheet_entries;
DROP TABLE sheet_entries;
DELETE FROM match_seats WHERE match_id IN (SELECT id FROM matches WHERE kind = 'sheet');
DELETE FROM matches WHERE kind = 'sheet';
ALTER TABLE match_seats ALTER COLUMN token_hash SET NOT NULL;
ALTER TABLE matches DROP COLUMN kind;
