-- A batch of moves announces only the matches someone follows. Every instance streaming a match
-- (its feed, see `crate::matches::feed`) holds a lease on it here, taken before the feed's first
-- read and renewed while the feed lives; the events' notice lists only matches with a lease in
-- force. A notice cost every batch 70-90 µs of PostgreSQL's CPU, most of it in the commit that
-- queues it (it serialises committing transactions on one lock), though no stream was open on
-- any of its matches in most batches.
--
-- Why no move is missed: every writer of a match's events holds a lock on its `matches` row
-- that conflicts with FOR NO KEY UPDATE until it commits (the append's FOR SHARE, the finish's
-- and the locked write's UPDATE or FOR UPDATE), and takes it before its events' trigger runs.
-- A lease is taken with that lock held. So a writer either commits before the lease does (and a
-- feed reads its events in its first read, made after the lease) or waits for the lease's
-- commit, and its trigger, which reads this table with a snapshot of its own, then sees it.
-- Leases expire rather than being removed, so a feed that ends (or an instance that dies)
-- leaves at most a few minutes of notices nobody needs. A match row's own notices (status, seat
-- access, a sheet's version) are rare and stay unconditional.
CREATE TABLE match_watches (
    match_id uuid PRIMARY KEY,
    until timestamptz NOT NULL
);
-- Lapsed leases are found through it when a lease is taken, however many are in force.
CREATE INDEX match_watches_until_idx ON match_watches (until);

CREATE OR REPLACE FUNCTION referee_notify_events() RETURNS trigger AS $$
DECLARE
    changes text[];
BEGIN
    changes := ARRAY(
        SELECT a.match_id::text || ':' || max(a.ply)::text
        FROM appended AS a
        WHERE EXISTS (SELECT 1 FROM match_watches AS w
                      WHERE w.match_id = a.match_id AND w.until > now())
        GROUP BY a.match_id);
    IF cardinality(changes) > 0 THEN
        PERFORM referee_notify(changes);
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
