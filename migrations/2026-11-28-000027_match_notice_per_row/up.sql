-- A match row's notice (a new status, a new seat access, a sheet's new version) comes from a
-- row trigger whose WHEN clause PostgreSQL evaluates itself, instead of a statement trigger.
-- The statement trigger ran its plpgsql function, with both transition tables, after every
-- UPDATE of `matches`, even one that changed no row. A batch of moves appends with such an
-- UPDATE (the snapshots that are due, usually none), and the trigger cost 0.15-0.19 ms of each
-- batch, as much as the batch's own plan. Rows that change status are few (a finish, an
-- abandon), so a notice per row costs nothing the statement trigger saved.
DROP TRIGGER matches_notify_change ON matches;
DROP FUNCTION referee_notify_matches();

CREATE FUNCTION referee_notify_match() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('referee_changes', NEW.id::text || ':' || NEW.version::text);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER matches_notify_change
    AFTER UPDATE ON matches
    FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status
          OR OLD.access_version IS DISTINCT FROM NEW.access_version
          OR (NEW.kind = 'sheet' AND OLD.version IS DISTINCT FROM NEW.version))
    EXECUTE FUNCTION referee_notify_match();
