DROP TRIGGER matches_notify_change ON matches;
DROP FUNCTION referee_notify_match();

CREATE FUNCTION referee_notify_matches() RETURNS trigger AS $$
BEGIN
    PERFORM referee_notify(ARRAY(
        SELECT after.id::text || ':' || after.version::text
        FROM after JOIN before ON before.id = after.id
        WHERE after.status IS DISTINCT FROM before.status
           OR after.access_version IS DISTINCT FROM before.access_version
           OR (after.kind = 'sheet' AND after.version IS DISTINCT FROM before.version)));
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER matches_notify_change
    AFTER UPDATE ON matches
    REFERENCING OLD TABLE AS before NEW TABLE AS after
    FOR EACH STATEMENT
    EXECUTE FUNCTION referee_notify_matches();
