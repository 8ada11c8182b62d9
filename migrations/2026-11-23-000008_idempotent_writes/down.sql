DROP TABLE idempotent_creates;
DROP INDEX sheet_entries_idempotency_idx;
ALTER TABLE sheet_entries DROP COLUMN idempotency_key, DROP COLUMN request_hash;
