-- The lobby: abandoned matches and sheets, open seats claimed by invite code, rematches.

-- An abandoned match stays in history but never finished: statistics, which read finished
-- matches only, leave it out.
ALTER TABLE matches DROP CONSTRAINT matches_status_check;
ALTER TABLE matches ADD CONSTRAINT matches_status_check
    CHECK (status IN ('in_progress', 'finished', 'abandoned'));

-- One invite per open seat. Only the code's SHA-256 is kept (like tokens); a redeemed invite
-- stays as the record that the seat was claimed, and can never be redeemed again.
CREATE TABLE match_invites (
    match_id    UUID NOT NULL,
    seat        INTEGER NOT NULL,
    code_hash   BYTEA NOT NULL UNIQUE,
    created_at  TIMESTAMPTZ NOT NULL,
    redeemed_at TIMESTAMPTZ,
    PRIMARY KEY (match_id, seat),
    FOREIGN KEY (match_id, seat) REFERENCES match_seats (match_id, seat)
);

-- A match has at most one rematch, and a match is the rematch of at most one.
CREATE TABLE match_rematches (
    match_id   UUID PRIMARY KEY REFERENCES matches (id),
    rematch_id UUID NOT NULL UNIQUE REFERENCES matches (id)
);
