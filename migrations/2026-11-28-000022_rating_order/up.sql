-- Ratings follow the order results reach the service (docs/ratings.md, "The order"), not the
-- dates they carry: a result is rated once, when it arrives, after every result that arrived
-- before it, so a file of plays dated far back or far ahead re-rates nothing of anyone else's.
-- A corrected result keeps its place; a reopened one gives it up and takes a new one when it
-- finishes again.
CREATE SEQUENCE result_arrivals;
ALTER TABLE matches ADD COLUMN rated_order BIGINT;
ALTER TABLE rating_changes ADD COLUMN rated_order BIGINT;

-- The results already stored keep the order they were rated in (when they finished, then id),
-- so their stored ratings stand as they are.
WITH ordered AS (
    SELECT id, row_number() OVER (ORDER BY finished_at, id) AS place
    FROM matches WHERE status = 'finished' AND finished_at IS NOT NULL
)
UPDATE matches m SET rated_order = o.place FROM ordered o WHERE o.id = m.id;
UPDATE rating_changes c SET rated_order = m.rated_order FROM matches m WHERE m.id = c.match_id;
SELECT setval('result_arrivals', coalesce((SELECT max(rated_order) FROM matches), 0) + 1, false);
ALTER TABLE rating_changes ALTER COLUMN rated_order SET NOT NULL;

DROP INDEX matches_game_finished_idx;
CREATE INDEX matches_rated_order_idx ON matches (game, rated_order) WHERE rated_order IS NOT NULL;
DROP INDEX rating_changes_order_idx;
CREATE INDEX rating_changes_order_idx ON rating_changes (game, rated_order);
-- A player's latest change per game (the rating a re-rating starts from).
CREATE INDEX rating_changes_latest_idx ON rating_changes (player_key, game, rated_order);
