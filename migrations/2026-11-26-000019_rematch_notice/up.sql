-- A match or sheet gaining its rematch changes what it shows (`rematch`) but not its version:
-- announced on `referee_changes` like a renamed seat, so that a page following the old one by
-- its stream learns of the new one at once (a score sheet's evening moves on to it).
CREATE FUNCTION referee_notify_rematch() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('referee_changes', NEW.match_id::text || ':rematch');
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER match_rematch_links_notify_change
    AFTER INSERT OR UPDATE ON match_rematch_links
    FOR EACH ROW
    WHEN (NEW.rematch IS NOT NULL)
    EXECUTE FUNCTION referee_notify_rematch();
