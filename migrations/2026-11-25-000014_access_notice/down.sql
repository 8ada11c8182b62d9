CREATE OR REPLACE FUNCTION referee_notify_matches() RETURNS trigger AS $$
BEGIN
    PERFORM referee_notify(ARRAY(
        SELECT after.id::text || ':' || after.version::text
        FROM after JOIN before ON before.id = after.id
        WHERE after.status IS DISTINCT FROM before.status
           OR (after.kind = 'sheet' AND after.version IS DISTINCT FROM before.version)));
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
