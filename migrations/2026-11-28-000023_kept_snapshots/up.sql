-- Snapshots a hosted match's moves wrote, kept: the state after `ply` plies, every
-- SNAPSHOT_EVERY_PLIES plies. `matches.state` holds only the newest, so a log page, a ply's view
-- or a stream resumed deep in a long match replayed it from the deal; from these it replays at
-- most one snapshot interval before the plies it shows. Written in the move statement that wrote
-- the row's snapshot; the log stays the truth (a replay from ply 1 gives the same states).
CREATE TABLE match_snapshots (
    match_id UUID NOT NULL REFERENCES matches (id),
    ply      BIGINT NOT NULL CHECK (ply > 0),
    state    JSONB NOT NULL,
    PRIMARY KEY (match_id, ply)
);
