DROP TABLE player_game_stats;
