-- Matches hosted by the referee: one row per match, its seats, and an append-only event log.

CREATE TABLE matches (
    id               UUID PRIMARY KEY,
    game             TEXT NOT NULL,
    -- The rules version the match was created under; replay always uses it.
    rules_version    TEXT NOT NULL,
    options          JSONB NOT NULL,
    randomness       TEXT NOT NULL CHECK (randomness IN ('server', 'table')),
    -- Server randomness only: the seed stays secret until the match is over; its SHA-256 is public.
    seed             TEXT,
    seed_sha256      TEXT,
    owner_token_hash BYTEA NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('in_progress', 'finished')),
    -- Number of events in the log: the ply of the last event.
    version          BIGINT NOT NULL CHECK (version >= 0),
    -- Snapshot of the full state after `version` events; always equal to the replay of the log.
    state            JSONB NOT NULL,
    result           JSONB,
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    finished_at      TIMESTAMPTZ,
    CHECK ((randomness = 'server') = (seed IS NOT NULL AND seed_sha256 IS NOT NULL)),
    CHECK ((status = 'finished') = (finished_at IS NOT NULL))
);

-- History lists are newest first with keyset pagination on (created_at, id).
CREATE INDEX matches_created_idx ON matches (created_at DESC, id DESC);
CREATE INDEX matches_game_created_idx ON matches (game, created_at DESC, id DESC);
CREATE INDEX matches_status_created_idx ON matches (status, created_at DESC, id DESC);

CREATE TABLE match_seats (
    match_id    UUID NOT NULL REFERENCES matches (id),
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    player_name TEXT NOT NULL,
    token_hash  BYTEA NOT NULL,
    -- Filled when the match is over.
    final_score BIGINT,
    final_rank  INTEGER,
    winner      BOOLEAN,
    PRIMARY KEY (match_id, seat)
);

-- "Matches of a player" (names compare case-insensitively).
CREATE INDEX match_seats_player_idx ON match_seats (lower(player_name), match_id);

CREATE TABLE match_events (
    match_id        UUID NOT NULL REFERENCES matches (id),
    ply             BIGINT NOT NULL CHECK (ply >= 1),
    -- The seat that moved, or NULL for a chance outcome (deal, draw, roll).
    seat            INTEGER,
    payload         JSONB NOT NULL,
    -- Set on the first event of a client request that carried an Idempotency-Key.
    idempotency_key TEXT,
    request_hash    BYTEA,
    response        JSONB,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, ply),
    UNIQUE (match_id, idempotency_key)
);

-- The log is append-only: history is never rewritten.
CREATE FUNCTION match_events_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'match_events is append-only';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER match_events_append_only
    BEFORE UPDATE OR DELETE ON match_events
    FOR EACH ROW EXECUTE FUNCTION match_events_append_only();
