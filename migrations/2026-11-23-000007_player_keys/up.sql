-- A player's identity is a key computed by the service (records::name_key: NFKC, invisible
-- characters removed, runs of spaces made one, trimmed, lower-cased, NFKC again), stored beside
-- the name as written, so histories, statistics and filters compare keys, not lower(name).
-- Existing seats get the same key computed in SQL (PostgreSQL's lower() in a UTF-8 database is
-- the same simple mapping for all but a few characters); names written from now on get the
-- service's.
ALTER TABLE match_seats ADD COLUMN player_key TEXT;
UPDATE match_seats SET player_key = normalize(lower(btrim(regexp_replace(regexp_replace(
    normalize(player_name, NFKC),
    '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u2800\u3164\uFE00-\uFE0F\uFEFF\uFFA0]',
    '', 'g'), '\s+', ' ', 'g'))), NFKC);
ALTER TABLE match_seats ALTER COLUMN player_key SET NOT NULL;
DROP INDEX match_seats_player_idx;
CREATE INDEX match_seats_player_key_idx ON match_seats (player_key, match_id);

-- The running totals, recounted under the new keys (names that were two keys may now be one).
DELETE FROM player_game_stats;
INSERT INTO player_game_stats (game, player_key, player_name, played, won, score_sum)
SELECT m.game, s.player_key, max(s.player_name), count(*),
       count(*) FILTER (WHERE s.winner), coalesce(sum(s.final_score), 0)
FROM match_seats s JOIN matches m ON m.id = s.match_id
WHERE m.status = 'finished'
GROUP BY m.game, s.player_key;
