-- Mending a hosted match: a seat's take-back of its own last move, and the correction of a
-- table's chance report, are entries appended to the log like any other; nothing is rewritten.
ALTER TABLE match_events
    ADD COLUMN revises bigint,
    ADD COLUMN reported_by integer,
    ADD COLUMN restores jsonb,
    ADD CONSTRAINT match_events_revises_earlier
        CHECK (revises IS NULL OR (revises >= 1 AND revises < ply)),
    ADD CONSTRAINT match_events_mending_restores
        CHECK ((revises IS NULL) = (restores IS NULL)),
    ADD CONSTRAINT match_events_reporter_of_chance
        CHECK (reported_by IS NULL OR seat IS NULL);

COMMENT ON COLUMN match_events.revises IS
    'a mending: the ply this entry takes back (with a seat) or corrects (a chance outcome)';
COMMENT ON COLUMN match_events.reported_by IS
    'the seat whose token reported this chance outcome; null when the owner reported it or the server drew it';
COMMENT ON COLUMN match_events.restores IS
    'a mending: the state the table returns to (the state before the ply it revises), so that a reader applies it without replaying the match';
