-- Households (docs/households.md): records and players that belong to a group. A household's
-- sheets and matches carry its id; its players' keys carry it too (the household's id, a unit
-- separator, then the name's key, which never holds a control character), so two families'
-- "Mum" are two players, and every per-player index is led by the household for its players.
-- The nil id is the public space: every record before this migration, and every record made
-- without a household key.
CREATE TABLE households (
    id         UUID PRIMARY KEY,
    name       TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);

-- A presented key is looked up by its hash before its household is known, so keys have a table
-- of their own keyed (and on Citus sharded) by that hash, as invite codes do. A household has
-- one owner key and one reader key at a time; a rotation replaces one.
CREATE TABLE household_keys (
    key_hash  BYTEA PRIMARY KEY,
    household UUID NOT NULL,
    role      TEXT NOT NULL CHECK (role IN ('owner', 'reader'))
);
CREATE INDEX household_keys_household_idx ON household_keys (household, role);

ALTER TABLE matches
    ADD COLUMN household UUID NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000';
ALTER TABLE player_game_stats
    ADD COLUMN household UUID NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000';
ALTER TABLE player_ratings
    ADD COLUMN household UUID NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000';
ALTER TABLE rating_changes
    ADD COLUMN household UUID NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000';

-- Boards, rating orders and record lists are per household: their indexes lead with it.
DROP INDEX player_game_stats_leaderboard_idx;
CREATE INDEX player_game_stats_leaderboard_idx
    ON player_game_stats (household, game, won DESC, played DESC);
DROP INDEX player_ratings_board_idx;
CREATE INDEX player_ratings_board_idx ON player_ratings (household, game, ordinal DESC, player_key);
DROP INDEX rating_changes_order_idx;
CREATE INDEX rating_changes_order_idx ON rating_changes (household, game, rated_order);
DROP INDEX matches_rated_order_idx;
CREATE INDEX matches_rated_order_idx
    ON matches (household, game, rated_order) WHERE rated_order IS NOT NULL;
CREATE INDEX matches_household_created_idx ON matches (household, created_at DESC, id DESC);
