-- Live streams across instances: every committed change to a match or sheet (a new version, or a
-- new status) is announced on `referee_changes` as '<id>:<version>'. PostgreSQL delivers a
-- notification only when its transaction commits, so listeners never see a change that was
-- rolled back; they read the content from the tables, never from the payload.
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

-- A seat renamed in the lobby changes the view but not the version: announced too, so that
-- streams send the new view.
CREATE FUNCTION referee_notify_seat_change() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('referee_changes', NEW.match_id::text || ':seats');
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER match_seats_notify_change
    AFTER UPDATE ON match_seats
    FOR EACH ROW
    WHEN (NEW.player_name IS DISTINCT FROM OLD.player_name)
    EXECUTE FUNCTION referee_notify_seat_change();
