-- The move log: a hosted match's `match_events` are the truth and a move only appends to them.
-- `matches.state` becomes a snapshot, written every few plies and when the match ends, and
-- `matches.version` is the ply that snapshot stands at; the log may run ahead of it, and a read
-- replays the events after it. (A score sheet still moves its row forward with every entry.)
COMMENT ON COLUMN matches.version IS
    'hosted: the ply of the snapshot in state (the log may run ahead); sheets: the sheet''s version';
COMMENT ON COLUMN matches.state IS
    'hosted: the state after `version` plies, a snapshot; sheets: the sheet';

-- Change notices, once per statement instead of once per row: a batch of moves is one INSERT and
-- one commit, and NOTIFY serialises committing transactions on a global lock, so a notice per
-- row made every move wait for every other. A notice lists '<id>:<version>' entries separated by
-- commas, split to stay under PostgreSQL's 8000-byte payload limit.
DROP TRIGGER matches_notify_change ON matches;
DROP FUNCTION referee_notify_change();

CREATE FUNCTION referee_notify(changes text[]) RETURNS void AS $$
DECLARE
    payload text := '';
    change text;
BEGIN
    FOREACH change IN ARRAY coalesce(changes, '{}') LOOP
        IF length(payload) + length(change) > 7900 THEN
            PERFORM pg_notify('referee_changes', payload);
            payload := '';
        END IF;
        payload := payload || CASE WHEN payload = '' THEN '' ELSE ',' END || change;
    END LOOP;
    IF payload <> '' THEN
        PERFORM pg_notify('referee_changes', payload);
    END IF;
END;
$$ LANGUAGE plpgsql;

-- A hosted match moves forward by appending events.
CREATE FUNCTION referee_notify_events() RETURNS trigger AS $$
BEGIN
    PERFORM referee_notify(ARRAY(
        SELECT match_id::text || ':' || max(ply)::text FROM appended GROUP BY match_id));
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER match_events_notify_change
    AFTER INSERT ON match_events
    REFERENCING NEW TABLE AS appended
    FOR EACH STATEMENT
    EXECUTE FUNCTION referee_notify_events();

-- A match row announces a new status (finished, abandoned, a sheet reopened by a correction) and
-- a sheet's new version; a hosted match's snapshot write is not news, its events already were.
CREATE FUNCTION referee_notify_matches() RETURNS trigger AS $$
BEGIN
    PERFORM referee_notify(ARRAY(
        SELECT after.id::text || ':' || after.version::text
        FROM after JOIN before ON before.id = after.id
        WHERE after.status IS DISTINCT FROM before.status
           OR (after.kind = 'sheet' AND after.version IS DISTINCT FROM before.version)));
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER matches_notify_change
    AFTER UPDATE ON matches
    REFERENCING OLD TABLE AS before NEW TABLE AS after
    FOR EACH STATEMENT
    EXECUTE FUNCTION referee_notify_matches();
