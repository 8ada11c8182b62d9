-- A layout a distributed PostgreSQL (Citus) accepts when every per-match table is sharded by the
-- match id: no unique constraint and no foreign key may span two different distribution keys.
-- docs/scaling.md has the whole plan; tests/api/distribution.rs checks the catalog against it.

-- Invite codes are looked up by code, before the match is known. The code -> (match, seat) map
-- moves to a table of its own, keyed (and, on Citus, sharded) by the code's hash; the invite
-- itself stays with its match and keeps the hash, so a lookup is checked against it.
CREATE TABLE invite_codes (
    code_hash BYTEA PRIMARY KEY,
    match_id  UUID NOT NULL,
    seat      INTEGER NOT NULL
);
INSERT INTO invite_codes (code_hash, match_id, seat)
SELECT code_hash, match_id, seat FROM match_invites;
ALTER TABLE match_invites DROP CONSTRAINT match_invites_code_hash_key;

-- A rematch links two matches, which may live on two shards: each side records the link in a row
-- of its own, keyed by its own id. One row per match still means a match has at most one rematch
-- and is the rematch of at most one.
CREATE TABLE match_rematch_links (
    match_id   UUID PRIMARY KEY REFERENCES matches (id),
    -- The match this one is a rematch of.
    rematch_of UUID,
    -- This match's rematch.
    rematch    UUID,
    CHECK (rematch_of IS NOT NULL OR rematch IS NOT NULL)
);
INSERT INTO match_rematch_links (match_id, rematch_of, rematch)
SELECT id, (array_agg(rematch_of) FILTER (WHERE rematch_of IS NOT NULL))[1],
       (array_agg(rematch) FILTER (WHERE rematch IS NOT NULL))[1]
FROM (SELECT match_id AS id, NULL::uuid AS rematch_of, rematch_id AS rematch FROM match_rematches
      UNION ALL
      SELECT rematch_id, match_id, NULL FROM match_rematches) AS sides
GROUP BY id;
DROP TABLE match_rematches;

-- A create's key is sharded by the key's hash, not by the match it made: the reference to the
-- match goes (matches are never deleted, so the cascade it carried never fired).
ALTER TABLE idempotent_creates DROP CONSTRAINT idempotent_creates_match_id_fkey;
