-- Abandoning leaves a trace. Who abandoned a match or sheet, when, and at which version of it;
-- and whether play had begun (a seat had moved, or a sheet had a round), which is what decides
-- whether it counts in its players' records as `abandoned` (see docs/security.md).
CREATE TABLE match_abandons (
    match_id      UUID PRIMARY KEY REFERENCES matches (id),
    -- Who gave it up; only its owner can today.
    abandoned_by  TEXT NOT NULL CHECK (abandoned_by IN ('owner')),
    abandoned_at  TIMESTAMPTZ NOT NULL,
    -- Hosted: the log's last ply; a sheet: its version.
    at_version    BIGINT NOT NULL CHECK (at_version >= 0),
    after_play    BOOLEAN NOT NULL
);

-- Matches abandoned before this migration: by their owner (the only one who could), at their
-- last change.
INSERT INTO match_abandons (match_id, abandoned_by, abandoned_at, at_version, after_play)
SELECT m.id, 'owner', m.updated_at,
       CASE WHEN m.kind = 'hosted'
            THEN greatest(m.version, coalesce((SELECT max(e.ply) FROM match_events e
                                               WHERE e.match_id = m.id), 0))
            ELSE m.version END,
       CASE WHEN m.kind = 'hosted'
            THEN EXISTS (SELECT 1 FROM match_events e
                         WHERE e.match_id = m.id AND e.seat IS NOT NULL)
            ELSE m.version > 0 END
FROM matches m
WHERE m.status = 'abandoned';

-- The running totals count a player's abandoned matches beside the finished ones.
ALTER TABLE player_game_stats ADD COLUMN abandoned BIGINT NOT NULL DEFAULT 0
    CHECK (abandoned >= 0);
INSERT INTO player_game_stats (game, player_key, player_name, played, won, score_sum, abandoned)
SELECT m.game, s.player_key, max(s.player_name), 0, 0, 0, count(*)
FROM match_seats s JOIN matches m ON m.id = s.match_id
JOIN match_abandons a ON a.match_id = m.id
WHERE a.after_play
GROUP BY m.game, s.player_key
ON CONFLICT (game, player_key) DO UPDATE SET abandoned = EXCLUDED.abandoned;

-- Which scheme the stored player keys were computed by (src/vocabulary.rs, NAME_KEY_SCHEME). SQL
-- cannot compute the confusable skeleton of scheme 2, so the service re-keys the stored seats at
-- start-up, once, and records it here; the one row is locked while it does.
CREATE TABLE name_key_scheme (
    only_row BOOLEAN PRIMARY KEY DEFAULT true CHECK (only_row),
    scheme   INTEGER NOT NULL
);
INSERT INTO name_key_scheme (scheme) VALUES (1);
