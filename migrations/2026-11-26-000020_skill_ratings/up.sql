-- Skill ratings (docs/ratings.md). Each rated result keeps every seat's rating before and after
-- it, so a recomputation (a corrected sheet, an imported older play) restarts from the ratings
-- stored just before the first result it changes, and anyone can audit each step.
-- A result's place in the order is (rated_at, match_id): rated_at is when it finished.
CREATE TABLE rating_changes (
    match_id     UUID NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat         INT NOT NULL,
    game         TEXT NOT NULL,
    player_key   TEXT NOT NULL,
    player_name  TEXT NOT NULL,
    rated_at     TIMESTAMPTZ NOT NULL,
    -- 1 is first; equal ranks tied.
    rank         INT NOT NULL CHECK (rank >= 1),
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL CHECK (sigma_before > 0),
    mu_after     DOUBLE PRECISION NOT NULL,
    sigma_after  DOUBLE PRECISION NOT NULL CHECK (sigma_after > 0),
    PRIMARY KEY (match_id, seat)
);
-- A player's changes per game (history, current rating), and across games (head-to-head).
CREATE INDEX rating_changes_player_idx ON rating_changes (player_key, game, rated_at, match_id);
CREATE INDEX rating_changes_order_idx ON rating_changes (game, rated_at, match_id);

-- Each player's current rating per game: the `after` of their latest change, kept in the
-- transaction that rates, so the leaderboard by rating reads a few index rows.
CREATE TABLE player_ratings (
    game          TEXT NOT NULL,
    player_key    TEXT NOT NULL,
    -- The name at their latest rated result.
    player_name   TEXT NOT NULL,
    mu            DOUBLE PRECISION NOT NULL,
    sigma         DOUBLE PRECISION NOT NULL,
    -- The conservative value a ranking shows.
    ordinal       DOUBLE PRECISION GENERATED ALWAYS AS (mu - 3 * sigma) STORED,
    -- Rated results, and those of them ranked first.
    rated         BIGINT NOT NULL CHECK (rated > 0),
    won           BIGINT NOT NULL CHECK (won >= 0),
    last_rated_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (game, player_key)
);
CREATE INDEX player_ratings_board_idx ON player_ratings (game, ordinal DESC, player_key);

-- A game's finished results in the order they are rated.
CREATE INDEX matches_game_finished_idx ON matches (game, finished_at, id) WHERE status = 'finished';

-- Which rating scheme the stored ratings follow. The service rates every result again at
-- start-up when its scheme is newer (SQL cannot compute the model): here, results finished
-- before ratings existed are rated on the first start after this migration.
CREATE TABLE rating_scheme (
    only_row BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (only_row),
    scheme   INT NOT NULL
);
INSERT INTO rating_scheme (scheme) VALUES (0);
