ALTER TABLE idempotent_creates ADD CONSTRAINT idempotent_creates_match_id_fkey
    FOREIGN KEY (match_id) REFERENCES matches (id) ON DELETE CASCADE;

CREATE TABLE match_rematches (
    match_id   UUID PRIMARY KEY REFERENCES matches (id),
    rematch_id UUID NOT NULL UNIQUE REFERENCES matches (id)
);
INSERT INTO match_rematches (match_id, rematch_id)
SELECT match_id, rematch FROM match_rematch_links WHERE rematch IS NOT NULL;
DROP TABLE match_rematch_links;

ALTER TABLE match_invites ADD CONSTRAINT match_invites_code_hash_key UNIQUE (code_hash);
DROP TABLE invite_codes;
