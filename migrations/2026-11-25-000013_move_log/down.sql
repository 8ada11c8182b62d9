DROP TRIGGER matches_notify_change ON matches;
DROP FUNCTION referee_notify_matches();
DROP TRIGGER match_events_notify_change ON match_events;
DROP FUNCTION referee_notify_events();
DROP FUNCTION referee_notify(text[]);

-- The code before this migration reads the snapshot as the whole match: a snapshot behind its log
-- cannot be replayed in SQL, so revert only once every match in progress has finished (a match's
-- snapshot is always current once it ends), or with the tables empty.

CREATE FUNCTION referee_notify_change() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('referee_changes', NEW.id::text || ':' || NEW.version::text);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER matches_notify_change
    AFTER UPDATE ON matches
    FOR EACH ROW
    WHEN (NEW.version IS DISTINCT FROM OLD.version OR NEW.status IS DISTINCT FROM OLD.status)
    EXECUTE FUNCTION referee_notify_change();

COMMENT ON COLUMN matches.version IS NULL;
COMMENT ON COLUMN matches.state IS NULL;
