DROP TABLE rating_scheme;
DROP INDEX matches_game_finished_idx;
DROP TABLE player_ratings;
DROP TABLE rating_changes;
