DROP INDEX rating_changes_latest_idx;
DROP INDEX rating_changes_order_idx;
CREATE INDEX rating_changes_order_idx ON rating_changes (game, rated_at, match_id);
DROP INDEX matches_rated_order_idx;
CREATE INDEX matches_game_finished_idx ON matches (game, finished_at, id) WHERE status = 'finished';
ALTER TABLE rating_changes DROP COLUMN rated_order;
ALTER TABLE matches DROP COLUMN rated_order;
DROP SEQUENCE result_arrivals;
