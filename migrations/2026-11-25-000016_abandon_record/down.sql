DROP TABLE name_key_scheme;
ALTER TABLE player_game_stats DROP COLUMN abandoned;
DELETE FROM player_game_stats WHERE played = 0;
DROP TABLE match_abandons;
