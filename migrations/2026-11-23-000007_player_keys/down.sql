-- Back to lower(player_name) as the key, the totals recounted under it.
DELETE FROM player_game_stats;
INSERT INTO player_game_stats (game, player_key, player_name, played, won, score_sum)
SELECT m.game, lower(s.player_name), max(s.player_name), count(*),
       count(*) FILTER (WHERE s.winner), coalesce(sum(s.final_score), 0)
FROM match_seats s JOIN matches m ON m.id = s.match_id
WHERE m.status = 'finished'
GROUP BY m.game, lower(s.player_name);

DROP INDEX match_seats_player_key_idx;
CREATE INDEX match_seats_player_idx ON match_seats (lower(player_name), match_id);
ALTER TABLE match_seats DROP COLUMN player_key;
