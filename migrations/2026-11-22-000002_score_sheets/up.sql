-- Score sheets: matches played with real cards and dice, recorded round by round. A sheet is a
-- match of kind 'sheet': same history, players and results as a hosted match, but instead of a
-- move log it keeps the entries people typed, corrections included.

ALTER TABLE matches
    ADD COLUMN kind TEXT NOT NULL DEFAULT 'hosted' CHECK (kind IN ('hosted', 'sheet'));

-- Sheet players have no seat tokens: only the sheet's owner writes to it.
ALTER TABLE match_seats ALTER COLUMN token_hash DROP NOT NULL;

CREATE TABLE sheet_entries (
    match_id   UUID NOT NULL REFERENCES matches (id),
    seq        BIGINT NOT NULL CHECK (seq >= 1),
    -- The round (or hand) this entry describes, from 1.
    round      INTEGER NOT NULL CHECK (round >= 1),
    -- The round in the game's own terms (the game's Tally).
    tally      JSONB NOT NULL,
    -- A correction names the entry it supersedes; the earlier entry stays for the audit trail.
    corrects   BIGINT,
    note       TEXT,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, seq),
    FOREIGN KEY (match_id, corrects) REFERENCES sheet_entries (match_id, seq)
);

CREATE TRIGGER sheet_entries_append_only
    BEFORE UPDATE OR DELETE ON sheet_entries
    FOR EACH ROW EXECUTE FUNCTION match_events_append_only();
