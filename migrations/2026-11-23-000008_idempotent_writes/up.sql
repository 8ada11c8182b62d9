-- Retried writes store nothing twice. A sheet entry keeps its Idempotency-Key (as a move does)
-- for as long as the sheet exists.
ALTER TABLE sheet_entries ADD COLUMN idempotency_key TEXT, ADD COLUMN request_hash BYTEA;
CREATE UNIQUE INDEX sheet_entries_idempotency_idx
    ON sheet_entries (match_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

-- Creates have no record to hang a key on: their keys live here for 24 hours (deleted by the
-- next keyed create after that). The first answer holds tokens, so it is kept sealed with a
-- stream derived from the key itself, which only its holder knows (the row has its hash).
CREATE TABLE idempotent_creates (
    key_hash        BYTEA PRIMARY KEY,
    request_hash    BYTEA NOT NULL,
    match_id        UUID NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    sealed_response BYTEA NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL
);
CREATE INDEX idempotent_creates_created_idx ON idempotent_creates (created_at);
