-- Running totals per player and game, kept in the same transaction that finishes (or, for a
-- corrected score sheet, re-finishes) a match, so a leaderboard reads a few index rows instead
-- of aggregating every seat of every match.
CREATE TABLE player_game_stats (
    game        TEXT NOT NULL,
    -- lower(player_name): players are names compared case-insensitively.
    player_key  TEXT NOT NULL,
    -- The name as last written.
    player_name TEXT NOT NULL,
    played      BIGINT NOT NULL CHECK (played >= 0),
    won         BIGINT NOT NULL CHECK (won >= 0),
    score_sum   BIGINT NOT NULL,
    PRIMARY KEY (game, player_key)
);

CREATE INDEX player_game_stats_leaderboard_idx
    ON player_game_stats (game, won DESC, played DESC);

INSERT INTO player_game_stats (game, player_key, player_name, played, won, score_sum)
SELECT m.game, lower(s.player_name), max(s.player_name), count(*),
       count(*) FILTER (WHERE s.winner), coalesce(sum(s.final_score), 0)
FROM match_seats s JOIN matches m ON m.id = s.match_id
WHERE m.status = 'finished'
GROUP BY m.game, lower(s.player_name);
