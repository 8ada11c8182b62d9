ALTER TABLE match_events
    DROP COLUMN restores,
    DROP COLUMN reported_by,
    DROP COLUMN revises;
